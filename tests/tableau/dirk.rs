//! Diagonally implicit tableaux in `solve`: Newton with LU per implicit stage.

use super::common::*;
use super::known::*;
use odelab::spec::{SolveSpec, Tol};
use odelab::tableau::TableauSpec;
use odelab::{solve, Solution};

fn run_custom(model: &str, tableau: TableauSpec, h: f64, t1: f64) -> Solution {
    solve(&SolveSpec {
        tableau: Some(tableau),
        ..spec(model, "custom", h, t1)
    })
    .expect("a valid custom tableau solves")
}

fn observed_order(tableau: impl Fn() -> TableauSpec) -> f64 {
    let hs: Vec<f64> = (0..4).map(|k| 0.05 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&run_custom("mass-spring-damper", tableau(), h, 1.0)))
        .collect();
    loglog_slope(&hs, &errs)
}

/// Crouzeix's and Nørsett's two-stage SDIRK of order 3, γ = (3 + √3)/6.
fn sdirk3() -> TableauSpec {
    let g = "(3+sqrt(3))/6";
    typed(
        &[&[g, "0"], &["1 - 2*(3+sqrt(3))/6", g]],
        &["1/2", "1/2"],
        None,
    )
}

#[test]
fn backward_euler_tableau_matches_backward_euler() {
    let mine = run_custom("van-der-pol", typed(&[&["1"]], &["1"], None), 0.01, 1.0);
    let theirs = run("van-der-pol", "backward-euler", 0.01, 1.0);
    assert_eq!(mine.t, theirs.t);
    for (a, b) in mine.y.iter().zip(&theirs.y) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
}

#[test]
fn dirk_tableaux_have_their_observed_orders() {
    let p = observed_order(|| typed(&[&["1/2"]], &["1"], None));
    assert!((p - 2.0).abs() < 0.1, "implicit midpoint: {p}");
    let p = observed_order(sdirk3);
    assert!((p - 3.0).abs() < 0.15, "SDIRK3: {p}");
}

#[test]
fn dirk_with_b_hat_runs_adaptively_on_a_stiff_problem() {
    // The trapezoidal rule as a two-stage ESDIRK, Euler's weights as b̂ (order 1).
    let trapezoid = typed(
        &[&["0", "0"], &["1/2", "1/2"]],
        &["1/2", "1/2"],
        Some(&["1", "0"]),
    );
    let sol = solve(&SolveSpec {
        tableau: Some(trapezoid),
        h: None,
        rtol: Some(Tol::Scalar(1e-4)),
        atol: Some(Tol::Scalar(1e-7)),
        params: [("mu".to_string(), 100.0)].into_iter().collect(),
        ..spec("van-der-pol", "custom", 0.0, 20.0)
    })
    .unwrap();
    assert!(sol.warning.is_none(), "{:?}", sol.warning);
    assert_eq!(*sol.t.last().unwrap(), 20.0);
    assert!(sol.stats.nlu > 0 && sol.stats.njev > 0, "{:?}", sol.stats);
    let hmax = sol.h.iter().fold(0.0f64, |a, &h| a.max(h));
    let hmin = sol.h.iter().fold(f64::INFINITY, |a, &h| a.min(h));
    assert!(hmax > 100.0 * hmin, "steps {hmin} .. {hmax}");
}
