//! The embedded, FSAL explicit Runge–Kutta pairs with their own interpolant (`dp45`,
//! `bs23`) stepped with the stage count S and the dense-output degree D known at compile
//! time: the coefficients are `[[f64; S]; S]` arrays made from the method's `const`
//! [`Tableau`] by a `const fn` (one source of truth, still read by the stability
//! analysis), the stages live in one flat buffer, and the FSAL stage and the retry
//! after a rejection reuse f without copying the state caches `explicit_rk.rs` keeps.
//!
//! Every floating-point operation is the one [`super::ExplicitRk`] performs, in the same
//! order and with the same zero coefficients skipped, so both give the same bits (and
//! the same pinned statistics); what goes is the interpretation overhead of the generic
//! loop (`&[&[f64]]` rows, bounds checks, per-step copies of the stage caches), which was
//! half of a dp45 solve (BENCHMARKS.md profile).

use super::{MethodInfo, Stepper, Tableau};
use crate::error::OdeError;
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
    (t - s).abs() <= 8.0 * f64::EPSILON * t.abs().max(s.abs())
}

/// A method's fixed tableau as an associated `const`, so that in the monomorphised step
/// every coefficient is a compile-time constant (a zero one costs nothing).
pub trait FixedPair<const S: usize, const D: usize> {
    const TABLEAU: FixedTableau<S, D>;
}

/// The stepper. Stages are stored component-major, `k[c][i]` = component c of k_i, so
/// the sums over stages index fixed-size arrays by constants; f writes into `f_out`,
/// which is then spread into column i.
pub struct FixedRk<P: FixedPair<S, D>, const S: usize, const D: usize> {
    info: &'static MethodInfo,
    pair: std::marker::PhantomData<P>,
    k: Vec<[f64; S]>,
    f_out: Vec<f64>,
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

impl<P: FixedPair<S, D>, const S: usize, const D: usize> FixedRk<P, S, D> {
    pub fn new(info: &'static MethodInfo, dim: usize) -> Self {
        Self {
            info,
            pair: std::marker::PhantomData,
            k: vec![[0.0; S]; dim],
            f_out: vec![0.0; dim],
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

    /// k_1 = f(t, y): the last step's FSAL stage (the step was accepted), the last
    /// step's first stage (it is retried), or evaluated.
    fn first_stage(&mut self, sys: &dyn System, t: f64, y: &[f64], stats: &mut Stats) {
        if self.have_end
            && same_time(t, self.last_t + self.last_h)
            && y == self.last_y_new.as_slice()
        {
            for kc in &mut self.k {
                kc[0] = kc[S - 1];
            }
        } else if !(self.have_start && same_time(t, self.last_t) && y == self.last_y.as_slice()) {
            self.evaluate(sys, t, y, 0);
            stats.nfev += 1;
        }
        self.have_start = true;
        self.have_end = false;
        self.last_t = t;
        self.last_y.copy_from_slice(y);
    }

    /// Stage I: y + h Σ_{j<I} a[I][j] k_j, then k_I = f(t + c_I h, that point). Same
    /// operations in the same order as `explicit_rk.rs` (stage by stage, zero
    /// coefficients skipped), so the same roundings.
    #[inline(always)]
    fn stage<const I: usize>(&mut self, sys: &dyn System, t: f64, y: &[f64], h: f64) {
        let a = &P::TABLEAU.a[I];
        for ((ys, &yc), kc) in self.y_stage.iter_mut().zip(y).zip(&self.k) {
            let mut acc = yc;
            for j in 0..I {
                if a[j] != 0.0 {
                    acc += h * a[j] * kc[j];
                }
            }
            *ys = acc;
        }
        let y_stage = std::mem::take(&mut self.y_stage);
        self.evaluate(sys, t + P::TABLEAU.c[I] * h, &y_stage, I);
        self.y_stage = y_stage;
    }

    /// Stage i = f(t, y).
    #[inline]
    fn evaluate(&mut self, sys: &dyn System, t: f64, y: &[f64], i: usize) {
        sys.rhs(t, y, &mut self.f_out);
        for (kc, &f) in self.k.iter_mut().zip(&self.f_out) {
            kc[i] = f;
        }
    }
}

impl<P: FixedPair<S, D>, const S: usize, const D: usize> Stepper for FixedRk<P, S, D> {
    fn info(&self) -> &MethodInfo {
        self.info
    }

    // Indexing by the stage number is the point: with S and the tableau constant, a[i][j]
    // and b[j] are compile-time constants.
    #[allow(clippy::needless_range_loop)]
    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.first_stage(sys, t, y, stats);
        let tab = &P::TABLEAU;
        // Stage i as its own monomorphised call (`stage::<i>`), so that the sum over
        // j < i has a constant trip count and constant coefficients: LLVM unrolls it and
        // drops the zero ones, where a loop over i kept a[i][j] as loads and compares
        // (≈ 2,200 instructions per dp45 step on the pendulum, callgrind).
        macro_rules! stages {
            ($($i:literal)*) => {
                $(if $i < S {
                    self.stage::<$i>(sys, t, y, h);
                })*
            };
        }
        stages!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        const { assert!(S <= 16, "stages! above covers S ≤ 16") };
        stats.nfev += (S - 1) as u64;
        // Same operations in the same order as the FSAL stage row: y_out is bit for bit
        // the point the last stage was evaluated at.
        for (((yo, err), &yc), kc) in y_out.iter_mut().zip(&mut self.error).zip(y).zip(&self.k) {
            let mut acc = yc;
            let mut e = 0.0;
            for j in 0..S {
                if tab.b[j] != 0.0 {
                    acc += h * tab.b[j] * kc[j];
                }
                if tab.e[j] != 0.0 {
                    e += h * tab.e[j] * kc[j];
                }
            }
            *yo = acc;
            *err = e;
        }
        self.last_h = h;
        self.last_y_new.copy_from_slice(y_out);
        self.have_end = true;
        Ok(())
    }

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
        let h = self.last_h;
        // Horner in θ for Σ_d dense[i][d] θ^(d+1), per stage.
        let mut w = [0.0; S];
        for (wi, row) in w.iter_mut().zip(&P::TABLEAU.dense) {
            *wi = row.iter().rev().fold(0.0, |acc, d| (acc + d) * theta);
        }
        for ((o, &yc), kc) in out.iter_mut().zip(&self.last_y).zip(&self.k) {
            let mut acc = yc;
            for (&wj, &kv) in w.iter().zip(kc) {
                if wj != 0.0 {
                    acc += h * wj * kv;
                }
            }
            *o = acc;
        }
        Ok(())
    }
}
