//! The slow/fast linear test equation of Gil, Sanfelice & Nikravesh 2013 eq. (50).

use super::common::{final_error, spec};
use nalgebra::Complex;
use odelab::model::{build, catalog, Model};
use std::collections::BTreeMap;

fn with(alpha: f64, beta: f64) -> Box<dyn Model> {
    let mut p = BTreeMap::new();
    p.insert("alpha".to_string(), alpha);
    p.insert("beta".to_string(), beta);
    build("slowfast-linear", &p).unwrap().1
}

/// e^{tA} y0 starts at y0 and satisfies y' = Ay (central differences), on both branches
/// of the closed form (small and large Re d) and at the double eigenvalue α = 1, β = 0.
#[test]
fn slowfast_exact_solution_satisfies_the_ode() {
    for (alpha, beta) in [
        (100.0, 0.1),
        (1.0, 0.0),
        (1.0, 1e-5),
        (10.0, 0.5),
        (1e4, 0.3),
        (0.5, 2.0),
    ] {
        let model = with(alpha, beta);
        let (t0, y0) = (0.2, [1.0, -0.3, 0.7, 0.4]);
        let mut y = [0.0; 4];
        assert!(model.exact(t0, &y0, t0, &mut y));
        for i in 0..4 {
            assert!((y[i] - y0[i]).abs() < 1e-15, "α = {alpha}, β = {beta}");
        }
        let d = 1e-7;
        for t in [0.2005, 0.25, 1.0] {
            let (mut yp, mut ym, mut f) = ([0.0; 4], [0.0; 4], [0.0; 4]);
            model.exact(t0, &y0, t + d, &mut yp);
            model.exact(t0, &y0, t - d, &mut ym);
            model.exact(t0, &y0, t, &mut y);
            model.rhs(t, &y, &mut f);
            for i in 0..4 {
                let fd = (yp[i] - ym[i]) / (2.0 * d);
                assert!(
                    (fd - f[i]).abs() < 1e-5 * (1.0 + f[i].abs()),
                    "α = {alpha}, β = {beta}, t = {t}, i = {i}: {fd} vs {}",
                    f[i]
                );
            }
        }
    }
}

/// The Jacobian's eigenvalues are λs·eig([[1, β], [αβ, α]]): for weak coupling the fast
/// one is ≈ λf = αλs (Gil, Sanfelice & Nikravesh 2013 eq. (51)), and each appears with its conjugate (real form).
#[test]
fn slowfast_eigenvalues_are_slow_and_fast() {
    let model = with(100.0, 0.1);
    let j = model.jacobian(0.0, &[0.0; 4]).unwrap();
    let ev = j.complex_eigenvalues();
    let lambda_s = Complex::new(-1.0, 1.0);
    // Exact: λs (1 + α ± √((1 − α)² + 4αβ²)) / 2.
    let disc: f64 = (1.0f64 - 100.0).powi(2) + 4.0 * 100.0 * 0.01;
    let fast = lambda_s * ((101.0 + disc.sqrt()) / 2.0);
    let slow = lambda_s * ((101.0 - disc.sqrt()) / 2.0);
    for target in [fast, slow, fast.conj(), slow.conj()] {
        assert!(
            ev.iter()
                .any(|e| (e - target).norm() < 1e-9 * target.norm()),
            "{target} not in {ev:?}"
        );
    }
    assert!(
        (fast - lambda_s * 100.0).norm() / 141.0 < 0.02,
        "fast ≈ αλs"
    );
    let info = catalog()
        .into_iter()
        .find(|m| m.id == "slowfast-linear")
        .unwrap();
    assert_eq!(info.fast, vec![2, 3]);
}

/// rk4 inside its stability region converges to the exact solution.
#[test]
fn slowfast_rk4_matches_exact() {
    // |hλf| = 0.01·100·√2 ≈ 1.4 < 2.8.
    let sol = odelab::solve(&spec("slowfast-linear", "rk4", 0.01, 5.0)).unwrap();
    let err = final_error(&sol);
    eprintln!("slowfast-linear rk4 h = 0.01: final error {err:e}");
    assert!(err < 1e-6, "{err}");
}
