//! The index-3 formulation: the DAE M y' = f in (q, v, λ) integrated directly by
//! radau5 with Hairer & Wanner's index-3 error scaling (Solving ODEs II §VII.8).

use super::typed::run;
use super::typed_texts::{CHAIN, SLIDER_CRANK};
use serde_json::json;

fn output<'a>(sol: &'a odelab::driver::Solution, name: &str) -> &'a [f64] {
    &sol.outputs.iter().find(|(n, _)| n == name).unwrap().1
}

/// The largest difference of the positions at the end of two runs.
fn position_gap(a: &odelab::driver::Solution, b: &odelab::driver::Solution) -> f64 {
    a.outputs
        .iter()
        .filter(|(n, _)| n.starts_with("q:") && !n.contains('\u{307}'))
        .map(|(n, s)| (s.last().unwrap() - output(b, n).last().unwrap()).abs())
        .fold(0.0, f64::max)
}

/// Radau IIA on an index-3 system keeps order 2s − 1 = 5 on the positions (Hairer &
/// Wanner, Solving ODEs II §VII.4, Table 4.1 for index 3): on a fixed grid the gaps
/// between the runs at h, h/2 and h/4 shrink by 2⁵.
#[test]
fn index_3_radau5_has_order_five_on_the_chain_positions() {
    let runs: Vec<_> = [0.04, 0.02, 0.01, 0.005]
        .iter()
        .map(|h| {
            let spec = json!({ "formulation": "index-3", "method": "radau5", "t1": 0.4,
                               "h": h, "adaptive": false });
            let sol = run(CHAIN, spec);
            assert!(sol.stopped_by.is_none(), "h = {h}: {:?}", sol.stopped_by);
            sol
        })
        .collect();
    for w in runs.windows(3) {
        let (coarse, fine) = (position_gap(&w[0], &w[1]), position_gap(&w[1], &w[2]));
        let order = (coarse / fine).log2();
        println!("gaps {coarse:e}, {fine:e}: observed order {order:.2}");
        assert!((4.5..5.5).contains(&order), "observed order {order}");
    }
}

/// The same chain in the index-3 and state-space formulations: at rtol = atol = 1e-6
/// and 1e-8 the end positions agree to the tolerance (a few rtol).
#[test]
fn index_3_chain_agrees_with_state_space_to_the_tolerance() {
    let reference = run(
        CHAIN,
        json!({ "formulation": "state-space", "method": "radau5", "t1": 0.4, "rtol": 1e-10,
                "atol": 1e-12 }),
    );
    for rtol in [1e-6, 1e-8] {
        let spec = json!({ "formulation": "index-3", "method": "radau5", "t1": 0.4,
                           "rtol": rtol, "atol": rtol });
        let sol = run(CHAIN, spec);
        let gap = position_gap(&sol, &reference);
        let drift = output(&sol, "constraint |Φ|")
            .iter()
            .cloned()
            .fold(0.0, f64::max);
        println!(
            "rtol {rtol:e}: gap {gap:e}, max |Φ| {drift:e}, {} steps",
            sol.stats.naccept
        );
        assert!(gap < 5.0 * rtol, "rtol {rtol:e}: gap {gap:e}");
        assert!(drift < rtol, "rtol {rtol:e}: drift {drift:e}");
    }
}

/// The driven slider-crank in the index-3 formulation: the piston follows the
/// closed-form kinematics and the state-space run, and Φ stays at the Newton
/// tolerance; the multipliers are the state's, named by constraint.
#[test]
fn index_3_slider_crank_follows_kinematics_and_state_space() {
    let (r, l, w) = (0.2f64, 0.6f64, 2.0 * std::f64::consts::PI);
    let sol = run(
        SLIDER_CRANK,
        json!({ "formulation": "index-3", "method": "radau5", "t1": 1.0, "rtol": 1e-8, "atol": 1e-10 }),
    );
    assert!(sol.stopped_by.is_none(), "{:?}", sol.stopped_by);
    let piston = output(&sol, "piston");
    let mut worst: f64 = 0.0;
    for (i, &t) in sol.t.iter().enumerate() {
        let (s, c) = (w * t).sin_cos();
        worst = worst.max((piston[i] - (r * c + (l * l - r * r * s * s).sqrt())).abs());
    }
    let drift = output(&sol, "constraint |Φ|")
        .iter()
        .cloned()
        .fold(0.0, f64::max);
    let reference = run(
        SLIDER_CRANK,
        json!({ "formulation": "state-space", "t1": 1.0, "rtol": 1e-8, "atol": 1e-10, "hMax": 0.01 }),
    );
    let gap = position_gap(&sol, &reference);
    let slide = *output(&sol, "λ:slide").last().unwrap();
    let slide_ss = *output(&reference, "λ:slide").last().unwrap();
    println!(
        "piston error {worst:e}, max |Φ| {drift:e}, gap to state-space {gap:e}, λ:slide {slide} vs {slide_ss}"
    );
    assert!(worst < 1e-8, "piston {worst:e}");
    assert!(drift < 1e-9, "drift {drift:e}");
    assert!(gap < 1e-6, "gap {gap:e}");
    assert!(
        (slide - slide_ss).abs() < 1e-4 * slide_ss.abs().max(1.0),
        "λ {slide} vs {slide_ss}"
    );
}

/// The index-3 formulation is a DAE: any method but radau5 is refused by name, and so
/// are the other formulations' settings.
#[test]
fn index_3_needs_radau5_and_refuses_other_settings() {
    for (extra, needle) in [
        (json!({ "method": "ros4" }), "only \"radau5\""),
        (
            json!({ "method": "radau5", "stabilization": "projection" }),
            "stabilization",
        ),
    ] {
        let mut spec = json!({ "system": SLIDER_CRANK, "formulation": "index-3", "t1": 0.1 });
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        let parsed: odelab::spec::SolveSpec = serde_json::from_value(spec).unwrap();
        let message = odelab::solve(&parsed).unwrap_err().to_string();
        assert!(message.contains(needle), "{message}");
    }
    let parsed: odelab::spec::SolveSpec = serde_json::from_value(json!({
        "model": "double-pendulum-stiff", "formulation": "index-3", "method": "dp45"
    }))
    .unwrap();
    assert!(odelab::solve(&parsed)
        .unwrap_err()
        .to_string()
        .contains("radau5"));
}

/// A built-in mechanism runs in the index-3 formulation too and agrees with its
/// state-space run (radau5 at rtol 1e-10). The agreement is looser than the
/// tolerance: with the velocities' errors measured multiplied by h, the positions of
/// this stiffly sprung pendulum gather 5.5e-7 at rtol 1e-8 (8e-7 at 1e-6, 5e-8 at
/// 1e-10), where the augmented formulation with radau5 at 1e-10 is within 4e-10.
#[test]
fn index_3_runs_the_built_in_rsda_pendulum() {
    let spec = |formulation: &str, method: &str, tol: f64| -> odelab::spec::SolveSpec {
        serde_json::from_value(json!({
            "model": "double-pendulum-rsda", "formulation": formulation, "method": method,
            "t1": 0.5, "rtol": tol, "atol": tol
        }))
        .unwrap()
    };
    let a = odelab::solve(&spec("index-3", "radau5", 1e-8)).unwrap();
    let b = odelab::solve(&spec("state-space", "radau5", 1e-10)).unwrap();
    assert!(a.stopped_by.is_none(), "{:?}", a.stopped_by);
    let gap = position_gap(&a, &b);
    println!("rsda: gap {gap:e}");
    assert!(gap < 1e-6, "gap {gap:e}");
}
