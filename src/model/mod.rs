//! The model catalogue: one model per file, each a [`System`] with its parameters,
//! initial state, outputs (energy…) and, where known, its exact solution.

mod bouncing_balls;
pub mod constraint;
mod double_pendulum_rsda;
mod double_pendulum_stiff;
mod event_info;
mod mass_spring_damper;
mod pendulum;
mod pendulum_particle;
mod robertson;
mod sin_inv_t;
mod slowfast_linear;
mod van_der_pol;
mod vehicle_stiff;
pub use vehicle_stiff::{bump_profile, settled_height as vehicle_settled_height};

use crate::error::OdeError;
use crate::problem::System;
pub use constraint::{ConstraintFailure, ConstraintReport, Repartition};
pub use event_info::EventInfo;
use serde::Serialize;
use std::collections::BTreeMap;

/// A model parameter with its default value.
#[derive(Debug, Clone, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ParamInfo {
    pub name: String,
    pub value: f64,
    pub unit: String,
    pub description: String,
    /// Lower bound the value must exceed (exclusive), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub greater_than: Option<f64>,
    /// An integer that sizes an array of states (`N` of `u[i]' = … for i = 1..N`): the
    /// page steps its slider by integers and re-builds the system when it changes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[tsify(optional)]
    pub integer: bool,
}

/// A model in the catalogue (`models()`, `describeSystem`): what the page and the API
/// show about it.
#[derive(Debug, Clone, Default, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    /// Stable id used in specs and URLs (public contract: never renamed).
    pub id: String,
    pub name: String,
    /// Number of states.
    pub dim: usize,
    /// State names, in order.
    pub names: Vec<String>,
    pub params: Vec<ParamInfo>,
    /// Default initial state.
    pub y0: Vec<f64>,
    /// Default start time, used when the spec gives none (0 for most models;
    /// `sin-inv-t` starts at 1/π).
    pub t0: f64,
    /// Default end time.
    pub t1: f64,
    /// Where the model comes from (seed file and equation).
    pub source: String,
    /// Names of the derived outputs (e.g. "energy") reported along a run.
    pub outputs: Vec<String>,
    /// Whether the model knows its exact solution.
    pub exact: bool,
    /// A second-order system q'' = f(t, q, q') written as y = (q, q'): the first half
    /// of the state is q, the second half q'. Methods for second-order systems
    /// (`midpoint2`) need this.
    pub second_order: bool,
    /// The switching functions the model declares (events a spec can name by id).
    pub events: Vec<EventInfo>,
    /// The formulations a spec may ask for (`SolveSpec.formulation`); empty when the
    /// model has only its own (see `src/multibody`).
    pub formulations: Vec<String>,
    /// Indices of the fast states (the z of a slow/fast partition, Gil, Sanfelice & Nikravesh 2013 eq. 65);
    /// empty when the model declares no partition.
    pub fast: Vec<usize>,
}

impl ParamInfo {
    /// A parameter with no lower bound.
    pub fn new(name: &str, value: f64, unit: &str, description: &str) -> Self {
        Self {
            name: name.into(),
            value,
            unit: unit.into(),
            description: description.into(),
            greater_than: None,
            integer: false,
        }
    }

    /// The same parameter, required to be greater than `bound`.
    pub fn above(mut self, bound: f64) -> Self {
        self.greater_than = Some(bound);
        self
    }
}

/// Owned strings from string literals, for catalogue entries.
pub(crate) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A system with the extras a model offers beyond f.
pub trait Model: System {
    /// Writes the derived outputs (in [`ModelInfo::outputs`] order) at (t, y).
    fn outputs(&self, _t: f64, _y: &[f64], _out: &mut [f64]) {}

    /// The default initial state for this model's parameters, when it depends on them
    /// (a body-coordinate state must satisfy the constraints for the chosen lengths);
    /// `None` means [`ModelInfo::y0`], which is the default for the default parameters.
    fn default_y0(&self) -> Option<Vec<f64>> {
        None
    }

    /// Writes the exact solution at `t` of the run that started at (t0, y0) into `out`;
    /// returns false if the model has no exact solution.
    fn exact(&self, _t0: f64, _y0: &[f64], _t: f64, _out: &mut [f64]) -> bool {
        false
    }

    /// Switching function number `index` of [`ModelInfo::events`] at (t, y). The
    /// driver only asks for declared indices.
    fn event(&self, _index: usize, _t: f64, _y: &[f64]) -> f64 {
        f64::NAN
    }

    /// A constraint solve that failed inside f since the last call (a singular
    /// saddle-point matrix, Newton not converging), taken so the driver can report it
    /// with the t and h of the step (`crate::multibody`).
    fn take_failure(&self) -> Option<ConstraintFailure> {
        None
    }

    /// Whether the model acts between steps: overrides [`Model::after_step`],
    /// [`Model::take_failure`] or [`Model::report_state`] (the constrained formulations
    /// of `crate::multibody`). The driver asks once and calls those three every step
    /// only for a model that says so: for the others they are the defaults, and three
    /// calls through `dyn Model` per step were ~8 % of a ros4 solve of Van der Pol in
    /// WebAssembly. A model overriding any of them must return true.
    fn acts_between_steps(&self) -> bool {
        false
    }

    /// Called after every accepted step with the new state: the state-space
    /// formulation recovers u and checks its partition here (Negrut et al. 2003 Algorithm 1 steps
    /// 6–7), a projection adjusts y. Returns true when y was rewritten in new
    /// coordinates, so the method must restart.
    fn after_step(&mut self, _t: f64, _y: &mut [f64]) -> Result<bool, ConstraintFailure> {
        Ok(false)
    }

    /// What a constrained formulation did (re-partitions, Newton iterations).
    fn constraint_report(&self) -> Option<ConstraintReport> {
        None
    }

    /// Writes y in the columns [`ModelInfo::names`] names, for the record of a run;
    /// returns false when that is y itself (every model but one whose coordinates
    /// change during the run). `previous`: y is in the coordinates in force before
    /// the last [`Model::after_step`] rewrote the state (the dense output of the step
    /// that ended there).
    fn report_state(&self, _y: &[f64], _out: &mut [f64], _previous: bool) -> bool {
        false
    }
}

struct Entry {
    info: fn() -> ModelInfo,
    build: fn(&[f64]) -> Box<dyn Model>,
}

const CATALOG: &[Entry] = &[
    Entry {
        info: mass_spring_damper::info,
        build: mass_spring_damper::build,
    },
    Entry {
        info: pendulum::info,
        build: pendulum::build,
    },
    Entry {
        info: bouncing_balls::info,
        build: bouncing_balls::build,
    },
    Entry {
        info: van_der_pol::info,
        build: van_der_pol::build,
    },
    Entry {
        info: robertson::info,
        build: robertson::build,
    },
    Entry {
        info: sin_inv_t::info,
        build: sin_inv_t::build,
    },
    Entry {
        info: slowfast_linear::info,
        build: slowfast_linear::build,
    },
    Entry {
        info: pendulum_particle::info,
        build: pendulum_particle::build,
    },
    Entry {
        info: double_pendulum_rsda::info,
        build: double_pendulum_rsda::build,
    },
    Entry {
        info: double_pendulum_stiff::info,
        build: double_pendulum_stiff::build,
    },
    Entry {
        info: vehicle_stiff::info,
        build: vehicle_stiff::build,
    },
];

/// The models that `crate::multibody` also writes as constrained mechanisms (its
/// `models::describe` knows each), so they run in the "augmented" and "state-space"
/// formulations too.
pub const CONSTRAINED: &[&str] = &[
    "double-pendulum-stiff",
    "double-pendulum-rsda",
    "pendulum-particle",
    "vehicle-stiff",
];

/// Descriptions of every model, in the order the page lists them.
pub fn catalog() -> Vec<ModelInfo> {
    CATALOG
        .iter()
        .map(|e| {
            let mut info = (e.info)();
            // Constrained mechanisms also run in the formulations of src/multibody.
            if CONSTRAINED.contains(&info.id.as_str()) {
                info.formulations = ["native", "augmented", "state-space", "index-3"]
                    .map(String::from)
                    .to_vec();
            }
            info
        })
        .collect()
}

/// The model `id` with its default parameters overridden by `overrides`.
pub fn build(
    id: &str,
    overrides: &BTreeMap<String, f64>,
) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    let entry = CATALOG
        .iter()
        .find(|e| (e.info)().id == id)
        .ok_or_else(|| OdeError::UnknownModel {
            id: id.to_string(),
            known: catalog().into_iter().map(|m| m.id).collect(),
        })?;
    let info = (entry.info)();
    for name in overrides.keys() {
        if !info.params.iter().any(|p| &p.name == name) {
            return Err(OdeError::UnknownParam {
                model: id.to_string(),
                name: name.clone(),
                known: info.params.iter().map(|p| p.name.clone()).collect(),
            });
        }
    }
    let mut values = Vec::with_capacity(info.params.len());
    for p in &info.params {
        let v = overrides.get(&p.name).copied().unwrap_or(p.value);
        if !v.is_finite() {
            return Err(OdeError::NotFinite {
                what: format!("parameter {}", p.name),
            });
        }
        if let Some(lo) = p.greater_than {
            if v <= lo {
                return Err(OdeError::BadParam {
                    name: p.name.clone(),
                    value: v,
                    greater_than: lo,
                });
            }
        }
        values.push(v);
    }
    let model = (entry.build)(&values);
    Ok((info, model))
}
