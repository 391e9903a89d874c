//! Störmer–Verlet (velocity form), Hairer, Lubich & Wanner, Geometric Numerical
//! Integration (2006), §I.1.4 and §VI.3: order 2, one evaluation of f per step (first
//! same as last), symplectic, so its energy error on the pendulum stays bounded over
//! long times where RK4's drifts.

use super::common::*;
use nalgebra::Complex;
use odelab::method::create;
use odelab::model;
use odelab::stability::{Amplification, StabilitySpec};
use odelab::Stats;
use std::collections::BTreeMap;

#[test]
fn order_two_on_the_undamped_oscillator() {
    let (p, errs) = observed_order_with("verlet", &[("c", 0.0)], 4e-3, 5, 1.0);
    assert!(
        (p - 2.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

/// A damping force depends on q': the end acceleration is taken at the explicit
/// estimate v* of v_{n+1}, O(h²) off, which keeps the step second order.
#[test]
fn order_two_with_a_velocity_dependent_force() {
    let (p, errs) = observed_order("verlet", 4e-3, 5, 1.0);
    assert!(
        (p - 2.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

#[test]
fn one_evaluation_per_step_after_the_first() {
    let sol = run("pendulum", "verlet", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 101);
}

/// max |E − E₀|/E₀ over `periods` periods of the pendulum (θ₀ = 1 rad, period ≈ 2.139 s)
/// at step h, per block of `block` periods.
fn pendulum_energy_error(method: &str, h: f64, periods: usize, block: usize) -> Vec<f64> {
    let (info, pendulum) = model::build("pendulum", &BTreeMap::new()).unwrap();
    let energy = |y: &[f64]| {
        let mut e = [0.0];
        pendulum.outputs(0.0, y, &mut e);
        e[0]
    };
    let mut stepper = create(method, 2).unwrap();
    let mut stats = Stats::default();
    let (mut y, mut next) = (info.y0.clone(), vec![0.0; 2]);
    let e0 = energy(&y);
    let steps_per_block = (block as f64 * 2.139 / h).round() as usize;
    let mut t = 0.0;
    let mut blocks = Vec::new();
    for _ in 0..periods / block {
        let mut worst = 0.0f64;
        for _ in 0..steps_per_block {
            stepper
                .step(pendulum.as_ref(), t, &y, h, &mut next, &mut stats)
                .unwrap();
            std::mem::swap(&mut y, &mut next);
            t += h;
            worst = worst.max((energy(&y) - e0).abs() / e0);
        }
        blocks.push(worst);
    }
    blocks
}

/// 10⁵ periods at h = 0.1 (hω ≈ 0.31, about 21 steps a period): Störmer–Verlet's
/// energy error in the last ten thousand periods is that of the first ten thousand
/// (bounded, HLW §IX.8), while RK4's grows block after block from the first thousand
/// periods on (it takes energy out every step) and passes Verlet's tenfold.
#[test]
fn energy_error_stays_bounded_over_a_hundred_thousand_periods_where_rk4_drifts() {
    let verlet = pendulum_energy_error("verlet", 0.1, 100_000, 10_000);
    let (first, last) = (verlet[0], verlet[verlet.len() - 1]);
    assert!(first > 0.0 && first < 0.03, "{verlet:?}");
    assert!(
        verlet.iter().all(|&e| (e - first).abs() <= 1e-6 * first),
        "Verlet's energy error drifts: {verlet:?}"
    );
    let rk4 = pendulum_energy_error("rk4", 0.1, 10_000, 1_000);
    assert!(
        rk4.windows(2).all(|w| w[1] > w[0]) && rk4[rk4.len() - 1] > 10.0 * last,
        "RK4 {rk4:?} against Verlet {verlet:?}"
    );
}

fn xi_value(xi: Complex<f64>) -> f64 {
    Amplification::from_spec(&StabilitySpec {
        method: "verlet".into(),
        ..Default::default()
    })
    .unwrap()
    .value(xi)
}

/// Undamped (ξ = iΩ, Ω = hω) the step's eigenvalues lie on the unit circle up to
/// hω = 2 (det 1, trace 2 − Ω², HLW §I.5) and one leaves it beyond; damping (Re ξ < 0)
/// shrinks them.
#[test]
fn the_xi_plane_is_neutral_up_to_h_omega_two() {
    for omega in [0.1, 0.5, 1.0, 1.5, 1.99] {
        let v = xi_value(Complex::new(0.0, omega));
        assert!((v - 1.0).abs() < 1e-7, "Ω = {omega}: {v}");
    }
    assert!(xi_value(Complex::new(0.0, 2.1)) > 1.2);
    assert!(xi_value(Complex::new(-0.2, 1.0)) < 1.0);
}

/// The eigenvalues of the 3 × 3 map on (q, hv, h²a) are those of the step: with the
/// damped oscillator's x'' = −ω²x − 2βωx' it multiplies (q, hv) by the same matrix.
#[test]
fn the_amplification_matrix_is_the_step_on_the_damped_oscillator() {
    use odelab::method::verlet::matrix;
    let (omega, c, h): (f64, f64, f64) = (3.0, 0.8, 0.1);
    // ξ with |ξ|² = (hω)² and −2 Re ξ = c h (c = 2βω).
    let re = -0.5 * c * h;
    let xi = Complex::new(re, ((omega * h) * (omega * h) - re * re).sqrt());
    let m = matrix(xi);
    let accel = |q: f64, v: f64| -omega * omega * q - c * v;
    let (q, v) = (0.7, -0.3);
    let a = accel(q, v);
    let v_half = v + 0.5 * h * a;
    let q1 = q + h * v_half;
    let a1 = accel(q1, v_half + 0.5 * h * a);
    let v1 = v_half + 0.5 * h * a1;
    let s = [q, h * v, h * h * a];
    let by_m: Vec<f64> = m
        .iter()
        .map(|row| row.iter().zip(&s).map(|(x, y)| x * y).sum())
        .collect();
    for (got, want) in by_m.iter().zip([q1, h * v1, h * h * a1]) {
        assert!((got - want).abs() < 1e-14, "{by_m:?}");
    }
}
