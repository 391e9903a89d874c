//! The mass–spring–damper of Schwab & Delhaes eq. (7.7) and its closed-form solution.

use odelab::model::build;
use std::collections::BTreeMap;

fn with(c: f64) -> Box<dyn odelab::model::Model> {
    let mut p = BTreeMap::new();
    p.insert("c".to_string(), c);
    build("mass-spring-damper", &p).unwrap().1
}

/// The exact solution starts at y0 and satisfies y' = f(t, y) (checked by central
/// differences) for under-, critically (c = 2√(mk) = 20) and over-damped springs.
#[test]
fn exact_solution_satisfies_the_ode_for_every_damping() {
    for c in [0.0, 0.5, 19.0, 20.0, 21.0, 300.0, 1000.0] {
        let model = with(c);
        let (t0, y0) = (0.3, [0.05, -1.2]);
        let mut y = [0.0; 2];
        assert!(model.exact(t0, &y0, t0, &mut y));
        assert!((y[0] - y0[0]).abs() < 1e-15 && (y[1] - y0[1]).abs() < 1e-15);
        for t in [0.31, 0.5, 1.7] {
            let d = 1e-6;
            let (mut yp, mut ym, mut f) = ([0.0; 2], [0.0; 2], [0.0; 2]);
            model.exact(t0, &y0, t + d, &mut yp);
            model.exact(t0, &y0, t - d, &mut ym);
            model.exact(t0, &y0, t, &mut y);
            model.rhs(t, &y, &mut f);
            for i in 0..2 {
                let fd = (yp[i] - ym[i]) / (2.0 * d);
                assert!(
                    (fd - f[i]).abs() < 1e-6 * (1.0 + f[i].abs()),
                    "c = {c}, t = {t}"
                );
            }
        }
    }
}

/// Starting from rest the mass settles at the static deflection m g / k = 0.0981.
#[test]
fn settles_at_static_deflection() {
    let model = with(0.5);
    let mut y = [0.0; 2];
    model.exact(0.0, &[0.0, 0.0], 200.0, &mut y);
    assert!((y[0] - 0.0981).abs() < 1e-12, "{y:?}");
}

/// Energy (kinetic + spring − gravity) is conserved without damping.
#[test]
fn energy_is_conserved_without_damping() {
    let model = with(0.0);
    let y0 = [0.0, 0.0];
    let mut e0 = [0.0];
    model.outputs(0.0, &y0, &mut e0);
    for t in [0.1, 1.0, 3.3] {
        let (mut y, mut e) = ([0.0; 2], [0.0]);
        model.exact(0.0, &y0, t, &mut y);
        model.outputs(t, &y, &mut e);
        assert!((e[0] - e0[0]).abs() < 1e-12, "t = {t}");
    }
}

/// A stiff damper (c = 1000: λ = −0.1 and −999.9) keeps a finite exact solution over a
/// long run: e^{−aτ} cosh(sτ) would be 0·∞ past τ ≈ 1.4. At τ = 20 the fast mode is
/// gone and x − m g/k is the slow mode alone, A e^{λ_slow τ}, with A from y0.
#[test]
fn over_damped_exact_solution_stays_finite_for_a_stiff_damper() {
    let model = with(1000.0);
    let mut y = [0.0; 2];
    assert!(model.exact(0.0, &[0.0, 0.0], 20.0, &mut y));
    let (a, s) = (500.0f64, (500.0f64 * 500.0 - 100.0).sqrt());
    let (slow, fast) = (-a + s, -a - s);
    // From rest at x = 0: x − x_eq = A e^{slow τ} + B e^{fast τ}, A + B = −x_eq,
    // slow·A + fast·B = 0.
    let x_eq = 0.0981;
    let big_a = -x_eq * fast / (fast - slow);
    let want = x_eq + big_a * (slow * 20.0).exp();
    eprintln!("c = 1000: x(20) = {}, slow mode alone {want}", y[0]);
    assert!(y[0].is_finite() && y[1].is_finite());
    assert!((y[0] - want).abs() < 1e-12, "{} vs {want}", y[0]);
}
