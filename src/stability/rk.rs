//! The stability function of an explicit Runge–Kutta tableau,
//! R(z) = 1 + z bᵀ(I − zA)⁻¹ 1, and its stability interval on the real and imaginary
//! axes, computed from the same `const` tableaux the integrator steps with.

use crate::method::Tableau;
use nalgebra::Complex;

/// R(z) for an explicit tableau. (I − zA) is lower triangular with unit diagonal, so
/// g = (I − zA)⁻¹ 1 is a forward substitution: g_i = 1 + z Σ_{j<i} a_ij g_j.
pub fn stability_function(tab: &Tableau, z: Complex<f64>) -> Complex<f64> {
    let one = Complex::new(1.0, 0.0);
    let mut g: Vec<Complex<f64>> = Vec::with_capacity(tab.stages());
    for row in tab.a {
        let sum = row
            .iter()
            .zip(&g)
            .fold(Complex::new(0.0, 0.0), |acc, (&a, &gj)| acc + gj * a);
        g.push(one + z * sum);
    }
    let bg = tab
        .b
        .iter()
        .zip(&g)
        .fold(Complex::new(0.0, 0.0), |acc, (&b, &gi)| acc + gi * b);
    one + z * bg
}

/// |R(x)| − 1 at z = x on the real axis, or z = i x on the imaginary axis.
fn excess(tab: &Tableau, x: f64, imaginary: bool) -> f64 {
    let z = if imaginary {
        Complex::new(0.0, x)
    } else {
        Complex::new(x, 0.0)
    };
    stability_function(tab, z).norm() - 1.0
}

/// The first point, going out from 0 along `direction` (a real number, ±1) on the real
/// axis or upwards on the imaginary axis, where |R| rises above 1: a scan in steps of
/// 1e-3 and bisection to the last bit. `None` if |R| > 1 right away (Euler, Heun on the
/// imaginary axis) or nowhere before |z| = `limit`.
fn boundary(tab: &Tableau, direction: f64, imaginary: bool, limit: f64) -> Option<f64> {
    const STEP: f64 = 1e-3;
    let mut inside = 0.0;
    let mut x = STEP;
    // |R| − 1 is O(x^(p+1)) near 0; a tiny positive value there is round-off, not
    // instability, hence the margin.
    let unstable = |x: f64| excess(tab, direction * x, imaginary) > 1e-14;
    if unstable(x) {
        return None;
    }
    while x <= limit {
        if unstable(x) {
            let mut outside = x;
            while outside - inside > 4.0 * f64::EPSILON * outside {
                let mid = 0.5 * (inside + outside);
                if unstable(mid) {
                    outside = mid;
                } else {
                    inside = mid;
                }
            }
            return Some(direction * 0.5 * (inside + outside));
        }
        inside = x;
        x += STEP;
    }
    None
}

/// Where the stability region meets the negative real axis (e.g. −2 for Euler).
pub fn real_axis_intercept(tab: &Tableau) -> Option<f64> {
    boundary(tab, -1.0, false, 50.0)
}

/// How far up the imaginary axis the method is stable (2√2 for RK4); `None` if no part
/// of it but 0 is.
pub fn imaginary_axis_extent(tab: &Tableau) -> Option<f64> {
    boundary(tab, 1.0, true, 50.0)
}
