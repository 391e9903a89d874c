//! The embedded, FSAL explicit Runge–Kutta pairs with their own interpolant (`dp45`,
//! `bs23`) stepped with the stage count S and the dense-output degree D known at compile
//! time: the coefficients are `[[f64; S]; S]` arrays made from the method's `const`
//! [`Tableau`] by a `const fn` (one source of truth, still read by the stability
//! analysis), the stages live in one flat buffer f writes into, and the FSAL stage and
//! the retry after a rejection reuse f without copying the state caches
//! `explicit_rk.rs` keeps. The step measures its error estimate while it forms y_{n+1}
//! (`Stepper::measured`, `MeasuredStep`), so the driver does not read the estimate back.
//!
//! Every floating-point operation is the one [`super::ExplicitRk`] performs, in the same
//! order and with the same zero coefficients skipped, so both give the same bits (and
//! the same pinned statistics); what goes is the interpretation overhead of the generic
//! loop (`&[&[f64]]` rows, bounds checks, per-step copies of the stage caches), which was
//! half of a dp45 solve (BENCHMARKS.md profile). A pair that sets
//! [`FixedPair::TWO_STATES`] (dp45) also has its adaptive step compiled with the size 2
//! a constant (`crate::linalg::fixed`), for the pendulum and the oscillators.

use super::{MeasuredStep, MethodInfo, Stepper, Tableau};
use crate::control::{larger, ErrorMeasure};
use crate::error::OdeError;
use crate::linalg::{copy_short, fixed};
use crate::problem::System;
use crate::stats::Stats;

/// An explicit FSAL pair with error weights and dense-output polynomials, in fixed-size
/// arrays: `a[i][j]` (zero on and above the diagonal), `b`, `c`, `e` = b − b̂ and
/// `dense[i][d]`, the coefficient of θ^(d+1) in the weight of stage i.
#[derive(Debug, Clone, Copy)]
pub struct FixedTableau<const S: usize, const D: usize> {
    pub a: [[f64; S]; S],
    pub b: [f64; S],
    pub c: [f64; S],
    pub e: [f64; S],
    pub dense: [[f64; D]; S],
}

impl<const S: usize, const D: usize> FixedTableau<S, D> {
    /// The same coefficients as `t`, checked at compile time: S stages, FSAL, an error
    /// estimate and dense rows of D coefficients (a mismatch does not compile).
    pub const fn from_tableau(t: &Tableau) -> Self {
        assert!(t.b.len() == S && t.c.len() == S && t.a.len() == S && t.fsal);
        let (Some(err), Some(dense)) = (t.error, t.dense) else {
            panic!("a fixed tableau needs error weights and dense output");
        };
        assert!(err.len() == S && dense.len() == S);
        let mut out = FixedTableau {
            a: [[0.0; S]; S],
            b: [0.0; S],
            c: [0.0; S],
            e: [0.0; S],
            dense: [[0.0; D]; S],
        };
        let mut i = 0;
        while i < S {
            let row = t.a[i];
            assert!(row.len() == i);
            let mut j = 0;
            while j < i {
                out.a[i][j] = row[j];
                j += 1;
            }
            out.b[i] = t.b[i];
            out.c[i] = t.c[i];
            out.e[i] = err[i];
            assert!(dense[i].len() == D);
            let mut d = 0;
            while d < D {
                out.dense[i][d] = dense[i][d];
                d += 1;
            }
            i += 1;
        }
        out
    }
}

/// True if time `t` is `s` up to a few ulps (the driver snaps the last step onto t1,
/// ode45's "purify h"), as `explicit_rk.rs`'s stage cache compares.
#[inline]
fn same_time(t: f64, s: f64) -> bool {
    (t - s).abs() <= 8.0 * f64::EPSILON * larger(t.abs(), s.abs())
}

/// A method's fixed tableau as an associated `const`, so that in the monomorphised step
/// every coefficient is a compile-time constant (a zero one costs nothing).
pub trait FixedPair<const S: usize, const D: usize> {
    const TABLEAU: FixedTableau<S, D>;
    /// Whether the adaptive step has a second copy for two states with the size a
    /// constant (`crate::linalg::fixed`), its component loops unrolled: the same
    /// operations, so the same bits. dp45 has it (its bench case, the pendulum, is
    /// measurably faster: BENCHMARKS.md, "Speed copies"); bs23 does without it
    /// (first-load budget).
    const TWO_STATES: bool = false;
}

/// The stepper. Stage i lives in `k[i n .. (i + 1) n]` (n the dimension), so f writes
/// each stage in place and the FSAL stage is one copy of n values.
pub struct FixedRk<P: FixedPair<S, D>, const S: usize, const D: usize> {
    info: &'static MethodInfo,
    pair: std::marker::PhantomData<P>,
    n: usize,
    k: Vec<f64>,
    y_stage: Vec<f64>,
    error: Vec<f64>,
    /// The last step (t, h, y, y_new); stage 0 holds f(last_t, last_y) when
    /// `have_start`, stage S − 1 holds f(last_t + last_h, last_y_new) when `have_end`.
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    have_start: bool,
    have_end: bool,
}

/// Bit-for-bit equality: a step that starts where the last one ended starts from its
/// very bits (a state the model rewrote in between, even ±0, is evaluated afresh).
#[inline]
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl<P: FixedPair<S, D>, const S: usize, const D: usize> FixedRk<P, S, D> {
    pub fn new(info: &'static MethodInfo, dim: usize) -> Self {
        Self {
            info,
            pair: std::marker::PhantomData,
            n: dim,
            k: vec![0.0; S * dim],
            y_stage: vec![0.0; dim],
            error: vec![0.0; dim],
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
            last_y_new: vec![0.0; dim],
            have_start: false,
            have_end: false,
        }
    }

    /// k_1 = f(t, y): the last step's FSAL stage (the step was accepted and this one
    /// starts at its end), the last step's first stage (it is retried), or evaluated.
    fn first_stage(&mut self, sys: &dyn System, t: f64, y: &[f64], stats: &mut Stats) {
        let n = self.last_y.len();
        if self.have_end
            && same_time(t, self.last_t + self.last_h)
            && same_bits(y, &self.last_y_new)
        {
            let (first, last) = self.k.split_at_mut((S - 1) * n);
            copy_short(&mut first[..n], &last[..n]);
            // y is the last step's end, bit for bit: it becomes this step's start.
            std::mem::swap(&mut self.last_y, &mut self.last_y_new);
        } else {
            if !(self.have_start && same_time(t, self.last_t) && y == self.last_y.as_slice()) {
                sys.rhs(t, y, &mut self.k[..n]);
                stats.nfev += 1;
            }
            copy_short(&mut self.last_y, y);
        }
        self.have_start = true;
        self.have_end = false;
        self.last_t = t;
    }

    /// The last step's continuous extension at θ.
    fn dense(&self, theta: f64, out: &mut [f64]) {
        let h = self.last_h;
        // Horner in θ for Σ_d dense[i][d] θ^(d+1), per stage.
        let mut w = [0.0; S];
        for (wi, row) in w.iter_mut().zip(&P::TABLEAU.dense) {
            *wi = row.iter().rev().fold(0.0, |acc, d| (acc + d) * theta);
        }
        // Stage by stage over the components: each component still sums its terms in
        // stage order (the same bits), and the rows need no index arithmetic.
        out.copy_from_slice(&self.last_y);
        for (row, &wj) in self.k.chunks_exact(self.n.max(1)).zip(&w) {
            if wj != 0.0 {
                for (o, &kv) in out.iter_mut().zip(row) {
                    *o += h * wj * kv;
                }
            }
        }
    }

    /// Stage I: y + h Σ_{j<I} a[I][j] k_j, then k_I = f(t + c_I h, that point), written
    /// in place. Same operations in the same order as `explicit_rk.rs` (stage by stage,
    /// zero coefficients skipped), so the same roundings.
    #[inline(always)]
    fn stage<const I: usize, const N: usize>(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
    ) {
        let n = fixed::<N>(self.n);
        let a = &P::TABLEAU.a[I];
        let (done, rest) = self.k.split_at_mut(I * n);
        // The earlier stages as slices of length n, so the loop below has no bounds
        // checks.
        let k: [&[f64]; I] = std::array::from_fn(|j| &done[j * n..][..n]);
        let (ys, y) = (&mut self.y_stage[..n], &y[..n]);
        for c in 0..n {
            let mut acc = y[c];
            for j in 0..I {
                if a[j] != 0.0 {
                    acc += h * a[j] * k[j][c];
                }
            }
            ys[c] = acc;
        }
        sys.rhs(t + P::TABLEAU.c[I] * h, ys, &mut rest[..n]);
    }

    /// The whole step; with a `measure`, the normalised error of its estimate, formed
    /// component by component as y_out is (the bits of `ErrorMeasure::of`).
    // Indexing by the stage number is the point: with S and the tableau constant, a[i][j]
    // and b[j] are compile-time constants.
    // One copy for the measured and the plain step (not inlined into both: .wasm size).
    #[allow(clippy::needless_range_loop)]
    #[inline(never)]
    fn advance<const N: usize>(
        &mut self,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Option<f64> {
        self.first_stage(sys, t, y, stats);
        let tab = &P::TABLEAU;
        // Stage i as its own monomorphised call (`stage::<i>`), so that the sum over
        // j < i has a constant trip count and constant coefficients: LLVM unrolls it and
        // drops the zero ones, where a loop over i kept a[i][j] as loads and compares
        // (≈ 2,200 instructions per dp45 step on the pendulum, callgrind).
        macro_rules! stages {
            ($($i:literal)*) => {
                $(if $i < S {
                    self.stage::<$i, N>(sys, t, y, h);
                })*
            };
        }
        stages!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        const { assert!(S <= 16, "stages! above covers S ≤ 16") };
        stats.nfev += (S - 1) as u64;
        let n = fixed::<N>(self.n);
        let k: [&[f64]; S] = std::array::from_fn(|j| &self.k[j * n..][..n]);
        let (y, y_out) = (&y[..n], &mut y_out[..n]);
        let (error, y_end) = (&mut self.error[..n], &mut self.last_y_new[..n]);
        // Same operations in the same order as the FSAL stage row: y_out is bit for bit
        // the point the last stage was evaluated at.
        for c in 0..n {
            let mut acc = y[c];
            let mut e = 0.0;
            for j in 0..S {
                if tab.b[j] != 0.0 {
                    acc += h * tab.b[j] * k[j][c];
                }
                if tab.e[j] != 0.0 {
                    e += h * tab.e[j] * k[j][c];
                }
            }
            y_out[c] = acc;
            y_end[c] = acc;
            error[c] = e;
        }
        self.last_h = h;
        self.have_end = true;
        // The estimate measured here, without the driver reading it back through the
        // trait (a loop of its own: folded into the one above, the norm's registers
        // spilled the coefficients').
        Some(measure?.of_n::<N>(error, y, y_out))
    }
}

impl<P: FixedPair<S, D>, const S: usize, const D: usize> MeasuredStep for FixedRk<P, S, D> {
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        step: (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let r = if P::TWO_STATES && self.n == 2 {
            self.advance::<2>(sys, step, y_out, stats, measure)
        } else {
            self.advance::<0>(sys, step, y_out, stats, measure)
        };
        Ok(r.unwrap_or(0.0))
    }
}

impl<P: FixedPair<S, D>, const S: usize, const D: usize> Stepper for FixedRk<P, S, D> {
    fn info(&self) -> &MethodInfo {
        self.info
    }

    measured_step!();

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.error)
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.dense(theta, out);
        Ok(())
    }
}
