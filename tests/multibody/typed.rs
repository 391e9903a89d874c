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
