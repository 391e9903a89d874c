//! The stiff double pendulum of Gil, Sanfelice & Nikravesh (LLM) §2 in body coordinates.

use super::common::spec;
use odelab::model::{build, catalog};
use std::collections::BTreeMap;

fn fast_frequency() -> f64 {
    let (info, model) = build("double-pendulum-stiff", &BTreeMap::new()).unwrap();
    let ev = model.jacobian(0.0, &info.y0).unwrap().complex_eigenvalues();
    eprintln!("double-pendulum-stiff eigenvalues at y0: {ev:?}");
    ev.iter().map(|e| e.norm()).fold(0.0, f64::max)
}

/// The default state satisfies both joints at position and velocity level, for the
/// default and for changed lengths (default_y0 follows the parameters).
#[test]
fn stiff_pendulum_default_state_is_consistent() {
    let info = catalog()
        .into_iter()
        .find(|m| m.id == "double-pendulum-stiff")
        .unwrap();
    let (_, model) = build("double-pendulum-stiff", &BTreeMap::new()).unwrap();
    assert_eq!(model.default_y0().unwrap(), info.y0);
    let mut p = BTreeMap::new();
    p.insert("L1".to_string(), 0.7);
    p.insert("L2".to_string(), 1.3);
    p.insert("phi0".to_string(), -0.4);
    p.insert("bend0".to_string(), 0.02);
    let (_, model) = build("double-pendulum-stiff", &p).unwrap();
    let y = model.default_y0().unwrap();
    let mut out = [0.0; 3];
    model.outputs(0.0, &y, &mut out);
    assert!(out[1] < 1e-15 && out[2] == 0.0, "{out:?}");
    // The spring energy of a 0.02 rad bend: ½ · 3000·180/π · 0.02².
    let (_, straight) = build("double-pendulum-stiff", &{
        let mut q = p.clone();
        q.insert("bend0".to_string(), 0.0);
        q
    })
    .unwrap();
    let mut e0 = [0.0; 3];
    let y_straight = straight.default_y0().unwrap();
    // Same link 1; link 2 rotated about the joint: gravity energy differs, spring adds.
    model.outputs(0.0, &y_straight, &mut e0);
    let spring = out[0] - e0[0] - 9.81 * (y[4] - y_straight[4]);
    assert!(
        (spring - 0.5 * 3000.0f64.to_degrees() * 0.0004).abs() < 1e-9,
        "{spring}"
    );
}

/// Accelerations from eq. (9) satisfy the acceleration-level constraint D q̈ = γ, so a
/// consistent state stays consistent to second order; the analytic Jacobian of eqs.
/// (10)–(15) matches central differences at a moving, consistent state with damping.
#[test]
fn stiff_pendulum_jacobian_at_a_moving_state() {
    let mut p = BTreeMap::new();
    p.insert("c".to_string(), 3.0);
    p.insert("bend0".to_string(), 0.01);
    p.insert("phi0".to_string(), 0.3);
    let (_, model) = build("double-pendulum-stiff", &p).unwrap();
    let mut y = model.default_y0().unwrap();
    // Consistent velocities: link angular rates w1, w2.
    let (w1, w2) = (1.3, -2.1);
    let (s1, c1) = y[2].sin_cos();
    let (s2, c2) = y[5].sin_cos();
    y[6..].copy_from_slice(&[
        -0.5 * s1 * w1,
        0.5 * c1 * w1,
        w1,
        -s1 * w1 - 0.5 * s2 * w2,
        c1 * w1 + 0.5 * c2 * w2,
        w2,
    ]);
    let mut out = [0.0; 3];
    model.outputs(0.0, &y, &mut out);
    assert!(out[2] < 1e-15, "consistent velocities: {out:?}");
    let j = model.jacobian(0.0, &y).unwrap();
    let (mut fp, mut fm) = ([0.0; 12], [0.0; 12]);
    let mut worst: f64 = 0.0;
    for col in 0..12 {
        let d = 1e-6;
        let (mut yp, mut ym) = (y.clone(), y.clone());
        yp[col] += d;
        ym[col] -= d;
        model.rhs(0.0, &yp, &mut fp);
        model.rhs(0.0, &ym, &mut fm);
        for row in 0..12 {
            let fd = (fp[row] - fm[row]) / (2.0 * d);
            let err = (j[(row, col)] - fd).abs() / (1.0 + fd.abs());
            worst = worst.max(err);
        }
    }
    eprintln!("double-pendulum-stiff: worst relative J − FD difference {worst:e}");
    assert!(worst < 1e-6, "{worst}");
}

/// rk4 at a step that resolves the spring's fast mode conserves the energy, and the
/// constraint drift of the index-1 formulation stays small over a short run.
#[test]
fn stiff_pendulum_energy_and_constraint_drift() {
    let w = fast_frequency();
    let h = 1e-4;
    eprintln!("fastest |λ| = {w}, h|λ| = {}", h * w);
    assert!(h * w < 1.0);
    let mut s = spec("double-pendulum-stiff", "rk4", h, 1.0);
    s.params.insert("bend0".into(), 0.0);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.warning.is_none());
    let series = |i: usize| &sol.outputs[i].1;
    let e = series(0);
    let drift = e.iter().map(|v| (v - e[0]).abs()).fold(0.0, f64::max);
    let phi = series(1).iter().fold(0.0f64, |m, v| m.max(*v));
    let dphi = series(2).iter().fold(0.0f64, |m, v| m.max(*v));
    eprintln!(
        "double-pendulum-stiff rk4 h = {h}, t ≤ 1: E0 = {}, max |E − E0| = {drift:e}, max |Φ| = {phi:e}, max |Φq q̇| = {dphi:e}",
        e[0]
    );
    assert!(drift < 1e-6, "{drift}");
    assert!(phi < 1e-8 && dphi < 1e-8, "{phi} {dphi}");

    // At h = 1e-3 (h|λ| ≈ 1.5, still inside rk4's interval 2.83) the drift is visible.
    let sol = odelab::solve(&spec("double-pendulum-stiff", "rk4", 1e-3, 1.0)).unwrap();
    let max = |i: usize| sol.outputs[i].1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    eprintln!(
        "double-pendulum-stiff rk4 h = 1e-3, t ≤ 1: max |E − E0| = {:e}, max |Φ| = {:e}, max |Φq q̇| = {:e}",
        max(0),
        max(1),
        max(2)
    );
    assert!(sol.warning.is_none() && max(0) < 1e-2 && max(1) < 1e-4);
}

/// Two independent formulations of one mechanism agree: `double-pendulum-rsda` (joint
/// angles, Lagrange) set to the stiff pendulum's data (rods of length 1, CM at 0.5, a
/// single spring k = 3000 N·m/deg between the links) gives the same angular
/// accelerations as the body-coordinate saddle-point solve, at consistent states, and
/// the same trajectory.
#[test]
fn stiff_pendulum_matches_the_joint_angle_formulation() {
    let k = 3000.0f64.to_degrees();
    let mut p = BTreeMap::new();
    for (n, v) in [
        ("m1", 1.0),
        ("m2", 1.0),
        ("L1", 0.5),
        ("L2", 0.5),
        ("J1", 1.0 / 12.0),
        ("J2", 1.0 / 12.0),
        ("k1", 0.0),
        ("c1", 0.0),
        ("k2", k),
        ("c2", 0.0),
        ("alpha2", 0.0),
    ] {
        p.insert(n.to_string(), v);
    }
    let (_, angles) = build("double-pendulum-rsda", &p).unwrap();
    let (_, body) = build("double-pendulum-stiff", &BTreeMap::new()).unwrap();
    let body_state = |t1: f64, t2: f64, w1: f64, w2: f64| {
        let (s1, c1) = t1.sin_cos();
        let (s2, c2) = t2.sin_cos();
        vec![
            0.5 * c1,
            0.5 * s1,
            t1,
            c1 + 0.5 * c2,
            s1 + 0.5 * s2,
            t2,
            -0.5 * s1 * w1,
            0.5 * c1 * w1,
            w1,
            -s1 * w1 - 0.5 * s2 * w2,
            c1 * w1 + 0.5 * c2 * w2,
            w2,
        ]
    };
    for (t1, t2, w1, w2) in [
        (0.0, 0.0, 0.0, 0.0),
        (-0.7, -0.69, 2.0, -1.0),
        (2.0, 2.1, -3.0, 4.0),
    ] {
        let (mut fa, mut fb) = ([0.0; 4], [0.0; 12]);
        angles.rhs(0.0, &[t1, t2, w1, w2], &mut fa);
        body.rhs(0.0, &body_state(t1, t2, w1, w2), &mut fb);
        for (a, b) in [(fa[2], fb[8]), (fa[3], fb[11])] {
            assert!((a - b).abs() < 1e-9 * (1.0 + a.abs()), "{a} vs {b}");
        }
    }
    let mut sa = spec("double-pendulum-rsda", "rk4", 1e-4, 0.5);
    sa.params = p;
    sa.y0 = Some(vec![0.0, 0.0, 0.0, 0.0]);
    let ya = odelab::solve(&sa).unwrap();
    let yb = odelab::solve(&spec("double-pendulum-stiff", "rk4", 1e-4, 0.5)).unwrap();
    let (ea, eb) = (super::common::last(&ya), super::common::last(&yb));
    eprintln!(
        "t = 0.5: joint angles φ1 = {}, φ2 = {}; body coordinates φ1 = {}, φ2 = {}",
        ea[0], ea[1], eb[2], eb[5]
    );
    assert!((ea[0] - eb[2]).abs() < 1e-9 && (ea[1] - eb[5]).abs() < 1e-9);
}
