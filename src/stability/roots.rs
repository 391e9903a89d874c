//! The largest root modulus of a polynomial with complex coefficients, for the
//! characteristic polynomials of linear multistep methods (Schwab & Delhaes §7.8) and of
//! amplification matrices. Degree ≤ [`MAX_DEGREE`]; no allocation.
//!
//! Degree 1 and 2 are closed forms (the quadratic in its cancellation-free form
//! q = −(b + sign·√(b² − 4ac))/2, roots q/a and c/q). Higher degrees use the
//! Weierstrass (Durand–Kerner) simultaneous iteration from points on a circle of the
//! Cauchy root bound, then a Newton polish of the largest root.

// |z| and √z from crate::math (libm's hypot, atan2, sin, cos): num-complex's own call
// the platform's, whose last bits differ between native and WASM.
use crate::math::complex::{norm, sqrt};
use nalgebra::Complex;

type C = Complex<f64>;

/// Highest degree handled.
pub const MAX_DEGREE: usize = 8;

/// max |ζ| over the roots of Σ_j c_j ζ^j (`c` ascending). A leading coefficient that
/// vanishes (relative to the others) means a root at infinity: +∞. A zero polynomial,
/// or a degree above [`MAX_DEGREE`], gives NaN.
pub fn max_root_modulus(c: &[C]) -> f64 {
    let scale = c.iter().fold(0.0f64, |m, &x| m.max(norm(x)));
    if scale.is_nan() || scale <= 0.0 || !scale.is_finite() {
        return if scale.is_infinite() {
            f64::INFINITY
        } else {
            f64::NAN
        };
    }
    // Trailing zero coefficients are roots at 0: drop them (they do not change the max).
    let mut lo = 0;
    while lo < c.len() && norm(c[lo]) == 0.0 {
        lo += 1;
    }
    let c = &c[lo..];
    let n = c.len() - 1;
    if n == 0 {
        return 0.0;
    }
    if norm(c[n]) <= 1e-14 * scale {
        return f64::INFINITY;
    }
    match n {
        1 => norm(c[0] / c[1]),
        2 => quadratic(c[2], c[1], c[0]),
        _ if n <= MAX_DEGREE => durand_kerner(c),
        _ => f64::NAN,
    }
}

/// Largest root modulus of a ζ² + b ζ + c, a ≠ 0.
#[inline]
pub fn quadratic(a: C, b: C, c: C) -> f64 {
    let sq = sqrt(b * b - a * c * 4.0);
    // Pick the sign that avoids cancellation: |b + s| ≥ |b − s|.
    let q = if (b.conj() * sq).re >= 0.0 {
        -(b + sq) * 0.5
    } else {
        -(b - sq) * 0.5
    };
    if q.norm_sqr() == 0.0 {
        return 0.0; // b = c = 0: a double root at 0
    }
    norm(q / a).max(norm(c / q))
}

fn durand_kerner(c: &[C]) -> f64 {
    let n = c.len() - 1;
    let lead = c[n];
    let mut monic = [C::new(0.0, 0.0); MAX_DEGREE + 1];
    for (m, &x) in monic.iter_mut().zip(c) {
        *m = x / lead;
    }
    let monic = &monic[..=n];
    let bound = 1.0 + monic[..n].iter().fold(0.0f64, |m, &x| m.max(norm(x)));
    let eval = |z: C| {
        let mut acc = C::new(0.0, 0.0);
        for &m in monic.iter().rev() {
            acc = acc * z + m;
        }
        acc
    };
    let mut z = [C::new(0.0, 0.0); MAX_DEGREE];
    for (k, zk) in z.iter_mut().enumerate().take(n) {
        let angle = 0.4 + std::f64::consts::TAU * k as f64 / n as f64;
        *zk = C::from_polar(0.5 * bound, angle);
    }
    for _ in 0..500 {
        let mut change = 0.0f64;
        for i in 0..n {
            let mut denom = C::new(1.0, 0.0);
            for j in 0..n {
                if j != i {
                    denom *= z[i] - z[j];
                }
            }
            if denom.norm_sqr() == 0.0 {
                denom = C::new(1e-300, 0.0);
            }
            let step = eval(z[i]) / denom;
            if step.re.is_finite() && step.im.is_finite() {
                z[i] -= step;
                change = change.max(norm(step) / norm(z[i]).max(1.0));
            }
        }
        if change < 1e-15 {
            break;
        }
    }
    // Newton polish of the root of largest modulus (simple in the cases of interest).
    let mut big =
        (0..n).map(|i| z[i]).fold(
            C::new(0.0, 0.0),
            |m, x| if norm(x) > norm(m) { x } else { m },
        );
    for _ in 0..3 {
        let (mut p, mut dp) = (C::new(0.0, 0.0), C::new(0.0, 0.0));
        for &m in monic.iter().rev() {
            dp = dp * big + p;
            p = p * big + m;
        }
        if dp.norm_sqr() == 0.0 {
            break;
        }
        let step = p / dp;
        if !(step.re.is_finite() && step.im.is_finite()) || norm(step) > 1e-6 * norm(big).max(1.0) {
            break;
        }
        big -= step;
    }
    norm(big)
}
