//! The two formulations side by side on one mechanism, in the layout of Negrut et al. 2003
//! Tables 4–6: for each formulation the work (steps, rejections, f-evaluations,
//! Jacobians, LUs, Newton iterations, re-partitions), the constraint drift (largest
//! ‖Φ‖ and ‖Φ_q q̇‖ along the run and at the end), the time taken, and the error of body
//! 1's angle φ1 (Table 4) and rate φ̇1 (Table 6) against a reference: t* where the
//! largest error Δ occurred, Δ, RelErr [%] = Δ/|E*|·100, and the RMS error Δ̄ over the
//! steps (Negrut et al. 2003 §3.1). The reference is the native formulation run with ros4 (analytic
//! Jacobian) at rtol = atol = [`REFERENCE_TOL`], read at each compared step's time from its dense
//! output (the paper interpolates a fine constant-step run with cubic splines; a
//! dense output of a run 1e4–1e7 times more accurate plays the same role).
//!
//! For `vehicle-stiff` the compared quantity is the chassis height y_c and its rate (001
//! Fig. 4 plots it), and the reference is the same body-coordinate mechanism in the
//! state-space formulation at [`REFERENCE_TOL`]: the native half-car is a small-angle
//! model that reads the road at a time, not at each wheel's x, and differs from the
//! mechanism by ~5e-4 m, which would hide the integration error being compared.
//!
//! Time is measured with a clock the caller passes (milliseconds), because
//! `std::time::Instant` does not exist on wasm32-unknown-unknown.

use crate::driver::{solve, Solution};
use crate::error::OdeError;
use crate::multibody::Formulation;
use crate::spec::SolveSpec;
use serde::Serialize;

/// Tolerance of the reference run.
pub const REFERENCE_TOL: f64 = 1e-10;

/// Error of one quantity against the reference (a row of Negrut et al. 2003 Table 4 or 6).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorRow {
    pub quantity: String,
    /// Time of the largest error.
    pub t_star: f64,
    /// Largest error Δ.
    pub max: f64,
    /// Δ / |E*| × 100, E* the reference value at t*.
    pub rel_err_percent: f64,
    /// RMS error over the steps, Δ̄.
    pub rms: f64,
}

/// One formulation's run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormulationRow {
    pub formulation: String,
    pub naccept: u64,
    pub nreject: u64,
    pub nfev: u64,
    pub njev: u64,
    pub nlu: u64,
    pub newton_iterations: u64,
    pub repartitions: usize,
    pub max_drift: f64,
    pub max_velocity_drift: f64,
    pub final_drift: f64,
    pub final_velocity_drift: f64,
    pub time_ms: f64,
    pub position: ErrorRow,
    pub velocity: ErrorRow,
    /// Why the run stopped early, if it did.
    pub stopped_by: Option<String>,
}

/// The comparison table.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub model: String,
    pub method: String,
    /// The reference run: its formulation, method and tolerance in words.
    pub reference: String,
    pub reference_steps: u64,
    pub rows: Vec<FormulationRow>,
}

/// What a comparison tabulates for a model, and where the reference run reads it.
struct Compared {
    /// Names of the compared position and rate in the formulations' outputs.
    position: &'static str,
    rate: &'static str,
    /// The reference run's formulation (None: native) and the indices of the compared
    /// position and rate in its state.
    reference: Option<&'static str>,
    index: (usize, usize),
}

impl Compared {
    fn of(model: &str) -> Result<Self, OdeError> {
        let body_1 = |index| Compared {
            position: "φ1",
            rate: "φ̇1",
            reference: None,
            index,
        };
        match model {
            "double-pendulum-rsda" => Ok(body_1((0, 2))),
            "double-pendulum-stiff" => Ok(body_1((2, 8))),
            "pendulum-particle" => Ok(body_1((0, 1))),
            // State (x_c, y_c, φ_c, y_f, y_r, rates…) of the default partition.
            "vehicle-stiff" => Ok(Compared {
                position: "yc",
                rate: "y\u{307}c",
                reference: Some("state-space"),
                index: (1, 6),
            }),
            other => Err(OdeError::BadSpec {
                message: format!(
                    "compareFormulations: model \"{other}\" has no constrained formulation"
                ),
            }),
        }
    }

    fn describe_reference(&self) -> String {
        match self.reference {
            None => "native".into(),
            Some(f) => format!("{f} (the same mechanism)"),
        }
    }
}

fn series<'a>(run: &'a Solution, name: &str) -> &'a [f64] {
    run.outputs
        .iter()
        .find(|(n, _)| n == name)
        .map_or(&[], |(_, s)| s.as_slice())
}

fn error_row(quantity: &str, t: &[f64], value: &[f64], reference: &[f64]) -> ErrorRow {
    let samples = t
        .iter()
        .zip(value)
        .zip(reference)
        .map(|((&t, &v), &r)| (t, v, r));
    let stats = crate::reference::error_stats(samples);
    // 001's RelErr is Δ relative to the reference at t*; with no error at all, t* stays 0.
    let (t_star, r) = if stats.max > 0.0 {
        (stats.t_max, stats.reference_at_max)
    } else {
        (0.0, 0.0)
    };
    ErrorRow {
        quantity: quantity.into(),
        t_star,
        max: stats.max,
        rel_err_percent: if r != 0.0 {
            stats.max / r.abs() * 100.0
        } else {
            0.0
        },
        rms: stats.rms,
    }
}

fn max_of(s: &[f64]) -> f64 {
    s.iter().copied().fold(0.0, f64::max)
}

/// Runs the spec's model in the augmented and the state-space formulation (its
/// `formulation` field is ignored) and compares them with a reference run.
pub fn compare_formulations(
    spec: &SolveSpec,
    clock: &dyn Fn() -> f64,
) -> Result<Comparison, OdeError> {
    let compared = Compared::of(&spec.model)?;
    let (i_angle, i_rate) = compared.index;
    let mut runs = Vec::new();
    for f in [Formulation::Augmented, Formulation::StateSpace] {
        let mut s = spec.clone();
        s.formulation = Some(
            match f {
                Formulation::Augmented => "augmented",
                _ => "state-space",
            }
            .into(),
        );
        if f == Formulation::StateSpace {
            s.stabilization = None;
        } else {
            s.independent = None;
        }
        let start = clock();
        let run = solve(&s)?;
        runs.push((
            s.formulation.clone().unwrap_or_default(),
            run,
            clock() - start,
        ));
    }
    // Reference at every time point of both runs.
    let mut times: Vec<f64> = runs.iter().flat_map(|(_, r, _)| r.t.clone()).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let reference = solve(&SolveSpec {
        formulation: compared.reference.map(String::from),
        stabilization: None,
        independent: None,
        rtol: Some(crate::spec::Tol::Scalar(REFERENCE_TOL)),
        atol: Some(crate::spec::Tol::Scalar(REFERENCE_TOL)),
        t_eval: Some(times.clone()),
        method: "ros4".into(),
        jacobian: None,
        jacobian_update: None,
        jacobian_scale: None,
        h: None,
        adaptive: None,
        max_steps: None,
        ..spec.clone()
    })?;
    let at = |t: f64, k: usize| -> f64 {
        match reference.t_eval.binary_search_by(|x| x.total_cmp(&t)) {
            Ok(i) => reference.y_eval[i * reference.dim + k],
            Err(_) => f64::NAN,
        }
    };
    let mut rows = Vec::new();
    for (name, run, ms) in runs {
        let phi1 = series(&run, &format!("q:{}", compared.position));
        let rate1 = series(&run, &format!("q:{}", compared.rate));
        let ref_angle: Vec<f64> = run.t.iter().map(|&t| at(t, i_angle)).collect();
        let ref_rate: Vec<f64> = run.t.iter().map(|&t| at(t, i_rate)).collect();
        let drift = series(&run, "constraint |Φ|");
        let vdrift = series(&run, "velocity constraint |Φq q̇|");
        let report = run.constraint.clone().unwrap_or_default();
        rows.push(FormulationRow {
            formulation: name,
            naccept: run.stats.naccept,
            nreject: run.stats.nreject,
            nfev: run.stats.nfev,
            njev: run.stats.njev,
            nlu: run.stats.nlu,
            newton_iterations: report.newton_iterations,
            repartitions: report.repartitions.len(),
            max_drift: max_of(drift),
            max_velocity_drift: max_of(vdrift),
            final_drift: drift.last().copied().unwrap_or(f64::NAN),
            final_velocity_drift: vdrift.last().copied().unwrap_or(f64::NAN),
            time_ms: ms,
            position: error_row(compared.position, &run.t, phi1, &ref_angle),
            velocity: error_row(compared.rate, &run.t, rate1, &ref_rate),
            stopped_by: run.warning.clone(),
        });
    }
    Ok(Comparison {
        model: spec.model.clone(),
        method: spec.method.clone(),
        reference: format!(
            "{} ros4 at rtol = atol = {REFERENCE_TOL:e}",
            compared.describe_reference()
        ),
        reference_steps: reference.stats.naccept,
        rows,
    })
}
