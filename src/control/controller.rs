//! Step-size controllers: the elementary controller of Gil, Sanfelice & Nikravesh (LLM) eq. (38) with the safety
//! factor and the facmin/facmax limits of Negrut et al. 2003 eq. (7), error per step or per unit
//! step (Gil, Sanfelice & Nikravesh (LLM) eq. 39), and the PI controller of Gil, Sanfelice & Nikravesh (LLM) eq. (40).
//!
//! Errors arrive normalised (`err` ≤ 1 means "within tolerance", see `norm.rs`), so the
//! tol of Gil, Sanfelice & Nikravesh (LLM) eqs. (38)/(40) is 1 here.

use crate::error::OdeError;
use crate::math;

/// Elementary (integral) or proportional–integral control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerKind {
    /// h* = γ (1/r)^{k_I} h, Gil, Sanfelice & Nikravesh (LLM) eq. (38) with k_I = 1/k.
    I,
    /// h_{n+1} = γ (1/r_{n+1})^{k_I} (r_n/r_{n+1})^{k_P} h_n, Gil, Sanfelice & Nikravesh (LLM) eq. (40).
    Pi,
}

/// A configured controller and the memory it needs (the previous accepted error).
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    pub kind: ControllerKind,
    /// Exponent on 1/r (Gil, Sanfelice & Nikravesh (LLM) eq. 38's 1/k for the elementary controller).
    pub k_i: f64,
    /// Exponent on r_n/r_{n+1} (0 for the elementary controller).
    pub k_p: f64,
    /// γ of Gil, Sanfelice & Nikravesh (LLM) eq. (38), fac of Negrut et al. 2003 eq. (7).
    pub safety: f64,
    pub fac_min: f64,
    pub fac_max: f64,
    /// Control the error per unit step r = err/h (Gil, Sanfelice & Nikravesh (LLM) eq. 39, EPUS) instead of per step.
    pub per_unit_step: bool,
    /// k of Gil, Sanfelice & Nikravesh (LLM) eq. (38): q + 1 per step, q per unit step (q the embedded order).
    pub k: f64,
    /// k_I = 1/k (the elementary controller's default): 1/r^{k_I} is [`inverse_root`].
    integral_is_root: bool,
    previous: Option<f64>,
}

/// Default safety factor γ (as SciPy's RK45 and Hairer's codes).
pub const DEFAULT_SAFETY: f64 = 0.9;
/// Default limits on the ratio h_new / h (SciPy's RK45: 0.2 and 10).
pub const DEFAULT_FAC_MIN: f64 = 0.2;
pub const DEFAULT_FAC_MAX: f64 = 10.0;
/// Floor on r in the PI quotient, so a step with zero error does not divide by zero.
const R_FLOOR: f64 = 1e-10;

/// x^y for the controller's factors, as e^{y ln x}: x > 0 and |y ln x| is small here
/// (the factor is clamped to [facMin, facMax] anyway), so the two roundings of `exp` and
/// `log` cost at most a few ulps against `pow`, which the step-size rule cannot see,
/// while `libm`'s `pow` (an extra-precise log and exp) was 15 % of a dp45 solve in WASM.
#[inline]
fn step_factor_power(x: f64, y: f64) -> f64 {
    math::exp(y * math::ln(x))
}

/// x^(−1/k), the elementary controller's factor: for k = 5 (an estimate of order 4,
/// dp45's) [`math::inverse_fifth_root`], within 1.3 ulps of the exact root, at a third of
/// the `log` and `exp` it replaces (13 % of a dp45 solve in WASM); for k = 4 (order 3:
/// ros4, ros4-t2) 1/√√x, two square roots and a division; for k = 3 (order 2: llm, bs23)
/// [`math::inverse_cube_root`]; the general power for other k.
#[inline]
fn inverse_root(x: f64, k: f64) -> f64 {
    if k == 5.0 {
        math::inverse_fifth_root(x)
    } else if k == 4.0 {
        1.0 / math::fourth_root(x)
    } else if k == 3.0 {
        math::inverse_cube_root(x)
    } else {
        step_factor_power(x, -1.0 / k)
    }
}

/// What the user may set; `None` takes the default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ControllerSettings {
    pub k_i: Option<f64>,
    pub k_p: Option<f64>,
    pub safety: Option<f64>,
    pub fac_min: Option<f64>,
    pub fac_max: Option<f64>,
    pub per_unit_step: bool,
}

fn checked(value: f64, what: &str, ok: bool, allowed: &str) -> Result<f64, OdeError> {
    if !value.is_finite() {
        return Err(OdeError::NotFinite {
            what: format!("controller.{what}"),
        });
    }
    if !ok {
        return Err(OdeError::OutOfRange {
            what: format!("controller.{what}"),
            value,
            allowed: allowed.into(),
        });
    }
    Ok(value)
}

impl Controller {
    /// A controller for a method whose error estimate has order `q`. Default gains:
    /// k_I = 1/k for the elementary controller; k_I = 0.3/k, k_P = 0.4/k for PI
    /// (Gustafsson's PI.3.4, reference 15 of Gil, Sanfelice & Nikravesh (LLM)).
    pub fn new(kind: ControllerKind, q: u32, s: ControllerSettings) -> Result<Self, OdeError> {
        let k = if s.per_unit_step {
            q as f64
        } else {
            q as f64 + 1.0
        };
        let (default_i, default_p) = match kind {
            ControllerKind::I => (1.0 / k, 0.0),
            ControllerKind::Pi => (0.3 / k, 0.4 / k),
        };
        if kind == ControllerKind::I {
            if let Some(kp) = s.k_p {
                return Err(OdeError::OutOfRange {
                    what: "controller.kP".into(),
                    value: kp,
                    allowed: "left out for kind \"i\" (kP is the proportional gain of kind \"pi\")"
                        .into(),
                });
            }
        }
        let k_i = s.k_i.unwrap_or(default_i);
        let k_i = checked(k_i, "kI", k_i > 0.0, "greater than 0")?;
        let k_p = s.k_p.unwrap_or(default_p);
        let k_p = checked(k_p, "kP", k_p >= 0.0, "0 or more")?;
        let safety = s.safety.unwrap_or(DEFAULT_SAFETY);
        let safety = checked(
            safety,
            "safety",
            safety > 0.0 && safety <= 1.0,
            "in (0, 1], e.g. 0.9",
        )?;
        let fac_min = s.fac_min.unwrap_or(DEFAULT_FAC_MIN);
        let fac_max = s.fac_max.unwrap_or(DEFAULT_FAC_MAX);
        checked(fac_min, "facMin", true, "")?;
        checked(fac_max, "facMax", true, "")?;
        if fac_min >= fac_max {
            return Err(OdeError::OutOfRange {
                what: "controller.facMin".into(),
                value: fac_min,
                allowed: format!("less than facMax = {}", crate::error::num(fac_max)),
            });
        }
        checked(
            fac_min,
            "facMin",
            fac_min > 0.0 && fac_min < 1.0,
            "in (0, 1), e.g. 0.2 (a rejected step must shrink)",
        )?;
        checked(fac_max, "facMax", fac_max >= 1.0, "1 or more, e.g. 10")?;
        Ok(Self {
            kind,
            k_i,
            k_p,
            safety,
            fac_min,
            fac_max,
            per_unit_step: s.per_unit_step,
            k,
            integral_is_root: k_i == 1.0 / k,
            previous: None,
        })
    }

    /// r of Gil, Sanfelice & Nikravesh (LLM) eq. (39): the normalised error per step, or per unit step.
    pub fn measure(&self, err: f64, h: f64) -> f64 {
        if self.per_unit_step {
            err / h
        } else {
            err
        }
    }

    /// Whether a step with error measure r is accepted (r ≤ tol = 1).
    pub fn accepts(&self, r: f64) -> bool {
        r <= 1.0
    }

    /// The next step after an accepted step of size h with error measure r. After a
    /// rejection in the same step (`after_reject`), the step may not grow (Hairer's rule,
    /// also SciPy's), which avoids an immediate second rejection.
    pub fn after_accept(&mut self, h: f64, r: f64, after_reject: bool) -> f64 {
        let r_now = super::larger(r, R_FLOOR);
        let mut fac = self.safety
            * if self.integral_is_root {
                inverse_root(r_now, self.k)
            } else {
                step_factor_power(r_now, -self.k_i)
            };
        if self.kind == ControllerKind::Pi {
            if let Some(r_prev) = self.previous {
                fac *= step_factor_power(r_prev / r_now, self.k_p);
            }
        }
        self.previous = Some(r_now);
        let mut fac = fac.clamp(self.fac_min, self.fac_max);
        if after_reject {
            fac = fac.min(1.0);
        }
        h * fac
    }

    /// The retry step after a rejected step of size h with error measure r > 1: the
    /// elementary formula (the PI memory is about accepted steps), never growing, and
    /// facMin when the step produced no usable estimate (NaN or infinite).
    pub fn after_reject(&self, h: f64, r: f64) -> f64 {
        let fac = if r.is_finite() {
            (self.safety * inverse_root(r, self.k)).clamp(self.fac_min, 1.0)
        } else {
            self.fac_min
        };
        h * fac
    }
}
