//! The driver: the fixed-step grid, the step-by-step `Integrator`, and the typed
//! errors every bad spec gets (the skeleton issue's list).

mod common;
use common::*;
use odelab::spec::{ControllerSpec, EventSpec, SolveSpec, Tol};
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
fn bad_input_gets_a_clear_error() {
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

fn dp45(model: &str) -> SolveSpec {
    adaptive(model, "dp45", 1e-6, 1e-9, 10.0)
}

/// Step-control inputs: tolerances, controller, events, tEval, adaptive h. Each gets a
/// typed error whose message says what is wrong and what is allowed.
#[test]
fn bad_step_control_input_gets_a_clear_error() {
    let base = dp45("pendulum");
    let ctl = |c: ControllerSpec| SolveSpec {
        controller: Some(c),
        ..base.clone()
    };
    let ev = |model: &str, e: EventSpec| SolveSpec {
        events: vec![e],
        ..dp45(model)
    };
    let cases: Vec<(SolveSpec, &str)> = vec![
        (
            SolveSpec {
                rtol: Some(Tol::Scalar(0.0)),
                ..base.clone()
            },
            "rtol must be greater than 0",
        ),
        (
            SolveSpec {
                rtol: Some(Tol::Scalar(-1e-3)),
                ..base.clone()
            },
            "got -0.001",
        ),
        (
            SolveSpec {
                rtol: Some(Tol::Scalar(f64::NAN)),
                ..base.clone()
            },
            "rtol must be a finite number",
        ),
        (
            SolveSpec {
                atol: Some(Tol::Scalar(-1e-9)),
                ..base.clone()
            },
            "atol must be 0 or more",
        ),
        (
            SolveSpec {
                atol: Some(Tol::PerComponent(vec![1e-9, 1e-9, 1e-9])),
                ..base.clone()
            },
            "atol (one tolerance per state component) must have 2 entries, got 3",
        ),
        (
            SolveSpec {
                rtol: Some(Tol::PerComponent(vec![1e-6, 0.0])),
                ..base.clone()
            },
            "rtol[1] must be greater than 0",
        ),
        (
            ctl(ControllerSpec {
                kind: Some("pid".into()),
                ..Default::default()
            }),
            "unknown step-size controller kind \"pid\"; the kinds are \"i\", \"pi\"",
        ),
        (
            ctl(ControllerSpec {
                fac_min: Some(2.0),
                fac_max: Some(1.5),
                ..Default::default()
            }),
            "controller.facMin must be less than facMax = 1.5, got 2",
        ),
        (
            ctl(ControllerSpec {
                fac_min: Some(1.0),
                fac_max: Some(1.0),
                ..Default::default()
            }),
            "facMin must be less than facMax",
        ),
        (
            ctl(ControllerSpec {
                safety: Some(f64::NAN),
                ..Default::default()
            }),
            "controller.safety must be a finite number",
        ),
        (
            ctl(ControllerSpec {
                kind: Some("pi".into()),
                k_i: Some(-0.1),
                ..Default::default()
            }),
            "controller.kI must be greater than 0, got -0.1",
        ),
        (
            ctl(ControllerSpec {
                k_p: Some(0.1),
                ..Default::default()
            }),
            "kP is the proportional gain of kind \"pi\"",
        ),
        (
            SolveSpec {
                norm: Some("l2".into()),
                ..base.clone()
            },
            "unknown norm \"l2\"; the norms are \"rms\", \"max\"",
        ),
        (
            ev(
                "bouncing-balls",
                EventSpec {
                    id: Some("psi3".into()),
                    ..Default::default()
                },
            ),
            "unknown event \"psi3\"; model \"bouncing-balls\" declares the events \"psi1\", \"psi2\"",
        ),
        (
            ev(
                "pendulum",
                EventSpec {
                    id: Some("psi1".into()),
                    ..Default::default()
                },
            ),
            "model \"pendulum\" declares no switching functions",
        ),
        (
            ev(
                "bouncing-balls",
                EventSpec {
                    expr: Some("y1 - ".into()),
                    ..Default::default()
                },
            ),
            "line 1, column 6: ",
        ),
        (
            ev("bouncing-balls", EventSpec::default()),
            "event 0 of the spec: name a switching function with id",
        ),
        (
            ev(
                "bouncing-balls",
                EventSpec {
                    id: Some("psi1".into()),
                    direction: Some(2.0),
                    ..Default::default()
                },
            ),
            "events[0].direction must be -1 (falling), 0 (both) or 1 (rising), got 2",
        ),
        (
            SolveSpec {
                t_eval: Some(vec![0.0, 12.0]),
                ..base.clone()
            },
            "tEval[1] = 12 is outside the interval [t0, t1] = [0, 10]",
        ),
        (
            SolveSpec {
                t_eval: Some(vec![1.0, 3.0, 2.0]),
                ..base.clone()
            },
            "sorted in increasing order, but tEval[2] = 2 comes after tEval[1] = 3",
        ),
        (
            SolveSpec {
                t_eval: Some(vec![f64::NAN]),
                ..base.clone()
            },
            "tEval[0] must be a finite number",
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
                h: Some(-0.1),
                ..base.clone()
            },
            "got h = -0.1",
        ),
        (
            SolveSpec {
                t1: Some(f64::INFINITY),
                ..base.clone()
            },
            "end time t1 must be a finite",
        ),
        (
            SolveSpec {
                t1: Some(-1.0),
                ..base.clone()
            },
            "t1 must be after start time t0",
        ),
        (
            SolveSpec {
                adaptive: Some(true),
                ..spec("pendulum", "rk4", 0.01, 1.0)
            },
            "method \"rk4\" has no error estimate, so it cannot adapt its step; the adaptive methods are \"bs23\", \"dp45\"",
        ),
        (
            SolveSpec {
                adaptive: Some(false),
                h: None,
                ..base.clone()
            },
            "give a step size h",
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

/// Specs as the front end writes them (camelCase JSON): every new field is read, and
/// a misspelt one is refused rather than ignored.
#[test]
fn spec_fields_have_their_js_names() {
    let json = r#"{
        "model": "bouncing-balls", "method": "dp45", "t1": 1.0,
        "rtol": 1e-6, "atol": [1e-9, 1e-9, 1e-8, 1e-8], "norm": "max",
        "controller": { "kind": "pi", "kI": 0.06, "kP": 0.08, "safety": 0.8,
                        "facMin": 0.3, "facMax": 5, "perUnitStep": false },
        "tEval": [0.0, 0.5, 1.0], "maxSteps": 10000, "h": 1e-4, "adaptive": true,
        "events": [{ "id": "psi2", "direction": 1, "terminal": false }]
    }"#;
    let s: SolveSpec = serde_json::from_str(json).unwrap();
    assert_eq!(
        s.atol,
        Some(Tol::PerComponent(vec![1e-9, 1e-9, 1e-8, 1e-8]))
    );
    let c = s.controller.clone().unwrap();
    assert_eq!(
        (c.k_i, c.k_p, c.fac_min, c.fac_max),
        (Some(0.06), Some(0.08), Some(0.3), Some(5.0))
    );
    assert_eq!(s.t_eval.as_deref(), Some(&[0.0, 0.5, 1.0][..]));
    assert_eq!(s.events[0].direction, Some(1.0));
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.t_eval, [0.0, 0.5, 1.0]);
    // Rising crossings of Ψ2 only: the three times the lower ball hits the ground.
    assert_eq!(sol.events.len(), 3);
    assert!(sol.events.iter().all(|e| e.index == 0 && e.y[3] < 0.0));
    let typo = r#"{ "model": "pendulum", "method": "dp45", "controller": { "kd": 1 } }"#;
    let err = serde_json::from_str::<SolveSpec>(typo)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `kd`"), "{err}");
}

/// tEval values come from the dense output: on the mass–spring–damper they match the
/// exact solution to about the tolerance, include t0 and t1, and cost no evaluations.
#[test]
fn t_eval_is_served_from_dense_output() {
    let times: Vec<f64> = (0..=40).map(|i| i as f64 * 0.125).collect();
    let mut s = adaptive("mass-spring-damper", "dp45", 1e-8, 1e-10, 5.0);
    let without = odelab::solve(&s).unwrap();
    s.t_eval = Some(times.clone());
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.t_eval, times);
    assert_eq!(sol.y_eval.len(), 2 * times.len());
    assert_eq!(sol.stats, without.stats, "dense output is free for dp45");
    let (info, model) = odelab::model::build("mass-spring-damper", &s.params).unwrap();
    let mut exact = [0.0; 2];
    for (i, &t) in times.iter().enumerate() {
        model.exact(0.0, &info.y0, t, &mut exact);
        for (j, e) in exact.iter().enumerate() {
            let err = (sol.y_eval[2 * i + j] - e).abs();
            assert!(err < 1e-7, "t = {t}, component {j}: error {err}");
        }
    }
    // Fixed-step methods interpolate with a cubic Hermite (one extra f per step used),
    // whose O(h⁴) error (~1e-8 here) exceeds RK4's own.
    let mut s = spec("mass-spring-damper", "rk4", 0.01, 1.0);
    s.t_eval = Some(vec![0.005, 0.333, 1.0]);
    let sol = odelab::solve(&s).unwrap();
    model.exact(0.0, &info.y0, 0.333, &mut exact);
    let err = (sol.y_eval[2] - exact[0]).abs();
    assert!(err < 1e-7, "Hermite error {err}");
    assert_eq!(&sol.y_eval[4..6], last(&sol));
}

/// An adaptive run: the step and error-estimate series line up with the points, and
/// the last step lands exactly on t1.
#[test]
fn adaptive_solution_records_steps_and_estimates() {
    let sol = odelab::solve(&dp45("pendulum")).unwrap();
    let n = sol.t.len();
    assert_eq!(sol.h.len(), n - 1);
    assert_eq!(sol.err_est.len(), n - 1);
    assert_eq!(sol.t[n - 1], 10.0);
    for i in 0..n - 1 {
        assert_eq!(sol.h[i], sol.t[i + 1] - sol.t[i]);
        assert!(sol.err_est[i] <= 1.0);
    }
    let s = sol.stats;
    assert_eq!(s.nsteps, s.naccept + s.nreject);
    assert_eq!(s.naccept as usize, n - 1);
    // Fixed-step runs record h too, and no estimate.
    let fixed = run("pendulum", "rk4", 0.3, 1.0);
    assert_eq!(fixed.h.len(), 4);
    assert!(fixed.err_est.is_empty());
}

/// `Integrator` takes one accepted step per call and reproduces `solve`, events included.
#[test]
fn adaptive_integrator_steps_reproduce_solve() {
    let mut s = adaptive("bouncing-balls", "dp45", 1e-6, 1e-9, 1.0);
    s.events = watch(&["psi1", "psi2"]);
    let sol = odelab::solve(&s).unwrap();
    let mut it = Integrator::new(&s).unwrap();
    let mut i = 0;
    let mut events = 0;
    while !it.done() {
        let info = it.step().unwrap();
        i += 1;
        assert_eq!(info.t, sol.t[i]);
        assert_eq!(info.h, sol.h[i - 1]);
        assert_eq!(info.err_est, Some(sol.err_est[i - 1]));
        assert_eq!(it.y(), &sol.y[4 * i..4 * i + 4]);
        events += info.new_events;
    }
    assert_eq!(i, sol.t.len() - 1);
    assert_eq!(events, sol.events.len());
    assert_eq!(it.events(), &sol.events[..]);
    assert_eq!(it.stats(), sol.stats);
    assert!(matches!(it.step(), Err(OdeError::Finished { .. })));
}

/// Negative damping makes x grow like e^{1000 t}: the state overflows near t ≈ 0.7, every
/// retry overflows too, and h shrinks to the floor 16·eps·|t|. `solve` keeps the points
/// and says where; `Integrator` returns the typed error.
#[test]
fn step_size_underflow_is_a_typed_stop() {
    let mut s = adaptive("mass-spring-damper", "dp45", 1e-3, 1e-6, 5.0);
    s.params.insert("c".into(), -1000.0);
    let sol = odelab::solve(&s).unwrap();
    // The warning is the diagnosis: the state grows like e^{1000 t} (negative
    // damping), so the exact solution itself leaves the floating-point range there.
    let w = sol.warning.as_deref().unwrap();
    let d = sol.diagnosis.clone().unwrap();
    assert_eq!(d.code, odelab::driver::Code::SolutionBlowUp);
    assert!(w.contains("near t = 0.7"), "{w}");
    assert!(w.contains("the adaptive steps shrank to nothing"), "{w}");
    assert!(matches!(
        sol.stopped_by,
        Some(OdeError::StepSizeUnderflow { .. })
    ));
    assert!(sol
        .stopped_by
        .unwrap()
        .to_string()
        .starts_with("step size underflow at t = 0.7"));
    let mut it = Integrator::new(&s).unwrap();
    let err = loop {
        if let Err(e) = it.step() {
            break e;
        }
    };
    assert!(matches!(err, OdeError::StepSizeUnderflow { .. }));
}

#[test]
fn adaptive_step_budget_stops_with_a_warning() {
    let s = SolveSpec {
        max_steps: Some(20),
        ..dp45("pendulum")
    };
    let sol = odelab::solve(&s).unwrap();
    let w = sol.warning.as_deref().unwrap();
    assert!(w.contains("used its budget of 20 steps"), "{w}");
    assert_eq!(sol.stats.nsteps, 20);
}

/// A user-given h is the first step of an adaptive run.
#[test]
fn given_h_is_the_first_adaptive_step() {
    let s = SolveSpec {
        h: Some(1e-4),
        ..dp45("pendulum")
    };
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.h[0], 1e-4);
    // Without h, Hairer's selection picks it (two evaluations up front).
    let auto = odelab::solve(&dp45("pendulum")).unwrap();
    assert_ne!(auto.h[0], 1e-4);
}

/// The binding checks JS keys against serde's own field lists (serde-wasm-bindgen reads
/// only known fields, so a misspelt key would otherwise be silently ignored).
#[test]
fn field_lists_for_the_binding_match_the_js_names() {
    use odelab::spec::{check_fields, field_names};
    let spec = field_names::<SolveSpec>();
    for f in [
        "model",
        "method",
        "h",
        "maxSteps",
        "rtol",
        "atol",
        "controller",
        "tEval",
        "events",
    ] {
        assert!(spec.contains(&f), "{f} in {spec:?}");
    }
    let controller = field_names::<ControllerSpec>();
    assert_eq!(
        controller,
        [
            "kind",
            "kI",
            "kP",
            "safety",
            "facMin",
            "facMax",
            "perUnitStep"
        ]
    );
    assert_eq!(
        field_names::<EventSpec>(),
        ["id", "expr", "direction", "terminal"]
    );
    let keys = vec!["kind".to_string(), "kd".to_string()];
    let msg = check_fields("controller", &keys, controller)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains(
            "unknown field \"kd\" in controller (did you mean \"kI\"?); the fields are \"kind\", \"kI\""
        ),
        "{msg}"
    );
    let err = serde_json::from_str::<SolveSpec>(r#"{"model":"m","method":"x","atol":"tight"}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("must each be a number, or an array"), "{err}");
}

/// An adaptive method can step over a short input it never samples: ros4 on the stiff
/// vehicle takes 11 steps over 2 s and never sees the 22 ms bump. `hMax` (MATLAB's
/// MaxStep) makes it land on the bump.
#[test]
fn h_max_keeps_ros4_from_stepping_over_the_bump() {
    let chassis_range = |h_max: Option<f64>| {
        let s = SolveSpec {
            rtol: Some(odelab::spec::Tol::Scalar(1e-3)),
            atol: Some(odelab::spec::Tol::Scalar(1e-6)),
            h: None,
            h_max,
            ..spec("vehicle-stiff", "ros4", 0.0, 2.0)
        };
        let sol = odelab::solve(&s).unwrap();
        let (_, height) = sol
            .outputs
            .iter()
            .find(|(n, _)| n == "chassis height")
            .unwrap();
        let lo = height.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = height.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (hi - lo, sol.stats.naccept)
    };
    let (blind, steps) = chassis_range(None);
    assert!(
        blind < 1e-9,
        "without hMax the bump is missed: range {blind}, {steps} steps"
    );
    let (seen, steps) = chassis_range(Some(0.005));
    assert!(
        seen > 0.02,
        "with hMax = 5 ms the chassis moves: range {seen}, {steps} steps"
    );
    let err = run_err(&SolveSpec {
        h_max: Some(0.0),
        h: None,
        ..spec("vehicle-stiff", "ros4", 0.0, 2.0)
    });
    assert!(err.to_string().contains("hMax"), "{err}");
}

/// A stop is one thing (driver::StepOutcome): the step-size underflow of a blowing-up
/// run is the same `Stopped` reason — same error, same message, same t — for `solve`
/// (a warning, the points kept), `Integrator::advance` (what the page's Animate reads)
/// and the convergence lab's runner; none of them reports it as a failure.
#[test]
fn a_stop_is_reported_the_same_by_solve_advance_and_the_labs() {
    use odelab::driver::StepOutcome;
    let mut s = adaptive("mass-spring-damper", "dp45", 1e-3, 1e-6, 5.0);
    s.params.insert("c".into(), -1000.0);
    let sol = odelab::solve(&s).unwrap();
    let solve_stop = sol.stopped_by.clone().expect("solve stops early");
    assert!(matches!(solve_stop, OdeError::StepSizeUnderflow { .. }));

    let mut it = Integrator::new(&s).unwrap();
    let mut rejected = 0;
    let stop = loop {
        match it.attempt() {
            StepOutcome::Accepted(_) => {}
            StepOutcome::Rejected { h, h_next, .. } => {
                assert!(h_next < h);
                rejected += 1;
            }
            StepOutcome::Stopped(reason) => break reason,
            StepOutcome::Failed(e) => panic!("a stop is not a failure: {e}"),
        }
    };
    assert_eq!(stop, solve_stop);
    // `warning` is the stop's diagnosis, `stopped_by` the stop itself.
    assert_eq!(
        sol.warning.clone().unwrap(),
        sol.diagnosis.as_ref().unwrap().text()
    );
    assert_eq!(rejected as u64, sol.stats.nreject);
    assert!(it.done());
    assert_eq!(it.stopped(), Some(&solve_stop));
    assert_eq!(it.t(), *sol.t.last().unwrap());

    let end = odelab::convergence::run::run_to_end(&s).unwrap();
    assert_eq!(end.stopped, Some(solve_stop));
    assert!(!end.blew_up);
}

/// A bad request is a failure, not a stop: stepping a finished run.
#[test]
fn stepping_a_finished_run_is_a_failure() {
    use odelab::driver::StepOutcome;
    let mut it = Integrator::new(&spec("pendulum", "rk4", 0.5, 1.0)).unwrap();
    while !it.done() {
        assert!(matches!(it.advance(), StepOutcome::Accepted(_)));
    }
    assert!(matches!(
        it.advance(),
        StepOutcome::Failed(OdeError::Finished { .. })
    ));
    assert_eq!(it.stopped(), None);
}
