//! the hand-derived derivatives of the constrained formulations checked
//! against automatic differentiation of the code that runs, and against central finite
//! differences.
//!
//! The mechanism (Φ, Φ_q, γ, Q) and the saddle-point solve of Gil, Sanfelice & Nikravesh (LLM) eq. (9) (nalgebra's
//! LU) are generic over [`crate::math::Scalar`]; here they are evaluated in dual
//! numbers (`num_dual::Dual64`, forward mode: one pass per seeded input), which gives
//! the exact derivative of the f64 code up to round-off — no step size, no truncation
//! error. The analytic Jacobian of Gil, Sanfelice & Nikravesh (LLM) eqs. (10)–(15) (`Augmented::jacobian`) is
//! compared with it on every constrained model, at the start and at perturbed,
//! off-manifold, moving states (the augmented f is defined off Φ = 0 too), with and
//! without Baumgarte stabilisation; and so are its pieces (∂Φ_q/∂q, ∂γ/∂q, ∂γ/∂q̇,
//! ∂Q/∂q, ∂Q/∂q̇), so a wrong term is named where it is.

use super::augmented::{self, saddle_point};
use super::mechanism::Mechanism;
use super::models::{describe, Description, CONSTRAINED};
use super::Stabilization;
use nalgebra::DMatrix;
use num_dual::Dual64;
use std::collections::BTreeMap;

/// `x` as dual numbers with derivative 1 in component `seed` (if any).
fn seeded(x: &[f64], seed: Option<usize>) -> Vec<Dual64> {
    x.iter()
        .enumerate()
        .map(|(i, &v)| Dual64::new(v, if Some(i) == seed { 1.0 } else { 0.0 }))
        .collect()
}

/// A small deterministic generator of numbers in [−1, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// The start of the model and five perturbed states (positions by 5 %, angles by
/// 0.3 rad, rates by up to 2 per second). The vehicle's states are moved forward so
/// that its front wheel stands on the bump (away from the profile's kinks).
fn states(id: &str, desc: &Description) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut out = vec![(desc.q0.clone(), desc.qd0.clone())];
    let mut rng = Lcg(0x5eed_0008);
    for _ in 0..5 {
        let mut q = desc.q0.clone();
        let mut qd = desc.qd0.clone();
        for c in 0..q.len() {
            let angle = c % 3 == 2;
            q[c] += if angle { 0.3 } else { 0.05 } * rng.next();
            qd[c] += 2.0 * rng.next();
        }
        if id == "vehicle-stiff" {
            // Front wheel centre (x of body "f") 0.1 m before the bump's axis.
            let x_axis = match mech_of(desc).forces.iter().find_map(|f| match f {
                super::mechanism::Force::Tyre { road, .. } => Some(*road),
                _ => None,
            }) {
                Some(super::mechanism::Road::Bump { x_axis, .. }) => x_axis,
                None => unreachable!("the vehicle has tyres"),
            };
            let shift = x_axis - 0.1 - q[3];
            for b in 0..3 {
                q[3 * b] += shift;
            }
        }
        out.push((q, qd));
    }
    out
}

/// The built-in mechanism of a catalogue model's description.
fn mech_of(desc: &Description) -> &Mechanism {
    desc.mechanism.as_ref().expect("a built-in mechanism")
}

/// Largest |a − b| relative to the largest |b| (or 1).
fn relative_gap(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    let scale = b.amax().max(1.0);
    (a - b).amax() / scale
}

/// The augmented f's acceleration part and its Jacobian ∂q̈/∂(q, q̇) by forward AD.
fn ad_acceleration_jacobian(
    mech: &Mechanism,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
) -> DMatrix<f64> {
    let n = q.len();
    let mut j = DMatrix::zeros(n, 2 * n);
    for c in 0..2 * n {
        let (qs, qds) = if c < n {
            (seeded(q, Some(c)), seeded(qd, None))
        } else {
            (seeded(q, None), seeded(qd, Some(c - n)))
        };
        let s = saddle_point(mech, &qs, &qds, stab).expect("regular saddle point");
        for r in 0..n {
            j[(r, c)] = s.qdd[r].eps;
        }
    }
    j
}

/// ∂q̈/∂(q, q̇) by central differences of the f64 saddle-point solve.
fn fd_acceleration_jacobian(
    mech: &Mechanism,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
) -> DMatrix<f64> {
    let n = q.len();
    let mut j = DMatrix::zeros(n, 2 * n);
    let mut y: Vec<f64> = q.iter().chain(qd).copied().collect();
    for c in 0..2 * n {
        let h = 1e-6 * y[c].abs().max(1.0);
        let y0 = y[c];
        let mut eval = |v: f64| {
            y[c] = v;
            let s = saddle_point(mech, &y[..n], &y[n..], stab).expect("regular");
            s.qdd
        };
        let (plus, minus) = (eval(y0 + h), eval(y0 - h));
        y[c] = y0;
        for r in 0..n {
            j[(r, c)] = (plus[r] - minus[r]) / (2.0 * h);
        }
    }
    j
}

/// The lower half (∂q̈/∂y) of the analytic Jacobian the stiff methods use.
fn analytic_acceleration_jacobian(
    desc: Description,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
) -> DMatrix<f64> {
    let n = q.len();
    let (_, model) = augmented::build(desc, stab);
    let y: Vec<f64> = q.iter().chain(qd).copied().collect();
    let j = model.jacobian(0.0, &y).expect("analytic Jacobian");
    // The upper half is (0, I): q' = q̇.
    for r in 0..n {
        for c in 0..2 * n {
            let expected = if c == n + r { 1.0 } else { 0.0 };
            assert_eq!(
                j[(r, c)],
                expected,
                "upper half of the Jacobian at ({r}, {c})"
            );
        }
    }
    j.rows(n, n).into_owned()
}

const STABILIZATIONS: [Stabilization; 2] = [
    Stabilization::None,
    Stabilization::Baumgarte {
        alpha: 2.0,
        beta: 3.0,
    },
];

#[test]
fn augmented_jacobian_equals_automatic_differentiation() {
    for id in CONSTRAINED {
        let mut worst: f64 = 0.0;
        let desc = describe(id, &BTreeMap::new(), None).unwrap();
        for (q, qd) in states(id, &desc) {
            for stab in STABILIZATIONS {
                let desc = describe(id, &BTreeMap::new(), None).unwrap();
                let ad = ad_acceleration_jacobian(mech_of(&desc), &q, &qd, stab);
                let analytic = analytic_acceleration_jacobian(desc, &q, &qd, stab);
                let gap = relative_gap(&analytic, &ad);
                worst = worst.max(gap);
                assert!(gap < 1e-12, "{id} {stab:?}: analytic vs AD {gap:e}");
            }
        }
        println!("{id}: analytic Jacobian (Gil, Sanfelice & Nikravesh (LLM) eqs. 10–15) vs AD, worst relative {worst:e}");
    }
}

#[test]
fn augmented_jacobian_equals_finite_differences() {
    for id in CONSTRAINED {
        let mut worst: f64 = 0.0;
        let desc = describe(id, &BTreeMap::new(), None).unwrap();
        for (q, qd) in states(id, &desc) {
            for stab in STABILIZATIONS {
                let fd = fd_acceleration_jacobian(mech_of(&desc), &q, &qd, stab);
                let ad = ad_acceleration_jacobian(mech_of(&desc), &q, &qd, stab);
                let gap = relative_gap(&fd, &ad);
                worst = worst.max(gap);
                assert!(
                    gap < 1e-6,
                    "{id} {stab:?}: central differences vs AD {gap:e}"
                );
            }
        }
        println!("{id}: central differences vs AD, worst relative {worst:e}");
    }
}

/// The pieces of eqs. (10)–(15) one by one: a wrong term fails here with its name.
#[test]
fn mechanism_derivatives_equal_automatic_differentiation() {
    for id in CONSTRAINED {
        let desc = describe(id, &BTreeMap::new(), None).unwrap();
        let mech = mech_of(&desc);
        let (n, m) = (mech.n(), mech.m());
        for (q, qd) in states(id, &desc) {
            let phi_q = mech.phi_q(&q);
            let der = mech.derivatives(&q, &qd);
            let (dd, gq, gqd) = (&der.phi_q_q, &der.gamma_q, &der.gamma_qd);
            let (mut fq, mut fqd) = (DMatrix::zeros(n, n), DMatrix::zeros(n, n));
            mech.force_jacobian(&q, &qd, &mut fq, &mut fqd);
            let (mut ad_gq, mut ad_gqd) = (DMatrix::zeros(m, n), DMatrix::zeros(m, n));
            let (mut ad_fq, mut ad_fqd) = (DMatrix::zeros(n, n), DMatrix::zeros(n, n));
            for (c, dd_c) in dd.iter().enumerate() {
                let (qs, q0) = (seeded(&q, Some(c)), seeded(&q, None));
                let (qds, qd0) = (seeded(&qd, Some(c)), seeded(&qd, None));
                // Φ_q column c = ∂Φ/∂q_c.
                let dphi = mech.phi(&qs).map(|v| v.eps);
                let gap = (dphi - phi_q.column(c)).amax();
                assert!(gap < 1e-13, "{id}: Φ_q column {c} vs AD {gap:e}");
                // ∂Φ_q/∂q_c.
                let ddc = mech.phi_q(&qs).map(|v| v.eps);
                let hand = dd_c
                    .as_ref()
                    .map_or_else(|| DMatrix::zeros(m, n), |d| d.to_dense());
                let gap = (&ddc - &hand).amax();
                assert!(gap < 1e-12, "{id}: ∂Φ_q/∂q_{c} vs AD {gap:e}");
                ad_gq.set_column(c, &mech.gamma(&qs, &qd0).map(|v| v.eps));
                ad_gqd.set_column(c, &mech.gamma(&q0, &qds).map(|v| v.eps));
                ad_fq.set_column(c, &mech.forces(&qs, &qd0).map(|v| v.eps));
                ad_fqd.set_column(c, &mech.forces(&q0, &qds).map(|v| v.eps));
            }
            for (name, hand, ad) in [
                ("∂γ/∂q", gq, &ad_gq),
                ("∂γ/∂q̇", gqd, &ad_gqd),
                ("∂Q/∂q", &fq, &ad_fq),
                ("∂Q/∂q̇", &fqd, &ad_fqd),
            ] {
                let gap = relative_gap(hand, ad);
                assert!(gap < 1e-13, "{id}: {name} vs AD {gap:e}");
            }
        }
    }
}

/// AD itself is checked where the answer is known in closed form: Φ_q of a revolute
/// joint is [I, B(φ) s] (Gil, Sanfelice & Nikravesh (LLM) §2), and a dual number's derivative of sin is cos.
#[test]
fn dual_numbers_differentiate_the_kinematics_exactly() {
    let desc = describe("double-pendulum-stiff", &BTreeMap::new(), None).unwrap();
    let q = desc.q0.clone();
    let phi = q[2];
    let (s, c) = crate::math::sin_cos(phi);
    let r = 0.5 * 1.0; // the ground hinge at body-frame (−L1/2, 0), L1 = 1
    let dphi = mech_of(&desc).phi(&seeded(&q, Some(2))).map(|v| v.eps);
    // ∂/∂φ of A(φ)(−r, 0) = B(φ)(−r, 0) = (r sin φ, −r cos φ).
    assert!((dphi[0] - r * s).abs() < 1e-15 && (dphi[1] + r * c).abs() < 1e-15);
}

/// The state-space Jacobian (chain rule through the constraint solve, Negrut et al. 2003 §2) against
/// AD through the same Newton recovery of u and u̇ and the saddle-point solve, and
/// against central differences of f, at the start and at perturbed states.
#[test]
fn state_space_jacobian_equals_automatic_differentiation() {
    use super::state_space;
    use crate::problem::System;
    for id in CONSTRAINED {
        let (mut worst_ad, mut worst_fd): (f64, f64) = (0.0, 0.0);
        let desc = describe(id, &BTreeMap::new(), None).unwrap();
        let (_, model) =
            state_space::new(desc, state_space::DEFAULT_PARTITION_LIMIT, None).unwrap();
        let dim = model.dim();
        let k = dim / 2;
        let y0 = crate::model::Model::default_y0(&model).unwrap();
        let mut rng = Lcg(0x5eed_5a5e);
        let mut ys = vec![y0.clone()];
        for _ in 0..4 {
            let y: Vec<f64> = y0
                .iter()
                .enumerate()
                .map(|(i, v)| v + if i < k { 0.03 } else { 1.0 } * rng.next())
                .collect();
            ys.push(y);
        }
        for y in ys {
            let analytic = model.jacobian(0.0, &y).expect("analytic Jacobian");
            let mut ad = DMatrix::zeros(dim, dim);
            let mut fd = DMatrix::zeros(dim, dim);
            for c in 0..dim {
                let mech = model.desc_mechanism().expect("a built-in mechanism");
                let (q, qd) = model
                    .recover_with(
                        model.partition(),
                        &seeded(&y, Some(c)),
                        |q| mech.phi(q),
                        |q| mech.phi_q(q),
                        |_| None,
                    )
                    .expect("recovered");
                let s = saddle_point(mech, &q, &qd, Stabilization::None).expect("regular");
                for (j, &i) in model.partition().independent.iter().enumerate() {
                    ad[(j, c)] = qd[i].eps;
                    ad[(k + j, c)] = s.qdd[i].eps;
                }
                let h = 1e-6 * y[c].abs().max(1.0);
                let (mut plus, mut minus) = (y.clone(), y.clone());
                plus[c] += h;
                minus[c] -= h;
                let (mut fp, mut fm) = (vec![0.0; dim], vec![0.0; dim]);
                model.rhs(0.0, &plus, &mut fp);
                model.rhs(0.0, &minus, &mut fm);
                for r in 0..dim {
                    fd[(r, c)] = (fp[r] - fm[r]) / (2.0 * h);
                }
            }
            let (gap_ad, gap_fd) = (relative_gap(&analytic, &ad), relative_gap(&fd, &ad));
            worst_ad = worst_ad.max(gap_ad);
            worst_fd = worst_fd.max(gap_fd);
            assert!(
                gap_ad < 1e-11,
                "{id}: state-space Jacobian vs AD {gap_ad:e}"
            );
            assert!(gap_fd < 1e-5, "{id}: central differences vs AD {gap_fd:e}");
        }
        println!(
            "{id}: state-space Jacobian vs AD worst relative {worst_ad:e}; central \
             differences vs AD {worst_fd:e}"
        );
    }
}
