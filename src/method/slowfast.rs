//! `slowfast`: the multiple-timescale scheme of seed 003 eqs. (17)–(47): RK4 for the
//! slow states x on the approximate slow manifold z̄ = H(x), block-matrix exponentials
//! for the fast states z. The partition is `MethodOptions::fast` (the model's
//! `ModelInfo.fast`, or the spec's `fast`).
//!
//! With J = ∂f/∂y at (t_n, y_n) split into f_z (slow rows, fast columns), g_x, g_z, and
//! f_n = (f(x_n, z_n), g(x_n, z_n)), one step is (003 eqs. 43–47):
//!
//! 1. σ = g_z⁻¹ g(x_n, z_n), γ = g_z⁻¹ g_x f(x_n, z_n); from e^{h D₁} with
//!    D₁ = [[0, I, 0], [0, g_z, γ], [0, 0, 0]] (eq. 34/44): ∫y = G₁σ + J₁ (eq. 43;
//!    G₁ = ∫₀ʰ e^{g_z s} ds = g_z⁻¹(F₂ − I), read from the same exponential).
//! 2. H(x) = z_n − g_z⁻¹ (g_x (x − x_n) + g(x_n, z_n)) (eq. 45, with `../shared/METHODS.md`'s
//!    correction: "y_n − (g_y)⁻¹" reads z_n − (g_z)⁻¹); x̂ by RK4 on x' = f(x, H(x)),
//!    x_{n+1} = x̂ + f_z ∫y (eq. 45).
//! 3. A = g_z + g_z⁻¹ g_x f_z, B = Aσ + g_z⁻¹ g_x f(x_n, H(x_n)),
//!    C = g_z⁻¹ g_x (f(x_{n+1}, H(x_{n+1})) − f(x_n, H(x_n)))/h; φ is the top-right block
//!    of e^{hD} with D = [[A, C, B], [0, 0, 1], [0, 0, 0]] — `../shared/METHODS.md`
//!    "003 eq. (47), matrix D": B (the constant term) belongs in the last column, B and C
//!    are swapped as printed; then z_{n+1} = H(x_{n+1}) + σ + φ (eq. 46).
//!
//! Cost per step: 6 f evaluations (f_n, four RK4 stages, f at x_{n+1}), one Jacobian,
//! one LU (of g_z), two evaluations of φ₁, φ₂ of an nf × nf matrix (`crate::phi`; the
//! blocks of 003's bordered exponentials, without the border). Time enters the RK4 stages at their nodes; the
//! linearisation of the fast part is frozen at t_n (003 treats autonomous systems).
//! Global order 1 on 003 eq. (50) (the superposition of eq. 30 is first order), as in
//! 003 Figs. 4–5. Dense output: cubic Hermite on f at both ends.

use super::hermite::StepEnds;
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::Factored;
use crate::phi::PhiFunctions;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

pub const INFO: MethodInfo = MethodInfo {
    id: "slowfast",
    name: "Slow/fast (RK4 + exponential)",
    order: 1,
    family: "slow/fast exponential",
    source: "seed 003 eqs. (17)–(47) (eqs. 45, 47 corrected per ../shared/METHODS.md)",
    stages: 6,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: true,
};

/// RK4 nodes and weights for the slow part (seed 003 eq. 45, as 002 §7.3).
const RK4_C: [f64; 4] = [0.0, 0.5, 0.5, 1.0];
const RK4_B: [f64; 4] = [1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0];

pub struct SlowFast {
    provider: JacobianProvider,
    slow: Vec<usize>,
    fast: Vec<usize>,
    f_full: Vec<f64>,
    y_full: Vec<f64>,
    /// f(t_n, y_n) of the step being taken.
    f_first: Vec<f64>,
    /// The last step's ends and slopes (dense output, reuse of f).
    ends: StepEnds,
    /// φ-functions of the fast block (h g_z, then hA).
    phi: PhiFunctions,
}

impl SlowFast {
    /// Checks the partition: fast indices within the state, no repeats. An empty
    /// partition is a valid (all-slow: RK4) stepper; the driver refuses it for a run
    /// (`MethodInfo.partitioned`), since a student would silently get plain RK4.
    pub fn new(dim: usize, fast: &[usize], jacobian: JacobianOptions) -> Result<Self, OdeError> {
        for (k, &i) in fast.iter().enumerate() {
            if i >= dim || fast[..k].contains(&i) {
                return Err(OdeError::OutOfRange {
                    what: format!("fast[{k}]"),
                    value: i as f64,
                    allowed: format!(
                        "a state index from 0 to {}, each listed once",
                        dim.saturating_sub(1)
                    ),
                });
            }
        }
        let slow = (0..dim).filter(|i| !fast.contains(i)).collect();
        Ok(Self {
            provider: JacobianProvider::new(INFO.id, jacobian),
            slow,
            fast: fast.to_vec(),
            f_full: vec![0.0; dim],
            y_full: vec![0.0; dim],
            f_first: vec![0.0; dim],
            ends: StepEnds::new(dim),
            phi: PhiFunctions::new(fast.len()),
        })
    }

    /// The slow part of f(t, (x, H(x))), with H(x) = z_n − σ − K (x − x_n).
    #[allow(clippy::too_many_arguments)]
    fn slow_rhs(
        &mut self,
        sys: &dyn System,
        t: f64,
        x: &DVector<f64>,
        x_n: &DVector<f64>,
        z_n: &DVector<f64>,
        sigma: &DVector<f64>,
        k: &DMatrix<f64>,
        stats: &mut Stats,
    ) -> (DVector<f64>, DVector<f64>) {
        let z = self.manifold(x, x_n, z_n, sigma, k);
        for (a, &i) in self.slow.iter().enumerate() {
            self.y_full[i] = x[a];
        }
        for (a, &i) in self.fast.iter().enumerate() {
            self.y_full[i] = z[a];
        }
        sys.rhs(t, &self.y_full, &mut self.f_full);
        stats.nfev += 1;
        let f = DVector::from_iterator(self.slow.len(), self.slow.iter().map(|&i| self.f_full[i]));
        (f, z)
    }

    /// H(x) of 003 eq. (45) (corrected): z_n − σ − K (x − x_n), K = g_z⁻¹ g_x.
    fn manifold(
        &self,
        x: &DVector<f64>,
        x_n: &DVector<f64>,
        z_n: &DVector<f64>,
        sigma: &DVector<f64>,
        k: &DMatrix<f64>,
    ) -> DVector<f64> {
        z_n - sigma - k * (x - x_n)
    }
}

/// The sub-matrix of `m` with the given rows and columns.
fn block(m: &DMatrix<f64>, rows: &[usize], cols: &[usize]) -> DMatrix<f64> {
    DMatrix::from_fn(rows.len(), cols.len(), |r, c| m[(rows[r], cols[c])])
}

impl Stepper for SlowFast {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let (ns, nf) = (self.slow.len(), self.fast.len());
        self.ends.start_f(sys, t, y, &mut self.f_first, stats);
        let (jac, _) = self.provider.at(sys, t, y, stats)?;
        let f_z = block(jac, &self.slow, &self.fast);
        let g_x = block(jac, &self.fast, &self.slow);
        let g_z = block(jac, &self.fast, &self.fast);
        let pick =
            |v: &[f64], idx: &[usize]| DVector::from_iterator(idx.len(), idx.iter().map(|&i| v[i]));
        let x_n = pick(y, &self.slow);
        let z_n = pick(y, &self.fast);
        let f_x = pick(&self.f_first, &self.slow);
        let g_n = pick(&self.f_first, &self.fast);

        let lu = Factored::new(
            g_z.clone(),
            "g_z (the fast block of the Jacobian)",
            t,
            h,
            stats,
        )?;
        let mut sigma = g_n.clone();
        lu.solve_in_place(&mut sigma)?;
        let mut k = DMatrix::<f64>::zeros(nf, ns);
        for c in 0..ns {
            let mut col = g_x.column(c).into_owned();
            lu.solve_in_place(&mut col)?;
            k.set_column(c, &col);
        }
        let gamma = &k * &f_x;

        // Step 1: ∫y = G₁σ + J₁, the blocks of e^{h D₁}, D₁ = [[0, I, 0], [0, g_z, γ],
        // [0, 0, 0]] (eq. 34/44): G₁ = h φ₁(h g_z), J₁ = h² φ₂(h g_z) γ (crate::phi).
        self.phi.compute(&g_z, h, 2, t, h, stats)?;
        let mut int_y = DVector::zeros(nf);
        self.phi
            .apply_add(1, h, sigma.as_slice(), int_y.as_mut_slice());
        self.phi
            .apply_add(2, h * h, gamma.as_slice(), int_y.as_mut_slice());

        // Step 2: RK4 on x' = f(x, H(x)), then x_{n+1} = x̂ + f_z ∫y (eq. 45).
        let mut x_hat = x_n.clone();
        let mut x_stage = x_n.clone();
        let mut f0 = DVector::zeros(ns);
        for s in 0..4 {
            let (fs, _) = self.slow_rhs(
                sys,
                t + RK4_C[s] * h,
                &x_stage,
                &x_n,
                &z_n,
                &sigma,
                &k,
                stats,
            );
            if s == 0 {
                f0 = fs.clone();
            }
            x_hat.axpy(h * RK4_B[s], &fs, 1.0);
            if s < 3 {
                x_stage = &x_n + &fs * (RK4_C[s + 1] * h);
            }
        }
        let x_new = x_hat + &f_z * int_y;
        let (f1, h_new) = self.slow_rhs(sys, t + h, &x_new, &x_n, &z_n, &sigma, &k, stats);

        // Step 3: z_{n+1} = H(x_{n+1}) + σ + φ, φ from e^{hD} (eqs. 46–47, D corrected).
        let a = &g_z + &k * &f_z;
        let b = &a * &sigma + &k * &f0;
        let c = &k * (&f1 - &f0) / h;
        // φ = ∫₀ʰ e^{A(h−u)} (B + C u) du = h φ₁(hA) B + h² φ₂(hA) C.
        self.phi.compute(&a, h, 2, t, h, stats)?;
        let mut phi = DVector::zeros(nf);
        self.phi.apply_add(1, h, b.as_slice(), phi.as_mut_slice());
        self.phi
            .apply_add(2, h * h, c.as_slice(), phi.as_mut_slice());
        for (a, &i) in self.slow.iter().enumerate() {
            y_out[i] = x_new[a];
        }
        for (a, &i) in self.fast.iter().enumerate() {
            y_out[i] = h_new[a] + sigma[a] + phi[a];
        }
        self.ends.record(t, h, y, y_out, Some(&self.f_first));
        Ok(())
    }

    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.ends.interpolate(sys, theta, out, stats);
        Ok(())
    }
}
