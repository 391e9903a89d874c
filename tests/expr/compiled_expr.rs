//! Single compiled expressions: event switching functions over a model's states and
//! parameters, and over a user system (which also sees its definitions).

use odelab::expr::{compile_expr, compile_model_expr, UserSystem};
use odelab::model;
use std::collections::BTreeMap;

#[test]
fn compile_expr_over_given_states_and_parameters() {
    let g = compile_expr(
        "x - r*cos(t)",
        &["x".into(), "v".into()],
        &[("r".into(), 2.0)],
    )
    .unwrap();
    assert_eq!(g.eval(0.0, &[3.0, 0.0]), 1.0);
    assert_eq!(g.text(), "x - r*cos(t)");
    let mut grad = [0.0; 3];
    g.gradient(0.5, &[3.0, 0.0], &mut grad);
    assert_eq!(grad, [2.0 * 0.5f64.sin(), 1.0, 0.0]);
}

#[test]
fn compile_model_expr_uses_overridden_parameters() {
    let (info, _) = model::build("pendulum", &BTreeMap::new()).unwrap();
    let mut over = BTreeMap::new();
    over.insert("L".to_string(), 2.0);
    let g = compile_model_expr("θ - pi/4 + L", &info, &over).unwrap();
    assert_eq!(
        g.eval(3.0, &[1.0, 0.0]),
        1.0 - std::f64::consts::FRAC_PI_4 + 2.0
    );
    let err = compile_model_expr("θθ", &info, &over).err().unwrap();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: unknown name \"θθ\"; did you mean \"θ\"?\n  θθ\n  ^^"
    );
}

#[test]
fn compile_event_sees_the_systems_definitions_and_parameter_values() {
    let text =
        "param L = 2, w = sqrt(9.81/L)\nx' = w*v\nv' = -w*x\nh = x - L/4\nx(0) = 1, v(0) = 0";
    let mut over = BTreeMap::new();
    over.insert("L".to_string(), 4.0);
    let sys = UserSystem::new(text, &over).unwrap();
    assert_eq!(
        sys.param_values(),
        [
            ("L".to_string(), 4.0),
            ("w".to_string(), (9.81f64 / 4.0).sqrt())
        ]
    );
    let g = sys.compile_event("h + w*t").unwrap();
    assert_eq!(g.eval(1.0, &[2.0, 0.0]), 1.0 + (9.81f64 / 4.0).sqrt());
    let err = sys.compile_event("hh").err().unwrap();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: unknown name \"hh\"; did you mean \"h\"?\n  hh\n  ^^"
    );
}
