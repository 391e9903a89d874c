//! The sparsity of a compiled system's Jacobian, read off its tape, and its evaluation
//! by forward-mode AD with column colouring.
//!
//! Which states each output reads: a forward pass over the instructions propagating the
//! set of states each slot depends on (structurally: both branches of a conditional
//! count, a comparison counts). Columns that share no row get the same colour (greedy
//! colouring in column order, as Curtis, Powell and Reid 1974); one tangent sweep per
//! colour, seeded with all of that colour's columns, gives every column of the colour at
//! once, since each row of the pattern meets at most one of them. The heat equation's
//! tridiagonal Jacobian takes 3 sweeps whatever N is, where the dense Jacobian takes N.
//!
//! A pattern that is not sparse (a mean field where every equation reads every state)
//! is refused ([`Sparsity::analyse`] returns `None`) and the system stays dense.

use super::compile::Tape;
use super::diff::{run_with_partials, sweep};
use super::eval::{load, Program};
use crate::linear_solver::{SparseJacobian, SPARSE_MIN_DIM};

/// The pattern of ∂f/∂y (compressed by column) and its column colouring.
#[derive(Debug, Clone, PartialEq)]
pub struct Sparsity {
    n: usize,
    col_start: Vec<usize>,
    rows: Vec<usize>,
    /// Columns of each colour.
    groups: Vec<Vec<usize>>,
}

/// A pattern denser than one entry in this many is factorised dense.
const MAX_DENSITY_INVERSE: usize = 8;

impl Sparsity {
    /// The pattern of the outputs of `tape` (one per state) with respect to the states,
    /// or `None` when the system is small or the pattern is not sparse.
    pub fn analyse(tape: &Tape) -> Option<Self> {
        let n = tape.n_states();
        if n < SPARSE_MIN_DIM || tape.outputs().len() != n {
            return None;
        }
        // No slot may depend on more states than a sparse row may hold.
        let deps = dependencies(tape, n / MAX_DENSITY_INVERSE)?;
        Some(Self::coloured(tape, &deps))
    }

    /// The pattern of every output of `tape` (any number of them) with respect to the
    /// states, with no density limit: for tables of derivatives whose entries are mostly
    /// structural zeros (a typed mechanism's Φ_q and M entries, whose Jacobian would
    /// otherwise take one sweep per state). `None` only for a tape with no states.
    pub fn analyse_outputs(tape: &Tape) -> Option<Self> {
        if tape.n_states() == 0 {
            return None;
        }
        let deps = dependencies(tape, usize::MAX)?;
        Some(Self::coloured(tape, &deps))
    }

    /// Columns of the outputs' dependency sets, greedily coloured.
    fn coloured(tape: &Tape, deps: &[Vec<u32>]) -> Self {
        let n = tape.n_states();
        let mut by_col: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut by_row: Vec<&[u32]> = Vec::with_capacity(n);
        for (row, &o) in tape.outputs().iter().enumerate() {
            let d = &deps[o as usize];
            for &c in d {
                by_col[c as usize].push(row);
            }
            by_row.push(d);
        }
        // Greedy colouring: a column takes the smallest colour no column sharing one of
        // its rows has.
        let mut colour = vec![usize::MAX; n];
        let mut seen_by = Vec::<usize>::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for j in 0..n {
            for &row in &by_col[j] {
                for &k in by_row[row] {
                    let c = colour[k as usize];
                    if c != usize::MAX {
                        seen_by[c] = j;
                    }
                }
            }
            let c = (0..groups.len())
                .find(|&c| seen_by[c] != j)
                .unwrap_or(groups.len());
            if c == groups.len() {
                groups.push(Vec::new());
                seen_by.push(usize::MAX);
            }
            colour[j] = c;
            groups[c].push(j);
        }
        let mut col_start = Vec::with_capacity(n + 1);
        let mut rows = Vec::new();
        col_start.push(0);
        for col in &by_col {
            rows.extend_from_slice(col);
            col_start.push(rows.len());
        }
        Self {
            n,
            col_start,
            rows,
            groups,
        }
    }

    /// Number of colours: tangent sweeps per Jacobian.
    pub fn colours(&self) -> usize {
        self.groups.len()
    }

    /// Number of structurally nonzero entries.
    pub fn nnz(&self) -> usize {
        self.rows.len()
    }
}

/// The set of states each slot of `tape` depends on (structurally), or `None` as soon as
/// one slot depends on more than `limit` states.
fn dependencies(tape: &Tape, limit: usize) -> Option<Vec<Vec<u32>>> {
    let n = tape.n_states();
    let first = tape.first_tmp();
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); tape.n_slots()];
    for (k, d) in deps.iter_mut().enumerate().skip(1).take(n) {
        d.push(k as u32 - 1);
    }
    for (i, inst) in tape.insts().iter().enumerate() {
        let mut set: Vec<u32> = Vec::new();
        for &s in [inst.a, inst.b, inst.c].iter().take(inst.op.arity()) {
            set = union(&set, &deps[s as usize]);
        }
        if set.len() > limit {
            return None;
        }
        deps[first + i] = set;
    }
    Some(deps)
}

/// The sorted union of two sorted sets.
fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

impl Program {
    /// ∂(outputs)/∂y at (t, y) on the pattern `sp`: one value pass and one tangent sweep
    /// per colour. Equal to [`Program::jacobian`] entry by entry.
    pub fn jacobian_sparse(&self, t: f64, y: &[f64], sp: &Sparsity) -> SparseJacobian {
        let mut values = vec![0.0; sp.nnz()];
        self.jacobian_entries(t, y, sp, |k, _, _, v| values[k] = v);
        SparseJacobian {
            n: sp.n,
            col_start: sp.col_start.clone(),
            rows: sp.rows.clone(),
            values,
        }
    }

    /// ∂(output `row`)/∂(state `col`) at (t, y) for every entry of the pattern `sp`
    /// (square, or from [`Sparsity::analyse_outputs`]), handed to
    /// `each(k, row, col, value)` with k the entry's place in the pattern (column-major):
    /// one value pass and one tangent sweep per colour.
    pub fn jacobian_entries(
        &self,
        t: f64,
        y: &[f64],
        sp: &Sparsity,
        mut each: impl FnMut(usize, usize, usize, f64),
    ) {
        let mut guard = self.scratch.borrow_mut();
        let s = &mut *guard;
        let tape = &self.tape;
        load(tape, &mut s.val, t, y);
        run_with_partials(tape, &mut s.val, &mut s.pa, &mut s.pb);
        for group in &sp.groups {
            s.tan.fill(0.0);
            for &j in group {
                s.tan[1 + j] = 1.0;
            }
            sweep(tape, &s.pa, &s.pb, &mut s.tan);
            for &j in group {
                for k in sp.col_start[j]..sp.col_start[j + 1] {
                    let row = sp.rows[k];
                    each(k, row, j, s.tan[tape.outputs()[row] as usize]);
                }
            }
        }
    }
}
