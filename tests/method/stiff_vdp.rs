//! The efficiency claim: on Van der Pol with μ = 1000 (t ∈ [0, 3000], rtol 1e-6,
//! atol 1e-8) `ros4` and `llm` need orders of magnitude fewer f evaluations than
//! `dp45`. The full interval runs in release (`cargo test --release -- --ignored
//! stiff_vdp --nocapture`); the debug test runs the first 300 time units.

use super::common::*;
use odelab::spec::SolveSpec;

/// Reference y(3000) for μ = 1000, y(0) = (2, 0) (the brief).
const Y_3000: [f64; 2] = [-1.51060693674397, 1.1783800007312e-3];

fn vdp(method: &str, t1: f64) -> SolveSpec {
    let mut s = adaptive("van-der-pol", method, 1e-6, 1e-8, t1);
    s.params.insert("mu".into(), 1000.0);
    // dp45 needs more than the default budget of a million steps over [0, 3000].
    s.max_steps = Some(odelab::spec::MAX_STEPS_LIMIT); // dp45: ~2e6 attempted steps on [0, 3000]
    s
}

fn report(method: &str, t1: f64) -> odelab::Solution {
    let sol = odelab::solve(&vdp(method, t1)).unwrap();
    assert!(sol.stopped_by.is_none(), "{method}: {:?}", sol.warning);
    let y = last(&sol);
    println!(
        "{method:>5} t1={t1}: {:?} y = {:?}, |Δy| vs reference = {:?}",
        sol.stats,
        y,
        if t1 == 3000.0 {
            Some([(y[0] - Y_3000[0]).abs(), (y[1] - Y_3000[1]).abs()])
        } else {
            None
        }
    );
    sol
}

#[test]
fn stiff_methods_beat_dp45_on_van_der_pol_short() {
    let t1 = 300.0;
    let dp45 = report("dp45", t1);
    let ros4 = report("ros4", t1);
    let llm = report("llm", t1);
    let (rd, rr, rl) = (dp45.stats.nfev, ros4.stats.nfev, llm.stats.nfev);
    println!(
        "nfev ratio dp45/ros4 = {:.0}, dp45/llm = {:.0}",
        rd as f64 / rr as f64,
        rd as f64 / rl as f64
    );
    assert!(rd > 30 * rr, "dp45 {rd} vs ros4 {rr}");
    assert!(rd > 30 * rl, "dp45 {rd} vs llm {rl}");
    // All three agree at t1 (a point on the slow branch).
    for sol in [&ros4, &llm] {
        assert!((last(sol)[0] - last(&dp45)[0]).abs() < 1e-3);
    }
}

#[test]
#[ignore = "dp45 needs millions of f evaluations over [0, 3000]: run in release"]
fn stiff_methods_beat_dp45_on_van_der_pol_full() {
    let t1 = 3000.0;
    let dp45 = report("dp45", t1);
    let ros4 = report("ros4", t1);
    let llm = report("llm", t1);
    let (rd, rr, rl) = (dp45.stats.nfev, ros4.stats.nfev, llm.stats.nfev);
    println!(
        "nfev ratio dp45/ros4 = {:.0}, dp45/llm = {:.0}",
        rd as f64 / rr as f64,
        rd as f64 / rl as f64
    );
    assert!(rd > 100 * rr && rd > 100 * rl);
    for sol in [&ros4, &llm] {
        assert!((last(sol)[0] - Y_3000[0]).abs() < 1e-2);
    }
}

/// At the same tolerance (rtol 1e-6, atol 1e-8, t ∈ [0, 3000]) ros4 takes more than twice
/// RODAS's steps, and the controller is not why: both measure the same norm
/// (sc = atol + max(|y_n|, |y_{n+1}|)·rtol, Hairer & Wanner's) with an order-3 estimate,
/// exponent 1/4 and safety 0.9, and RODAS run under ros4's elementary controller takes
/// within 5 % of the steps of its own predictive one. What differs is the estimate:
/// ros4's embedded formula keeps a third of a stiff component (R̂(−∞) ≈ −0.367,
/// `ros4_embedded_formula_keeps_a_third_of_a_stiff_component`), and ros4 ends more than
/// 5× more accurate than RODAS — the extra steps buy accuracy, as the work-precision
/// curves of BENCHMARKS.md show.
#[test]
fn ros4_takes_more_steps_than_rodas_for_its_estimate_not_its_controller() {
    let t1 = 3000.0;
    let run = |method: &str, elementary: bool| {
        let mut spec = vdp(method, t1);
        if elementary {
            spec.controller = Some(odelab::spec::ControllerSpec {
                kind: Some("i".into()),
                ..Default::default()
            });
        }
        let sol = odelab::solve(&spec).unwrap();
        let y = last(&sol);
        let err = (y[0] - Y_3000[0]).abs().max((y[1] - Y_3000[1]).abs());
        println!(
            "{method} (elementary controller: {elementary}): {:?}, error {err:.2e}",
            sol.stats
        );
        (sol.stats.nsteps, err)
    };
    let (ros4, ros4_err) = run("ros4", false);
    let (rodas, rodas_err) = run("rodas", false);
    let (rodas_i, rodas_i_err) = run("rodas", true);
    assert!(ros4 > 2 * rodas, "ros4 {ros4} steps, rodas {rodas}");
    assert!(
        (rodas_i as f64 - rodas as f64).abs() < 0.05 * rodas as f64,
        "rodas: {rodas} steps with its own controller, {rodas_i} with the elementary one"
    );
    assert!(
        ros4_err * 5.0 < rodas_err.min(rodas_i_err),
        "errors: ros4 {ros4_err:e}, rodas {rodas_err:e}, {rodas_i_err:e}"
    );
}
