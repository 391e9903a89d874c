//! `rn4`, the Rosenbrock–Nyström form of ros4 (Negrut et al. 2003 §2, Table 2, with a21 =
//! 2.0): its steps against ros4's, its order, and its refusals.

use super::common::*;
use odelab::method::create;
use odelab::spec::SolveSpec;
use odelab::stats::Stats;

/// A forced, damped, nonlinear oscillator typed as `x''`: exercises J₁ = ∂g/∂q,
/// J₂ = ∂g/∂q' and the ∂g/∂t term (the forcing).
const FORCED: &str = "param w = 3\nx'' = -w^2*sin(x) - 0.4*x' + cos(2*t)\nx(0) = 1\nx'(0) = 0";

fn typed(method: &str) -> SolveSpec {
    SolveSpec {
        system: Some(FORCED.into()),
        method: method.into(),
        h: Some(0.05),
        t1: Some(3.0),
        adaptive: Some(false),
        ..SolveSpec::default()
    }
}

fn max_rel_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / (1.0 + y.abs()))
        .fold(0.0, f64::max)
}

/// Negrut et al. 2003 §2 (after Table 1): the Rosenbrock–Nyström coefficients of Table 2
/// are computed from the Rosenbrock method of Table 1, i.e. rn4 is ros4 (eq. 2) applied to
/// the first-order system q' = v, v' = g(t, q, v) with its exact Jacobian
/// [[0, I], [∂g/∂q, ∂g/∂q']], its q stages eliminated. They coincide when ros4 runs on
/// exactly that first-order form with the exact (here AD) Jacobian and ∂f/∂t: then every
/// step, the error estimate (eq. 3) and so every step-size decision (eqs. 4–7) agree up to
/// rounding. One step, then a fixed grid on a forced nonlinear oscillator.
#[test]
fn rn4_equals_ros4_step_for_step_on_a_second_order_system() {
    let a = odelab::solve(&typed("rn4")).unwrap();
    let b = odelab::solve(&typed("ros4")).unwrap();
    assert_eq!(a.t.len(), b.t.len());
    assert_eq!(a.t, b.t);
    let d = max_rel_diff(&a.y, &b.y);
    println!("rn4 vs ros4 on a fixed grid: {d:e}");
    assert!(d < 1e-13, "max difference {d:e}");
    // The same work: three g evaluations, one Jacobian and one LU a step.
    assert_eq!(a.stats.nfev, b.stats.nfev);
    assert_eq!(a.stats.njev, b.stats.njev);
    assert_eq!(a.stats.nlu, b.stats.nlu);
}

/// The adaptive runs of the paper's own model (§3.1, the stiff double pendulum with
/// rotational spring-dampers, tolerances 1e-3 as for its Fig. 4) take the same steps:
/// rn4's error estimate is ros4's (the q part h Σ(μ − μ̂)U, the v part Σ(m − m̂)U).
#[test]
fn rn4_takes_ros4_steps_on_the_stiff_double_pendulum() {
    let run = |method: &str| {
        odelab::solve(&adaptive("double-pendulum-rsda", method, 1e-3, 1e-3, 2.0)).unwrap()
    };
    let (a, b) = (run("rn4"), run("ros4"));
    println!(
        "rn4 {} steps ({} rejected), ros4 {} ({})",
        a.stats.naccept, a.stats.nreject, b.stats.naccept, b.stats.nreject
    );
    assert_eq!(a.stats.naccept, b.stats.naccept);
    assert_eq!(a.stats.nreject, b.stats.nreject);
    let dt = max_rel_diff(&a.t, &b.t);
    let dy = max_rel_diff(&a.y, &b.y);
    assert!(dt < 1e-9 && dy < 1e-8, "t differ by {dt:e}, y by {dy:e}");
}

/// Order 4 on the fixed grid (mass–spring–damper, exact solution known).
#[test]
fn rn4_is_fourth_order() {
    let (p, errs) = observed_order("rn4", 0.01, 4, 1.0);
    println!("rn4 order {p}, errors {errs:?}");
    assert!((p - 4.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// Its dense output is ros4's cubic Hermite interpolant: midpoint error O(h⁴).
#[test]
fn rn4_dense_output_is_third_order() {
    let (p, errs) = dense_order("rn4", 0.004, 4);
    println!("rn4 dense slope {p}, {errs:?}");
    assert!((p - 4.0).abs() < 0.15, "slope {p}, {errs:?}");
}

/// Its error estimate is that of an order-3 formula: the local estimate scales as h⁴.
#[test]
fn rn4_embedded_estimate_is_third_order() {
    let mut ests = Vec::new();
    let hs = [0.08, 0.04, 0.02, 0.01];
    for &h in &hs {
        let mut st = create("rn4", 2).unwrap();
        let (_, sys) = odelab::model::build("pendulum", &Default::default()).unwrap();
        let y0 = [1.0, 0.0];
        let mut y1 = [0.0; 2];
        st.step(sys.as_ref(), 0.0, &y0, h, &mut y1, &mut Stats::default())
            .unwrap();
        let e = st.error_estimate().unwrap();
        ests.push(e.iter().map(|v| v.abs()).fold(0.0, f64::max));
    }
    let q = loglog_slope(&hs, &ests);
    assert!((q - 4.0).abs() < 0.2, "estimate slope {q}, {ests:?}");
}

/// A first-order model is refused with the reason, not run.
#[test]
fn rn4_refuses_a_first_order_system() {
    let s = SolveSpec {
        system: Some("y' = -y\ny(0) = 1".into()),
        method: "rn4".into(),
        h: Some(0.1),
        t1: Some(1.0),
        ..SolveSpec::default()
    };
    let e = run_err(&s).to_string();
    assert!(e.contains("rn4") && e.contains("second"), "{e}");
}
