//! Evaluation of a compiled [`Tape`]: one pass over the instructions, no allocation.
//!
//! A [`Program`] owns its tape and a scratch buffer of slots behind a `RefCell`, because
//! [`crate::problem::System::rhs`] takes `&self`. The core runs single-threaded (WASM),
//! so a program is `Send` but deliberately not `Sync`.

use super::compile::Tape;
use std::cell::RefCell;

/// Working memory of a program: slot values, and for derivatives the local partials of
/// every instruction and one tangent per slot.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    pub val: Vec<f64>,
    pub pa: Vec<f64>,
    pub pb: Vec<f64>,
    pub tan: Vec<f64>,
}

/// A tape ready to run.
#[derive(Debug, Clone)]
pub struct Program {
    pub(crate) tape: Tape,
    pub(crate) scratch: RefCell<Scratch>,
}

impl Program {
    pub fn new(tape: Tape) -> Self {
        let n = tape.n_slots();
        let mut val = vec![0.0; n];
        let k = 1 + tape.n_states;
        val[k..k + tape.consts.len()].copy_from_slice(&tape.consts);
        let m = tape.insts.len();
        Self {
            scratch: RefCell::new(Scratch {
                val,
                pa: vec![0.0; m],
                pb: vec![0.0; m],
                tan: vec![0.0; n],
            }),
            tape,
        }
    }

    /// Sets the values of the tape's parameter inputs ([`Tape::set_params`]); `false`
    /// when they need another compilation.
    pub fn set_params(&mut self, params: &[f64]) -> bool {
        if !self.tape.set_params(params) {
            return false;
        }
        let k = 1 + self.tape.n_states;
        let consts = &self.tape.consts;
        self.scratch.get_mut().val[k..k + consts.len()].copy_from_slice(consts);
        true
    }

    /// The compiled tape.
    pub fn tape(&self) -> &Tape {
        &self.tape
    }

    /// Number of states the program reads.
    pub fn n_states(&self) -> usize {
        self.tape.n_states
    }

    /// Number of outputs the program writes.
    pub fn n_outputs(&self) -> usize {
        self.tape.outputs.len()
    }

    /// Evaluates at (t, y) and writes the outputs into `out`. Missing entries of `y`
    /// read as NaN, extra entries and extra room in `out` are ignored: never a panic.
    pub fn eval(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let mut s = self.scratch.borrow_mut();
        let val = &mut s.val;
        load(&self.tape, val, t, y);
        run(&self.tape, val);
        for (o, &slot) in out.iter_mut().zip(&self.tape.outputs) {
            *o = val[slot as usize];
        }
    }
}

/// Writes t and y into their slots.
pub(crate) fn load(tape: &Tape, val: &mut [f64], t: f64, y: &[f64]) {
    val[0] = t;
    for (i, v) in val[1..=tape.n_states].iter_mut().enumerate() {
        *v = y.get(i).copied().unwrap_or(f64::NAN);
    }
}

/// Runs every instruction once, in order.
#[inline]
pub(crate) fn run(tape: &Tape, val: &mut [f64]) {
    let first = tape.first_tmp();
    for (i, inst) in tape.insts.iter().enumerate() {
        let a = val[inst.a as usize];
        let b = val[inst.b as usize];
        let c = val[inst.c as usize];
        val[first + i] = inst.op.value(a, b, c);
    }
}
