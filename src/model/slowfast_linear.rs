//! The linear slow/fast test equation of Gil, Sanfelice & Nikravesh 2013 eq. (50):
//!
//! ```text
//! [x' ; z'] = A [x ; z],   A = [[λs, μ], [δ, λf]]
//! ```
//!
//! parametrised as in Gil, Sanfelice & Nikravesh 2013 eq. (51) by α = λf/λs (ratio of fast to slow rates) and
//! β = δ/λf = μ/λs (coupling), so A = λs [[1, β], [αβ, α]]. The paper takes λs complex
//! (eq. (62): λs = −1 + i, x(0) = z(0) = 1), so x and z are complex; the state holds
//! (Re x, Im x, Re z, Im z) and multiplication by λs = a + ib is the real block
//! [[a, −b], [b, a]]. With Im λs = 0 and real data the imaginary parts stay 0.
//! The fast states are Re z and Im z (Gil, Sanfelice & Nikravesh 2013 eq. (65) calls the fast state z).
//!
//! Exact solution (Gil, Sanfelice & Nikravesh 2013 eq. (60)): y(t) = e^{(t − t0)A} y(t0), evaluated in closed form for
//! the 2 × 2 complex matrix M = (t − t0)A with eigenvalues m ± d:
//! e^M = e^m [cosh(d) I + (sinh(d)/d)(M − mI)], or, when Re d is large, Sylvester's form
//! (e^{m+d}(M − (m − d)I) − e^{m−d}(M − (m + d)I)) / (2d), which cannot overflow.

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math::complex as cmath;
use crate::problem::System;
use nalgebra::{Complex, DMatrix};

type C = Complex<f64>;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "slowfast-linear".into(),
        name: "Slow/fast linear test equation".into(),
        dim: 4,
        names: strings(&["Re x", "Im x", "Re z", "Im z"]),
        params: vec![
            ParamInfo::new("lambdaRe", -1.0, "1/s", "Re λs, slow eigenvalue (eq. 62)"),
            ParamInfo::new("lambdaIm", 1.0, "1/s", "Im λs, slow eigenvalue (eq. 62)"),
            ParamInfo::new("alpha", 100.0, "1", "α = λf/λs, fast/slow ratio (eq. 51; 100 is odelab's choice)").above(0.0),
            ParamInfo::new("beta", 0.1, "1", "β = δ/λf = μ/λs, coupling (eq. 51; 0.1 is odelab's choice)"),
        ],
        y0: vec![1.0, 0.0, 1.0, 0.0],
        t0: 0.0,
        t1: 5.0,
        source: "Gil, Sanfelice & Nikravesh 2013, eqs. (50)–(51), (60)–(62); y0: x(0) = z(0) = 1, eq. (62)".into(),
        outputs: vec![],
        exact: true,
        fast: vec![2, 3],
        formulations: vec![],
        second_order: false,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    let lambda = C::new(p[0], p[1]);
    let (alpha, beta) = (p[2], p[3]);
    Box::new(SlowFast {
        a: [
            [lambda, lambda * beta],
            [lambda * (alpha * beta), lambda * alpha],
        ],
    })
}

struct SlowFast {
    /// A = [[λs, μ], [δ, λf]] (complex).
    a: [[C; 2]; 2],
}

fn pack(w: [C; 2], out: &mut [f64]) {
    out[0] = w[0].re;
    out[1] = w[0].im;
    out[2] = w[1].re;
    out[3] = w[1].im;
}

fn unpack(y: &[f64]) -> [C; 2] {
    [C::new(y[0], y[1]), C::new(y[2], y[3])]
}

/// e^M for a complex 2 × 2 matrix (see the module doc).
fn expm2(m: [[C; 2]; 2]) -> [[C; 2]; 2] {
    let one = C::new(1.0, 0.0);
    let mean = (m[0][0] + m[1][1]) * 0.5;
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let mut d = cmath::sqrt(mean * mean - det);
    if d.re < 0.0 {
        d = -d;
    }
    let shifted = [[m[0][0] - mean, m[0][1]], [m[1][0], m[1][1] - mean]];
    if d.re < 20.0 {
        let e = cmath::exp(mean);
        let sinhc = if cmath::norm(d) < 1e-3 {
            let d2 = d * d;
            one + d2 / 6.0 + d2 * d2 / 120.0
        } else {
            cmath::sinh(d) / d
        };
        let ch = cmath::cosh(d);
        [
            [e * (ch + sinhc * shifted[0][0]), e * sinhc * shifted[0][1]],
            [e * sinhc * shifted[1][0], e * (ch + sinhc * shifted[1][1])],
        ]
    } else {
        let (e1, e2) = (cmath::exp(mean + d), cmath::exp(mean - d));
        let (l1, l2) = (mean + d, mean - d);
        let f = |i: usize, j: usize| {
            let id = if i == j { one } else { C::new(0.0, 0.0) };
            (e1 * (m[i][j] - l2 * id) - e2 * (m[i][j] - l1 * id)) / (d * 2.0)
        };
        [[f(0, 0), f(0, 1)], [f(1, 0), f(1, 1)]]
    }
}

impl System for SlowFast {
    fn dim(&self) -> usize {
        4
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let w = unpack(y);
        let a = &self.a;
        pack(
            [
                a[0][0] * w[0] + a[0][1] * w[1],
                a[1][0] * w[0] + a[1][1] * w[1],
            ],
            dy,
        );
    }

    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        let mut j = DMatrix::zeros(4, 4);
        for r in 0..2 {
            for c in 0..2 {
                let v = self.a[r][c];
                j[(2 * r, 2 * c)] = v.re;
                j[(2 * r, 2 * c + 1)] = -v.im;
                j[(2 * r + 1, 2 * c)] = v.im;
                j[(2 * r + 1, 2 * c + 1)] = v.re;
            }
        }
        Some(j)
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for SlowFast {
    fn exact(&self, t0: f64, y0: &[f64], t: f64, out: &mut [f64]) -> bool {
        let tau = t - t0;
        let a = &self.a;
        let e = expm2([
            [a[0][0] * tau, a[0][1] * tau],
            [a[1][0] * tau, a[1][1] * tau],
        ]);
        let w = unpack(y0);
        pack(
            [
                e[0][0] * w[0] + e[0][1] * w[1],
                e[1][0] * w[0] + e[1][1] * w[1],
            ],
            out,
        );
        true
    }
}
