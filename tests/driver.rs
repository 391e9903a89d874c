//! The driver: the fixed-step grid, the step-by-step `Integrator`, and the typed
//! errors every bad spec gets (the skeleton issue's list).

mod common;
use common::*;
use odelab::spec::SolveSpec;
use odelab::{Integrator, OdeError};

#[test]
fn last_step_is_shortened_to_land_on_t1() {
    let sol = run("pendulum", "rk4", 0.3, 1.0);
    assert_eq!(sol.t.len(), 5);
    let expected = [0.0, 0.3, 0.6, 0.9, 1.0];
    for (a, b) in sol.t.iter().zip(expected) {
        assert!((a - b).abs() < 1e-15, "{:?}", sol.t);
    }
}

#[test]
fn grid_times_do_not_drift() {
    let sol = run("pendulum", "euler", 0.1, 1000.0);
    assert_eq!(sol.t.len(), 10_001);
    assert_eq!(sol.t[5000], 500.0);
    assert_eq!(*sol.t.last().unwrap(), 1000.0);
}

#[test]
fn integrator_steps_reproduce_solve() {
    let s = spec("mass-spring-damper", "rk4", 0.01, 0.5);
    let sol = odelab::solve(&s).unwrap();
    let mut it = Integrator::new(&s).unwrap();
    let mut i = 0;
    while !it.done() {
        let info = it.step().unwrap();
        i += 1;
        assert_eq!(info.t, sol.t[i]);
        assert_eq!(it.y(), &sol.y[2 * i..2 * i + 2]);
    }
    assert_eq!(i, 50);
    assert_eq!(it.stats(), sol.stats);
    assert!(matches!(it.step(), Err(OdeError::Finished { .. })));
}

#[test]
fn t1_defaults_to_the_model_and_t0_is_honoured() {
    let mut s = spec("pendulum", "rk4", 0.5, 0.0);
    s.t1 = None;
    assert_eq!(*odelab::solve(&s).unwrap().t.last().unwrap(), 10.0);
    s.t0 = Some(8.0);
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.t, [8.0, 8.5, 9.0, 9.5, 10.0]);
}

fn message(s: &SolveSpec) -> String {
    run_err(s).to_string()
}

#[test]
fn issue_2_bad_input_gets_a_clear_error() {
    let base = spec("pendulum", "rk4", 0.01, 1.0);
    let cases: Vec<(SolveSpec, &str)> = vec![
        (
            SolveSpec {
                h: Some(0.0),
                ..base.clone()
            },
            "h must be a positive number, got h = 0",
        ),
        (
            SolveSpec {
                h: Some(-0.1),
                ..base.clone()
            },
            "got h = -0.1",
        ),
        (
            SolveSpec {
                h: Some(f64::NAN),
                ..base.clone()
            },
            "h must be a positive number",
        ),
        (
            SolveSpec {
                h: Some(f64::INFINITY),
                ..base.clone()
            },
            "step size h must be a finite",
        ),
        (
            SolveSpec {
                h: None,
                ..base.clone()
            },
            "give a step size h",
        ),
        (
            SolveSpec {
                t1: Some(0.0),
                ..base.clone()
            },
            "t1 must be after start time t0",
        ),
        (
            SolveSpec {
                t1: Some(-1.0),
                ..base.clone()
            },
            "t0 = 0, t1 = -1",
        ),
        (
            SolveSpec {
                t1: Some(f64::NAN),
                ..base.clone()
            },
            "end time t1 must be a finite",
        ),
        (
            SolveSpec {
                t0: Some(f64::NAN),
                ..base.clone()
            },
            "start time t0 must be a finite",
        ),
        (
            SolveSpec {
                method: "rk5".into(),
                ..base.clone()
            },
            "unknown method \"rk5\"",
        ),
        (
            SolveSpec {
                model: "pendulm".into(),
                ..base.clone()
            },
            "unknown model \"pendulm\"",
        ),
        (
            SolveSpec {
                y0: Some(vec![1.0]),
                ..base.clone()
            },
            "must have 2 entries, got 1",
        ),
        (
            SolveSpec {
                y0: Some(vec![f64::NAN, 0.0]),
                ..base.clone()
            },
            "initial value of θ",
        ),
        (
            SolveSpec {
                h: Some(1e-9),
                ..base.clone()
            },
            "more than the budget of 1000000",
        ),
        (
            SolveSpec {
                max_steps: Some(50),
                ..base.clone()
            },
            "about 100 steps",
        ),
    ];
    for (s, expected) in cases {
        let msg = message(&s);
        assert!(
            msg.contains(expected),
            "spec {s:?}\n  said: {msg}\n  wanted: {expected}"
        );
    }
}
