//! A planar mechanism in body coordinates, seed 000 §2 eqs. (7)–(8): bodies with
//! q_b = (x, y, φ) (centre of mass and angle), revolute joints to the ground or between
//! two bodies, and force elements (gravity, rotational spring-damper-actuators,
//! translational spring-dampers of zero rest length).
//!
//! With A(φ) = [[cos φ, −sin φ], [sin φ, cos φ]] and B(φ) = dA/dφ, a revolute joint
//! joining point s_i of body i to point s_j of body j (or a fixed ground point) is
//! Φ = r_i + A_i s_i − r_j − A_j s_j = 0 (two rows). Its Jacobian Φ_q has the blocks
//! [I, B_i s_i] and [−I, −B_j s_j], and the right-hand side of the acceleration
//! equation (000 eq. 8) is γ = −(Φ_q q̇)_q q̇ = A_i s_i φ̇_i² − A_j s_j φ̇_j².
//! The derivatives of Φ_q and γ with respect to q and q̇ needed by the Jacobian of
//! 000 eqs. (10)–(15) are nonzero only in the angle columns: ∂(B s)/∂φ = −A s,
//! ∂γ/∂φ_i = B_i s_i φ̇_i², ∂γ/∂φ̇_i = 2 A_i s_i φ̇_i (and the negatives for body j).
//!
//! The mass matrix is constant and diagonal, M = diag(m, m, J) per body (000 eq. 7:
//! ∂M/∂q = 0 in body coordinates). Generalized forces Q(q, q̇) come with their exact
//! derivatives ∂Q/∂q and ∂Q/∂q̇.

use nalgebra::{DMatrix, DVector, Vector2};

/// A rigid body: mass and centroidal inertia.
#[derive(Debug, Clone, Copy)]
pub struct Body {
    pub name: &'static str,
    pub mass: f64,
    pub inertia: f64,
}

/// One end of a joint or force element: a point fixed in a body (body-frame
/// coordinates) or on the ground (global coordinates).
#[derive(Debug, Clone, Copy)]
pub enum Anchor {
    Ground([f64; 2]),
    Body(usize, [f64; 2]),
}

/// A revolute joint: the two anchor points coincide.
#[derive(Debug, Clone, Copy)]
pub struct Revolute {
    pub a: Anchor,
    pub b: Anchor,
}

/// A force element.
#[derive(Debug, Clone, Copy)]
pub enum Force {
    /// Gravity g along −y on every body.
    Gravity { g: f64 },
    /// Rotational spring-damper-actuator between body `i` (None: the ground, angle 0)
    /// and body `j`: torque τ = k (φ_j − φ_i − θ0) + c (φ̇_j − φ̇_i), −τ on j, +τ on i.
    Rsda {
        i: Option<usize>,
        j: usize,
        k: f64,
        c: f64,
        theta0: f64,
    },
    /// Translational spring-damper of zero rest length between two anchors:
    /// F = k d + c ḋ with d = p_b − p_a, +F on a, −F on b.
    Spring {
        a: Anchor,
        b: Anchor,
        k: f64,
        c: f64,
    },
}

/// Bodies, joints and forces.
#[derive(Debug, Clone)]
pub struct Mechanism {
    pub bodies: Vec<Body>,
    pub joints: Vec<Revolute>,
    pub forces: Vec<Force>,
}

fn rot(phi: f64) -> ([f64; 4], [f64; 4]) {
    let (s, c) = crate::math::sin_cos(phi);
    ([c, -s, s, c], [-s, -c, c, -s])
}

fn apply(m: &[f64; 4], v: [f64; 2]) -> Vector2<f64> {
    Vector2::new(m[0] * v[0] + m[1] * v[1], m[2] * v[0] + m[3] * v[1])
}

/// Position, velocity and the pieces of an anchor's kinematics at (q, q̇).
struct Point {
    p: Vector2<f64>,
    v: Vector2<f64>,
    /// Body index, A s, B s, φ̇ (None for a ground point).
    body: Option<(usize, Vector2<f64>, Vector2<f64>, f64)>,
}

impl Mechanism {
    /// Number of coordinates n = 3 × bodies.
    pub fn n(&self) -> usize {
        3 * self.bodies.len()
    }

    /// Number of constraint equations m = 2 × joints.
    pub fn m(&self) -> usize {
        2 * self.joints.len()
    }

    /// Names of the body coordinates, "x1", "y1", "φ1", … (body names as suffixes).
    pub fn coordinate_names(&self) -> Vec<String> {
        self.bodies
            .iter()
            .flat_map(|b| {
                ["x", "y", "φ"]
                    .into_iter()
                    .map(move |c| format!("{c}{}", b.name))
            })
            .collect()
    }

    /// The diagonal of M.
    pub fn mass_diagonal(&self) -> Vec<f64> {
        self.bodies
            .iter()
            .flat_map(|b| [b.mass, b.mass, b.inertia])
            .collect()
    }

    fn point(&self, a: Anchor, q: &[f64], qd: &[f64]) -> Point {
        match a {
            Anchor::Ground(p) => Point {
                p: Vector2::new(p[0], p[1]),
                v: Vector2::zeros(),
                body: None,
            },
            Anchor::Body(b, s) => {
                let (am, bm) = rot(q[3 * b + 2]);
                let (as_, bs) = (apply(&am, s), apply(&bm, s));
                let w = qd[3 * b + 2];
                Point {
                    p: Vector2::new(q[3 * b], q[3 * b + 1]) + as_,
                    v: Vector2::new(qd[3 * b], qd[3 * b + 1]) + bs * w,
                    body: Some((b, as_, bs, w)),
                }
            }
        }
    }

    /// Φ(q) (000 eq. 7).
    pub fn phi(&self, q: &[f64]) -> DVector<f64> {
        let zero = vec![0.0; q.len()];
        let mut out = DVector::zeros(self.m());
        for (k, j) in self.joints.iter().enumerate() {
            let d = self.point(j.a, q, &zero).p - self.point(j.b, q, &zero).p;
            out[2 * k] = d[0];
            out[2 * k + 1] = d[1];
        }
        out
    }

    /// Φ_q (m × n).
    pub fn phi_q(&self, q: &[f64]) -> DMatrix<f64> {
        let zero = vec![0.0; q.len()];
        let mut d = DMatrix::zeros(self.m(), self.n());
        for (k, j) in self.joints.iter().enumerate() {
            for (anchor, sign) in [(j.a, 1.0), (j.b, -1.0)] {
                if let Some((b, _, bs, _)) = self.point(anchor, q, &zero).body {
                    for r in 0..2 {
                        d[(2 * k + r, 3 * b + r)] += sign;
                        d[(2 * k + r, 3 * b + 2)] += sign * bs[r];
                    }
                }
            }
        }
        d
    }

    /// γ = −(Φ_q q̇)_q q̇ (000 eq. 8).
    pub fn gamma(&self, q: &[f64], qd: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.m());
        for (k, j) in self.joints.iter().enumerate() {
            for (anchor, sign) in [(j.a, 1.0), (j.b, -1.0)] {
                if let Some((_, as_, _, w)) = self.point(anchor, q, qd).body {
                    for r in 0..2 {
                        out[2 * k + r] += sign * as_[r] * w * w;
                    }
                }
            }
        }
        out
    }

    /// ∂(Φ_q)/∂q_c for every coordinate c (only angle columns are nonzero), and the
    /// derivatives ∂γ/∂q, ∂γ/∂q̇ (m × n each).
    #[allow(clippy::type_complexity)]
    pub fn derivatives(
        &self,
        q: &[f64],
        qd: &[f64],
    ) -> (Vec<Option<DMatrix<f64>>>, DMatrix<f64>, DMatrix<f64>) {
        let (n, m) = (self.n(), self.m());
        let mut dd: Vec<Option<DMatrix<f64>>> = vec![None; n];
        let mut gq = DMatrix::zeros(m, n);
        let mut gqd = DMatrix::zeros(m, n);
        for (k, j) in self.joints.iter().enumerate() {
            for (anchor, sign) in [(j.a, 1.0), (j.b, -1.0)] {
                if let Some((b, as_, bs, w)) = self.point(anchor, q, qd).body {
                    let c = 3 * b + 2;
                    let mat = dd[c].get_or_insert_with(|| DMatrix::zeros(m, n));
                    for r in 0..2 {
                        mat[(2 * k + r, c)] -= sign * as_[r];
                        gq[(2 * k + r, c)] += sign * bs[r] * w * w;
                        gqd[(2 * k + r, c)] += sign * 2.0 * as_[r] * w;
                    }
                }
            }
        }
        (dd, gq, gqd)
    }

    /// Generalized forces Q(q, q̇) and, if asked, ∂Q/∂q and ∂Q/∂q̇.
    pub fn forces(
        &self,
        q: &[f64],
        qd: &[f64],
        jac: Option<(&mut DMatrix<f64>, &mut DMatrix<f64>)>,
    ) -> DVector<f64> {
        let n = self.n();
        let mut out = DVector::zeros(n);
        let mut jac = jac;
        for f in &self.forces {
            match *f {
                Force::Gravity { g } => {
                    for (b, body) in self.bodies.iter().enumerate() {
                        out[3 * b + 1] -= body.mass * g;
                    }
                }
                Force::Rsda { i, j, k, c, theta0 } => {
                    let (pi, wi) = i.map_or((0.0, 0.0), |i| (q[3 * i + 2], qd[3 * i + 2]));
                    let tau = k * (q[3 * j + 2] - pi - theta0) + c * (qd[3 * j + 2] - wi);
                    out[3 * j + 2] -= tau;
                    if let Some(i) = i {
                        out[3 * i + 2] += tau;
                    }
                    if let Some((jq, jqd)) = jac.as_mut() {
                        let cols: Vec<(usize, f64)> = std::iter::once((3 * j + 2, 1.0))
                            .chain(i.map(|i| (3 * i + 2, -1.0)))
                            .collect();
                        for &(row, rs) in &cols {
                            for &(col, cs) in &cols {
                                jq[(row, col)] -= rs * cs * k;
                                jqd[(row, col)] -= rs * cs * c;
                            }
                        }
                    }
                }
                Force::Spring { a, b, k, c } => {
                    let (pa, pb) = (self.point(a, q, qd), self.point(b, q, qd));
                    let force = (pb.p - pa.p) * k + (pb.v - pa.v) * c;
                    // Generalized force on each end: (F, (B s)ᵀ F) on a, the negative on b.
                    let ends = [(pa.body, 1.0), (pb.body, -1.0)];
                    for &(body, sign) in &ends {
                        if let Some((bi, _, bs, _)) = body {
                            out[3 * bi] += sign * force[0];
                            out[3 * bi + 1] += sign * force[1];
                            out[3 * bi + 2] += sign * bs.dot(&force);
                        }
                    }
                    if let Some((jq, jqd)) = jac.as_mut() {
                        // ∂d/∂q and ∂ḋ/∂q, ∂ḋ/∂q̇ (2 × n), d = p_b − p_a.
                        let mut dd = DMatrix::<f64>::zeros(2, n);
                        let mut dv_q = DMatrix::<f64>::zeros(2, n);
                        for &(body, sign) in &ends {
                            if let Some((bi, as_, bs, w)) = body {
                                for r in 0..2 {
                                    dd[(r, 3 * bi + r)] -= sign;
                                    dd[(r, 3 * bi + 2)] -= sign * bs[r];
                                    dv_q[(r, 3 * bi + 2)] += sign * as_[r] * w;
                                }
                            }
                        }
                        let df_q = &dd * k + &dv_q * c;
                        let df_qd = &dd * c;
                        for &(body, sign) in &ends {
                            if let Some((bi, as_, bs, _)) = body {
                                for col in 0..n {
                                    for r in 0..2 {
                                        jq[(3 * bi + r, col)] += sign * df_q[(r, col)];
                                        jqd[(3 * bi + r, col)] += sign * df_qd[(r, col)];
                                    }
                                    jq[(3 * bi + 2, col)] +=
                                        sign * (bs[0] * df_q[(0, col)] + bs[1] * df_q[(1, col)]);
                                    jqd[(3 * bi + 2, col)] +=
                                        sign * (bs[0] * df_qd[(0, col)] + bs[1] * df_qd[(1, col)]);
                                }
                                // ∂(B s)/∂φ = −A s.
                                jq[(3 * bi + 2, 3 * bi + 2)] -= sign * as_.dot(&force);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Kinetic plus potential energy (gravity, springs).
    pub fn energy(&self, q: &[f64], qd: &[f64]) -> f64 {
        let mass = self.mass_diagonal();
        let mut e: f64 = 0.5 * mass.iter().zip(qd).map(|(m, v)| m * v * v).sum::<f64>();
        for f in &self.forces {
            match *f {
                Force::Gravity { g } => {
                    for (b, body) in self.bodies.iter().enumerate() {
                        e += body.mass * g * q[3 * b + 1];
                    }
                }
                Force::Rsda {
                    i, j, k, theta0, ..
                } => {
                    let pi = i.map_or(0.0, |i| q[3 * i + 2]);
                    let d = q[3 * j + 2] - pi - theta0;
                    e += 0.5 * k * d * d;
                }
                Force::Spring { a, b, k, .. } => {
                    let d = self.point(b, q, qd).p - self.point(a, q, qd).p;
                    e += 0.5 * k * d.norm_squared();
                }
            }
        }
        e
    }
}
