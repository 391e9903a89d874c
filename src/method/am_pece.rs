//! `am-pece`: Adams–Bashforth 3 predictor, order-4 Adams–Moulton corrector
//! y_{n+1} = y_n + h/24 (9 f_{n+1} + 19 f_n − 5 f_{n−1} + f_{n−2}) in PECE mode (seed
//! Schwab & Delhaes §7.8: predict with AB order k, correct with AM order k + 1; weights in
//! `adams.rs`). Two f evaluations per step, order 4; started by two RK4 steps.

use super::MethodInfo;

pub const INFO: MethodInfo = MethodInfo {
    id: "am-pece",
    name: "Adams–Moulton PECE (AB3 + AM4)",
    order: 4,
    family: "explicit multistep (Adams)",
    source: "Schwab & Delhaes §7.8 (PECE, Shampine 1975)",
    stages: 2,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 3,
    second_order: false,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
};
