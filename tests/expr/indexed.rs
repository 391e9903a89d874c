//! Bigger systems in the language: indexed families over ranges, boundary definitions,
//! `sum(… for j = a..b)`, second-order equations `x'' = …`, derivatives on right-hand
//! sides, Fortran exponents, and the located errors of each.

use super::system_error;
use odelab::expr::lexer::{lex, Tok};
use odelab::expr::UserSystem;
use odelab::model::Model;
use odelab::problem::System;
use std::collections::BTreeMap;

/// The heat equation (the public syntax block), with N a parameter.
pub const HEAT: &str = "param N = 200, D = 1
u[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = sin(pi*i/(N+1))                      for i = 1..N
output mean = sum(u[j] for j = 1..N)/N";

fn with(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

fn build(text: &str) -> UserSystem {
    UserSystem::new(text, &BTreeMap::new()).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

#[test]
fn heat_equation_expands_to_states_named_by_index() {
    let sys = UserSystem::new(HEAT, &with(&[("N", 5.0)])).unwrap();
    let info = sys.info();
    assert_eq!(info.dim, 5);
    assert_eq!(info.names, ["u[1]", "u[2]", "u[3]", "u[4]", "u[5]"]);
    for (i, y) in info.y0.iter().enumerate() {
        assert_eq!(
            *y,
            odelab::math::sin(std::f64::consts::PI * (i + 1) as f64 / 6.0)
        );
    }
    // f is the second difference with the zero boundary values u[0] = u[6] = 0.
    let y = [1.0, 2.0, 4.0, 8.0, 16.0];
    let mut dy = [0.0; 5];
    sys.rhs(0.0, &y, &mut dy);
    let k = 36.0;
    let expected = [
        k * (0.0 - 2.0 + 2.0),
        k * (1.0 - 4.0 + 4.0),
        k * (2.0 - 8.0 + 8.0),
        k * (4.0 - 16.0 + 16.0),
        k * (8.0 - 32.0 + 0.0),
    ];
    assert_eq!(dy, expected);
    // Its exact Jacobian is k·tridiag(1, −2, 1).
    let j = sys.jacobian(0.0, &y).unwrap();
    for r in 0..5usize {
        for c in 0..5 {
            let want = match r.abs_diff(c) {
                0 => -2.0 * k,
                1 => k,
                _ => 0.0,
            };
            assert_eq!(j[(r, c)], want, "J[{r},{c}]");
        }
    }
    let mut mean = [0.0];
    sys.outputs(0.0, &y, &mut mean);
    assert_eq!(mean[0], 31.0 / 5.0);
    // N sizes an array: its slider steps by integers; D does not.
    let n = info.params.iter().find(|p| p.name == "N").unwrap();
    let d = info.params.iter().find(|p| p.name == "D").unwrap();
    assert!(n.integer && !d.integer);
    assert_eq!(n.value, 200.0);
}

#[test]
fn heat_equation_with_two_thousand_cells_compiles_to_a_linear_tape() {
    let small = UserSystem::new(HEAT, &with(&[("N", 200.0)])).unwrap();
    let big = UserSystem::new(HEAT, &with(&[("N", 2000.0)])).unwrap();
    assert_eq!(big.info().dim, 2000);
    let (a, b) = (
        small.rhs_program().tape().insts().len(),
        big.rhs_program().tape().insts().len(),
    );
    // Four operations per cell (2u, difference, sum, scale), shared constants.
    assert_eq!(b, 10 * a, "{a} → {b}");
    assert!(b <= 4 * 2000, "{b}");
}

#[test]
fn families_and_plain_states_mix_with_index_arithmetic() {
    let text = "param n = 3
x' = -x + v[n]
v[k+1]' = v[k] - v[k+1]  for k = 0..n-1
v[0] = x
x(0) = 0
v[k](0) = k  for k = 1..n";
    let sys = build(text);
    assert_eq!(sys.info().names, ["x", "v[1]", "v[2]", "v[3]"]);
    assert_eq!(sys.info().y0, [0.0, 1.0, 2.0, 3.0]);
    let mut dy = [0.0; 4];
    sys.rhs(0.0, &[1.0, 2.0, 4.0, 8.0], &mut dy);
    assert_eq!(dy, [7.0, -1.0, -2.0, -4.0]);
}

#[test]
fn boundary_values_may_be_functions_of_time() {
    let sys = build(
        "param N = 2\nu[i]' = u[i-1] - u[i] for i = 1..N\nu[0] = sin(t)\nu[i](0) = 0 for i = 1..N",
    );
    let mut dy = [0.0; 2];
    sys.rhs(0.5, &[0.0, 0.0], &mut dy);
    assert_eq!(dy, [odelab::math::sin(0.5), 0.0]);
    let dfdt = sys.dfdt(0.5, &[0.0, 0.0]).unwrap();
    assert_eq!(dfdt[0], odelab::math::cos(0.5));
}

#[test]
fn sum_over_a_range_is_a_balanced_tree_within_the_height_limit() {
    // 3,000 terms chained would be 3,000 levels deep; pairwise they are 12.
    let sys = build(
        "param N = 3000\nu[i]' = -u[i] for i = 1..N\nu[i](0) = i for i = 1..N\n\
         output total = sum(u[j] for j = 1..N)\noutput empty = sum(u[j] for j = 2..1)",
    );
    let mut out = [0.0; 2];
    sys.outputs(0.0, &sys.info().y0, &mut out);
    assert_eq!(out, [3000.0 * 3001.0 / 2.0, 0.0]);
}

#[test]
fn sums_nest_and_use_the_outer_index() {
    let sys = build("x' = sum(sum(i*j for j = 1..i) for i = 1..3)\nx(0) = 0");
    let mut dy = [0.0];
    sys.rhs(0.0, &[0.0], &mut dy);
    // 1·1 + 2·(1+2) + 3·(1+2+3)
    assert_eq!(dy, [25.0]);
}

#[test]
fn second_order_equation_gains_the_velocity_state() {
    let sys = build("param g = 9.81, L = 1\nθ'' = -g/L*sin(θ)\nθ(0) = 1, θ'(0) = 0.5");
    let info = sys.info();
    assert_eq!(info.names, ["θ", "θ'"]);
    assert!(info.second_order);
    assert_eq!(info.y0, [1.0, 0.5]);
    let mut dy = [0.0; 2];
    sys.rhs(0.0, &[1.0, 0.5], &mut dy);
    assert_eq!(dy, [0.5, -9.81 / 1.0 * odelab::math::sin(1.0)]);
}

#[test]
fn indexed_second_order_chain_lays_out_positions_then_velocities() {
    let sys = build(
        "param N = 3, k = 4\nx[i]'' = k*(x[i-1] - 2*x[i] + x[i+1]) - 0.1*x[i]' for i = 1..N\n\
         x[0] = 0\nx[N+1] = 0\nx[i](0) = i - 1 for i = 1..N\nx[i]'(0) = 0 for i = 1..N",
    );
    let info = sys.info();
    assert_eq!(
        info.names,
        ["x[1]", "x[2]", "x[3]", "x[1]'", "x[2]'", "x[3]'"]
    );
    assert!(info.second_order);
    let mut dy = [0.0; 6];
    sys.rhs(0.0, &[0.0, 1.0, 0.0, 1.0, 0.0, 0.0], &mut dy);
    assert_eq!(dy, [1.0, 0.0, 0.0, 4.0 - 0.1, -8.0, 4.0]);
}

#[test]
fn mixed_orders_are_not_marked_second_order() {
    let info = build("x'' = -x + z\nz' = -z\nx(0) = 1, x'(0) = 0, z(0) = 1")
        .info()
        .clone();
    assert_eq!(info.names, ["x", "z", "x'"]);
    assert!(!info.second_order);
}

#[test]
fn derivative_on_a_right_hand_side_is_that_equations_right_hand_side() {
    // b' = a' − b with a' = −a: b' = −a − b, in either order of the lines.
    for text in [
        "a' = -a\nb' = a' - b\na(0) = 1, b(0) = 0",
        "b' = a' - b\na' = -a\na(0) = 1, b(0) = 0",
    ] {
        let sys = build(text);
        let ia = sys.info().names.iter().position(|n| n == "a").unwrap();
        let ib = 1 - ia;
        let mut y = [0.0; 2];
        y[ia] = 2.0;
        y[ib] = 3.0;
        let mut dy = [0.0; 2];
        sys.rhs(0.0, &y, &mut dy);
        assert_eq!((dy[ia], dy[ib]), (-2.0, -5.0), "{text}");
        let j = sys.jacobian(0.0, &y).unwrap();
        assert_eq!((j[(ib, ia)], j[(ib, ib)]), (-1.0, -1.0));
    }
}

#[test]
fn fortran_exponents_read_as_numbers() {
    let toks: Vec<Tok> = lex("1.d1 2.5D-3 1d4 7D+0 1..N")
        .unwrap()
        .into_iter()
        .map(|t| t.tok)
        .collect();
    assert_eq!(
        toks,
        [
            Tok::Num(10.0),
            Tok::Num(2.5e-3),
            Tok::Num(1e4),
            Tok::Num(7.0),
            Tok::Num(1.0),
            Tok::DotDot,
            Tok::Name("N".into()),
            Tok::Eof
        ]
    );
    let sys = build("x' = -1.d1*x\nx(0) = 2.5D-3");
    assert_eq!(sys.info().y0, [2.5e-3]);
    let mut dy = [0.0];
    sys.rhs(0.0, &[1.0], &mut dy);
    assert_eq!(dy, [-10.0]);
}

#[test]
fn spec_events_see_elements_and_sums() {
    let sys = build("param N = 3\nu[i]' = 1 for i = 1..N\nu[i](0) = 0 for i = 1..N");
    let e = sys.compile_event("sum(u[j] for j = 1..N) - u[2]").unwrap();
    assert_eq!(e.eval(0.0, &[1.0, 2.0, 4.0]), 5.0);
}

/// Each new error, at its character.
#[test]
fn indexed_errors_are_located() {
    let cases: &[(&str, &str)] = &[
        (
            "param N = 3\nu[i]' = u[i+1] for i = 1..N\nu[0] = 0\nu[N+1] = 0\nx' = u[N+2]",
            "line 5, column 6: u[N+2] is outside u[0..N+1] (it is u[5])\n  x' = u[N+2]\n       ^^^^^^",
        ),
        (
            "param N = 3\nu[i]' = u[i+1] - u[i-1] for i = 1..N\nu[0] = 0",
            "line 2, column 9: u[i+1] is outside u[0..N] (it is u[4])\n  \
             u[i]' = u[i+1] - u[i-1] for i = 1..N\n          ^^^^^^",
        ),
        (
            "u[i]' = u[i] for i = 1..3\nu[5] = 0\nx' = u[4]",
            "line 3, column 6: u[4] is neither a state nor a definition; define it, e.g. \
             u[4] = 0\n  x' = u[4]\n       ^^^^",
        ),
        (
            "param h = 0.5\nu[i]' = 1 for i = 1..h",
            "line 2, column 22: a range bound must be an integer, and is 0.5\n  \
             u[i]' = 1 for i = 1..h\n                       ^",
        ),
        (
            "x' = v[1]",
            "line 1, column 6: \"v\" has no elements [i]; declare them, e.g. v[i]' = … for \
             i = 1..N\n  x' = v[1]\n       ^",
        ),
        (
            "x' = -x for i = 1..3",
            "line 1, column 9: a range needs an indexed name, e.g. x[i]' = … for i = 1..N\n  \
             x' = -x for i = 1..3\n          ^^^",
        ),
        (
            "x'' = -x\nx''(0) = 1",
            "line 2, column 1: a second-order state takes x(0) and x'(0); x'' is given by its \
             equation\n  x''(0) = 1\n  ^",
        ),
        (
            "u[i]' = 1 for i = 1..2\nu' = 2",
            "line 2, column 1: \"u\" is already declared as an indexed family on line 1\n  \
             u' = 2\n  ^",
        ),
        (
            "a' = b' + 1\nb' = c'\nc' = a'",
            "line 1, column 1: the equations of a and b and c define their derivatives \
             through each other (a' → b' → c' → a'); write one of them without the other's \
             derivative\n  a' = b' + 1\n  ^",
        ),
        (
            "a' = -a\nF = a'\nb' = F",
            "line 2, column 5: \"a'\" cannot be used here: a derivative can be used in \
             equations, outputs and events, not in a definition\n  F = a'\n      ^^",
        ),
        (
            "u[i]' = u[i] for i = 1..2\nu[2] = 0",
            "line 2, column 1: \"u[2]\" is already declared as a state on line 1\n  u[2] = 0\n  ^^^^",
        ),
        (
            "x' = sum(x for j = 1..3",
            "line 1, column 24: expected \")\", found end of text; the \"(\" at line 1, \
             column 9 is not closed\n  x' = sum(x for j = 1..3\n                         ^",
        ),
        (
            "x' = sum(x)",
            "line 1, column 11: expected \"for\" (sum(expression for j = a..b)), found \")\"\n  \
             x' = sum(x)\n            ^",
        ),
        (
            "param N = 1000000\nu[i]' = 1 for i = 1..N",
            "line 2, column 19: the range 1..N (1..1000000) is too large (more than 100000 \
             elements)\n  u[i]' = 1 for i = 1..N\n                    ^^^^",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&system_error(text), want, "{text}");
    }
}
