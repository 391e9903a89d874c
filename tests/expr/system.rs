//! The system text format, `UserSystem` as a model, and the end-to-end check: a user
//! system identical to a built-in model gives bitwise the same trajectory.

use odelab::expr::{build_user_system, Direction, UserSystem};
use odelab::model::{self, Model};
use odelab::problem::System;
use odelab::stats::Stats;
use std::collections::BTreeMap;

const EXAMPLE: &str = "# comment\nparam k = 100, c = 0.5\nx' = v\nv' = -k*x - c*v + sin(t)\n\
                       x(0) = 1, v(0) = 0\nevent ground: x";

/// Schwab & Delhaes eq. (7.7) as the built-in `mass-spring-damper` writes it.
const MSD: &str = "param m = 1, k = 100, c = 0.5, g = 9.81\n\
                   x' = u\n\
                   u' = g - k/m*x - c/m*u\n\
                   x(0) = 0, u(0) = 0\n\
                   output energy = 0.5*m*u*u + 0.5*k*x*x - m*g*x";

/// The built-in `pendulum`.
const PENDULUM: &str = "param g = 9.81, L = 1\nθ' = ω\nω' = -g/L*sin(θ)\nθ(0) = 1, ω(0) = 0\n\
                        output energy = 0.5*L*L*ω*ω + g*L*(1 - cos(θ))";

fn overrides(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn the_example_system_builds() {
    let sys = UserSystem::new(EXAMPLE, &BTreeMap::new()).unwrap();
    let info = sys.info();
    assert_eq!(info.id, "custom");
    assert_eq!(info.names, ["x", "v"]);
    assert_eq!(info.dim, 2);
    assert_eq!(info.y0, [1.0, 0.0]);
    assert_eq!(info.t1, 10.0);
    assert_eq!(info.source, "your system");
    let params: Vec<(&str, f64)> = info
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.value))
        .collect();
    assert_eq!(params, [("k", 100.0), ("c", 0.5)]);
    let mut dy = [0.0; 2];
    sys.rhs(0.5, &[0.1, 2.0], &mut dy);
    assert_eq!(dy, [2.0, -100.0 * 0.1 - 0.5 * 2.0 + 0.5f64.sin()]);
    let ev = &sys.events()[0];
    assert_eq!(ev.name, "ground");
    assert_eq!(ev.expr.text(), "x");
    assert_eq!(ev.direction, Direction::Both);
    assert!(!ev.terminal);
    assert_eq!(ev.expr.eval(0.0, &[-0.25, 3.0]), -0.25);
}

#[test]
fn parameters_are_overridable_like_a_built_in_model() {
    let (info, m) = build_user_system(EXAMPLE, &overrides(&[("k", 4.0)])).unwrap();
    assert_eq!(info.params[0].value, 100.0, "info shows the default");
    let mut dy = [0.0; 2];
    m.rhs(0.0, &[1.0, 0.0], &mut dy);
    assert_eq!(dy[1], -4.0);
    let err = build_user_system(EXAMPLE, &overrides(&[("kk", 4.0)]))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "model \"custom\" has no parameter \"kk\"; its parameters are \"k\", \"c\""
    );
    let err = build_user_system(EXAMPLE, &overrides(&[("k", f64::NAN)]))
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "parameter k must be a finite number");
}

#[test]
fn parameters_and_initial_values_may_use_earlier_parameters() {
    let text = "param L = 2, w = sqrt(9.81/L)\nx' = w*v\nv' = -w*x\nx(0) = L/2, v(0) = L - 2";
    let sys = UserSystem::new(text, &BTreeMap::new()).unwrap();
    assert_eq!(sys.info().params[1].value, (9.81f64 / 2.0).sqrt());
    assert_eq!(sys.info().y0, [1.0, 0.0]);
    // w and x(0) follow an override of L
    let sys = UserSystem::new(text, &overrides(&[("L", 4.0)])).unwrap();
    assert_eq!(sys.info().y0, [2.0, 2.0]);
    let mut dy = [0.0; 2];
    sys.rhs(0.0, &[0.0, 1.0], &mut dy);
    assert_eq!(dy[0], (9.81f64 / 4.0).sqrt());
}

#[test]
fn definitions_outputs_and_event_options() {
    let text = "param k = 10, kc = 1e4\n\
                Fc = if(x < 0, -kc*x, 0)  # penalty contact\n\
                x' = v; v' = -k*x + Fc - 9.81\n\
                x(0) = 1, v(0) = 0\n\
                output energy = 0.5*v^2 + 0.5*k*x^2 + 9.81*x\n\
                output contact = Fc\n\
                event ground: x, falling, terminal\n\
                event apex: v, rising";
    let sys = UserSystem::new(text, &BTreeMap::new()).unwrap();
    assert_eq!(sys.info().outputs, ["energy", "contact"]);
    let mut dy = [0.0; 2];
    sys.rhs(0.0, &[-0.01, 0.0], &mut dy);
    assert_eq!(dy[1], -10.0 * -0.01 + 1e4 * 0.01 - 9.81);
    let mut out = [0.0; 2];
    sys.outputs(0.0, &[-0.01, 2.0], &mut out);
    assert_eq!(out[1], 100.0);
    let j = sys.jacobian(0.0, &[-0.01, 0.0]).unwrap();
    assert_eq!(j[(1, 0)], -10.0 - 1e4, "derivative of the active branch");
    let j = sys.jacobian(0.0, &[0.01, 0.0]).unwrap();
    assert_eq!(j[(1, 0)], -10.0);
    let ev = sys.events();
    assert_eq!(
        (ev[0].direction.as_i8(), ev[0].terminal),
        (-1, true),
        "ground"
    );
    assert_eq!(
        (ev[1].direction.as_i8(), ev[1].terminal),
        (1, false),
        "apex"
    );
}

#[test]
fn definitions_are_checked_even_when_unused() {
    assert_eq!(
        super::system_error("x' = -x\nunused = y + 1"),
        "line 2, column 10: unknown name \"y\"\n  unused = y + 1\n           ^"
    );
}

/// Large systems within the text budget build (and in time linear in their size: every
/// program compiles only the definitions it needs).
#[test]
fn large_systems_within_the_budget_build() {
    let mut text = String::from("x' = d1999\nx(0) = 1\nd0 = x\n");
    for i in 1..2000 {
        text += &format!("d{i} = d{} + x\n", i - 1);
    }
    for i in 0..500 {
        text += &format!("event e{i}: x - {i}\noutput o{i} = d{i}\n");
    }
    let sys = UserSystem::new(&text, &BTreeMap::new()).unwrap();
    let mut dy = [0.0];
    sys.rhs(0.0, &[1.0], &mut dy);
    assert_eq!(dy[0], 2000.0);
    assert_eq!(sys.events().len(), 500);
    assert_eq!(sys.events()[7].expr.eval(0.0, &[1.0]), -6.0);
    let mut out = vec![0.0; 500];
    sys.outputs(0.0, &[1.0], &mut out);
    assert_eq!(out[499], 500.0);
}

/// Runs `model` with method `id` over [0, steps·h] the way the driver does (fixed grid
/// t_k = k h) and returns every state.
fn trajectory(model: &dyn Model, id: &str, y0: &[f64], h: f64, steps: usize) -> Vec<f64> {
    let mut stepper = odelab::method::create(id, y0.len()).unwrap();
    let mut stats = Stats::default();
    let mut y = y0.to_vec();
    let mut next = vec![0.0; y0.len()];
    let mut all = y.clone();
    for k in 0..steps {
        let t = k as f64 * h;
        stepper
            .step(model, t, &y, h, &mut next, &mut stats)
            .unwrap();
        std::mem::swap(&mut y, &mut next);
        all.extend_from_slice(&y);
    }
    all
}

/// The core test: a user system identical to a built-in model gives bitwise the
/// same trajectory (and outputs) for explicit methods.
#[test]
fn user_system_reproduces_built_in_models_bitwise() {
    for (text, id, pars) in [
        (
            MSD,
            "mass-spring-damper",
            overrides(&[("c", 2.0), ("k", 50.0)]),
        ),
        (PENDULUM, "pendulum", overrides(&[("L", 1.5)])),
    ] {
        let (uinfo, user) = build_user_system(text, &pars).unwrap();
        let (binfo, builtin) = model::build(id, &pars).unwrap();
        assert_eq!(uinfo.names, binfo.names);
        let y0 = [0.4, -0.3];
        for method in ["euler", "rk4"] {
            let a = trajectory(user.as_ref(), method, &y0, 1e-2, 500);
            let b = trajectory(builtin.as_ref(), method, &y0, 1e-2, 500);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()),
                "{id} with {method}: trajectories differ"
            );
            let (mut eu, mut eb) = ([0.0], [0.0]);
            for y in a.chunks(2).step_by(50) {
                user.outputs(0.0, y, &mut eu);
                builtin.outputs(0.0, y, &mut eb);
                assert_eq!(eu[0].to_bits(), eb[0].to_bits(), "{id} energy");
            }
        }
    }
}

/// The same run compared with the driver's `solve` of the built-in model (default
/// parameters, from rest), as the page would see it.
#[test]
fn user_system_matches_solve_of_the_built_in_model() {
    let spec = odelab::spec::SolveSpec {
        model: "mass-spring-damper".into(),
        method: "rk4".into(),
        h: Some(1e-3),
        t1: Some(2.0),
        ..Default::default()
    };
    let sol = odelab::solve(&spec).unwrap();
    let (info, user) = build_user_system(MSD, &BTreeMap::new()).unwrap();
    assert_eq!(info.y0, [0.0, 0.0]);
    let steps = sol.t.len() - 1;
    let ours = trajectory(user.as_ref(), "rk4", &info.y0, 1e-3, steps);
    assert_eq!(ours.len(), sol.y.len());
    let worst = ours
        .iter()
        .zip(&sol.y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst <= 1e-12, "max difference {worst}");
}

/// The example system of the issue, integrated with RK4, against the same equations
/// written directly in Rust (sin(t) makes it non-autonomous).
#[test]
fn the_example_system_integrates() {
    struct Direct;
    impl System for Direct {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
            dy[0] = y[1];
            dy[1] = -100.0 * y[0] - 0.5 * y[1] + t.sin();
        }
    }
    impl Model for Direct {}
    let (info, user) = build_user_system(EXAMPLE, &BTreeMap::new()).unwrap();
    let a = trajectory(user.as_ref(), "rk4", &info.y0, 1e-3, 10_000);
    let b = trajectory(&Direct, "rk4", &info.y0, 1e-3, 10_000);
    let worst = a
        .iter()
        .zip(&b)
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max);
    assert!(worst <= 1e-12, "max difference {worst}");
}

/// A text whose right-hand sides never read t is autonomous (its ∂f/∂t, exactly zero,
/// is taken once by a Rosenbrock run); t anywhere in an equation, in a definition an
/// equation uses, or alone as a right-hand side makes it time-dependent; an output
/// does not count.
#[test]
fn a_system_is_autonomous_exactly_when_its_equations_read_t() {
    let autonomous = |text: &str| {
        UserSystem::new(text, &BTreeMap::new())
            .unwrap()
            .autonomous()
    };
    assert!(autonomous(MSD));
    assert!(autonomous(PENDULUM));
    assert!(!autonomous(EXAMPLE));
    assert!(!autonomous("x' = t\nx(0) = 0"));
    assert!(!autonomous("F = cos(2*t)\nx' = -x + F\nx(0) = 1"));
    assert!(autonomous("x' = -x\nx(0) = 1\noutput clock = t"));
    assert!(autonomous("x' = if(x > 0, -x, 2*x)\nx(0) = 1"));
    assert!(!autonomous("x' = if(t > 1, -x, 0)\nx(0) = 1"));
    // The heat equation of the bench, 200 states.
    let heat = "param N = 200, D = 1\nu[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1]) for i = 1..N\n\
                u[0] = 0\nu[N+1] = 0\nu[i](0) = sin(pi*i/(N+1)) for i = 1..N";
    assert!(autonomous(heat));
    // Its ∂f/∂t by the tape's tangent sweep is exactly the zeros the default gives.
    let sys = UserSystem::new(heat, &BTreeMap::new()).unwrap();
    let y0 = sys.info().y0.clone();
    let ft = sys.rhs_program().dfdt(0.3, &y0);
    assert!(ft.iter().all(|v| v.to_bits() == 0));
}
