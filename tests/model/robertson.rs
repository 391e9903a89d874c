//! Robertson's stiff kinetics.

use super::common::{last, spec};
use odelab::model::build;
use std::collections::BTreeMap;

/// The rates sum to zero: rk4 keeps y1 + y2 + y3 = 1 to round-off, and reproduces
/// Hairer–Wanner's y(40) ≈ (0.7158271, 9.185e-6, 0.2841637) at h = 5e-4 (inside rk4's
/// stability limit ≈ 2.8/3400 set by the fast eigenvalue at t = 40).
#[test]
fn robertson_conserves_mass_and_reaches_the_reference() {
    let sol = odelab::solve(&spec("robertson", "rk4", 5e-4, 40.0)).unwrap();
    let defect = &sol.outputs[0];
    assert_eq!(defect.0, "mass defect");
    let worst = defect.1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    eprintln!("robertson: max |y1 + y2 + y3 − 1| = {worst:e}");
    assert!(worst < 1e-13, "{worst}");
    let y = last(&sol);
    eprintln!("robertson y(40) = {y:?}");
    assert!((y[0] - 0.7158271).abs() < 1e-6, "{y:?}");
    assert!((y[1] - 9.185e-6).abs() < 1e-8, "{y:?}");
    assert!((y[2] - 0.2841637).abs() < 1e-6, "{y:?}");
}

/// The Jacobian's columns sum to zero (conservation), at any state.
#[test]
fn robertson_jacobian_columns_sum_to_zero() {
    let (_, model) = build("robertson", &BTreeMap::new()).unwrap();
    let j = model.jacobian(0.0, &[0.7, 3e-5, 0.3]).unwrap();
    for c in 0..3 {
        let s: f64 = (0..3).map(|r| j[(r, c)]).sum();
        assert!(s.abs() < 1e-9, "column {c}: {s}");
    }
}

#[test]
fn robertson_rates_must_be_positive() {
    let mut p = BTreeMap::new();
    p.insert("k2".to_string(), -1.0);
    assert!(matches!(
        build("robertson", &p),
        Err(odelab::OdeError::BadParam { .. })
    ));
}
