//! Per-component tolerances and the composite scale sc_i of Negrut et al. 2003 eq. (4).

use crate::error::OdeError;

/// rtol below this (100 units of round-off) asks for more than double precision can
/// resolve: error estimates of such steps are rounding noise, and a run asked for 1e-16
/// delivered 100–1000× less than asked. Error control uses at least this.
pub const RTOL_FLOOR: f64 = 100.0 * f64::EPSILON;

/// Relative and absolute tolerances, one of each per state component.
#[derive(Debug, Clone, PartialEq)]
pub struct Tolerance {
    pub rtol: Vec<f64>,
    pub atol: Vec<f64>,
}

impl Tolerance {
    /// Checked tolerances: every rtol > 0, every atol ≥ 0, all finite, one per component.
    pub fn new(rtol: Vec<f64>, atol: Vec<f64>) -> Result<Self, OdeError> {
        // The name is made only for a message: formatting one per component would cost
        // more than the rest of a big system's setup.
        let name = |what: &str, len: usize, i: usize| {
            if len == 1 {
                what.to_string()
            } else {
                format!("{what}[{i}]")
            }
        };
        for (i, &r) in rtol.iter().enumerate() {
            if !r.is_finite() {
                return Err(OdeError::NotFinite {
                    what: name("rtol", rtol.len(), i),
                });
            }
            if r <= 0.0 {
                return Err(OdeError::OutOfRange {
                    what: name("rtol", rtol.len(), i),
                    value: r,
                    allowed: "greater than 0 (a relative error, e.g. 1e-6)".into(),
                });
            }
        }
        for (i, &a) in atol.iter().enumerate() {
            if !a.is_finite() {
                return Err(OdeError::NotFinite {
                    what: name("atol", atol.len(), i),
                });
            }
            if a < 0.0 {
                return Err(OdeError::OutOfRange {
                    what: name("atol", atol.len(), i),
                    value: a,
                    allowed: "0 or more (an absolute error, e.g. 1e-9)".into(),
                });
            }
        }
        Ok(Self { rtol, atol })
    }

    /// The tolerance error control can honour: every rtol raised to [`RTOL_FLOOR`] (the
    /// run's diagnosis says so, `tolerance-too-tight`).
    pub fn floored(mut self) -> Self {
        for r in &mut self.rtol {
            *r = r.max(RTOL_FLOOR);
        }
        self
    }

    /// The smallest rtol of any component.
    pub fn rtol_min(&self) -> f64 {
        self.rtol.iter().fold(f64::INFINITY, |m, &r| m.min(r))
    }

    /// The same tolerance for every one of `dim` components.
    pub fn uniform(rtol: f64, atol: f64, dim: usize) -> Result<Self, OdeError> {
        Self::new(vec![rtol; dim], vec![atol; dim])
    }

    /// sc_i = Atol_i + max(|y_n,i|, |y_{n+1},i|) · Rtol_i (Negrut et al. 2003 eq. 4).
    pub fn scale(&self, i: usize, y_old: f64, y_new: f64) -> f64 {
        self.atol[i] + y_old.abs().max(y_new.abs()) * self.rtol[i]
    }
}
