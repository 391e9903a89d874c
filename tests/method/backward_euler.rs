//! `backward-euler` (seed 002 §7.7): order 1, L-stable damping, Newton counts, errors.

use super::common::*;
use super::stiff_common::*;
use odelab::method::create;
use odelab::stats::Stats;
use odelab::OdeError;

#[test]
fn issue_4_backward_euler_order_one() {
    let (p, errs) = observed_order("backward-euler", 0.004, 4, 1.0);
    println!("backward-euler order {p}, errors {errs:?}");
    assert!((p - 1.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// R(z) = 1/(1 − z): one step of y' = λy with hλ = −1e6 damps to 1/(1 + 1e6).
#[test]
fn issue_4_backward_euler_damps_stiff_decay() {
    let sys = Rotation { a: -1e6, b: 0.0 };
    let mut s = create("backward-euler", 2).unwrap();
    let mut y1 = [0.0; 2];
    let mut stats = Stats::default();
    s.step(&sys, 0.0, &[1.0, 0.0], 1.0, &mut y1, &mut stats)
        .unwrap();
    assert!((y1[0] - 1.0 / (1.0 + 1e6)).abs() < 1e-15, "{y1:?}");
    // A linear problem: Newton converges in one correction, confirmed by a second.
    assert_eq!((stats.njev, stats.nlu, stats.nnewton), (1, 1, 2));
}

/// I − hJ singular (hλ = 1 on y' = λy): a typed error at the step's t and h.
#[test]
fn issue_4_singular_newton_matrix_is_a_typed_error() {
    let sys = Rotation { a: 2.0, b: 0.0 };
    let mut s = create("backward-euler", 2).unwrap();
    let mut y1 = [0.0; 2];
    let err = s
        .step(&sys, 0.25, &[1.0, 0.0], 0.5, &mut y1, &mut Stats::default())
        .unwrap_err();
    match &err {
        OdeError::SingularMatrix { t, h, .. } => assert_eq!((*t, *h), (0.25, 0.5)),
        other => panic!("expected SingularMatrix, got {other:?}"),
    }
    assert!(
        err.to_string()
            .contains("singular at t = 0.25 with h = 0.5"),
        "{err}"
    );
}

/// Van der Pol μ = 1000 at h = 1 stays bounded (Newton converges at every step).
#[test]
fn issue_4_backward_euler_on_stiff_van_der_pol() {
    let mut s = spec("van-der-pol", "backward-euler", 1.0, 100.0);
    s.params.insert("mu".into(), 1000.0);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.stopped_by.is_none(), "{:?}", sol.warning);
    assert!(last(&sol)[0].abs() < 2.1);
}

/// x' = x² from x = 1 with h = 1: y = 1 + y² has no real solution, so Newton cannot
/// converge; `solve` stops with the typed error at t = 0, h = 1.
#[test]
fn issue_4_newton_non_convergence_is_a_typed_error() {
    let spec = odelab::spec::SolveSpec {
        system: Some("x' = x*x\nx(0) = 1".into()),
        method: "backward-euler".into(),
        h: Some(1.0),
        t1: Some(2.0),
        ..Default::default()
    };
    let sol = odelab::solve(&spec).unwrap();
    println!("{:?} {:?}", sol.stopped_by, sol.stats);
    assert!(
        matches!(sol.stopped_by, Some(OdeError::NewtonFailed { t, h, .. }) if t == 0.0 && h == 1.0),
        "{:?}",
        sol.stopped_by
    );
    assert!(sol.warning.unwrap().contains("did not converge"));
}
