//! midpoint2's amplification matrix (Schwab & Delhaes §7.4) against one step of the method in
//! `src/method/midpoint2.rs` on q'' = −ω²q − 2βωq'.

use nalgebra::Complex;
use odelab::method::create;
use odelab::method::midpoint2::{matrix, spectral_radius};
use odelab::problem::System;
use odelab::Stats;

struct Oscillator {
    omega: f64,
    beta: f64,
}

impl System for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -self.omega * self.omega * y[0] - 2.0 * self.beta * self.omega * y[1];
    }
}

#[test]
fn midpoint2_matrix_matches_one_step_of_the_method() {
    for &(omega, beta, h) in &[
        (10.0, 0.05, 0.01),
        (3.0, 0.5, 0.3),
        (1.0, -0.2, 1.5),
        (2.0, 0.0, 0.9),
    ] {
        let sys = Oscillator { omega, beta };
        // ξ = hλ with λ = −βω + i√(1 − β²)ω (002 after eq. 7.13).
        let xi = Complex::new(-beta * omega * h, (1.0 - beta * beta).sqrt() * omega * h);
        let m = matrix(xi);
        let mut stepper = create("midpoint2", 2).unwrap();
        let mut stats = Stats::default();
        for y0 in [[1.0, 0.0], [0.0, 1.0 / h]] {
            let mut y1 = [0.0; 2];
            stepper
                .step(&sys, 0.0, &y0, h, &mut y1, &mut stats)
                .unwrap();
            // M acts on (q, h q').
            let p0 = [y0[0], h * y0[1]];
            let want = [
                m[0][0] * p0[0] + m[0][1] * p0[1],
                m[1][0] * p0[0] + m[1][1] * p0[1],
            ];
            let got = [y1[0], h * y1[1]];
            for k in 0..2 {
                assert!(
                    (want[k] - got[k]).abs() < 1e-13,
                    "ω {omega} β {beta} h {h}: {want:?} vs {got:?}"
                );
            }
        }
    }
}

#[test]
fn midpoint2_undamped_has_det_one_and_is_stable_up_to_two() {
    for w in [0.5, 1.0, 1.9] {
        let m = matrix(Complex::new(0.0, w));
        let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        assert!((det - 1.0).abs() < 1e-14);
        assert!((m[0][0] + m[1][1] - (2.0 - w * w)).abs() < 1e-14);
        assert!((spectral_radius(Complex::new(0.0, w)) - 1.0).abs() < 1e-12);
    }
    assert!(spectral_radius(Complex::new(0.0, 2.1)) > 1.0);
}
