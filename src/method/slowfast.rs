//! `slowfast`: the multiple-timescale scheme of Gil, Sanfelice & Nikravesh 2013 eqs. (17)–(47): RK4 for the
//! slow states x on the approximate slow manifold z̄ = H(x), block-matrix exponentials
//! for the fast states z. The partition is `MethodOptions::fast` (the model's
//! `ModelInfo.fast`, or the spec's `fast`).
//!
//! With J = ∂f/∂y at (t_n, y_n) split into f_z (slow rows, fast columns), g_x, g_z, and
//! f_n = (f(x_n, z_n), g(x_n, z_n)), one step is (Gil, Sanfelice & Nikravesh 2013 eqs. 43–47):
//!
//! 1. σ = g_z⁻¹ g(x_n, z_n), γ = g_z⁻¹ g_x f(x_n, z_n); from e^{h D₁} with
//!    D₁ = [[0, I, 0], [0, g_z, γ], [0, 0, 0]] (eq. 34/44): ∫y = G₁σ + J₁ (eq. 43;
//!    G₁ = ∫₀ʰ e^{g_z s} ds = g_z⁻¹(F₂ − I), read from the same exponential).
//! 2. H(x) = z_n − g_z⁻¹ (g_x (x − x_n) + g(x_n, z_n)) (eq. 45, with the Sources panel's errata's
//!    correction: "y_n − (g_y)⁻¹" reads z_n − (g_z)⁻¹); x̂ by RK4 on x' = f(x, H(x)),
//!    x_{n+1} = x̂ + f_z ∫y (eq. 45).
//! 3. A = g_z + g_z⁻¹ g_x f_z, B = Aσ + g_z⁻¹ g_x f(x_n, H(x_n)),
//!    C = g_z⁻¹ g_x (f(x_{n+1}, H(x_{n+1})) − f(x_n, H(x_n)))/h; φ is the top-right block
//!    of e^{hD} with D = [[A, C, B], [0, 0, 1], [0, 0, 0]] — the Sources panel's errata
//!    "Gil, Sanfelice & Nikravesh 2013 eq. (47), matrix D": B (the constant term) belongs in the last column, B and C
//!    are swapped as printed; then z_{n+1} = H(x_{n+1}) + σ + φ (eq. 46).
//!
//! Cost per step: 6 f evaluations (f_n, four RK4 stages, f at x_{n+1}), one Jacobian,
//! one LU (of g_z), two evaluations of φ₁, φ₂ of an nf × nf matrix (`crate::phi`; the
//! blocks of 003's bordered exponentials, without the border). The LU and each φ are
//! kept while their matrix repeats bit for bit (`nlu`, `nexpm` count the evaluations):
//! a linear fast block (a spring, as in `pendulum-particle`) has the same g_z every step,
//! and A = g_z when g_z⁻¹g_x f_z vanishes. A step allocates nothing else: blocks and
//! vectors live in `Work`, and the small products are loops in nalgebra's order. Time enters the RK4 stages at their nodes; the
//! linearisation of the fast part is frozen at t_n (003 treats autonomous systems).
//! Global order 1 on Gil, Sanfelice & Nikravesh 2013 eq. (50) (the superposition of eq. 30 is first order), as in
//! Gil, Sanfelice & Nikravesh 2013 Figs. 4–5. Dense output: cubic Hermite on f at both ends.

use super::hermite::StepEnds;
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::{fixed, Factored};
use crate::phi::PhiFunctions;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

/// The largest fast block whose φ-functions are dense nf × nf matrices (the size at
/// which `llm` switches too, [`super::llm::DENSE_MAX_DIM`]). Above it (whole engine
/// only) the step's two combinations h φ₁ w₁ + h² φ₂ w₂ are applied to their vectors
/// through a Krylov subspace (`crate::phi::krylov`), from products g_z·x and
/// A·x = g_z x + K (f_z x): no nf × nf exponential, and A is never formed. g_z⁻¹ (σ and
/// K = g_z⁻¹ g_x) still comes from the LU of g_z, kept while g_z repeats.
pub const DENSE_MAX_FAST: usize = super::llm::DENSE_MAX_DIM;

/// The Krylov path's tolerance (2-norm) on each combination, relative to its scale
/// (‖z_n‖₂ and the explicit sizes of its terms): far below the scheme's own error,
/// so the step is the slow/fast scheme's, not the subspace's.
#[cfg(feature = "full")]
pub const KRYLOV_TOL: f64 = 1e-12;

pub const INFO: MethodInfo = MethodInfo {
    id: "slowfast",
    name: "Slow/fast (RK4 + exponential)",
    order: 1,
    family: "slow/fast exponential",
    source: "Gil, Sanfelice & Nikravesh 2013, eqs. (17)–(47) (eqs. 45, 47 corrected, see Sources)",
    stages: 6,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: true,
    sparse: false,
};

/// RK4 nodes and weights for the slow part (Gil, Sanfelice & Nikravesh 2013 eq. 45, as Schwab & Delhaes §7.3).
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
    /// φ-functions of h g_z and of hA, each kept while its argument repeats bit for bit
    /// (a linear fast block: `PhiFunctions::reusing`).
    phi_gz: PhiFunctions,
    phi_a: PhiFunctions,
    /// The step's blocks and vectors, allocated once.
    work: Work,
    /// The LU of g_z, kept while g_z repeats bit for bit (`work.lu_of` is the g_z it
    /// factorises): a linear fast block is factorised once.
    lu: Option<Factored>,
    /// The Krylov evaluation of the φ-combinations, for a fast block above
    /// [`DENSE_MAX_FAST`] (`phi_gz` and `phi_a` are then unused and empty).
    #[cfg(feature = "full")]
    krylov: Option<Box<KrylovFast>>,
}

/// The Krylov path's buffers: the subspace's, and f_z x (slow) for A·x.
#[cfg(feature = "full")]
struct KrylovFast {
    phi: crate::phi::krylov::KrylovPhi,
    slow: Vec<f64>,
}

/// Storage of one step (ns slow, nf fast states): the Jacobian blocks, K = g_z⁻¹ g_x,
/// A, and the vectors of eqs. (43)–(47), so that a step allocates only the LU of g_z.
struct Work {
    f_z: DMatrix<f64>,
    g_x: DMatrix<f64>,
    g_z: DMatrix<f64>,
    lu_of: DMatrix<f64>,
    k: DMatrix<f64>,
    a: DMatrix<f64>,
    x_n: DVector<f64>,
    f_x: DVector<f64>,
    x_hat: DVector<f64>,
    x_stage: DVector<f64>,
    x_new: DVector<f64>,
    /// f of the current RK4 stage, of the first stage and at x_{n+1} (slow parts).
    fs: DVector<f64>,
    f0: DVector<f64>,
    f1: DVector<f64>,
    /// x − x_n (slow), then f1 − f0.
    dx: DVector<f64>,
    z_n: DVector<f64>,
    g_n: DVector<f64>,
    sigma: DVector<f64>,
    gamma: DVector<f64>,
    int_y: DVector<f64>,
    /// A column of K being solved, then K(x − x_n), then the products of eq. (47).
    col: DVector<f64>,
    /// H(x) at the last slow right-hand side.
    z: DVector<f64>,
    b: DVector<f64>,
    c: DVector<f64>,
    phi: DVector<f64>,
}

impl Work {
    /// C = K (f₁ − f₀) / h into `c` (eq. 47: the slow rate's change over the step, as
    /// the fast block sees it). Inlined, so that sizes fixed at compile time reach it.
    #[inline(always)]
    fn slow_rate_term(&mut self, ns: usize, nf: usize, h: f64) {
        let (dx, f1, f0) = (
            &mut self.dx.as_mut_slice()[..ns],
            &self.f1.as_slice()[..ns],
            &self.f0.as_slice()[..ns],
        );
        for i in 0..ns {
            dx[i] = f1[i] - f0[i];
        }
        mat_vec(&self.k, nf, ns, self.dx.as_slice(), self.c.as_mut_slice());
        for c in self.c.as_mut_slice()[..nf].iter_mut() {
            *c /= h;
        }
    }

    fn new(ns: usize, nf: usize) -> Self {
        let v = |n| DVector::zeros(n);
        Self {
            f_z: DMatrix::zeros(ns, nf),
            g_x: DMatrix::zeros(nf, ns),
            g_z: DMatrix::zeros(nf, nf),
            lu_of: DMatrix::zeros(nf, nf),
            k: DMatrix::zeros(nf, ns),
            a: DMatrix::zeros(nf, nf),
            x_n: v(ns),
            f_x: v(ns),
            x_hat: v(ns),
            x_stage: v(ns),
            x_new: v(ns),
            fs: v(ns),
            f0: v(ns),
            f1: v(ns),
            dx: v(ns),
            z_n: v(nf),
            g_n: v(nf),
            sigma: v(nf),
            gamma: v(nf),
            int_y: v(nf),
            col: v(nf),
            z: v(nf),
            b: v(nf),
            c: v(nf),
            phi: v(nf),
        }
    }
}

impl SlowFast {
    /// Checks the partition: fast indices within the state, no repeats. An empty
    /// partition is a valid (all-slow: RK4) stepper; the driver refuses it for a run
    /// (`MethodInfo.partitioned`), since a student would silently get plain RK4.
    pub fn new(dim: usize, fast: &[usize], jacobian: JacobianOptions) -> Result<Self, OdeError> {
        Self::with_dense_max(dim, fast, jacobian, DENSE_MAX_FAST)
    }

    /// [`SlowFast::new`] with dense φ-functions up to `dense_max` fast states and the
    /// Krylov path above (the whole engine; the first-load build is always dense): a
    /// test runs one fast block both ways.
    pub fn with_dense_max(
        dim: usize,
        fast: &[usize],
        jacobian: JacobianOptions,
        dense_max: usize,
    ) -> Result<Self, OdeError> {
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
        let slow: Vec<usize> = (0..dim).filter(|i| !fast.contains(i)).collect();
        let krylov = cfg!(feature = "full") && fast.len() > dense_max;
        let dense_n = if krylov { 0 } else { fast.len() };
        Ok(Self {
            #[cfg(feature = "full")]
            krylov: krylov.then(|| {
                Box::new(KrylovFast {
                    phi: crate::phi::krylov::KrylovPhi::new(fast.len()),
                    slow: vec![0.0; slow.len()],
                })
            }),
            provider: JacobianProvider::new(INFO.id, jacobian),
            work: Work::new(slow.len(), fast.len()),
            slow,
            fast: fast.to_vec(),
            f_full: vec![0.0; dim],
            y_full: vec![0.0; dim],
            f_first: vec![0.0; dim],
            ends: StepEnds::new(dim),
            phi_gz: PhiFunctions::reusing(dense_n),
            phi_a: PhiFunctions::reusing(dense_n),
            lu: None,
        })
    }

    /// The slow part of f(t, (x, H(x))) into `fs`, with x = `x_stage` (or `x_new` when
    /// `at_new`), H(x) = z_n − σ − K (x − x_n) into `z` (Gil, Sanfelice & Nikravesh 2013 eq. 45, corrected).
    #[inline(always)]
    fn slow_rhs<const NS: usize, const NF: usize>(
        &mut self,
        sys: &dyn System,
        t: f64,
        at_new: bool,
        stats: &mut Stats,
    ) {
        let (ns, nf) = (fixed::<NS>(self.slow.len()), fixed::<NF>(self.fast.len()));
        let w = &mut self.work;
        let x = if at_new { &w.x_new } else { &w.x_stage };
        let (x, x_n, dx) = (
            &x.as_slice()[..ns],
            &w.x_n.as_slice()[..ns],
            &mut w.dx.as_mut_slice()[..ns],
        );
        for i in 0..ns {
            dx[i] = x[i] - x_n[i];
        }
        mat_vec(&w.k, nf, ns, dx, w.col.as_mut_slice());
        let (z, z_n, sigma, kd) = (
            &mut w.z.as_mut_slice()[..nf],
            &w.z_n.as_slice()[..nf],
            &w.sigma.as_slice()[..nf],
            &w.col.as_slice()[..nf],
        );
        for i in 0..nf {
            z[i] = z_n[i] - sigma[i] - kd[i];
        }
        let (slow, fast) = (&self.slow[..ns], &self.fast[..nf]);
        for a in 0..ns {
            self.y_full[slow[a]] = x[a];
        }
        for a in 0..nf {
            self.y_full[fast[a]] = z[a];
        }
        sys.rhs(t, &self.y_full, &mut self.f_full);
        stats.nfev += 1;
        let fs = &mut w.fs.as_mut_slice()[..ns];
        for a in 0..ns {
            fs[a] = self.f_full[slow[a]];
        }
    }

    /// One step (eqs. 43–47) with NS slow and NF fast states (0: sizes known at run
    /// time, `linalg::fixed`): the same arithmetic for every size; with sizes known at
    /// compile time the small loops, and the LU solves, unroll.
    #[inline(always)]
    fn advance<const NS: usize, const NF: usize>(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let (ns, nf) = (fixed::<NS>(self.slow.len()), fixed::<NF>(self.fast.len()));
        self.ends.start_f(sys, t, y, &mut self.f_first, stats);
        let (jac, _) = self.provider.at(sys, t, y, stats)?;
        let w = &mut self.work;
        let (slow, fast) = (&self.slow[..ns], &self.fast[..nf]);
        block_into(jac, slow, fast, &mut w.f_z);
        block_into(jac, fast, slow, &mut w.g_x);
        block_into(jac, fast, fast, &mut w.g_z);
        pick_into(y, slow, &mut w.x_n);
        pick_into(y, fast, &mut w.z_n);
        pick_into(&self.f_first, slow, &mut w.f_x);
        pick_into(&self.f_first, fast, &mut w.g_n);

        let same = |a: &DMatrix<f64>, b: &DMatrix<f64>| {
            let (a, b) = (&a.as_slice()[..nf * nf], &b.as_slice()[..nf * nf]);
            (0..nf * nf).all(|i| a[i].to_bits() == b[i].to_bits())
        };
        let lu = match &mut self.lu {
            Some(lu) if same(&w.lu_of, &w.g_z) => {
                lu.relocate(t, h);
                lu
            }
            held => {
                *held = None;
                let what = "g_z (the fast block of the Jacobian)";
                w.lu_of.copy_from(&w.g_z);
                held.insert(Factored::new(w.g_z.clone(), what, t, h, stats)?)
            }
        };
        // σ = g_z⁻¹ g_n, K = g_z⁻¹ g_x column by column, γ = K f_x.
        w.sigma.copy_from(&w.g_n);
        lu.solve_n::<NF>(w.sigma.as_mut_slice())?;
        w.k.copy_from(&w.g_x);
        for k_col in w.k.as_mut_slice().chunks_exact_mut(nf.max(1)) {
            lu.solve_n::<NF>(k_col)?;
        }
        mat_vec(&w.k, nf, ns, w.f_x.as_slice(), w.gamma.as_mut_slice());

        // Step 1: ∫y = G₁σ + J₁, the blocks of e^{h D₁}, D₁ = [[0, I, 0], [0, g_z, γ],
        // [0, 0, 0]] (eq. 34/44): G₁ = h φ₁(h g_z), J₁ = h² φ₂(h g_z) γ (crate::phi).
        #[cfg(feature = "full")]
        let krylov = self.krylov.as_deref_mut();
        #[cfg(not(feature = "full"))]
        let krylov: Option<&mut ()> = None;
        match krylov {
            #[cfg(feature = "full")]
            Some(kr) => {
                use crate::phi::krylov::norm2;
                let (sigma, gamma) = (&w.sigma.as_slice()[..nf], &w.gamma.as_slice()[..nf]);
                let tol = KRYLOV_TOL
                    * h
                    * (norm2(&w.z_n.as_slice()[..nf]) + norm2(sigma) + h * norm2(gamma));
                let g_z = &w.g_z;
                let mut matvec = |x: &[f64], out: &mut [f64]| mat_vec_add(g_z, nf, nf, x, out);
                let int_y = &mut w.int_y.as_mut_slice()[..nf];
                kr.phi
                    .combination(&mut matvec, h, &[sigma, gamma], int_y, tol, t, h, stats)?;
            }
            _ => {
                self.phi_gz.compute(&w.g_z, h, 2, t, h, stats)?;
                self.phi_gz.integral(
                    h,
                    w.sigma.as_slice(),
                    w.gamma.as_slice(),
                    w.int_y.as_mut_slice(),
                );
            }
        }

        // Step 2: RK4 on x' = f(x, H(x)), then x_{n+1} = x̂ + f_z ∫y (eq. 45).
        w.x_hat.copy_from(&w.x_n);
        w.x_stage.copy_from(&w.x_n);
        for s in 0..4 {
            self.slow_rhs::<NS, NF>(sys, t + RK4_C[s] * h, false, stats);
            let w = &mut self.work;
            if s == 0 {
                w.f0.copy_from(&w.fs);
            }
            let (x_hat, x_stage, x_n, fs) = (
                &mut w.x_hat.as_mut_slice()[..ns],
                &mut w.x_stage.as_mut_slice()[..ns],
                &w.x_n.as_slice()[..ns],
                &w.fs.as_slice()[..ns],
            );
            // x̂ += (h b_s) fs (nalgebra's axpy: a·x + y)
            let a = h * RK4_B[s];
            for i in 0..ns {
                x_hat[i] += a * fs[i];
            }
            if s < 3 {
                // x_stage = x_n + fs·(c_{s+1} h)
                let c = RK4_C[s + 1] * h;
                for i in 0..ns {
                    x_stage[i] = x_n[i] + fs[i] * c;
                }
            }
        }
        let w = &mut self.work;
        // x_new = x̂ + f_z ∫y
        mat_vec(&w.f_z, ns, nf, w.int_y.as_slice(), w.x_new.as_mut_slice());
        let (x_new, x_hat) = (&mut w.x_new.as_mut_slice()[..ns], &w.x_hat.as_slice()[..ns]);
        for i in 0..ns {
            x_new[i] += x_hat[i];
        }
        self.slow_rhs::<NS, NF>(sys, t + h, true, stats);
        let w = &mut self.work;
        w.f1.copy_from(&w.fs);

        // Step 3: z_{n+1} = H(x_{n+1}) + σ + φ, φ from e^{hD} (eqs. 46–47, D corrected).
        #[cfg(feature = "full")]
        if let Some(kr) = self.krylov.as_deref_mut() {
            Self::krylov_fast_update(kr, w, ns, nf, t, h, stats)?;
            Self::assemble(&self.slow[..ns], &self.fast[..nf], w, y_out);
            self.ends.record(t, h, y, y_out, Some(&self.f_first));
            return Ok(());
        }
        // A = g_z + K f_z
        mat_mat(&w.k, nf, ns, &w.f_z, nf, &mut w.a);
        let (a, g_z) = (
            &mut w.a.as_mut_slice()[..nf * nf],
            &w.g_z.as_slice()[..nf * nf],
        );
        for i in 0..nf * nf {
            a[i] += g_z[i];
        }
        // B = Aσ + K f0
        mat_vec(&w.a, nf, nf, w.sigma.as_slice(), w.b.as_mut_slice());
        mat_vec(&w.k, nf, ns, w.f0.as_slice(), w.col.as_mut_slice());
        let (b, kf) = (&mut w.b.as_mut_slice()[..nf], &w.col.as_slice()[..nf]);
        for i in 0..nf {
            b[i] += kf[i];
        }
        w.slow_rate_term(ns, nf, h);
        // φ = ∫₀ʰ e^{A(h−u)} (B + C u) du = h φ₁(hA) B + h² φ₂(hA) C.
        self.phi_a.compute(&w.a, h, 2, t, h, stats)?;
        self.phi_a
            .integral(h, w.b.as_slice(), w.c.as_slice(), w.phi.as_mut_slice());
        Self::assemble(&self.slow[..ns], &self.fast[..nf], w, y_out);
        self.ends.record(t, h, y, y_out, Some(&self.f_first));
        Ok(())
    }
}

impl SlowFast {
    /// The step's new state: x_{n+1} in the slow places, z + σ + φ in the fast ones (eq. 47).
    /// Inlined, so that the lengths `fixed::<NS>`/`fixed::<NF>` fixed at compile time reach its loops.
    #[inline(always)]
    fn assemble(slow: &[usize], fast: &[usize], w: &Work, y_out: &mut [f64]) {
        let (ns, nf) = (slow.len(), fast.len());
        let (x_new, z, sigma, phi) = (
            &w.x_new.as_slice()[..ns],
            &w.z.as_slice()[..nf],
            &w.sigma.as_slice()[..nf],
            &w.phi.as_slice()[..nf],
        );
        for a in 0..ns {
            y_out[slow[a]] = x_new[a];
        }
        for a in 0..nf {
            y_out[fast[a]] = z[a] + sigma[a] + phi[a];
        }
    }

    /// Step 3 on the Krylov path: φ = h φ₁(hA) B + h² φ₂(hA) C into `w.phi`, with
    /// B = Aσ + K f0 and C = K (f1 − f0)/h as on the dense path, A applied as
    /// A x = g_z x + K (f_z x) and never formed (O(nf² + nf·ns) a product).
    #[cfg(feature = "full")]
    fn krylov_fast_update(
        kr: &mut KrylovFast,
        w: &mut Work,
        ns: usize,
        nf: usize,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        use crate::phi::krylov::norm2;
        w.slow_rate_term(ns, nf, h);
        let (g_z, f_z, k) = (&w.g_z, &w.f_z, &w.k);
        let slow = &mut kr.slow[..ns];
        // B = g_z σ + K (f_z σ) + K f0
        let (sigma, b) = (&w.sigma.as_slice()[..nf], &mut w.b.as_mut_slice()[..nf]);
        b.fill(0.0);
        mat_vec_add(g_z, nf, nf, sigma, b);
        mat_vec(f_z, ns, nf, sigma, slow);
        for (v, f0) in slow.iter_mut().zip(&w.f0.as_slice()[..ns]) {
            *v += f0;
        }
        mat_vec_add(k, nf, ns, slow, b);
        let (b, c) = (&w.b.as_slice()[..nf], &w.c.as_slice()[..nf]);
        let tol = KRYLOV_TOL * (norm2(&w.z_n.as_slice()[..nf]) + h * norm2(b) + h * h * norm2(c));
        let mut matvec = |x: &[f64], out: &mut [f64]| {
            mat_vec_add(g_z, nf, nf, x, out);
            mat_vec(f_z, ns, nf, x, slow);
            mat_vec_add(k, nf, ns, slow, out);
        };
        let phi = &mut w.phi.as_mut_slice()[..nf];
        kr.phi
            .combination(&mut matvec, h, &[b, c], phi, tol, t, h, stats)
    }
}

/// out += m v for the `rows` × `cols` matrix m (column by column).
#[cfg(feature = "full")]
fn mat_vec_add(m: &DMatrix<f64>, rows: usize, cols: usize, v: &[f64], out: &mut [f64]) {
    let (m, v, out) = (&m.as_slice()[..rows * cols], &v[..cols], &mut out[..rows]);
    for (col, &vj) in m.chunks_exact(rows.max(1)).zip(v) {
        if vj != 0.0 {
            for (o, &mij) in out.iter_mut().zip(col) {
                *o += mij * vj;
            }
        }
    }
}

/// `out` = the sub-matrix of `m` with the given rows and columns.
#[inline(always)]
fn block_into(m: &DMatrix<f64>, rows: &[usize], cols: &[usize], out: &mut DMatrix<f64>) {
    let (n, len) = (m.nrows(), rows.len());
    let (m, out) = (m.as_slice(), &mut out.as_mut_slice()[..len * cols.len()]);
    for (c, &j) in cols.iter().enumerate() {
        let col = &m[j * n..(j + 1) * n];
        for (r, &i) in rows.iter().enumerate() {
            out[c * len + r] = col[i];
        }
    }
}

/// out = m v for the `rows` × `cols` matrix m, in nalgebra's order for a matrix times a
/// vector (`gemv`: column by column, out = m₀v₀, then out = m_jv_j + out), so the same
/// bits as `&m * &v`, which goes through that loop for every size (its matrixmultiply
/// path needs a result with more than 5 columns).
#[inline(always)]
fn mat_vec(m: &DMatrix<f64>, rows: usize, cols: usize, v: &[f64], out: &mut [f64]) {
    let (m, v, out) = (&m.as_slice()[..rows * cols], &v[..cols], &mut out[..rows]);
    if cols == 0 {
        out.fill(0.0);
        return;
    }
    for i in 0..rows {
        out[i] = m[i] * v[0];
    }
    for j in 1..cols {
        for i in 0..rows {
            out[i] += m[j * rows + i] * v[j];
        }
    }
}

/// out = a b (a: `rows` × `inner`, b: `inner` × `cols`), as `&a * &b`: nalgebra's gemm
/// is `mat_vec` column by column, except for large operands (more than 5 rows and
/// columns each), which it hands to matrixmultiply.
#[inline(always)]
fn mat_mat(
    a: &DMatrix<f64>,
    rows: usize,
    inner: usize,
    b: &DMatrix<f64>,
    cols: usize,
    out: &mut DMatrix<f64>,
) {
    if rows > 5 && inner > 5 && cols > 5 {
        out.gemm(1.0, a, b, 0.0);
        return;
    }
    for j in 0..cols {
        let b_col = &b.as_slice()[j * inner..(j + 1) * inner];
        mat_vec(
            a,
            rows,
            inner,
            b_col,
            &mut out.as_mut_slice()[j * rows..(j + 1) * rows],
        );
    }
}

/// `out` = the entries of `v` at `idx`.
#[inline(always)]
fn pick_into(v: &[f64], idx: &[usize], out: &mut DVector<f64>) {
    let out = &mut out.as_mut_slice()[..idx.len()];
    for (o, &i) in idx.iter().enumerate() {
        out[o] = v[i];
    }
}

impl Stepper for SlowFast {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    // `mat_vec`, `mat_mat` and the loops into the preallocated blocks perform the
    // operations of nalgebra's allocating `&k * &f_x`, `&k * &f_z`, `x.axpy(…)` (`mul_to`
    // is `gemm(1, a, b, 0)`) in the same order: the same bits as the expressions in the
    // comments, for every size.
    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        // The catalogue's partitions (pendulum-particle 2 + 4, slowfast-linear 2 + 2)
        // get unrolled loops; any other partition runs the same code with run-time sizes.
        match (self.slow.len(), self.fast.len()) {
            (2, 4) => self.advance::<2, 4>(sys, t, y, h, y_out, stats),
            (2, 2) => self.advance::<2, 2>(sys, t, y, h, y_out, stats),
            _ => self.advance::<0, 0>(sys, t, y, h, y_out, stats),
        }
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

/// The first-load package leaves the stepper out (`full`): it needs a slow/fast
/// partition, which few models have, and it is 16 KB of `.wasm`.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::SlowFast,
}
.full();

/// On the partition of `options.fast`.
fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(SlowFast::new(
        dim,
        &options.fast,
        options.jacobian,
    )?))
}
