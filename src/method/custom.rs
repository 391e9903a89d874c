//! `method: "custom"`: a user's Butcher tableau (issue 7) run by the generic explicit RK
//! step (`explicit_rk.rs`) over an [`OwnedTableau`]. Its [`MethodInfo`] is computed from
//! the tableau: the order from the order conditions (`crate::tableau::conditions`), an
//! error estimate E = b − b̂ with the embedded order when b̂ is given (then it adapts
//! its step by default), FSAL when the last row of A is b, the cubic Hermite
//! interpolant for dense output.
//!
//! Diagonally implicit tableaux are analysed (order, R(z), stability region) but not
//! yet run: `solve` refuses them with a typed error.

use super::explicit_rk::{ExplicitRk, OwnedTableau};
use super::{MethodInfo, Stepper};
use crate::error::{num, OdeError};
use crate::tableau::{analyze, ButcherTableau, TableauSpec};
use std::borrow::Cow;

/// The method id of a user's tableau.
pub const ID: &str = "custom";

/// Checks a spec's tableau for `solve` and describes the method it defines.
pub fn resolve(spec: Option<&TableauSpec>) -> Result<(MethodInfo, ButcherTableau), OdeError> {
    let spec = spec.ok_or_else(|| OdeError::BadSpec {
        message: "method \"custom\" needs a tableau { a, b, c?, bHat? }".into(),
    })?;
    let tab = spec.parse()?;
    if let Some((i, d)) = tab.first_diagonal() {
        return Err(OdeError::BadSpec {
            message: format!(
                "diagonally implicit tableaux are not supported in solve yet \
                 (tableau.a[{i}][{i}] = {} is on the diagonal); analyzeTableau and the \
                 stability view accept them",
                num(d)
            ),
        });
    }
    let analysis = analyze(&tab);
    let adaptive = tab.b_hat.is_some();
    let info = MethodInfo {
        id: ID,
        name: "Your own method",
        order: analysis.order,
        family: if adaptive {
            "explicit Runge–Kutta, embedded pair (your tableau)"
        } else {
            "explicit Runge–Kutta (your tableau)"
        },
        source: "your Butcher tableau",
        stages: (tab.stages() - usize::from(analysis.fsal)) as u32,
        adaptive,
        embedded_order: analysis.embedded_order,
        fsal: analysis.fsal,
        dense_order: analysis.order.min(3),
        second_order: false,
        needs_jacobian: false,
        l_stable: false,
        partitioned: false,
    };
    Ok((info, tab))
}

/// The stepper of a checked explicit tableau.
pub fn create(info: MethodInfo, tab: &ButcherTableau, dim: usize) -> Box<dyn Stepper> {
    let error = tab
        .b_hat
        .as_ref()
        .map(|bh| tab.b.iter().zip(bh).map(|(b, bh)| b - bh).collect());
    let owned = OwnedTableau {
        a: tab
            .a
            .iter()
            .enumerate()
            .map(|(i, row)| row[..i].to_vec())
            .collect(),
        b: tab.b.clone(),
        c: tab.c.clone(),
        error,
        fsal: info.fsal,
    };
    Box::new(ExplicitRk::with_coefficients(Cow::Owned(info), owned, dim))
}
