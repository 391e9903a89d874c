//! The stability function of an explicit Runge–Kutta tableau,
//! R(z) = 1 + z bᵀ(I − zA)⁻¹ 1, and its stability interval on the real and imaginary
//! axes, computed from the same `const` tableaux the integrator steps with.

use super::facts::boundary_along;
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

/// Where the stability region meets the negative real axis (e.g. −2 for Euler): the
/// generic search of `facts.rs` on this tableau's R.
pub fn real_axis_intercept(tab: &Tableau) -> Option<f64> {
    let value = |z: Complex<f64>| crate::math::complex::norm(stability_function(tab, z));
    boundary_along(&value, Complex::new(-1.0, 0.0))
        .filter(|t| t.is_finite())
        .map(|t| -t)
}

/// How far up the imaginary axis the method is stable (2√2 for RK4); `None` if no part
/// of it but 0 is.
pub fn imaginary_axis_extent(tab: &Tableau) -> Option<f64> {
    let value = |z: Complex<f64>| crate::math::complex::norm(stability_function(tab, z));
    boundary_along(&value, Complex::new(0.0, 1.0)).filter(|t| t.is_finite())
}
