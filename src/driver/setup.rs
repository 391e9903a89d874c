//! Setting up a run: the spec's model (a catalogue model, a constrained formulation or
//! the user's system text), its method, the pacing (fixed grid or step-size control)
//! and the watched switching functions, all checked before the first step.

use super::pacing::{ControlPacing, GridPacing, Pacing};
use super::record::{fits, too_large, values_in};
use super::stepping::Integrator;
use crate::control::initial_step;
use crate::error::OdeError;
use crate::event::{Detector, EventFunction, EventSource};
use crate::jacobian::{JacobianOptions, JacobianSource};
use crate::method::{self, MethodOptions};
use crate::model::{self, Model, ModelInfo};
use crate::multibody::{Built, Formulation};
use crate::spec::{finite, Grid, SolveSpec};
use crate::stats::Stats;

fn check_interval(t0: f64, t1: f64) -> Result<(f64, f64), OdeError> {
    let t0 = finite(t0, "start time t0")?;
    let t1 = finite(t1, "end time t1")?;
    if t1 <= t0 {
        return Err(OdeError::BadInterval { t0, t1 });
    }
    Ok((t0, t1))
}

/// The watched functions of a spec, checked against the model's declarations.
fn build_detector(spec: &SolveSpec, info: &ModelInfo) -> Result<Detector, OdeError> {
    let known: Vec<String> = info.events.iter().map(|e| e.id.clone()).collect();
    let mut detector = Detector::default();
    for (index, e) in spec.events.iter().enumerate() {
        let source = match (&e.id, &e.expr) {
            (Some(_), Some(_)) => {
                return Err(OdeError::BadEvent {
                    index,
                    message: "give either id or expr, not both".into(),
                })
            }
            (None, None) => {
                return Err(OdeError::BadEvent {
                    index,
                    message: "name a switching function with id (or expr)".into(),
                })
            }
            // A text expression over the model's states, parameters and t.
            (None, Some(expr)) => EventSource::Function(event_function(expr, info, spec)?),
            (Some(id), None) => match known.iter().position(|k| k == id) {
                Some(i) => EventSource::Model(i),
                None => {
                    return Err(OdeError::UnknownEvent {
                        model: info.id.clone(),
                        id: id.clone(),
                        known,
                    })
                }
            },
        };
        let direction = match e.direction {
            None => 0,
            Some(0.0) => 0,
            Some(1.0) => 1,
            Some(-1.0) => -1,
            Some(d) => {
                return Err(OdeError::OutOfRange {
                    what: format!("events[{index}].direction"),
                    value: d,
                    allowed: "-1 (falling), 0 (both) or 1 (rising)".into(),
                })
            }
        };
        detector.watch(source, direction, e.terminal.unwrap_or(false));
    }
    // A user system's `event` lines are watched unless the spec lists its own events.
    if spec.events.is_empty() {
        for (i, e) in info.events.iter().enumerate().filter(|(_, e)| e.watched) {
            detector.watch(EventSource::Model(i), e.direction, e.terminal);
        }
    }
    Ok(detector)
}

/// A switching function written as text over the model's states, parameters and t.
#[cfg(feature = "full")]
fn event_function(
    expr: &str,
    info: &ModelInfo,
    spec: &SolveSpec,
) -> Result<Box<dyn EventFunction>, OdeError> {
    Ok(Box::new(crate::expr::compile_model_expr(
        expr,
        info,
        &spec.params,
    )?))
}

/// The first-load build has no expression language (cargo feature `full`).
#[cfg(not(feature = "full"))]
fn event_function(
    _: &str,
    _: &ModelInfo,
    _: &SolveSpec,
) -> Result<Box<dyn EventFunction>, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "an event written as an expression (`events[].expr`)",
    })
}

/// The state a run starts from: the spec's y0 (of the model's dimension), else the
/// model's own default.
pub(crate) fn initial_state(
    y0: Option<&Vec<f64>>,
    info: &ModelInfo,
    model: &dyn Model,
) -> Result<Vec<f64>, OdeError> {
    match y0 {
        Some(y0) if y0.len() != info.dim => Err(OdeError::WrongLength {
            what: format!("initial state y0 of model \"{}\"", info.id),
            expected: info.dim,
            got: y0.len(),
        }),
        Some(y0) => Ok(y0.clone()),
        None => Ok(model.default_y0().unwrap_or_else(|| info.y0.clone())),
    }
}

/// The model a spec names, or the user's system text it carries.
pub(crate) fn build_model(spec: &SolveSpec) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    match (&spec.system, spec.model.is_empty()) {
        (Some(text), true) => user_system(text, spec),
        (Some(_), false) => Err(OdeError::BadSpec {
            message: "give either model or system, not both".into(),
        }),
        (None, true) => Err(OdeError::BadSpec {
            message: "missing field `model` (a model id, or give your own `system` text)".into(),
        }),
        (None, false) => match formulation(spec)? {
            Some(built) => Ok(built),
            None => model::build(&spec.model, &spec.params),
        },
    }
}

/// The user's system text, compiled by the expression language (`crate::expr`): a
/// constrained system (coordinates, constraints) in its formulation, or equations.
#[cfg(feature = "full")]
fn user_system(text: &str, spec: &SolveSpec) -> Result<Built, OdeError> {
    if crate::expr::constrained::is_constrained(text) {
        let desc = crate::expr::constrained::describe(text, &spec.params)?;
        return crate::multibody::build_described(desc, &spec.formulation_request());
    }
    if spec.formulation.is_some() {
        return Err(OdeError::BadSpec {
            message: "formulation is for the constrained catalogue models and for \
                      constrained systems (coordinates, mass, force, constraint)"
                .into(),
        });
    }
    crate::expr::build_user_system(text, &spec.params)
}

/// The first-load build has no expression language (cargo feature `full`).
#[cfg(not(feature = "full"))]
fn user_system(_: &str, _: &SolveSpec) -> Result<Built, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "your own system (`system`)",
    })
}

/// A constrained formulation of a catalogue model (`crate::multibody`), or `None` for
/// the model's native one.
#[cfg(feature = "full")]
fn formulation(spec: &SolveSpec) -> Result<Option<Built>, OdeError> {
    crate::multibody::build(&spec.formulation_request())
}

/// The first-load build runs the native formulation only (cargo feature `full`): any
/// other formulation field goes to the whole engine, which also checks it.
#[cfg(not(feature = "full"))]
fn formulation(spec: &SolveSpec) -> Result<Option<Built>, OdeError> {
    let native = matches!(spec.formulation.as_deref(), None | Some("native"))
        && spec.stabilization.is_none()
        && spec.baumgarte_alpha.is_none()
        && spec.baumgarte_beta.is_none()
        && spec.partition_limit.is_none()
        && spec.independent.is_none();
    if native {
        Ok(None)
    } else {
        Err(OdeError::NotInThisBuild {
            what: "a constrained formulation (`formulation`)",
        })
    }
}

/// The entries of the sparse Jacobian (stored and diagonal) a method on the sparse path
/// fills for this system, or `None` when it takes the dense one: the method factors
/// sparse ([`method::MethodInfo::sparse`]), the Jacobian is the system's own (finite
/// differences are dense) and the system gives a sparse pattern. Its memory is counted
/// as sixteen values an entry: J, the real factors with their fill and radau5's complex
/// ones.
fn sparse_entries(
    spec: &SolveSpec,
    method: &method::MethodInfo,
    info: &ModelInfo,
    model: &dyn Model,
) -> Option<usize> {
    let analytic = matches!(spec.jacobian.as_deref(), None | Some("analytic"));
    if !(method.needs_jacobian && analytic && method.sparse) {
        return None;
    }
    // The pattern is structural: the model's default state shows it.
    let j = model.jacobian_sparse(spec.t0.unwrap_or(info.t0), &info.y0)?;
    Some(j.nnz().saturating_add(info.dim))
}

impl Integrator {
    /// Validates the spec and sets up a run at (t0, y0).
    pub fn new(spec: &SolveSpec) -> Result<Self, OdeError> {
        let (info, model) = build_model(spec)?;
        let (method, custom) = method::resolve(&spec.method, spec.tableau.as_ref())?;
        // A method's matrices must fit before any is allocated: on the sparse path the
        // pattern's entries (J, and its factors with their fill), else the dense n × n
        // matrices (J, the LU of I − γhJ, an exponential's block of n + 3).
        let sparse_entries = sparse_entries(spec, &method, &info, model.as_ref());
        if let Some(entries) = sparse_entries {
            let values = values_in(&[16, entries]);
            if !fits(values) {
                return Err(too_large(
                    format!(
                        "method \"{}\" on {} states (its sparse Jacobian and factors)",
                        method.id, info.dim
                    ),
                    values,
                ));
            }
        } else if method.needs_jacobian {
            let n = info.dim.saturating_add(3);
            let matrices = values_in(&[4, n, n]);
            if !fits(matrices) {
                return Err(too_large(
                    format!(
                        "method \"{}\" on {d} states (its {d} × {d} Jacobian, LU and \
                         exponential)",
                        method.id,
                        d = info.dim
                    ),
                    matrices,
                ));
            }
        }
        if method.second_order && !info.second_order {
            return Err(OdeError::NeedsSecondOrderModel {
                method: method.id.into(),
                model: info.id.clone(),
            });
        }
        let jacobian = JacobianOptions::from_spec(
            spec.jacobian.as_deref(),
            spec.jacobian_update,
            spec.jacobian_scale,
        )?;
        let fast = match &spec.fast {
            Some(fast) => fast.clone(),
            None => info.fast.clone(),
        };
        if method.partitioned && fast.is_empty() {
            return Err(OdeError::BadSpec {
                message: format!(
                    "method \"{}\" needs the fast states: model \"{}\" declares none, so \
                     {}",
                    method.id,
                    info.id,
                    if spec.system.is_some() {
                        "add a line naming them to your system, e.g. fast v"
                    } else {
                        "give their indices in the spec, e.g. fast: [1]"
                    }
                ),
            });
        }
        let options = MethodOptions {
            jacobian,
            fast,
            custom,
            params: spec.method_params.as_ref().cloned(),
        };
        let mut stepper = method::create_with(&spec.method, info.dim, &options)?;
        // A non-native formulation maps the spec's y0 (native layout) itself.
        let native = Formulation::parse(spec.formulation.as_deref())? == Formulation::Native;
        let spec_y0 = if native { spec.y0.as_ref() } else { None };
        let y0 = initial_state(spec_y0, &info, model.as_ref())?;
        // The message names the first non-finite value only (not one string per state).
        if let Some((v, name)) = y0.iter().zip(&info.names).find(|(v, _)| !v.is_finite()) {
            finite(*v, &format!("initial value of {name}"))?;
        }
        // Refuse up front, with both names, a method that needs derivatives the model
        // does not give (rather than failing at the first step).
        if method.needs_jacobian
            && jacobian.source == JacobianSource::Analytic
            && !model.has_derivatives(spec.t0.unwrap_or(info.t0), &y0)
        {
            return Err(OdeError::NoJacobian {
                method: method.id.into(),
                model: info.id.clone(),
            });
        }
        let adaptive = match spec.adaptive {
            None => method.adaptive,
            Some(true) if !method.adaptive => {
                return Err(OdeError::NotAdaptive {
                    method: method.id.into(),
                    adaptive: method::CATALOG
                        .iter()
                        .filter(|m| m.adaptive)
                        .map(|m| m.id.to_string())
                        .collect(),
                })
            }
            Some(a) => a,
        };
        let q = method.embedded_order.unwrap_or(method.order);
        // Below RTOL_FLOOR error control measures rounding noise: it runs at the floor,
        // and the diagnosis says so.
        let tolerance = spec.tolerance(info.dim)?.floored();
        // The method's error estimate is measured against its calibration of the run's
        // tolerance; an adaptive run hands it over for the method's inner iteration.
        let error_tolerance = stepper.error_tolerance(&tolerance);
        if adaptive {
            stepper.set_tolerance(&error_tolerance);
        }
        let norm = spec.error_norm()?;
        let controller = spec.controller(q)?;
        let mut detector = build_detector(spec, &info)?;
        let mut stats = Stats::default();
        let t0 = spec.t0.unwrap_or(info.t0);
        let t1 = spec.t1.unwrap_or(info.t1);
        let max_steps = spec.checked_max_steps()?;
        let pacing = if adaptive {
            let (t0, t1) = check_interval(t0, t1)?;
            let h_max = match spec.h_max {
                None => f64::INFINITY,
                Some(m) if m.is_nan() || m <= 0.0 => {
                    return Err(OdeError::OutOfRange {
                        what: "hMax (the largest step)".into(),
                        value: m,
                        allowed: "a positive number".into(),
                    })
                }
                Some(m) => m,
            };
            let h = match spec.h {
                Some(h) if h.is_nan() || h <= 0.0 => return Err(OdeError::BadStepSize { h }),
                Some(h) => finite(h, "step size h")?.min(t1 - t0),
                None => {
                    let h = initial_step(model.as_ref(), t0, &y0, t1, q, &tolerance, &mut stats);
                    // A constraint failure at the start shows again at the first step.
                    let _ = model.take_failure();
                    h
                }
            };
            Pacing::Control(ControlPacing {
                controller,
                h: h.min(h_max),
                max_steps,
                h_max,
                rejected: false,
                failures: 0,
                method_control: spec.controller.is_none() && stepper.step_control().is_some(),
            })
        } else {
            let h = spec.h.ok_or_else(|| OdeError::BadSpec {
                message: format!(
                    "method \"{}\" takes a fixed step: give a step size h",
                    spec.method
                ),
            })?;
            Pacing::Grid(GridPacing::new(Grid::new(t0, t1, h, max_steps)?, max_steps))
        };
        spec.checked_t_eval(t0, t1)?;
        detector.start(model.as_ref(), t0, &y0);
        let n = info.dim as f64;
        let matrix_entries = sparse_entries.map_or(n * n, |e| e as f64);
        Ok(Self {
            between_steps: model.acts_between_steps(),
            y_next: vec![0.0; info.dim],
            y_cut: vec![0.0; info.dim],
            info,
            method,
            model,
            stepper,
            options,
            restart: false,
            pacing,
            tolerance: error_tolerance,
            norm,
            detector,
            t0,
            t1,
            t: t0,
            y: y0.clone(),
            y0,
            last_step: None,
            events: Vec::new(),
            stopped_by_event: false,
            matrix_entries,
            max_work: spec.checked_max_work()?,
            stopped: None,
            stats,
            inspector: super::inspect::for_spec(spec)?,
        })
    }
}
