//! Rosenbrock and W-methods on y' = λy (J = λ exact): seed 001 eq. (2b) with
//! f = λy gives (I − z(α + Γ)) k = z 1 y_n, so R(z) = 1 + z bᵀ(I − z(α + Γ))⁻¹ 1 in
//! Hairer–Wanner's form, the DIRK formula of `rational.rs` with the lower-triangular
//! matrix β = α + Γ (βᵢⱼ = αᵢⱼ + γᵢⱼ, diagonal γ; 001 §2, METHODS.md).

// The coefficients keep every digit 001 prints, beyond f64's precision.
#![allow(clippy::excessive_precision)]

/// `ros4`, seed 001 Table 1, with METHODS.md's correction γ21 = −2.34199312711201394970520
/// (printed with a + sign). Rows of α + Γ (lower triangular, diagonal γ), then b.
/// With the sign fixed β21 = α21 + γ21 = −1.19636100711201394970520, which is 001
/// Table 2's δ21, a check on the sign.
pub mod ros4 {
    pub const GAMMA: f64 = 0.57281606;
    pub const ALPHA: [[f64; 4]; 4] = [
        [0.0, 0.0, 0.0, 0.0],
        [1.14563212, 0.0, 0.0, 0.0],
        [
            0.520920789130629029328516,
            0.134294186842504800149232,
            0.0,
            0.0,
        ],
        [
            0.520920789130629029328516,
            0.134294186842504800149232,
            0.0,
            0.0,
        ],
    ];
    /// γij below the diagonal (γ21 sign-corrected per METHODS.md).
    pub const GAMMA_LOWER: [[f64; 4]; 4] = [
        [0.0, 0.0, 0.0, 0.0],
        [-2.34199312711201394970520, 0.0, 0.0, 0.0],
        [
            -0.02733374654348983696505,
            0.21381165083669968987472,
            0.0,
            0.0,
        ],
        [
            -0.259083837785510222112641,
            -0.19059580773231175166358,
            -0.22803103597313382947744,
            0.0,
        ],
    ];
    pub const B: [f64; 4] = [
        0.324534707891734513474196,
        0.049086544787523308684633,
        0.0,
        0.62637874732074217781171,
    ];
}

/// `w2`, the W-method of seed 001 Table 3 (ROS2 of Verwer et al.): γ = 1 + 1/√2,
/// α21 = 1, γ21 = −2γ, b = (1/2, 1/2) (METHODS.md: Table 3 is consistent). Its R is
/// (1 + (1 − 2γ)z + (γ² − 2γ + 1/2)z²)/(1 − γz)², and the z² coefficient vanishes.
pub mod w2 {
    pub const GAMMA: f64 = 1.0 + std::f64::consts::FRAC_1_SQRT_2;
    pub const ALPHA21: f64 = 1.0;
    pub const GAMMA21: f64 = -2.0 * GAMMA;
    pub const B: [f64; 2] = [0.5, 0.5];
}

/// The rows of α + Γ and the weights b of `ros4`.
pub fn ros4_tableau() -> (Vec<Vec<f64>>, Vec<f64>) {
    let a = (0..4)
        .map(|i| {
            (0..=i)
                .map(|j| {
                    if i == j {
                        ros4::GAMMA
                    } else {
                        ros4::ALPHA[i][j] + ros4::GAMMA_LOWER[i][j]
                    }
                })
                .collect()
        })
        .collect();
    (a, ros4::B.to_vec())
}

/// The rows of α + Γ and the weights b of `w2`.
pub fn w2_tableau() -> (Vec<Vec<f64>>, Vec<f64>) {
    (
        vec![vec![w2::GAMMA], vec![w2::ALPHA21 + w2::GAMMA21, w2::GAMMA]],
        w2::B.to_vec(),
    )
}
