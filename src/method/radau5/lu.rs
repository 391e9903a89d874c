//! The two LU factorisations of a `radau5` step, (γ̂/h)I − J (real) and
//! ((α + iβ)/h)I − J (complex), in storage that lives as long as the stepper: a
//! factorisation overwrites the matrices of the last one, so a step allocates nothing.
//!
//! The factorisation is nalgebra's partial-pivoting LU (`LU::new`), run here on the
//! kept matrices through the same column steps it uses (`icamax` for the pivot,
//! `gauss_step` / `gauss_step_swap` for the elimination) with the row interchanges
//! written into a kept pivot list: `LU::new` itself takes its matrix by value and
//! allocates its permutation, which for the 2 × 2 Van der Pol system cost more than the
//! elimination. The factors are bitwise those of `LU::new`, but for U's diagonal (below).
//!
//! The solves, one real and one complex per Newton iteration and one real per error
//! estimate, are plain loops over the factors in the operation order of nalgebra's
//! `LU::solve_mut` (row interchanges, unit lower triangle by columns, upper triangle by
//! columns from the last), the complex one on separate real and imaginary parts with
//! num-complex's product written out, without the generic matrix views that dominate a
//! 2 × 2 solve. As in [`crate::linalg::Factored`], U's diagonal holds each pivot's
//! reciprocal 1/uᵢᵢ and the solves multiply by it where nalgebra divides: the numbers of
//! `Factored`'s solves, up to the sign of an exact zero.
//!
//! Refusals are those of [`crate::linalg::Factored`]: a non-finite entry or an exactly
//! zero pivot, and a non-finite solution, are [`OdeError::SingularMatrix`] at the (t, h)
//! of the factorisation; each factorisation made is counted in `nlu`.

use crate::error::OdeError;
use crate::linalg::fixed;
use crate::linear_solver::Jacobian;
use crate::stats::Stats;
use nalgebra::linalg::{gauss_step, gauss_step_swap};
use nalgebra::{Complex, ComplexField, DMatrix};

const WHAT_REAL: &str = "(γ̂/h)I − J of the Radau IIA step";
const WHAT_COMPLEX: &str = "((α + iβ)/h)I − J of the Radau IIA step";

/// The factors of both stage matrices and the step size they were made for.
pub(super) struct StageLu {
    /// L (unit diagonal, not stored) and U of (γ̂/h)I − J, column-major as nalgebra's,
    /// with 1/uᵢᵢ on the diagonal.
    real: DMatrix<f64>,
    real_pivots: Vec<usize>,
    /// L and U of ((α + iβ)/h)I − J.
    complex: DMatrix<Complex<f64>>,
    complex_pivots: Vec<usize>,
    /// The h of the factors, `None` when there are none (no J yet, J changed, or the
    /// last factorisation failed).
    h: Option<f64>,
    /// Where the factors were made, for the message of a failed solve.
    t_made: f64,
    h_made: f64,
    /// The factors of a sparse J (band or faer, `crate::linear_solver::structured`),
    /// used instead of the dense ones while J is sparse.
    #[cfg(feature = "full")]
    sparse: Option<Sparse>,
}

/// Both stage matrices of a sparse J on the plan of its pattern, and the complex
/// right-hand side as one vector.
#[cfg(feature = "full")]
struct Sparse {
    real: crate::linear_solver::structured::Factors<f64>,
    complex: crate::linear_solver::structured::Factors<Complex<f64>>,
    rhs: std::cell::RefCell<Vec<Complex<f64>>>,
}

impl StageLu {
    /// Storage for n states; the dense n × n matrices are made at the first dense
    /// factorisation (a sparse J never needs them).
    pub(super) fn new(n: usize) -> Self {
        Self {
            real: DMatrix::zeros(0, 0),
            real_pivots: vec![0; n],
            complex: DMatrix::from_element(0, 0, Complex::new(0.0, 0.0)),
            complex_pivots: vec![0; n],
            h: None,
            t_made: f64::NAN,
            h_made: f64::NAN,
            #[cfg(feature = "full")]
            sparse: None,
        }
    }

    /// The step size the current factors were made for.
    pub(super) fn factored_for(&self) -> Option<f64> {
        self.h
    }

    /// Forgets the factors (J changed).
    pub(super) fn invalidate(&mut self) {
        self.h = None;
    }

    /// Factorises (γ̂/h)M − J and ((α + iβ)/h)M − J with γ̂/h = `real_shift` and
    /// (α + iβ)/h = `complex_shift`, entries formed as `Factored::shifted` forms them;
    /// M = I but for a differential-algebraic system, whose M has its ones on the first
    /// `differential` components only (zeros on the algebraic ones).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn factor(
        &mut self,
        jac: &Jacobian,
        real_shift: f64,
        complex_shift: Complex<f64>,
        differential: usize,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.h = None;
        self.t_made = t;
        self.h_made = h;
        let singular = |what: &str| OdeError::SingularMatrix {
            t,
            h,
            what: what.to_string(),
        };
        let jac = match jac {
            Jacobian::Dense(j) => j,
            #[cfg(feature = "full")]
            Jacobian::Sparse(j) if differential == j.n => {
                return self.factor_sparse(j, real_shift, complex_shift, stats)
            }
            // The sparse plan shifts every diagonal entry: a mass matrix with zeros (a
            // differential-algebraic system) is factored densely only.
            #[cfg(feature = "full")]
            Jacobian::Sparse(_) => {
                return Err(OdeError::BadSpec {
                    message: "radau5 factors a differential-algebraic system (a mass matrix \
                              with zeros) with a dense Jacobian only; this one is sparse"
                        .into(),
                })
            }
            #[cfg(not(feature = "full"))]
            Jacobian::Sparse(_) => {
                return Err(OdeError::NotInThisBuild {
                    what: "the sparse LU of a big system",
                })
            }
        };
        #[cfg(feature = "full")]
        {
            self.sparse = None;
        }
        let n = jac.nrows();
        if self.real.shape() != (n, n) {
            self.real = DMatrix::zeros(n, n);
            self.complex = DMatrix::from_element(n, n, Complex::new(0.0, 0.0));
        }
        let entries = jac.as_slice();
        // Column-major: the diagonal entries are every (n + 1)-th. Off the diagonal
        // 0 − Jᵢⱼ (not −Jᵢⱼ: a zero entry gives +0, as σδᵢⱼ − Jᵢⱼ does).
        let real = self.real.as_mut_slice();
        for (m, &j) in real.iter_mut().zip(entries) {
            *m = 0.0 - j;
        }
        for k in (0..differential * (n + 1)).step_by(n + 1) {
            real[k] = real_shift - entries[k];
        }
        if !real.iter().all(|v| v.is_finite()) {
            return Err(singular(WHAT_REAL));
        }
        stats.nlu += 1;
        if !factor_in_place(&mut self.real, &mut self.real_pivots) {
            return Err(singular(WHAT_REAL));
        }
        let complex = self.complex.as_mut_slice();
        for (m, &j) in complex.iter_mut().zip(entries) {
            *m = Complex::new(0.0 - j, 0.0);
        }
        for k in (0..differential * (n + 1)).step_by(n + 1) {
            complex[k] = complex_shift - Complex::new(entries[k], 0.0);
        }
        if !complex.iter().all(|v| v.is_finite()) {
            return Err(singular(WHAT_COMPLEX));
        }
        stats.nlu += 1;
        if !factor_in_place(&mut self.complex, &mut self.complex_pivots) {
            return Err(singular(WHAT_COMPLEX));
        }
        self.h = Some(h);
        Ok(())
    }

    /// [`StageLu::factor`] for a sparse J: both matrices on the plan of J's pattern
    /// (made once per pattern, `crate::linear_solver::structured`), the complex one in
    /// complex arithmetic; entries d + (−1·Jᵢⱼ), the values the dense path forms.
    #[cfg(feature = "full")]
    fn factor_sparse(
        &mut self,
        jac: &crate::linear_solver::SparseJacobian,
        real_shift: f64,
        complex_shift: Complex<f64>,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        use crate::linear_solver::structured::{Factors, Plan};
        let (t, h) = (self.t_made, self.h_made);
        let singular = |what: &str| OdeError::SingularMatrix {
            t,
            h,
            what: what.to_string(),
        };
        if !matches!(&self.sparse, Some(s) if s.real.plan().matches(jac)) {
            let plan = Plan::for_pattern(jac).ok_or_else(|| singular(WHAT_REAL))?;
            self.sparse = Some(Sparse {
                real: Factors::new(plan.clone()),
                complex: Factors::new(plan),
                rhs: std::cell::RefCell::new(vec![Complex::new(0.0, 0.0); jac.n]),
            });
        }
        let Some(sparse) = &mut self.sparse else {
            return Err(singular(WHAT_REAL));
        };
        stats.nlu += 1;
        if !sparse.real.factor(jac, real_shift, 1.0) {
            return Err(singular(WHAT_REAL));
        }
        stats.nlu += 1;
        if !sparse.complex.factor(jac, complex_shift, 1.0) {
            return Err(singular(WHAT_COMPLEX));
        }
        self.h = Some(h);
        Ok(())
    }

    fn refused(&self, what: &str) -> OdeError {
        OdeError::SingularMatrix {
            t: self.t_made,
            h: self.h_made,
            what: what.to_string(),
        }
    }

    /// The error for a non-finite solution of the real system (a numerically singular
    /// matrix).
    pub(super) fn refused_real(&self) -> OdeError {
        self.refused(WHAT_REAL)
    }

    /// The error for a non-finite solution of the complex system.
    pub(super) fn refused_complex(&self) -> OdeError {
        self.refused(WHAT_COMPLEX)
    }

    /// Solves ((γ̂/h)I − J) x = b in place. The caller checks x for non-finite entries
    /// ([`StageLu::refused_real`]), where it checks its own results anyway.
    pub(super) fn solve_real(&self, b: &mut [f64]) {
        #[cfg(feature = "full")]
        if let Some(sparse) = &self.sparse {
            sparse.real.solve(b);
            return;
        }
        // Two states (Van der Pol, the pendulum): the same loops with the size a
        // constant, unrolled (the runtime-n loops cost ~250 instructions a solve there).
        match b.len() {
            2 => self.solve_real_n::<2>(b),
            _ => self.solve_real_n::<0>(b),
        }
    }

    /// [`StageLu::solve_real`] with the size `N` known at compile time (0: any n).
    fn solve_real_n<const N: usize>(&self, b: &mut [f64]) {
        let n = fixed::<N>(b.len());
        let b = &mut b[..n];
        let lu = self.real.as_slice();
        assert_eq!(lu.len(), n * n, "radau5: the system's size changed");
        for (i, &p) in self.real_pivots.iter().enumerate() {
            b.swap(i, p);
        }
        for i in 0..n {
            let column = &lu[i * n..][..n];
            let (head, below) = b.split_at_mut(i + 1);
            let coeff = head[i];
            for (bv, &l) in below.iter_mut().zip(&column[i + 1..]) {
                *bv -= coeff * l;
            }
        }
        for i in (0..n).rev() {
            let column = &lu[i * n..][..n];
            let (above, rest) = b.split_at_mut(i);
            let coeff = rest[0] * column[i];
            rest[0] = coeff;
            for (bv, &u) in above.iter_mut().zip(column) {
                *bv -= coeff * u;
            }
        }
    }

    /// Solves (((α + iβ)/h)I − J) x = b in place, b = `re` + i·`im`; the caller checks x
    /// ([`StageLu::refused_complex`]).
    pub(super) fn solve_complex(&self, re: &mut [f64], im: &mut [f64]) {
        #[cfg(feature = "full")]
        if let Some(sparse) = &self.sparse {
            let mut b = sparse.rhs.borrow_mut();
            for ((bk, &r), &i) in b.iter_mut().zip(&*re).zip(&*im) {
                *bk = Complex::new(r, i);
            }
            sparse.complex.solve(&mut b);
            for ((bk, r), i) in b.iter().zip(re).zip(im) {
                (*r, *i) = (bk.re, bk.im);
            }
            return;
        }
        match re.len() {
            2 => self.solve_complex_n::<2>(re, im),
            _ => self.solve_complex_n::<0>(re, im),
        }
    }

    /// [`StageLu::solve_complex`] with the size `N` known at compile time (0: any n).
    fn solve_complex_n<const N: usize>(&self, re: &mut [f64], im: &mut [f64]) {
        let n = fixed::<N>(re.len());
        let re = &mut re[..n];
        let lu = self.complex.as_slice();
        assert!(
            im.len() == n && lu.len() == n * n,
            "radau5: the system's size changed"
        );
        for (i, &p) in self.complex_pivots.iter().enumerate() {
            re.swap(i, p);
            im.swap(i, p);
        }
        for i in 0..n {
            let column = &lu[i * n..][..n];
            let (re_head, re_below) = re.split_at_mut(i + 1);
            let (im_head, im_below) = im.split_at_mut(i + 1);
            let (cr, ci) = (re_head[i], im_head[i]);
            for ((r, m), l) in re_below.iter_mut().zip(im_below).zip(&column[i + 1..]) {
                // b −= coeff·l, num-complex's product.
                *r -= cr * l.re - ci * l.im;
                *m -= cr * l.im + ci * l.re;
            }
        }
        for i in (0..n).rev() {
            let column = &lu[i * n..][..n];
            let (re_above, re_rest) = re.split_at_mut(i);
            let (im_above, im_rest) = im.split_at_mut(i);
            let d = column[i];
            // coeff = b · (1/uᵢᵢ), num-complex's product.
            let cr = re_rest[0] * d.re - im_rest[0] * d.im;
            let ci = re_rest[0] * d.im + im_rest[0] * d.re;
            re_rest[0] = cr;
            im_rest[0] = ci;
            for ((r, m), u) in re_above.iter_mut().zip(im_above).zip(column) {
                *r -= cr * u.re - ci * u.im;
                *m -= cr * u.im + ci * u.re;
            }
        }
    }
}

/// nalgebra's `LU::new` on `m` in place, the interchange of step i recorded as
/// `pivots[i]` (i itself when none) and U's diagonal replaced by the reciprocals of the
/// pivots; false at an exactly zero pivot column (where `LU::new` would leave a
/// factorisation that is not invertible).
fn factor_in_place<T: ComplexField>(m: &mut DMatrix<T>, pivots: &mut [usize]) -> bool {
    for (i, pivot) in pivots.iter_mut().enumerate() {
        let piv = m.view_range(i.., i).icamax() + i;
        let diag = m[(piv, i)].clone();
        if diag.is_zero() {
            return false;
        }
        *pivot = piv;
        if piv != i {
            m.columns_range_mut(..i).swap_rows(i, piv);
            gauss_step_swap(m, diag.clone(), i, piv);
        } else {
            gauss_step(m, diag.clone(), i);
        }
        // The reciprocal the step scaled the column by; no later step reads (i, i).
        m[(i, i)] = T::one() / diag;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::Factored;
    use nalgebra::DVector;

    /// Deterministic entries in [−1, 1) (a linear congruential generator).
    fn entries(seed: u64, count: usize) -> Vec<f64> {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005) ^ 0x9e37_79b9_7f4a_7c15;
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
            })
            .collect()
    }

    #[test]
    fn stage_lu_solves_as_nalgebras_lu_of_the_shifted_matrices() {
        // Small shifts against entries of size ~3: the diagonal does not dominate, so
        // the factorisations interchange rows.
        let (real_shift, complex_shift) = (0.4, Complex::new(0.3, 0.5));
        let (t, h) = (1.0, 0.1);
        let mut interchanges = 0;
        for n in 1..=6 {
            for seed in 0..16 {
                let jac = DMatrix::from_vec(n, n, entries(seed, n * n)) * 3.0;
                let mut stats = Stats::default();
                let mut lu = StageLu::new(n);
                lu.factor(
                    &Jacobian::Dense(jac.clone()),
                    real_shift,
                    complex_shift,
                    n,
                    t,
                    h,
                    &mut stats,
                )
                .expect("a regular matrix");
                assert_eq!(stats.nlu, 2);
                interchanges += lu
                    .real_pivots
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| i != *p)
                    .count();
                let real = Factored::shifted(&jac, real_shift, 1.0, "", t, h, &mut stats).unwrap();
                let complex =
                    Factored::shifted(&jac, complex_shift, 1.0, "", t, h, &mut stats).unwrap();

                let b = entries(seed + 100, n);
                let mut got = b.clone();
                lu.solve_real(&mut got);
                let mut want = DVector::from_vec(b);
                real.solve_in_place(&mut want).unwrap();
                // `==` on f64: the same numbers (the sign of an exact zero aside).
                assert_eq!(got, want.as_slice(), "real, n = {n}, seed {seed}");

                let (re, im) = (entries(seed + 200, n), entries(seed + 300, n));
                let (mut got_re, mut got_im) = (re.clone(), im.clone());
                lu.solve_complex(&mut got_re, &mut got_im);
                let mut want = DVector::from_fn(n, |i, _| Complex::new(re[i], im[i]));
                complex.solve_in_place(&mut want).unwrap();
                assert_eq!(
                    got_re,
                    want.map(|c| c.re).as_slice(),
                    "re, n = {n}, seed {seed}"
                );
                assert_eq!(
                    got_im,
                    want.map(|c| c.im).as_slice(),
                    "im, n = {n}, seed {seed}"
                );
            }
        }
        assert!(interchanges > 50, "only {interchanges} row interchanges");
    }

    #[test]
    fn stage_lu_refuses_a_singular_or_non_finite_matrix_with_the_step_it_was_made_for() {
        let mut stats = Stats::default();
        let mut lu = StageLu::new(2);
        // (γ̂/h)I − J = 0 when J = (γ̂/h)I.
        let jac = DMatrix::identity(2, 2) * 2.0;
        let err = lu
            .factor(
                &Jacobian::Dense(jac.clone()),
                2.0,
                Complex::new(1.0, 1.0),
                2,
                3.0,
                0.5,
                &mut stats,
            )
            .unwrap_err();
        assert_eq!(
            err,
            OdeError::SingularMatrix {
                t: 3.0,
                h: 0.5,
                what: WHAT_REAL.into()
            }
        );
        assert_eq!((stats.nlu, lu.factored_for()), (1, None));
        let jac = DMatrix::from_row_slice(2, 2, &[0.0, f64::NAN, 0.0, 0.0]);
        let err = lu
            .factor(
                &Jacobian::Dense(jac.clone()),
                2.0,
                Complex::new(1.0, 1.0),
                2,
                3.0,
                0.5,
                &mut stats,
            )
            .unwrap_err();
        assert!(matches!(err, OdeError::SingularMatrix { .. }));
        assert_eq!((stats.nlu, lu.factored_for()), (1, None));
        // A regular pair is kept for its h, and invalidated when J changes.
        let jac = DMatrix::zeros(2, 2);
        lu.factor(
            &Jacobian::Dense(jac.clone()),
            2.0,
            Complex::new(1.0, 1.0),
            2,
            3.0,
            0.5,
            &mut stats,
        )
        .expect("2I and (1 + i)I are regular");
        assert_eq!((stats.nlu, lu.factored_for()), (3, Some(0.5)));
        lu.invalidate();
        assert_eq!(lu.factored_for(), None);
    }
}
