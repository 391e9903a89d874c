//! Global error vs h on the mass–spring–damper (exact solution): slopes, the round-off
//! floor, Richardson (Schwab & Delhaes eq. 7.9) and Dₙ ratios (Schwab & Delhaes §7.6).

use odelab::convergence::{convergence, ConvergenceSpec};

fn spec(methods: &[&str], n_min: u32, n_max: u32) -> ConvergenceSpec {
    ConvergenceSpec {
        model: "mass-spring-damper".into(),
        // Damping ratio 0.25 (eigenvalues −2.5 ± 9.7i): Euler is stable for h < 0.05, so
        // its asymptotic range is reached within the sweep.
        params: [("c".to_string(), 5.0)].into_iter().collect(),
        methods: methods.iter().map(|s| s.to_string()).collect(),
        n_min: Some(n_min),
        n_max: Some(n_max),
        tols: Some(vec![]),
        local_h: Some(vec![0.01, 0.005]),
        ..Default::default()
    }
}

#[test]
fn euler_slope_one_and_rk4_slope_four() {
    let r = convergence(&spec(&["euler", "heun", "rk4"], 6, 16)).unwrap();
    assert_eq!(r.reference, "exact");
    for (series, p) in r.global.iter().zip([1.0, 2.0, 4.0]) {
        println!(
            "{}: slope {:.4} over h[{}..={}], floor {:?}",
            series.method, series.fit.slope, series.fit.from, series.fit.to, series.fit.floor
        );
        assert!(
            (series.fit.slope - p).abs() < 0.1,
            "{}: {:?}",
            series.method,
            series.fit
        );
    }
}

#[test]
fn rk4_hits_the_round_off_floor() {
    let r = convergence(&spec(&["rk4"], 8, 20)).unwrap();
    let s = &r.global[0];
    for (h, e) in s.h.iter().zip(&s.error) {
        println!("h {h:.3e}  error {e:.3e}");
    }
    let floor = s.fit.floor.expect("the error stops decreasing at small h");
    // Past the floor the error grows again (round-off ~ C2/h, Schwab & Delhaes §7.5).
    let last = *s.error.last().unwrap();
    assert!(last > s.error[floor], "{last} vs {}", s.error[floor]);
    assert!(s.error[floor] < 1e-11, "{}", s.error[floor]);
    // The fit stays in the truncation regime.
    assert!(
        s.fit.to <= floor && (s.fit.slope - 4.0).abs() < 0.15,
        "{:?}",
        s.fit
    );
}

#[test]
fn richardson_tracks_the_true_error_and_d_ratios_tend_to_two_to_the_p() {
    let r = convergence(&spec(&["euler", "heun", "rk4"], 6, 16)).unwrap();
    for s in &r.global {
        let p = s.order as i32;
        // In the asymptotic range (from the fit), estimate / true error ≈ 1 and the
        // ratio of successive D's ≈ 2^p.
        let i = (s.fit.from + s.fit.to).div_ceil(2);
        let ratio = s.richardson[i] / s.error[i];
        println!(
            "{}: Richardson/true {ratio:.4}, D ratio {:.4}",
            s.method, s.d_ratio[i]
        );
        assert!((ratio - 1.0).abs() < 0.1, "{}: {ratio}", s.method);
        let want = 2f64.powi(p);
        assert!(
            (s.d_ratio[i] / want - 1.0).abs() < 0.1,
            "{}: {}",
            s.method,
            s.d_ratio[i]
        );
    }
}

#[test]
fn work_precision_of_an_adaptive_method() {
    let mut sp = spec(&["dp45"], 4, 6);
    sp.tols = Some(vec![1e-3, 1e-6, 1e-9]);
    let r = convergence(&sp).unwrap();
    let w = &r.work_precision[0];
    assert_eq!(w.tol.len(), 3);
    // Tighter tolerance: more work, less error.
    assert!(
        w.nfev[0] < w.nfev[1] && w.nfev[1] < w.nfev[2],
        "{:?}",
        w.nfev
    );
    assert!(w.error[0] > w.error[2], "{:?}", w.error);
}

/// The convergence lab runs radau5 like any catalogue method: its fitted global slope
/// is its order 5 (on the fixed grid, before the round-off floor).
#[test]
fn radau5_global_slope_is_five_in_the_convergence_lab() {
    let r = convergence(&spec(&["radau5"], 4, 9)).unwrap();
    let s = &r.global[0];
    println!("radau5: {:?}, errors {:?}", s.fit, s.error);
    assert!((s.fit.slope - 5.0).abs() < 0.15, "{:?}", s.fit);
}

/// Negrut et al. 2003: a W-method (w2, Table 3) keeps its order with any matrix in
/// place of ∂f/∂y; the Rosenbrock method ros4 (Table 1) needs the exact one. Handed half
/// the Jacobian, the lab's fitted slopes show it: ros4 ≈ 1, w2 ≈ 2; with the exact one
/// ros4 is back at 4.
#[test]
fn a_scaled_jacobian_drops_ros4_to_slope_one_and_leaves_w2_at_two() {
    let half = convergence(&ConvergenceSpec {
        jacobian_scale: Some(0.5),
        ..spec(&["ros4", "w2"], 10, 15)
    })
    .unwrap();
    let exact = convergence(&spec(&["ros4"], 8, 11)).unwrap();
    for (series, p) in half.global.iter().chain(&exact.global).zip([1.0, 2.0, 4.0]) {
        println!("{}: slope {:.3}", series.method, series.fit.slope);
        assert!(
            (series.fit.slope - p).abs() < 0.15,
            "{}: {:?}",
            series.method,
            series.fit
        );
    }
    // A frozen Jacobian is refused like a run's bad value.
    let err = convergence(&ConvergenceSpec {
        jacobian_update: Some(0),
        ..spec(&["ros4"], 8, 10)
    })
    .unwrap_err();
    assert!(err.to_string().contains("jacobianUpdate"), "{err}");
}
