//! `ros4`, Negrut et al. 2003 Table 1 with γ21's sign corrected (the Sources panel's errata): the
//! golden step, order 4 and embedded order 3, L-stability, stiff efficiency, errors.

use super::common::*;
use super::stiff_common::*;
use odelab::method::{create, rosenbrock_tableau};
use odelab::stats::Stats;

/// the Sources panel's errata: one step of y' = −2ty² from t = 0.5, y = 0.8, h = 0.1
/// (exercises the ∂f/∂t term of Negrut et al. 2003 eq. 2b) gives y1 = 0.7352912959643092.
#[test]
fn ros4_golden_step_with_dfdt_term() {
    let mut stepper = create("ros4", 1).unwrap();
    let mut y1 = [0.0];
    let mut stats = Stats::default();
    stepper
        .step(&Riccati, 0.5, &[0.8], 0.1, &mut y1, &mut stats)
        .unwrap();
    assert!(
        (y1[0] - 0.7352912959643092).abs() < 1e-15,
        "y1 = {:.17}",
        y1[0]
    );
    assert_eq!(stats.nfev, 3);
    assert_eq!(stats.njev, 1);
    assert_eq!(stats.nlu, 1);
}

/// R(−∞) from the implemented coefficients: ≈ 9.6e-9 (γ printed to 8 digits).
#[test]
fn ros4_is_l_stable() {
    let tab = rosenbrock_tableau("ros4").unwrap();
    let r_inf = tab.stability(f64::NEG_INFINITY);
    println!("ros4 R(−∞) = {r_inf:e}");
    assert!(r_inf.abs() < 1e-6, "R(−∞) = {r_inf:e}");
    assert!(r_inf.abs() > 1e-10, "R(−∞) = {r_inf:e} (γ has 8 digits)");
    // The limit agrees with R at a very large |z|.
    assert!((tab.stability(-1e9) - r_inf).abs() < 1e-8);
    // A-stable along the negative real axis.
    for k in 0..200 {
        let z = -10f64.powf(-3.0 + 0.05 * k as f64);
        assert!(tab.stability(z).abs() <= 1.0, "R({z}) > 1");
    }
}

/// The embedded formula of Negrut et al. 2003 Table 1 is not L-stable: R̂(−∞) =
/// −0.367305, so the estimate y − ŷ keeps ≈ 37 % of a stiff component that y damps
/// (R(−∞) ≈ 1e-8), where RODAS's embedded solution damps it too. Golden value from an
/// independent evaluation of the same recursion in Python (double precision).
#[test]
fn ros4_embedded_formula_keeps_a_third_of_a_stiff_component() {
    let tab = rosenbrock_tableau("ros4").unwrap();
    let embedded = odelab::method::RosenbrockTableau {
        b: tab.b_hat,
        ..*tab
    };
    let r_hat = embedded.stability(f64::NEG_INFINITY);
    assert!(
        (r_hat + 0.36730496964249415).abs() < 1e-12,
        "R̂(−∞) = {r_hat}"
    );
    // At hλ = −100 the estimate's factor R − R̂ is still ≈ 0.34.
    let gap = tab.stability(-100.0) - embedded.stability(-100.0);
    assert!(
        (gap - 0.34273741450514).abs() < 1e-9,
        "R − R̂ at −100 = {gap}"
    );
}

#[test]
fn ros4_order_four_and_embedded_three() {
    let (p, errs) = observed_order("ros4", 0.01, 4, 1.0);
    println!("ros4 order {p}, errors {errs:?}");
    assert!((p - 4.0).abs() < 0.15, "order {p}, errors {errs:?}");
    let (q, ests) = embedded_order_on_riccati("ros4", 0.1, 4);
    println!(
        "ros4 local error estimate slope {q} (embedded order {}), {ests:?}",
        q - 1.0
    );
    assert!(
        (q - 4.0).abs() < 0.15,
        "local estimate slope {q} (order 3 ⇒ h⁴), {ests:?}"
    );
}

/// A-stable: |R(iy)| ≤ 1 on the imaginary axis (and R real-consistent), for ros4 and w2.
#[test]
fn rosenbrock_methods_are_a_stable_on_the_imaginary_axis() {
    use nalgebra::Complex;
    for id in ["ros4", "w2"] {
        let tab = rosenbrock_tableau(id).unwrap();
        for k in 0..400 {
            let y = 10f64.powf(-3.0 + 0.02 * k as f64);
            let r = tab.stability_complex(Complex::new(0.0, y)).norm();
            assert!(r <= 1.0 + 1e-12, "{id}: |R({y}i)| = {r}");
        }
        let z = -2.5;
        let rc = tab.stability_complex(Complex::new(z, 0.0));
        assert!((rc.re - tab.stability(z)).abs() < 1e-14 && rc.im == 0.0);
    }
}

/// y' = −2ty² in each of two uncoupled components (the golden step's equation twice).
struct TwinRiccati;

impl odelab::problem::System for TwinRiccati {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        for (d, v) in dy.iter_mut().zip(y) {
            *d = -2.0 * t * v * v;
        }
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> Option<nalgebra::DMatrix<f64>> {
        let d = nalgebra::DVector::from_iterator(2, y.iter().map(|v| -4.0 * t * v));
        Some(nalgebra::DMatrix::from_diagonal(&d))
    }
    fn dfdt(&self, _t: f64, y: &[f64]) -> Option<nalgebra::DVector<f64>> {
        Some(nalgebra::DVector::from_iterator(
            2,
            y.iter().map(|v| -2.0 * v * v),
        ))
    }
}

/// The Rosenbrock step for two states (compiled with the size a constant, its 2 × 2
/// LU written out) does the any-size step's arithmetic: on two uncoupled copies of the
/// golden step's equation each component, and its error estimate, has the one-state
/// step's bits, for ros4 and w2.
#[test]
fn two_state_rosenbrock_step_is_the_any_size_steps_arithmetic() {
    for id in ["ros4", "w2"] {
        let (mut one, mut two) = (create(id, 1).unwrap(), create(id, 2).unwrap());
        let (mut y1, mut y2) = ([0.0], [0.0; 2]);
        let (mut s1, mut s2) = (Stats::default(), Stats::default());
        one.step(&Riccati, 0.5, &[0.8], 0.1, &mut y1, &mut s1)
            .unwrap();
        two.step(&TwinRiccati, 0.5, &[0.8, 0.8], 0.1, &mut y2, &mut s2)
            .unwrap();
        let (e1, e2) = (one.error_estimate().unwrap(), two.error_estimate().unwrap());
        for c in 0..2 {
            assert_eq!(y2[c].to_bits(), y1[0].to_bits(), "{id}: y[{c}]");
            assert_eq!(e2[c].to_bits(), e1[0].to_bits(), "{id}: estimate[{c}]");
        }
        assert_eq!(
            (s2.nfev, s2.njev, s2.nlu),
            (s1.nfev, s1.njev, s1.nlu),
            "{id}"
        );
    }
}
