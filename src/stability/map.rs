//! The stability map: the amplification value (|R|, ρ(M) or the largest root modulus,
//! see `amplification.rs`) on an nx × ny grid of the ξ-plane, stored row by row:
//! `values[iy·nx + ix]` at Re ξ = a + ix(b − a)/(nx − 1), Im ξ = c + iy(d − c)/(ny − 1).
//! The region of absolute stability (seed 002 §7.1, seed 003 eq. 58) is where the value
//! is ≤ 1.
//!
//! Speed: one allocation (the output); per point a Horner loop for rational R, and for
//! the exponentials of the LLM and slow/fast maps the separable form
//! e^{wξ} = e^{w Re ξ} · e^{i w Im ξ} with one factor per column and one per row, so no
//! point calls exp, sin or cos.

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

/// The map of an amplification on a checked grid.
pub fn map_of(amp: &Amplification, grid: &Grid) -> Vec<f64> {
    let (nx, ny) = (grid.nx, grid.ny);
    let mut out = vec![0.0; nx * ny];
    let xs: Vec<f64> = (0..nx).map(|ix| grid.x(ix)).collect();
    match amp {
        Amplification::Rational(r) if r.is_polynomial() => {
            let p = &r.num[..];
            for (iy, line) in out.chunks_exact_mut(nx).enumerate() {
                let y = grid.y(iy);
                for (v, &x) in line.iter_mut().zip(&xs) {
                    *v = horner(p, C::new(x, y)).norm_sqr().sqrt();
                }
            }
        }
        Amplification::SlowFast(sf) => {
            let (a, k) = (sf.alpha, sf.kappa());
            let col = |w: f64| xs.iter().map(|&x| (w * x).exp()).collect::<Vec<_>>();
            let row = |w: f64| {
                (0..ny)
                    .map(|iy| {
                        let (s, c) = (w * grid.y(iy)).sin_cos();
                        C::new(c, s)
                    })
                    .collect::<Vec<_>>()
            };
            let (col_a, col_k, row_a, row_k) = (col(a), col(k), row(a), row(k));
            let sf = sf.prepared();
            for (iy, line) in out.chunks_exact_mut(nx).enumerate() {
                let y = grid.y(iy);
                let (ra, rk) = (row_a[iy], row_k[iy]);
                for (ix, v) in line.iter_mut().enumerate() {
                    let xi = C::new(xs[ix], y);
                    *v = sf.spectral_radius_with(xi, ra * col_a[ix], rk * col_k[ix]);
                }
            }
        }
        Amplification::Exp => {
            // |e^ξ| = e^{Re ξ}: one exp per column.
            let col: Vec<f64> = xs.iter().map(|x| x.exp()).collect();
            for line in out.chunks_exact_mut(nx) {
                line.copy_from_slice(&col);
            }
        }
        _ => {
            for (iy, line) in out.chunks_exact_mut(nx).enumerate() {
                let y = grid.y(iy);
                for (v, &x) in line.iter_mut().zip(&xs) {
                    *v = amp.value(C::new(x, y));
                }
            }
        }
    }
    out
}
