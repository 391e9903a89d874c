//! The step inspector (spec `inspect: true`, `src/driver/inspect.rs`): every attempted
//! step with its cause, and the counts of rejections by cause, pinned on one problem
//! per cause; a run with the inspector gives the same bits as one without.

#[path = "common/mod.rs"]
mod common;

use common::*;
use odelab::driver::inspect::{StepLog, CAUSES};
use odelab::spec::SolveSpec;
use odelab::stats::RejectedByCause;
use odelab::Solution;

fn inspected(mut spec: SolveSpec) -> (Solution, StepLog) {
    let plain = odelab::solve(&spec).unwrap();
    spec.inspect = Some(true);
    let sol = odelab::solve(&spec).unwrap();
    // The same run, bit for bit, and the same counters.
    assert_eq!(plain.t, sol.t);
    assert_eq!(plain.y, sol.y);
    assert_eq!(plain.stats, sol.stats);
    assert!(plain.inspect.is_none());
    let log = sol.inspect.clone().expect("an inspected run has a log");
    (sol, log)
}

/// The log's causes counted, in the order of RejectedByCause (accepted first).
fn tally(log: &StepLog) -> [u64; 6] {
    let mut n = [0; 6];
    for &c in &log.cause {
        n[c as usize] += 1;
    }
    n
}

fn check_consistent(sol: &Solution, log: &StepLog) {
    let n = tally(log);
    let r = sol.stats.rejected_by_cause;
    assert_eq!(
        [n[1], n[2], n[3], n[4], n[5]],
        [r.error, r.newton, r.event, r.step_floor, r.other]
    );
    assert_eq!(n[0], sol.stats.naccept);
    assert_eq!(
        log.newton.iter().map(|&k| k as u64).sum::<u64>(),
        sol.stats.nnewton
    );
    assert_eq!(
        log.lus.iter().map(|&k| k as u64).sum::<u64>(),
        sol.stats.nlu
    );
    assert_eq!(CAUSES[3], "event");
}

/// Error-test rejections: Van der Pol μ = 10 with dp45 (rtol 1e-6, atol 1e-8) to
/// t = 20 rejects 27 of its 375 attempts, all by the error test; each rejected attempt
/// has an error norm above 1, each accepted one at most 1.
#[test]
fn error_test_rejections_on_van_der_pol_with_dp45() {
    let mut s = adaptive("van-der-pol", "dp45", 1e-6, 1e-8, 20.0);
    s.params.insert("mu".into(), 10.0);
    let (sol, log) = inspected(s);
    check_consistent(&sol, &log);
    assert_eq!(
        sol.stats.rejected_by_cause,
        RejectedByCause {
            error: 27,
            ..Default::default()
        }
    );
    assert_eq!((sol.stats.naccept, sol.stats.nreject), (348, 27));
    assert_eq!(log.t.len(), 375);
    for (&c, &e) in log.cause.iter().zip(&log.err) {
        match CAUSES[c as usize] {
            "error" => assert!(e > 1.0, "{e}"),
            "accepted" => assert!(e <= 1.0, "{e}"),
            other => panic!("cause {other}"),
        }
    }
    // A rejected attempt is retried from the same t with a smaller h.
    let i = log.cause.iter().position(|&c| c == 1).unwrap();
    assert_eq!(log.t[i + 1], log.t[i]);
    assert!(log.h[i + 1] < log.h[i]);
}

/// Newton rejections: radau5 on Robertson (rtol 1e-6, atol 1e-10) to t = 1e5: 2
/// attempts whose Newton iteration failed (retried smaller) besides 3 error-test
/// rejections; every attempt did Newton iterations, and each failed one shows them.
#[test]
fn newton_rejections_on_robertson_with_radau5() {
    let (sol, log) = inspected(adaptive("robertson", "radau5", 1e-6, 1e-10, 1e5));
    check_consistent(&sol, &log);
    assert_eq!(
        sol.stats.rejected_by_cause,
        RejectedByCause {
            error: 3,
            newton: 2,
            ..Default::default()
        }
    );
    assert_eq!((sol.stats.naccept, sol.stats.nreject), (105, 5));
    for (i, &c) in log.cause.iter().enumerate() {
        assert!(log.newton[i] >= 1, "attempt {i}");
        if c == 2 {
            assert!(
                log.err[i].is_nan(),
                "a failed Newton iteration measures no error"
            );
            assert_eq!(log.t[i + 1], log.t[i]);
            assert!(log.h[i + 1] < log.h[i]);
        }
    }
}

/// Event cuts: the two bouncing balls with dp45 (rtol 1e-6, atol 1e-8) and both
/// contact switches watched cut 48 steps for the 24 contact switches on [0, 2] (each
/// step that holds a switch, and once more when the recomputed step locates it again).
#[test]
fn event_cuts_on_the_bouncing_balls() {
    let mut s = adaptive("bouncing-balls", "dp45", 1e-6, 1e-8, 2.0);
    s.events = watch(&["psi1", "psi2"]);
    let (sol, log) = inspected(s);
    check_consistent(&sol, &log);
    assert_eq!(sol.events.len(), 24);
    assert_eq!(
        sol.stats.rejected_by_cause,
        RejectedByCause {
            error: 197,
            event: 48,
            ..Default::default()
        }
    );
    // A cut attempt is followed by a shorter one from the same t.
    let i = log.cause.iter().position(|&c| c == 3).unwrap();
    assert_eq!(log.t[i + 1], log.t[i]);
    assert!(log.h[i + 1] < log.h[i]);
}

/// The step floor: x' = x² from x = 1 blows up at t = 1; dp45 shrinks its step until h
/// reaches 16·eps·|t| and stops there: one step-floor attempt, the last one logged.
#[test]
fn step_floor_on_a_solution_that_blows_up() {
    let s = SolveSpec {
        system: Some("x' = x*x\nx(0) = 1".into()),
        method: "dp45".into(),
        t1: Some(2.0),
        ..Default::default()
    };
    let (sol, log) = inspected(s);
    check_consistent(&sol, &log);
    assert!(matches!(
        sol.stopped_by,
        Some(odelab::OdeError::StepSizeUnderflow { .. })
    ));
    assert_eq!(
        sol.stats.rejected_by_cause,
        RejectedByCause {
            error: 38,
            step_floor: 1,
            ..Default::default()
        }
    );
    assert_eq!(CAUSES[*log.cause.last().unwrap() as usize], "step-floor");
    assert!(*log.t.last().unwrap() > 0.9999);
}

/// On a fixed grid a failed Newton iteration stops the run: backward Euler on the
/// bouncing balls (no events watched, h = 0.01) meets the contact's switch at t = 0.4,
/// where Newton diverges; the log ends with that attempt, cause "newton".
#[test]
fn fixed_step_newton_stop_is_the_last_attempt_logged() {
    let (sol, log) = inspected(spec("bouncing-balls", "backward-euler", 0.01, 2.0));
    check_consistent(&sol, &log);
    assert_eq!(
        sol.stats.rejected_by_cause,
        RejectedByCause {
            newton: 1,
            ..Default::default()
        }
    );
    let last = log.t.len() - 1;
    assert_eq!(CAUSES[log.cause[last] as usize], "newton");
    assert_eq!((log.t[last], log.h[last]), (0.4, 0.01));
    assert!(log.newton[last] >= 2);
}
