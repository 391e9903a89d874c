//! A generic explicit Runge–Kutta step driven by a Butcher tableau (A, b, c).
//!
//! Every explicit RK method in odelab is a `const` [`Tableau`] plus this one loop, so
//! the stability analysis can read the same coefficients the integrator uses.

use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;

/// A Butcher tableau of an explicit method: `a[i]` holds the `i` entries left of the
/// diagonal in row `i` (row 0 is empty), `b` the weights, `c` the nodes.
#[derive(Debug, Clone, Copy)]
pub struct Tableau {
    pub a: &'static [&'static [f64]],
    pub b: &'static [f64],
    pub c: &'static [f64],
}

impl Tableau {
    /// Number of stages.
    pub const fn stages(&self) -> usize {
        self.b.len()
    }
}

/// An explicit RK stepper with its stage vectors allocated once.
pub struct ExplicitRk {
    info: &'static MethodInfo,
    tableau: &'static Tableau,
    k: Vec<Vec<f64>>,
    y_stage: Vec<f64>,
}

impl ExplicitRk {
    pub fn new(info: &'static MethodInfo, tableau: &'static Tableau, dim: usize) -> Self {
        Self {
            info,
            tableau,
            k: vec![vec![0.0; dim]; tableau.stages()],
            y_stage: vec![0.0; dim],
        }
    }
}

impl Stepper for ExplicitRk {
    fn info(&self) -> &'static MethodInfo {
        self.info
    }

    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let tab = self.tableau;
        for (i, row) in tab.a.iter().enumerate() {
            self.y_stage.copy_from_slice(y);
            for (j, &aij) in row.iter().enumerate() {
                if aij != 0.0 {
                    for (ys, kj) in self.y_stage.iter_mut().zip(&self.k[j]) {
                        *ys += h * aij * kj;
                    }
                }
            }
            sys.rhs(t + tab.c[i] * h, &self.y_stage, &mut self.k[i]);
            stats.nfev += 1;
        }
        y_out.copy_from_slice(y);
        for (bi, ki) in tab.b.iter().zip(&self.k) {
            for (yo, kv) in y_out.iter_mut().zip(ki) {
                *yo += h * bi * kv;
            }
        }
        Ok(())
    }
}
