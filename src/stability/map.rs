//! The stability map: the amplification value (|R|, ρ(M) or the largest root modulus,
//! see `amplification.rs`) on an nx × ny grid of the ξ-plane, stored row by row:
//! `values[iy·nx + ix]` at Re ξ = a + ix(b − a)/(nx − 1), Im ξ = c + iy(d − c)/(ny − 1).
//! The region of absolute stability (Schwab & Delhaes §7.1, Gil, Sanfelice & Nikravesh 2013 eq. 58) is where the value
//! is ≤ 1.
//!
//! Speed (1024² at frame rate): per row, what depends on Im ξ only is computed
//! once, so that a point does real arithmetic in loops the compiler vectorises. A
//! stability polynomial R becomes per row a polynomial in Re ξ with complex coefficients
//! (`rational::shifted`), evaluated by Horner coefficient by coefficient along the row.
//! The exponentials of the LLM and slow/fast maps are separable,
//! e^{wξ} = e^{w Re ξ} · e^{i w Im ξ}, one factor per column and one per row, so no point
//! calls exp, sin or cos; the slow/fast point is `slowfast::Prepared::row`. Other
//! amplifications (rational R with a denominator, multistep roots, midpoint2) are
//! evaluated point by point. The maps are symmetric about the real axis (real
//! coefficients), so a row that mirrors an earlier one is copied.

use super::amplification::Amplification;
use super::spec::{Grid, StabilitySpec};
use crate::error::OdeError;
use crate::tableau::rational::shifted;
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

/// One row of a map as [`map_rows`] hands it over: its values, or the index of an
/// earlier row it equals (the mirror image across the real axis).
#[derive(Debug, Clone, Copy)]
pub enum Row<'a> {
    Values(&'a [f64]),
    MirrorOf(usize),
}

/// The map of an amplification on a checked grid. Rows that mirror an earlier row
/// across the real axis are copied, which halves the work on a symmetric window.
pub fn map_of(amp: &Amplification, grid: &Grid) -> Vec<f64> {
    let nx = grid.nx;
    let mut out = Vec::with_capacity(nx * grid.ny);
    map_rows(amp, grid, |_, row| match row {
        Row::Values(v) => out.extend_from_slice(v),
        Row::MirrorOf(j) => out.extend_from_within(j * nx..(j + 1) * nx),
    });
    out
}

/// The rows of the map, iy = 0, 1, …, handed to `sink` as they are computed (the WASM
/// binding copies each into the JS array it returns, without a whole-map buffer).
pub fn map_rows(amp: &Amplification, grid: &Grid, mut sink: impl FnMut(usize, Row<'_>)) {
    let (nx, ny) = (grid.nx, grid.ny);
    let xs: Vec<f64> = (0..nx).map(|ix| grid.x(ix)).collect();
    if let Amplification::Exp = amp {
        // |e^ξ| = e^{Re ξ}: one exp per column.
        let col: Vec<f64> = xs.iter().map(|&x| crate::math::exp(x)).collect();
        for iy in 0..ny {
            sink(iy, Row::Values(&col));
        }
        return;
    }
    // The slow/fast map's exponentials, separably: e^{wξ} = e^{w Re ξ}·e^{i w Im ξ}.
    let sf = match amp {
        Amplification::SlowFast(sf) => {
            let col = |w: f64| {
                xs.iter()
                    .map(|&x| crate::math::exp(w * x))
                    .collect::<Vec<_>>()
            };
            Some((sf.prepared(), col(sf.alpha), col(sf.kappa())))
        }
        _ => None,
    };
    // A polynomial R: per row, the coefficients of R(x + iy) in x, and the row's
    // partial sums (real and imaginary) evaluated column by column, coefficient by
    // coefficient (a loop the compiler vectorises).
    let poly = match amp {
        Amplification::Rational(r) if r.is_polynomial() => Some(&r.num[..]),
        _ => None,
    };
    let mut coef = vec![C::new(0.0, 0.0); poly.map_or(0, <[f64]>::len)];
    let mut imag = vec![0.0; if poly.is_some() { nx } else { 0 }];
    let mut line = vec![0.0; nx];
    for iy in 0..ny {
        if let Some(j) = mirror_row(grid, iy) {
            sink(iy, Row::MirrorOf(j));
            continue;
        }
        let line = &mut line[..];
        let y = grid.y(iy);
        if let Some(p) = poly {
            shifted(p, 1.0, y, &mut coef);
            polynomial_row(&coef, &xs, line, &mut imag);
        } else if let Some((prep, col_a, col_k)) = &sf {
            prep.row(y, &xs, col_a, col_k, line);
        } else {
            for (v, &x) in line.iter_mut().zip(&xs) {
                *v = amp.value(C::new(x, y));
            }
        }
        sink(iy, Row::Values(line));
    }
}

/// |q(x)| at every x of `xs` for q(x) = Σ coef[k] x^k (complex coefficients, real x):
/// Horner with the real parts accumulated in `line` and the imaginary parts in `imag`.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn polynomial_row(coef: &[C], xs: &[f64], line: &mut [f64], imag: &mut [f64]) {
    let Some((top, lower)) = coef.split_last() else {
        line.fill(0.0);
        return;
    };
    line.fill(top.re);
    imag.fill(top.im);
    for c in lower.iter().rev() {
        for ((re, im), &x) in line.iter_mut().zip(imag.iter_mut()).zip(xs) {
            *re = *re * x + c.re;
            *im = *im * x + c.im;
        }
    }
    for (re, &im) in line.iter_mut().zip(imag.iter()) {
        *re = (*re * *re + im * im).sqrt();
    }
}
