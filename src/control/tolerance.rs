//! Per-component tolerances and the composite scale sc_i of Negrut et al. 2003 eq. (4).

use crate::error::OdeError;

/// Relative and absolute tolerances, one of each per state component.
#[derive(Debug, Clone, PartialEq)]
pub struct Tolerance {
    pub rtol: Vec<f64>,
    pub atol: Vec<f64>,
}

impl Tolerance {
    /// Checked tolerances: every rtol > 0, every atol ≥ 0, all finite, one per component.
    pub fn new(rtol: Vec<f64>, atol: Vec<f64>) -> Result<Self, OdeError> {
        for (i, &r) in rtol.iter().enumerate() {
            let what = if rtol.len() == 1 {
                "rtol".to_string()
            } else {
                format!("rtol[{i}]")
            };
            if !r.is_finite() {
                return Err(OdeError::NotFinite { what });
            }
            if r <= 0.0 {
                return Err(OdeError::OutOfRange {
                    what,
                    value: r,
                    allowed: "greater than 0 (a relative error, e.g. 1e-6)".into(),
                });
            }
        }
        for (i, &a) in atol.iter().enumerate() {
            let what = if atol.len() == 1 {
                "atol".to_string()
            } else {
                format!("atol[{i}]")
            };
            if !a.is_finite() {
                return Err(OdeError::NotFinite { what });
            }
            if a < 0.0 {
                return Err(OdeError::OutOfRange {
                    what,
                    value: a,
                    allowed: "0 or more (an absolute error, e.g. 1e-9)".into(),
                });
            }
        }
        Ok(Self { rtol, atol })
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
