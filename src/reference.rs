//! Comparing a run against a fine reference run, the way Negrut et al. 2003 §3.1 does (its
//! Tables 4 and 6): for each state, the largest error Δ and the time t* where it occurs,
//! two relative errors, and the RMS error over the run's points.
//!
//! The paper's RelErr is Δ/|E*|, E* the reference at t*. That measure jumps when the
//! state passes near zero at t* (θ̇1 of its Table 6 changes sign), so the page's
//! "relative" column is Δ / max|y_ref|, the error against the state's own scale over
//! the run; `relative_at_max` gives the paper's Δ/|E*| beside it (as a fraction; the
//! paper prints per cent), and `crate::compare` tabulates the paper's. The
//! reference is interpolated at the run's times by a natural cubic spline through its
//! own points (001 interpolates its reference the same way), so the two runs need not
//! share a grid.

use crate::driver::{solve, Solution};
use crate::error::OdeError;
use crate::spec::SolveSpec;
use serde::Serialize;

/// One row of the comparison table: one state component.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ComponentError {
    pub name: String,
    /// Largest |y − y_ref| over the run's points.
    pub max_error: f64,
    /// The time where it occurs.
    pub t_max: f64,
    /// max_error / max |y_ref| (the reference's own scale).
    pub relative_error: f64,
    /// max_error / |y_ref(t_max)|: Negrut et al. 2003 §3.1's RelErr (Δ/|E*|) as a
    /// fraction; 0 when the reference is 0 there.
    pub relative_at_max: f64,
    /// sqrt(mean (y − y_ref)²) over the run's points.
    pub rms_error: f64,
}

/// The error statistics of Negrut et al. 2003 Tables 4 and 6 over paired samples: the largest error Δ,
/// the time t* where it occurs (and the reference there), and the RMS error Δ̄.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorStats {
    pub max: f64,
    /// t* (the first sample's time while every error is zero).
    pub t_max: f64,
    /// The reference value at t*.
    pub reference_at_max: f64,
    pub rms: f64,
}

/// [`ErrorStats`] of (t, value, reference) samples.
pub fn error_stats(samples: impl IntoIterator<Item = (f64, f64, f64)>) -> ErrorStats {
    let mut stats = ErrorStats {
        max: 0.0,
        t_max: f64::NAN,
        reference_at_max: 0.0,
        rms: 0.0,
    };
    let (mut sum, mut count) = (0.0, 0usize);
    for (t, value, reference) in samples {
        if count == 0 {
            stats.t_max = t;
        }
        let e = (value - reference).abs();
        sum += e * e;
        count += 1;
        if e > stats.max {
            stats.max = e;
            stats.t_max = t;
            stats.reference_at_max = reference;
        }
    }
    stats.rms = (sum / count.max(1) as f64).sqrt();
    stats
}

/// The run, the reference and the table.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub run: Solution,
    pub reference: Solution,
    pub table: Vec<ComponentError>,
}

/// A natural cubic spline through (x_i, y_i), x strictly increasing.
pub struct CubicSpline {
    x: Vec<f64>,
    y: Vec<f64>,
    /// Second derivatives at the knots (zero at both ends: "natural").
    m: Vec<f64>,
}

impl CubicSpline {
    /// The spline through the points; `None` unless there are two or more points with
    /// strictly increasing x.
    pub fn new(x: &[f64], y: &[f64]) -> Option<Self> {
        let n = x.len();
        // "Strictly increasing" fails for NaN too: every comparison with NaN is false.
        let increasing = x.windows(2).all(|w| w[1] > w[0]);
        if n < 2 || y.len() != n || !increasing {
            return None;
        }
        // Tridiagonal system for the interior second derivatives (Thomas algorithm).
        let mut m = vec![0.0; n];
        if n > 2 {
            let h: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
            let mut diag = vec![0.0; n];
            let mut rhs = vec![0.0; n];
            for i in 1..n - 1 {
                diag[i] = 2.0 * (h[i - 1] + h[i]);
                rhs[i] = 6.0 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1]);
            }
            for i in 2..n - 1 {
                let w = h[i - 1] / diag[i - 1];
                diag[i] -= w * h[i - 1];
                rhs[i] -= w * rhs[i - 1];
            }
            for i in (1..n - 1).rev() {
                let upper = if i + 1 < n - 1 { h[i] * m[i + 1] } else { 0.0 };
                m[i] = (rhs[i] - upper) / diag[i];
            }
        }
        Some(Self {
            x: x.to_vec(),
            y: y.to_vec(),
            m,
        })
    }

    /// The spline's value at `t` (clamped to the knots' range).
    pub fn eval(&self, t: f64) -> f64 {
        let n = self.x.len();
        let t = t.clamp(self.x[0], self.x[n - 1]);
        let i = match self.x.partition_point(|&v| v <= t) {
            0 => 0,
            k => (k - 1).min(n - 2),
        };
        let h = self.x[i + 1] - self.x[i];
        let a = (self.x[i + 1] - t) / h;
        let b = (t - self.x[i]) / h;
        a * self.y[i]
            + b * self.y[i + 1]
            + ((a * a * a - a) * self.m[i] + (b * b * b - b) * self.m[i + 1]) * h * h / 6.0
    }
}

/// Points of a run with strictly increasing times (an event cut can repeat a time).
fn increasing(sol: &Solution, component: usize) -> (Vec<f64>, Vec<f64>) {
    let mut x = Vec::with_capacity(sol.t.len());
    let mut y = Vec::with_capacity(sol.t.len());
    for (i, &t) in sol.t.iter().enumerate() {
        if x.last().is_some_and(|&last| t <= last) {
            continue;
        }
        x.push(t);
        y.push(sol.y[i * sol.dim + component]);
    }
    (x, y)
}

/// The comparison table of `run` against `reference` (same model, same interval).
pub fn compare_solutions(
    run: &Solution,
    reference: &Solution,
) -> Result<Vec<ComponentError>, OdeError> {
    if run.dim != reference.dim {
        return Err(OdeError::BadSpec {
            message: "the run and the reference must be of the same model".into(),
        });
    }
    let mut table = Vec::with_capacity(run.dim);
    for j in 0..run.dim {
        let (x, y) = increasing(reference, j);
        let spline = CubicSpline::new(&x, &y).ok_or_else(|| OdeError::BadSpec {
            message: "the reference run has fewer than two points".into(),
        })?;
        let scale = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let (mut max_error, mut t_max, mut sum) = (0.0f64, run.t[0], 0.0);
        let mut at_max = 0.0f64;
        for (i, &t) in run.t.iter().enumerate() {
            let r = spline.eval(t);
            let e = (run.y[i * run.dim + j] - r).abs();
            sum += e * e;
            if e > max_error {
                max_error = e;
                t_max = t;
                at_max = r;
            }
        }
        table.push(ComponentError {
            name: run.names.get(j).cloned().unwrap_or_default(),
            max_error,
            t_max,
            relative_error: if scale > 0.0 {
                max_error / scale
            } else {
                max_error
            },
            relative_at_max: if at_max != 0.0 {
                max_error / at_max.abs()
            } else {
                0.0
            },
            rms_error: (sum / run.t.len() as f64).sqrt(),
        });
    }
    Ok(table)
}

/// Solves `spec` and `reference` (which must integrate the same model over the same
/// interval) and compares them.
pub fn compare(spec: &SolveSpec, reference: &SolveSpec) -> Result<Comparison, OdeError> {
    let run = solve(spec)?;
    let reference_run = solve(reference)?;
    let (t0, t1) = (run.t[0], *run.t.last().unwrap_or(&run.t[0]));
    let (r0, r1) = (
        reference_run.t[0],
        *reference_run.t.last().unwrap_or(&reference_run.t[0]),
    );
    if (t0 - r0).abs() > 1e-12 * t0.abs().max(1.0) || r1 < t1 - 1e-12 * t1.abs().max(1.0) {
        return Err(OdeError::BadSpec {
            message: format!(
                "the reference must cover the run: it spans [{r0}, {r1}], the run [{t0}, {t1}]"
            ),
        });
    }
    let table = compare_solutions(&run, &reference_run)?;
    Ok(Comparison {
        run,
        reference: reference_run,
        table,
    })
}

/// Most times [`exact_at`] evaluates in one call (a smooth curve needs a few thousand).
pub const MAX_EXACT_TIMES: usize = 100_000;

/// The model's exact solution at `times` for the run `spec` describes (its t0 and y0,
/// the model's defaults where the spec gives none), row-major like a run's `y`; `None`
/// when the model knows no exact solution. A plot draws it smooth from these points
/// rather than as a polygon through the step points.
pub fn exact_at(spec: &SolveSpec, times: &[f64]) -> Result<Option<Vec<f64>>, OdeError> {
    if times.len() > MAX_EXACT_TIMES {
        return Err(OdeError::BadSpec {
            message: format!(
                "{} times asked for the exact solution; at most {MAX_EXACT_TIMES}",
                times.len()
            ),
        });
    }
    let (info, model) = crate::driver::build_model(spec)?;
    if !info.exact {
        return Ok(None);
    }
    let y0 = crate::driver::initial_state(spec.y0.as_ref(), &info, model.as_ref())?;
    let t0 = crate::error::finite(spec.t0.unwrap_or(info.t0), "start time t0")?;
    for (v, name) in y0.iter().zip(&info.names) {
        crate::error::finite(*v, &format!("initial value of {name}"))?;
    }
    let mut out = vec![0.0; times.len() * info.dim];
    for (&t, row) in times.iter().zip(out.chunks_exact_mut(info.dim.max(1))) {
        crate::error::finite(t, "a time of the exact solution")?;
        if !model.exact(t0, &y0, t, row) {
            return Ok(None);
        }
    }
    Ok(Some(out))
}
