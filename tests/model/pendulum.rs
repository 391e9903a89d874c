//! The undamped pendulum of Schwab & Delhaes Fig. 7.5.

use odelab::model::build;
use std::collections::BTreeMap;

#[test]
fn energy_at_rest_from_one_radian() {
    let (_, model) = build("pendulum", &BTreeMap::new()).unwrap();
    let mut e = [0.0];
    model.outputs(0.0, &[1.0, 0.0], &mut e);
    assert!((e[0] - 9.81 * (1.0 - 1f64.cos())).abs() < 1e-15);
}

#[test]
fn small_angle_period_matches_two_pi_sqrt_l_over_g() {
    // A 0.01 rad swing: period 2π√(L/g)(1 + θ0²/16 + …) ≈ 2.00607 s for L = 1.
    let mut spec = super::common::spec("pendulum", "rk4", 1e-3, 2.006_066_680_292_98);
    spec.y0 = Some(vec![0.01, 0.0]);
    let sol = odelab::solve(&spec).unwrap();
    let end = super::common::last(&sol);
    assert!(
        (end[0] - 0.01).abs() < 1e-7,
        "θ after one period {}",
        end[0]
    );
}
