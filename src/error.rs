//! The one error type of the core: every bad input becomes a variant here, with a
//! message a student can act on. The core never panics on user input.

use crate::math;
use std::fmt;

/// Everything that can go wrong when setting up or running an integration.
#[derive(Debug, Clone, PartialEq)]
pub enum OdeError {
    /// The spec names a model that is not in the catalogue.
    UnknownModel { id: String, known: Vec<String> },
    /// The spec names a method that is not in the catalogue.
    UnknownMethod { id: String, known: Vec<String> },
    /// A parameter name that the model does not have.
    UnknownParam {
        model: String,
        name: String,
        known: Vec<String>,
    },
    /// A parameter outside its allowed range.
    BadParam {
        name: String,
        value: f64,
        greater_than: f64,
    },
    /// A number that must be finite is NaN or infinite.
    NotFinite { what: String },
    /// The step size is zero, negative or not a number.
    BadStepSize { h: f64 },
    /// The end time is not after the start time.
    BadInterval { t0: f64, t1: f64 },
    /// A vector of the wrong length (initial state, parameters…).
    WrongLength {
        what: String,
        expected: usize,
        got: usize,
    },
    /// Running the spec would take more steps than the budget allows.
    StepBudget { needed: f64, max_steps: usize },
    /// The numerical solution grew past 1e150 or became NaN (the method is unstable
    /// at this step size, or the problem itself blows up).
    BlewUp { t: f64, h: f64 },
    /// An integrator was asked to step past its end time.
    Finished { t1: f64 },
    /// The spec itself could not be read (wrong field type, missing field…).
    BadSpec { message: String },
    /// A homework file (an assignment or a work, `crate::homework`) that does not follow
    /// its format; the message names the place (`tasks[2].check: "value" is missing`).
    BadFile { message: String },
    /// A setting outside its allowed range (rtol ≤ 0, facMin ≥ facMax, …).
    OutOfRange {
        what: String,
        value: f64,
        allowed: String,
    },
    /// A step-size controller kind that does not exist.
    UnknownController { kind: String, known: Vec<String> },
    /// An event id that the model does not declare.
    UnknownEvent {
        model: String,
        id: String,
        known: Vec<String>,
    },
    /// An event entry that names neither (or both) of `id` and `expr`.
    BadEvent { index: usize, message: String },
    /// Output times that are outside [t0, t1] or not increasing.
    BadTEval { message: String },
    /// The adaptive step size fell below the floor 16·eps·|t|: the problem is
    /// singular there, or far too stiff for an explicit method.
    StepSizeUnderflow { t: f64, h: f64 },
    /// The run used up its step budget before reaching t1 (an adaptive run, or a fixed
    /// grid whose steps events kept cutting short).
    AdaptiveBudget { t: f64, max_steps: usize },
    /// More events fired than a run may keep (`driver::record::max_events`): a switch
    /// that chatters. The run stops at the last one, keeping what it computed.
    EventBudget { t: f64, events: usize },
    /// The run used its work budget (`maxWork`, `spec::work_of`) before reaching t1.
    WorkBudget { t: f64, max_work: f64 },
    /// A method for second-order systems paired with a model that is not one.
    NeedsSecondOrderModel { method: String, model: String },
    /// `adaptive: true` for a method without an error estimate.
    NotAdaptive {
        method: String,
        adaptive: Vec<String>,
    },
    /// A method needs the Jacobian ∂f/∂y (or ∂f/∂t) and the model does not provide it,
    /// and finite differences were not requested.
    NoJacobian { method: String, model: String },
    /// The linear system of an implicit or linearly implicit step (I − γhJ, the Newton
    /// matrix, or the fast block g_z) is singular or too ill-conditioned to solve.
    SingularMatrix { t: f64, h: f64, what: String },
    /// Newton's method on the implicit equation of the step (t, h) stopped after
    /// `iterations` corrections without converging; `reason` says why.
    NewtonFailed {
        t: f64,
        h: f64,
        iterations: u32,
        reason: NewtonReason,
    },
    /// A matrix exponential of a step came out non-finite (or its argument was too
    /// large to exponentiate).
    ExpmNotFinite { t: f64, h: f64 },
    /// The saddle-point matrix of Gil, Sanfelice & Nikravesh (LLM) eq. (9) is singular (redundant or
    /// degenerate joints) at the step (t, h).
    SingularSaddlePoint { t: f64, h: f64 },
    /// Newton on the position constraints Φ(v, u) = 0 (state-space recovery, or the
    /// projection) did not converge at the step (t, h).
    ConstraintNewtonFailed {
        t: f64,
        h: f64,
        iterations: u32,
        residual: f64,
    },
    /// Φ_u is ill-conditioned and no coordinate partition fixes it (Φ_q lost rank).
    IllConditionedPartition { t: f64, h: f64, condition: f64 },
    /// A request that needs more memory than a run may use (`driver::record`).
    TooLarge {
        what: String,
        megabytes: f64,
        limit_megabytes: f64,
    },
    /// The spec needs a part of the engine that this build leaves out (cargo feature
    /// `full`): the first-load package pkg/ runs the catalogue models only. `what` names
    /// the part ("your own system (`system`)"). The page's worker recognises the error
    /// (`src/wasm`: its code [`NOT_IN_THIS_BUILD`]) and re-runs the spec in the package
    /// that has the whole engine (pkg-labs/), so a user never sees it.
    NotInThisBuild { what: &'static str },
    /// User text (a system or an expression) that does not parse or does not make
    /// sense. `line` and `column` are 1-based (columns count characters); `snippet` is
    /// the source line and a line of carets under the offending text.
    Parse {
        line: usize,
        column: usize,
        message: String,
        snippet: String,
    },
}

/// The `code` of the JS error of [`OdeError::NotInThisBuild`] (www/worker.ts reads it).
pub const NOT_IN_THIS_BUILD: &str = "not-in-this-build";

impl OdeError {
    /// A stable name of the variant (`unknown-model`, `blew-up`, `parse`, …), the JS
    /// error's `code`: the page tells errors apart by it, never by their text.
    pub fn code(&self) -> &'static str {
        match self {
            OdeError::UnknownModel { .. } => "unknown-model",
            OdeError::UnknownMethod { .. } => "unknown-method",
            OdeError::UnknownParam { .. } => "unknown-param",
            OdeError::BadParam { .. } => "bad-param",
            OdeError::NotFinite { .. } => "not-finite",
            OdeError::BadStepSize { .. } => "bad-step-size",
            OdeError::BadInterval { .. } => "bad-interval",
            OdeError::WrongLength { .. } => "wrong-length",
            OdeError::StepBudget { .. } => "step-budget",
            OdeError::EventBudget { .. } => "event-budget",
            OdeError::WorkBudget { .. } => "work-budget",
            OdeError::BlewUp { .. } => "blew-up",
            OdeError::Finished { .. } => "finished",
            OdeError::BadSpec { .. } => "bad-spec",
            OdeError::BadFile { .. } => "bad-file",
            OdeError::OutOfRange { .. } => "out-of-range",
            OdeError::UnknownController { .. } => "unknown-controller",
            OdeError::UnknownEvent { .. } => "unknown-event",
            OdeError::BadEvent { .. } => "bad-event",
            OdeError::BadTEval { .. } => "bad-t-eval",
            OdeError::StepSizeUnderflow { .. } => "step-size-underflow",
            OdeError::AdaptiveBudget { .. } => "adaptive-budget",
            OdeError::NeedsSecondOrderModel { .. } => "needs-second-order-model",
            OdeError::NotAdaptive { .. } => "not-adaptive",
            OdeError::NoJacobian { .. } => "no-jacobian",
            OdeError::SingularMatrix { .. } => "singular-matrix",
            OdeError::NewtonFailed { .. } => "newton-failed",
            OdeError::ExpmNotFinite { .. } => "expm-not-finite",
            OdeError::SingularSaddlePoint { .. } => "singular-saddle-point",
            OdeError::ConstraintNewtonFailed { .. } => "constraint-newton-failed",
            OdeError::IllConditionedPartition { .. } => "ill-conditioned-partition",
            OdeError::TooLarge { .. } => "too-large",
            OdeError::NotInThisBuild { .. } => NOT_IN_THIS_BUILD,
            OdeError::Parse { .. } => "parse",
        }
    }

    /// The step (t, h) the error happened at, for the errors of a running step.
    pub fn step(&self) -> Option<(f64, f64)> {
        match *self {
            OdeError::BlewUp { t, h }
            | OdeError::StepSizeUnderflow { t, h }
            | OdeError::SingularMatrix { t, h, .. }
            | OdeError::NewtonFailed { t, h, .. }
            | OdeError::ExpmNotFinite { t, h }
            | OdeError::SingularSaddlePoint { t, h }
            | OdeError::ConstraintNewtonFailed { t, h, .. }
            | OdeError::IllConditionedPartition { t, h, .. } => Some((t, h)),
            _ => None,
        }
    }
}

fn list(known: &[String]) -> String {
    known
        .iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A number as a person would write it: up to 7 significant digits, no float noise
/// (212.20000000000002 prints as 212.2), in exponent form outside 1e-4 ≤ |x| < 1e7.
/// The digits are an integer's: Rust's fixed-precision float formatting (`{:.6e}`)
/// would bring ~9 KB of .wasm into the run package for error messages alone.
pub(crate) fn num(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let (digits, exponent) = seven_digits(x.abs());
    let sign = if x < 0.0 { "-" } else { "" };
    let text = if (-4..7).contains(&exponent) {
        // digits · 10^(exponent − 6) with the point placed among zeros as needed.
        let point = exponent + 1;
        let padded = if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else {
            let (whole, fraction) = digits.split_at(point as usize);
            format!("{whole}.{fraction}")
        };
        padded
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = rest.trim_end_matches('0');
        let point = if rest.is_empty() { "" } else { "." };
        format!("{first}{point}{rest}e{exponent}")
    };
    format!("{sign}{text}")
}

/// x > 0 (finite) as seven decimal digits d₀…d₆ and the exponent e of d₀, so that x
/// ≈ d₀.d₁…d₆ · 10^e, the last digit rounded half away from zero.
fn seven_digits(x: f64) -> (String, i32) {
    let mut exponent = math::log10(x).floor() as i32;
    let scaled = |e: i32| {
        // 10^(6 − e) in two factors, so that neither overflows for subnormal x.
        let k = 6 - e;
        (x * math::powi(10.0, k / 2) * math::powi(10.0, k - k / 2)).round()
    };
    let mut d = scaled(exponent);
    // log10 may land a hair off at powers of ten, and rounding may carry to 10^7.
    if d < 1e6 {
        exponent -= 1;
        d = scaled(exponent);
    }
    if d >= 1e7 {
        exponent += 1;
        d = scaled(exponent);
    }
    ((d as u64).to_string(), exponent)
}

/// Why a Newton iteration gave up ([`OdeError::NewtonFailed`]). θ is the contraction
/// rate ‖Δₖ‖/‖Δₖ₋₁‖ of successive corrections (Hairer & Wanner, Solving Ordinary
/// Differential Equations II, 1996, §IV.8, "stopping criterion").
#[derive(Debug, Clone, PartialEq)]
pub enum NewtonReason {
    /// The corrections grew (θ ≥ 1, or left the floating-point range) although the
    /// Jacobian had just been evaluated at the iterate: Newton itself diverges from
    /// this start with this h.
    Diverged { theta: f64 },
    /// The corrections shrink (θ < 1) but too slowly to reach the tolerance within the
    /// iteration limit, even with a Jacobian refreshed at the iterates.
    SlowContraction { theta: f64 },
    /// The Newton matrix (`what`, e.g. I − hJ) is singular at an iterate: some hβλ of
    /// the Jacobian equals 1, or the matrix is not finite.
    Singular { what: String },
    /// f(t, y) is not finite (NaN or ∞) in equation `component` (0-based) at an iterate.
    NotFinite { component: usize },
}

impl NewtonReason {
    /// A short stable name of the reason: `divergence`, `slow-contraction`, `singular`
    /// or `not-finite`.
    pub fn name(&self) -> &'static str {
        match self {
            NewtonReason::Diverged { .. } => "divergence",
            NewtonReason::SlowContraction { .. } => "slow-contraction",
            NewtonReason::Singular { .. } => "singular",
            NewtonReason::NotFinite { .. } => "not-finite",
        }
    }
}

impl fmt::Display for OdeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OdeError::UnknownModel { id, known } => {
                write!(f, "unknown model \"{id}\"; the models are {}", list(known))
            }
            OdeError::UnknownMethod { id, known } => {
                write!(
                    f,
                    "unknown method \"{id}\"; the methods are {}",
                    list(known)
                )
            }
            OdeError::UnknownParam { model, name, known } => write!(
                f,
                "model \"{model}\" has no parameter \"{name}\"; its parameters are {}",
                list(known)
            ),
            OdeError::BadParam {
                name,
                value,
                greater_than,
            } => write!(
                f,
                "parameter {name} must be greater than {}, got {}",
                num(*greater_than),
                num(*value)
            ),
            OdeError::NotFinite { what } => write!(f, "{what} must be a finite number"),
            OdeError::BadStepSize { h } => {
                write!(
                    f,
                    "step size h must be a positive number, got h = {}",
                    num(*h)
                )
            }
            OdeError::BadInterval { t0, t1 } => write!(
                f,
                "end time t1 must be after start time t0, got t0 = {}, t1 = {}",
                num(*t0),
                num(*t1)
            ),
            OdeError::WrongLength {
                what,
                expected,
                got,
            } => {
                write!(f, "{what} must have {expected} entries, got {got}")
            }
            OdeError::StepBudget { needed, max_steps } => write!(
                f,
                "this run needs about {} steps, more than the budget of {max_steps}; \
                 take a larger h, a shorter interval, or raise maxSteps",
                num(needed.round())
            ),
            OdeError::BlewUp { t, h } => write!(
                f,
                "the solution blew up (grew past 1e150) at t = {} with h = {}: \
                 the method is unstable at this step size; try a smaller h",
                num(*t),
                num(*h)
            ),
            OdeError::Finished { t1 } => {
                write!(
                    f,
                    "the integrator has reached its end time t1 = {}",
                    num(*t1)
                )
            }
            OdeError::BadSpec { message } => write!(f, "invalid spec: {message}"),
            OdeError::BadFile { message } => write!(f, "{message}"),
            OdeError::OutOfRange {
                what,
                value,
                allowed,
            } => write!(f, "{what} must be {allowed}, got {}", num(*value)),
            OdeError::UnknownController { kind, known } => write!(
                f,
                "unknown step-size controller kind \"{kind}\"; the kinds are {}",
                list(known)
            ),
            OdeError::UnknownEvent { model, id, known } => {
                if known.is_empty() {
                    write!(
                        f,
                        "unknown event \"{id}\": model \"{model}\" declares no switching functions"
                    )
                } else {
                    write!(
                        f,
                        "unknown event \"{id}\"; model \"{model}\" declares the events {}",
                        list(known)
                    )
                }
            }
            OdeError::BadEvent { index, message } => {
                write!(f, "event {index} of the spec: {message}")
            }
            OdeError::BadTEval { message } => write!(f, "tEval: {message}"),
            OdeError::StepSizeUnderflow { t, h } => write!(
                f,
                "step size underflow at t = {}: the error control asked for h = {}, below \
                 what floating point can resolve at this t; the solution may be singular \
                 there, or the problem too stiff for an explicit method",
                num(*t),
                num(*h)
            ),
            OdeError::NotInThisBuild { what } => write!(
                f,
                "{what} is not in odelab's first-load package pkg/, which leaves it out \
                 to load fast; the package pkg-labs/odelab_labs.js is the whole engine, \
                 with the same solve, Integrator and describeSystem"
            ),
            OdeError::TooLarge {
                what,
                megabytes,
                limit_megabytes,
            } => write!(
                f,
                "{what} needs about {} MB, more than the {} MB a run may use; use fewer \
                 states or fewer output times",
                num(*megabytes),
                num(*limit_megabytes)
            ),
            OdeError::AdaptiveBudget { t, max_steps } => write!(
                f,
                "the run used its budget of {max_steps} steps and stopped at t = {}; \
                 raise maxSteps (or, for an adaptive method, loosen rtol/atol)",
                num(*t)
            ),
            OdeError::EventBudget { t, events } => write!(
                f,
                "{events} events fired up to t = {}, more than a run may keep; the run \
                 stopped there",
                num(*t)
            ),
            OdeError::WorkBudget { t, max_work } => write!(
                f,
                "the run used its work budget of {} units (states × f evaluations, \
                 entries × Jacobians and LUs) and stopped at t = {}; raise maxWork",
                num(*max_work),
                num(*t)
            ),
            OdeError::NeedsSecondOrderModel { method, model } => write!(
                f,
                "method \"{method}\" is for second-order systems q'' = f(t, q, q') and model \
                 \"{model}\" is not declared as one; pick another method"
            ),
            OdeError::NotAdaptive { method, adaptive } => write!(
                f,
                "method \"{method}\" has no error estimate, so it cannot adapt its step; \
                 the adaptive methods are {}",
                list(adaptive)
            ),
            OdeError::NoJacobian { method, model } => write!(
                f,
                "method \"{method}\" needs the Jacobian ∂f/∂y and ∂f/∂t, and model \"{model}\" \
                 does not provide them; add jacobian: \"fd\" to the spec to approximate them \
                 by finite differences, or pick an explicit method"
            ),
            OdeError::SingularMatrix { t, h, what } => write!(
                f,
                "the matrix {what} is singular at t = {} with h = {}, so the step cannot be \
                 solved; try a different step size h (or tolerance), or check the Jacobian",
                num(*t),
                num(*h)
            ),
            OdeError::NewtonFailed {
                t,
                h,
                iterations,
                reason,
            } => {
                let (how, theta) = match reason {
                    NewtonReason::Diverged { theta } if *theta < 1.01 => ("stalled", theta),
                    NewtonReason::Diverged { theta } => ("diverged", theta),
                    NewtonReason::SlowContraction { theta } => ("contracted too slowly", theta),
                    NewtonReason::Singular { what } => {
                        let what = what.clone();
                        let (t, h) = (*t, *h);
                        return OdeError::SingularMatrix { t, h, what }.fmt(f);
                    }
                    NewtonReason::NotFinite { component } => {
                        return write!(
                            f,
                            "f is not finite in equation {} at a Newton iterate at t = {} with \
                             h = {}",
                            component + 1,
                            num(*t),
                            num(*h)
                        )
                    }
                };
                write!(
                    f,
                    "Newton's method {how} at t = {} with h = {} (contraction rate θ = {}, \
                     {iterations} iterations): the step is too large for the nonlinearity \
                     here; try a smaller h",
                    num(*t),
                    num(*h),
                    num(*theta)
                )
            }
            OdeError::ExpmNotFinite { t, h } => write!(
                f,
                "the matrix exponential of the step at t = {} with h = {} is not finite \
                 (the linearised solution grows past the floating-point range); try a \
                 smaller h",
                num(*t),
                num(*h)
            ),
            OdeError::SingularSaddlePoint { t, h } => write!(
                f,
                "the saddle-point matrix [[M, −Φqᵀ], [Φq, 0]] is singular at t = {} with \
                 h = {}: the joints are redundant or the mechanism is in a singular \
                 configuration",
                num(*t),
                num(*h)
            ),
            OdeError::ConstraintNewtonFailed {
                t,
                h,
                iterations,
                residual,
            } => write!(
                f,
                "Newton on the position constraints Φ = 0 did not converge in {iterations} \
                 iterations at t = {} with h = {} (residual {}); try a smaller h or tolerance",
                num(*t),
                num(*h),
                num(*residual)
            ),
            OdeError::IllConditionedPartition { t, h, condition } => write!(
                f,
                "no partition into independent and dependent coordinates is well \
                 conditioned at t = {} with h = {} (cond Φu = {}): the mechanism is at a \
                 singular configuration",
                num(*t),
                num(*h),
                num(*condition)
            ),
            OdeError::Parse {
                line,
                column,
                message,
                snippet,
            } => write!(f, "line {line}, column {column}: {message}\n{snippet}"),
        }
    }
}

impl std::error::Error for OdeError {}

/// Checks that a number is finite, naming it in the error.
pub(crate) fn finite(value: f64, what: &str) -> Result<f64, OdeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(OdeError::NotFinite {
            what: what.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{num, NewtonReason, OdeError, NOT_IN_THIS_BUILD};

    /// One value of every variant.
    fn one_of_each() -> Vec<OdeError> {
        let s = String::new;
        let v = Vec::new;
        vec![
            OdeError::UnknownModel {
                id: s(),
                known: v(),
            },
            OdeError::UnknownMethod {
                id: s(),
                known: v(),
            },
            OdeError::UnknownParam {
                model: s(),
                name: s(),
                known: v(),
            },
            OdeError::BadParam {
                name: s(),
                value: 0.0,
                greater_than: 0.0,
            },
            OdeError::NotFinite { what: s() },
            OdeError::BadStepSize { h: 0.0 },
            OdeError::BadInterval { t0: 0.0, t1: 0.0 },
            OdeError::WrongLength {
                what: s(),
                expected: 0,
                got: 0,
            },
            OdeError::StepBudget {
                needed: 0.0,
                max_steps: 0,
            },
            OdeError::BlewUp { t: 1.0, h: 0.5 },
            OdeError::Finished { t1: 0.0 },
            OdeError::BadSpec { message: s() },
            OdeError::BadFile { message: s() },
            OdeError::OutOfRange {
                what: s(),
                value: 0.0,
                allowed: s(),
            },
            OdeError::UnknownController {
                kind: s(),
                known: v(),
            },
            OdeError::UnknownEvent {
                model: s(),
                id: s(),
                known: v(),
            },
            OdeError::BadEvent {
                index: 0,
                message: s(),
            },
            OdeError::BadTEval { message: s() },
            OdeError::StepSizeUnderflow { t: 1.0, h: 0.5 },
            OdeError::AdaptiveBudget {
                t: 0.0,
                max_steps: 0,
            },
            OdeError::NeedsSecondOrderModel {
                method: s(),
                model: s(),
            },
            OdeError::NotAdaptive {
                method: s(),
                adaptive: v(),
            },
            OdeError::NoJacobian {
                method: s(),
                model: s(),
            },
            OdeError::SingularMatrix {
                t: 1.0,
                h: 0.5,
                what: s(),
            },
            OdeError::NewtonFailed {
                t: 1.0,
                h: 0.5,
                iterations: 0,
                reason: NewtonReason::Diverged { theta: 2.0 },
            },
            OdeError::ExpmNotFinite { t: 1.0, h: 0.5 },
            OdeError::SingularSaddlePoint { t: 1.0, h: 0.5 },
            OdeError::ConstraintNewtonFailed {
                t: 1.0,
                h: 0.5,
                iterations: 0,
                residual: 0.0,
            },
            OdeError::IllConditionedPartition {
                t: 1.0,
                h: 0.5,
                condition: 0.0,
            },
            OdeError::TooLarge {
                what: s(),
                megabytes: 0.0,
                limit_megabytes: 0.0,
            },
            OdeError::NotInThisBuild { what: "x" },
            OdeError::Parse {
                line: 1,
                column: 1,
                message: s(),
                snippet: s(),
            },
        ]
    }

    #[test]
    fn every_error_has_a_distinct_kebab_case_code() {
        let errors = one_of_each();
        let mut codes: Vec<&str> = errors.iter().map(OdeError::code).collect();
        for code in &codes {
            let kebab = code
                .split('-')
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()));
            assert!(kebab, "{code}");
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
        assert_eq!(
            OdeError::NotInThisBuild { what: "x" }.code(),
            NOT_IN_THIS_BUILD
        );
    }

    #[test]
    fn errors_of_a_running_step_name_their_step() {
        for e in one_of_each() {
            // Exactly the errors whose message names the step's t and h carry it.
            let text = e.to_string();
            let named = text.contains("t = 1") && text.contains("h = 0.5");
            assert_eq!(e.step().is_some(), named, "{}: {text}", e.code());
            if let Some(step) = e.step() {
                assert_eq!(step, (1.0, 0.5));
            }
        }
    }

    #[test]
    fn numbers_print_without_float_noise() {
        assert_eq!(num(212.20000000000002), "212.2");
        assert_eq!(num(0.09999999999999432), "0.1");
        assert_eq!(num(-0.1), "-0.1");
        assert_eq!(num(1e-9), "1e-9");
        assert_eq!(num(1.5e12), "1.5e12");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(f64::NAN), "NaN");
        assert_eq!(num(100.0), "100");
        assert_eq!(num(1234567.4), "1234567");
        assert_eq!(num(0.00012345678), "0.0001234568");
        assert_eq!(num(-2.5e-5), "-2.5e-5");
        assert_eq!(num(f64::MAX), "1.797693e308");
        assert_eq!(num(5e-324), "4.940656e-324");
        assert_eq!(num(1000.0), "1000");
        assert_eq!(num(1e-4), "0.0001");
        assert_eq!(num(1e7), "1e7");
    }

    /// The rule `num` replaced, in Rust's exactly rounded fixed-precision formatting
    /// (7 significant digits, trailing zeros trimmed).
    fn by_exact_formatting(x: f64) -> String {
        let magnitude = crate::math::log10(x.abs()).floor();
        if (-4.0..7.0).contains(&magnitude) {
            let decimals = (6.0 - magnitude).max(0.0) as usize;
            let s = format!("{x:.decimals$}");
            if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            }
        } else {
            let s = format!("{x:.6e}");
            let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{exp}")
        }
    }

    #[test]
    fn seven_digits_agree_with_exactly_rounded_formatting_across_the_range() {
        // A deterministic spread of magnitudes 1e-300 … 1e300 and mantissas.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let mantissa = 1.0 + (next() >> 11) as f64 / (1u64 << 53) as f64 * 9.0;
            let exponent = (next() % 601) as i32 - 300;
            let x = mantissa * crate::math::powi(10.0, exponent);
            let x = if next() % 2 == 0 { x } else { -x };
            assert_eq!(num(x), by_exact_formatting(x), "x = {x:e}");
        }
        // Short decimals, as people type them (h = 0.01, t1 = 2.5, 1e-8).
        for digits in 1..=999 {
            for exponent in -12..12 {
                let x = digits as f64 * crate::math::powi(10.0, exponent);
                assert_eq!(num(x), by_exact_formatting(x), "x = {x:e}");
            }
        }
    }
}
