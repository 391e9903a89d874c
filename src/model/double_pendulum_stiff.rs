//! The stiff double pendulum of Gil, Sanfelice & Nikravesh (LLM) §2 (Fig. 1, Fig. 2), in body coordinates with
//! the revolute joints enforced at acceleration level, Gil, Sanfelice & Nikravesh (LLM) eqs. (7)–(9).
//!
//! **What the paper gives.** Two links, a torsional spring k = 3000 N·m/deg between them
//! ("a very stiff torsional spring … resulting into a highly oscillatory system"), the
//! body-coordinate formulation, the Jacobian of eqs. (10)–(15), LLM at h = 0.02.
//! **What it does not give** (choices here, all parameters): uniform slender links of
//! mass 1 kg and length 1 m (centroidal inertia m L²/12), link 1 hinged to the ground
//! at one end, link 2 hinged to the other end of link 1, the spring relaxed when the
//! links are aligned, no damping, gravity 9.81 along −y, released from rest with link 1
//! horizontal (`phi0` = 0) and the links aligned (`bend0` = 0): the fast oscillation of
//! the lower link is then excited by gravity alone, as the paper describes. The spring
//! constant is entered in the paper's unit, N·m/deg, and converted:
//! k_rad = k · 180/π N·m/rad (3000 N·m/deg = 171 887 N·m/rad).
//!
//! **Equations.** q = (x1, y1, φ1, x2, y2, φ2) (CM positions and angles), y = (q, q̇),
//! M = diag(m1, m1, J1, m2, m2, J2). With a1 = L1/2, a2 = L2/2 and e(φ) = (cos φ, sin φ),
//! the joints are
//!
//! ```text
//! Φ_A = r1 − a1 e(φ1) = 0                       (ground–link 1, at the origin)
//! Φ_B = r1 + a1 e(φ1) − r2 + a2 e(φ2) = 0       (link 1–link 2)
//! ```
//!
//! D = Φ_q (4 × 6), γ = −Ḋq̇ (eq. (8)): γ_A = −a1 e(φ1) φ̇1², γ_B = a1 e(φ1) φ̇1² + a2 e(φ2) φ̇2².
//! Forces h = (0, −m1 g, τ, 0, −m2 g, −τ) with τ = k_rad(φ2 − φ1) + c(φ̇2 − φ̇1). Every
//! f-evaluation solves the saddle-point system of eq. (9),
//! [[M, −Dᵀ], [D, 0]] (q̈, λ) = (h, γ), with nalgebra's LU (partial pivoting).
//!
//! **Jacobian (eqs. (10)–(15)).** Differentiating eq. (9) gives, for every state yⱼ,
//! [[M, −Dᵀ], [D, 0]] ∂(q̈, λ)/∂yⱼ = (∂h/∂yⱼ + (∂Dᵀ/∂yⱼ) λ, ∂γ/∂yⱼ − (∂D/∂yⱼ) q̈),
//! which is eqs. (11)–(15) written with the saddle-point matrix instead of
//! (DM⁻¹Dᵀ)⁻¹ (∂M/∂q = 0 in body coordinates). It reuses the LU of the f-evaluation;
//! only φ1, φ2, φ̇1, φ̇2 columns are nonzero.
//!
//! Outputs: energy (kinetic + gravity + spring, conserved without damping), the
//! constraint violation ‖Φ(q)‖₂ and the velocity-constraint violation ‖Φ_q q̇‖₂ (they
//! drift: the index-1 formulation only keeps Φ̈ = 0; Gil, Sanfelice & Nikravesh (LLM) Fig. 2 plots this).

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math;
use crate::problem::System;
use nalgebra::{DMatrix, DVector};

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "double-pendulum-stiff".into(),
        name: "Double pendulum with a stiff torsional spring (body coordinates)".into(),
        dim: 12,
        names: strings(&[
            "x1", "y1", "φ1", "x2", "y2", "φ2", "ẋ1", "ẏ1", "φ̇1", "ẋ2", "ẏ2", "φ̇2",
        ]),
        params: vec![
            ParamInfo::new("m1", 1.0, "kg", "mass of link 1 (odelab's choice)").above(0.0),
            ParamInfo::new("m2", 1.0, "kg", "mass of link 2 (odelab's choice)").above(0.0),
            ParamInfo::new("L1", 1.0, "m", "length of link 1, joints at its ends (odelab's choice)").above(0.0),
            ParamInfo::new("L2", 1.0, "m", "length of link 2, joint at one end (odelab's choice)").above(0.0),
            ParamInfo::new(
                "J1",
                1.0 / 12.0,
                "kg·m²",
                "centroidal inertia of link 1 (odelab's choice: rod, m1·L1²/12)",
            )
            .above(0.0),
            ParamInfo::new(
                "J2",
                1.0 / 12.0,
                "kg·m²",
                "centroidal inertia of link 2 (odelab's choice: rod, m2·L2²/12)",
            )
            .above(0.0),
            ParamInfo::new(
                "k",
                3000.0,
                "N·m/deg",
                "torsional spring between the links (Gil, Sanfelice & Nikravesh (LLM), §2)",
            ),
            ParamInfo::new("c", 0.0, "N·m·s/rad", "torsional damper between the links (odelab's choice: none)"),
            ParamInfo::new("g", 9.81, "m/s²", "gravitational acceleration along −y (standard value)"),
            ParamInfo::new(
                "phi0",
                0.0,
                "rad",
                "initial angle of link 1, 0 horizontal (odelab's choice)",
            ),
            ParamInfo::new(
                "bend0",
                0.0,
                "rad",
                "initial angle of link 2 to link 1 (odelab's choice)",
            ),
        ],
        y0: vec![0.5, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        t0: 0.0,
        t1: 2.0,
        source: "Gil, Sanfelice & Nikravesh (LLM), §2, eqs. (7)–(15), Figs. 1–2; all but k (masses, lengths, y0: released from rest) are odelab's choice".into(),
        outputs: strings(&["energy", "constraint |Φ|", "velocity constraint |Φq q̇|"]),
        exact: false,
        fast: vec![],
        formulations: vec![],
        second_order: true,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(StiffPendulum {
        m1: p[0],
        m2: p[1],
        a1: 0.5 * p[2],
        a2: 0.5 * p[3],
        j1: p[4],
        j2: p[5],
        k: p[6].to_degrees(), // N·m/deg → N·m/rad: k · 180/π
        c: p[7],
        g: p[8],
        phi0: p[9],
        bend0: p[10],
    })
}

struct StiffPendulum {
    m1: f64,
    m2: f64,
    a1: f64,
    a2: f64,
    j1: f64,
    j2: f64,
    /// Spring in N·m/rad.
    k: f64,
    c: f64,
    g: f64,
    phi0: f64,
    bend0: f64,
}

/// What one solve of eq. (9) produces, kept for the Jacobian.
struct Solved {
    lu: nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>,
    /// (q̈, λ).
    x: DVector<f64>,
}

impl StiffPendulum {
    /// Φ_q (4 × 6).
    fn d(&self, y: &[f64]) -> DMatrix<f64> {
        let (s1, c1) = math::sin_cos(y[2]);
        let (s2, c2) = math::sin_cos(y[5]);
        let (a1, a2) = (self.a1, self.a2);
        #[rustfmt::skip]
        let d = DMatrix::from_row_slice(4, 6, &[
            1.0, 0.0, a1 * s1, 0.0, 0.0, 0.0,
            0.0, 1.0, -a1 * c1, 0.0, 0.0, 0.0,
            1.0, 0.0, -a1 * s1, -1.0, 0.0, -a2 * s2,
            0.0, 1.0, a1 * c1, 0.0, -1.0, a2 * c2,
        ]);
        d
    }

    fn torque(&self, y: &[f64]) -> f64 {
        self.k * (y[5] - y[2]) + self.c * (y[11] - y[8])
    }

    /// Solves the saddle-point system (9) at y; None if it is singular (cannot happen
    /// for positive masses and inertias: D always has full row rank).
    fn solve(&self, y: &[f64]) -> Option<Solved> {
        let d = self.d(y);
        let mut k = DMatrix::zeros(10, 10);
        for (i, m) in [self.m1, self.m1, self.j1, self.m2, self.m2, self.j2]
            .iter()
            .enumerate()
        {
            k[(i, i)] = *m;
        }
        for r in 0..4 {
            for c in 0..6 {
                k[(c, 6 + r)] = -d[(r, c)];
                k[(6 + r, c)] = d[(r, c)];
            }
        }
        let (s1, c1) = math::sin_cos(y[2]);
        let (s2, c2) = math::sin_cos(y[5]);
        let (w1, w2) = (y[8] * y[8], y[11] * y[11]);
        let (a1, a2) = (self.a1, self.a2);
        let tau = self.torque(y);
        let rhs = DVector::from_row_slice(&[
            0.0,
            -self.m1 * self.g,
            tau,
            0.0,
            -self.m2 * self.g,
            -tau,
            -a1 * c1 * w1,
            -a1 * s1 * w1,
            a1 * c1 * w1 + a2 * c2 * w2,
            a1 * s1 * w1 + a2 * s2 * w2,
        ]);
        let lu = k.lu();
        let x = lu.solve(&rhs)?;
        Some(Solved { lu, x })
    }
}

impl System for StiffPendulum {
    fn dim(&self) -> usize {
        12
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[..6].copy_from_slice(&y[6..]);
        match self.solve(y) {
            Some(s) => dy[6..].copy_from_slice(&s.x.as_slice()[..6]),
            None => dy[6..].fill(f64::NAN),
        }
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let s = self.solve(y)?;
        let (qdd, lam) = (s.x.rows(0, 6), s.x.rows(6, 4));
        let (s1, c1) = math::sin_cos(y[2]);
        let (s2, c2) = math::sin_cos(y[5]);
        let (w1, w2) = (y[8], y[11]);
        let (a1, a2) = (self.a1, self.a2);
        // ∂D/∂φ1 is nonzero only in column 2, ∂D/∂φ2 only in column 5.
        let dcol1 = [a1 * c1, a1 * s1, -a1 * c1, -a1 * s1];
        let dcol2 = [0.0, 0.0, -a2 * c2, -a2 * s2];
        let dot = |v: &[f64; 4]| (0..4).map(|i| v[i] * lam[i]).sum::<f64>();
        let (k, c) = (self.k, self.c);
        // Right-hand sides for the states φ1, φ2, φ̇1, φ̇2 (indices 2, 5, 8, 11).
        let mut b = DMatrix::zeros(10, 4);
        // φ1
        b[(2, 0)] = -k + dot(&dcol1);
        b[(5, 0)] = k;
        let dg1 = [
            a1 * s1 * w1 * w1,
            -a1 * c1 * w1 * w1,
            -a1 * s1 * w1 * w1,
            a1 * c1 * w1 * w1,
        ];
        // φ2
        b[(2, 1)] = k;
        b[(5, 1)] = -k + dot(&dcol2);
        let dg2 = [0.0, 0.0, -a2 * s2 * w2 * w2, a2 * c2 * w2 * w2];
        // φ̇1, φ̇2
        b[(2, 2)] = -c;
        b[(5, 2)] = c;
        b[(2, 3)] = c;
        b[(5, 3)] = -c;
        let dgw1 = [
            -2.0 * a1 * c1 * w1,
            -2.0 * a1 * s1 * w1,
            2.0 * a1 * c1 * w1,
            2.0 * a1 * s1 * w1,
        ];
        let dgw2 = [0.0, 0.0, 2.0 * a2 * c2 * w2, 2.0 * a2 * s2 * w2];
        for r in 0..4 {
            b[(6 + r, 0)] = dg1[r] - dcol1[r] * qdd[2];
            b[(6 + r, 1)] = dg2[r] - dcol2[r] * qdd[5];
            b[(6 + r, 2)] = dgw1[r];
            b[(6 + r, 3)] = dgw2[r];
        }
        let x = s.lu.solve(&b)?;
        let mut j = DMatrix::zeros(12, 12);
        for i in 0..6 {
            j[(i, 6 + i)] = 1.0;
        }
        for (col, state) in [2usize, 5, 8, 11].into_iter().enumerate() {
            for i in 0..6 {
                j[(6 + i, state)] = x[(i, col)];
            }
        }
        Some(j)
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for StiffPendulum {
    /// Links at `phi0` and `phi0 + bend0`, at rest, satisfying both joints for the
    /// chosen lengths.
    fn default_y0(&self) -> Option<Vec<f64>> {
        let (p1, p2) = (self.phi0, self.phi0 + self.bend0);
        let (s1, c1) = math::sin_cos(p1);
        let (s2, c2) = math::sin_cos(p2);
        let (a1, a2) = (self.a1, self.a2);
        let mut y = vec![0.0; 12];
        y[..6].copy_from_slice(&[
            a1 * c1,
            a1 * s1,
            p1,
            2.0 * a1 * c1 + a2 * c2,
            2.0 * a1 * s1 + a2 * s2,
            p2,
        ]);
        Some(y)
    }

    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let v = &y[6..];
        let kinetic = 0.5
            * (self.m1 * (v[0] * v[0] + v[1] * v[1])
                + self.j1 * v[2] * v[2]
                + self.m2 * (v[3] * v[3] + v[4] * v[4])
                + self.j2 * v[5] * v[5]);
        let bend = y[5] - y[2];
        out[0] = kinetic + self.g * (self.m1 * y[1] + self.m2 * y[4]) + 0.5 * self.k * bend * bend;
        let (s1, c1) = math::sin_cos(y[2]);
        let (s2, c2) = math::sin_cos(y[5]);
        let (a1, a2) = (self.a1, self.a2);
        let phi = [
            y[0] - a1 * c1,
            y[1] - a1 * s1,
            y[0] + a1 * c1 - y[3] + a2 * c2,
            y[1] + a1 * s1 - y[4] + a2 * s2,
        ];
        out[1] = phi.iter().map(|p| p * p).sum::<f64>().sqrt();
        let dv = self.d(y) * DVector::from_row_slice(v);
        out[2] = dv.norm();
    }
}
