//! Bad tableaux are typed errors that name the entry, never panics.

use super::common::*;
use super::known::*;
use odelab::spec::SolveSpec;
use odelab::stability::{stability_facts, StabilitySpec};
use odelab::tableau::{analyze_tableau, Entry, TableauSpec};
use odelab::OdeError;

fn err(spec: &TableauSpec) -> OdeError {
    analyze_tableau(spec).expect_err("a bad tableau is refused")
}

#[test]
fn wrong_shapes_are_refused() {
    let mut t = rk4_typed();
    t.a.pop();
    let e = err(&t);
    assert!(
        matches!(
            e,
            OdeError::WrongLength {
                expected: 4,
                got: 3,
                ..
            }
        ),
        "{e}"
    );
    let mut t = rk4_typed();
    t.a[2].pop();
    let e = err(&t);
    assert!(e.to_string().contains("tableau.a[2] (row 3"), "{e}");
    let mut t = rk4_typed();
    t.c = Some(vec![Entry::from("0"), Entry::from("1/2")]);
    assert!(err(&t).to_string().contains("tableau.c"), "{}", err(&t));
    let mut t = rk4_typed();
    t.b_hat = Some(vec![Entry::from("1")]);
    assert!(err(&t).to_string().contains("tableau.bHat"), "{}", err(&t));
    let e = err(&TableauSpec::default());
    assert!(matches!(e, OdeError::OutOfRange { .. }), "{e}");
}

#[test]
fn non_numeric_entry_names_row_and_column() {
    let mut t = rk4_typed();
    t.a[1][0] = Entry::from("1/x");
    let e = err(&t).to_string();
    assert!(e.contains("tableau.a[1][0] (row 2, column 1)"), "{e}");
    assert!(e.contains("1/x") && e.contains("unknown name"), "{e}");
    t.a[1][0] = Entry::from("1/2 +");
    assert!(err(&t).to_string().contains("row 2, column 1"));
    t.a[1][0] = Entry::from("");
    assert!(err(&t).to_string().contains("empty"));
    t.a[1][0] = Entry::from("t");
    assert!(matches!(err(&t), OdeError::NotFinite { .. }));
    t.a[1][0] = Entry::from("1/0");
    assert!(matches!(err(&t), OdeError::NotFinite { .. }));
}

#[test]
fn nan_and_infinite_entries_are_refused() {
    let mut t = catalogue("rk4");
    t.b[2] = Entry::Number(f64::NAN);
    let e = err(&t);
    assert!(matches!(e, OdeError::NotFinite { .. }), "{e}");
    assert!(e.to_string().contains("tableau.b[2]"), "{e}");
    let mut t = catalogue("rk4");
    t.a[3][0] = Entry::Number(f64::INFINITY);
    assert!(err(&t).to_string().contains("tableau.a[3][0]"));
}

#[test]
fn entries_above_the_diagonal_are_refused() {
    let mut t = rk4_typed();
    t.a[0][3] = Entry::from("1/4");
    let e = err(&t).to_string();
    assert!(
        e.contains("tableau.a[0][3] (row 1, column 4)") && e.contains("above the diagonal"),
        "{e}"
    );
}

#[test]
fn more_than_16_stages_are_refused() {
    let s = 17;
    let t = TableauSpec::from_numbers(vec![vec![0.0; s]; s], vec![1.0 / 17.0; s], None);
    let e = err(&t);
    assert!(matches!(e, OdeError::OutOfRange { .. }), "{e}");
    assert!(e.to_string().contains("between 1 and 16"), "{e}");
}

#[test]
fn nodes_must_be_row_sums() {
    let mut t = rk4_typed();
    t.c = Some(["0", "1/2", "1/3", "1"].map(Entry::from).to_vec());
    let e = err(&t).to_string();
    assert!(e.contains("tableau.c[2]") && e.contains("row sums"), "{e}");
}

#[test]
fn solve_refuses_what_it_cannot_run() {
    let mut s = spec("pendulum", "custom", 0.01, 1.0);
    assert!(run_err(&s).to_string().contains("needs a tableau"));
    s.method = "rk4".into();
    s.tableau = Some(rk4_typed());
    assert!(run_err(&s)
        .to_string()
        .contains("only read with method \"custom\""));
    // A custom method without b̂ has no error estimate.
    let s = SolveSpec {
        tableau: Some(rk4_typed()),
        adaptive: Some(true),
        ..spec("pendulum", "custom", 0.01, 1.0)
    };
    assert!(matches!(run_err(&s), OdeError::NotAdaptive { .. }));
}

#[test]
fn stability_lab_reads_the_same_tableau_format() {
    let f = stability_facts(&StabilitySpec {
        method: "custom".into(),
        tableau: Some(rk4_typed()),
        ..Default::default()
    })
    .unwrap();
    assert!(
        (f.real_intercept.unwrap() + 2.785293563405282).abs() < 1e-9,
        "{f:?}"
    );
    let mut bad = rk4_typed();
    bad.a[1][0] = Entry::from("1/x");
    let e = stability_facts(&StabilitySpec {
        method: "custom".into(),
        tableau: Some(bad),
        ..Default::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("row 2, column 1"), "{e}");
}
