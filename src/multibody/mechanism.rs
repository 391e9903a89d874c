//! A planar mechanism in body coordinates, Gil, Sanfelice & Nikravesh (LLM) §2 eqs. (7)–(8): bodies with
//! q_b = (x, y, φ) (centre of mass and angle), joints (revolute, to the ground or
//! between two bodies; translational between two bodies, as the Negrut et al. 2003 HMMWV's "T"
//! joints) and force elements (gravity, rotational spring-damper-actuators,
//! translational spring-dampers of zero rest length, vertical tyre springs on a road).
//!
//! With A(φ) = [[cos φ, −sin φ], [sin φ, cos φ]] and B(φ) = dA/dφ, a revolute joint
//! joining point s_i of body i to point s_j of body j (or a fixed ground point) is
//! Φ = r_i + A_i s_i − r_j − A_j s_j = 0 (two rows). Its Jacobian Φ_q has the blocks
//! [I, B_i s_i] and [−I, −B_j s_j], and the right-hand side of the acceleration
//! equation (Gil, Sanfelice & Nikravesh (LLM) eq. 8) is γ = −(Φ_q q̇)_q q̇ = A_i s_i φ̇_i² − A_j s_j φ̇_j².
//! The derivatives of Φ_q and γ with respect to q and q̇ needed by the Jacobian of
//! Gil, Sanfelice & Nikravesh (LLM) eqs. (10)–(15) are nonzero only in the angle columns: ∂(B s)/∂φ = −A s,
//! ∂γ/∂φ_i = B_i s_i φ̇_i², ∂γ/∂φ̇_i = 2 A_i s_i φ̇_i (and the negatives for body j).
//!
//! A translational joint lets point s_j of body j slide along the line of body i
//! through s_i with direction e (body-i frame), and locks the relative angle: with the
//! normal n = (−e_y, e_x), u = A_i n, w = B_i n (= ∂u/∂φ_i) and e_ij = r_j + A_j s_j − r_i,
//! Φ = (u·e_ij − n·s_i, φ_j − φ_i − φ0). Row 1 of Φ_q is −uᵀ on r_i, w·e_ij on φ_i,
//! uᵀ on r_j, u·B_j s_j on φ_j; γ₁ = φ̇_i² u·e_ij − 2φ̇_i w·ė_ij + φ̇_j² u·A_j s_j
//! (ė_ij = ṙ_j + B_j s_j φ̇_j − ṙ_i) and γ₂ = 0. Its derivatives (in [`Mechanism::derivatives`])
//! also reach the position columns.
//!
//! The mass matrix is constant and diagonal, M = diag(m, m, J) per body (Gil, Sanfelice & Nikravesh (LLM) eq. 7:
//! ∂M/∂q = 0 in body coordinates). Generalized forces Q(q, q̇) come with their exact
//! derivatives ∂Q/∂q and ∂Q/∂q̇.
//!
//! **Scalars.** Φ, Φ_q, γ and Q are generic over [`Scalar`] (f64 in every run; dual
//! numbers in the tests, which differentiate the very code that runs to check the
//! hand-derived derivatives of Gil, Sanfelice & Nikravesh (LLM) eqs. 10–15 by automatic differentiation).

use nalgebra::{DMatrix, DVector, Vector2};

pub use crate::math::Scalar;

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

/// A joint: two constraint rows.
#[derive(Debug, Clone, Copy)]
pub enum Joint {
    Revolute(Revolute),
    /// Point `sj` of body `j` slides on the line of body `i` through `si` along the unit
    /// vector `axis` (body-i frame); φ_j − φ_i = `phi0`.
    Translational {
        i: usize,
        j: usize,
        si: [f64; 2],
        sj: [f64; 2],
        axis: [f64; 2],
        phi0: f64,
    },
}

/// A road profile under a tyre: height w(x) above the flat road at abscissa x, with
/// w′ and w″ (one-sided at kinks).
#[derive(Debug, Clone, Copy)]
pub enum Road {
    /// A half-cylinder bump of radius `radius` with its axis at `x_axis`, enveloped by a
    /// rigid wheel of radius `wheel` (see `src/model/vehicle_stiff.rs`).
    Bump {
        x_axis: f64,
        radius: f64,
        wheel: f64,
    },
}

impl Road {
    /// (w, w′, w″) at x.
    pub fn profile<T: Scalar>(&self, x: T) -> (T, T, T) {
        match *self {
            Road::Bump {
                x_axis,
                radius,
                wheel,
            } => crate::model::bump_profile(x - T::of(x_axis), wheel, radius),
        }
    }
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
    /// A vertical tyre at body `body`'s centre of mass on a road: F_y = −k (y − rest −
    /// w(x)) − c (ẏ − w′(x) ẋ) (Negrut et al. 2003 §3.2: "tires … modeled as vertical TSDA
    /// elements"), F_x = 0.
    Tyre {
        body: usize,
        k: f64,
        c: f64,
        rest: f64,
        road: Road,
    },
}

use super::constrained::Constrained;
pub use super::constrained::Derivatives;

/// Bodies, joints and forces.
#[derive(Debug, Clone)]
pub struct Mechanism {
    pub bodies: Vec<Body>,
    pub joints: Vec<Joint>,
    pub forces: Vec<Force>,
}

fn rot<T: Scalar>(phi: T) -> ([T; 4], [T; 4]) {
    let (s, c) = phi.sin_cos_det();
    ([c, -s, s, c], [-s, -c, c, -s])
}

fn apply<T: Scalar>(m: &[T; 4], v: [f64; 2]) -> Vector2<T> {
    let (x, y) = (T::of(v[0]), T::of(v[1]));
    Vector2::new(m[0] * x + m[1] * y, m[2] * x + m[3] * y)
}

fn vec2<T: Scalar>(v: [f64; 2]) -> Vector2<T> {
    Vector2::new(T::of(v[0]), T::of(v[1]))
}

/// Position, velocity and the pieces of an anchor's kinematics at (q, q̇).
struct Point<T: Scalar> {
    p: Vector2<T>,
    v: Vector2<T>,
    /// Body index, A s, B s, φ̇ (None for a ground point).
    body: Option<(usize, Vector2<T>, Vector2<T>, T)>,
}

/// The pieces of a translational joint at (q, q̇) (notation of the module doc).
struct Slider<T: Scalar> {
    /// Body-i normal n (constant) and its global images u = A_i n, w = B_i n.
    n: Vector2<f64>,
    u: Vector2<T>,
    w: Vector2<T>,
    /// e_ij = r_j + A_j s_j − r_i and its rate.
    e: Vector2<T>,
    e_dot: Vector2<T>,
    /// A_j s_j, B_j s_j.
    as_j: Vector2<T>,
    bs_j: Vector2<T>,
    w_i: T,
    w_j: T,
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

    fn point<T: Scalar>(&self, a: Anchor, q: &[T], qd: &[T]) -> Point<T> {
        match a {
            Anchor::Ground(p) => Point {
                p: vec2(p),
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

    fn slider<T: Scalar>(
        &self,
        i: usize,
        j: usize,
        sj: [f64; 2],
        axis: [f64; 2],
        q: &[T],
        qd: &[T],
    ) -> Slider<T> {
        let n = Vector2::new(-axis[1], axis[0]);
        let (ai, bi) = rot(q[3 * i + 2]);
        let (aj, bj) = rot(q[3 * j + 2]);
        let (as_j, bs_j) = (apply(&aj, sj), apply(&bj, sj));
        let (w_i, w_j) = (qd[3 * i + 2], qd[3 * j + 2]);
        let r = |b: usize, x: &[T]| Vector2::new(x[3 * b], x[3 * b + 1]);
        Slider {
            n,
            u: apply(&ai, [n[0], n[1]]),
            w: apply(&bi, [n[0], n[1]]),
            e: r(j, q) + as_j - r(i, q),
            e_dot: r(j, qd) + bs_j * w_j - r(i, qd),
            as_j,
            bs_j,
            w_i,
            w_j,
        }
    }

    /// Φ(q) (Gil, Sanfelice & Nikravesh (LLM) eq. 7).
    pub fn phi<T: Scalar>(&self, q: &[T]) -> DVector<T> {
        let zero = vec![T::zero(); q.len()];
        let mut out = DVector::zeros(self.m());
        for (k, joint) in self.joints.iter().enumerate() {
            match *joint {
                Joint::Revolute(j) => {
                    let d = self.point(j.a, q, &zero).p - self.point(j.b, q, &zero).p;
                    out[2 * k] = d[0];
                    out[2 * k + 1] = d[1];
                }
                Joint::Translational {
                    i,
                    j,
                    si,
                    sj,
                    axis,
                    phi0,
                } => {
                    let s = self.slider(i, j, sj, axis, q, &zero);
                    out[2 * k] = s.u.dot(&s.e) - T::of(s.n.dot(&Vector2::from(si)));
                    out[2 * k + 1] = q[3 * j + 2] - q[3 * i + 2] - T::of(phi0);
                }
            }
        }
        out
    }

    /// Φ_q (m × n).
    pub fn phi_q<T: Scalar>(&self, q: &[T]) -> DMatrix<T> {
        let zero = vec![T::zero(); q.len()];
        let mut d = DMatrix::zeros(self.m(), self.n());
        for (k, joint) in self.joints.iter().enumerate() {
            match *joint {
                Joint::Revolute(j) => {
                    for (anchor, sign) in [(j.a, T::one()), (j.b, -T::one())] {
                        if let Some((b, _, bs, _)) = self.point(anchor, q, &zero).body {
                            for r in 0..2 {
                                d[(2 * k + r, 3 * b + r)] += sign;
                                d[(2 * k + r, 3 * b + 2)] += sign * bs[r];
                            }
                        }
                    }
                }
                Joint::Translational { i, j, sj, axis, .. } => {
                    let s = self.slider(i, j, sj, axis, q, &zero);
                    for r in 0..2 {
                        d[(2 * k, 3 * i + r)] -= s.u[r];
                        d[(2 * k, 3 * j + r)] += s.u[r];
                    }
                    d[(2 * k, 3 * i + 2)] += s.w.dot(&s.e);
                    d[(2 * k, 3 * j + 2)] += s.u.dot(&s.bs_j);
                    d[(2 * k + 1, 3 * i + 2)] -= T::one();
                    d[(2 * k + 1, 3 * j + 2)] += T::one();
                }
            }
        }
        d
    }

    /// γ = −(Φ_q q̇)_q q̇ (Gil, Sanfelice & Nikravesh (LLM) eq. 8).
    pub fn gamma<T: Scalar>(&self, q: &[T], qd: &[T]) -> DVector<T> {
        let mut out = DVector::zeros(self.m());
        for (k, joint) in self.joints.iter().enumerate() {
            match *joint {
                Joint::Revolute(j) => {
                    for (anchor, sign) in [(j.a, T::one()), (j.b, -T::one())] {
                        if let Some((_, as_, _, w)) = self.point(anchor, q, qd).body {
                            for r in 0..2 {
                                out[2 * k + r] += sign * as_[r] * w * w;
                            }
                        }
                    }
                }
                Joint::Translational { i, j, sj, axis, .. } => {
                    let s = self.slider(i, j, sj, axis, q, qd);
                    out[2 * k] += s.w_i * s.w_i * s.u.dot(&s.e)
                        - T::of(2.0) * s.w_i * s.w.dot(&s.e_dot)
                        + s.w_j * s.w_j * s.u.dot(&s.as_j);
                }
            }
        }
        out
    }

    /// The derivatives of Φ_q and γ at (q, q̇) (see [`Derivatives`]).
    pub fn derivatives(&self, q: &[f64], qd: &[f64]) -> Derivatives {
        let (n, m) = (self.n(), self.m());
        let mut dd: Vec<Option<DMatrix<f64>>> = vec![None; n];
        let mut gq = DMatrix::zeros(m, n);
        let mut gqd = DMatrix::zeros(m, n);
        // Adds `value` at (row, col) of ∂Φ_q/∂q_c.
        let mut add = |c: usize, row: usize, col: usize, value: f64| {
            dd[c].get_or_insert_with(|| DMatrix::zeros(m, n))[(row, col)] += value;
        };
        for (k, joint) in self.joints.iter().enumerate() {
            match *joint {
                Joint::Revolute(j) => {
                    for (anchor, sign) in [(j.a, 1.0), (j.b, -1.0)] {
                        if let Some((b, as_, bs, w)) = self.point(anchor, q, qd).body {
                            let c = 3 * b + 2;
                            for r in 0..2 {
                                add(c, 2 * k + r, c, -sign * as_[r]);
                                gq[(2 * k + r, c)] += sign * bs[r] * w * w;
                                gqd[(2 * k + r, c)] += sign * 2.0 * as_[r] * w;
                            }
                        }
                    }
                }
                Joint::Translational { i, j, sj, axis, .. } => {
                    // ∂u/∂φ_i = w, ∂w/∂φ_i = −u, ∂e/∂r_j = I, ∂e/∂r_i = −I,
                    // ∂e/∂φ_j = B_j s_j, ∂(B_j s_j)/∂φ_j = −A_j s_j.
                    let s = self.slider(i, j, sj, axis, q, qd);
                    let (pi, pj, row) = (3 * i + 2, 3 * j + 2, 2 * k);
                    let (u, w, e, ed) = (s.u, s.w, s.e, s.e_dot);
                    let (wi, wj) = (s.w_i, s.w_j);
                    for r in 0..2 {
                        // Entries −u on r_i and u on r_j vary with φ_i.
                        add(pi, row, 3 * i + r, -w[r]);
                        add(pi, row, 3 * j + r, w[r]);
                        // Entry w·e on φ_i varies with r_i and r_j.
                        add(3 * j + r, row, pi, w[r]);
                        add(3 * i + r, row, pi, -w[r]);
                        gq[(row, 3 * i + r)] -= wi * wi * u[r];
                        gq[(row, 3 * j + r)] += wi * wi * u[r];
                        gqd[(row, 3 * i + r)] += 2.0 * wi * w[r];
                        gqd[(row, 3 * j + r)] -= 2.0 * wi * w[r];
                    }
                    add(pi, row, pi, -u.dot(&e));
                    add(pj, row, pi, w.dot(&s.bs_j));
                    // Entry u·B_j s_j on φ_j.
                    add(pi, row, pj, w.dot(&s.bs_j));
                    add(pj, row, pj, -u.dot(&s.as_j));
                    gq[(row, pi)] +=
                        wi * wi * w.dot(&e) + 2.0 * wi * u.dot(&ed) + wj * wj * w.dot(&s.as_j);
                    gq[(row, pj)] +=
                        (wi * wi + wj * wj) * u.dot(&s.bs_j) + 2.0 * wi * wj * w.dot(&s.as_j);
                    gqd[(row, pi)] += 2.0 * wi * u.dot(&e) - 2.0 * w.dot(&ed);
                    gqd[(row, pj)] += -2.0 * wi * w.dot(&s.bs_j) + 2.0 * wj * u.dot(&s.as_j);
                }
            }
        }
        Derivatives {
            phi_q_q: dd
                .into_iter()
                .map(|d| d.map(|d| super::constrained::SparseBlock::from_dense(&d)))
                .collect(),
            gamma_q: gq,
            gamma_qd: gqd,
            mass_q: Vec::new(),
            phi_t_q: None,
            time: None,
        }
    }

    /// Generalized forces Q(q, q̇).
    pub fn forces<T: Scalar>(&self, q: &[T], qd: &[T]) -> DVector<T> {
        let mut out = DVector::zeros(self.n());
        for f in &self.forces {
            match *f {
                Force::Gravity { g } => {
                    for (b, body) in self.bodies.iter().enumerate() {
                        out[3 * b + 1] -= T::of(body.mass * g);
                    }
                }
                Force::Rsda { i, j, k, c, theta0 } => {
                    let (pi, wi) =
                        i.map_or((T::zero(), T::zero()), |i| (q[3 * i + 2], qd[3 * i + 2]));
                    let tau = (q[3 * j + 2] - pi - T::of(theta0)) * T::of(k)
                        + (qd[3 * j + 2] - wi) * T::of(c);
                    out[3 * j + 2] -= tau;
                    if let Some(i) = i {
                        out[3 * i + 2] += tau;
                    }
                }
                Force::Spring { a, b, k, c } => {
                    let (pa, pb) = (self.point(a, q, qd), self.point(b, q, qd));
                    let force = (pb.p - pa.p) * T::of(k) + (pb.v - pa.v) * T::of(c);
                    // Generalized force on each end: (F, (B s)ᵀ F) on a, the negative on b.
                    for (body, sign) in [(pa.body, T::one()), (pb.body, -T::one())] {
                        if let Some((bi, _, bs, _)) = body {
                            out[3 * bi] += sign * force[0];
                            out[3 * bi + 1] += sign * force[1];
                            out[3 * bi + 2] += sign * bs.dot(&force);
                        }
                    }
                }
                Force::Tyre {
                    body,
                    k,
                    c,
                    rest,
                    road,
                } => {
                    let (x, y) = (q[3 * body], q[3 * body + 1]);
                    let (xd, yd) = (qd[3 * body], qd[3 * body + 1]);
                    let (w, dw, _) = road.profile(x);
                    out[3 * body + 1] -=
                        (y - T::of(rest) - w) * T::of(k) + (yd - dw * xd) * T::of(c);
                }
            }
        }
        out
    }

    /// ∂Q/∂q and ∂Q/∂q̇, added to `jq` and `jqd` (n × n).
    pub fn force_jacobian(
        &self,
        q: &[f64],
        qd: &[f64],
        jq: &mut DMatrix<f64>,
        jqd: &mut DMatrix<f64>,
    ) {
        let n = self.n();
        for f in &self.forces {
            match *f {
                Force::Gravity { .. } => {}
                Force::Rsda { i, j, k, c, .. } => {
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
                Force::Spring { a, b, k, c } => {
                    let (pa, pb) = (self.point(a, q, qd), self.point(b, q, qd));
                    let force = (pb.p - pa.p) * k + (pb.v - pa.v) * c;
                    let ends = [(pa.body, 1.0), (pb.body, -1.0)];
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
                Force::Tyre {
                    body, k, c, road, ..
                } => {
                    let (xc, yc) = (3 * body, 3 * body + 1);
                    let (_, dw, ddw) = road.profile(q[xc]);
                    jq[(yc, yc)] -= k;
                    jq[(yc, xc)] += k * dw + c * ddw * qd[xc];
                    jqd[(yc, yc)] -= c;
                    jqd[(yc, xc)] += c * dw;
                }
            }
        }
    }

    /// Kinetic plus potential energy (gravity, springs, tyres), the kinetic part
    /// measured in a frame moving with velocity `frame` (0 for the ground frame).
    pub fn energy_in_frame(&self, q: &[f64], qd: &[f64], frame: [f64; 2]) -> f64 {
        let mass = self.mass_diagonal();
        let mut e: f64 = 0.5
            * mass
                .iter()
                .zip(qd)
                .enumerate()
                .map(|(c, (m, v))| {
                    let rel = if c % 3 == 2 { *v } else { v - frame[c % 3] };
                    m * rel * rel
                })
                .sum::<f64>();
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
                Force::Tyre {
                    body,
                    k,
                    rest,
                    road,
                    ..
                } => {
                    let (w, _, _) = road.profile(q[3 * body]);
                    let d = q[3 * body + 1] - rest - w;
                    e += 0.5 * k * d * d;
                }
            }
        }
        e
    }

    /// Kinetic plus potential energy (gravity, springs, tyres).
    pub fn energy(&self, q: &[f64], qd: &[f64]) -> f64 {
        self.energy_in_frame(q, qd, [0.0, 0.0])
    }
}

impl Constrained for Mechanism {
    fn n(&self) -> usize {
        Mechanism::n(self)
    }

    fn m(&self) -> usize {
        Mechanism::m(self)
    }

    fn coordinate_names(&self) -> Vec<String> {
        Mechanism::coordinate_names(self)
    }

    fn constraint_names(&self) -> Vec<String> {
        (0..self.joints.len())
            .flat_map(|k| [format!("joint {}.1", k + 1), format!("joint {}.2", k + 1)])
            .collect()
    }

    fn mass(&self, _q: &[f64]) -> DMatrix<f64> {
        DMatrix::from_diagonal(&DVector::from_vec(self.mass_diagonal()))
    }

    fn forces(&self, _t: f64, q: &[f64], qd: &[f64]) -> DVector<f64> {
        Mechanism::forces(self, q, qd)
    }

    fn phi(&self, _t: f64, q: &[f64]) -> DVector<f64> {
        Mechanism::phi(self, q)
    }

    fn phi_q(&self, _t: f64, q: &[f64]) -> DMatrix<f64> {
        Mechanism::phi_q(self, q)
    }

    fn gamma(&self, _t: f64, q: &[f64], qd: &[f64]) -> DVector<f64> {
        Mechanism::gamma(self, q, qd)
    }

    fn derivatives(&self, _t: f64, q: &[f64], qd: &[f64]) -> Derivatives {
        Mechanism::derivatives(self, q, qd)
    }

    fn force_jacobian(
        &self,
        _t: f64,
        q: &[f64],
        qd: &[f64],
        jq: &mut DMatrix<f64>,
        jqd: &mut DMatrix<f64>,
    ) {
        Mechanism::force_jacobian(self, q, qd, jq, jqd)
    }

    fn energy(&self, _t: f64, q: &[f64], qd: &[f64]) -> Option<f64> {
        Some(Mechanism::energy(self, q, qd))
    }
}
