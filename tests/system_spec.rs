//! `solve` with `system: "<text>"` in place of `model`, and `expr` events: the
//! expression language wired into the driver (with the events).

mod common;
use common::*;
use odelab::spec::{EventSpec, SolveSpec, Tol};

const MSD_TEXT: &str = "param m = 1, k = 100, c = 0.5, g = 9.81
x' = u
u' = g - k/m*x - c/m*u
x(0) = 0, u(0) = 0
output energy = 0.5*m*u^2 + 0.5*k*x^2 - m*g*x";

fn system_spec(text: &str, method: &str, h: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        model: String::new(),
        system: Some(text.into()),
        ..spec("", method, h, t1)
    }
}

#[test]
fn system_text_reproduces_the_built_in_model() {
    let built_in = run("mass-spring-damper", "rk4", 1e-3, 1.0);
    let user = odelab::solve(&system_spec(MSD_TEXT, "rk4", 1e-3, 1.0)).unwrap();
    assert_eq!(user.names, ["x", "u"]);
    assert_eq!(user.t, built_in.t);
    // The compiler does no algebraic rewriting, so f is bit for bit the same.
    assert_eq!(user.y, built_in.y);
    assert_eq!(user.outputs[0].0, "energy");
    let e_max = user.outputs[0]
        .1
        .iter()
        .zip(&built_in.outputs[0].1)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(e_max < 1e-12, "{e_max}");
}

#[test]
fn params_of_a_system_are_overridable() {
    let mut s = system_spec(MSD_TEXT, "rk4", 1e-3, 1.0);
    s.params.insert("k".into(), 400.0);
    let user = odelab::solve(&s).unwrap();
    let mut b = spec("mass-spring-damper", "rk4", 1e-3, 1.0);
    b.params.insert("k".into(), 400.0);
    assert_eq!(user.y, odelab::solve(&b).unwrap().y);
}

#[test]
fn text_events_are_watched_and_terminal_stops_the_run() {
    let text = "param g = 9.81
y' = v
v' = -g
y(0) = 1, v(0) = 0
event ground: y, falling, terminal";
    let mut s = system_spec(text, "dp45", 0.0, 5.0);
    s.h = None;
    s.rtol = Some(Tol::Scalar(1e-10));
    s.atol = Some(Tol::Scalar(1e-12));
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.events.len(), 1);
    let t_hit = (2.0f64 / 9.81).sqrt();
    assert!(
        (sol.events[0].t - t_hit).abs() < 1e-10,
        "{}",
        sol.events[0].t
    );
    assert!(
        (*sol.t.last().unwrap() - t_hit).abs() < 1e-10,
        "a terminal event ends the run"
    );
}

#[test]
fn expr_event_finds_the_same_contacts_as_the_model_event() {
    let base = SolveSpec {
        rtol: Some(Tol::Scalar(1e-8)),
        h: None,
        ..spec("bouncing-balls", "dp45", 0.0, 2.0)
    };
    let by_id = odelab::solve(&SolveSpec {
        events: vec![EventSpec {
            id: Some("psi2".into()),
            ..Default::default()
        }],
        ..base.clone()
    })
    .unwrap();
    let by_expr = odelab::solve(&SolveSpec {
        events: vec![EventSpec {
            expr: Some("R - y2".into()),
            ..Default::default()
        }],
        ..base
    })
    .unwrap();
    assert!(!by_id.events.is_empty());
    assert_eq!(by_id.events.len(), by_expr.events.len());
    for (a, b) in by_id.events.iter().zip(&by_expr.events) {
        assert!((a.t - b.t).abs() < 1e-12, "{} vs {}", a.t, b.t);
    }
}

#[test]
fn bad_system_text_points_at_the_error() {
    let err = run_err(&system_spec("x' = -kk*x\nx(0) = 1", "rk4", 0.1, 1.0)).to_string();
    assert!(
        err.starts_with("line 1, column 7: unknown name \"kk\""),
        "{err}"
    );
    let both = SolveSpec {
        model: "pendulum".into(),
        ..system_spec("x' = -x", "rk4", 0.1, 1.0)
    };
    assert!(run_err(&both)
        .to_string()
        .contains("either model or system"));
    let neither = SolveSpec {
        model: String::new(),
        ..spec("", "rk4", 0.1, 1.0)
    };
    assert!(run_err(&neither)
        .to_string()
        .contains("missing field `model`"));
}

const DRAWN_PENDULUM: &str = "param g = 9.81, L = 1
th' = w
w' = -g/L*sin(th)
th(0) = 1, w(0) = 0
draw ground(0.2)
draw rod(0, 0, L*sin(th), -L*cos(th))
draw ball(L*sin(th), -L*cos(th), 0.1*L)";

#[test]
fn draw_lines_are_evaluated_at_every_output_time() {
    let sol = odelab::solve(&system_spec(DRAWN_PENDULUM, "rk4", 0.01, 1.0)).unwrap();
    let names: Vec<&str> = sol.outputs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "draw 1 ground y",
            "draw 2 rod x1",
            "draw 2 rod y1",
            "draw 2 rod x2",
            "draw 2 rod y2",
            "draw 3 ball x",
            "draw 3 ball y",
            "draw 3 ball r"
        ]
    );
    let column = |name: &str| &sol.outputs.iter().find(|(n, _)| n == name).unwrap().1;
    for (i, th) in sol.y.chunks(2).map(|s| s[0]).enumerate() {
        assert_eq!(column("draw 3 ball x")[i], odelab::math::sin(th));
        assert_eq!(column("draw 3 ball y")[i], -odelab::math::cos(th));
        assert_eq!(column("draw 1 ground y")[i], 0.2);
    }
}

#[test]
fn bad_draw_lines_point_at_line_and_column() {
    let arity = DRAWN_PENDULUM.replace("0.1*L)", "0.1*L, 2)");
    let err = run_err(&system_spec(&arity, "rk4", 0.1, 1.0)).to_string();
    assert!(err.starts_with("line 7, column 6:"), "{err}");
    assert!(err.contains("draw ball"), "{err}");
    let unknown = DRAWN_PENDULUM.replace("draw ground", "draw grond");
    let err = run_err(&system_spec(&unknown, "rk4", 0.1, 1.0)).to_string();
    assert!(err.starts_with("line 5, column 6:"), "{err}");
    assert!(err.contains("did you mean \"ground\""), "{err}");
    let name = DRAWN_PENDULUM.replace("-L*cos(th))\ndraw ball", "-L*cos(phi))\ndraw ball");
    let err = run_err(&system_spec(&name, "rk4", 0.1, 1.0)).to_string();
    assert!(
        err.starts_with("line 6, column 34: unknown name \"phi\""),
        "{err}"
    );
}

/// The pendulum typed as one second-order equation is the built-in pendulum: same
/// states (θ, θ'), same f, so rk4 gives the same trajectory.
const PENDULUM_SECOND_ORDER: &str = "param g = 9.81, L = 1\nθ'' = -g/L*sin(θ)\nθ(0) = 1, θ'(0) = 0";

#[test]
fn pendulum_typed_as_second_order_equals_the_built_in_under_rk4() {
    let built_in = run("pendulum", "rk4", 1e-2, 5.0);
    let user = odelab::solve(&system_spec(PENDULUM_SECOND_ORDER, "rk4", 1e-2, 5.0)).unwrap();
    assert_eq!(user.names, ["θ", "θ'"]);
    assert_eq!(user.t, built_in.t);
    let diff = user
        .y
        .iter()
        .zip(&built_in.y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff <= 1e-12, "{diff}");
}

#[test]
fn pendulum_typed_as_second_order_runs_under_midpoint2() {
    let built_in = run("pendulum", "midpoint2", 1e-2, 5.0);
    let user = odelab::solve(&system_spec(PENDULUM_SECOND_ORDER, "midpoint2", 1e-2, 5.0)).unwrap();
    assert_eq!(user.y.len(), built_in.y.len());
    let diff = user
        .y
        .iter()
        .zip(&built_in.y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff <= 1e-12, "{diff}");
}

/// u_i' = k(m − u_i) + 1 with m the mean: the sum of the k-terms vanishes, so m' = 1
/// exactly, and every Runge–Kutta method integrates m(t) = m(0) + t without error.
#[test]
fn mean_field_written_with_sum_keeps_the_exact_mean_motion() {
    let text = "param N = 50, k = 3
m = sum(u[j] for j = 1..N)/N
u[i]' = k*(m - u[i]) + 1   for i = 1..N
u[i](0) = cos(i)           for i = 1..N
output mean = m";
    let sol = odelab::solve(&system_spec(text, "rk4", 0.05, 2.0)).unwrap();
    assert_eq!(sol.dim, 50);
    let m0: f64 = (1..=50).map(|i| odelab::math::cos(i as f64)).sum::<f64>() / 50.0;
    let mean = &sol.outputs[0].1;
    for (t, m) in sol.t.iter().zip(mean) {
        assert!((m - (m0 + t)).abs() < 1e-12, "t = {t}: {m} vs {}", m0 + t);
    }
    // …while each state relaxes to the mean at rate k (not exact under rk4, but close).
    let y1 = &sol.y[sol.y.len() - 50..];
    let spread = y1
        .iter()
        .map(|u| (u - mean[mean.len() - 1]).abs())
        .fold(0.0, f64::max);
    assert!(spread < 2.0 * odelab::math::exp(-6.0), "{spread}");
}

/// A draw line with a range draws one shape per element of a family, in an ODE system
/// as in a mechanism: `draw N.k shape arg`, evaluated like any output.
#[test]
fn a_draw_line_with_a_range_draws_each_element() {
    let text = "param N = 4
u[i]' = -i*u[i] for i = 1..N
u[i](0) = 1 for i = 1..N
draw ball(i, u[i], 0.1) for i = 1..N";
    let sol = odelab::solve(&system_spec(text, "rk4", 0.01, 0.5)).unwrap();
    let names: Vec<&str> = sol.outputs.iter().map(|(n, _)| n.as_str()).collect();
    let y: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.ends_with(" ball y"))
        .collect();
    assert_eq!(
        y,
        [
            "draw 1.1 ball y",
            "draw 1.2 ball y",
            "draw 1.3 ball y",
            "draw 1.4 ball y"
        ]
    );
    let column = |name: &str| &sol.outputs.iter().find(|(n, _)| n == name).unwrap().1;
    for (i, state) in sol.y.chunks(4).enumerate() {
        for k in 1..=4 {
            assert_eq!(column(&format!("draw 1.{k} ball x"))[i], k as f64);
            assert_eq!(column(&format!("draw 1.{k} ball y"))[i], state[k - 1]);
        }
    }
}
