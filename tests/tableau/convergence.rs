//! Your own method in the convergence lab: `methods: ["custom"]` with the spec's tableau.

use super::known::*;
use odelab::convergence::{convergence, ConvergenceSpec};

fn spec(methods: &[&str]) -> ConvergenceSpec {
    ConvergenceSpec {
        model: "mass-spring-damper".into(),
        params: [("c".to_string(), 5.0)].into_iter().collect(),
        methods: methods.iter().map(|s| s.to_string()).collect(),
        n_min: Some(6),
        n_max: Some(12),
        tols: Some(vec![1e-4, 1e-6]),
        local_h: Some(vec![0.01, 0.005]),
        tableau: Some(three_eighths()),
        ..Default::default()
    }
}

#[test]
fn three_eighths_rule_has_slope_four_in_the_convergence_lab() {
    let r = convergence(&spec(&["rk4", "custom"])).unwrap();
    let custom = &r.global[1];
    assert_eq!(custom.method, "custom");
    assert_eq!(custom.order, 4);
    assert!((custom.fit.slope - 4.0).abs() < 0.1, "{:?}", custom.fit);
    // Not adaptive (no b̂): no work–precision series.
    assert!(r.work_precision.is_empty());
}

#[test]
fn adaptive_custom_pair_gets_a_work_precision_series() {
    let mut s = spec(&["custom"]);
    s.tableau = Some(bogacki_shampine());
    let r = convergence(&s).unwrap();
    assert_eq!(r.global[0].order, 3);
    assert_eq!(r.work_precision.len(), 1);
}

#[test]
fn custom_without_tableau_is_refused_in_the_convergence_lab() {
    let mut s = spec(&["custom"]);
    s.tableau = None;
    let e = convergence(&s).unwrap_err();
    assert!(e.to_string().contains("needs a tableau"), "{e}");
}
