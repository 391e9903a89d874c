//! Exact rationals for entries typed as fractions.

use odelab::tableau::exact::{parse_exact, Frac};

#[test]
fn fractions_decimals_and_parentheses_parse_exactly() {
    assert_eq!(parse_exact("1/6"), Frac::new(1, 6));
    assert_eq!(parse_exact(" -3/4 "), Frac::new(-3, 4));
    assert_eq!(parse_exact("0.125"), Frac::new(1, 8));
    assert_eq!(parse_exact("(1+2)/(4*2)"), Frac::new(3, 8));
    assert_eq!(parse_exact("--1"), Some(Frac::ONE));
    assert_eq!(parse_exact("2/4").unwrap().to_string(), "1/2");
}

#[test]
fn anything_else_is_left_to_the_expression_language() {
    for text in [
        "sqrt(3)/6",
        "1e-3",
        "1/0",
        "1/x",
        "",
        "(1",
        "1..2",
        "99999999999999999999999999999999999999999",
    ] {
        assert_eq!(parse_exact(text), None, "{text}");
    }
}

#[test]
fn one_sixth_is_the_float_the_const_tableaux_use() {
    assert_eq!(parse_exact("1/6").unwrap().to_f64(), 1.0 / 6.0);
    assert_eq!(
        parse_exact("19372/6561").unwrap().to_f64(),
        19372.0 / 6561.0
    );
}

#[test]
fn extreme_integers_overflow_to_none_without_panicking() {
    let min = "170141183460469231731687303715884105728"; // 2^127 = −i128::MIN
    assert_eq!(parse_exact(&format!("-{min}")), None);
    // i128::MIN itself is representable; its negation is not.
    let min_frac = parse_exact("-170141183460469231731687303715884105727-1");
    assert_eq!(min_frac.map(|f| f.num), Some(i128::MIN));
    assert_eq!(min_frac.and_then(|f| f.checked_neg()), None);
    let big = "170141183460469231731687303715884105727";
    assert_eq!(parse_exact(&format!("{big}*{big}")), None);
    assert_eq!(
        parse_exact(&format!(
            "1/{big}+1/{}",
            "170141183460469231731687303715884105726"
        )),
        None
    );
    assert!(parse_exact(&format!("(-{big}-1)/(-1)")).is_none());
    assert!(parse_exact(&format!("(-{big}-1)/2")).is_some());
}
