//! `analyzeTableau`: what the tableau editor shows about a user's method — its order
//! conditions up to order 5 (and those of an embedded b̂), its order, and R(z).
//! `solve` needs only the orders ([`analyze`]); R(z) with its exact coefficients and
//! its text is computed for the editor alone ([`analyze_tableau`]), so the run package
//! (src/wasm/run.rs) carries none of that code.

use super::conditions::{order_conditions, order_of, Condition};
use super::spec::{ButcherTableau, TableauSpec};
use super::stability::{stability_function, StabilityFunction};
use crate::error::OdeError;
use serde::Serialize;

/// The analysis of one tableau.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TableauAnalysis {
    pub stages: usize,
    /// Strictly lower triangular A (else diagonally implicit).
    pub explicit: bool,
    /// Highest p ≤ 5 with all conditions up to p satisfied by b.
    pub order: u32,
    /// The same for b̂, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub embedded_order: Option<u32>,
    /// The 17 conditions for b, by order.
    #[tsify(type = "OrderCondition[]")]
    pub conditions: Vec<Condition>,
    /// The 17 conditions for b̂, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional, type = "OrderCondition[]")]
    pub embedded_conditions: Option<Vec<Condition>>,
    /// R(z).
    pub stability: StabilityFunction,
    /// The nodes used (the row sums of A when c was not given).
    pub c: Vec<f64>,
    /// Explicit, the last row of A equals b, b_s = 0 and c_s = 1: the last stage is the
    /// next step's first (first same as last).
    pub fsal: bool,
}

/// First same as last (explicit only): the last stage is f(t + h, y_{n+1}).
pub fn is_fsal(tab: &ButcherTableau) -> bool {
    let s = tab.stages();
    tab.explicit
        && s > 1
        && tab.b[s - 1] == 0.0
        && tab.c[s - 1] == 1.0
        && tab.a[s - 1][..s - 1] == tab.b[..s - 1]
}

/// What a method built from a tableau needs to know about it: its orders and FSAL.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderAnalysis {
    /// The 17 conditions for b, by order.
    pub conditions: Vec<Condition>,
    /// The 17 conditions for b̂, when given.
    pub embedded_conditions: Option<Vec<Condition>>,
    /// Highest p ≤ 5 with all conditions up to p satisfied by b.
    pub order: u32,
    /// The same for b̂, when given.
    pub embedded_order: Option<u32>,
    pub fsal: bool,
}

/// The order conditions of a checked tableau and the orders they give.
pub fn analyze(tab: &ButcherTableau) -> OrderAnalysis {
    let conditions = order_conditions(&tab.a, &tab.b, &tab.c);
    let embedded_conditions = tab
        .b_hat
        .as_ref()
        .map(|bh| order_conditions(&tab.a, bh, &tab.c));
    OrderAnalysis {
        order: order_of(&conditions),
        embedded_order: embedded_conditions.as_deref().map(order_of),
        conditions,
        embedded_conditions,
        fsal: is_fsal(tab),
    }
}

/// Parses, checks and analyses a tableau from the page: its orders and R(z).
pub fn analyze_tableau(spec: &TableauSpec) -> Result<TableauAnalysis, OdeError> {
    let tab = spec.parse()?;
    let orders = analyze(&tab);
    Ok(TableauAnalysis {
        stages: tab.stages(),
        explicit: tab.explicit,
        order: orders.order,
        embedded_order: orders.embedded_order,
        conditions: orders.conditions,
        embedded_conditions: orders.embedded_conditions,
        stability: stability_function(&tab),
        c: tab.c,
        fsal: orders.fsal,
    })
}
