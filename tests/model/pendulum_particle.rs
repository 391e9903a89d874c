//! The pendulum-plus-particle of Gil, Sanfelice & Nikravesh 2013 Fig. 6 (with the the Sources panel's errata corrections).

use super::common::spec;
use odelab::model::{build, catalog};
use std::collections::BTreeMap;

/// The fast eigenvalue is ±i√(k/m2) ≈ ±707.1i (the Sources panel's errata), not (k/m2)i = 5e5i.
#[test]
fn pendulum_particle_fast_eigenvalue() {
    let (info, model) = build("pendulum-particle", &BTreeMap::new()).unwrap();
    let j = model.jacobian(0.0, &info.y0).unwrap();
    let ev = j.complex_eigenvalues();
    let fast = ev.iter().map(|e| e.im.abs()).fold(0.0, f64::max);
    let expected = (5.0f64 / 1e-5).sqrt();
    eprintln!("pendulum-particle eigenvalues at y0: {ev:?}");
    assert!(
        (fast - expected).abs() < 1e-3 * expected,
        "{fast} vs {expected}"
    );
    assert!(ev.iter().all(|e| e.re.abs() < 1e-6 * expected), "{ev:?}");
    assert!((fast - 707.1).abs() < 0.1);
    assert_eq!(info.fast, vec![2, 3, 4, 5]);
}

/// rk4 conserves eq. (68)'s energy at a step inside its stability interval
/// (h·707 = 0.71), and blows up at the paper's h = 0.005 (hλ = 3.54i > 2.83i).
#[test]
fn pendulum_particle_energy_and_rk4_blow_up() {
    let sol = odelab::solve(&spec("pendulum-particle", "rk4", 1e-3, 2.0)).unwrap();
    assert!(sol.warning.is_none());
    let e = &sol.outputs[0].1;
    let drift = e.iter().map(|v| (v - e[0]).abs()).fold(0.0, f64::max);
    eprintln!(
        "pendulum-particle rk4 h = 1e-3, t ≤ 2: E0 = {}, max |E − E0| = {drift:e}",
        e[0]
    );
    assert!(drift < 1e-6 * e[0].abs(), "{drift}");
    let sol = odelab::solve(&spec("pendulum-particle", "rk4", 0.005, 10.0)).unwrap();
    let w = sol.warning.expect("rk4 at h = 0.005 blows up");
    eprintln!(
        "pendulum-particle rk4 h = 0.005: {w} (t = {})",
        sol.t.last().unwrap()
    );
}

/// The default state puts the particle at the bar's tip, at rest, for the chosen L and
/// θ0; the catalogue's y0 is that state for the default parameters.
#[test]
fn pendulum_particle_default_state_follows_the_parameters() {
    let info = catalog()
        .into_iter()
        .find(|m| m.id == "pendulum-particle")
        .unwrap();
    let (_, model) = build("pendulum-particle", &BTreeMap::new()).unwrap();
    assert_eq!(model.default_y0().unwrap(), info.y0);
    let mut p = BTreeMap::new();
    p.insert("L".to_string(), 2.0);
    p.insert("theta0".to_string(), 0.5);
    let (_, model) = build("pendulum-particle", &p).unwrap();
    let y = model.default_y0().unwrap();
    assert!((y[2] - 2.0 * 0.5f64.sin()).abs() < 1e-15 && (y[3] + 2.0 * 0.5f64.cos()).abs() < 1e-15);
    // At rest at the tip only gravity acts on the particle: ẏ2' = −g.
    let mut f = [0.0; 6];
    model.rhs(0.0, &y, &mut f);
    assert!(f[4].abs() < 1e-9 && (f[5] + 9.81).abs() < 1e-9, "{f:?}");
    p.insert("m2".to_string(), 0.0);
    assert!(matches!(
        build("pendulum-particle", &p),
        Err(odelab::OdeError::BadParam { .. })
    ));
}

/// The hinge elimination agrees with the paper's own body-coordinate equations (63)–(64):
/// solving [[M, −Dᵀ], [D, 0]] (q̈, λ) = (f, γ) for the bar with the paper's s and D (and
/// γ = −Ḋq̇) gives the same θ̈, and the particle's r̈2 is eq. (66) with the corrected
/// gravity sign (the Sources panel's errata).
#[test]
fn pendulum_particle_matches_the_body_coordinate_equations() {
    use nalgebra::{DMatrix, DVector};
    let (_, model) = build("pendulum-particle", &BTreeMap::new()).unwrap();
    let (m1, j1, l, m2, k, g) = (100.0, 100.0, 1.0, 1e-5, 5.0, 9.81);
    for y in [
        [0.3f64, 0.5, 0.31, -0.95, 0.2, -0.1],
        [-1.2, -2.0, -0.9, -0.4, 0.0, 0.3],
    ] {
        let (th, w) = (y[0], y[1]);
        let s = [0.5 * l * th.sin(), -0.5 * l * th.cos()];
        let fs = [k * (y[2] - 2.0 * s[0]), k * (y[3] - 2.0 * s[1])];
        let n1 = s[0] * fs[1] - s[1] * fs[0]; // s × fs
        #[rustfmt::skip]
        let kk = DMatrix::from_row_slice(5, 5, &[
            m1, 0.0, 0.0, -1.0, 0.0,
            0.0, m1, 0.0, 0.0, -1.0,
            0.0, 0.0, j1, 0.5 * l * th.cos(), 0.5 * l * th.sin(),
            1.0, 0.0, -0.5 * l * th.cos(), 0.0, 0.0,
            0.0, 1.0, -0.5 * l * th.sin(), 0.0, 0.0,
        ]);
        // Φ = r1 − s: Φ̈ = r̈1 − s̈ = 0 with s̈ = s_θ θ̈ + s_θθ θ̇², s_θθ = −s: γ = −s θ̇².
        let rhs =
            DVector::from_row_slice(&[fs[0], -m1 * g + fs[1], n1, -s[0] * w * w, -s[1] * w * w]);
        let x = kk.lu().solve(&rhs).unwrap();
        let mut f = [0.0; 6];
        model.rhs(0.0, &y, &mut f);
        assert!(
            (f[1] - x[2]).abs() < 1e-12 * (1.0 + x[2].abs()),
            "{} vs {}",
            f[1],
            x[2]
        );
        assert!((f[4] - (-fs[0] / m2)).abs() < 1e-9 * (1.0 + f[4].abs()));
        assert!((f[5] - (-fs[1] / m2 - g)).abs() < 1e-9 * (1.0 + f[5].abs()));
    }
}
