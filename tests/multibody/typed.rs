//! Mechanisms typed in the system language in the textbook form M q̈ = Q − Φ_qᵀλ,
//! Φ(q, t) = 0, run in the augmented (Gil, Sanfelice & Nikravesh (LLM) eq. 9) and
//! state-space (Negrut et al. 2003 Algorithm 1) formulations.

use odelab::spec::SolveSpec;
use serde_json::{json, Value};

pub use super::typed_texts::{
    CHAIN, FOUR_BAR, PENDULUM_PARTICLE, RSDA_PENDULUM, SLIDER_CRANK, STIFF_PENDULUM, VEHICLE,
};

pub fn run(text: &str, extra: Value) -> odelab::driver::Solution {
    let mut spec =
        json!({ "system": text, "method": "ros4", "t1": 2.0, "rtol": 1e-8, "atol": 1e-10 });
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    let parsed: SolveSpec = serde_json::from_value(spec).unwrap();
    odelab::solve(&parsed).unwrap()
}

fn output<'a>(sol: &'a odelab::driver::Solution, name: &str) -> &'a [f64] {
    &sol.outputs.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn slider_crank_piston_follows_closed_form_kinematics() {
    let (r, l, w) = (0.2f64, 0.6f64, 2.0 * std::f64::consts::PI);
    for extra in [
        json!({ "formulation": "state-space", "hMax": 0.01 }),
        json!({ "formulation": "augmented", "stabilization": "projection" }),
    ] {
        let sol = run(SLIDER_CRANK, extra.clone());
        let piston = output(&sol, "piston");
        let drift = output(&sol, "constraint |Φ|");
        let mut worst: f64 = 0.0;
        for (i, &t) in sol.t.iter().enumerate() {
            let (s, c) = (w * t).sin_cos();
            let exact = r * c + (l * l - r * r * s * s).sqrt();
            worst = worst.max((piston[i] - exact).abs());
        }
        let max_drift = drift.iter().cloned().fold(0.0, f64::max);
        println!(
            "{extra}: {} points, piston error {worst:e}, max |Φ| {max_drift:e}",
            sol.t.len()
        );
        assert!(worst < 1e-8, "{extra}: piston {worst:e}");
        assert!(max_drift < 1e-10, "{extra}: drift {max_drift:e}");
    }
}

/// The driven slider-crank has no degree of freedom: in state-space form its state is
/// empty and every coordinate follows from the driver. radau5 measured its Newton
/// correction as 0/0 there and stopped at t = 0 calling it divergence; it now runs, and
/// the piston follows the closed form as under ros4.
#[test]
fn radau5_runs_a_mechanism_with_no_degree_of_freedom() {
    let (r, l, w) = (0.2f64, 0.6f64, 2.0 * std::f64::consts::PI);
    let sol = run(
        SLIDER_CRANK,
        json!({ "formulation": "state-space", "method": "radau5", "hMax": 0.01 }),
    );
    assert!(sol.warning.is_none(), "{:?}", sol.warning);
    assert_eq!(*sol.t.last().unwrap(), 2.0);
    let piston = output(&sol, "piston");
    for (i, &t) in sol.t.iter().enumerate() {
        let (s, c) = (w * t).sin_cos();
        let exact = r * c + (l * l - r * r * s * s).sqrt();
        assert!((piston[i] - exact).abs() < 1e-8, "t = {t}: {}", piston[i]);
    }
}

/// The four built-in mechanisms retyped in the textbook form run as the built-ins do: the
/// same steps and every body coordinate and rate within 1e-10, in every formulation
/// (augmented unstabilised, Baumgarte, projection; state-space; index-3 with radau5).
/// The vehicle runs on fixed steps (index-3: up to where both runs stall, t = 0.499),
/// and its adaptive index-3 runs are compared at t1 (below).
#[test]
fn retyped_built_in_mechanisms_match_the_built_ins_in_every_formulation() {
    let formulations = [
        json!({ "formulation": "augmented" }),
        json!({ "formulation": "augmented", "stabilization": "baumgarte" }),
        json!({ "formulation": "augmented", "stabilization": "projection" }),
        json!({ "formulation": "state-space" }),
        json!({ "formulation": "index-3", "method": "radau5" }),
    ];
    for (id, text, t1) in [
        ("double-pendulum-stiff", STIFF_PENDULUM, 0.1),
        ("double-pendulum-rsda", RSDA_PENDULUM, 0.1),
        ("pendulum-particle", PENDULUM_PARTICLE, 0.2),
        ("vehicle-stiff", VEHICLE, 0.7),
    ] {
        for extra in &formulations {
            let mut spec = json!({ "method": "ros4", "t1": t1, "rtol": 1e-7, "atol": 1e-9 });
            for (k, v) in extra.as_object().unwrap() {
                spec[k] = v.clone();
            }
            if id == "vehicle-stiff" {
                // Fixed steps: where the wheel meets the bump's edges w′(x) jumps, and there
                // the error control's accept or reject turns on the last bit (adaptive runs
                // through the bump take 684 and 675 steps, equal to 4e-16 before it).
                spec["adaptive"] = json!(false);
                spec["h"] = json!(0.002);
                if extra["formulation"] == "index-3" {
                    // At h = 0.002 the built-in's Newton stalls at t = 0.306 and the retyped
                    // one's does not (θ ≈ 0.9998 against RADAU5's 0.99, the two runs equal
                    // to the rounding level); at h = 0.001 both stall at t = 0.499, after the
                    // same steps.
                    spec["h"] = json!(0.001);
                }
            }
            if id == "vehicle-stiff" && extra["formulation"] == "state-space" {
                // The built-in's own choice (chassis pose and wheel heights), named for both.
                spec["independent"] = json!(["xc", "yc", "φc", "yf", "yr"]);
            }
            let mut built_in = spec.clone();
            built_in["model"] = json!(id);
            let a = odelab::solve(&serde_json::from_value(built_in).unwrap()).unwrap();
            let mut typed = spec.clone();
            typed["system"] = json!(text);
            let b = odelab::solve(&serde_json::from_value(typed).unwrap()).unwrap();
            assert_eq!(a.t.len(), b.t.len(), "{id} {extra}: same steps");
            assert_eq!(
                a.warning.is_some(),
                b.warning.is_some(),
                "{id} {extra}: same stop"
            );
            let mut worst: f64 = 0.0;
            // Every body coordinate and velocity (q:x1, …, q:ẋ1, …).
            let coordinates: Vec<&str> = a
                .outputs
                .iter()
                .map(|(n, _)| n.as_str())
                .filter(|n| n.starts_with("q:"))
                .collect();
            assert!(coordinates.len() >= 12, "{id}: {coordinates:?}");
            for name in &coordinates {
                for (u, v) in output(&a, name).iter().zip(output(&b, name)) {
                    worst = worst.max((u - v).abs());
                }
            }
            for (u, v) in a.t.iter().zip(&b.t) {
                worst = worst.max((u - v).abs());
            }
            println!(
                "{id} {extra}: {} points, {} coordinates and rates, largest difference {worst:e}",
                a.t.len(),
                coordinates.len()
            );
            assert!(worst < 1e-10, "{id} {extra}: {worst:e}");
        }
    }
    // The vehicle in index-3 form with radau5, adaptive: at the bump's edges the accepted
    // step times differ in the last bits, so the runs are compared at t1, after the front
    // wheel has crossed the bump, where they agree to 1e-8 (measured at t1 = 1: 8.2e-11 in
    // y_c, 1.8e-9 in φ_c, 2.9e-9 in y_f; both runs 1e-7 from state-space at rtol 1e-10).
    let spec = json!({ "method": "radau5", "formulation": "index-3", "t1": 1.0, "rtol": 1e-7,
                       "atol": 1e-9, "hMax": 0.01 });
    let mut built_in = spec.clone();
    built_in["model"] = json!("vehicle-stiff");
    let a = odelab::solve(&serde_json::from_value(built_in).unwrap()).unwrap();
    let mut typed = spec.clone();
    typed["system"] = json!(VEHICLE);
    let b = odelab::solve(&serde_json::from_value(typed).unwrap()).unwrap();
    assert!(a.warning.is_none() && b.warning.is_none());
    for name in ["q:xc", "q:yc", "q:φc", "q:yf", "q:yr"] {
        let gap = (output(&a, name).last().unwrap() - output(&b, name).last().unwrap()).abs();
        println!("vehicle-stiff index-3 at t1: {name} differs by {gap:e}");
        assert!(gap < 1e-8, "{name}: {gap:e}");
    }
}

#[test]
fn slider_crank_drift_grows_unstabilised_and_stays_bounded_with_baumgarte() {
    let max = |s: &[f64]| s.iter().cloned().fold(0.0, f64::max);
    let loose = json!({ "rtol": 1e-5, "atol": 1e-7, "t1": 4.0 });
    let mut none = loose.clone();
    none["formulation"] = json!("augmented");
    let plain = run(SLIDER_CRANK, none);
    let drift = output(&plain, "constraint |Φ|");
    let half = drift.len() / 2;
    let (early, late) = (max(&drift[..half]), max(&drift[half..]));
    let mut baum = loose.clone();
    baum["formulation"] = json!("augmented");
    baum["stabilization"] = json!("baumgarte");
    let stab = run(SLIDER_CRANK, baum);
    let bdrift = output(&stab, "constraint |Φ|");
    let bhalf = bdrift.len() / 2;
    let (bearly, blate) = (max(&bdrift[..bhalf]), max(&bdrift[bhalf..]));
    println!("unstabilised max |Φ|: first half {early:e}, second half {late:e}");
    println!("Baumgarte max |Φ|: first half {bearly:e}, second half {blate:e}");
    assert!(late > 2.0 * early, "the unstabilised drift grows");
    assert!(blate < 1e-4 && blate < late, "Baumgarte keeps it bounded");
}

#[test]
fn four_bar_and_chain_keep_energy_and_constraints_in_state_space() {
    for (name, text, t1) in [("four-bar", FOUR_BAR, 1.0), ("chain", CHAIN, 0.5)] {
        let ss = run(
            text,
            json!({ "formulation": "state-space", "t1": t1, "rtol": 1e-8, "atol": 1e-10 }),
        );
        let energy = output(&ss, "energy");
        let e0 = energy[0];
        let worst = energy.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max);
        let drift = output(&ss, "constraint |Φ|")
            .iter()
            .cloned()
            .fold(0.0, f64::max);
        println!(
            "{name}: {} points, energy change {worst:e}, max |Φ| {drift:e}",
            ss.t.len()
        );
        assert!(worst < 1e-5 * e0.abs().max(1.0), "{name}: energy {worst:e}");
        assert!(drift < 1e-10, "{name}: drift {drift:e}");
        let proj = run(
            text,
            json!({ "formulation": "augmented", "stabilization": "projection", "t1": t1,
                    "rtol": 1e-9, "atol": 1e-11, "tEval": [t1] }),
        );
        let ss_end = run(
            text,
            json!({ "formulation": "state-space", "t1": t1, "rtol": 1e-9, "atol": 1e-11,
                    "tEval": [t1] }),
        );
        let angle = if name == "chain" { "q:φ[1]" } else { "q:φ1" };
        let gap =
            (output(&proj, angle).last().unwrap() - output(&ss_end, angle).last().unwrap()).abs();
        assert!(gap < 1e-6, "{name}: state-space vs projection {gap:e}");
        println!("{name}: state-space vs projection at t1: {gap:e}");
    }
}

fn refused(text: &str, extra: Value) -> String {
    let mut spec = json!({ "system": text, "method": "ros4", "t1": 1.0 });
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    let parsed: SolveSpec = serde_json::from_value(spec).unwrap();
    match odelab::solve(&parsed) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

const PENDULUM: &str = "\
param L = 1, m = 1, g = 9.81
coordinates x, y, φ
mass m, m, m*L^2/12
force y = -m*g
constraint px: x - L/2*cos(φ) = 0
constraint py: y - L/2*sin(φ) = 0
x(0) = 0.5, y(0) = 0, φ(0) = 0
";

#[test]
fn bad_constrained_systems_are_refused_by_name() {
    // The same hinge twice: the dependent rows are named.
    let twice = format!("{PENDULUM}constraint again: x - L/2*cos(φ) = 0\n");
    let msg = refused(&twice, json!({}));
    assert!(
        msg.contains("redundant") && msg.contains("\"again\""),
        "{msg}"
    );
    // A coordinate without mass.
    let massless = PENDULUM.replace("mass m, m, m*L^2/12", "mass m, m, 0");
    let msg = refused(&massless, json!({}));
    assert!(
        msg.contains("mass matrix is singular") && msg.contains("φ"),
        "{msg}"
    );
    // A force on something that is not a coordinate: located.
    let unknown = format!("{PENDULUM}force z = 1\n");
    let msg = refused(&unknown, json!({}));
    assert!(
        msg.contains("\"z\" is not a coordinate") && msg.contains("line 8"),
        "{msg}"
    );
    // A constraint on an unknown name: located, with a suggestion.
    let typo = PENDULUM.replace("constraint py: y -", "constraint py: yy -");
    let msg = refused(&typo, json!({}));
    assert!(
        msg.contains("unknown name \"yy\"") && msg.contains("line 6"),
        "{msg}"
    );
    // A constraint on a velocity.
    let velocity = format!("{PENDULUM}constraint moving: x' = 0\n");
    let msg = refused(&velocity, json!({}));
    assert!(msg.contains("velocity x'"), "{msg}");
    // A four-bar whose links cannot close (ground 3 > 0.3 + 0.9 + 0.7).
    let open = FOUR_BAR.replace("d = 1,", "d = 3,");
    let msg = refused(&open, json!({}));
    assert!(
        msg.contains("cannot be made consistent") && msg.contains("constraint \""),
        "{msg}"
    );
    // Equations do not mix with the constrained form.
    let mixed = format!("{PENDULUM}z' = 1\nz(0) = 0\n");
    let msg = refused(&mixed, json!({}));
    assert!(msg.contains("no equations x'"), "{msg}");
    // Independent coordinates the constraints cannot solve the others from: a choice
    // to change (with one that works named), not a singular mechanism. At φ = 0 the
    // hinge fixes x to first order, so y, φ cannot follow from x.
    let msg = refused(
        PENDULUM,
        json!({ "formulation": "state-space", "independent": ["x"] }),
    );
    assert!(
        msg.contains("independent: x cannot be the independent coordinates")
            && msg.contains("determine y, φ from them")
            && msg.contains("e.g. ")
            && !msg.contains("singular configuration"),
        "{msg}"
    );
    // Stabilisation is for the augmented formulation.
    let msg = refused(
        PENDULUM,
        json!({ "formulation": "state-space", "stabilization": "baumgarte" }),
    );
    assert!(msg.contains("augmented"), "{msg}");
}

#[test]
fn a_crank_longer_than_its_rod_locks_with_a_stop_naming_the_constraints() {
    // r = 0.6 > l = 0.5: the rod cannot follow past sin θ = l/r (θ ≈ 0.99 at t ≈ 0.16).
    let locking = SLIDER_CRANK.replace("r = 0.2, l = 0.6", "r = 0.6, l = 0.5");
    let spec = json!({ "system": locking, "method": "ros4", "t1": 1.0, "formulation": "augmented",
                       "stabilization": "projection", "hMax": 0.01 });
    let parsed: SolveSpec = serde_json::from_value(spec).unwrap();
    match odelab::solve(&parsed) {
        Ok(sol) => {
            let end = *sol.t.last().unwrap();
            println!(
                "stopped at t = {end}, {:?}, {:?}, locked {:?}",
                sol.stopped_by,
                sol.warning,
                sol.constraint.as_ref().map(|c| &c.locked)
            );
            assert!(
                end < 0.5 && sol.t.len() > 3,
                "kept the run so far, stopped at {end}"
            );
            let why = sol
                .stopped_by
                .as_ref()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                why.contains("singular") || why.contains("Newton"),
                "a diagnosed stop: {why}"
            );
            // The stop names the constraints that lock: the rod's end (By) can no
            // longer stay on the slide while the crank is driven on.
            let warning = sol.warning.as_deref().unwrap_or_default();
            let locked = &sol.constraint.as_ref().unwrap().locked;
            for name in ["By", "slide", "crank"] {
                assert!(locked.iter().any(|l| l == name), "{locked:?}");
            }
            assert!(
                warning.contains("The mechanism locks there: constraints Oy, Ay, By, slide, crank"),
                "{warning}"
            );
        }
        Err(e) => panic!("the run so far should be kept: {e}"),
    }
}

/// A pendulum whose pivot is driven sideways, x_pivot = A sin(W t): one degree of
/// freedom and a time-dependent constraint.
const SHAKEN_PENDULUM: &str = "\
param L = 1, m = 1, g = 9.81, A = 0.1, W = 3, c = 0.2
coordinates x, y, φ
mass m, m, m*L^2/12
force y = -m*g
force φ = -c*φ'
constraint px: x - L/2*cos(φ) = A*sin(W*t)
constraint py: y - L/2*sin(φ) = 0
x(0) = 0, y(0) = -0.5, φ(0) = -1.2
φ'(0) = 0.7
";

#[test]
fn typed_jacobian_and_time_derivative_equal_central_differences() {
    use odelab::multibody::{build_described, Request};
    use std::collections::BTreeMap;
    let params = BTreeMap::new();
    for (formulation, stabilization) in [
        ("augmented", None),
        ("augmented", Some("baumgarte")),
        ("state-space", None),
    ] {
        let desc = odelab::expr::constrained::describe(SHAKEN_PENDULUM, &params).unwrap();
        let request = Request {
            model: "custom",
            params: &params,
            y0: None,
            formulation: Some(formulation),
            stabilization,
            baumgarte_alpha: None,
            baumgarte_beta: None,
            partition_limit: None,
            independent: None,
            method: "ros4",
        };
        let (_, model) = build_described(desc, &request).unwrap();
        let y0 = model.default_y0().unwrap();
        let dim = y0.len();
        for (t, shift) in [(0.0, 0.0), (0.37, 0.05), (1.1, -0.08)] {
            let y: Vec<f64> = y0
                .iter()
                .enumerate()
                .map(|(i, v)| v + shift * (i as f64 + 1.0))
                .collect();
            let f = |t: f64, y: &[f64]| {
                let mut dy = vec![0.0; dim];
                model.rhs(t, y, &mut dy);
                dy
            };
            let jac = model.jacobian(t, &y).unwrap();
            let ft = model.dfdt(t, &y).unwrap();
            let mut worst: f64 = 0.0;
            for c in 0..=dim {
                let h = 1e-6;
                let (plus, minus) = if c < dim {
                    let (mut p, mut m) = (y.clone(), y.clone());
                    p[c] += h;
                    m[c] -= h;
                    (f(t, &p), f(t, &m))
                } else {
                    (f(t + h, &y), f(t - h, &y))
                };
                for r in 0..dim {
                    let fd = (plus[r] - minus[r]) / (2.0 * h);
                    let exact = if c < dim { jac[(r, c)] } else { ft[r] };
                    worst = worst.max((fd - exact).abs() / exact.abs().max(1.0));
                }
            }
            println!("{formulation} {stabilization:?} t = {t}: worst relative gap {worst:e}");
            assert!(
                worst < 1e-6,
                "{formulation} {stabilization:?} at t = {t}: {worst:e}"
            );
        }
    }
}

#[test]
fn a_definition_called_constraint_keeps_a_system_of_equations() {
    let text = "constraint = 2\nx' = -constraint*x\nx(0) = 1";
    let sol = run(text, json!({ "t1": 1.0 }));
    let x1 = *sol.y.last().unwrap();
    assert!((x1 - (-2.0f64).exp()).abs() < 1e-6, "{x1}");
}

/// The slider-crank's crank and rod written with bodies and revolute joints (the
/// slider as a point of the rod on the x axis), crank driven at constant speed.
const BODIES_SLIDER_CRANK: &str = "\
param r = 0.2, l = 0.6, w = 2*pi, m1 = 1, m2 = 2, g = 9.81
body crank: mass m1, inertia m1*r^2/12, at (r/2, 0, 0)
body rod: mass m2, inertia m2*l^2/12, at (r + l/2, 0, 0)
revolute O: crank(-r/2, 0), ground(0, 0)
revolute A: crank(r/2, 0), rod(-l/2, 0)
constraint slide: yrod + sin(φrod)*l/2 = 0
constraint drive: φcrank = w*t
gravity g
output piston = xrod + cos(φrod)*l/2
";

#[test]
fn bodies_and_revolute_joints_build_the_textbook_form() {
    let (r, l, w) = (0.2f64, 0.6f64, 2.0 * std::f64::consts::PI);
    let sol = run(
        BODIES_SLIDER_CRANK,
        json!({ "formulation": "state-space", "hMax": 0.01, "t1": 1.0 }),
    );
    let piston = output(&sol, "piston");
    let mut worst: f64 = 0.0;
    for (i, &t) in sol.t.iter().enumerate() {
        let (s, c) = (w * t).sin_cos();
        worst = worst.max((piston[i] - (r * c + (l * l - r * r * s * s).sqrt())).abs());
    }
    println!("bodies: piston error {worst:e}");
    assert!(worst < 1e-8, "{worst:e}");
    // The links are drawn from the joints, and λ is named by joint.
    assert!(sol.outputs.iter().any(|(n, _)| n.starts_with("draw ")));
    assert!(sol.outputs.iter().any(|(n, _)| n == "λ:A_x"));
    // A joint on a body that does not exist is refused by name, at its line.
    let typo = BODIES_SLIDER_CRANK.replace(
        "revolute A: crank(r/2, 0), rod(",
        "revolute A: crank(r/2, 0), rd(",
    );
    let msg = refused(&typo, json!({}));
    assert!(
        msg.contains("no body \"rd\"") && msg.contains("line 5"),
        "{msg}"
    );
}

#[test]
fn a_misspelt_statement_word_is_named_on_its_own_line_with_the_word_meant() {
    // A misspelt `body`: reported on its line, not as a missing body in its joints.
    let body = BODIES_SLIDER_CRANK.replace("body rod:", "bdy rod:");
    let msg = refused(&body, json!({}));
    assert!(
        msg.contains("no statement starts with \"bdy\"; did you mean \"body\"?")
            && msg.contains("line 3"),
        "{msg}"
    );
    for (typo, meant) in [
        ("revolute A:", "revolue A:"),
        ("gravity g", "gravty g"),
        ("constraint slide:", "constrain slide:"),
        ("output piston", "ouput piston"),
    ] {
        let text = BODIES_SLIDER_CRANK.replace(typo, meant);
        let word = meant.split(' ').next().unwrap();
        let keyword = typo.split(' ').next().unwrap();
        let msg = refused(&text, json!({}));
        assert!(
            msg.contains(&format!(
                "no statement starts with \"{word}\"; did you mean \"{keyword}\"?"
            )),
            "{msg}"
        );
    }
    // In the textbook form and in a system of equations alike.
    let coordinates = PENDULUM.replace("coordinates x", "coordinats x");
    let msg = refused(&coordinates, json!({}));
    assert!(msg.contains("did you mean \"coordinates\"?"), "{msg}");
    let msg = refused("paramm k = 4\nx' = -k*x\nx(0) = 1\n", json!({}));
    assert!(
        msg.contains("did you mean \"param\"?") && msg.contains("line 1"),
        "{msg}"
    );
    // A gravity line alone declares nothing to move: the message says what to declare.
    let msg = refused("gravity 9.81\n", json!({}));
    assert!(msg.contains("or the bodies (body name:"), "{msg}");
}

#[test]
fn a_cart_on_a_translational_joint_oscillates_on_its_spring() {
    // Spring rate 100, mass 1, rest length 0.5, released at x = 1: x = 0.5 + 0.5 cos 10t.
    let text = "\
body cart: mass 1, inertia 0.1, at (1, 0.01, 0.02)
translational P: ground(0, 0), cart(0, 0), axis(1, 0)
spring S: ground(0, 0), cart(0, 0), k 100, c 0, length 0.5
gravity 9.81
";
    for formulation in ["state-space", "augmented"] {
        let sol = run(
            text,
            json!({ "formulation": formulation, "t1": 1.0, "rtol": 1e-10, "atol": 1e-12 }),
        );
        let x = output(&sol, "q:xcart");
        let y = output(&sol, "q:ycart");
        let mut worst: f64 = 0.0;
        for (i, &t) in sol.t.iter().enumerate() {
            worst = worst.max((x[i] - (0.5 + 0.5 * (10.0 * t).cos())).abs());
            worst = worst.max(y[i].abs());
        }
        println!("{formulation}: cart error {worst:e}");
        assert!(worst < 1e-6, "{formulation}: {worst:e}");
    }
}

/// `double-pendulum-stiff` written with bodies, revolute joints and a torsion spring.
const STIFF_PENDULUM_BODIES: &str = "\
param m1 = 1, m2 = 1, L1 = 1, L2 = 1, J1 = 1/12, J2 = 1/12, k = 3000, c = 0, g = 9.81
body 1: mass m1, inertia J1, at (L1/2, 0, 0)
body 2: mass m2, inertia J2, at (L1 + L2/2, 0, 0)
revolute hinge1: 1(-L1/2, 0), ground(0, 0)
revolute hinge2: 1(L1/2, 0), 2(-L2/2, 0)
torsion spring: 1, 2, k k*180/pi, c c
gravity g
";

#[test]
fn stiff_double_pendulum_from_bodies_matches_the_built_in() {
    for formulation in ["augmented", "state-space"] {
        let spec = json!({ "method": "ros4", "t1": 0.1, "rtol": 1e-7, "atol": 1e-9,
                           "formulation": formulation });
        let mut built_in = spec.clone();
        built_in["model"] = json!("double-pendulum-stiff");
        let a = odelab::solve(&serde_json::from_value(built_in).unwrap()).unwrap();
        let mut typed = spec.clone();
        typed["system"] = json!(STIFF_PENDULUM_BODIES);
        let b = odelab::solve(&serde_json::from_value(typed).unwrap()).unwrap();
        let mut worst: f64 = 0.0;
        for name in ["q:x1", "q:y1", "q:φ1", "q:x2", "q:y2", "q:φ2"] {
            let (u, v) = (output(&a, name), output(&b, name));
            worst = worst.max((u.last().unwrap() - v.last().unwrap()).abs());
        }
        println!(
            "{formulation}: {} vs {} points, end gap {worst:e}",
            a.t.len(),
            b.t.len()
        );
        assert!(worst < 1e-10, "{formulation}: {worst:e}");
    }
}

/// Every prefix of the typed mechanisms (a text being typed) builds or is refused with
/// an error; none panics.
#[test]
fn every_prefix_of_a_typed_mechanism_is_an_answer_not_a_panic() {
    use std::collections::BTreeMap;
    let params = BTreeMap::new();
    let mut refused = 0;
    for text in [
        SLIDER_CRANK,
        BODIES_SLIDER_CRANK,
        STIFF_PENDULUM_BODIES,
        CHAIN,
    ] {
        for (cut, _) in text.char_indices() {
            if odelab::expr::constrained::describe(&text[..cut], &params).is_err() {
                refused += 1;
                continue;
            }
            // What builds also runs a few steps (or stops with a reason) in both forms.
            for formulation in ["augmented", "state-space"] {
                let spec = json!({ "system": &text[..cut], "method": "ros4", "t1": 0.01,
                                   "maxSteps": 5, "formulation": formulation });
                let _ = odelab::solve(&serde_json::from_value(spec).unwrap());
            }
        }
    }
    assert!(refused > 0);
}

/// A draw line written for a family draws one shape per element, and as many as N says.
#[test]
fn a_draw_line_for_a_family_draws_one_shape_per_element() {
    let drawn = format!(
        "{CHAIN}draw rod(x[i] - L/2*cos(φ[i]), y[i] - L/2*sin(φ[i]), x[i] + L/2*cos(φ[i]), \
         y[i] + L/2*sin(φ[i])) for i = 1..N\n"
    );
    for n in [5.0, 7.0] {
        let sol = run(
            &drawn,
            json!({ "formulation": "state-space", "t1": 0.2, "params": { "N": n } }),
        );
        let rods: Vec<&str> = sol
            .outputs
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| name.starts_with("draw ") && name.ends_with(" rod x2"))
            .collect();
        let expected: Vec<String> = (1..=n as usize)
            .map(|k| format!("draw 1.{k} rod x2"))
            .collect();
        assert_eq!(rods, expected, "N = {n}");
        // The last rod's far end is the last link's tip.
        let k = n as usize;
        let tip = output(&sol, &format!("draw 1.{k} rod x2"));
        let (x, phi) = (
            output(&sol, &format!("q:x[{k}]")),
            output(&sol, &format!("q:φ[{k}]")),
        );
        for i in 0..sol.t.len() {
            assert_eq!(tip[i], x[i] + 0.25 * odelab::math::cos(phi[i]));
        }
    }
    // An element outside the family is refused at its line.
    let beyond = drawn.replace("])) for i = 1..N\n", "])) for i = 1..N+1\n");
    let msg = refused(&beyond, json!({ "formulation": "state-space" }));
    assert!(
        msg.contains("line 13") && msg.contains("outside x[1..5]"),
        "{msg}"
    );
}

/// Two uniform rods hinged to the ground and to each other, lying along x.
const TWO_RODS: &str = "\
param L = 1, m = 1, g = 9.81
body upper: mass m, inertia m*L^2/12, at (L/2, 0, 0)
body lower: mass m, inertia m*L^2/12, at (3*L/2, 0, 0)
revolute O: upper(-L/2, 0), ground(0, 0)
revolute A: upper(L/2, 0), lower(-L/2, 0)
";

/// A body held at one joint only (the free end of a chain) is drawn on past its centre
/// to the joint point mirrored through it: the far end of the uniform link, not its
/// centre of mass; a body held at two points gets no such extra rod.
#[test]
fn a_body_held_at_one_joint_is_drawn_to_its_far_end() {
    let text = format!("{TWO_RODS}gravity g\n");
    let sol = run(&text, json!({ "formulation": "state-space", "t1": 0.3 }));
    let rods: Vec<&str> = sol
        .outputs
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| name.contains(" rod x2"))
        .collect();
    // Upper: centre to O and to A; lower: centre to A and on to its free end.
    assert_eq!(rods.len(), 4, "{rods:?}");
    let (x, y, phi) = (
        output(&sol, "q:xlower"),
        output(&sol, "q:ylower"),
        output(&sol, "q:φlower"),
    );
    let tips: Vec<(Vec<f64>, Vec<f64>)> = rods
        .iter()
        .map(|r| {
            (
                output(&sol, r).to_vec(),
                output(&sol, &r.replace(" x2", " y2")).to_vec(),
            )
        })
        .collect();
    let far = |i: usize| {
        (
            x[i] + 0.5 * odelab::math::cos(phi[i]),
            y[i] + 0.5 * odelab::math::sin(phi[i]),
        )
    };
    let reaching: Vec<_> = tips
        .iter()
        .filter(|(tx, ty)| {
            (0..sol.t.len()).all(|i| {
                let (fx, fy) = far(i);
                (tx[i] - fx).abs() < 1e-12 && (ty[i] - fy).abs() < 1e-12
            })
        })
        .collect();
    assert_eq!(
        reaching.len(),
        1,
        "one rod ends at the lower link's free end"
    );
    // The chain swings: the free end is not where it started.
    let last = sol.t.len() - 1;
    assert!((far(last).1 - far(0).1).abs() > 0.1);
}

/// A torsion spring is drawn as a coil at the hinge it acts across, a translational
/// spring as a spring between its points.
#[test]
fn bodies_draw_torsion_springs_as_coils_at_their_hinge() {
    let text = format!(
        "{TWO_RODS}torsion B: upper, lower, k 100, c 1, angle 0\nspring S: ground(0, 0), lower(L/2, 0), k 1, c 0, length 2\ngravity g\n"
    );
    let sol = run(&text, json!({ "formulation": "state-space", "t1": 0.1 }));
    let names: Vec<&str> = sol.outputs.iter().map(|(n, _)| n.as_str()).collect();
    let coil: Vec<&&str> = names.iter().filter(|n| n.contains(" coil ")).collect();
    assert_eq!(coil.len(), 3, "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(" spring x1")), "{names:?}");
    let name = |arg: &str| coil.iter().find(|n| n.ends_with(arg)).unwrap().to_string();
    let (x, y, r) = (
        output(&sol, &name(" x")),
        output(&sol, &name(" y")),
        output(&sol, &name(" r")),
    );
    let (xu, yu, pu) = (
        output(&sol, "q:xupper"),
        output(&sol, "q:yupper"),
        output(&sol, "q:φupper"),
    );
    for i in 0..sol.t.len() {
        // At the elbow, the upper link's far end; 0.12 of the half-length.
        assert!((x[i] - (xu[i] + 0.5 * odelab::math::cos(pu[i]))).abs() < 1e-12);
        assert!((y[i] - (yu[i] + 0.5 * odelab::math::sin(pu[i]))).abs() < 1e-12);
        assert!((r[i] - 0.06).abs() < 1e-8, "{}", r[i]);
    }
}

/// A chain of 16 links (80 rows of the saddle-point matrix) is factored on its sparsity
/// pattern: q̈, λ and the solves the Jacobian takes equal a dense LU's to rounding.
#[test]
fn a_long_chain_solves_its_saddle_point_system_sparse_as_dense() {
    use nalgebra::{DMatrix, DVector};
    use odelab::multibody::{augmented::saddle, Stabilization};
    let params = std::collections::BTreeMap::from([("N".to_string(), 16.0)]);
    let desc = odelab::expr::constrained::describe(CHAIN, &params).unwrap();
    let sys = desc.system.as_ref();
    let (n, m) = (sys.n(), sys.m());
    assert_eq!((n, m), (48, 32));
    assert!(sys.saddle_pattern().is_some(), "a 16-link chain is sparse");
    // A bent, moving chain (any state: the solve does not need a consistent one).
    let q: Vec<f64> = (0..n)
        .map(|i| {
            desc.q0[i]
                + if i % 3 == 2 {
                    0.3 * (i as f64).sin()
                } else {
                    0.0
                }
        })
        .collect();
    let qd: Vec<f64> = (0..n).map(|i| (0.7 * i as f64).cos()).collect();
    let s = saddle(sys, 0.0, &q, &qd, Stabilization::None).unwrap();
    let d = sys.phi_q(0.0, &q);
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(&sys.mass(&q));
    k.view_mut((n, 0), (m, n)).copy_from(&d);
    k.view_mut((0, n), (n, m)).copy_from(&(-d.transpose()));
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&sys.forces(0.0, &q, &qd));
    rhs.rows_mut(n, m).copy_from(&sys.gamma(0.0, &q, &qd));
    let lu = k.clone().lu();
    let x = lu.solve(&rhs).unwrap();
    let gap = |a: &[f64], b: &[f64]| {
        let scale = b.iter().fold(1.0f64, |s, v| s.max(v.abs()));
        a.iter()
            .zip(b)
            .fold(0.0f64, |g, (u, v)| g.max((u - v).abs()))
            / scale
    };
    assert!(gap(s.qdd.as_slice(), &x.as_slice()[..n]) < 1e-12);
    assert!(gap(s.lambda.as_slice(), &x.as_slice()[n..]) < 1e-12);
    let b = DMatrix::from_fn(n + m, 5, |r, c| ((r * 7 + c * 3) as f64).sin());
    let sparse = s.lu.solve(&b).unwrap();
    let dense = lu.solve(&b).unwrap();
    assert!(gap(sparse.as_slice(), dense.as_slice()) < 1e-12);
    assert!((&k * &sparse - &b).amax() < 1e-11);
}
