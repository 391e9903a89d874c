//! The parser: precedence, associativity, round trips and statements.

use odelab::expr::lexer::lex;
use odelab::expr::parser::{
    parse_expr, parse_statements, BinOp, Direction, Expr, ExprKind, Stmt, UnOp,
};

fn parse(src: &str) -> Expr {
    parse_expr(src, &lex(src).unwrap()).unwrap()
}

/// A fully parenthesised rendering of the tree.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Num(x) => format!("{x}"),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Unary(UnOp::Neg, a) => format!("(-{})", show(a)),
        ExprKind::Unary(UnOp::Not, a) => format!("(!{})", show(a)),
        ExprKind::Binary(op, a, b) => {
            let o = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Pow => "^",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Gt => ">",
                BinOp::Ge => ">=",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::And => "&&",
                BinOp::Or => "||",
            };
            format!("({} {o} {})", show(a), show(b))
        }
        ExprKind::Call { name, args, .. } => {
            let args: Vec<String> = args.iter().map(show).collect();
            format!("{name}({})", args.join(", "))
        }
        ExprKind::Cond(c, a, b) => format!("({} ? {} : {})", show(c), show(a), show(b)),
        ExprKind::Index { name, index, .. } => format!("{name}[{}]", show(index)),
        ExprKind::Deriv {
            name, index, order, ..
        } => {
            let index = index
                .as_ref()
                .map_or(String::new(), |i| format!("[{}]", show(i)));
            format!("{name}{index}{}", "'".repeat(usize::from(*order)))
        }
        ExprKind::Sum { body, range } => format!(
            "sum({} for {} = {}..{})",
            show(body),
            range.var.name,
            show(&range.from),
            show(&range.to)
        ),
    }
}

#[test]
fn precedence_and_associativity() {
    let cases = [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("8 / 4 / 2", "((8 / 4) / 2)"),
        ("2 ^ 3 ^ 2", "(2 ^ (3 ^ 2))"),
        ("-x^2", "(-(x ^ 2))"),
        ("2^-x", "(2 ^ (-x))"),
        ("-2*x", "((-2) * x)"),
        ("a*-b", "(a * (-b))"),
        ("+x", "x"),
        ("--x", "(-(-x))"),
        ("a < b + 1", "(a < (b + 1))"),
        ("a < b && c >= d || !e", "(((a < b) && (c >= d)) || (!e))"),
        ("a ? b : c ? d : e", "(a ? b : (c ? d : e))"),
        ("x > 0 ? -k*x : 0", "((x > 0) ? ((-k) * x) : 0)"),
        ("if(x < 0, 1, 2)", "if((x < 0), 1, 2)"),
        ("atan2(y, x) * 2", "(atan2(y, x) * 2)"),
        ("f()", "f()"),
        ("(1 + 2) * 3", "((1 + 2) * 3)"),
    ];
    for (src, want) in cases {
        assert_eq!(show(&parse(src)), want, "{src}");
    }
}

/// Printing the tree fully parenthesised and parsing that again gives the same tree.
#[test]
fn parser_round_trips() {
    for src in [
        "1 + 2 * 3 - 4 / 5",
        "-x^2 + 2^-x^2",
        "a < b && c >= d || !e",
        "a ? b : c ? d : e",
        "sin(x)^2 + cos(x)^2",
        "max(min(x, 1), -1) * sign(v) + abs(v)",
    ] {
        let once = show(&parse(src));
        assert_eq!(show(&parse(&once)), once, "{src}");
    }
}

#[test]
fn spans_cover_the_source() {
    let src = "1 + sin(x)";
    let e = parse(src);
    assert_eq!((e.span.start, e.span.end), (0, src.len()));
    let ExprKind::Binary(_, _, call) = &e.kind else {
        panic!()
    };
    assert_eq!(&src[call.span.start..call.span.end], "sin(x)");
    let e = parse("(x + 1)");
    assert_eq!((e.span.start, e.span.end), (0, 7));
}

#[test]
fn statements_of_the_system_format() {
    let src = "# comment\nparam k = 100, c = 0.5\nx' = v\nv' = -k*x\nF = 2; x(0) = 1, v(0) = 0\n\
               output energy = v^2\nevent ground: x, falling, terminal\nevent any: v";
    let stmts = parse_statements(src, &lex(src).unwrap()).unwrap();
    let kinds: Vec<String> = stmts
        .iter()
        .map(|s| match s {
            Stmt::Param { name, .. } => format!("param {}", name.name),
            Stmt::Equation { name, .. } => format!("{}'", name.name),
            Stmt::Initial { name, .. } => format!("{}(0)", name.name),
            Stmt::Define { name, .. } => format!("{} =", name.name),
            Stmt::Output { name, .. } => format!("output {}", name.name),
            Stmt::Event {
                name,
                direction,
                terminal,
                ..
            } => format!("event {} {direction:?} {terminal}", name.name),
            other => format!("constrained {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "param k",
            "param c",
            "x'",
            "v'",
            "F =",
            "x(0)",
            "v(0)",
            "output energy",
            "event ground Falling true",
            "event any Both false"
        ]
    );
    let _ = Direction::Rising;
}

#[test]
fn one_expression_and_a_draw_lines_family_end_where_they_must() {
    use odelab::expr::parser::parse_expr_for;
    let e = |src: &str| {
        parse_expr(src, &lex(src).unwrap())
            .unwrap_err()
            .kind
            .to_string()
    };
    let message = e("2 x");
    assert!(
        message.contains("an operator or the end of the expression")
            && message.contains("write \"*\" for a product"),
        "{message}"
    );
    let src = "\n x[i] + 1 for i = 1..3\n";
    let (expr, range) = parse_expr_for(src, &lex(src).unwrap()).unwrap();
    assert_eq!(show(&expr), "(x[i] + 1)");
    let range = range.expect("a family");
    assert_eq!(
        (show(&range.from), show(&range.to)),
        ("1".into(), "3".into())
    );
    let src = "x + 1";
    assert!(parse_expr_for(src, &lex(src).unwrap()).unwrap().1.is_none());
    let src = "x + 1 y";
    let message = parse_expr_for(src, &lex(src).unwrap())
        .unwrap_err()
        .kind
        .to_string();
    assert!(
        message.contains("the end of the line or \"for i = a..b\""),
        "{message}"
    );
    let src = "x for i = 1..3";
    assert!(
        parse_expr(src, &lex(src).unwrap()).is_err(),
        "a lone expression takes no family"
    );
}
