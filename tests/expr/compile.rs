//! The compiler: folding, sharing and dropping instructions never changes a value.

use super::{at, xy};

fn n_insts(text: &str) -> usize {
    xy(text).program().tape().insts().len()
}

#[test]
fn constants_are_folded() {
    assert_eq!(n_insts("2*pi*k"), 0);
    assert_eq!(n_insts("x*(2*pi)"), 1);
    assert_eq!(n_insts("if(1 < 2, x, sin(y))"), 0);
    // folding uses the same operations as the tape, so the value is bitwise the same
    assert_eq!(at("k/3*x", 0.0, 0.7, 0.0), 2.0 / 3.0 * 0.7);
}

#[test]
fn equal_subexpressions_are_computed_once() {
    assert_eq!(n_insts("sin(x) + sin(x)"), 2);
    assert_eq!(n_insts("x^2 + x^2*y"), 3);
}

#[test]
fn literal_integer_powers_use_powi() {
    let e = xy("x^3");
    assert!(matches!(
        e.program().tape().insts()[0].op,
        odelab::expr::compile::Op::PowI(3)
    ));
    assert_eq!(e.eval(0.0, &[1.5, 0.0]), 1.5f64.powi(3));
}

#[test]
fn unused_definitions_leave_no_instructions() {
    let sys = odelab::expr::UserSystem::new(
        "x' = -x\nunused = sin(x)*cos(x)\nF = 2*x\ny' = F\nx(0) = 1, y(0) = 0",
        &Default::default(),
    )
    .unwrap();
    // -x and 2*x; the unused definition is dropped.
    assert_eq!(sys.rhs_program().tape().insts().len(), 2);
}
