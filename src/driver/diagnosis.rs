//! Why a run stopped, or why its result is doubtful, in words a student can act on: a
//! [`Diagnosis`] with a [`Code`] from the published list [`Code::ALL`], a message, an
//! advice that names only controls the page has, and, where one setting change would
//! cure it, a [`Fix`] the page offers as a button.
//!
//! The causes are computed, not guessed from the stop alone:
//!
//! - `not-finite`: f itself is NaN or ±∞ at the last point reached (the equation is
//!   named, with its line and column in a typed system);
//! - `unstable-step` and `stiff`: the eigenvalues λ of ∂f/∂y at a point of the run
//!   before it grew, against the method's region of absolute stability along each ray
//!   (`crate::stability::facts::boundary_along`): the largest stable h is
//!   min over λ of (the region's extent along λ/|λ|) / |λ|, the linear stability
//!   analysis of Hairer & Wanner, *Solving ODEs II* (1996), §IV.2;
//! - `solution-blow-up`: the growth is not explained by the spectrum, and the same run
//!   with a step four times smaller blows up as early (or the adaptive steps shrank to
//!   nothing while |y| grew by [`GROWTH`]): the exact solution itself escapes;
//! - `tolerance-too-tight`, `event-chatter`, `max-steps`, `newton`, `step-underflow`,
//!   `singular-mechanism` from the stop and the run's record.
//!
//! A run that reached t1 but grew by more than [`GROWTH`] over its own scale (the
//! largest of 1 and |y0|) is doubtful: when the spectrum explains the growth as
//! instability, it gets an `unstable-step` diagnosis too (a heat equation of 500 cells
//! with RK4 at h = 0.01 reaches 3e129 without ever passing the hard limit 1e150).
//!
//! Everything here runs after the run, only when it stopped or grew; the step loop
//! pays nothing. It lives in the whole engine (cargo feature `full`): the first-load
//! package refuses such a run (`OdeError::NotInThisBuild`) and the page's worker
//! re-runs it there, with the same bits.

use super::run::Ended;
use super::stepping::Integrator;
use crate::error::{num, NewtonReason, OdeError};
use crate::spec::SolveSpec;
use crate::stability::facts::boundary_along;
use crate::stability::{Amplification, StabilitySpec};
use nalgebra::{Complex, DMatrix, Schur};
use serde::Serialize;
use std::ops::ControlFlow;

/// Growth of max |y| over the run's own scale (the largest of 1 and max |y0|) past
/// which a run counts as blown up: ten orders of magnitude is far beyond any physical
/// change of a state and far below the hard limit 1e150 of `driver::BLOW_UP`.
pub const GROWTH: f64 = 1e10;

pub use crate::control::RTOL_FLOOR;

/// A Jacobian eigenvalue whose positive real part is at most this fraction of |λ| is
/// taken to lie on the imaginary axis (its real part is the eigen-solver's round-off).
const ROUND_OFF_RE: f64 = 1e-6;

/// Most states whose spectrum a diagnosis computes (a dense Schur form, O(n³)):
/// above the 400 of the ξ-plane lab, so a heat equation of 500 cells is diagnosed.
pub const MAX_DIAGNOSED_DIM: usize = 600;

/// Why a run stopped or is doubtful: the published list (kebab-case ids in JS,
/// `diagnosisCodes()` in the labs package).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, tsify::Tsify)]
#[tsify(rename = "DiagnosisCode")]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    /// An explicit adaptive method held to steps far below what accuracy needs,
    /// because hλ of a Jacobian eigenvalue sits on its region's boundary.
    Stiff,
    /// A fixed step with hλ outside the method's region: the numerical solution grows
    /// where the true one does not. Comes with the largest stable h.
    UnstableStep,
    /// Newton's method of an implicit step failed (did not converge, or its matrix is
    /// singular).
    Newton,
    /// f itself produced NaN or ±∞ (a division by zero, a logarithm of a negative…).
    NotFinite,
    /// The exact solution escapes to infinity: no step size or method helps.
    SolutionBlowUp,
    /// The step budget ran out with no stiffness to explain it.
    MaxSteps,
    /// rtol below what round-off allows.
    ToleranceTooTight,
    /// An event that fires again and again with vanishing spacing (a chattering switch).
    EventChatter,
    /// The step size underflowed at a point with no other explanation (f changes too
    /// abruptly there).
    StepUnderflow,
    /// A constrained mechanism at a singular configuration (redundant joints, Φ_q
    /// losing rank).
    SingularMechanism,
    /// The run used its work budget (`maxWork`) before reaching t1.
    WorkBudget,
}

impl Code {
    /// Every code, in the order of the published list.
    pub const ALL: &'static [Code] = &[
        Code::Stiff,
        Code::UnstableStep,
        Code::Newton,
        Code::NotFinite,
        Code::SolutionBlowUp,
        Code::MaxSteps,
        Code::ToleranceTooTight,
        Code::EventChatter,
        Code::StepUnderflow,
        Code::SingularMechanism,
        Code::WorkBudget,
    ];

    /// The code's id as JS sees it.
    pub fn id(self) -> &'static str {
        match self {
            Code::Stiff => "stiff",
            Code::UnstableStep => "unstable-step",
            Code::Newton => "newton",
            Code::NotFinite => "not-finite",
            Code::SolutionBlowUp => "solution-blow-up",
            Code::MaxSteps => "max-steps",
            Code::ToleranceTooTight => "tolerance-too-tight",
            Code::EventChatter => "event-chatter",
            Code::StepUnderflow => "step-underflow",
            Code::SingularMechanism => "singular-mechanism",
            Code::WorkBudget => "work-budget",
        }
    }
}

/// One setting change that cures the diagnosed problem, and the button's words.
#[derive(Debug, Clone, PartialEq, Serialize, Default, tsify::Tsify)]
#[tsify(rename = "DiagnosisFix")]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    /// The button's label ("Run with ros4", "Use h ≤ 0.004").
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub method: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub h: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub rtol: Option<f64>,
}

/// Why a run stopped or why its result is doubtful.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct Diagnosis {
    #[tsify(type = "DiagnosisCode")]
    pub code: Code,
    /// What happened, in plain words.
    pub message: String,
    /// What to do about it, naming controls the page has.
    pub advice: String,
    /// Where it happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub t: Option<f64>,
    /// The numbers behind it (eigenvalue, hλ, the region's extent…).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub detail: Option<String>,
    /// A one-click fix, when one setting change cures it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional, type = "DiagnosisFix")]
    pub fix: Option<Fix>,
}

impl Diagnosis {
    /// The message and the advice as one sentence pair: the run's `warning`.
    pub fn text(&self) -> String {
        format!("{} {}", self.message, self.advice)
    }
}

type C = Complex<f64>;

/// Eigenvalues of a square matrix, by decreasing modulus; `None` when it is larger
/// than `max_dim`, not finite, or the iteration does not converge.
pub fn eigenvalues(jacobian: DMatrix<f64>, max_dim: usize) -> Option<Vec<C>> {
    let n = jacobian.nrows();
    if n > max_dim || jacobian.iter().any(|v| !v.is_finite()) {
        return None;
    }
    if n == 0 {
        return Some(Vec::new());
    }
    let schur = Schur::try_new(jacobian, f64::EPSILON, 100 * n)?;
    let mut values: Vec<C> = schur.complex_eigenvalues().iter().copied().collect();
    values.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    Some(values)
}

/// What a run recorded, for the diagnosis: its points (row-major y), step sizes and
/// how far it got.
pub struct Record<'a> {
    pub t: &'a [f64],
    pub y: &'a [f64],
    pub h: &'a [f64],
}

/// The diagnosis of a finished run, `None` when nothing is wrong.
pub fn diagnose(
    spec: &SolveSpec,
    run: &Integrator,
    stop: Option<&OdeError>,
    record: &Record,
) -> Option<Diagnosis> {
    Diagnoser { spec, run, record }.diagnose(stop)
}

/// The largest |y| of a run's points over its own scale (the larger of 1 and |y0|∞);
/// NaN counts as infinite growth.
pub fn growth_of(y0: &[f64], y: &[f64]) -> f64 {
    let scale = y0.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
    let peak = y.iter().fold(0.0_f64, |m, v| {
        if v.is_nan() {
            f64::INFINITY
        } else {
            m.max(v.abs())
        }
    });
    peak / scale
}

fn growth(run: &Integrator, record: &Record) -> f64 {
    growth_of(&run.y0, record.y)
}

struct Diagnoser<'a> {
    spec: &'a SolveSpec,
    run: &'a Integrator,
    record: &'a Record<'a>,
}

/// The binding eigenvalue of a spectrum for a method: the one whose ray leaves the
/// region first, with the largest stable h it allows and the region's extent there.
struct Binding {
    lambda: C,
    h_max: f64,
    extent: f64,
}

/// The step to advise below the stability limit `h_max`: `h_max` rounded down to two
/// significant digits, and strictly below it where the rounding lands on the limit and
/// the amplification is a matrix (a second-order method, a multistep method). On the edge
/// a scalar |R| = 1 keeps a mode, but a matrix may have a double eigenvalue of modulus 1:
/// Euler 2 and Störmer–Verlet on q'' = −ω²q at hω = 2 have M with trace −2 and
/// determinant 1 (Schwab & Delhaes §7.4), a Jordan block at −1, under which the swing
/// grows linearly (1000-fold in 500 steps of h = 0.2 on the spring with ω = 10).
fn stable_step(amp: &Amplification, h_max: f64) -> f64 {
    let hs = round_down(h_max);
    let scalar = matches!(amp, Amplification::Rational(_) | Amplification::Exp);
    if scalar || hs < h_max * (1.0 - 1e-6) {
        hs
    } else {
        round_down(h_max * (1.0 - 1e-5))
    }
}

/// A number rounded down to two significant digits (a stable h stays stable).
fn round_down(x: f64) -> f64 {
    if !(x > 0.0 && x.is_finite()) {
        return x;
    }
    let e = crate::math::log10(x).floor() as i32 - 1;
    let p = crate::math::powi(10.0, e);
    // A hair's tolerance, so that 0.0039999999 (a boundary found by bisection) is 0.004.
    let d = (x / p * (1.0 + 1e-6)).floor();
    // 10^e may be inexact: print-exact by dividing by the reciprocal when e < 0.
    if e < 0 {
        d / crate::math::powi(10.0, -e)
    } else {
        d * p
    }
}

fn complex_text(z: C) -> String {
    if z.im.abs() <= 1e-9 * z.norm() {
        num(z.re)
    } else if z.re.abs() <= 1e-9 * z.norm() {
        format!("±{}i", num(z.im.abs()))
    } else {
        format!("{} ± {}i", num(z.re), num(z.im.abs()))
    }
}

/// The L-stable methods a stiff run can switch to, by what they need.
const IMPLICIT_FAMILY: &str = "ros4, radau5, backward-euler or bdf2";

impl Diagnoser<'_> {
    fn method_id(&self) -> &'static str {
        self.run.method.id
    }

    fn dim(&self) -> usize {
        self.run.info.dim
    }

    fn names(&self) -> &[String] {
        &self.run.info.names
    }

    /// The run's point `i` (of the record).
    fn point(&self, i: usize) -> (f64, &[f64]) {
        let d = self.dim();
        (self.record.t[i], &self.record.y[i * d..(i + 1) * d])
    }

    fn n_points(&self) -> usize {
        self.record.t.len()
    }

    fn fixed_h(&self) -> Option<f64> {
        self.run.grid().map(|grid| grid.h)
    }

    /// The smallest rtol the spec asked for (error control ran with at least
    /// [`RTOL_FLOOR`]).
    fn rtol_min(&self) -> f64 {
        self.spec
            .tolerance(self.dim())
            .map_or(f64::INFINITY, |t| t.rtol_min())
    }

    fn diagnose(&self, stop: Option<&OdeError>) -> Option<Diagnosis> {
        let adaptive = self.fixed_h().is_none();
        if adaptive && self.rtol_min() < RTOL_FLOOR {
            return Some(self.tolerance_too_tight(stop));
        }
        let Some(stop) = stop else {
            // A run that reached t1: doubtful only when it grew past its own scale and
            // the spectrum says the method was unstable.
            let g = growth(self.run, self.record);
            if g > GROWTH {
                return self.unstable(None).map(|(d, _)| d);
            }
            return None;
        };
        if let Some(d) = self.not_finite() {
            return Some(d);
        }
        match stop {
            OdeError::NewtonFailed {
                t,
                h,
                iterations,
                reason,
            } => Some(self.newton(
                *t,
                match reason {
                    // RADAU5 gives up at θ ≥ 0.99 (Hairer & Wanner §IV.8), the others at
                    // θ ≥ 1: a correction that barely shrinks, or keeps its size, has not
                    // grown and is not called so.
                    NewtonReason::Diverged { theta } if *theta < 1.01 => format!(
                        "Newton's method stalls at t = {} with h = {}: each correction is {} \
                         times the one before although the Jacobian had just been evaluated \
                         at the iterate (Newton needs each clearly smaller than the last), \
                         so this step's implicit equation has no solution Newton can reach \
                         from the start",
                        num(*t),
                        num(*h),
                        num(*theta)
                    ),
                    NewtonReason::Diverged { theta } => format!(
                        "Newton's method diverges at t = {} with h = {}: a correction grew \
                         {}-fold although the Jacobian had just been evaluated at the \
                         iterate, so this step's implicit equation has no solution Newton \
                         can reach from the start",
                        num(*t),
                        num(*h),
                        num(*theta)
                    ),
                    NewtonReason::SlowContraction { theta } => format!(
                        "Newton's method contracts too slowly at t = {} with h = {}: after \
                         {iterations} iterations each correction is still {} of the one \
                         before",
                        num(*t),
                        num(*h),
                        num(*theta)
                    ),
                    NewtonReason::Singular { what } => format!(
                        "the Newton matrix {what} is singular at t = {} with h = {}, so the \
                         implicit step cannot be solved",
                        num(*t),
                        num(*h)
                    ),
                    NewtonReason::NotFinite { component } => format!(
                        "f is not finite in equation {} at a Newton iterate at t = {} with \
                         h = {}: the iteration left the region where the equations are \
                         defined",
                        component + 1,
                        num(*t),
                        num(*h)
                    ),
                },
            )),
            OdeError::SingularMatrix { t, h, what } => Some(self.newton(
                *t,
                format!(
                    "the Newton matrix {what} is singular at t = {} with h = {}, so the \
                     implicit step cannot be solved",
                    num(*t),
                    num(*h)
                ),
            )),
            OdeError::ConstraintNewtonFailed {
                t, h, iterations, ..
            } => Some(self.newton(
                *t,
                format!(
                    "Newton on the position constraints did not converge in {iterations} \
                     iterations at t = {} with h = {}",
                    num(*t),
                    num(*h)
                ),
            )),
            OdeError::SingularSaddlePoint { t, .. }
            | OdeError::IllConditionedPartition { t, .. } => Some(Diagnosis {
                code: Code::SingularMechanism,
                message: format!("The mechanism reached a singular configuration: {stop}."),
                advice: "No step size helps at a singular configuration: change the \
                         initial state or the parameters, or try another formulation."
                    .into(),
                t: Some(*t),
                detail: None,
                fix: None,
            }),
            OdeError::AdaptiveBudget { t, max_steps } => Some(self.budget(*t, *max_steps)),
            OdeError::EventBudget { t, .. } => self.chatter(*t, true),
            OdeError::WorkBudget { t, max_work } => Some(self.work_budget(*t, *max_work)),
            OdeError::StepSizeUnderflow { t, h } => Some(self.underflow(*t, *h)),
            OdeError::BlewUp { t, h } | OdeError::ExpmNotFinite { t, h } => {
                #[allow(unused_mut)]
                let mut d = self.blew_up(*t, *h);
                #[cfg(feature = "full")]
                if let Some(note) = self.newmark_note() {
                    d.advice = format!("{note} {}", d.advice);
                }
                Some(d)
            }
            _ => None,
        }
    }

    /// f at the last point reached, when it is not finite: names the equations.
    fn not_finite(&self) -> Option<Diagnosis> {
        let n = self.n_points();
        if n == 0 {
            return None;
        }
        let (t, y) = self.point(n - 1);
        if y.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mut f = vec![0.0; self.dim()];
        self.run.model.rhs(t, y, &mut f);
        let bad: Vec<usize> = (0..f.len()).filter(|&i| !f[i].is_finite()).collect();
        let &first = bad.first()?;
        let name = &self.names()[first];
        let what = if f[first].is_nan() {
            "is not a number (0/0, ∞ − ∞, a square root or logarithm of a negative number)"
        } else {
            "is infinite (a division by zero, or an overflow)"
        };
        let state: Vec<String> = self
            .names()
            .iter()
            .zip(y)
            .take(6)
            .map(|(n, v)| format!("{n} = {}", num(*v)))
            .collect();
        let place = self
            .equation_place(name)
            .map(|(l, c)| format!(" (line {l}, column {c} of your system)"))
            .unwrap_or_default();
        let others = if bad.len() > 1 {
            format!(" ({} equations in all)", bad.len())
        } else {
            String::new()
        };
        Some(Diagnosis {
            code: Code::NotFinite,
            message: format!(
                "The right-hand side is not finite at t = {}: equation {name}'{place} \
                 {what}{others} at {}.",
                num(t),
                state.join(", ")
            ),
            advice: "No step size or method can help: change the equation or the initial \
                     values so that f stays finite."
                .into(),
            t: Some(t),
            detail: Some(format!("{name}' = {}", num(f[first]))),
            fix: None,
        })
    }

    /// Line and column (1-based) of the equation `name' = …` in the spec's system text.
    fn equation_place(&self, name: &str) -> Option<(usize, usize)> {
        let text = self.spec.system.as_deref()?;
        // An indexed state u[3] is written in the family's line `u[i]' = …`.
        let base = name.split('[').next().unwrap_or(name);
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let col = line.chars().count() - trimmed.chars().count() + 1;
            if let Some(rest) = trimmed.strip_prefix(base) {
                let rest = rest.trim_start();
                let rest = if rest.starts_with('[') {
                    rest.split_once(']').map_or("", |(_, r)| r)
                } else {
                    rest
                };
                if rest.trim_start().starts_with('\'') {
                    return Some((i + 1, col));
                }
            }
        }
        None
    }

    fn jacobian_at(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let n = self.dim();
        if n > MAX_DIAGNOSED_DIM {
            return None;
        }
        if let Some(j) = self.run.model.jacobian(t, y) {
            return Some(j);
        }
        // Forward differences, only for the diagnosis of a model without a Jacobian.
        let mut f0 = vec![0.0; n];
        self.run.model.rhs(t, y, &mut f0);
        let mut j = DMatrix::zeros(n, n);
        let mut yp = y.to_vec();
        let mut f1 = vec![0.0; n];
        for c in 0..n {
            let d = f64::EPSILON.sqrt() * y[c].abs().max(1.0);
            yp[c] = y[c] + d;
            self.run.model.rhs(t, &yp, &mut f1);
            for r in 0..n {
                j[(r, c)] = (f1[r] - f0[r]) / d;
            }
            yp[c] = y[c];
        }
        Some(j)
    }

    /// The method's amplification, when the stability lab knows it.
    fn amplification(&self) -> Option<Amplification> {
        let id = self.method_id();
        if !crate::stability::amplification::knows(id) || id == "slowfast" {
            return None;
        }
        Amplification::from_spec(&StabilitySpec {
            method: id.into(),
            ..Default::default()
        })
        .ok()
    }

    /// The eigenvalue that limits h most, over the decaying and oscillating modes
    /// (Re λ ≤ 0.1 |λ|: a mode growing faster is the equation's own growth, which no
    /// region contains), at (t, y).
    fn binding(&self, amp: &Amplification, t: f64, y: &[f64]) -> Option<Binding> {
        let values = eigenvalues(self.jacobian_at(t, y)?, MAX_DIAGNOSED_DIM)?;
        let value = |z: C| amp.value(z);
        // The ξ-plane of a second-order method stands for a complex pair λ, λ̄ of an
        // underdamped mode (Ω² = |ξ|², 2βΩ = −2 Re ξ, Schwab & Delhaes after eq. 7.13). A
        // real eigenvalue belongs to an overdamped pair it cannot stand for (on the
        // negative real axis it reads as critically damped, β = 1): Euler 2 on the spring
        // with c = 1000 (λ = −0.1, −999.9) is stable up to h = 0.0019998, where the
        // ξ-plane would say 0.00082. Such a mode is left to the measured advice.
        let second_order = crate::method::info(self.method_id()).is_ok_and(|i| i.second_order);
        let mut best: Option<Binding> = None;
        // One boundary search per direction: a heat equation's 500 eigenvalues share one ray.
        let mut rays: Vec<(i64, f64)> = Vec::new();
        for &lambda in &values {
            let r = lambda.norm();
            if r.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || lambda.re > 0.1 * r {
                continue;
            }
            if second_order && lambda.im.abs() <= 1e-12 * r {
                continue;
            }
            // An undamped mode's eigenvalue comes out of the eigen-solver with a real part
            // of round-off size (the stiff double pendulum's bending mode: 1.5e-7 ± 1535i).
            // Along such a ray every consistent method is unstable right at 0, since
            // |R(z)| ≈ |e^z| > 1 there, which would read "no step size is stable": the
            // mode is on the imaginary axis, where rk4 reaches 2√2.
            let lambda = if lambda.re > 0.0 && lambda.re <= ROUND_OFF_RE * r {
                C::new(0.0, lambda.im)
            } else {
                lambda
            };
            let key = (crate::math::atan2(lambda.im, lambda.re) * 1e4).round() as i64;
            let extent = match rays.iter().find(|(k, _)| *k == key) {
                Some(&(_, e)) => e,
                None => {
                    let e = boundary_along(&value, lambda / r).unwrap_or(0.0);
                    rays.push((key, e));
                    e
                }
            };
            let h_max = extent / r;
            if best.as_ref().is_none_or(|b| h_max < b.h_max) {
                best = Some(Binding {
                    lambda,
                    h_max,
                    extent,
                });
            }
        }
        best
    }

    /// Indices of the points where the run still was at its own scale (≤ 10 × the
    /// larger of 1 and |y0|), the last few of them.
    fn sane_points(&self) -> Vec<usize> {
        let scale = self.run.y0.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        let d = self.dim();
        let sane: Vec<usize> = (0..self.n_points())
            .filter(|&i| {
                self.record.y[i * d..(i + 1) * d]
                    .iter()
                    .all(|v| v.abs() <= 10.0 * scale)
            })
            .collect();
        // Points spread evenly over the sane run (a nonlinear problem's spectrum moves:
        // HIRES's fastest eigenvalue grows along the run) and its last few; only the
        // start for a system of more than 50 states, whose every spectrum costs n³.
        let mut picks = vec![0];
        let k = sane.len();
        if k > 0 && d <= 50 {
            let spread = 16;
            let mut add = |i: usize| {
                if !picks.contains(&sane[i]) {
                    picks.push(sane[i]);
                }
            };
            for j in 1..=spread {
                add(j * (k - 1) / spread);
            }
            for back in [k / 40, k / 10] {
                add(k - 1 - back.min(k - 1));
            }
        }
        picks
    }

    /// A fixed-step run that grew: `unstable-step` when hλ of the spectrum at a point
    /// before the growth is outside the region. Returns the diagnosis and the binding
    /// eigenvalue's time.
    fn unstable(&self, stopped: Option<(f64, f64)>) -> Option<(Diagnosis, f64)> {
        let h = self.fixed_h()?;
        let amp = self.amplification()?;
        // The spectrum along the whole interval, from a run of an L-stable method: a
        // nonlinear problem's eigenvalues move (Robertson's and HIRES's fastest grow
        // later in the run), and a blown-up run saw only its beginning, its last points
        // already carrying the growing mode. The run's own points (those still at its
        // scale) stand in when that run is not available (more than 50 states).
        let mut points = self.stable_trajectory();
        if points.is_empty() {
            points = self
                .sane_points()
                .into_iter()
                .map(|i| {
                    let (t, y) = self.point(i);
                    (t, y.to_vec())
                })
                .collect();
        } else {
            // The run's start first: where the binding eigenvalue is the same all along
            // (a linear spring), the message names t0, not the reference run's first
            // sample (t1/32), which would suggest a time at which something changed.
            let (t, y) = self.point(0);
            points.insert(0, (t, y.to_vec()));
        }
        let mut worst: Option<(Binding, f64)> = None;
        for (t, y) in points {
            if let Some(b) = self.binding(&amp, t, &y) {
                if worst.as_ref().is_none_or(|(w, _)| b.h_max < w.h_max) {
                    worst = Some((b, t));
                }
            }
        }
        let (b, t_b) = worst?;
        if h <= b.h_max * (1.0 + 1e-9) {
            return None;
        }
        let m = self.method_id();
        let what = match stopped {
            Some((t, t_last)) => format!(
                "The solution blew up (past 1e150 or NaN) at t = {} (in the step from t = {}, the last point \
                 drawn): {m} is unstable at h = {}.",
                num(t),
                num(t_last),
                num(h)
            ),
            None => {
                let g = growth(self.run, self.record);
                format!(
                    "The solution blew up: it grew to {} times its starting size, while \
                     {m} is unstable at h = {}.",
                    num(g),
                    num(h)
                )
            }
        };
        let z = b.lambda * h;
        // The spectrum is read along a stable ros4 run: its binding point may lie past
        // where this run stopped, which the reader would otherwise take for a misprint.
        let beyond = if t_b > self.t_last() {
            ", on a stable ros4 run of the same problem, past where this run got"
        } else {
            ""
        };
        let reason = format!(
            "The Jacobian's eigenvalue λ ≈ {} (at t = {}{beyond}) puts hλ ≈ {} outside \
             {m}'s stability region, which reaches {} along that direction.",
            complex_text(b.lambda),
            num(t_b),
            complex_text(z),
            num(b.extent)
        );
        let (advice, fix) = if b.h_max > 0.0 {
            let hs = stable_step(&amp, b.h_max);
            let why = if hs < round_down(b.h_max) {
                format!(
                    "steps below h = {} are stable for this spectrum; on that edge itself \
                     {m}'s amplification matrix may have a double eigenvalue of modulus 1, \
                     under which the solution grows linearly",
                    num(b.h_max)
                )
            } else {
                "the largest stable step for this spectrum".to_string()
            };
            (
                format!(
                    "Use h ≤ {} ({why}), or an \
                     implicit L-stable method ({IMPLICIT_FAMILY}), which has no such limit.",
                    num(hs)
                ),
                Some(Fix {
                    label: format!("Use h ≤ {}", num(hs)),
                    h: Some(hs),
                    ..Default::default()
                }),
            )
        } else {
            (
                format!(
                    "No step size is stable for this eigenvalue with {m}: use a method \
                     whose region contains it, e.g. rk4, or an implicit method \
                     ({IMPLICIT_FAMILY})."
                ),
                None,
            )
        };
        Some((
            Diagnosis {
                code: Code::UnstableStep,
                message: format!("{what} {reason}"),
                advice,
                t: Some(stopped.map_or(t_b, |s| s.0)),
                detail: Some(format!(
                    "λ = {} at t = {}; largest stable h = {}",
                    complex_text(b.lambda),
                    num(t_b),
                    num(b.h_max)
                )),
                fix,
            },
            t_b,
        ))
    }

    /// Up to 32 states spread over [t0, t1] of the same problem run by ros4 (adaptive,
    /// rtol 1e-6), for systems of at most 50 states; empty if that run fails early.
    fn stable_trajectory(&self) -> Vec<(f64, Vec<f64>)> {
        const SAMPLES: usize = 32;
        if self.dim() > 50 {
            return Vec::new();
        }
        let spec = self.adaptive_spec("ros4", 1e-6);
        let Ok(mut run) = Integrator::new(&spec) else {
            return Vec::new();
        };
        let (t0, t1) = (run.t0, run.t1);
        let mut out = Vec::new();
        let mut next = 1;
        // A stop or a failure ends the samples where they are.
        let _ = run.run_steps(|run, _| {
            let due = t0 + (t1 - t0) * next as f64 / SAMPLES as f64;
            if run.t >= due {
                out.push((run.t, run.y.clone()));
                while next <= SAMPLES && t0 + (t1 - t0) * next as f64 / SAMPLES as f64 <= run.t {
                    next += 1;
                }
            }
            Ok(if next <= SAMPLES {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            })
        });
        out
    }

    /// The last point reached.
    fn t_last(&self) -> f64 {
        self.record.t.last().copied().unwrap_or(self.run.t0)
    }

    /// Why a Newmark run with β < γ/2 can blow up: it is only conditionally stable.
    #[cfg(feature = "full")]
    fn newmark_note(&self) -> Option<String> {
        use crate::method::generalized_alpha::Coefficients;
        if self.spec.method != "newmark" {
            return None;
        }
        let p = self.spec.method_params.clone().unwrap_or_default();
        let c = Coefficients::from_params("newmark", &p).ok()?;
        let critical = Coefficients::newmark_critical_omega_h(c.beta, c.gamma)?;
        Some(format!(
            "Newmark's β = {} is below γ/2 = {}: the method is only conditionally \
             stable, for ωh ≤ 1/√(γ/2 − β) = {} on an undamped mode of frequency ω \
             (Hughes, The Finite Element Method, §9.1); raise β to γ/2 or more (β = 1/4 \
             with γ = 1/2: average acceleration) to be stable at every h, or keep \
             h ≤ {}/ω.",
            num(c.beta),
            num(c.gamma / 2.0),
            num(critical),
            num(critical)
        ))
    }

    /// A fixed-step run that passed the hard limit (or whose exponential overflowed).
    fn blew_up(&self, t: f64, h: f64) -> Diagnosis {
        let t_last = self.t_last();
        if let Some((d, _)) = self.unstable(Some((t, t_last))) {
            return d;
        }
        // Not the method's region: does a step four times smaller blow up as early?
        if self.refined_blows_up_by(t) {
            // A fixed step lags behind an escape: Euler at h = 0.1 carries x' = x² from
            // x(0) = 1 on to t = 2.1, although x = 1/(1 − t) escapes at t = 1. An
            // adaptive run's steps shrink to nothing where the solution escapes.
            return match self.adaptive_blow_up_by(t) {
                Some(escape) if escape < t - h => self.solution_blow_up(
                    escape,
                    &format!(
                        "a run with a step four times smaller blows up as early; an \
                         adaptive dp45 run gets no further than t = {} (this run's fixed \
                         step h = {} carried it on to t = {})",
                        num(escape),
                        num(h),
                        num(t)
                    ),
                ),
                _ => self
                    .solution_blow_up(t, "a run with a step four times smaller blows up as early"),
            };
        }
        let h4 = round_down(h / 4.0);
        Diagnosis {
            code: Code::UnstableStep,
            message: format!(
                "The solution blew up (past 1e150 or NaN) at t = {} (in the step from t = {}, the last point \
                 drawn) with h = {}, and a run with a step four times smaller does not: \
                 the method is unstable at this step size.",
                num(t),
                num(t_last),
                num(h)
            ),
            advice: format!(
                "Use a smaller h (h = {} gets past t = {}), or an implicit method \
                 ({IMPLICIT_FAMILY}).",
                num(h4),
                num(t)
            ),
            t: Some(t),
            detail: None,
            fix: Some(Fix {
                label: format!("Use h = {}", num(h4)),
                h: Some(h4),
                ..Default::default()
            }),
        }
    }

    /// Whether the same spec with h/4 (fixed step) also stops or grows past
    /// [`GROWTH`] by `t` (plus a few of its own steps).
    fn refined_blows_up_by(&self, t: f64) -> bool {
        let Some(h) = self.fixed_h() else {
            return false;
        };
        let mut spec = self.spec.clone();
        spec.h = Some(h / 4.0);
        spec.t_eval = None;
        spec.t1 = Some((t + 4.0 * h).min(self.run.t1));
        let Ok(mut run) = Integrator::new(&spec) else {
            return false;
        };
        self.stops_or_grows(&mut run)
    }

    /// Where the same problem run by dp45 (adaptive, rtol 1e-8) stops or grows past
    /// [`GROWTH`], if it does before `t` (plus a little): the escape time, which a
    /// fixed-step run overshoots.
    fn adaptive_blow_up_by(&self, t: f64) -> Option<f64> {
        let mut spec = self.adaptive_spec("dp45", 1e-8);
        spec.t1 = Some(t.min(self.run.t1));
        let mut run = Integrator::new(&spec).ok()?;
        self.stops_or_grows(&mut run).then_some(run.t)
    }

    /// The same problem with `method`, adaptive at `rtol` (its own atol, controller and
    /// step bounds), without tEval.
    fn adaptive_spec(&self, method: &str, rtol: f64) -> SolveSpec {
        let mut spec = self.spec.clone();
        spec.method = method.into();
        spec.h = None;
        spec.adaptive = Some(true);
        spec.rtol = Some(crate::spec::Tol::Scalar(rtol));
        spec.atol = None;
        spec.t_eval = None;
        spec.controller = None;
        spec.h_max = None;
        spec.tableau = None;
        spec
    }

    /// Runs `run` to its end unless it stops, fails or grows past [`GROWTH`] times the
    /// start's size first (paused: it grew; stopped or failed: it blew up); whether it did.
    fn stops_or_grows(&self, run: &mut Integrator) -> bool {
        let scale = self.run.y0.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        let ended = run.run_steps(|run, _| {
            Ok(
                if run.y.iter().any(|v| v.is_nan() || v.abs() > GROWTH * scale) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                },
            )
        });
        !matches!(ended, Ok(Ended::Finished))
    }

    fn solution_blow_up(&self, t: f64, evidence: &str) -> Diagnosis {
        let g = growth(self.run, self.record);
        Diagnosis {
            code: Code::SolutionBlowUp,
            message: format!(
                "The exact solution itself blows up near t = {}: the state grew to {} \
                 times its starting size at the rate the equation gives, and {evidence}.",
                num(t),
                num(g)
            ),
            advice: format!(
                "No step size or method will help: this is the equation's own behaviour. \
                 End the run before t = {} (t1), or change the initial values or the \
                 equation.",
                num(t)
            ),
            t: Some(t),
            detail: None,
            fix: None,
        }
    }

    /// Step-size underflow of an adaptive run.
    fn underflow(&self, t: f64, h: f64) -> Diagnosis {
        if growth(self.run, self.record) > GROWTH {
            return self.solution_blow_up(
                t,
                &format!(
                    "the adaptive steps shrank to nothing (h = {}) while |y| grew without bound",
                    num(h)
                ),
            );
        }
        if let Some(d) = self.stiff(t, None) {
            return d;
        }
        // Far from t = 0 the doubles themselves are coarse: at t = 1e12 they are 1.2e-4
        // apart, so a step the error control needs can be below t's resolution with
        // nothing abrupt in f.
        let spacing = t.abs() * f64::EPSILON;
        if spacing > 1e-12 * (self.run.t1 - self.run.t0).abs() {
            return Diagnosis {
                code: Code::StepUnderflow,
                message: format!(
                    "The step is below t's resolution: near t = {} consecutive floating-point \
                     numbers are about {} apart, so no step shorter than about 16 of those \
                     spacings can be told from t, and the error control asked for h = {}.",
                    num(t),
                    num(spacing),
                    num(h)
                ),
                advice: format!(
                    "Move the time origin: run from t0 = 0 over the same length of time (write \
                     the equation in s = t − {} if it depends on t).",
                    num(self.run.t0)
                ),
                t: Some(t),
                detail: None,
                fix: None,
            };
        }
        Diagnosis {
            code: Code::StepUnderflow,
            message: format!(
                "The step size underflowed at t = {}: the error control asked for h = {}, \
                 below what floating point can resolve at this t. f changes too abruptly \
                 there (a discontinuity or a singularity of the equation).",
                num(t),
                num(h)
            ),
            advice: "Look at the equation near this t; if f switches there, declare the \
                     switch as an event so that steps end on it."
                .into(),
            t: Some(t),
            detail: None,
            fix: None,
        }
    }

    /// The step budget ran out.
    fn budget(&self, t: f64, max_steps: usize) -> Diagnosis {
        if let Some(d) = self.chatter(t, false) {
            return d;
        }
        if let Some(d) = self.stiff(t, Some(max_steps)) {
            return d;
        }
        let change = if self.fixed_h().is_some() {
            "a larger h"
        } else {
            "looser tolerances (rtol, atol)"
        };
        Diagnosis {
            code: Code::MaxSteps,
            message: format!(
                "The run used its budget of {max_steps} steps and stopped at t = {}. \
                 Nothing in the Jacobian's spectrum holds the step back: the solution \
                 needs that many steps at these settings.",
                num(t)
            ),
            advice: format!(
                "Shorten the interval (t1) or use {change} or a higher-order method that \
                 takes longer steps; the page has no control for the step budget itself \
                 (a spec's maxSteps)."
            ),
            t: Some(t),
            detail: None,
            fix: None,
        }
    }

    /// An adaptive explicit run held to hλ on its region's boundary (accepted steps near
    /// the end, against the spectrum at the last point).
    fn stiff(&self, t: f64, budget: Option<usize>) -> Option<Diagnosis> {
        if self.fixed_h().is_some() || self.run.method.needs_jacobian {
            return None;
        }
        let n = self.n_points();
        if n < 2 {
            return None;
        }
        let amp = self.amplification()?;
        let (t_last, y_last) = self.point(n - 1);
        let b = self.binding(&amp, t_last, y_last)?;
        if !(b.h_max > 0.0 && b.h_max.is_finite()) {
            return None;
        }
        // The accepted steps near the end: their median.
        let hs = &self.record.h[self.record.h.len().saturating_sub(50)..];
        let mut sorted: Vec<f64> = hs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let h_typ = *sorted.get(sorted.len() / 2)?;
        let ratio = h_typ / b.h_max;
        // On the boundary, and along a decaying direction (Re hλ ≤ −1): an oscillatory
        // mode near the imaginary axis (a pendulum at dp45's steps) limits h for
        // accuracy as much as for stability, and is no sign of stiffness (Hairer &
        // Wanner, Solving ODEs II, §IV.2, the stiffness test of DOPRI5).
        if !(0.2..=5.0).contains(&ratio) || b.lambda.re * h_typ > -1.0 {
            return None;
        }
        let m = self.method_id();
        let stop = match budget {
            Some(max) => format!(
                "It used its budget of {max} steps and stopped at t = {}.",
                num(t)
            ),
            None => format!("Its step size underflowed at t = {}.", num(t)),
        };
        Some(Diagnosis {
            code: Code::Stiff,
            message: format!(
                "The problem is stiff: {m} is held to steps of about h = {} near t = {} \
                 by stability, not by accuracy. The Jacobian's eigenvalue λ ≈ {} puts \
                 hλ ≈ {} on the boundary of {m}'s stability region (which reaches {} \
                 along that direction). {stop}",
                num(h_typ),
                num(t_last),
                complex_text(b.lambda),
                complex_text(b.lambda * h_typ),
                num(b.extent)
            ),
            advice: format!(
                "Use an L-stable implicit method ({IMPLICIT_FAMILY}): its region contains \
                 every hλ with Re λ < 0, so this eigenvalue does not limit its step. \
                 Looser tolerances would not help."
            ),
            t: Some(t),
            detail: Some(format!(
                "λ = {}; h ≈ {}; largest stable h {}",
                complex_text(b.lambda),
                num(h_typ),
                num(b.h_max)
            )),
            fix: Some(Fix {
                label: "Run with ros4".into(),
                method: Some("ros4".into()),
                ..Default::default()
            }),
        })
    }

    /// The work budget ran out: what the run computed stands.
    fn work_budget(&self, t: f64, max_work: f64) -> Diagnosis {
        let s = &self.run.stats;
        Diagnosis {
            code: Code::WorkBudget,
            message: format!(
                "The run used its work budget of {} units and stopped at t = {} ({} f \
                 evaluations, {} Jacobians and {} LU factorisations of {} states): what \
                 it computed up to there is shown.",
                num(max_work),
                num(t),
                s.nfev,
                s.njev,
                s.nlu,
                self.dim()
            ),
            advice: "Shorten the interval (t1), use fewer states, looser tolerances or a \
                     larger h, or a method suited to the problem (an implicit one if it \
                     is stiff)."
                .into(),
            t: Some(t),
            detail: None,
            fix: None,
        }
    }

    /// Many events, the last ones with vanishing spacing; or (`over_budget`) more events
    /// than a run may keep, whatever their spacing.
    fn chatter(&self, t: f64, over_budget: bool) -> Option<Diagnosis> {
        const LAST: usize = 10;
        let events = &self.run.events;
        if events.len() < LAST {
            return None;
        }
        let last = &events[events.len() - LAST..];
        let span = last[LAST - 1].t - last[0].t;
        let run_span = (t - self.run.t0).abs().max(f64::MIN_POSITIVE);
        if span > 1e-6 * run_span && !over_budget {
            return None;
        }
        let index = last[LAST - 1].index;
        let name = self.event_name(index);
        Some(Diagnosis {
            code: Code::EventChatter,
            message: format!(
                "The event {name} fired {} times, the last {LAST} within Δt = {} of each \
                 other near t = {}: the solution chatters on the switching surface (it \
                 is pushed back onto it from both sides), and every crossing cuts the step.{}",
                events.len(),
                num(span),
                num(last[LAST - 1].t),
                if over_budget {
                    " That is more events than a run may keep in memory: the run stopped \
                     there, and what it computed up to there is shown."
                } else {
                    ""
                }
            ),
            advice: "This is the model, not the step size: make the event terminal to stop \
                     there, or write the motion along the surface (a sliding mode) as its \
                     own equation."
                .into(),
            t: Some(last[LAST - 1].t),
            detail: None,
            fix: None,
        })
    }

    fn event_name(&self, index: usize) -> String {
        if let Some(e) = self.spec.events.get(index) {
            return e.id.clone().or_else(|| e.expr.clone()).unwrap_or_default();
        }
        self.run
            .info
            .events
            .iter()
            .filter(|e| e.watched)
            .nth(index)
            .map(|e| e.id.clone())
            .unwrap_or_else(|| format!("#{index}"))
    }

    fn newton(&self, t: f64, what: String) -> Diagnosis {
        let singular = what.contains("singular");
        let advice = if singular {
            "A singular Newton matrix I − γhJ means hγ is close to 1/λ for an eigenvalue \
             λ of the Jacobian, or the Jacobian itself is degenerate: change h slightly, \
             or use ros4 or radau5 with their own step control."
        } else {
            "Take a smaller h (or, adaptive, a smaller rtol), or use ros4, which solves \
             one linear system per stage and needs no Newton iteration."
        };
        Diagnosis {
            code: Code::Newton,
            message: format!("{}{}.", what[..1].to_uppercase(), &what[1..]),
            advice: advice.into(),
            t: Some(t),
            detail: None,
            fix: (self.method_id() != "ros4").then(|| Fix {
                label: "Run with ros4".into(),
                method: Some("ros4".into()),
                ..Default::default()
            }),
        }
    }

    fn tolerance_too_tight(&self, stop: Option<&OdeError>) -> Diagnosis {
        let r = self.rtol_min();
        let outcome = match stop {
            Some(OdeError::StepSizeUnderflow { t, .. }) => {
                format!(" The step size underflowed at t = {}.", num(*t))
            }
            Some(OdeError::AdaptiveBudget { t, max_steps }) => format!(
                " The run used its budget of {max_steps} steps at t = {}.",
                num(*t)
            ),
            Some(e) => format!(" The run stopped: {e}."),
            None => format!(
                " Error estimates that small are rounding noise: the run used rtol = {} \
                 instead, the tightest tolerance double precision can deliver.",
                num(RTOL_FLOOR)
            ),
        };
        Diagnosis {
            code: Code::ToleranceTooTight,
            message: format!(
                "rtol = {} is below what double precision can resolve (about 100 units of \
                 round-off, {}).{outcome}",
                num(r),
                num(RTOL_FLOOR)
            ),
            advice: "Use rtol ≥ 1e-12; 1e-10 is already far below what a plot shows.".into(),
            t: stop.and(Some(self.t_last())),
            detail: None,
            fix: Some(Fix {
                label: "Use rtol = 1e-12".into(),
                rtol: Some(1e-12),
                ..Default::default()
            }),
        }
    }
}
