//! The amplification matrix of the slow/fast scheme of Gil, Sanfelice & Nikravesh 2013 (eqs. 43–47, RK4 for
//! the slow part) on the linear test equation Gil, Sanfelice & Nikravesh 2013 eq. (50), with α = λf/λs,
//! β = δ/λf = μ/λs, ξ = hλs (eq. 51): (x_{n+1}, z_{n+1}) = M (x_n, z_n) (eq. 57's form).
//!
//! M is Gil, Sanfelice & Nikravesh 2013 eq. (55) and eq. (56), with the Sources panel's errata's corrections: M12 carries
//! (β/α)(e^{αξ} − 1), not β(e^{αξ} − 1); and the z row is eq. (56) (the scheme as
//! implemented: re-linearised A = g_z + g_z⁻¹ g_x f_z, f interpolated linearly, D of
//! eq. 47 with B and C swapped back), not eq. (57). Derivation on eq. (50):
//! H(x) = −βx (eq. 52), f(x, H(x)) = (1 − β²)λs x (eq. 53), σ = βx_n + z_n,
//! γ = βλs(x_n + βz_n), A = (α + β²)λs; with φ₁(w) = (e^w − 1)/w,
//! φ₂(w) = (e^w − 1 − w)/w², E = e^{κξ}, κ = α + β²:
//!
//! M11 = R((1 − β²)ξ) + β²ξ φ₁(αξ) + β²ξ² φ₂(αξ)
//! M12 = βξ φ₁(αξ) + β³ξ² φ₂(αξ)
//! M21 = −βM11 + βE + β(1 − β²)ξ φ₁(κξ) + β(1 − β²)ξ φ₂(κξ)(M11 − 1)
//! M22 = −βM12 + E + β(1 − β²)ξ φ₂(κξ) M12
//!
//! which is eq. (55)–(56) term by term ((e^{αξ} − 1)/α = ξφ₁(αξ),
//! (αξ − e^{αξ} + 1)/α² = −ξ²φ₂(αξ), (E − 1 − κξ)/(κ²ξ) = ξφ₂(κξ)) but stays finite at
//! α = 0, κ = 0 and ξ = 0, where the printed quotients are 0/0. R is RK4's stability
//! polynomial, Gil, Sanfelice & Nikravesh 2013 eq. (49). `tests/stability/slowfast.rs` checks M against one
//! numerical step of eqs. (43)–(47) on eq. (50).

use super::lanes::Lanes;
use crate::phi::INV_FACT;
use crate::tableau::rational::shifted;
use nalgebra::Complex;

type C = Complex<f64>;

/// RK4's R(s) = 1 + s + s²/2 + s³/6 + s⁴/24, ascending (Gil, Sanfelice & Nikravesh 2013 eq. 49).
const RK4_COEF: [f64; 5] = [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0];

/// |w|² below which φ₁(w), φ₂(w) come from their series (|w| < 0.2).
const SERIES_BELOW: f64 = 0.04;

/// RK4's R(s), Gil, Sanfelice & Nikravesh 2013 eq. (49), Horner form.
#[inline]
fn rk4(s: C) -> C {
    // Products with the reciprocals, not divisions (a complex / real divides twice).
    const INV24: f64 = 1.0 / 24.0;
    const INV6: f64 = 1.0 / 6.0;
    (((s * INV24 + INV6) * s + 0.5) * s + 1.0) * s + 1.0
}

/// φ₁(w), φ₂(w) given e^w. A Taylor series for |w| < 0.2 (13 terms, error < 1e-20);
/// else the quotients, whose cancellation costs at most eps/|w|².
#[inline]
pub fn phi12(w: C, ew: C) -> (C, C) {
    phi12_inv(w, ew, || w.conj() / w.norm_sqr())
}

/// [`phi12`] with 1/w supplied lazily (the map shares one 1/ξ between αξ and κξ).
#[inline]
fn phi12_inv(w: C, ew: C, inv: impl FnOnce() -> C) -> (C, C) {
    if w.norm_sqr() < SERIES_BELOW {
        // φ₁ = Σ w^k/(k+1)!, φ₂ = Σ w^k/(k+2)!
        let mut p1 = C::new(0.0, 0.0);
        let mut p2 = C::new(0.0, 0.0);
        // 1/(k+1)! and 1/(k+2)! for k = 12 down to 0 (crate::phi's table of 1/n!).
        for k in (0..13).rev() {
            p1 = p1 * w + INV_FACT[k + 1];
            p2 = p2 * w + INV_FACT[k + 2];
        }
        (p1, p2)
    } else {
        let inv = inv();
        let p1 = (ew - 1.0) * inv;
        (p1, (p1 - 1.0) * inv)
    }
}

/// The parameters of the map: α and β of Gil, Sanfelice & Nikravesh 2013 eq. (51).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlowFast {
    pub alpha: f64,
    pub beta: f64,
}

impl SlowFast {
    /// κ = α + β², the rate of the re-linearised fast matrix A (Gil, Sanfelice & Nikravesh 2013 eq. 47) over λs.
    pub fn kappa(&self) -> f64 {
        self.alpha + self.beta * self.beta
    }

    /// M(ξ) given e^{αξ} and e^{κξ} (the map precomputes them separably).
    #[inline]
    pub fn matrix_with(&self, xi: C, e_alpha: C, e_kappa: C) -> [[C; 2]; 2] {
        let (a, b) = (self.alpha, self.beta);
        let b2 = b * b;
        let (p1a, p2a) = phi12(xi * a, e_alpha);
        let (p1k, p2k) = phi12(xi * self.kappa(), e_kappa);
        let xi2 = xi * xi;
        let m11 = rk4(xi * (1.0 - b2)) + xi * p1a * b2 + xi2 * p2a * b2;
        let m12 = xi * p1a * b + xi2 * p2a * (b2 * b);
        let c = b * (1.0 - b2);
        let m21 = -m11 * b + e_kappa * b + xi * p1k * c + xi * p2k * (m11 - 1.0) * c;
        let m22 = -m12 * b + e_kappa + xi * p2k * m12 * c;
        [[m11, m12], [m21, m22]]
    }

    /// M(ξ).
    pub fn matrix(&self, xi: C) -> [[C; 2]; 2] {
        self.matrix_with(
            xi,
            crate::math::complex::exp(xi * self.alpha),
            crate::math::complex::exp(xi * self.kappa()),
        )
    }

    /// ρ(M(ξ)) given the two exponentials, from tr M and det M only (see [`Prepared`]).
    #[inline]
    pub fn spectral_radius_with(&self, xi: C, e_alpha: C, e_kappa: C) -> f64 {
        self.prepared().spectral_radius_with(xi, e_alpha, e_kappa)
    }

    /// The per-map constants of [`Prepared::spectral_radius_with`].
    pub fn prepared(&self) -> Prepared {
        let (a, b) = (self.alpha, self.beta);
        let b2 = b * b;
        let k = self.kappa();
        Prepared {
            alpha: a,
            kappa: k,
            inv_alpha: 1.0 / a,
            inv_kappa: 1.0 / k,
            one_minus_b2: 1.0 - b2,
            b,
            b2,
            u_coef: b2 * (1.0 - b2),
            c: b * (1.0 - b2),
        }
    }

    /// ρ(M(ξ)), the value of the slow/fast stability map (Gil, Sanfelice & Nikravesh 2013 eq. 58).
    pub fn spectral_radius(&self, xi: C) -> f64 {
        self.spectral_radius_with(
            xi,
            crate::math::complex::exp(xi * self.alpha),
            crate::math::complex::exp(xi * self.kappa()),
        )
    }
}

/// α, β and the constants derived from them, computed once per map so that a point costs
/// one division (1/ξ) besides the square roots.
#[derive(Debug, Clone, Copy)]
pub struct Prepared {
    alpha: f64,
    kappa: f64,
    inv_alpha: f64,
    inv_kappa: f64,
    one_minus_b2: f64,
    b: f64,
    b2: f64,
    u_coef: f64,
    c: f64,
}

impl Prepared {
    /// ρ(M(ξ)) given e^{αξ} and e^{κξ}, from tr M and det M only. With
    /// u = M11 − βM12 = R((1 − β²)ξ) + β²(1 − β²)ξ²φ₂(αξ) and c = β(1 − β²), the rows of
    /// the module doc give det M = E·u + cξ M12 (φ₂(κξ) − φ₁(κξ)) and
    /// tr M = u + E + cξφ₂(κξ) M12 (the M21 and M22 terms with M11·M12 cancel).
    #[inline]
    pub fn spectral_radius_with(&self, xi: C, e_alpha: C, e_kappa: C) -> f64 {
        // One 1/ξ for both φ pairs: 1/(wξ) = (1/ξ)(1/w) (only used when |wξ| ≥ 0.2).
        let inv_xi = xi.conj() * (1.0 / xi.norm_sqr());
        let (p1a, p2a) = phi12_inv(xi * self.alpha, e_alpha, || inv_xi * self.inv_alpha);
        let (p1k, p2k) = phi12_inv(xi * self.kappa, e_kappa, || inv_xi * self.inv_kappa);
        let xi2 = xi * xi;
        let u = rk4(xi * self.one_minus_b2) + xi2 * p2a * self.u_coef;
        let m12 = xi * (p1a + xi * p2a * self.b2) * self.b;
        let cxm = xi * m12 * self.c;
        // tr M = u + E + G and det M = E·u + G − X (G = cξM12 φ₂(κξ), X = cξM12 φ₁(κξ)):
        // the discriminant tr²/4 − det is formed as ((u − E + G)/2)² + G(E − 1) + X,
        // not as a difference, so that it does not cancel where the eigenvalues come
        // close (β = 0 on the imaginary axis: u = R(iy) ≈ e^{iαy} = E, ρ exactly 1).
        let g = cxm * p2k;
        let half = (u + e_kappa + g) * 0.5;
        let apart = (u - e_kappa + g) * 0.5;
        let s = csqrt(apart * apart + g * (e_kappa - 1.0) + cxm * p1k);
        let v = (half.norm_sqr() + s.norm_sqr() + 2.0 * (half * s.conj()).re.abs()).sqrt();
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    }
}

impl Prepared {
    /// One row of the map at Im ξ = y: `out[i]` = ρ(M(xs[i] + iy)), given the map's
    /// column factors `e_alpha[i]` = e^{α xs[i]} and `e_kappa[i]` = e^{κ xs[i]}.
    ///
    /// The same tr/det form as [`Prepared::spectral_radius_with`], arranged so that a point
    /// does real arithmetic only, without branches, [`LANES`] points at a time (f64x2 in
    /// wasm, SSE2 natively; [`Lanes`]): with A₁ = (e^{αξ} − 1)/α = ξφ₁(αξ), A₂ = (A₁ − ξ)/α = ξ²φ₂(αξ) and K₁, K₂ the same
    /// for κ, u = R((1 − β²)ξ) + β²(1 − β²)A₂, w = cβ(A₁ + β²A₂) (= c·M12),
    /// G = w K₂/ξ: tr M = u + E + G and det M = E u + G − w K₁ (the module doc's rows).
    /// R((1 − β²)(x + iy)) is a polynomial in x with complex coefficients fixed per row
    /// ([`shifted`]); 1/ξ costs one real division. Points with |αξ| or |κξ| < 0.2, where
    /// the quotients would cancel, are then redone by the series of
    /// [`Prepared::spectral_radius_with`] (a few points near ξ = 0, or every point if
    /// α or κ is 0).
    ///
    /// The row goes in blocks: h = tr M/2 and d = h² − det M of every point of a block
    /// first ([`FastRow::eigen_parts`], ~90 multiplies and adds), then ρ ([`rho`]: three
    /// square roots and a division). In one loop the ~200 instructions of a pair of
    /// points filled the processor's out-of-order window while the pair waited on its
    /// chain of square roots; split, the square roots of consecutive pairs overlap
    /// (the 1024² map −24 % natively, −15 to −20 % in WASM). The row's last n mod [`LANES`] points go
    /// through the same code with one lane, so a point's bits do not depend on where the
    /// row splits (add, sub, mul, div and sqrt are correctly rounded lane by lane).
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    pub fn row(&self, y: f64, xs: &[f64], e_alpha: &[f64], e_kappa: &[f64], out: &mut [f64]) {
        let cis = |w: f64| {
            let (s, c) = crate::math::sin_cos(w * y);
            C::new(c, s)
        };
        let (ra, rk) = (cis(self.alpha), cis(self.kappa));
        let fast = self.inv_alpha.is_finite() && self.inv_kappa.is_finite();
        if fast {
            let mut q = [C::new(0.0, 0.0); 5];
            shifted(&RK4_COEF, self.one_minus_b2, y, &mut q);
            let k = FastRow {
                y,
                ra,
                rk,
                q,
                ia: self.inv_alpha,
                ik: self.inv_kappa,
                u_coef: self.u_coef,
                b2: self.b2,
                cb: self.c * self.b,
            };
            // Whole groups of LANES points, then the row's last n % LANES points alone.
            let n = xs
                .len()
                .min(e_alpha.len())
                .min(e_kappa.len())
                .min(out.len());
            let (xg, x_tail) = xs[..n].as_chunks::<LANES>();
            let (eag, ea_tail) = e_alpha[..n].as_chunks::<LANES>();
            let (ekg, ek_tail) = e_kappa[..n].as_chunks::<LANES>();
            let (outg, out_tail) = out[..n].as_chunks_mut::<LANES>();
            // Per block, h and d of every point first, then ρ (see the doc above).
            let mut parts = [[Lanes::splat(0.0); 4]; BLOCK_GROUPS];
            let blocks = xg.chunks(BLOCK_GROUPS).zip(eag.chunks(BLOCK_GROUPS));
            let blocks = blocks
                .zip(ekg.chunks(BLOCK_GROUPS))
                .zip(outg.chunks_mut(BLOCK_GROUPS));
            for (((xb, eab), ekb), outb) in blocks {
                for (p, ((x, ea), ek)) in parts.iter_mut().zip(xb.iter().zip(eab).zip(ekb)) {
                    *p = k.eigen_parts(Lanes(*x), Lanes(*ea), Lanes(*ek));
                }
                for (o, p) in outb.iter_mut().zip(&parts) {
                    *o = rho(*p).0;
                }
            }
            let tail = x_tail.iter().zip(ea_tail).zip(ek_tail).zip(out_tail);
            for (((&x, &ea), &ek), o) in tail {
                *o = rho(k.eigen_parts(Lanes([x]), Lanes([ea]), Lanes([ek]))).0[0];
            }
        }
        // |wξ|² ≥ (w Im ξ)² also in floating point (adding a square cannot round below
        // it), so a row with both (α y)² and (κ y)² ≥ 0.04 has no series point.
        let (ya, yk) = (y * self.alpha, y * self.kappa);
        if fast && ya * ya >= SERIES_BELOW && yk * yk >= SERIES_BELOW {
            return;
        }
        for ((&x, (&ea, &ek)), v) in xs.iter().zip(e_alpha.iter().zip(e_kappa)).zip(out) {
            let xi = C::new(x, y);
            if !fast
                || (xi * self.alpha).norm_sqr() < SERIES_BELOW
                || (xi * self.kappa).norm_sqr() < SERIES_BELOW
            {
                *v = self.spectral_radius_with(xi, ra * ea, rk * ek);
            }
        }
    }
}

/// Points of one map row computed side by side in [`Prepared::row`] (one f64x2).
const LANES: usize = 2;

/// Groups of [`LANES`] points per block of [`Prepared::row`] (h and d of a block first,
/// then its ρ; 4 KB of h and d).
const BLOCK_GROUPS: usize = 64;

/// What [`Prepared::row`]'s fast path needs per row: Im ξ = y, e^{iαy}, e^{iκy}, the
/// coefficients of R((1 − β²)(x + iy)) in x, 1/α, 1/κ, β²(1 − β²), β² and cβ.
struct FastRow {
    y: f64,
    ra: C,
    rk: C,
    q: [C; 5],
    ia: f64,
    ik: f64,
    u_coef: f64,
    b2: f64,
    cb: f64,
}

impl FastRow {
    /// h = tr M/2 and d = h² − det M (real and imaginary parts) at N points given their
    /// column factors e^{αx}, e^{κx}: the formulas of [`Prepared::row`] in real
    /// arithmetic, lane by lane.
    #[inline(always)]
    fn eigen_parts<const N: usize>(
        &self,
        x: Lanes<N>,
        ea: Lanes<N>,
        ek: Lanes<N>,
    ) -> [Lanes<N>; 4] {
        let (y, ia, ik) = (self.y, self.ia, self.ik);
        let (ea_re, ea_im) = (ea * self.ra.re, ea * self.ra.im);
        let (ek_re, ek_im) = (ek * self.rk.re, ek * self.rk.im);
        let (a1_re, a1_im) = ((ea_re - 1.0) * ia, ea_im * ia);
        let (a2_re, a2_im) = ((a1_re - x) * ia, (a1_im - y) * ia);
        let (k1_re, k1_im) = ((ek_re - 1.0) * ik, ek_im * ik);
        let (k2_re, k2_im) = ((k1_re - x) * ik, (k1_im - y) * ik);
        // R((1 − β²)ξ) by Horner in real x.
        let q = &self.q;
        let (mut r_re, mut r_im) = (Lanes::splat(q[4].re), Lanes::splat(q[4].im));
        for c in q[..4].iter().rev() {
            r_re = r_re * x + c.re;
            r_im = r_im * x + c.im;
        }
        let (u_coef, b2, cb) = (self.u_coef, self.b2, self.cb);
        let (u_re, u_im) = (r_re + u_coef * a2_re, r_im + u_coef * a2_im);
        let (w_re, w_im) = (cb * (a1_re + b2 * a2_re), cb * (a1_im + b2 * a2_im));
        // K₂/ξ = K₂ ξ̄/|ξ|².
        let inv_n = 1.0 / (x * x + y * y);
        let (kq_re, kq_im) = (
            (k2_re * x + k2_im * y) * inv_n,
            (k2_im * x - k2_re * y) * inv_n,
        );
        let (g_re, g_im) = (w_re * kq_re - w_im * kq_im, w_re * kq_im + w_im * kq_re);
        let h_re = 0.5 * (u_re + ek_re + g_re);
        let h_im = 0.5 * (u_im + ek_im + g_im);
        // d = h² − det M as ((u − E + G)/2)² + G(E − 1) + wK₁, without the cancellation
        // of the difference (see [`Prepared::spectral_radius_with`]).
        let (a_re, a_im) = (0.5 * (u_re - ek_re + g_re), 0.5 * (u_im - ek_im + g_im));
        let em1 = ek_re - 1.0;
        let d_re = (a_re * a_re - a_im * a_im)
            + (g_re * em1 - g_im * ek_im)
            + (w_re * k1_re - w_im * k1_im);
        let d_im = 2.0 * a_re * a_im + (g_re * ek_im + g_im * em1) + (w_re * k1_im + w_im * k1_re);
        [h_re, h_im, d_re, d_im]
    }
}

/// ρ = max |h ± √d| at N points, lane by lane, ∞ where it is NaN: the eigenvalues of M
/// are h ± √d, and ρ² = |h|² + |d| + 2|Re(h √d̄)|.
#[inline(always)]
fn rho<const N: usize>([h_re, h_im, d_re, d_im]: [Lanes<N>; 4]) -> Lanes<N> {
    let r = (d_re * d_re + d_im * d_im).sqrt();
    // √d = (t, d_im/2t) for d_re ≥ 0, else ±(d_im/2t, t) ([`csqrt`]).
    let t = (0.5 * (r + d_re.abs())).sqrt();
    let zero = Lanes::splat(0.0);
    let other = Lanes::select(r.equal(zero), zero, 0.5 * d_im / t);
    let right = d_re.at_least(zero);
    let (s_re, s_im) = (
        Lanes::select(right, t, other),
        Lanes::select(right, other, t),
    );
    let cross = (h_re * s_re + h_im * s_im).abs();
    let rho = (h_re * h_re + h_im * h_im + r + 2.0 * cross).sqrt();
    Lanes::select(rho.is_nan(), Lanes::splat(f64::INFINITY), rho)
}

/// Spectral radius of a complex 2 × 2 matrix: eigenvalues m ± s, m = tr/2,
/// s = √(m² − det).
#[inline]
pub fn spectral_radius(m: [[C; 2]; 2]) -> f64 {
    let half = (m[0][0] + m[1][1]) * 0.5;
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let s = csqrt(half * half - det);
    (half + s).norm_sqr().max((half - s).norm_sqr()).sqrt()
}

/// The principal square root without trigonometry (num-complex's goes through polar
/// form): t = √((|w| + |Re w|)/2), then the other part from Im w/(2t).
#[inline]
pub fn csqrt(w: C) -> C {
    let r = w.norm_sqr().sqrt();
    if r == 0.0 {
        return C::new(0.0, 0.0);
    }
    let t = (0.5 * (r + w.re.abs())).sqrt();
    if w.re >= 0.0 {
        C::new(t, 0.5 * w.im / t)
    } else {
        C::new(0.5 * w.im.abs() / t, t.copysign(w.im))
    }
}
