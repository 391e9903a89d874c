//! Implicit midpoint, Hairer, Lubich & Wanner, Geometric Numerical Integration (2006),
//! §I.1.2 and §II.1.1: order 2, A-stable with R(z) = (1 + z/2)/(1 − z/2), and it keeps
//! every quadratic invariant of the flow (HLW Theorem IV.2.2).

use super::common::*;
use nalgebra::Complex;
use odelab::stability::{Amplification, StabilitySpec};

#[test]
fn order_two_on_the_damped_oscillator() {
    let (p, errs) = observed_order("implicit-midpoint", 4e-3, 5, 1.0);
    assert!(
        (p - 2.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

/// The undamped oscillator's energy ½mv² + ½kx² − mgx is a quadratic invariant: over
/// 10⁴ steps it moves by round-off only (the linear Newton solve converges to it).
#[test]
fn conserves_the_oscillator_energy_to_round_off() {
    let mut s = fixed("mass-spring-damper", "implicit-midpoint", 0.01, 100.0);
    s.params.insert("c".into(), 0.0);
    s.y0 = Some(vec![1.0, 0.0]);
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.stats.nsteps, 10_000);
    let drift = max_relative_drift(&sol, "energy");
    assert!(drift < 1e-12, "relative energy drift {drift:e}");
    // An explicit method of the same order drifts by far more.
    let mut s = fixed("mass-spring-damper", "heun", 0.01, 100.0);
    s.params.insert("c".into(), 0.0);
    s.y0 = Some(vec![1.0, 0.0]);
    let heun = max_relative_drift(&odelab::solve(&s).unwrap(), "energy");
    assert!(heun > 1e-4, "Heun's drift {heun:e}");
}

fn xi_value(xi: Complex<f64>) -> f64 {
    Amplification::from_spec(&StabilitySpec {
        method: "implicit-midpoint".into(),
        ..Default::default()
    })
    .unwrap()
    .value(xi)
}

#[test]
fn its_stability_function_is_the_one_one_pade_approximant() {
    for z in [
        Complex::new(-1.0, 0.0),
        Complex::new(-3.0, 2.0),
        Complex::new(0.5, -1.5),
        Complex::new(0.0, 7.0),
    ] {
        let r = (Complex::new(1.0, 0.0) + z * 0.5) / (Complex::new(1.0, 0.0) - z * 0.5);
        assert!((xi_value(z) - r.norm()).abs() < 1e-14, "z = {z}");
    }
    // A-stable, |R| = 1 on the imaginary axis, R(−∞) = −1: not L-stable.
    let amp = Amplification::from_spec(&StabilitySpec {
        method: "implicit-midpoint".into(),
        ..Default::default()
    })
    .unwrap();
    assert!((amp.value_at_infinity() - 1.0).abs() < 1e-14);
}
