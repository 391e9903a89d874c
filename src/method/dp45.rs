//! Dormand–Prince 5(4), the method of MATLAB's ode45, as listed in Schwab & Delhaes (the ode45
//! listing with its A, B, E and the ntrp45 interpolant). Fifth-order solution (local
//! extrapolation), fourth-order embedded estimate, FSAL: six evaluations per step.
//! the Sources panel's errata confirms the printed tableau and error vector (b − b̂ = E to 1e-17).

use super::{
    FixedPair, FixedRk, FixedTableau, MethodEntry, MethodInfo, MethodOptions, Stepper, Tableau, Xi,
};
use crate::error::OdeError;

/// Schwab & Delhaes, ode45 listing: A = [1/5; 3/10; 4/5; 8/9; 1; 1] and the columns of B; the
/// seventh stage is f(t_{n+1}, y_{n+1}) (FSAL), so its row equals b.
pub const TABLEAU: Tableau = Tableau {
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ],
    b: &[
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
        0.0,
    ],
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    // Schwab & Delhaes, ode45 listing: E = [71/57600; 0; −71/16695; 71/1920; −17253/339200;
    // 22/525; −1/40] (= b − b̂).
    error: Some(&[
        71.0 / 57600.0,
        0.0,
        -71.0 / 16695.0,
        71.0 / 1920.0,
        -17253.0 / 339200.0,
        22.0 / 525.0,
        -1.0 / 40.0,
    ]),
    fsal: true,
    // Schwab & Delhaes, ntrp45: BI, coefficients of s, s², s³, s⁴ per stage (Shampine's
    // fourth-order continuous extension).
    dense: Some(&[
        &[1.0, -183.0 / 64.0, 37.0 / 12.0, -145.0 / 128.0],
        &[0.0, 0.0, 0.0, 0.0],
        &[0.0, 1500.0 / 371.0, -1000.0 / 159.0, 1000.0 / 371.0],
        &[0.0, -125.0 / 32.0, 125.0 / 12.0, -375.0 / 64.0],
        &[0.0, 9477.0 / 3392.0, -729.0 / 106.0, 25515.0 / 6784.0],
        &[0.0, -11.0 / 7.0, 11.0 / 3.0, -55.0 / 28.0],
        &[0.0, 3.0 / 2.0, -4.0, 5.0 / 2.0],
    ]),
};

/// [`TABLEAU`] in fixed-size arrays for the specialised step (`fixed_rk.rs`).
pub struct Dp45;

impl FixedPair<7, 4> for Dp45 {
    const TABLEAU: FixedTableau<7, 4> = FixedTableau::from_tableau(&TABLEAU);
    const TWO_STATES: bool = true;
}

pub const INFO: MethodInfo = MethodInfo {
    id: "dp45",
    name: "Dormand–Prince 5(4)",
    order: 5,
    family: "explicit Runge–Kutta, embedded pair",
    source: "Schwab & Delhaes, ode45 listing and ntrp45",
    stages: 6,
    adaptive: true,
    embedded_order: Some(4),
    fsal: true,
    dense_order: 4,
    second_order: false,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
    sparse: false,
};

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Explicit(&TABLEAU),
};

/// The compile-time specialised step of an FSAL pair with an interpolant (the same
/// bits as the generic loop, see `fixed_rk.rs`).
fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(FixedRk::<Dp45, 7, 4>::new(&INFO, dim)))
}
