//! `method: "custom"` in `solve`: a user's tableau runs through the explicit RK step.

use super::common::*;
use super::known::*;
use odelab::spec::{SolveSpec, Tol};
use odelab::tableau::TableauSpec;
use odelab::{solve, Solution};

fn custom(model: &str, tableau: TableauSpec, h: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        tableau: Some(tableau),
        ..spec(model, "custom", h, t1)
    }
}

fn run_custom(model: &str, tableau: TableauSpec, h: f64, t1: f64) -> Solution {
    solve(&custom(model, tableau, h, t1)).expect("a valid custom tableau solves")
}

#[test]
fn custom_rk4_reproduces_rk4_bit_for_bit_on_the_pendulum() {
    let reference = run("pendulum", "rk4", 0.01, 5.0);
    for tableau in [rk4_typed(), catalogue("rk4")] {
        let sol = run_custom("pendulum", tableau, 0.01, 5.0);
        assert_eq!(sol.t, reference.t);
        assert_eq!(sol.y, reference.y);
        assert_eq!(sol.stats.nfev, reference.stats.nfev);
    }
}

#[test]
fn three_eighths_rule_has_observed_order_four() {
    let hs: Vec<f64> = (0..4).map(|k| 0.02 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&run_custom("mass-spring-damper", three_eighths(), h, 1.0)))
        .collect();
    let p = loglog_slope(&hs, &errs);
    assert!((p - 4.0).abs() < 0.1, "observed order {p}, errors {errs:?}");
}

#[test]
fn ralston_has_observed_order_two() {
    let hs: Vec<f64> = (0..4).map(|k| 0.02 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&run_custom("mass-spring-damper", ralston(), h, 1.0)))
        .collect();
    let p = loglog_slope(&hs, &errs);
    assert!((p - 2.0).abs() < 0.1, "observed order {p}, errors {errs:?}");
}

#[test]
fn custom_tableau_with_b_hat_runs_adaptively() {
    let mut s = custom("mass-spring-damper", bogacki_shampine(), 0.0, 5.0);
    s.h = None;
    s.rtol = Some(Tol::Scalar(1e-6));
    s.atol = Some(Tol::Scalar(1e-9));
    let sol = solve(&s).unwrap();
    assert_eq!(
        sol.err_est.len(),
        sol.h.len(),
        "one error estimate per step"
    );
    assert!(sol.err_est.iter().all(|&e| e <= 1.0));
    let (hmin, hmax) = sol
        .h
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &h| (a.min(h), b.max(h)));
    assert!(hmax > 1.5 * hmin, "step sizes vary: {hmin} .. {hmax}");
    assert_eq!(*sol.t.last().unwrap(), 5.0);
    assert!(final_error(&sol) < 1e-4, "{}", final_error(&sol));
    // FSAL: about three evaluations per step, as for bs23.
    let bs23 = solve(&SolveSpec {
        h: None,
        ..s.clone()
    })
    .unwrap();
    assert!(
        bs23.stats.nfev <= 3 * bs23.stats.nsteps + 4,
        "{:?}",
        bs23.stats
    );
    // A tighter tolerance takes more steps.
    let tight = solve(&SolveSpec {
        rtol: Some(Tol::Scalar(1e-9)),
        atol: Some(Tol::Scalar(1e-12)),
        ..s
    })
    .unwrap();
    assert!(tight.stats.naccept > sol.stats.naccept);
    assert!(final_error(&tight) < final_error(&sol));
}

#[test]
fn custom_tableau_with_b_hat_can_run_on_a_fixed_grid() {
    let mut s = custom("mass-spring-damper", bogacki_shampine(), 0.01, 1.0);
    s.adaptive = Some(false);
    let sol = solve(&s).unwrap();
    assert_eq!(sol.t.len(), 101);
}

#[test]
fn custom_dp45_matches_catalogue_error_control_closely() {
    // Same A, b, E up to rounding of b̂ = b − E: the same accepted solution to ~1e-12.
    let mut s = custom("pendulum", catalogue("dp45"), 0.0, 5.0);
    s.h = None;
    let mine = solve(&s).unwrap();
    let theirs = solve(&SolveSpec {
        method: "dp45".into(),
        tableau: None,
        ..s
    })
    .unwrap();
    let a = last(&mine);
    let b = last(&theirs);
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-6, "{a:?} vs {b:?}");
    }
}

#[test]
fn custom_spec_reads_from_json_as_the_page_writes_it() {
    let s: SolveSpec = serde_json::from_str(
        r#"{"model": "pendulum", "method": "custom", "h": 0.01, "t1": 1,
            "tableau": {"a": [["0", 0], ["1/2", "0"]], "b": [0, "1"], "c": [0, 0.5]}}"#,
    )
    .unwrap();
    let sol = solve(&s).unwrap();
    assert_eq!(sol.t.len(), 101);
    let bad: Result<SolveSpec, _> = serde_json::from_str(
        r#"{"method": "custom", "tableau": {"a": [[0]], "b": [1], "bhat": [1]}}"#,
    );
    assert!(bad.unwrap_err().to_string().contains("bHat"));
}

#[test]
fn an_embedded_formula_equal_to_b_is_refused_since_its_error_estimate_is_zero() {
    let mut tableau = bogacki_shampine();
    tableau.b_hat = Some(tableau.b.clone());
    let mut s = custom("mass-spring-damper", tableau, 0.0, 5.0);
    s.h = None;
    s.rtol = Some(Tol::Scalar(1e-6));
    let message = solve(&s).map(|_| ()).unwrap_err().to_string();
    assert!(
        message.contains("bHat equals b, so its error estimate b − bHat is zero"),
        "{message}"
    );
}
