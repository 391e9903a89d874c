//! `backward-euler`: y_{n+1} = y_n + h f(t_{n+1}, y_{n+1}), Schwab & Delhaes §7.7, solved by
//! Newton's method with an LU of I − hJ (`newton.rs`). R(z) = 1/(1 − z): L-stable.
//! One step, no start-up. Dense output: cubic Hermite (order 1 is all the step has).

use super::MethodInfo;

pub const INFO: MethodInfo = MethodInfo {
    id: "backward-euler",
    name: "Backward Euler",
    order: 1,
    family: "implicit (Newton)",
    source: "Schwab & Delhaes §7.7",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
};
