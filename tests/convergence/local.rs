//! Local error after one step: slope p + 1.

use odelab::convergence::{convergence, ConvergenceSpec};

#[test]
fn local_error_slopes_are_order_plus_one() {
    let r = convergence(&ConvergenceSpec {
        model: "mass-spring-damper".into(),
        methods: vec!["euler".into(), "rk4".into()],
        n_min: Some(4),
        n_max: Some(6),
        tols: Some(vec![]),
        local_h: Some((0..8).map(|k| 0.02 * 2f64.powi(-k)).collect()),
        ..Default::default()
    })
    .unwrap();
    for (s, p) in r.local.iter().zip([2.0, 5.0]) {
        println!("{}: local slope {:.3}", s.method, s.fit.slope);
        assert!(
            (s.fit.slope - p).abs() < 0.15,
            "{}: {:?} {:?}",
            s.method,
            s.fit,
            s.error
        );
    }
}

#[test]
fn local_error_against_a_reference_run_when_there_is_no_exact_solution() {
    let r = convergence(&ConvergenceSpec {
        model: "pendulum".into(),
        methods: vec!["heun".into()],
        n_min: Some(4),
        n_max: Some(6),
        tols: Some(vec![]),
        local_h: Some(vec![0.04, 0.02, 0.01]),
        ..Default::default()
    })
    .unwrap();
    assert!(r.reference.starts_with("dp45"));
    assert!((r.local[0].fit.slope - 3.0).abs() < 0.2, "{:?}", r.local[0]);
}

#[test]
fn local_estimate_of_an_embedded_pair_tracks_its_local_error() {
    let r = convergence(&ConvergenceSpec {
        model: "mass-spring-damper".into(),
        methods: vec!["bs23".into(), "rk4".into()],
        n_min: Some(4),
        n_max: Some(6),
        tols: Some(vec![]),
        local_h: Some(vec![0.02, 0.01, 0.005]),
        ..Default::default()
    })
    .unwrap();
    let bs23 = &r.local[0];
    // The estimate is of the order-2 embedded solution's error: at least the true
    // error of the order-3 result, and O(h³).
    for (e, est) in bs23.error.iter().zip(&bs23.estimate) {
        assert!(est.is_finite() && *est > 0.5 * e, "{e} vs {est}");
    }
    assert!(r.local[1].estimate.iter().all(|x| x.is_nan()));
}
