//! The `convergence(spec)` request (camelCase JS fields) and its checks, including a
//! budget on the total number of steps, so no request can freeze the page for long.

use crate::error::OdeError;
use crate::model;
use crate::spec::{finite, SolveSpec};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Cap on the steps of all fixed-step runs of one request (2²⁵ ≈ 3.4e7).
pub const MAX_TOTAL_STEPS: f64 = 33_554_432.0;
/// Largest n of h = T/2ⁿ: 2²³ steps is the largest single run under the spec's own step
/// limit ([`crate::spec::MAX_STEPS_LIMIT`], 10⁷).
pub const MAX_LEVEL: u32 = 23;

/// What the convergence lab runs.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[tsify(hashmap_as_object)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConvergenceSpec {
    pub model: String,
    #[serde(default, deserialize_with = "crate::spec::or_default")]
    pub params: BTreeMap<String, f64>,
    #[serde(default)]
    #[tsify(optional)]
    pub y0: Option<Vec<f64>>,
    #[serde(default)]
    #[tsify(optional)]
    pub t0: Option<f64>,
    #[serde(default)]
    #[tsify(optional)]
    pub t1: Option<f64>,
    /// Method ids to compare.
    pub methods: Vec<String>,
    /// Step sizes h = T/2ⁿ for n = nMin..=nMax (defaults 4 and 14), T = t1 − t0.
    #[serde(default)]
    #[tsify(optional)]
    pub n_min: Option<u32>,
    #[serde(default)]
    #[tsify(optional)]
    pub n_max: Option<u32>,
    /// Tolerances of the work–precision sweep (rtol = atol = tol) for the adaptive
    /// methods among `methods` (default 1e-2 … 1e-10, one per decade; [] for none).
    #[serde(default)]
    #[tsify(optional)]
    pub tols: Option<Vec<f64>>,
    /// Step sizes of the one-step (local error) study (default 0.1·2^(−k), k = 0..9).
    #[serde(default)]
    #[tsify(optional)]
    pub local_h: Option<Vec<f64>>,
    /// The tableau of method `"custom"` among `methods` (your own method).
    #[serde(default)]
    #[tsify(optional)]
    pub tableau: Option<crate::tableau::TableauSpec>,
    /// Hand every method that uses ∂f/∂y the one of every k-th step only (as
    /// `SolveSpec::jacobian_update`): the observed order with a frozen Jacobian.
    #[serde(default)]
    #[tsify(optional)]
    pub jacobian_update: Option<usize>,
    /// Hand every method that uses ∂f/∂y s·∂f/∂y (as `SolveSpec::jacobian_scale`): the
    /// observed order with a wrong Jacobian (Negrut et al. 2003: a W-method keeps its
    /// order, a Rosenbrock method does not). The reference run (dp45) uses no Jacobian.
    #[serde(default)]
    #[tsify(optional)]
    pub jacobian_scale: Option<f64>,
    /// Work budget of the whole request, every run of every method together (default
    /// [`crate::spec::DEFAULT_MAX_WORK`]), counted as a run's work is
    /// ([`crate::spec::work_of`]: states × f evaluations, entries × Jacobians and LUs),
    /// not timed: once spent, the lab stops with the `work-budget` diagnosis and keeps
    /// the levels it finished.
    #[serde(default)]
    #[tsify(optional)]
    pub max_work: Option<f64>,
}

/// A checked request.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The spec for one run (method and h are filled in per run).
    pub base: SolveSpec,
    pub t0: f64,
    pub t1: f64,
    pub methods: Vec<String>,
    pub levels: Vec<u32>,
    pub tols: Vec<f64>,
    pub local_h: Vec<f64>,
    pub has_exact: bool,
    /// The tableau of method `"custom"`, if it is compared.
    pub tableau: Option<crate::tableau::TableauSpec>,
    /// The request's work budget ([`ConvergenceSpec::max_work`]).
    pub max_work: f64,
    /// What is left of it: each run is handed this as its `maxWork` and spends its work.
    pub work_left: std::cell::Cell<f64>,
}

impl Plan {
    /// The description of `method` (for `"custom"`, computed from the plan's tableau).
    pub fn method_info(&self, method: &str) -> Result<crate::method::MethodInfo, OdeError> {
        Ok(crate::method::resolve(method, self.tableau_for(method).as_ref())?.0)
    }

    /// The tableau a run of `method` carries: the plan's, for `"custom"` only.
    pub fn tableau_for(&self, method: &str) -> Option<crate::tableau::TableauSpec> {
        (method == crate::method::custom::ID)
            .then(|| self.tableau.clone())
            .flatten()
    }

    /// Takes a finished run's work from the budget.
    pub fn spend(&self, stats: &crate::stats::Stats, dim: usize) {
        self.work_left
            .set(self.work_left.get() - crate::spec::work_of(stats, dim));
    }

    /// Whether the budget is spent (no run may start).
    pub fn exhausted(&self) -> bool {
        self.work_left.get() <= 0.0
    }

    /// h of level n.
    pub fn h(&self, n: u32) -> f64 {
        (self.t1 - self.t0) / crate::math::powi(2.0, n as i32)
    }
}

impl ConvergenceSpec {
    pub fn check(&self) -> Result<Plan, OdeError> {
        let info = model::catalog()
            .into_iter()
            .find(|m| m.id == self.model)
            .ok_or_else(|| OdeError::UnknownModel {
                id: self.model.clone(),
                known: model::catalog().into_iter().map(|m| m.id).collect(),
            })?;
        let t0 = finite(self.t0.unwrap_or(info.t0), "t0")?;
        let t1 = finite(self.t1.unwrap_or(info.t1), "t1")?;
        if t1 <= t0 {
            return Err(OdeError::BadInterval { t0, t1 });
        }
        if self.methods.is_empty() {
            return Err(OdeError::BadSpec {
                message: "methods must name at least one method".into(),
            });
        }
        for m in &self.methods {
            let tableau = (m == crate::method::custom::ID)
                .then_some(self.tableau.as_ref())
                .flatten();
            crate::method::resolve(m, tableau)?;
        }
        let (n_min, n_max) = (self.n_min.unwrap_or(4), self.n_max.unwrap_or(14));
        if n_max > MAX_LEVEL {
            return Err(OdeError::OutOfRange {
                what: "nMax".into(),
                value: n_max as f64,
                allowed: format!("at most {MAX_LEVEL}"),
            });
        }
        if n_min + 2 > n_max {
            return Err(OdeError::OutOfRange {
                what: "nMax".into(),
                value: n_max as f64,
                allowed: format!("at least nMin + 2 = {} (three step sizes)", n_min + 2),
            });
        }
        let levels: Vec<u32> = (n_min..=n_max).collect();
        let tols = match &self.tols {
            Some(t) => t.clone(),
            None => (2..=10).map(|k| crate::math::powi(10.0, -k)).collect(),
        };
        for &t in &tols {
            if !(t.is_finite() && t > 0.0 && t < 1.0) {
                return Err(OdeError::OutOfRange {
                    what: "every entry of tols".into(),
                    value: t,
                    allowed: "a number in (0, 1)".into(),
                });
            }
        }
        let local_h = match &self.local_h {
            Some(h) => h.clone(),
            None => (0..10).map(|k| 0.1 * crate::math::powi(2.0, -k)).collect(),
        };
        for &h in &local_h {
            if !(h.is_finite() && h > 0.0) {
                return Err(OdeError::BadStepSize { h });
            }
        }
        let steps: f64 = levels
            .iter()
            .map(|&n| crate::math::powi(2.0, n as i32))
            .sum::<f64>()
            * self.methods.len() as f64;
        if steps > MAX_TOTAL_STEPS {
            return Err(OdeError::StepBudget {
                needed: steps,
                max_steps: MAX_TOTAL_STEPS as usize,
            });
        }
        if local_h.len() > 64 || tols.len() > 32 {
            return Err(OdeError::BadSpec {
                message: format!(
                    "at most 64 localH and 32 tols, got {} and {}",
                    local_h.len(),
                    tols.len()
                ),
            });
        }
        let max_work = SolveSpec {
            max_work: self.max_work,
            ..SolveSpec::default()
        }
        .checked_max_work()?;
        let base = SolveSpec {
            model: self.model.clone(),
            params: self.params.clone(),
            y0: self.y0.clone(),
            method: self.methods[0].clone(),
            t0: Some(t0),
            t1: Some(t1),
            max_steps: Some(crate::spec::MAX_STEPS_LIMIT),
            jacobian_update: self.jacobian_update,
            jacobian_scale: self.jacobian_scale,
            ..SolveSpec::default()
        };
        // Builds the model once, so bad params or y0 fail here with the model's message.
        crate::driver::Integrator::new(&SolveSpec {
            h: Some((t1 - t0) / 2.0),
            adaptive: Some(false),
            tableau: (self.methods[0] == crate::method::custom::ID)
                .then(|| self.tableau.clone())
                .flatten(),
            ..base.clone()
        })?;
        Ok(Plan {
            base,
            t0,
            t1,
            methods: self.methods.clone(),
            levels,
            tols,
            local_h,
            has_exact: info.exact,
            tableau: self.tableau.clone(),
            max_work,
            work_left: std::cell::Cell::new(max_work),
        })
    }
}
