//! Mechanisms typed in the system language in the textbook form M q̈ = Q − Φ_qᵀλ,
//! Φ(q, t) = 0, run in the augmented (Gil, Sanfelice & Nikravesh (LLM) eq. 9) and
//! state-space (Negrut et al. 2003 Algorithm 1) formulations.

use odelab::spec::SolveSpec;
use serde_json::{json, Value};

/// A slider-crank in body coordinates (crank 1, connecting rod 2, slider 3), the crank
/// driven at constant speed w by a time-dependent constraint.
pub const SLIDER_CRANK: &str = "\
param r = 0.2, l = 0.6, w = 2*pi, m1 = 1, m2 = 2, m3 = 1.5, g = 9.81
param J1 = m1*r^2/12, J2 = m2*l^2/12, J3 = 0.01
coordinates x1, y1, φ1, x2, y2, φ2, x3, y3, φ3
mass m1, m1, J1, m2, m2, J2, m3, m3, J3
force y1 = -m1*g
force y2 = -m2*g
force y3 = -m3*g
constraint Ox: x1 - r/2*cos(φ1) = 0
constraint Oy: y1 - r/2*sin(φ1) = 0
constraint Ax: x1 + r/2*cos(φ1) = x2 - l/2*cos(φ2)
constraint Ay: y1 + r/2*sin(φ1) = y2 - l/2*sin(φ2)
constraint Bx: x2 + l/2*cos(φ2) = x3
constraint By: y2 + l/2*sin(φ2) = y3
constraint slide: y3 = 0
constraint level: φ3 = 0
constraint crank: φ1 = w*t
x1(0) = r/2, y1(0) = 0, φ1(0) = 0
x2(0) = r + l/2, y2(0) = 0, φ2(0) = 0
x3(0) = r + l, y3(0) = 0, φ3(0) = 0
output piston = x3
";

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

/// `double-pendulum-stiff` (Gil, Sanfelice & Nikravesh (LLM) §2, Fig. 1) retyped in the
/// language: the same links, hinges, gravity and stiff torsional spring.
pub const STIFF_PENDULUM: &str = "\
param m1 = 1, m2 = 1, L1 = 1, L2 = 1, J1 = 1/12, J2 = 1/12, k = 3000, c = 0, g = 9.81
K = k*180/pi                      # N·m/deg → N·m/rad
tau = K*(φ2 - φ1) + c*(φ2' - φ1')
coordinates x1, y1, φ1, x2, y2, φ2
mass m1, m1, J1, m2, m2, J2
force y1 = -m1*g
force y2 = -m2*g
force φ1 = tau
force φ2 = -tau
constraint hinge1x: x1 - L1/2*cos(φ1) = 0
constraint hinge1y: y1 - L1/2*sin(φ1) = 0
constraint hinge2x: x1 + L1/2*cos(φ1) = x2 - L2/2*cos(φ2)
constraint hinge2y: y1 + L1/2*sin(φ1) = y2 - L2/2*sin(φ2)
x1(0) = L1/2, y1(0) = 0, φ1(0) = 0
x2(0) = L1 + L2/2, y2(0) = 0, φ2(0) = 0
";

#[test]
fn retyped_stiff_double_pendulum_matches_the_built_in() {
    for extra in [
        json!({ "formulation": "augmented" }),
        json!({ "formulation": "augmented", "stabilization": "baumgarte" }),
        json!({ "formulation": "state-space" }),
    ] {
        let mut spec = json!({ "method": "ros4", "t1": 0.2, "rtol": 1e-7, "atol": 1e-9 });
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        let mut built_in = spec.clone();
        built_in["model"] = json!("double-pendulum-stiff");
        let a = odelab::solve(&serde_json::from_value(built_in).unwrap()).unwrap();
        let mut typed = spec.clone();
        typed["system"] = json!(STIFF_PENDULUM);
        let b = odelab::solve(&serde_json::from_value(typed).unwrap()).unwrap();
        assert_eq!(a.t.len(), b.t.len(), "{extra}: same steps");
        let mut worst: f64 = 0.0;
        for name in ["q:x1", "q:y1", "q:φ1", "q:x2", "q:y2", "q:φ2"] {
            for (u, v) in output(&a, name).iter().zip(output(&b, name)) {
                worst = worst.max((u - v).abs());
            }
        }
        for (u, v) in a.t.iter().zip(&b.t) {
            worst = worst.max((u - v).abs());
        }
        println!(
            "{extra}: {} points, largest difference {worst:e}",
            a.t.len()
        );
        assert!(worst < 1e-10, "{extra}: {worst:e}");
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
