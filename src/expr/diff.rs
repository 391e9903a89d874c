//! Exact derivatives of a compiled program by forward-mode automatic differentiation
//! over the tape (no finite differences).
//!
//! One value pass stores, for every instruction, its local partial derivatives with
//! respect to its operands (`pa`, `pb`). A tangent sweep then pushes one direction
//! through the tape: for the Jacobian ∂f/∂y one sweep per state (seed e_k), for ∂f/∂t
//! one sweep with t seeded. Results agree with the analytic derivatives to round-off.
//!
//! Non-smooth operations take the derivative of the branch that is active at the point:
//! `abs'(x) = sign(x)` (0 at 0), `sign' = 0`, `min`/`max` follow the chosen argument
//! (the first one on a tie), `if(c, a, b)` and `c ? a : b` follow the chosen branch,
//! comparisons and logic have derivative 0, `x^n` with a literal integer n is n·x^(n−1).
//! A zero tangent or a zero partial contributes nothing even when the other factor is
//! infinite or NaN, so `sqrt(x^2)` at 0, `x^0.5` with a constant exponent or
//! `max(0, sqrt(x))` at 0 give no spurious NaN through paths that are inactive or do not
//! depend on the direction.

use super::compile::{Op, Tape};
use super::eval::{load, Program};
use crate::math;
use nalgebra::{DMatrix, DVector};

/// The local partials (∂v/∂a, ∂v/∂b) of one instruction with value `v`. For `Select`
/// the partials are 1 for the chosen branch and 0 for the other (in `pa` and `pb`,
/// standing for operands b and c).
#[inline]
fn partials(op: Op, a: f64, b: f64, v: f64) -> (f64, f64) {
    match op {
        Op::Neg => (-1.0, 0.0),
        Op::Sin => (math::cos(a), 0.0),
        Op::Cos => (-math::sin(a), 0.0),
        Op::Tan => (1.0 + v * v, 0.0),
        Op::Asin => (1.0 / (1.0 - a * a).sqrt(), 0.0),
        Op::Acos => (-1.0 / (1.0 - a * a).sqrt(), 0.0),
        Op::Atan => (1.0 / (1.0 + a * a), 0.0),
        Op::Exp => (v, 0.0),
        Op::Log => (1.0 / a, 0.0),
        Op::Sqrt => (0.5 / v, 0.0),
        Op::Abs => (super::compile::sign(a), 0.0),
        Op::Sinh => (math::cosh(a), 0.0),
        Op::Cosh => (math::sinh(a), 0.0),
        Op::Tanh => (1.0 - v * v, 0.0),
        Op::PowI(n) => match n {
            0 => (0.0, 0.0),
            1 => (1.0, 0.0),
            _ => (f64::from(n) * math::powi(a, n - 1), 0.0),
        },
        Op::Add => (1.0, 1.0),
        Op::Sub => (1.0, -1.0),
        Op::Mul => (b, a),
        Op::Div => (1.0 / b, -v / b),
        Op::Pow => {
            let da = if b == 0.0 {
                0.0
            } else {
                b * math::powf(a, b - 1.0)
            };
            let db = if a == 0.0 && b > 0.0 {
                0.0
            } else {
                v * math::ln(a)
            };
            (da, db)
        }
        Op::Atan2 => {
            let r2 = a * a + b * b;
            (b / r2, -a / r2)
        }
        Op::Min => {
            if a <= b {
                (1.0, 0.0)
            } else {
                (0.0, 1.0)
            }
        }
        Op::Max => {
            if a >= b {
                (1.0, 0.0)
            } else {
                (0.0, 1.0)
            }
        }
        Op::Select => {
            if a.is_nan() {
                (f64::NAN, f64::NAN)
            } else if a != 0.0 {
                (1.0, 0.0)
            } else {
                (0.0, 1.0)
            }
        }
        Op::Not
        | Op::Sign
        | Op::Lt
        | Op::Le
        | Op::Gt
        | Op::Ge
        | Op::Eq
        | Op::Ne
        | Op::And
        | Op::Or => (0.0, 0.0),
    }
}

/// p·dx, where a zero partial or a zero tangent gives 0 whatever the other factor is
/// (an inactive branch, or a path the direction does not reach, contributes nothing).
#[inline]
fn term(p: f64, dx: f64) -> f64 {
    if dx == 0.0 || p == 0.0 {
        0.0
    } else {
        p * dx
    }
}

/// Value pass that also records the local partials.
pub(crate) fn run_with_partials(tape: &Tape, val: &mut [f64], pa: &mut [f64], pb: &mut [f64]) {
    let first = tape.first_tmp();
    for (i, inst) in tape.insts.iter().enumerate() {
        let a = val[inst.a as usize];
        let b = val[inst.b as usize];
        let c = val[inst.c as usize];
        let v = inst.op.value(a, b, c);
        val[first + i] = v;
        let (da, db) = partials(inst.op, a, b, v);
        pa[i] = da;
        pb[i] = db;
    }
}

/// Pushes the tangent seeded in `tan[..first_tmp]` through the tape.
pub(crate) fn sweep(tape: &Tape, pa: &[f64], pb: &[f64], tan: &mut [f64]) {
    let first = tape.first_tmp();
    for (i, inst) in tape.insts.iter().enumerate() {
        let d = match inst.op {
            Op::Select => term(pa[i], tan[inst.b as usize]) + term(pb[i], tan[inst.c as usize]),
            op if op.arity() == 1 => term(pa[i], tan[inst.a as usize]),
            _ => term(pa[i], tan[inst.a as usize]) + term(pb[i], tan[inst.b as usize]),
        };
        tan[first + i] = d;
    }
}

impl Program {
    /// Calls `each(k, column)` for the derivative of the outputs along input slot
    /// `k` (0 = t, 1..=n = states), for every k in `directions`.
    fn directional(
        &self,
        t: f64,
        y: &[f64],
        directions: std::ops::Range<usize>,
        mut each: impl FnMut(usize, &mut dyn Iterator<Item = f64>),
    ) {
        let mut guard = self.scratch.borrow_mut();
        let s = &mut *guard;
        let tape = &self.tape;
        load(tape, &mut s.val, t, y);
        run_with_partials(tape, &mut s.val, &mut s.pa, &mut s.pb);
        for k in directions {
            s.tan.fill(0.0);
            s.tan[k] = 1.0;
            sweep(tape, &s.pa, &s.pb, &mut s.tan);
            let tan = &s.tan;
            let mut col = tape.outputs.iter().map(|&o| tan[o as usize]);
            each(k, &mut col);
        }
    }

    /// ∂(outputs)/∂y at (t, y): an (outputs × states) matrix.
    pub fn jacobian(&self, t: f64, y: &[f64]) -> DMatrix<f64> {
        let (m, n) = (self.n_outputs(), self.n_states());
        let mut jac = DMatrix::zeros(m, n);
        self.directional(t, y, 1..n + 1, |k, col| {
            for (i, d) in col.enumerate() {
                jac[(i, k - 1)] = d;
            }
        });
        jac
    }

    /// ∂(outputs)/∂t at (t, y).
    pub fn dfdt(&self, t: f64, y: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.n_outputs());
        self.directional(t, y, 0..1, |_, col| {
            for (o, d) in out.iter_mut().zip(col) {
                *o = d;
            }
        });
        out
    }

    /// The gradient of output 0 with respect to (t, y): `out[0]` = ∂/∂t,
    /// `out[1 + k]` = ∂/∂y_k. `out` shorter than n + 1 gets the leading entries.
    pub fn gradient(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let n = self.n_states();
        self.directional(t, y, 0..n + 1, |k, col| {
            if let (Some(o), Some(d)) = (out.get_mut(k), col.next()) {
                *o = d;
            }
        });
    }
}
