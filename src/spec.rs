//! What a user asks for: the `solve` / `Integrator` spec, read with serde at the
//! boundary and validated here, in the core, so every front end gets the same errors.

use crate::control::{Controller, ControllerKind, ControllerSettings, ErrorNorm, Tolerance};
use crate::error::{num, OdeError};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Default cap on the number of steps of one run: enough for any lecture example,
/// small enough that a typo in h cannot exhaust the page's memory.
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// The largest `maxSteps` a spec may ask for: a run records every step, so a larger
/// budget could only end in the page running out of memory (the budgets).
pub const MAX_STEPS_LIMIT: usize = 10_000_000;

/// Default work budget of a run ([`work_of`]): 10⁹ units, about half a minute of the
/// slowest work measured in the browser (dp45 on a 2,000-cell heat equation: 1.4·10¹⁰
/// units in 400 s), far beyond any lecture example, so a typo cannot keep the page busy.
pub const DEFAULT_MAX_WORK: f64 = 1e9;

/// The work of a run of `dim` states, counted and not timed, so a budget means the same
/// on every machine: `dim` units per f evaluation, dim² per Jacobian and per LU
/// factorisation (the entries each fills). In f64: it cannot wrap.
pub fn work_of(stats: &crate::stats::Stats, dim: usize) -> f64 {
    let n = dim as f64;
    work_with(stats, dim, n * n)
}

/// [`work_of`] for a run whose Jacobians and LUs fill `entries` entries each (a sparse
/// Jacobian's stored entries and diagonal, on the sparse path; dim² when dense).
pub fn work_with(stats: &crate::stats::Stats, dim: usize, entries: f64) -> f64 {
    stats.nfev as f64 * dim as f64 + (stats.njev + stats.nlu) as f64 * entries
}

/// The most output times `tEval` may list (each is one interpolated state).
pub const MAX_T_EVAL: usize = 1_000_000;

/// A field with a default read as absent when it is `undefined` or `null`: a JS spec
/// written `{ params: undefined }` means no parameters, as an absent key does
/// (serde's `default` alone covers only the missing key).
pub fn or_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

/// What `solve` and `new Integrator` accept: a model (or your own system) and a
/// method (JS field names in camelCase).
#[derive(Debug, Clone, Default, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[tsify(hashmap_as_object)]
pub struct SolveSpec {
    /// Model id, e.g. "pendulum" (or give `system`).
    #[serde(default, deserialize_with = "or_default")]
    pub model: String,
    /// Your own system as text, e.g. "param k = 100\nx' = v\nv' = -k*x\nx(0) = 1", in
    /// place of `model`. Errors name the line and column. Its `event` lines are watched
    /// unless `events` is given.
    #[serde(default)]
    pub system: Option<String>,
    /// Parameter overrides by name; the rest keep the model's defaults.
    #[serde(default, deserialize_with = "or_default")]
    pub params: BTreeMap<String, f64>,
    /// Initial state; the model's default when absent.
    #[serde(default)]
    pub y0: Option<Vec<f64>>,
    /// Method id, e.g. "rk4".
    pub method: String,
    /// Start time (default 0).
    #[serde(default)]
    pub t0: Option<f64>,
    /// End time; the model's default when absent.
    #[serde(default)]
    pub t1: Option<f64>,
    /// Step size (required by fixed-step methods).
    #[serde(default)]
    pub h: Option<f64>,
    /// Step budget (default [`DEFAULT_MAX_STEPS`]); for adaptive methods it counts
    /// attempted steps (accepted and rejected).
    #[serde(default)]
    pub max_steps: Option<usize>,
    /// Work budget (default [`DEFAULT_MAX_WORK`]), independent of the machine's speed:
    /// the run stops, keeping what it computed, with a diagnosis, once its work
    /// ([`work_of`]) reaches it.
    #[serde(default)]
    pub max_work: Option<f64>,
    /// Largest step an adaptive method may take (MATLAB's MaxStep): the error control
    /// only sees the points it steps on, so a short input (a bump in the road) between
    /// two long steps would go unnoticed.
    #[serde(default)]
    pub h_max: Option<f64>,
    /// Relative tolerance of adaptive methods: one number, or one per state component
    /// (default [`DEFAULT_RTOL`]).
    #[serde(default)]
    #[tsify(type = "number | number[]")]
    pub rtol: Option<Tol>,
    /// Absolute tolerance: one number, or one per state component (default
    /// [`DEFAULT_ATOL`]).
    #[serde(default)]
    #[tsify(type = "number | number[]")]
    pub atol: Option<Tol>,
    /// The error norm: "rms" (Negrut et al. 2003 eq. 5, default) or "max" (the ode23/ode45 listings).
    #[serde(default)]
    #[tsify(type = "\"rms\" | \"max\"")]
    pub norm: Option<String>,
    /// Step-size controller settings (adaptive methods).
    #[serde(default)]
    pub controller: Option<ControllerSpec>,
    /// Force (`true`) or switch off (`false`, a fixed grid of step h) step-size control;
    /// by default a method adapts iff it has an error estimate.
    #[serde(default)]
    pub adaptive: Option<bool>,
    /// Times at which to report the solution, from each step's dense output; sorted,
    /// within [t0, t1].
    #[serde(default)]
    pub t_eval: Option<Vec<f64>>,
    /// Switching functions to watch; a sign change cuts the step there.
    #[serde(default, deserialize_with = "or_default")]
    pub events: Vec<EventSpec>,
    /// Where methods that need ∂f/∂y and ∂f/∂t get them: "analytic" (the model's own,
    /// the default) or "fd" (forward finite differences, only on request).
    #[serde(default)]
    #[tsify(type = "\"analytic\" | \"fd\"")]
    pub jacobian: Option<String>,
    /// Re-evaluate the Jacobian only every k-th step (default 1: every step); a
    /// frozen Jacobian shows which methods (W-methods) tolerate an inexact one.
    #[serde(default)]
    pub jacobian_update: Option<usize>,
    /// Multiply the Jacobian by this factor (default 1; 0 gives J = 0), again to
    /// show what an inexact Jacobian does to each method.
    #[serde(default)]
    pub jacobian_scale: Option<f64>,
    /// Indices of the fast states for the `slowfast` method (default: the model's
    /// `ModelInfo.fast`).
    #[serde(default)]
    pub fast: Option<Vec<usize>>,
    /// The parameters of `generalized-alpha` ({ rhoInf }), `hht-alpha` ({ alpha } or
    /// { rhoInf }) and `newmark` ({ beta, gamma }); see `crate::method::params`.
    #[serde(default)]
    #[tsify(type = "MethodParams")]
    pub method_params: Option<crate::method::params::ParamsField>,
    /// Method `"custom"`: your own Butcher tableau (`crate::tableau`).
    #[serde(default)]
    pub tableau: Option<crate::tableau::TableauSpec>,
    /// Constrained models (`crate::multibody`): "native" (default, the model
    /// file's own), "augmented" (Gil, Sanfelice & Nikravesh (LLM) eq. 9) or "state-space" (Negrut et al. 2003 Algorithm 1).
    #[serde(default)]
    #[tsify(type = "\"native\" | \"augmented\" | \"state-space\" | \"index-3\"")]
    pub formulation: Option<String>,
    /// Augmented formulation: "none" (default), "baumgarte" or "projection".
    #[serde(default)]
    #[tsify(type = "\"none\" | \"baumgarte\" | \"projection\"")]
    pub stabilization: Option<String>,
    /// Baumgarte α (default 10): γ ← γ − 2αΦ_q q̇ − β²Φ.
    #[serde(default)]
    pub baumgarte_alpha: Option<f64>,
    /// Baumgarte β (default 10).
    #[serde(default)]
    pub baumgarte_beta: Option<f64>,
    /// State-space formulation: largest cond(Φ_u) before a re-partition (default 100).
    #[serde(default)]
    pub partition_limit: Option<f64>,
    /// State-space formulation: the initial independent coordinates by name (e.g.
    /// ["φ1", "φ2"]); default: chosen by full-pivoting LU of Φ_q.
    #[serde(default)]
    pub independent: Option<Vec<String>>,
    /// Record every attempted step (`driver::inspect`): t, h, error norm, accepted or
    /// why not, Newton iterations, Jacobian and LU work. Off by default: a run without
    /// it records nothing extra.
    #[serde(default)]
    pub inspect: Option<bool>,
}

/// Default relative tolerance (MATLAB's and SciPy's).
pub const DEFAULT_RTOL: f64 = 1e-3;
/// Default absolute tolerance (MATLAB's and SciPy's).
pub const DEFAULT_ATOL: f64 = 1e-6;

/// A tolerance: the same for every component, or one per component.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    untagged,
    expecting = "rtol and atol must each be a number, or an array with one number per state component"
)]
pub enum Tol {
    Scalar(f64),
    PerComponent(Vec<f64>),
}

/// The `controller` field of a spec (camelCase: kind, kI, kP, safety, facMin, facMax,
/// perUnitStep).
///
/// Defaults: kind "i", safety 0.9, facMin 0.2, facMax 10, kI = 1/k ("i") or 0.3/k with
/// kP = 0.4/k ("pi"), where k = embeddedOrder + 1 (or embeddedOrder with perUnitStep).
/// Without a controller, radau5 chooses its steps as Hairer's RADAU5 does
/// (Gustafsson's predictive controller); naming one (e.g. { kind: "i" }) uses it instead.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ControllerSpec {
    /// "i" (elementary, Gil, Sanfelice & Nikravesh (LLM) eq. 38; the default) or "pi" (Gil, Sanfelice & Nikravesh (LLM) eq. 40).
    #[serde(default)]
    #[tsify(type = "\"i\" | \"pi\"")]
    pub kind: Option<String>,
    #[serde(default)]
    pub k_i: Option<f64>,
    #[serde(default)]
    pub k_p: Option<f64>,
    #[serde(default)]
    pub safety: Option<f64>,
    #[serde(default)]
    pub fac_min: Option<f64>,
    #[serde(default)]
    pub fac_max: Option<f64>,
    /// Control the error per unit step (Gil, Sanfelice & Nikravesh (LLM) eq. 39) instead of per step.
    #[serde(default)]
    pub per_unit_step: Option<bool>,
}

/// One entry of a spec's `events` list: a sign change of the model's switching function
/// `id`, or of `expr`, a text expression in the model's states, parameters and t (the
/// labs package; the run package answers `not-in-this-build`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventSpec {
    /// Id of a switching function the model declares (`ModelInfo::events`).
    #[serde(default)]
    pub id: Option<String>,
    /// A text expression g(t, y) over the model's states, parameters and t, compiled
    /// like a system's right-hand side (the whole engine only: the first-load build has
    /// no expression language).
    #[serde(default)]
    pub expr: Option<String>,
    /// +1: only rising crossings, −1: only falling, 0 (default): both.
    #[serde(default)]
    #[tsify(type = "-1 | 0 | 1")]
    pub direction: Option<f64>,
    /// Stop the run at this event.
    #[serde(default)]
    pub terminal: Option<bool>,
}

impl SolveSpec {
    /// The checked tolerances for a state of `dim` components.
    pub fn tolerance(&self, dim: usize) -> Result<Tolerance, OdeError> {
        let expand = |tol: &Option<Tol>, default: f64, name: &str| match tol {
            None => Ok(vec![default; dim]),
            Some(Tol::Scalar(v)) => Ok(vec![*v; dim]),
            Some(Tol::PerComponent(v)) if v.len() == dim => Ok(v.clone()),
            Some(Tol::PerComponent(v)) => Err(OdeError::WrongLength {
                what: format!("{name} (one tolerance per state component)"),
                expected: dim,
                got: v.len(),
            }),
        };
        let rtol = expand(&self.rtol, DEFAULT_RTOL, "rtol")?;
        let atol = expand(&self.atol, DEFAULT_ATOL, "atol")?;
        // Scalars are named plainly in messages, arrays by index.
        let scalar = |tol: &Option<Tol>, v: Vec<f64>| match tol {
            Some(Tol::PerComponent(_)) => v,
            _ => v.into_iter().take(1).collect(),
        };
        Tolerance::new(
            scalar(&self.rtol, rtol.clone()),
            scalar(&self.atol, atol.clone()),
        )?;
        Tolerance::new(rtol, atol)
    }

    /// The checked error norm.
    pub fn error_norm(&self) -> Result<ErrorNorm, OdeError> {
        match self.norm.as_deref() {
            None | Some("rms") => Ok(ErrorNorm::Rms),
            Some("max") => Ok(ErrorNorm::Max),
            Some(other) => Err(OdeError::BadSpec {
                message: format!("unknown norm \"{other}\"; the norms are \"rms\", \"max\""),
            }),
        }
    }

    /// The checked controller for an error estimate of order `q`.
    pub fn controller(&self, q: u32) -> Result<Controller, OdeError> {
        let c = self.controller.clone().unwrap_or_default();
        let kind = match c.kind.as_deref() {
            None | Some("i") => ControllerKind::I,
            Some("pi") => ControllerKind::Pi,
            Some(other) => {
                return Err(OdeError::UnknownController {
                    kind: other.to_string(),
                    known: vec!["i".into(), "pi".into()],
                })
            }
        };
        Controller::new(
            kind,
            q,
            ControllerSettings {
                k_i: c.k_i,
                k_p: c.k_p,
                safety: c.safety,
                fac_min: c.fac_min,
                fac_max: c.fac_max,
                per_unit_step: c.per_unit_step.unwrap_or(false),
            },
        )
    }

    /// The checked step budget: `maxSteps`, or [`DEFAULT_MAX_STEPS`], at most
    /// [`MAX_STEPS_LIMIT`].
    pub fn checked_max_steps(&self) -> Result<usize, OdeError> {
        match self.max_steps {
            None => Ok(DEFAULT_MAX_STEPS),
            Some(n) if n <= MAX_STEPS_LIMIT => Ok(n),
            Some(n) => Err(OdeError::OutOfRange {
                what: "maxSteps".into(),
                value: n as f64,
                allowed: format!("at most {MAX_STEPS_LIMIT} (10 million)"),
            }),
        }
    }

    /// The checked work budget ([`SolveSpec::max_work`]): a positive number, or
    /// [`DEFAULT_MAX_WORK`].
    pub fn checked_max_work(&self) -> Result<f64, OdeError> {
        match self.max_work {
            None => Ok(DEFAULT_MAX_WORK),
            Some(w) if w > 0.0 && !w.is_nan() => Ok(w),
            Some(w) => Err(OdeError::OutOfRange {
                what: "maxWork".into(),
                value: w,
                allowed: "a positive number of work units (states × f evaluations, entries \
                          × Jacobians and LUs)"
                    .into(),
            }),
        }
    }

    /// The checked output times: finite, sorted, within [t0, t1], at most
    /// [`MAX_T_EVAL`] of them.
    pub fn checked_t_eval(&self, t0: f64, t1: f64) -> Result<Vec<f64>, OdeError> {
        let Some(ts) = &self.t_eval else {
            return Ok(Vec::new());
        };
        if ts.len() > MAX_T_EVAL {
            return Err(OdeError::BadTEval {
                message: format!(
                    "{} output times were asked for; tEval may list at most {MAX_T_EVAL}",
                    ts.len()
                ),
            });
        }
        for (i, &t) in ts.iter().enumerate() {
            finite(t, &format!("tEval[{i}]"))?;
            if t < t0 || t > t1 {
                return Err(OdeError::BadTEval {
                    message: format!(
                        "tEval[{i}] = {} is outside the interval [t0, t1] = [{}, {}]",
                        num(t),
                        num(t0),
                        num(t1)
                    ),
                });
            }
            if i > 0 && t < ts[i - 1] {
                return Err(OdeError::BadTEval {
                    message: format!(
                        "the times must be sorted in increasing order, but tEval[{i}] = {} \
                         comes after tEval[{}] = {}",
                        num(t),
                        i - 1,
                        num(ts[i - 1])
                    ),
                });
            }
        }
        Ok(ts.clone())
    }
}

pub(crate) use crate::error::finite;

impl SolveSpec {
    /// The fields a constrained formulation reads (`crate::multibody::build`).
    pub fn formulation_request(&self) -> crate::multibody::Request<'_> {
        crate::multibody::Request {
            model: &self.model,
            params: &self.params,
            y0: self.y0.as_deref(),
            formulation: self.formulation.as_deref(),
            stabilization: self.stabilization.as_deref(),
            baumgarte_alpha: self.baumgarte_alpha,
            baumgarte_beta: self.baumgarte_beta,
            partition_limit: self.partition_limit,
            independent: self.independent.as_deref(),
            method: &self.method,
        }
    }
}

/// The time grid of a fixed-step run, checked: t0 < t1, h > 0, within budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub t0: f64,
    pub t1: f64,
    pub h: f64,
    /// Number of steps; the last one is shortened to land exactly on t1.
    pub steps: usize,
}

impl Grid {
    pub fn new(t0: f64, t1: f64, h: f64, max_steps: usize) -> Result<Self, OdeError> {
        let t0 = finite(t0, "start time t0")?;
        let t1 = finite(t1, "end time t1")?;
        if h.is_nan() || h <= 0.0 {
            return Err(OdeError::BadStepSize { h });
        }
        let h = finite(h, "step size h")?;
        if t1 <= t0 {
            return Err(OdeError::BadInterval { t0, t1 });
        }
        let ratio = (t1 - t0) / h;
        if ratio > max_steps as f64 {
            return Err(OdeError::StepBudget {
                needed: ratio.ceil(),
                max_steps,
            });
        }
        // A ratio within rounding of an integer means h divides the interval: no
        // sliver of a last step.
        let nearest = ratio.round();
        let steps = if (ratio - nearest).abs() <= 1e-9 * ratio.max(1.0) {
            nearest as usize
        } else {
            ratio.ceil() as usize
        };
        Ok(Grid {
            t0,
            t1,
            h,
            steps: steps.max(1),
        })
    }

    /// Time of grid point `k` (0 ≤ k ≤ steps), computed from t0 rather than
    /// accumulated, so round-off does not drift.
    pub fn time(&self, k: usize) -> f64 {
        if k >= self.steps {
            self.t1
        } else {
            self.t0 + k as f64 * self.h
        }
    }
}

/// The field names serde reads for a spec struct (camelCase, as JS writes them).
///
/// serde-wasm-bindgen only looks up the fields a struct declares, so
/// `deny_unknown_fields` cannot catch a misspelt key coming from JS; the binding checks
/// the keys of the JS object against these lists instead ([`check_fields`]). The list
/// comes from serde's own derive, so it cannot drift from the structs.
pub fn field_names<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldProbe(&mut fields));
    fields
}

/// Refuses a key of the JS object `place` that is not one of `known`, suggesting the
/// closest known name (a student's `rtoll` gets "did you mean \"rtol\"?").
pub fn check_fields(place: &str, keys: &[String], known: &[&str]) -> Result<(), OdeError> {
    match keys.iter().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(key) => Err(OdeError::BadSpec {
            message: format!(
                "unknown field \"{key}\" in {place}{}; the fields are {}",
                known
                    .iter()
                    .map(|k| (edit_distance(key, k), *k))
                    .filter(|(d, _)| *d <= 2)
                    .min()
                    .map(|(_, k)| format!(" (did you mean \"{k}\"?)"))
                    .unwrap_or_default(),
                known
                    .iter()
                    .map(|f| format!("\"{f}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// A deserializer that records the field list serde asks a struct for, then stops.
struct FieldProbe<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct ProbeDone;

impl std::fmt::Display for ProbeDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for ProbeDone {}

impl serde::de::Error for ProbeDone {
    fn custom<T: std::fmt::Display>(_msg: T) -> Self {
        ProbeDone
    }
}

impl<'de> serde::Deserializer<'de> for FieldProbe<'_> {
    type Error = ProbeDone;

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        _visitor: V,
    ) -> Result<V::Value, ProbeDone> {
        Err(ProbeDone)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, ProbeDone> {
        *self.0 = fields;
        Err(ProbeDone)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
        identifier ignored_any
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_list_comes_from_the_struct() {
        let fields = field_names::<SolveSpec>();
        for f in [
            "model", "params", "y0", "method", "t0", "t1", "h", "maxSteps", "rtol",
        ] {
            assert!(fields.contains(&f), "{f} in {fields:?}");
        }
    }

    #[test]
    fn unknown_field_gets_a_suggestion() {
        let known = field_names::<SolveSpec>();
        let keys = |ks: &[&str]| ks.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let err = check_fields("the spec", &keys(&["model", "rtoll"]), known).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("unknown field \"rtoll\" in the spec (did you mean \"rtol\"?)"),
            "{msg}"
        );
        assert!(check_fields("the spec", &keys(&["model", "method", "h"]), known).is_ok());
        let msg = check_fields("the spec", &keys(&["zzzzzz"]), known)
            .unwrap_err()
            .to_string();
        assert!(!msg.contains("did you mean"), "{msg}");
    }
}
