//! Golden values of the evaluator: arithmetic, every function, conditionals, NaN.

use super::at;
// The functions are odelab::math's (the libm crate, the same bits natively and in wasm).
use odelab::math;

fn eq(text: &str, want: f64) {
    let got = at(text, 0.25, 3.0, -2.0);
    assert!(
        got == want || (got.is_nan() && want.is_nan()),
        "{text} = {got}, want {want}"
    );
}

#[test]
fn arithmetic_precedence_and_associativity() {
    eq("1 + 2*3", 7.0);
    eq("(1 + 2)*3", 9.0);
    eq("10 - 2 - 3", 5.0);
    eq("8/4/2", 1.0);
    eq("2^3^2", 512.0);
    eq("-2^2", -4.0);
    eq("-x^2", -9.0);
    eq("2^-1", 0.5);
    eq("2*-3", -6.0);
    eq("1e-3*1000", 1.0);
    eq(".5 + 0.5", 1.0);
    eq("x*y", -6.0);
    eq("k*x", 6.0); // k = 2 is a parameter
    eq("t", 0.25);
    eq("x^0.5", 3f64.sqrt());
    eq("y^3", -8.0);
    eq("x^-2", 1.0 / 9.0);
    eq("2**3", 8.0);
    eq("−x", -3.0);
    eq("2×x·2", 12.0);
}

#[test]
fn every_function_and_constant() {
    let (x, y) = (3.0f64, -2.0f64);
    eq("sin(x)", math::sin(x));
    eq("cos(x)", math::cos(x));
    eq("tan(x)", math::tan(x));
    eq("asin(0.3)", math::asin(0.3));
    eq("acos(0.3)", math::acos(0.3));
    eq("atan(x)", math::atan(x));
    eq("atan2(y, x)", math::atan2(y, x));
    eq("atan2(1, -1)", 0.75 * std::f64::consts::PI);
    eq("exp(y)", math::exp(y));
    eq("log(x)", math::ln(x));
    eq("log(e)", 1.0);
    eq("sqrt(x)", x.sqrt());
    eq("abs(y)", 2.0);
    eq("sinh(y)", math::sinh(y));
    eq("cosh(y)", math::cosh(y));
    eq("tanh(y)", math::tanh(y));
    eq("min(x, y)", -2.0);
    eq("max(x, y)", 3.0);
    eq("sign(y)", -1.0);
    eq("sign(x)", 1.0);
    eq("sign(0)", 0.0);
    eq("pi", std::f64::consts::PI);
    eq("e", std::f64::consts::E);
}

#[test]
fn comparisons_logic_and_conditionals() {
    eq("x < y", 0.0);
    eq("x > y", 1.0);
    eq("x <= 3", 1.0);
    eq("x >= 4", 0.0);
    eq("x == 3", 1.0);
    eq("x != 3", 0.0);
    eq("x > 0 && y > 0", 0.0);
    eq("x > 0 || y > 0", 1.0);
    eq("!(x > 0)", 0.0);
    eq("!0", 1.0);
    eq("if(y < 0, -1000*y, 0)", 2000.0);
    eq("if(x < 0, -1000*x, 0)", 0.0);
    eq("y < 0 ? 1 : 2", 1.0);
    eq("x > 4 ? 1 : x > 2 ? 2 : 3", 2.0);
    eq("if(5, 1, 2)", 1.0); // any nonzero value is true
}

#[test]
fn nan_and_infinity_are_values_not_panics() {
    eq("sqrt(y)", f64::NAN);
    eq("log(0)", f64::NEG_INFINITY);
    eq("x/0", f64::INFINITY);
    eq("0/0*x", f64::NAN);
    eq("sign(0/0 + x)", f64::NAN);
    eq("min(0/0 + x, 1)", f64::NAN);
    eq("max(1, sqrt(y))", f64::NAN);
    eq("if(sqrt(y), 1, 2)", f64::NAN);
    eq("asin(x)", f64::NAN);
    eq("exp(1000*x)", f64::INFINITY);
}

#[test]
fn a_short_state_vector_reads_nan() {
    let e = super::xy("x + y");
    assert!(e.eval(0.0, &[1.0]).is_nan());
    assert_eq!(e.eval(0.0, &[1.0, 2.0, 99.0]), 3.0);
}

mod no_allocation {
    //! Counts heap allocations of the current thread (other tests run on other threads).
    use std::alloc::{GlobalAlloc, Layout, System as Heap};
    use std::cell::Cell;

    struct Counting;

    thread_local! {
        static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            unsafe { Heap.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { Heap.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static COUNTING: Counting = Counting;

    fn allocations() -> usize {
        ALLOCATIONS.with(|c| c.get())
    }

    /// Evaluating f, the outputs and an event function allocates nothing.
    #[test]
    fn evaluation_allocates_nothing() {
        use odelab::model::Model;
        use odelab::problem::System;
        let sys = odelab::expr::UserSystem::new(
            "param k = 100, c = 0.5\nF = if(x < 0, -1e4*x, 0)\nx' = v\n\
             v' = -k*x - c*v + sin(t) + F\noutput energy = 0.5*v^2 + 0.5*k*x^2\n\
             x(0) = 1, v(0) = 0\nevent ground: x",
            &Default::default(),
        )
        .unwrap();
        let (mut dy, mut out) = ([0.0; 2], [0.0]);
        let before = allocations();
        for i in 0..100 {
            let y = [0.01 * f64::from(i) - 0.5, 1.0];
            sys.rhs(0.1 * f64::from(i), &y, &mut dy);
            sys.outputs(0.0, &y, &mut out);
            std::hint::black_box(sys.events()[0].expr.eval(0.0, &y));
        }
        assert_eq!(allocations() - before, 0);
    }
}
