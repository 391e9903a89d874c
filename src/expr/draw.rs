//! `draw` lines of the system text: how a typed system draws itself.
//!
//! ```text
//! draw ground(-1.2)
//! draw rod(0, 0, L*sin(th), -L*cos(th))
//! draw ball(L*sin(th), -L*cos(th), 0.1)
//! draw spring(x1, y1, x2, y2)
//! draw box(x, y, w, h)            # centred at (x, y)
//! draw coil(x, y, r)              # a torsion spring's coil at a joint
//! draw rod(x[i-1], y[i-1], x[i], y[i]) for i = 2..N   # one shape per element
//! ```
//!
//! Each argument is an expression of t, the states, the parameters and the definitions,
//! like an output's. A drawing is therefore compiled as outputs of the system, one per
//! argument, named `draw N shape arg` (N counts the draw lines from 1, e.g.
//! `draw 2 ball r`): the driver evaluates them at every output time like any output, and
//! the page reads the shapes back from those names. Such names contain spaces, so they
//! can never collide with a declared name. A line with a range, as indexed families are
//! written, draws one shape per value k of its index, named `draw N.k shape arg`.
//!
//! A line is a draw line when it starts with `draw`, a blank and a letter (so a state or
//! definition called `draw`, as in `draw' = …`, is still allowed). [`take_draw_lines`]
//! blanks those lines out of the text (same length, so every other statement keeps its
//! line and column) and parses them; errors point at the line and column in the text.

use super::error::{suggest, ErrorKind, ExprError};
use super::lexer::{lex, Span};
use super::parser::{parse_expr_for, Expr, ExprKind, Ident, Range};

/// The shapes a draw line may name, with their arguments in order.
pub const SHAPES: &[(&str, &[&str])] = &[
    ("rod", &["x1", "y1", "x2", "y2"]),
    ("ball", &["x", "y", "r"]),
    ("spring", &["x1", "y1", "x2", "y2"]),
    ("ground", &["y"]),
    ("box", &["x", "y", "w", "h"]),
    ("coil", &["x", "y", "r"]),
];

/// Prefix of every output a draw line becomes.
pub const DRAW_OUTPUT_PREFIX: &str = "draw ";

/// The text with its draw lines blanked out, and those lines as output declarations
/// (`draw N shape arg` = the argument's expression, with the line's range if it has
/// one), in order.
pub type DrawLines = (String, Vec<(Ident, Expr, Option<Range>)>);

/// The name of element `k` of a ranged draw output `draw N shape arg`: `draw N.k shape
/// arg` (the page groups a shape's arguments by the word after `draw`).
pub fn element_output(name: &str, k: i64) -> String {
    let rest = name.strip_prefix(DRAW_OUTPUT_PREFIX).unwrap_or(name);
    let (line, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    format!("{DRAW_OUTPUT_PREFIX}{line}.{k} {tail}")
}

/// Splits the draw lines off `text` (see the module docs).
pub fn take_draw_lines(text: &str) -> Result<DrawLines, ExprError> {
    let mut statements = text.as_bytes().to_vec();
    let mut outputs = Vec::new();
    let mut line_start = 0;
    let mut count = 0;
    for line in text.split('\n') {
        let line_end = line_start + line.len();
        let indent = line.len() - line.trim_start().len();
        if let Some(body) = draw_body(&line[indent..]) {
            count += 1;
            let body_start = line_end - body.len();
            outputs.extend(parse_draw(text, body_start..line_end, count)?);
            statements[line_start..line_end].fill(b' ');
        }
        line_start = line_end + 1;
    }
    // Only whole lines (between ASCII newlines) were replaced by ASCII blanks.
    let statements = String::from_utf8(statements).unwrap_or_default();
    Ok((statements, outputs))
}

/// What follows `draw ` on a draw line, or None if the line is not one.
fn draw_body(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("draw")?;
    let body = rest.trim_start();
    let blank = rest.len() > body.len();
    (blank && body.starts_with(|c: char| c.is_ascii_alphabetic())).then_some(body)
}

/// Parses `shape(args…)` at `range` of `text` into its outputs. The expression is
/// parsed from a copy of `text` with everything else blanked, so spans stay absolute.
fn parse_draw(
    text: &str,
    range: std::ops::Range<usize>,
    index: usize,
) -> Result<Vec<(Ident, Expr, Option<Range>)>, ExprError> {
    let mut only = vec![b' '; text.len()];
    only[range.clone()].copy_from_slice(&text.as_bytes()[range]);
    let only = String::from_utf8(only).unwrap_or_default();
    let tokens = lex(&only)?;
    let (expr, range) = parse_expr_for(&only, &tokens)?;
    let ExprKind::Call {
        name,
        name_span,
        args,
    } = expr.kind
    else {
        return Err(expected_shape(
            text.get(expr.span.start..expr.span.end).unwrap_or(""),
            expr.span,
        ));
    };
    let Some((shape, params)) = SHAPES.iter().find(|(s, _)| *s == name) else {
        let hint = suggest(&name, SHAPES.iter().map(|(s, _)| *s));
        let mut err = expected_shape(&format!("\"{name}\""), name_span);
        if let ErrorKind::Expected { hint: h, .. } = &mut err.kind {
            *h = hint.map(|s| format!("did you mean \"{s}\"?"));
        }
        return Err(err);
    };
    if args.len() != params.len() {
        return Err(ExprError::new(
            ErrorKind::WrongArity {
                name: format!("draw {shape}"),
                expected: params.len(),
                got: args.len(),
            },
            expr.span,
        ));
    }
    Ok(params
        .iter()
        .zip(args)
        .map(|(param, arg)| {
            let ident = Ident {
                name: format!("{DRAW_OUTPUT_PREFIX}{index} {shape} {param}"),
                span: name_span,
            };
            (ident, arg, range.clone())
        })
        .collect())
}

fn expected_shape(found: &str, span: Span) -> ExprError {
    let list: Vec<String> = SHAPES
        .iter()
        .map(|(s, p)| format!("{s}({})", p.join(", ")))
        .collect();
    ExprError::new(
        ErrorKind::Expected {
            expected: format!("a shape: {}", list.join(", ")),
            found: found.to_string(),
            hint: None,
        },
        span,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_lines_are_blanked_and_keep_every_other_position() {
        let text = "x' = v\n  draw rod(0, 0, x, 1) # arm\nv' = -x\n";
        let (rest, outputs) = take_draw_lines(text).unwrap();
        assert_eq!(rest.len(), text.len());
        assert_eq!(rest.lines().nth(1).unwrap().trim(), "");
        assert_eq!(rest.lines().nth(2), Some("v' = -x"));
        let names: Vec<&str> = outputs.iter().map(|(i, _, _)| i.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "draw 1 rod x1",
                "draw 1 rod y1",
                "draw 1 rod x2",
                "draw 1 rod y2"
            ]
        );
        let x2 = &outputs[2].1;
        assert_eq!(&text[x2.span.start..x2.span.end], "x");
    }

    #[test]
    fn a_state_called_draw_is_not_a_draw_line() {
        let text = "draw' = -draw\ndraw = 1";
        let (rest, outputs) = take_draw_lines(text).unwrap();
        assert_eq!(rest, text);
        assert!(outputs.is_empty());
    }

    #[test]
    fn unknown_shape_is_located_and_suggests_the_nearest() {
        let text = "x' = 1\ndraw bal(x, 0, 1)";
        let err = take_draw_lines(text).unwrap_err();
        assert_eq!(err.span.start, text.find("bal").unwrap());
        let message = err.kind.to_string();
        assert!(message.contains("ball"), "{message}");
    }
}
