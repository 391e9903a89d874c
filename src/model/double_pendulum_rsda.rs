//! The double pendulum with two rotational spring-damper-actuators (RSDAs) of Negrut et al. 2003
//! §3.1 (Fig. 1, Tables 4–6), the validation problem of the Rosenbrock–Nyström method.
//!
//! **What the paper gives.** m1 = 3, m2 = 0.3, L1 = 1, L2 = 1.5, k1 = 400, k2 = 3e5,
//! c1 = 15, c2 = 5e4, zero-tension angles α1⁰ = 3π/2 (body 1 against the ground) and
//! α2⁰ = 0 (body 2 against body 1), SI units, t ∈ [0, 2]. Initial state: body 1's CM at
//! (1, 0) with θ1 "parallel with the global frame", body 2's CM at (3.4488887, −0.388228)
//! with θ2 = 23π/12, body 1 at rest, body 2 with (ẋ, ẏ, θ̇) = (3.8822857, 14.4888887, 10).
//! As checked in the Sources panel's errata, L1 and L2 are the distances from each body's
//! inboard revolute joint to its CM: body 1 is hinged at the origin, the joint between
//! the bodies is at (2L1, 0) = (2, 0), and body 2's CM is at 2L1 e(θ1) + L2 e(θ2),
//! e(θ) = (cos θ, sin θ). Gravity is g = 9.81 along −y (body 1 settles at 3π/2,
//! hanging down, as the paper says).
//!
//! **What the paper does not give, and the choices made here.**
//! - Moments of inertia: not printed. The geometry (joint at 2L1, CM at L1) is that of
//!   a uniform slender rod of length 2Lᵢ hinged at one end, so the defaults are the
//!   centroidal inertias Jᵢ = mᵢ(2Lᵢ)²/12 = mᵢLᵢ²/3: J1 = 1, J2 = 0.225 kg·m² (parameters).
//! - How the RSDA angles wrap: the paper's θ1 = 0 is 3π/2 away from α1⁰, but the paper
//!   also says θ1 oscillates between about 4 and 6 and settles at 3π/2, i.e. body 1
//!   swings *down* (clockwise) from the horizontal: the spring sees the deflection
//!   0 − 3π/2 ≡ +π/2 (mod 2π), and body 2's deflection is 23π/12 − 0 ≡ −π/12. The
//!   model uses smooth, unwrapped angles (a wrapped spring would make f discontinuous)
//!   and starts at θ1 = 2π, the same configuration as the paper's θ1 = 0, so that the
//!   deflections are exactly those: θ1 − α1⁰ = π/2 and θ2 − θ1 − α2⁰ = −π/12.
//!
//! **Formulation (minimal coordinates).** The state is y = (θ1, θ2, θ̇1, θ̇2), the
//! absolute angles of the two bodies. (The paper's Rosenbrock–Nyström code integrates the
//! same two independent coordinates after coordinate partitioning, Negrut et al. 2003 Algorithm 1; the
//! body-coordinate form is in `crate::multibody`.) With a = J1 + m1L1² + 4m2L1², b = J2 + m2L2²,
//! c = 2m2L1L2, δ = θ1 − θ2, Lagrange's equations are M(q) q̈ = Q − (c sin δ θ̇2², −c sin δ θ̇1²),
//! M = [[a, c cos δ], [c cos δ, b]], with generalised forces
//!
//! ```text
//! Q1 = −(m1 L1 + 2 m2 L1) g cos θ1 − k1(θ1 − α1⁰) − c1 θ̇1 + k2(θ2 − θ1 − α2⁰) + c2(θ̇2 − θ̇1)
//! Q2 = −m2 L2 g cos θ2 − k2(θ2 − θ1 − α2⁰) − c2(θ̇2 − θ̇1)
//! ```
//!
//! The Jacobian is analytic: ∂q̈/∂y = M⁻¹(∂R/∂y − (∂M/∂y) q̈), R the right-hand side.
//! At the initial state its dominant eigenvalue is ≈ −1.0e5 (the paper: "a real part of
//! the order −10E5"), from c2 acting on the light body 2; with point masses (J → 0)
//! instead of rods it would be −1.6e5 (tests/published.rs).
//! Outputs: energy (kinetic + gravity + both springs; it decreases through c1, c2), and
//! body 2's CM position and velocity (the paper's printed initial data).

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math;
use crate::problem::System;
use nalgebra::{DMatrix, Matrix2, Vector2};
use std::f64::consts::PI;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "double-pendulum-rsda".into(),
        name: "Double pendulum with RSDAs (stiff, damped)".into(),
        dim: 4,
        names: strings(&["θ1", "θ2", "θ̇1", "θ̇2"]),
        params: vec![
            ParamInfo::new("m1", 3.0, "kg", "mass of body 1 (§3.1)").above(0.0),
            ParamInfo::new("m2", 0.3, "kg", "mass of body 2 (§3.1)").above(0.0),
            ParamInfo::new(
                "L1",
                1.0,
                "m",
                "body 1: hinge to CM, joint to body 2 at 2·L1 (§3.1)",
            )
            .above(0.0),
            ParamInfo::new("L2", 1.5, "m", "body 2: joint to CM (§3.1)").above(0.0),
            ParamInfo::new(
                "J1",
                1.0,
                "kg·m²",
                "centroidal inertia of body 1 (odelab's choice: not printed; rod, m1·L1²/3)",
            )
            .above(0.0),
            ParamInfo::new(
                "J2",
                0.225,
                "kg·m²",
                "centroidal inertia of body 2 (odelab's choice: not printed; rod, m2·L2²/3)",
            )
            .above(0.0),
            ParamInfo::new(
                "k1",
                400.0,
                "N·m/rad",
                "RSDA 1 stiffness, ground–body 1 (§3.1)",
            ),
            ParamInfo::new(
                "k2",
                3e5,
                "N·m/rad",
                "RSDA 2 stiffness, body 1–body 2 (§3.1)",
            ),
            ParamInfo::new("c1", 15.0, "N·m·s/rad", "RSDA 1 damping (§3.1)"),
            ParamInfo::new("c2", 5e4, "N·m·s/rad", "RSDA 2 damping (§3.1)"),
            ParamInfo::new(
                "alpha1",
                1.5 * PI,
                "rad",
                "RSDA 1 zero-tension angle (§3.1)",
            ),
            ParamInfo::new("alpha2", 0.0, "rad", "RSDA 2 zero-tension angle (§3.1)"),
            ParamInfo::new(
                "g",
                9.81,
                "m/s²",
                "gravitational acceleration along −y (standard value)",
            ),
        ],
        y0: vec![2.0 * PI, 23.0 * PI / 12.0, 0.0, 10.0],
        t0: 0.0,
        t1: 2.0,
        source: "Negrut et al. 2003, §3.1, Fig. 1; y0 is §3.1's printed initial state \
                 (θ1 = 2π for its 0, see Sources)"
            .into(),
        outputs: strings(&["energy", "x2", "y2", "ẋ2", "ẏ2"]),
        exact: false,
        fast: vec![],
        formulations: vec![],
        second_order: true,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(Rsda {
        m1: p[0],
        m2: p[1],
        l1: p[2],
        l2: p[3],
        j1: p[4],
        j2: p[5],
        k1: p[6],
        k2: p[7],
        c1: p[8],
        c2: p[9],
        a1: p[10],
        a2: p[11],
        g: p[12],
    })
}

struct Rsda {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    j1: f64,
    j2: f64,
    k1: f64,
    k2: f64,
    c1: f64,
    c2: f64,
    a1: f64,
    a2: f64,
    g: f64,
}

impl Rsda {
    fn consts(&self) -> (f64, f64, f64) {
        let a = self.j1 + (self.m1 + 4.0 * self.m2) * self.l1 * self.l1;
        let b = self.j2 + self.m2 * self.l2 * self.l2;
        let c = 2.0 * self.m2 * self.l1 * self.l2;
        (a, b, c)
    }

    fn mass(&self, y: &[f64]) -> Matrix2<f64> {
        let (a, b, c) = self.consts();
        let cd = c * math::cos(y[0] - y[1]);
        Matrix2::new(a, cd, cd, b)
    }

    /// Right-hand side R = Q − (velocity terms) of M q̈ = R.
    fn forces(&self, y: &[f64]) -> Vector2<f64> {
        let (_, _, c) = self.consts();
        let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
        let sd = c * math::sin(t1 - t2);
        let rel = self.k2 * (t2 - t1 - self.a2) + self.c2 * (w2 - w1);
        let q1 = -(self.m1 + 2.0 * self.m2) * self.l1 * self.g * math::cos(t1)
            - self.k1 * (t1 - self.a1)
            - self.c1 * w1
            + rel;
        let q2 = -self.m2 * self.l2 * self.g * math::cos(t2) - rel;
        Vector2::new(q1 - sd * w2 * w2, q2 + sd * w1 * w1)
    }

    fn accel(&self, y: &[f64]) -> Vector2<f64> {
        // M is symmetric positive definite for positive masses, lengths and inertias.
        self.mass(y)
            .try_inverse()
            .map(|mi| mi * self.forces(y))
            .unwrap_or_else(|| Vector2::repeat(f64::NAN))
    }
}

impl System for Rsda {
    fn dim(&self) -> usize {
        4
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let acc = self.accel(y);
        dy[0] = y[2];
        dy[1] = y[3];
        dy[2] = acc[0];
        dy[3] = acc[1];
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let (_, _, c) = self.consts();
        let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
        let (sd, cd) = math::sin_cos(t1 - t2);
        let mi = self.mass(y).try_inverse()?;
        let acc = mi * self.forces(y);
        // ∂M/∂θ1 = −∂M/∂θ2 = [[0, −c sin δ], [−c sin δ, 0]].
        let dm_acc = Vector2::new(-c * sd * acc[1], -c * sd * acc[0]);
        let (k1, k2, c1, c2) = (self.k1, self.k2, self.c1, self.c2);
        let gl1 = (self.m1 + 2.0 * self.m2) * self.l1 * self.g;
        let gl2 = self.m2 * self.l2 * self.g;
        // ∂R/∂(θ1, θ2, θ̇1, θ̇2), R = (Q1 − c sin δ θ̇2², Q2 + c sin δ θ̇1²).
        let dr = [
            Vector2::new(
                gl1 * math::sin(t1) - k1 - k2 - c * cd * w2 * w2,
                k2 + c * cd * w1 * w1,
            ),
            Vector2::new(
                k2 + c * cd * w2 * w2,
                gl2 * math::sin(t2) - k2 - c * cd * w1 * w1,
            ),
            Vector2::new(-c1 - c2, c2 + 2.0 * c * sd * w1),
            Vector2::new(c2 - 2.0 * c * sd * w2, -c2),
        ];
        let mut j = DMatrix::zeros(4, 4);
        j[(0, 2)] = 1.0;
        j[(1, 3)] = 1.0;
        for (col, d) in dr.iter().enumerate() {
            let rhs = match col {
                0 => d - dm_acc,
                1 => d + dm_acc,
                _ => *d,
            };
            let v = mi * rhs;
            j[(2, col)] = v[0];
            j[(3, col)] = v[1];
        }
        Some(j)
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for Rsda {
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
        let (a, b, c) = self.consts();
        let kinetic = 0.5 * a * w1 * w1 + 0.5 * b * w2 * w2 + c * math::cos(t1 - t2) * w1 * w2;
        let (s1, c1) = math::sin_cos(t1);
        let (s2, c2) = math::sin_cos(t2);
        let y1 = self.l1 * s1;
        let y2 = 2.0 * self.l1 * s1 + self.l2 * s2;
        let gravity = self.g * (self.m1 * y1 + self.m2 * y2);
        let d1 = t1 - self.a1;
        let d2 = t2 - t1 - self.a2;
        out[0] = kinetic + gravity + 0.5 * self.k1 * d1 * d1 + 0.5 * self.k2 * d2 * d2;
        out[1] = 2.0 * self.l1 * c1 + self.l2 * c2;
        out[2] = y2;
        out[3] = -2.0 * self.l1 * s1 * w1 - self.l2 * s2 * w2;
        out[4] = 2.0 * self.l1 * c1 * w1 + self.l2 * c2 * w2;
    }
}
