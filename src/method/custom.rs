//! `method: "custom"`: a user's Butcher tableau run by the generic explicit RK
//! step (`explicit_rk.rs`) over an [`OwnedTableau`]. Its [`MethodInfo`] is computed from
//! the tableau: the order from the order conditions (`crate::tableau::conditions`), an
//! error estimate E = b − b̂ with the embedded order when b̂ is given (then it adapts
//! its step by default), FSAL when the last row of A is b, the cubic Hermite
//! interpolant for dense output.
//!
//! A diagonally implicit tableau (a non-zero diagonal) runs through `dirk.rs` (Newton
//! with LU per implicit stage): it then needs ∂f/∂y like the other implicit methods.

use super::dirk::Dirk;
use super::explicit_rk::{ExplicitRk, OwnedTableau};
use super::{MethodInfo, MethodOptions, Stepper};
use crate::error::OdeError;
use crate::jacobian::JacobianOptions;
use crate::tableau::{analyze, ButcherTableau, TableauSpec};
use std::borrow::Cow;

/// The method id of a user's tableau.
pub const ID: &str = "custom";

/// Whether this build reads a user's tableau: only the whole engine (cargo feature
/// `full`) does, since checking and analysing it is the tableau lab's code. Without it
/// the branches below are dead and that code is not linked.
const HERE: bool = cfg!(feature = "full");

fn not_here() -> OdeError {
    OdeError::NotInThisBuild {
        what: "method \"custom\" (your own tableau)",
    }
}

/// Checks a spec's tableau for `solve` and describes the method it defines.
pub fn resolve(spec: Option<&TableauSpec>) -> Result<(MethodInfo, ButcherTableau), OdeError> {
    if !HERE {
        return Err(not_here());
    }
    let spec = spec.ok_or_else(|| OdeError::BadSpec {
        message: "method \"custom\" needs a tableau { a, b, c?, bHat? }".into(),
    })?;
    let tab = spec.parse()?;
    if tab.b_hat.as_ref() == Some(&tab.b) {
        // E = b − b̂ would be zero: every step's error estimate 0, every step accepted
        // and grown to hMax, whatever the tolerance.
        return Err(OdeError::BadSpec {
            message: "your tableau's bHat equals b, so its error estimate b − bHat is zero \
                      and the step-size control could not see any error: give an embedded \
                      formula of another order, or leave bHat out and run with a fixed h"
                .into(),
        });
    }
    let analysis = analyze(&tab);
    let adaptive = tab.b_hat.is_some();
    let info = MethodInfo {
        id: ID,
        name: "Your own method",
        order: analysis.order,
        family: match (tab.explicit, adaptive) {
            (true, true) => "explicit Runge–Kutta, embedded pair (your tableau)",
            (true, false) => "explicit Runge–Kutta (your tableau)",
            (false, true) => "diagonally implicit Runge–Kutta, embedded pair (your tableau)",
            (false, false) => "diagonally implicit Runge–Kutta (your tableau)",
        },
        source: "your Butcher tableau",
        stages: (tab.stages() - usize::from(analysis.fsal)) as u32,
        adaptive,
        embedded_order: analysis.embedded_order,
        fsal: analysis.fsal,
        dense_order: analysis.order.min(3),
        second_order: false,
        needs_jacobian: !tab.explicit,
        l_stable: false,
        partitioned: false,
        sparse: false,
    };
    Ok((info, tab))
}

/// The stepper of the checked tableau in `options.custom` ([`resolve`]'s).
pub fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    if !HERE {
        return Err(not_here());
    }
    let (info, tab) = options.custom.as_ref().ok_or_else(|| OdeError::BadSpec {
        message: "method \"custom\" needs a tableau { a, b, c?, bHat? }".into(),
    })?;
    Ok(create(info.clone(), tab, dim, options.jacobian))
}

/// The stepper of a checked tableau: explicit RK, or DIRK with Newton (J from `jac`).
pub fn create(
    info: MethodInfo,
    tab: &ButcherTableau,
    dim: usize,
    jac: JacobianOptions,
) -> Box<dyn Stepper> {
    if !tab.explicit {
        return Box::new(Dirk::new(info, tab, dim, jac));
    }
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
