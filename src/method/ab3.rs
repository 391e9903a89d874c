//! `ab3`: the explicit three-step Adams–Bashforth method of Schwab & Delhaes §7.8,
//! y_{n+1} = y_n + h/12 (23 f_n − 16 f_{n−1} + 5 f_{n−2}) (weights in `adams.rs`),
//! started by two RK4 steps. One f evaluation per step; real stability interval
//! [−6/11, 0] (the Sources panel's errata).

use super::MethodInfo;

pub const INFO: MethodInfo = MethodInfo {
    id: "ab3",
    name: "Adams–Bashforth 3",
    order: 3,
    family: "explicit multistep (Adams)",
    source: "Schwab & Delhaes §7.8",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 3,
    second_order: false,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
};
