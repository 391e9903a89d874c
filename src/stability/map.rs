//! The stability map: the amplification value (|R|, ρ(M) or the largest root modulus,
//! see `amplification.rs`) on an nx × ny grid of the ξ-plane, stored row by row:
//! `values[iy·nx + ix]` at Re ξ = a + ix(b − a)/(nx − 1), Im ξ = c + iy(d − c)/(ny − 1).
//! The region of absolute stability (seed 002 §7.1, seed 003 eq. 58) is where the value
//! is ≤ 1.
//!
//! Speed: one allocation (the output); per point a Horner loop for rational R, and for
//! the exponentials of the LLM and slow/fast maps the separable form
//! e^{wξ} = e^{w Re ξ} · e^{i w Im ξ} with one factor per column and one per row, so no
//! point calls exp, sin or cos. The maps are symmetric about the real axis (real
//! coefficients), so a row that mirrors an earlier one is copied.

use super::amplification::Amplification;
use super::rational::horner;
use super::spec::{Grid, StabilitySpec};
use crate::error::OdeError;
use nalgebra::Complex;

type C = Complex<f64>;

/// The map of `spec` (method, re, im, nx, ny, and α, β or a tableau where they apply).
pub fn stability_map(spec: &StabilitySpec) -> Result<Vec<f64>, OdeError> {
    let grid = spec.grid()?;
    let amp = Amplification::from_spec(spec)?;
    Ok(map_of(&amp, &grid))
}

/// The row already computed whose Im ξ is −y(iy) up to rounding, if any. Every
/// amplification here has real coefficients (real tableaux, real α and β), so its value
/// is symmetric about the real axis: v(ξ̄) = v(ξ) (conjugation is exact in IEEE
/// complex arithmetic). The grid coordinates themselves carry a rounding error of
/// ~1 ulp, so rows within a few ulps of each other's mirror image are the same row.
fn mirror_row(grid: &Grid, iy: usize) -> Option<usize> {
    let y = grid.y(iy);
    if y <= 0.0 {
        return None;
    }
    let step = (grid.im[1] - grid.im[0]) / (grid.ny - 1) as f64;
    let j = ((-y - grid.im[0]) / step).round();
    if !(0.0..iy as f64).contains(&j) {
        return None;
    }
    let j = j as usize;
    let tol = 8.0 * f64::EPSILON * grid.im[0].abs().max(grid.im[1].abs());
    ((grid.y(j) + y).abs() <= tol).then_some(j)
}

/// The map of an amplification on a checked grid. Rows that mirror an earlier row
/// across the real axis are copied, which halves the work on a symmetric window.
pub fn map_of(amp: &Amplification, grid: &Grid) -> Vec<f64> {
    let (nx, ny) = (grid.nx, grid.ny);
    let mut out = vec![0.0; nx * ny];
    let xs: Vec<f64> = (0..nx).map(|ix| grid.x(ix)).collect();
    if let Amplification::Exp = amp {
        // |e^ξ| = e^{Re ξ}: one exp per column.
        let col: Vec<f64> = xs.iter().map(|&x| crate::math::exp(x)).collect();
        for line in out.chunks_exact_mut(nx) {
            line.copy_from_slice(&col);
        }
        return out;
    }
    // The slow/fast map's exponentials, separably: e^{wξ} = e^{w Re ξ}·e^{i w Im ξ}.
    let sf = match amp {
        Amplification::SlowFast(sf) => {
            let (a, k) = (sf.alpha, sf.kappa());
            let col = |w: f64| {
                xs.iter()
                    .map(|&x| crate::math::exp(w * x))
                    .collect::<Vec<_>>()
            };
            Some((sf.prepared(), a, k, col(a), col(k)))
        }
        _ => None,
    };
    for iy in 0..ny {
        let (done, rest) = out.split_at_mut(iy * nx);
        let line = &mut rest[..nx];
        if let Some(j) = mirror_row(grid, iy) {
            line.copy_from_slice(&done[j * nx..(j + 1) * nx]);
            continue;
        }
        let y = grid.y(iy);
        match (amp, &sf) {
            (Amplification::Rational(r), _) if r.is_polynomial() => {
                let p = &r.num[..];
                for (v, &x) in line.iter_mut().zip(&xs) {
                    *v = horner(p, C::new(x, y)).norm_sqr().sqrt();
                }
            }
            (_, Some((prep, a, k, col_a, col_k))) => {
                let cis = |w: f64| {
                    let (s, c) = crate::math::sin_cos(w * y);
                    C::new(c, s)
                };
                let (ra, rk) = (cis(*a), cis(*k));
                for (ix, v) in line.iter_mut().enumerate() {
                    let xi = C::new(xs[ix], y);
                    *v = prep.spectral_radius_with(xi, ra * col_a[ix], rk * col_k[ix]);
                }
            }
            _ => {
                for (v, &x) in line.iter_mut().zip(&xs) {
                    *v = amp.value(C::new(x, y));
                }
            }
        }
    }
    out
}
