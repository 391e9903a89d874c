//! The lexer: numbers, names (Unicode), operators, comments and statement ends.

use odelab::expr::lexer::{lex, Span, Tok};

fn toks(src: &str) -> Vec<Tok> {
    lex(src).unwrap().into_iter().map(|t| t.tok).collect()
}

#[test]
fn numbers_in_every_written_form() {
    assert_eq!(
        toks("2 0.5 .5 1e-3 1E+2 3."),
        [
            Tok::Num(2.0),
            Tok::Num(0.5),
            Tok::Num(0.5),
            Tok::Num(1e-3),
            Tok::Num(100.0),
            Tok::Num(3.0),
            Tok::Eof
        ]
    );
}

#[test]
fn a_number_followed_by_a_name_is_two_tokens() {
    // 2exp(x) is the number 2 and the name exp (the parser then asks for "*").
    assert_eq!(
        toks("2exp"),
        [Tok::Num(2.0), Tok::Name("exp".into()), Tok::Eof]
    );
}

#[test]
fn names_are_unicode_and_spans_are_bytes() {
    let t = lex("θ' = ω").unwrap();
    assert_eq!(t[0].tok, Tok::Name("θ".into()));
    assert_eq!(t[0].span, Span::new(0, 2));
    assert_eq!(t[1].tok, Tok::Prime);
    assert_eq!(t[3].tok, Tok::Name("ω".into()));
}

#[test]
fn operators_comments_and_statement_ends() {
    assert_eq!(
        toks("a<=b>=c==d!=e&&f||!g # comment + * /\n;"),
        [
            Tok::Name("a".into()),
            Tok::Le,
            Tok::Name("b".into()),
            Tok::Ge,
            Tok::Name("c".into()),
            Tok::EqEq,
            Tok::Name("d".into()),
            Tok::Ne,
            Tok::Name("e".into()),
            Tok::AndAnd,
            Tok::Name("f".into()),
            Tok::OrOr,
            Tok::Bang,
            Tok::Name("g".into()),
            Tok::Newline,
            Tok::Newline,
            Tok::Eof
        ]
    );
}

#[test]
fn pasted_typography_is_accepted() {
    assert_eq!(toks("−"), [Tok::Minus, Tok::Eof]);
    assert_eq!(toks("× ·"), [Tok::Star, Tok::Star, Tok::Eof]);
    assert_eq!(toks("**"), [Tok::Caret, Tok::Eof]);
}

#[test]
fn bad_characters_and_numbers_are_errors() {
    assert!(lex("x @ y").is_err());
    assert!(lex("1e").is_err());
    assert!(lex("1e+").is_err());
    assert!(lex(".").is_err());
    assert!(lex("1e400").is_err());
}
