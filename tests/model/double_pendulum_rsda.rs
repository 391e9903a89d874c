//! The double pendulum with RSDAs of Negrut et al. 2003 §3.1.

use super::common::{last, spec};
use odelab::model::build;
use std::collections::BTreeMap;
use std::f64::consts::PI;

/// The default state reproduces the paper's printed initial data for body 2 (CM at
/// (3.4488887, −0.388228), velocity (3.8822857, 14.4888887)), see the Sources panel's errata. The
/// printed ẏ2 differs from 15 cos(23π/12) = 14.48888739 by 1.3e-6 (its last digits),
/// hence the tolerance 2e-6.
#[test]
fn rsda_initial_conditions_reproduce_the_seed() {
    let (info, model) = build("double-pendulum-rsda", &BTreeMap::new()).unwrap();
    let mut out = [0.0; 5];
    model.outputs(0.0, &info.y0, &mut out);
    let printed = [3.4488887, -0.388228, 3.8822857, 14.4888887];
    for i in 0..4 {
        assert!((out[i + 1] - printed[i]).abs() < 2e-6, "{out:?}");
    }
    // Body 1 is horizontal: its CM at (L1 cos θ1, L1 sin θ1) = (1, 0).
    assert!((info.y0[0].cos() - 1.0).abs() < 1e-15 && info.y0[0].sin().abs() < 1e-15);
    // The spring deflections the paper's behaviour implies: +π/2 and −π/12.
    assert!((info.y0[0] - 1.5 * PI - PI / 2.0).abs() < 1e-15);
    assert!((info.y0[1] - info.y0[0] + PI / 12.0).abs() < 1e-14);
}

/// At the initial state the dominant eigenvalue is real, of order −1e5 (Negrut et al. 2003 §3.1: "a
/// real part of the order −10E5"), with a small imaginary part.
#[test]
fn rsda_dominant_eigenvalue() {
    let (info, model) = build("double-pendulum-rsda", &BTreeMap::new()).unwrap();
    let ev = model.jacobian(0.0, &info.y0).unwrap().complex_eigenvalues();
    let dominant = ev
        .iter()
        .max_by(|a, b| a.norm().total_cmp(&b.norm()))
        .unwrap();
    eprintln!("double-pendulum-rsda eigenvalues at y0: {ev:?}");
    assert!(dominant.re < -5e4 && dominant.re > -5e5, "{dominant}");
    assert!(dominant.im.abs() < 1e-3 * dominant.re.abs(), "{dominant}");
}

/// Without damping, rk4 conserves the energy (kinetic + gravity + springs); with the
/// seed's damping the energy only decreases and body 1 swings down towards 3π/2.
#[test]
fn rsda_energy() {
    let mut s = spec("double-pendulum-rsda", "rk4", 2e-5, 0.5);
    s.params.insert("c1".into(), 0.0);
    s.params.insert("c2".into(), 0.0);
    let sol = odelab::solve(&s).unwrap();
    let e = &sol.outputs[0].1;
    let drift = e.iter().map(|v| (v - e[0]).abs()).fold(0.0, f64::max);
    eprintln!(
        "rsda undamped rk4 h = 2e-5, t ≤ 0.5: E0 = {}, max |E − E0| = {drift:e}",
        e[0]
    );
    assert!(drift < 1e-7 * e[0].abs(), "{drift}");

    let sol = odelab::solve(&spec("double-pendulum-rsda", "rk4", 1e-5, 2.0)).unwrap();
    assert!(sol.warning.is_none());
    let e = &sol.outputs[0].1;
    let rise = e.windows(2).map(|w| w[1] - w[0]).fold(f64::MIN, f64::max);
    let y = last(&sol);
    let th1: Vec<f64> = sol.y.chunks(4).map(|c| c[0]).collect();
    let (lo, hi) = th1
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    let w1: Vec<f64> = sol.y.chunks(4).map(|c| c[2]).collect();
    let (wlo, whi) = w1
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    eprintln!(
        "rsda damped rk4 h = 1e-5: E {} → {}, largest one-step rise {rise:e}, θ1(2) = {}, θ1 ∈ [{lo}, {hi}], θ̇1 ∈ [{wlo}, {whi}]",
        e[0],
        e[e.len() - 1],
        y[0]
    );
    assert!(rise < 1e-9 * e[0].abs(), "{rise}");
    // The paper (Fig. 2): θ1 between about 4 and 6, settling at 3π/2; θ̇1 between −10 and 7.
    assert!(lo > 3.5 && hi < 6.4, "θ1 ∈ [{lo}, {hi}]");
    assert!((y[0] - 1.5 * PI).abs() < 0.15, "θ1(2) = {}", y[0]);
    assert!(wlo > -12.0 && whi < 9.0, "θ̇1 ∈ [{wlo}, {whi}]");
}
