//! The work budget of one convergence study: every run of every method together, counted
//! in states × f evaluations (+ entries × Jacobians and LUs), not timed, so the same
//! request stops at the same step size on every machine.

use odelab::convergence::{convergence, ConvergenceSpec};
use odelab::driver::Code;

fn study(methods: &[&str], max_work: Option<f64>) -> ConvergenceSpec {
    ConvergenceSpec {
        model: "vehicle-stiff".into(),
        methods: methods.iter().map(|s| s.to_string()).collect(),
        n_min: Some(4),
        n_max: Some(12),
        tols: Some(vec![]),
        local_h: Some(vec![]),
        max_work,
        ..Default::default()
    }
}

#[test]
fn a_spent_budget_stops_the_study_and_keeps_the_levels_finished() {
    let full = convergence(&study(&["radau5"], None)).unwrap();
    let all = &full.global[0];
    assert_eq!(all.h.len(), 9);
    assert!(all.diagnosis.is_none(), "{:?}", all.diagnosis);

    let cut = convergence(&study(&["radau5", "rk4"], Some(1e5))).unwrap();
    let s = &cut.global[0];
    let done = s.h.len();
    println!("radau5 finished {done} of 9 levels within 1e5 units");
    assert!(done > 0 && done < 9, "{done} levels");
    assert_eq!(s.n.len(), done);
    assert_eq!(s.error.len(), done);
    assert_eq!(s.nfev.len(), done);
    // The levels kept are the unbudgeted study's, number for number.
    assert_eq!(&s.error[..], &all.error[..done]);
    assert_eq!(&s.nfev[..], &all.nfev[..done]);
    let d = s.diagnosis.as_ref().expect("a diagnosis");
    assert_eq!(d.code, Code::WorkBudget);
    assert!(
        d.message.contains("work budget of 100000 units"),
        "{}",
        d.message
    );
    // The next method gets no run at all, and says why.
    assert!(
        d.message.contains("by the run of radau5 at h = ")
            && d.message.ends_with(&format!(
                ": the {done} larger step sizes of radau5 finished are shown."
            )),
        "{}",
        d.message
    );
    let next = &cut.global[1];
    assert!(next.h.is_empty() && next.n.is_empty());
    let d = next.diagnosis.as_ref().expect("a diagnosis");
    assert_eq!(d.code, Code::WorkBudget);
    assert!(
        d.message.ends_with(": no step size of rk4 finished."),
        "{}",
        d.message
    );
}

#[test]
fn a_budget_that_is_not_positive_is_refused() {
    for w in [0.0, -1.0, f64::NAN] {
        assert!(convergence(&study(&["rk4"], Some(w))).is_err(), "{w}");
    }
}
