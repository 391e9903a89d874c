//! The elementary functions of the core, the same bits on every target.
//!
//! `f64::sin`, `exp`, `powf`… call the platform's C library natively (glibc's here)
//! and the `libm` crate's Rust port in WebAssembly; the two differ in the last bit now
//! and then, so a run would not be bitwise the same natively and in the browser. Every
//! transcendental function of the core goes through this module instead, which calls the
//! `libm` crate on every target. (+, −, ×, ÷, `sqrt`, `abs`, `floor`… are exactly rounded
//! by IEEE 754 and need no such care.) A test (`tests/math.rs`) refuses those `f64`
//! methods anywhere else in `src/`, so new code cannot slip back.
//!
//! ```
//! assert_eq!(odelab::math::sin(0.5), libm::sin(0.5));
//! assert_eq!(odelab::math::powi(3.0, -2), 1.0 / 9.0);
//! ```

macro_rules! unary {
    ($($name:ident => $libm:ident),* $(,)?) => {
        $(
            #[doc = concat!("`", stringify!($libm), "` of the `libm` crate, on every target.")]
            #[inline]
            pub fn $name(x: f64) -> f64 {
                libm::$libm(x)
            }
        )*
    };
}

unary!(
    sin => sin, cos => cos, tan => tan, asin => asin, acos => acos, atan => atan,
    sinh => sinh, cosh => cosh, tanh => tanh,
    exp => exp, ln => log, log10 => log10, log2 => log2, cbrt => cbrt,
    exp_m1 => expm1, ln_1p => log1p,
);

/// (sin x, cos x): the same two values as [`sin`] and [`cos`] give apart.
#[inline]
pub fn sin_cos(x: f64) -> (f64, f64) {
    (sin(x), cos(x))
}

/// A real scalar that code generic over its numbers (the multibody mechanism) is
/// evaluated in: f64 in every run, dual numbers in tests that differentiate that code
/// automatically. Its sine and cosine of an f64 come from this module.
pub trait Scalar: nalgebra::RealField + Copy {
    /// The constant `x`.
    fn of(x: f64) -> Self;
    /// (sin x, cos x), through [`sin_cos`] for f64.
    fn sin_cos_det(self) -> (Self, Self);
    /// The f64 value (the real part of a dual number), for tests of convergence.
    fn re(self) -> f64;
}

impl Scalar for f64 {
    #[inline]
    fn of(x: f64) -> Self {
        x
    }
    #[inline]
    fn sin_cos_det(self) -> (Self, Self) {
        sin_cos(self)
    }
    #[inline]
    fn re(self) -> f64 {
        self
    }
}

/// Dual numbers for forward-mode automatic differentiation in the tests.
#[cfg(test)]
impl Scalar for num_dual::Dual64 {
    fn of(x: f64) -> Self {
        num_dual::Dual64::from_re(x)
    }
    fn sin_cos_det(self) -> (Self, Self) {
        let (s, c) = sin_cos(self.re);
        (
            num_dual::Dual64::new(s, c * self.eps),
            num_dual::Dual64::new(c, -s * self.eps),
        )
    }
    fn re(self) -> f64 {
        self.re
    }
}

/// x^y (`pow` of the `libm` crate).
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// x^(1/4) as √√x: two correctly rounded square roots (the same bits everywhere), at a
/// tenth of `pow`'s cost; within an ulp of x^0.25.
#[inline]
pub fn fourth_root(x: f64) -> f64 {
    x.sqrt().sqrt()
}

/// A degree-4 fit of m^(−1/5) on [1, 2) (Chebyshev least squares, relative error
/// 3.9e-5), lowest power first: the start of [`inverse_fifth_root`]'s Newton steps.
const FIFTH_ROOT_FIT: [f64; 5] = [
    1.3780080578360012,
    -0.6411276239194367,
    0.3612264544388672,
    -0.11253236432512935,
    0.014386197662272884,
];

/// 2^(−r/5) for r = 0…4, the nearest doubles (from a 40-digit computation).
const TWO_TO_MINUS_FIFTHS: [f64; 5] = [
    1.0,
    0.8705505632961241,
    0.757858283255199,
    0.6597539553864471,
    0.5743491774985175,
];

/// x^(−1/5), the step-size factor of an error estimate of order 4 (dp45's
/// err^(−1/5)), within 1.3 ulps of the exact value for every normal x > 0, where
/// e^{−ln(x)/5} (the controller's general power) is off by up to ~250 ulps for large x
/// and costs a `log` and an `exp` (13 % of a dp45 solve in WASM). With x = m·2^e,
/// m ∈ [1, 2) and e = 5q + r (0 ≤ r < 5), x^(−1/5) = 2^(−q) · u^(−1/5) for u = m·2^r:
/// a degree-4 fit of m^(−1/5) times 2^(−r/5) is good to 4e-5, and two Newton steps for
/// y⁻⁵ = u, y ← y + (y/5)(1 − (u y) y⁴), square the error twice. Only IEEE operations: the
/// same bits everywhere. Zero, subnormal, infinite and NaN x take the general power.
pub fn inverse_fifth_root(x: f64) -> f64 {
    inverse_root_by_newton::<5>(x, FIFTH_ROOT_FIT, &TWO_TO_MINUS_FIFTHS)
}

/// x^(−1/K) for K = 3 or 5 as [`inverse_fifth_root`] describes it, from a degree-4 fit
/// of m^(−1/K) on [1, 2) and the table of 2^(−r/K), r = 0…K−1.
fn inverse_root_by_newton<const K: u64>(x: f64, fit: [f64; 5], two_to_minus: &[f64]) -> f64 {
    let inv_k = 1.0 / K as f64;
    if !(f64::MIN_POSITIVE..=f64::MAX).contains(&x) {
        return exp(-inv_k * ln(x));
    }
    let bits = x.to_bits();
    let mantissa = bits & ((1 << 52) - 1);
    // e + 1023 + c = (biased exponent) + c, with c the least making 1023 + c a multiple
    // of K (2 for K = 5, 0 for K = 3): unsigned division by K (a multiply and a shift)
    // gives q + (1023 + c)/K and r.
    let c = (K - 1023 % K) % K;
    let shifted = (bits >> 52) + c;
    let (q, r) = ((shifted / K) as i64 - ((1023 + c) / K) as i64, shifted % K);
    let m = f64::from_bits(mantissa | (1023 << 52));
    let u = f64::from_bits(mantissa | ((1023 + r) << 52));
    // The factor is on a run's critical path (the next step's h waits for it), so the
    // evaluation is arranged for a short chain of dependent operations rather than
    // for the fewest: the fit by Estrin's scheme (5 deep, Horner's was 8) and each
    // Newton step with u·y and y/K formed beside y^(K−1) (6 deep for K = 5, was 8).
    // ~25 % less latency; the same accuracy.
    let [c0, c1, c2, c3, c4] = fit;
    let m2 = m * m;
    let fit = (c0 + c1 * m) + m2 * ((c2 + c3 * m) + c4 * m2);
    let mut y = two_to_minus[r as usize] * fit;
    for _ in 0..2 {
        let y2 = y * y;
        let y_k_minus_1 = if K == 5 { y2 * y2 } else { y2 };
        let residual = 1.0 - (u * y) * y_k_minus_1;
        y += (inv_k * y) * residual;
    }
    // 2^(−q): |q| ≤ 342, a normal power of two.
    y * f64::from_bits(((1023 - q) as u64) << 52)
}

/// A degree-4 fit of m^(−1/3) on [1, 2) (interpolation at the Chebyshev nodes, relative
/// error 4.5e-5), lowest power first: the start of [`inverse_cube_root`]'s Newton steps.
const CUBE_ROOT_FIT: [f64; 5] = [
    1.6662787377309458,
    -1.1623973573079,
    0.6846527077323171,
    -0.2163618546924813,
    0.027782801018590354,
];

/// 2^(−r/3) for r = 0…2, the nearest doubles (from a 50-digit computation).
const TWO_TO_MINUS_THIRDS: [f64; 3] = [1.0, 0.7937005259840998, 0.6299605249474366];

/// x^(−1/3), the step-size factor of an error estimate of order 2 (llm's and bs23's
/// err^(−1/3)), as [`inverse_fifth_root`] computes x^(−1/5): with x = m·2^e,
/// m ∈ [1, 2) and e = 3q + r (0 ≤ r < 3), x^(−1/3) = 2^(−q) · u^(−1/3) for u = m·2^r; a
/// fit of m^(−1/3) times 2^(−r/3), good to 5e-5, then two Newton steps for y⁻³ = u,
/// y ← y + (y/3)(1 − (u y) y²), y/3 taken as y·(1/3). Within two ulps of the exact root
/// where e^{−ln(x)/3} (the controller's general power, a `log` and an `exp`: 12 % of an
/// llm solve of Van der Pol in WASM) is off by up to ~100; only IEEE operations, the
/// same bits everywhere. Zero, subnormal, infinite and NaN x take the general power.
pub fn inverse_cube_root(x: f64) -> f64 {
    inverse_root_by_newton::<3>(x, CUBE_ROOT_FIT, &TWO_TO_MINUS_THIRDS)
}

/// atan2(y, x), the angle of the point (x, y).
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// √(x² + y²) without overflow.
#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}

/// x^n by binary powering — the algorithm of compiler-rt's `__powidf2`, which
/// `f64::powi` calls, written out so it cannot depend on how the compiler lowers it.
#[inline]
pub fn powi(x: f64, n: i32) -> f64 {
    let mut base = x;
    let mut e = n.unsigned_abs();
    let mut r = 1.0;
    loop {
        if e & 1 == 1 {
            r *= base;
        }
        e >>= 1;
        if e == 0 {
            break;
        }
        base *= base;
    }
    if n < 0 {
        1.0 / r
    } else {
        r
    }
}

/// Complex functions with the same bits on every target (nalgebra's `Complex` methods
/// call the `f64` ones), by the formulas num-complex uses.
pub mod complex {
    use nalgebra::Complex;

    /// e^z = e^re (cos im + i sin im).
    pub fn exp(z: Complex<f64>) -> Complex<f64> {
        let r = super::exp(z.re);
        Complex::new(r * super::cos(z.im), r * super::sin(z.im))
    }

    /// sinh z = sinh re cos im + i cosh re sin im.
    pub fn sinh(z: Complex<f64>) -> Complex<f64> {
        Complex::new(
            super::sinh(z.re) * super::cos(z.im),
            super::cosh(z.re) * super::sin(z.im),
        )
    }

    /// cosh z = cosh re cos im + i sinh re sin im.
    pub fn cosh(z: Complex<f64>) -> Complex<f64> {
        Complex::new(
            super::cosh(z.re) * super::cos(z.im),
            super::sinh(z.re) * super::sin(z.im),
        )
    }

    /// |z| = hypot(re, im).
    pub fn norm(z: Complex<f64>) -> f64 {
        super::hypot(z.re, z.im)
    }

    /// The principal square root, √|z| e^(i arg z / 2) (exact on the real axis).
    pub fn sqrt(z: Complex<f64>) -> Complex<f64> {
        if z.im == 0.0 {
            return if z.re >= 0.0 {
                Complex::new(z.re.sqrt(), z.im)
            } else {
                Complex::new(0.0, (-z.re).sqrt().copysign(z.im))
            };
        }
        let r = norm(z).sqrt();
        let theta = 0.5 * super::atan2(z.im, z.re);
        Complex::new(r * super::cos(theta), r * super::sin(theta))
    }
}
