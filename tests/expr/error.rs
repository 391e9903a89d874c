//! Error messages: line, column, the source line with carets, and what was expected or
//! which name is unknown (with a suggestion for close names).

use super::system_error;
use odelab::expr::compile_expr;
use odelab::OdeError;

/// (bad system text, the exact message the page shows).
const TABLE: &[(&str, &str)] = &[
    (
        "param k = 100, c = 0.5\nx' = v\nv' = -kk*x - c*v",
        "line 3, column 7: unknown name \"kk\"; did you mean \"k\"?\n  v' = -kk*x - c*v\n        ^^",
    ),
    (
        "x' = v +\nv' = 1",
        "line 1, column 9: expected a number, a name or \"(\", found end of line\n  x' = v +\n          ^",
    ),
    (
        "x' = sin(x\nv' = 1",
        "line 1, column 11: expected \",\" or \")\", found end of line; the \"(\" at line 1, \
         column 9 is not closed\n  x' = sin(x\n            ^",
    ),
    (
        "x' = (x + 1)) * 2",
        "line 1, column 13: expected an operator or end of line, found \")\"\n  x' = (x + 1)) * 2\n              ^",
    ),
    (
        "param k 100\nx' = 1",
        "line 1, column 9: expected \"=\" after k, found number 100\n  param k 100\n          ^^^",
    ),
    (
        "x' 1",
        "line 1, column 4: expected \"=\" after x', found number 1\n  x' 1\n     ^",
    ),
    (
        "x' = 1\ny(0) = 1",
        "line 2, column 1: \"y\" has an initial value but no equation; add a line y' = …\n  y(0) = 1\n  ^",
    ),
    (
        "x' = 1\nx' = 2",
        "line 2, column 1: \"x\" is already declared as a state on line 1\n  x' = 2\n  ^",
    ),
    (
        "param k = 1\nx' = 1\nk' = 2",
        "line 3, column 1: \"k\" is already declared as a parameter on line 1\n  k' = 2\n  ^",
    ),
    (
        "x' = atan2(x)",
        "line 1, column 6: atan2 takes 2 arguments, got 1\n  x' = atan2(x)\n       ^^^^^^^^",
    ),
    (
        "x' = sin(x, 1)",
        "line 1, column 6: sin takes 1 argument, got 2\n  x' = sin(x, 1)\n       ^^^^^^^^^",
    ),
    (
        "x' = sinn(x)",
        "line 1, column 6: unknown function \"sinn\"; did you mean \"sin\"?\n  x' = sinn(x)\n       ^^^^",
    ),
    (
        "x' = 2x",
        "line 1, column 7: expected an operator or end of line, found name \"x\"; write \"*\" \
         for a product\n  x' = 2x\n        ^",
    ),
    (
        "x' = 1 < x < 2",
        "line 1, column 12: comparisons cannot be chained; write a < x && x < b\n  x' = 1 < x < 2\n             ^",
    ),
    (
        "x(1) = 2\nx' = 1",
        "line 1, column 3: initial values are given at t = 0; write x(0) = …\n  x(1) = 2\n    ^",
    ),
    (
        "x''' = -x",
        "line 1, column 4: only first- and second-order equations can be written; introduce \
         a state for x'', e.g. x'' = a and a' = …\n  x''' = -x\n     ^",
    ),
    (
        "param t = 1\nx' = 1",
        "line 1, column 7: \"t\" is the time variable; choose another name\n  param t = 1\n        ^",
    ),
    (
        "x' = 1\nx(0) = 1, x(0) = 2",
        "line 2, column 11: \"x\" already has an initial value on line 2\n  x(0) = 1, x(0) = 2\n            ^",
    ),
    (
        "",
        "line 1, column 1: the system has no equations; write one per state, e.g. x' = v\n  \n  ^",
    ),
    (
        "x' = @",
        "line 1, column 6: unexpected character '@'\n  x' = @\n       ^",
    ),
    (
        "x' = 1e999",
        "line 1, column 6: number 1e999 is too large (beyond the floating-point range)\n  x' = 1e999\n       ^^^^^",
    ),
    (
        "param a = x\nx' = 1",
        "line 1, column 11: \"x\" cannot be used here: x is a state; parameter and initial \
         values must be constants\n  param a = x\n            ^",
    ),
    (
        "x' = F\nF = G\nG = F",
        "line 2, column 5: \"G\" cannot be used here: it is defined below, on line 3; move the \
         definition above its first use\n  F = G\n      ^",
    ),
    (
        "x' = sin",
        "line 1, column 6: \"sin\" is a function; call it as sin(…)\n  x' = sin\n       ^^^",
    ),
    (
        "x' = x(2)",
        "line 1, column 6: \"x\" is not a function; write \"*\" for a product\n  x' = x(2)\n       ^",
    ),
    (
        "event: x\nx' = 1",
        "line 1, column 6: expected an event name, found \":\"\n  event: x\n       ^",
    ),
    (
        "\tx' = kk",
        "line 1, column 7: unknown name \"kk\"\n  \tx' = kk\n  \t     ^^",
    ),
    (
        "θ' = ωω\nω' = -sin(θ)",
        "line 1, column 6: unknown name \"ωω\"; did you mean \"ω\"?\n  θ' = ωω\n       ^^",
    ),
    (
        "x' = 1\nevent hit: x, upwards",
        "line 2, column 15: expected falling, rising or terminal, found name \"upwards\"\n  \
         event hit: x, upwards\n                ^^^^^^^",
    ),
    (
        "x' = 1\nparam a = 1/0",
        "line 2, column 11: parameter a is inf, not a finite number\n  param a = 1/0\n            ^^^",
    ),
    (
        "param a = 1 b = 2\nx' = 1",
        "line 1, column 13: expected \",\" or end of line, found name \"b\"; separate the \
         declarations of one line with commas\n  param a = 1 b = 2\n              ^",
    ),
    (
        "x' = if(x = 0, 1, 2)",
        "line 1, column 11: expected \",\" or \")\", found \"=\"; write \"==\" to compare\n  \
         x' = if(x = 0, 1, 2)\n            ^",
    ),
    (
        "x' = v v' = -x",
        "line 1, column 8: expected an operator or end of line, found name \"v\"; start each \
         equation on a new line (or separate them with \";\")\n  x' = v v' = -x\n         ^",
    ),
];

#[test]
fn error_messages_name_line_column_and_caret() {
    for (text, want) in TABLE {
        assert_eq!(&system_error(text), want, "for {text:?}");
    }
}

#[test]
fn errors_are_the_typed_parse_variant() {
    let e = compile_expr("x +* 2", &["x".into()], &[]).unwrap_err();
    assert_eq!(
        e,
        OdeError::Parse {
            line: 1,
            column: 4,
            message: "expected a number, a name or \"(\", found \"*\"".into(),
            snippet: "  x +* 2\n     ^".into(),
        }
    );
}

#[test]
fn one_letter_names_get_no_far_fetched_suggestion() {
    // "v" is not a typo of "x": the student forgot to declare v.
    assert_eq!(
        system_error("x' = v"),
        "line 1, column 6: unknown name \"v\"\n  x' = v\n       ^"
    );
    // but a case slip is recognised
    assert!(system_error("param K = 1\nx' = k").contains("did you mean \"K\"?"));
}

#[test]
fn nesting_and_size_limits_are_typed_errors() {
    let deep = format!("x' = {}x{}", "(".repeat(500), ")".repeat(500));
    assert!(system_error(&deep).contains("nested too deeply"));
    let long = format!("x' = {}", vec!["x"; 1000].join(" + "));
    assert!(system_error(&long).contains("expression too long"));
    let huge = "x' = 1\n".repeat(20_000);
    assert!(system_error(&huge).starts_with("line 1, column 1: the text is too large"));
    let minus = format!("x' = {}x", "-".repeat(10_000));
    assert!(system_error(&minus).contains("nested too deeply"));
}

#[test]
fn event_expression_errors_point_into_the_expression() {
    let e = compile_expr("x - rr", &["x".into()], &[("r".into(), 1.0)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1, column 5: unknown name \"rr\"; did you mean \"r\"?\n  x - rr\n      ^^"
    );
}

/// A forgotten initial value is not a silent zero: the error points at the equation of
/// the state that has none, first in the order of the states.
#[test]
fn a_state_without_an_initial_value_is_an_error_at_its_equation() {
    assert_eq!(
        system_error("param k = 4\nx' = v\nv' = -k*x\nx(0) = 1"),
        "line 3, column 1: \"v\" has no initial value; add a line v(0) = … \
         (a state does not start at 0 unless you say so)\n  v' = -k*x\n  ^"
    );
    // The typed variant, with the line and column the page's editor shows.
    match odelab::expr::UserSystem::new("\n  y' = -y", &Default::default()).err() {
        Some(OdeError::Parse { line, column, .. }) => assert_eq!((line, column), (2, 3)),
        other => panic!("expected a located parse error, got {other:?}"),
    }
    // A second-order equation needs both x(0) and x'(0).
    assert_eq!(
        system_error("x'' = -x\nx(0) = 1"),
        "line 1, column 1: \"x'\" has no initial value; add a line x'(0) = … \
         (a state does not start at 0 unless you say so)\n  x'' = -x\n  ^"
    );
    // An indexed family: the hint is the family's line.
    let family = system_error("param N = 3\nu[i]' = -u[i] for i = 1..N\nu[1](0) = 1");
    assert!(
        family.starts_with("line 2, column 1: \"u[2]\" has no initial value"),
        "{family}"
    );
    assert!(family.contains("u[i](0) = … for i = 1..N"), "{family}");
    // A misspelt name in an equation is the more specific message, and comes first.
    assert!(system_error("x' = -xx").contains("unknown name \"xx\""));
    // With every initial value given, the same text builds.
    assert!(
        odelab::expr::UserSystem::new("x'' = -x\nx(0) = 1, x'(0) = 0", &Default::default()).is_ok()
    );
}
