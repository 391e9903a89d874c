//! The structural-dynamics integrators for second-order systems q'' = f(t, q, q'),
//! y = (q, v) halves: generalized-α (Chung & Hulbert, "A time integration algorithm for
//! structural dynamics with improved numerical dissipation: the generalized-α method",
//! J. Appl. Mech. 60:371–375, 1993), HHT-α (Hilber, Hughes & Taylor, "Improved
//! numerical dissipation for time integration algorithms in structural dynamics",
//! Earthquake Eng. Struct. Dyn. 5:283–292, 1977) and Newmark's family (Newmark, "A
//! method of computation for structural dynamics", J. Eng. Mech. Div. ASCE 85:67–94,
//! 1959). One implementation: HHT-α and Newmark are parameter choices of generalized-α.
//!
//! **The step** is the form of Arnold & Brüls ("Convergence of the generalized-α
//! scheme for constrained mechanical systems", Multibody Syst. Dyn. 18:185–202, 2007,
//! eqs. 7–8), the one Exudyn and MBDyn-style codes run: the equation of motion holds at
//! t_{n+1}, v̇_{n+1} = f(t_{n+1}, q_{n+1}, v_{n+1}), and an acceleration-like variable
//! a carries the α-averaging:
//!
//! ```text
//! q_{n+1} = q_n + h v_n + h²(½ − β) a_n + h² β a_{n+1}
//! v_{n+1} = v_n + h(1 − γ) a_n + h γ a_{n+1}
//! (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) v̇_{n+1} + α_f v̇_n
//! ```
//!
//! On a linear system this is Chung & Hulbert's method exactly (substitute v̇ = −M⁻¹Kq
//! into their eq. 3: a is their acceleration), so it has their amplification matrix
//! (`crate::stability::structural`); on a nonlinear one it evaluates f at t_{n+1}
//! rather than averaging forces, which keeps second order (Arnold & Brüls 2007 §3).
//! α_m = α_f = 0 is Newmark's method (a = v̇); α_m = 0, α_f = −α_HHT is HHT-α in this
//! form. Parameters (Chung & Hulbert 1993 eqs. 17, 25):
//!
//! - generalized-α, ρ∞ ∈ [0, 1]: α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1),
//!   γ = ½ − α_m + α_f, β = ¼(1 − α_m + α_f)²: second order, unconditionally stable,
//!   and all three roots of the amplification matrix tend to −ρ∞ as ωh → ∞;
//! - HHT-α, α ∈ [−⅓, 0] (Hilber, Hughes & Taylor 1977 eq. 11): α_m = 0, α_f = −α,
//!   γ = ½ − α, β = ¼(1 − α)²; ρ∞ = (1 + α)/(1 − α), so a given ρ∞ ∈ [½, 1] means
//!   α = (ρ∞ − 1)/(ρ∞ + 1);
//! - Newmark (β, γ): γ = ½ is second order (average acceleration β = ¼, γ = ½: the
//!   trapezoidal rule, no numerical damping); γ > ½ damps and is first order; the
//!   method is unconditionally stable iff γ ≥ ½ and β ≥ ¼(γ + ½)² (Hughes, The Finite
//!   Element Method, 1987, §9.1). 0 ≤ β below that bound is conditionally stable
//!   (β = 0, γ = ½ is the central difference method) and is run as asked; γ < ½ (the
//!   amplitude grows at every step size) and β < 0 are refused.
//!
//! **The implicit equation** is solved for x = v̇_{n+1} (n unknowns, not 2n): with
//! w = (1 − α_f)/(1 − α_m), q_{n+1} = q̂ + h²βw·x and v_{n+1} = v̂ + hγw·x, Newton's
//! matrix is I − h²βw·J_q − hγw·J_v, J_q and J_v the lower blocks of the system's
//! ∂f/∂y (analytic, or the language's AD for typed systems). The iteration is the
//! simplified Newton of `newton.rs` (Hairer & Wanner, Solving Ordinary Differential
//! Equations II, 1996, §IV.8): J from the step's start, its correction measured on
//! (q, v) against 1e-12 + 1e-10|y|, a fresh J at the iterate when the contraction θ is
//! ≥ 1 or too slow, a failure when even that diverges. Fixed step: no error estimate.
//!
//! **The state between steps.** The method carries v̇_n and a_n besides y_n. The
//! stepper keeps them for the end of its last step and for its start: a step from the
//! last end continues, a step from the last start (an event cut) retries, and a step
//! from anywhere else starts afresh with v̇_0 = a_0 = f(t_0, y_0) (Arnold & Brüls 2007
//! §4: this start keeps second order in q and v for the unconstrained system).
//! Dense output: the cubic Hermite through (y_n, (v_n, v̇_n)) and (y_{n+1}, (v_{n+1},
//! v̇_{n+1})), no extra evaluation.

use super::history::same_time;
use super::params::MethodParams;
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::{NewtonReason, OdeError};
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::Factored;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

const fn info(id: &'static str, name: &'static str, source: &'static str) -> MethodInfo {
    MethodInfo {
        id,
        name,
        order: 2,
        family: "implicit, for second-order systems (structural dynamics)",
        source,
        stages: 1,
        adaptive: false,
        embedded_order: None,
        fsal: false,
        dense_order: 2,
        second_order: true,
        needs_jacobian: true,
        l_stable: false,
        partitioned: false,
        sparse: false,
    }
}

pub const GENERALIZED_ALPHA: MethodInfo = info(
    "generalized-alpha",
    "generalized-α (ρ∞)",
    "Chung & Hulbert 1993; Arnold & Brüls 2007",
);
pub const HHT_ALPHA: MethodInfo = info(
    "hht-alpha",
    "HHT-α (Hilber–Hughes–Taylor)",
    "Hilber, Hughes & Taylor 1977",
);
/// Order 2 for γ = ½ (the default, average acceleration); γ > ½ is first order.
pub const NEWMARK: MethodInfo = info("newmark", "Newmark (β, γ)", "Newmark 1959");

/// generalized-α's registry line; `hht_alpha.rs` and `newmark.rs` hold the other two.
/// The whole engine's only (cargo feature `full`): no first plot uses them. Not drawn
/// in the ξ-plane: their analysis is the Second-order view's (`crate::stability::structural`).
pub const ENTRY: MethodEntry = MethodEntry {
    info: &GENERALIZED_ALPHA,
    build: Some(build),
    xi: XI_GENERALIZED_ALPHA,
}
.full();

/// The ξ-plane (at the default parameters) is the whole engine's: the first-load
/// package, which draws no map, carries none of its code.
#[cfg(feature = "full")]
pub(super) const XI_GENERALIZED_ALPHA: Xi = Xi::Function(amplification::xi_generalized_alpha);
#[cfg(feature = "full")]
pub(super) const XI_HHT_ALPHA: Xi = Xi::Function(amplification::xi_hht_alpha);
#[cfg(feature = "full")]
pub(super) const XI_NEWMARK: Xi = Xi::Function(amplification::xi_newmark);
#[cfg(not(feature = "full"))]
pub(super) const XI_GENERALIZED_ALPHA: Xi = Xi::None;
#[cfg(not(feature = "full"))]
pub(super) const XI_HHT_ALPHA: Xi = Xi::None;
#[cfg(not(feature = "full"))]
pub(super) const XI_NEWMARK: Xi = Xi::None;

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    build_family(GENERALIZED_ALPHA.id, dim, options)
}

/// A stepper of the family's method `id` with the spec's `methodParams`.
#[cfg(feature = "full")]
pub(super) fn build_family(
    id: &str,
    dim: usize,
    options: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(GeneralizedAlpha::create(
        id,
        dim,
        options.params.as_ref(),
        options.jacobian,
    )?))
}

/// The first-load build has no reader for `methodParams` (its registry lines carry
/// no builder, see [`MethodEntry::full`]); never called there.
#[cfg(not(feature = "full"))]
pub(super) fn build_family(
    _: &str,
    _: usize,
    _: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "the generalized-α family",
    })
}

/// Default ρ∞ of generalized-α: mild damping of the highest frequencies.
pub const DEFAULT_RHO_INF: f64 = 0.9;
/// Default α of HHT-α (ρ∞ = 0.9/1.1 ≈ 0.82).
pub const DEFAULT_HHT_ALPHA: f64 = -0.1;

/// The four parameters of the family (Chung & Hulbert 1993's names).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coefficients {
    pub alpha_m: f64,
    pub alpha_f: f64,
    pub beta: f64,
    pub gamma: f64,
}

/// β = ¼(γ + ½)², the smallest β of unconditional stability for this γ, at which the
/// principal roots meet at ωh → ∞ (Chung & Hulbert 1993 eq. 20). Written from γ + ½
/// alone, so that (γ + ½)² − 4β is exactly 0 in floating point and the limit
/// ρ(ωh → ∞) of `crate::stability::structural` comes out to the last bits.
pub fn optimal_beta(gamma: f64) -> f64 {
    let s = gamma + 0.5;
    0.25 * s * s
}

fn out_of_range(what: &str, value: f64, allowed: &str) -> OdeError {
    OdeError::OutOfRange {
        what: what.into(),
        value,
        allowed: allowed.into(),
    }
}

fn number(v: f64, what: &str) -> Result<f64, OdeError> {
    crate::error::finite(v, what)
}

impl Coefficients {
    /// Chung & Hulbert 1993 eq. 25 (α_m, α_f from ρ∞) and eq. 17 (γ) with the β of
    /// their eq. 20 that maximises high-frequency dissipation.
    pub fn generalized_alpha(rho_inf: f64) -> Result<Self, OdeError> {
        let r = number(rho_inf, "methodParams.rhoInf")?;
        if !(0.0..=1.0).contains(&r) {
            return Err(out_of_range(
                "methodParams.rhoInf (ρ∞, the spectral radius as ωh → ∞)",
                r,
                "between 0 (the highest frequencies damped in one step) and 1 (no \
                 numerical damping)",
            ));
        }
        let alpha_m = (2.0 * r - 1.0) / (r + 1.0);
        let alpha_f = r / (r + 1.0);
        let gamma = 0.5 - alpha_m + alpha_f;
        Ok(Coefficients {
            alpha_m,
            alpha_f,
            gamma,
            beta: optimal_beta(gamma),
        })
    }

    /// Hilber, Hughes & Taylor 1977: γ = ½ − α, β = ¼(1 − α)², α ∈ [−⅓, 0].
    pub fn hht(alpha: f64) -> Result<Self, OdeError> {
        let a = number(alpha, "methodParams.alpha")?;
        if !(-1.0 / 3.0..=0.0).contains(&a) {
            return Err(out_of_range(
                "methodParams.alpha (HHT's α)",
                a,
                "between −1/3 (most damping, ρ∞ = 1/2) and 0 (none: the trapezoidal \
                 rule); outside, HHT-α loses unconditional stability or second order",
            ));
        }
        let gamma = 0.5 - a;
        Ok(Coefficients {
            alpha_m: 0.0,
            alpha_f: -a,
            gamma,
            beta: optimal_beta(gamma),
        })
    }

    /// The largest ωh at which Newmark's (β, γ) keeps an undamped mode of frequency ω
    /// bounded, when β < γ/2 (γ ≥ ½): Ω_crit = 1/√(γ/2 − β) (Hughes, The Finite Element
    /// Method, 1987, §9.1, with ξ = 0; 2 for the central difference method β = 0,
    /// γ = ½). `None` when 2β ≥ γ ≥ ½: stable at every step size.
    pub fn newmark_critical_omega_h(beta: f64, gamma: f64) -> Option<f64> {
        (gamma >= 0.5 && beta < gamma / 2.0).then(|| 1.0 / (gamma / 2.0 - beta).sqrt())
    }

    /// Newmark 1959 (α_m = α_f = 0); γ ≥ ½ and β ≥ 0, see the module doc.
    pub fn newmark(beta: f64, gamma: f64) -> Result<Self, OdeError> {
        let g = number(gamma, "methodParams.gamma")?;
        let b = number(beta, "methodParams.beta")?;
        if g < 0.5 {
            return Err(out_of_range(
                "methodParams.gamma (Newmark's γ)",
                g,
                "at least 1/2: γ < 1/2 is negative numerical damping, the amplitude \
                 grows at every step size (γ = 1/2: none, second order; γ > 1/2: \
                 damping, first order)",
            ));
        }
        if b < 0.0 {
            return Err(out_of_range(
                "methodParams.beta (Newmark's β)",
                b,
                "at least 0; β ≥ (γ + 1/2)²/4 is unconditionally stable (β = 1/4 with \
                 γ = 1/2: average acceleration), smaller β only for small ωh",
            ));
        }
        Ok(Coefficients {
            alpha_m: 0.0,
            alpha_f: 0.0,
            beta: b,
            gamma: g,
        })
    }

    /// The coefficients of method `id` from the spec's `methodParams` (defaults for
    /// what is not given); a parameter the method does not take is refused.
    pub fn from_params(id: &str, p: &MethodParams) -> Result<Self, OdeError> {
        let given = [
            ("rhoInf", p.rho_inf.is_some()),
            ("alpha", p.alpha.is_some()),
            ("beta", p.beta.is_some()),
            ("gamma", p.gamma.is_some()),
            ("maxOrder", p.max_order.is_some()),
        ];
        let takes: &[&str] = match id {
            "generalized-alpha" => &["rhoInf"],
            "hht-alpha" => &["alpha", "rhoInf"],
            "newmark" => &["beta", "gamma"],
            _ => &[],
        };
        if let Some((name, _)) = given.iter().find(|(n, g)| *g && !takes.contains(n)) {
            return Err(OdeError::BadSpec {
                message: if takes.is_empty() {
                    format!(
                        "methodParams are read by {} only, not by method \"{id}\"",
                        super::params::TAKE_PARAMS.join(", ")
                    )
                } else {
                    format!(
                        "method \"{id}\" takes methodParams {}, not {name}",
                        takes.join(" or ")
                    )
                },
            });
        }
        match id {
            "generalized-alpha" => Self::generalized_alpha(p.rho_inf.unwrap_or(DEFAULT_RHO_INF)),
            "hht-alpha" => match (p.alpha, p.rho_inf) {
                (Some(_), Some(_)) => Err(OdeError::BadSpec {
                    message: "give HHT-α either alpha or rhoInf, not both".into(),
                }),
                (None, Some(r)) => {
                    let r = number(r, "methodParams.rhoInf")?;
                    if !(0.5..=1.0).contains(&r) {
                        return Err(out_of_range(
                            "methodParams.rhoInf of HHT-α",
                            r,
                            "between 1/2 and 1 (HHT-α cannot damp more; generalized-α \
                             reaches ρ∞ = 0)",
                        ));
                    }
                    Self::hht((r - 1.0) / (r + 1.0))
                }
                (a, None) => Self::hht(a.unwrap_or(DEFAULT_HHT_ALPHA)),
            },
            "newmark" => {
                let gamma = p.gamma.unwrap_or(0.5);
                // Without β: the smallest unconditionally stable one for this γ.
                let beta = p.beta.unwrap_or(optimal_beta(gamma));
                Self::newmark(beta, gamma)
            }
            _ => Err(OdeError::BadSpec {
                message: format!("method \"{id}\" is not of the generalized-α family"),
            }),
        }
    }
}

/// The catalogue entry of one of the family's ids.
pub fn info_of(id: &str) -> Option<&'static MethodInfo> {
    [&GENERALIZED_ALPHA, &HHT_ALPHA, &NEWMARK]
        .into_iter()
        .find(|m| m.id == id)
}

/// (t, y, v̇, a) at one end of a step.
#[derive(Debug, Clone)]
struct End {
    t: f64,
    y: Vec<f64>,
    acc: Vec<f64>,
    a: Vec<f64>,
    valid: bool,
}

impl End {
    fn new(dim: usize) -> Self {
        End {
            t: f64::NAN,
            y: vec![0.0; dim],
            acc: vec![0.0; dim / 2],
            a: vec![0.0; dim / 2],
            valid: false,
        }
    }

    fn is_at(&self, t: f64, y: &[f64]) -> bool {
        self.valid && same_time(self.t, t) && self.y.as_slice() == y
    }
}

/// Newton stops at a correction of (q, v) below ATOL + RTOL |y| in every component, as
/// `newton.rs`.
const NEWTON_RTOL: f64 = super::newton::NEWTON_RTOL;
const NEWTON_ATOL: f64 = super::newton::NEWTON_ATOL;
const MAX_ITERATIONS: u32 = super::newton::MAX_ITERATIONS;

/// The generalized-α stepper (and HHT-α, Newmark as its parameter choices).
pub struct GeneralizedAlpha {
    info: &'static MethodInfo,
    c: Coefficients,
    provider: JacobianProvider,
    start: End,
    end: End,
    /// The last step's h, for the dense output.
    last_h: f64,
    x: Vec<f64>,
    f: Vec<f64>,
    rhs: DVector<f64>,
    /// h²βw J_q + hγw J_v, whose I − (·) is factorised.
    k: DMatrix<f64>,
    lu: Option<Factored>,
}

impl GeneralizedAlpha {
    pub fn new(
        info: &'static MethodInfo,
        c: Coefficients,
        dim: usize,
        jacobian: JacobianOptions,
    ) -> Self {
        let n = dim / 2;
        GeneralizedAlpha {
            info,
            c,
            provider: JacobianProvider::new(info.id, jacobian),
            start: End::new(dim),
            end: End::new(dim),
            last_h: f64::NAN,
            x: vec![0.0; n],
            f: vec![0.0; dim],
            rhs: DVector::zeros(n),
            k: DMatrix::zeros(n, n),
            lu: None,
        }
    }

    /// A stepper of method `id` with the spec's parameters.
    pub fn create(
        id: &str,
        dim: usize,
        params: Option<&MethodParams>,
        jacobian: JacobianOptions,
    ) -> Result<Self, OdeError> {
        let info = info_of(id).ok_or_else(|| OdeError::BadSpec {
            message: format!("method \"{id}\" is not of the generalized-α family"),
        })?;
        let c = Coefficients::from_params(id, params.unwrap_or(&MethodParams::default()))?;
        Ok(Self::new(info, c, dim, jacobian))
    }

    pub fn coefficients(&self) -> Coefficients {
        self.c
    }

    /// Sets `start` to the step's starting point: the last end (continuing), the last
    /// start (a retry), or a fresh start with v̇ = a = f(t, y).
    fn begin(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if self.end.is_at(t, y) {
            std::mem::swap(&mut self.start, &mut self.end);
        } else if !self.start.is_at(t, y) {
            let n = y.len() / 2;
            sys.rhs(t, y, &mut self.f);
            stats.nfev += 1;
            if let Some(component) = self.f.iter().position(|v| !v.is_finite()) {
                return Err(OdeError::NewtonFailed {
                    t,
                    h: 0.0,
                    iterations: 0,
                    reason: NewtonReason::NotFinite { component },
                });
            }
            self.start.t = t;
            self.start.y.copy_from_slice(y);
            self.start.acc.copy_from_slice(&self.f[n..]);
            self.start.a.copy_from_slice(&self.f[n..]);
            self.start.valid = true;
        }
        self.end.valid = false;
        Ok(())
    }

    /// K = cq J_q + cv J_v from the full ∂f/∂y, and the LU of I − K.
    fn factorise(
        k: &mut DMatrix<f64>,
        lu: &mut Option<Factored>,
        jac: &DMatrix<f64>,
        (cq, cv): (f64, f64),
        (t, h): (f64, f64),
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = k.nrows();
        for j in 0..n {
            for i in 0..n {
                k[(i, j)] = cq * jac[(n + i, j)] + cv * jac[(n + i, n + j)];
            }
        }
        match lu {
            Some(f) => f.reshift(k, 1.0, 1.0, t, h, stats),
            None => {
                *lu = Some(Factored::shifted(
                    k,
                    1.0,
                    1.0,
                    "the Newton matrix I − h²βw ∂f/∂q − hγw ∂f/∂q'",
                    t,
                    h,
                    stats,
                )?);
                Ok(())
            }
        }
    }
}

fn failed(t: f64, h: f64, iterations: u32, reason: NewtonReason) -> OdeError {
    OdeError::NewtonFailed {
        t,
        h,
        iterations,
        reason,
    }
}

fn singular(t: f64, h: f64, iterations: u32, e: OdeError) -> OdeError {
    match e {
        OdeError::SingularMatrix { what, .. } => {
            failed(t, h, iterations, NewtonReason::Singular { what })
        }
        other => other,
    }
}

impl Stepper for GeneralizedAlpha {
    fn info(&self) -> &MethodInfo {
        self.info
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
        self.begin(sys, t, y, stats)?;
        let n = y.len() / 2;
        let Coefficients {
            alpha_m,
            alpha_f,
            beta,
            gamma,
        } = self.c;
        let t_new = t + h;
        let w = (1.0 - alpha_f) / (1.0 - alpha_m);
        let (cq, cv) = (h * h * beta * w, h * gamma * w);
        // q_{n+1} = qk + cq x, v_{n+1} = vk + cv x: the known parts, with a_{n+1} =
        // (α_f v̇_n − α_m a_n + (1 − α_f) x)/(1 − α_m).
        {
            let s = &self.start;
            let (q, v) = s.y.split_at(n);
            for i in 0..n {
                let a_known = (alpha_f * s.acc[i] - alpha_m * s.a[i]) / (1.0 - alpha_m);
                y_out[i] = q[i] + h * v[i] + h * h * ((0.5 - beta) * s.a[i] + beta * a_known);
                y_out[n + i] = v[i] + h * ((1.0 - gamma) * s.a[i] + gamma * a_known);
            }
        }
        // The known parts stay in `end.y`; the iterate is formed in y_out.
        self.end.y.copy_from_slice(y_out);
        // Predictor: the acceleration of the step's start.
        self.x.copy_from_slice(&self.start.acc);
        let form = |known: &[f64], x: &[f64], out: &mut [f64]| {
            for i in 0..n {
                out[i] = known[i] + cq * x[i];
                out[n + i] = known[n + i] + cv * x[i];
            }
        };
        form(&self.end.y, &self.x, y_out);
        let mut factored = false;
        let mut with_lu = 0u32;
        let mut previous = 0.0;
        let mut refreshed = false;
        let mut theta = 0.0;
        let mut done = false;
        for iteration in 1..=MAX_ITERATIONS {
            sys.rhs(t_new, y_out, &mut self.f);
            stats.nfev += 1;
            stats.nnewton += 1;
            if let Some(component) = self.f.iter().position(|v| !v.is_finite()) {
                return Err(failed(
                    t,
                    h,
                    iteration,
                    NewtonReason::NotFinite { component },
                ));
            }
            if !factored {
                let (jac, _) = self.provider.at(sys, t, &self.start.y, stats)?;
                Self::factorise(&mut self.k, &mut self.lu, jac, (cq, cv), (t, h), stats)
                    .map_err(|e| singular(t, h, 0, e))?;
                factored = true;
            }
            // (I − K) Δ = f_v(y_{n+1}) − x.
            let residual = |f: &[f64], x: &[f64], rhs: &mut DVector<f64>| {
                for i in 0..n {
                    rhs[i] = f[n + i] - x[i];
                }
            };
            let size_of = |rhs: &DVector<f64>, y: &[f64]| {
                let mut size: f64 = 0.0;
                for i in 0..n {
                    let (dq, dv) = (cq * rhs[i], cv * rhs[i]);
                    size = size
                        .max(dq.abs() / (NEWTON_ATOL + NEWTON_RTOL * (y[i] + dq).abs()))
                        .max(dv.abs() / (NEWTON_ATOL + NEWTON_RTOL * (y[n + i] + dv).abs()));
                }
                size
            };
            residual(&self.f, &self.x, &mut self.rhs);
            let lu = self.lu.as_ref().ok_or_else(|| OdeError::BadSpec {
                message: "the Newton matrix was not factorised".into(),
            })?;
            lu.solve_in_place(&mut self.rhs)
                .map_err(|e| singular(t, h, iteration, e))?;
            let mut size = size_of(&self.rhs, y_out);
            let mut converged = size <= 1.0;
            if !converged && with_lu >= 1 {
                theta = size / previous;
                let eta = theta / (1.0 - theta);
                let left = (MAX_ITERATIONS - iteration) as i32;
                let contracting = theta < 1.0;
                converged = contracting && eta * size <= 1.0;
                let on_time = contracting && eta * size * crate::math::powi(theta, left) <= 1.0;
                if !converged && !on_time {
                    if refreshed && with_lu == 1 && !contracting {
                        return Err(failed(t, h, iteration, NewtonReason::Diverged { theta }));
                    }
                    let jac = match self.provider.fresh(sys, t_new, y_out, stats)? {
                        crate::linear_solver::Jacobian::Dense(m) => m,
                        crate::linear_solver::Jacobian::Sparse(_) => {
                            return Err(OdeError::NoJacobian {
                                method: self.info.id.into(),
                                model: "this system".into(),
                            })
                        }
                    };
                    Self::factorise(&mut self.k, &mut self.lu, jac, (cq, cv), (t, h), stats)
                        .map_err(|e| singular(t, h, iteration, e))?;
                    refreshed = true;
                    with_lu = 0;
                    residual(&self.f, &self.x, &mut self.rhs);
                    let lu = self.lu.as_ref().ok_or_else(|| OdeError::BadSpec {
                        message: "the Newton matrix was not factorised".into(),
                    })?;
                    lu.solve_in_place(&mut self.rhs)
                        .map_err(|e| singular(t, h, iteration, e))?;
                    size = size_of(&self.rhs, y_out);
                    converged = size <= 1.0;
                }
            }
            for (x, d) in self.x.iter_mut().zip(self.rhs.iter()) {
                *x += d;
            }
            form(&self.end.y, &self.x, y_out);
            if converged {
                done = true;
                break;
            }
            with_lu += 1;
            previous = size;
        }
        if !done {
            return Err(failed(
                t,
                h,
                MAX_ITERATIONS,
                NewtonReason::SlowContraction { theta },
            ));
        }
        // The new end: y_{n+1}, v̇_{n+1} = x, a_{n+1}.
        let s = &self.start;
        let e = &mut self.end;
        for i in 0..n {
            e.a[i] = (alpha_f * s.acc[i] - alpha_m * s.a[i] + (1.0 - alpha_f) * self.x[i])
                / (1.0 - alpha_m);
        }
        e.acc.copy_from_slice(&self.x);
        e.y.copy_from_slice(y_out);
        e.t = t_new;
        e.valid = true;
        self.last_h = h;
        Ok(())
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = out.len() / 2;
        // The slopes (v, v̇) at both ends, in `f` (free between steps).
        let (s, e) = (&self.start, &self.end);
        let mut f0 = vec![0.0; 2 * n];
        f0[..n].copy_from_slice(&s.y[n..]);
        f0[n..].copy_from_slice(&s.acc);
        self.f[..n].copy_from_slice(&e.y[n..]);
        self.f[n..].copy_from_slice(&e.acc);
        super::hermite_cubic(theta, self.last_h, &s.y, &f0, &e.y, &self.f, out);
        Ok(())
    }
}

/// The family's amplification on the damped oscillator q'' + 2ζω q' + ω²q = 0 and the
/// roots of a real 3 × 3 matrix: the Second-order view's curves
/// (`crate::stability::structural`) and the ξ-plane's value at ξ (a point ξ stands for
/// the oscillator's eigenvalue pair hλ, hλ̄, as for midpoint2: Ω² = |ξ|², 2ζΩ = −2 Re ξ).
#[cfg(feature = "full")]
pub mod amplification {
    use super::{Coefficients, DEFAULT_HHT_ALPHA, DEFAULT_RHO_INF};
    use crate::math;
    use nalgebra::Complex;

    /// The roots at one Ω: the spectral radius and, if the principal roots are a complex
    /// pair, their modulus and argument Ω̄ ∈ (0, π].
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Roots {
        pub spectral_radius: f64,
        pub principal: Option<(f64, f64)>,
    }

    /// The amplification matrix on X = (q, hv, h²a), Ω² = `w2`, c = 2ζΩ = `damping`: from
    /// (1 − α_m)a' + α_m a = (1 − α_f)f' + α_f f, h²f = −Ω²q − c·hv, and the Newmark
    /// updates, with D = 1 − α_m + (1 − α_f)(βΩ² + γc),
    /// row 3 = [−Ω², −α_f c − (1 − α_f)(Ω² + c), −α_m − (1 − α_f)((½ − β)Ω² + (1 − γ)c)]/D,
    /// row 1 = [1, 1, ½ − β] + β·row 3, row 2 = [0, 1, 1 − γ] + γ·row 3
    /// (Chung & Hulbert 1993 eq. 11 with v̇_n = f_n, a their acceleration).
    pub fn matrix(c: &Coefficients, w2: f64, damping: f64) -> [[f64; 3]; 3] {
        let Coefficients {
            alpha_m,
            alpha_f,
            beta,
            gamma,
        } = *c;
        let d = 1.0 - alpha_m + (1.0 - alpha_f) * (beta * w2 + gamma * damping);
        let r3 = [
            -w2 / d,
            -(alpha_f * damping + (1.0 - alpha_f) * (w2 + damping)) / d,
            -(alpha_m + (1.0 - alpha_f) * ((0.5 - beta) * w2 + (1.0 - gamma) * damping)) / d,
        ];
        [
            [
                1.0 + beta * r3[0],
                1.0 + beta * r3[1],
                0.5 - beta + beta * r3[2],
            ],
            [
                gamma * r3[0],
                1.0 + gamma * r3[1],
                1.0 - gamma + gamma * r3[2],
            ],
            r3,
        ]
    }

    /// ρ at the ξ-plane point ξ with the method's coefficients; +∞ for NaN.
    fn at_xi(c: Result<Coefficients, crate::error::OdeError>, xi: Complex<f64>) -> f64 {
        match c {
            Ok(c) => {
                let r = roots_3(matrix(&c, xi.norm_sqr(), -2.0 * xi.re)).spectral_radius;
                if r.is_nan() {
                    f64::INFINITY
                } else {
                    r
                }
            }
            Err(_) => f64::INFINITY,
        }
    }

    /// The ξ-plane of generalized-α at its default ρ∞.
    pub fn xi_generalized_alpha(xi: Complex<f64>) -> f64 {
        at_xi(Coefficients::generalized_alpha(DEFAULT_RHO_INF), xi)
    }

    /// The ξ-plane of HHT-α at its default α.
    pub fn xi_hht_alpha(xi: Complex<f64>) -> f64 {
        at_xi(Coefficients::hht(DEFAULT_HHT_ALPHA), xi)
    }

    /// The ξ-plane of Newmark's average acceleration.
    pub fn xi_newmark(xi: Complex<f64>) -> f64 {
        at_xi(Coefficients::newmark(0.25, 0.5), xi)
    }

    /// The roots of λ² − 2·half·λ + det.
    pub fn quadratic_roots(half: f64, det: f64) -> Roots {
        let disc = half * half - det;
        if disc >= 0.0 && disc <= 16.0 * f64::EPSILON * half * half {
            // A double root: a discriminant at rounding level is noise, and its square
            // root (~√ε) would be counted as growth.
            return Roots {
                spectral_radius: half.abs(),
                principal: None,
            };
        }
        if disc < 0.0 {
            let modulus = det.sqrt();
            Roots {
                spectral_radius: modulus,
                principal: Some((modulus, math::atan2((-disc).sqrt(), half))),
            }
        } else {
            Roots {
                spectral_radius: half.abs() + disc.sqrt(),
                principal: None,
            }
        }
    }

    /// A real root of λ³ + aλ² + bλ + c: Cardano's formula (or the trigonometric form when
    /// all three are real, the one of largest modulus), polished by Newton's method.
    pub fn cubic_real_root(a: f64, b: f64, c: f64) -> f64 {
        let p = b - a * a / 3.0;
        let q = 2.0 * a * a * a / 27.0 - a * b / 3.0 + c;
        let disc = 0.25 * q * q + p * p * p / 27.0;
        let t = if disc >= 0.0 {
            let sq = disc.sqrt();
            // The larger term first, the other from the product −p/3 (no cancellation).
            let u = math::cbrt(-0.5 * q + if q <= 0.0 { sq } else { -sq });
            if u == 0.0 {
                0.0
            } else {
                u - p / (3.0 * u)
            }
        } else {
            let r = (-p / 3.0).sqrt();
            let phi = math::acos((-0.5 * q / (r * r * r)).clamp(-1.0, 1.0));
            let roots = [0.0, 1.0, 2.0]
                .map(|k| 2.0 * r * math::cos((phi - 2.0 * std::f64::consts::PI * k) / 3.0));
            roots.into_iter().fold(0.0f64, |m, x| {
                if (x - a / 3.0).abs() > (m - a / 3.0).abs() {
                    x
                } else {
                    m
                }
            })
        };
        let cubic = |x: f64| ((x + a) * x + b) * x + c;
        let mut x = t - a / 3.0;
        let mut f = cubic(x);
        for _ in 0..4 {
            let df = (3.0 * x + 2.0 * a) * x + b;
            if df == 0.0 || !f.is_finite() {
                break;
            }
            let next = x - f / df;
            // Near a double root f' → 0 and f is rounding noise: an unchecked step can
            // jump far from the root, so a step must make the residual smaller.
            let f_next = cubic(next);
            if f_next.is_nan() || f_next.abs() >= f.abs() {
                break;
            }
            (x, f) = (next, f_next);
        }
        x
    }

    /// The roots of a real 3 × 3 matrix: one real root of its characteristic cubic, the
    /// other two from the deflated quadratic.
    pub fn roots_3(m: [[f64; 3]; 3]) -> Roots {
        let trace = m[0][0] + m[1][1] + m[2][2];
        let minors = m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[0][0] * m[2][2] - m[0][2] * m[2][0]
            + m[1][1] * m[2][2]
            - m[1][2] * m[2][1];
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        // λ³ − trace λ² + minors λ − det = (λ − r)(λ² + Bλ + C).
        let (a, b, c) = (-trace, minors, -det);
        let r = cubic_real_root(a, b, c);
        let big_b = a + r;
        let big_c = b + r * big_b;
        let half = -0.5 * big_b;
        let disc = half * half - big_c;
        if disc >= 0.0 {
            // A double root (ξ = 0, where the step is a Jordan block, or critical damping)
            // comes out of the cubic split by rounding into r and a partner, each off by
            // ~√ε. Their sum is accurate, so the cluster's members are replaced by its mean.
            let sq = disc.sqrt();
            let (near, other) = if ((half + sq) - r).abs() <= ((half - sq) - r).abs() {
                (half + sq, half - sq)
            } else {
                (half - sq, half + sq)
            };
            if (near - r).abs() <= CLUSTER * r.abs().max(near.abs()) {
                let mean = 0.5 * (r + near);
                return Roots {
                    spectral_radius: mean.abs().max(other.abs()),
                    principal: None,
                };
            }
        }
        let mut pair = quadratic_roots(half, big_c);
        pair.spectral_radius = pair.spectral_radius.max(r.abs());
        pair
    }

    /// Roots this close (relative) count as one double root split by rounding (~√ε).
    const CLUSTER: f64 = 1e-7;
}
