//! `backward-euler` (Schwab & Delhaes, Lecture Notes Multibody Dynamics B, 2009, §7.7):
//! order 1, L-stable damping, Newton counts, Robertson at h = 1, and why Newton fails
//! when it does (divergence, slow contraction, a singular matrix, a non-finite f).

use super::common::*;
use super::stiff_common::*;
use odelab::error::NewtonReason;
use odelab::method::create;
use odelab::stats::Stats;
use odelab::OdeError;

#[test]
fn backward_euler_order_one() {
    let (p, errs) = observed_order("backward-euler", 0.004, 4, 1.0);
    println!("backward-euler order {p}, errors {errs:?}");
    assert!((p - 1.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// R(z) = 1/(1 − z): one step of y' = λy with hλ = −1e6 damps to 1/(1 + 1e6).
#[test]
fn backward_euler_damps_stiff_decay() {
    let sys = Rotation { a: -1e6, b: 0.0 };
    let mut s = create("backward-euler", 2).unwrap();
    let mut y1 = [0.0; 2];
    let mut stats = Stats::default();
    s.step(&sys, 0.0, &[1.0, 0.0], 1.0, &mut y1, &mut stats)
        .unwrap();
    assert!((y1[0] - 1.0 / (1.0 + 1e6)).abs() < 1e-15, "{y1:?}");
    // A linear problem: Newton converges in one correction, confirmed by a second.
    assert_eq!((stats.njev, stats.nlu, stats.nnewton), (1, 1, 2));
}

/// I − hJ singular (hλ = 1 on y' = λy): a typed Newton failure at the step's t and h
/// that says the matrix is singular.
#[test]
fn singular_newton_matrix_is_a_newton_failure_that_says_singular() {
    let sys = Rotation { a: 2.0, b: 0.0 };
    let mut s = create("backward-euler", 2).unwrap();
    let mut y1 = [0.0; 2];
    let err = s
        .step(&sys, 0.25, &[1.0, 0.0], 0.5, &mut y1, &mut Stats::default())
        .unwrap_err();
    match &err {
        OdeError::NewtonFailed {
            t,
            h,
            iterations: 0,
            reason: NewtonReason::Singular { what },
        } => {
            assert_eq!((*t, *h), (0.25, 0.5));
            assert_eq!(what, "I − hJ of the backward Euler Newton iteration");
        }
        other => panic!("expected a singular Newton matrix, got {other:?}"),
    }
    assert!(
        err.to_string()
            .contains("singular at t = 0.25 with h = 0.5"),
        "{err}"
    );
}

/// Van der Pol μ = 1000 at h = 1 stays bounded (Newton converges at every step).
#[test]
fn backward_euler_on_stiff_van_der_pol() {
    let mut s = spec("van-der-pol", "backward-euler", 1.0, 100.0);
    s.params.insert("mu".into(), 1000.0);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.stopped_by.is_none(), "{:?}", sol.warning);
    assert!(last(&sol)[0].abs() < 2.1);
}

/// x' = x² from x = 1 with h = 1: y = 1 + y² has no real solution, so Newton cannot
/// converge, and it does not contract even with J evaluated at its iterates: `solve`
/// stops with the typed error at t = 0, h = 1, reason divergence (θ ≥ 1).
#[test]
fn newton_without_a_root_reports_divergence() {
    let spec = odelab::spec::SolveSpec {
        system: Some("x' = x*x\nx(0) = 1".into()),
        method: "backward-euler".into(),
        h: Some(1.0),
        t1: Some(2.0),
        ..Default::default()
    };
    let sol = odelab::solve(&spec).unwrap();
    println!("{:?} {:?}", sol.stopped_by, sol.stats);
    match sol.stopped_by {
        Some(OdeError::NewtonFailed {
            t,
            h,
            iterations,
            reason: NewtonReason::Diverged { theta },
        }) => {
            assert_eq!((t, h), (0.0, 1.0));
            assert!(theta >= 1.0, "θ = {theta}");
            // Well before the iteration limit: a diverging iteration is not run to it.
            assert!(
                iterations < odelab::method::newton::MAX_ITERATIONS,
                "{iterations}"
            );
        }
        other => panic!("expected divergence, got {other:?}"),
    }
    let warning = sol.warning.unwrap();
    assert!(
        warning.contains("diverges at t = 0 with h = 1") && warning.contains("smaller h"),
        "{warning}"
    );
}

/// x' = −100(x − 1000) from x = 1001 at h = 1 with J scaled by 20 (`jacobianScale`):
/// the simplified iteration contracts by θ = 1 − 101/2001 ≈ 0.9495 per correction (the
/// state, near 1000, keeps the scale of the norm nearly fixed), and a refreshed J is
/// the same scaled one, so it cannot reach 1e-10 in the iteration limit: slow
/// contraction.
#[test]
fn newton_that_contracts_too_slowly_reports_slow_contraction() {
    let spec = odelab::spec::SolveSpec {
        system: Some("x' = -100*(x - 1000)\nx(0) = 1001".into()),
        method: "backward-euler".into(),
        h: Some(1.0),
        t1: Some(2.0),
        jacobian_scale: Some(20.0),
        ..Default::default()
    };
    let sol = odelab::solve(&spec).unwrap();
    match sol.stopped_by {
        Some(OdeError::NewtonFailed {
            iterations,
            reason: NewtonReason::SlowContraction { theta },
            ..
        }) => {
            assert_eq!(iterations, odelab::method::newton::MAX_ITERATIONS);
            assert!((theta - (1.0 - 101.0 / 2001.0)).abs() < 1e-4, "θ = {theta}");
        }
        other => panic!("expected slow contraction, got {other:?}"),
    }
    let warning = sol.warning.unwrap();
    assert!(warning.contains("contracts too slowly"), "{warning}");
}

/// A right-hand side that is not finite at an iterate (here x' = 1/x at x = 0, the
/// predictor) is named by its equation, rather than by the singular matrix its
/// infinite Jacobian would make.
#[test]
fn newton_on_a_non_finite_f_names_the_equation() {
    let spec = odelab::spec::SolveSpec {
        system: Some("y' = 1\nx' = 1/x\ny(0) = 1\nx(0) = 0".into()),
        method: "backward-euler".into(),
        h: Some(0.1),
        t1: Some(1.0),
        ..Default::default()
    };
    let sol = odelab::solve(&spec).unwrap();
    assert!(
        matches!(
            sol.stopped_by,
            Some(OdeError::NewtonFailed {
                reason: NewtonReason::NotFinite { component: 1 },
                ..
            })
        ),
        "{:?}",
        sol.stopped_by
    );
    let warning = sol.warning.unwrap();
    assert!(warning.contains("equation x'"), "{warning}");
}

/// y1, y2, y3 of Robertson's kinetics (the `robertson` model, k = 0.04, 1e4, 3e7).
fn robertson_f(y: [f64; 3]) -> [f64; 3] {
    let (a, b) = (0.04 * y[0], 1e4 * y[1] * y[2]);
    let c = 3e7 * y[1] * y[1];
    [-a + b, a - b - c, c]
}

/// Backward Euler on Robertson computed independently of the library: full Newton
/// (J at every iterate, Gaussian elimination with partial pivoting), iterated until the
/// correction is exactly zero or stops shrinking.
fn robertson_backward_euler(h: f64, steps: usize) -> [f64; 3] {
    let mut y = [1.0, 0.0, 0.0];
    for _ in 0..steps {
        let mut z = y;
        let mut last = f64::INFINITY;
        for _ in 0..200 {
            let f = robertson_f(z);
            let j = [
                [-0.04, 1e4 * z[2], 1e4 * z[1]],
                [0.04, -1e4 * z[2] - 6e7 * z[1], -1e4 * z[1]],
                [0.0, 6e7 * z[1], 0.0],
            ];
            let mut m = [[0.0; 4]; 3];
            for i in 0..3 {
                for k in 0..3 {
                    m[i][k] = if i == k { 1.0 } else { 0.0 } - h * j[i][k];
                }
                m[i][3] = -(z[i] - y[i] - h * f[i]);
            }
            for col in 0..3 {
                let p = (col..3)
                    .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
                    .unwrap();
                m.swap(col, p);
                for r in col + 1..3 {
                    let factor = m[r][col] / m[col][col];
                    let pivot = m[col];
                    for (v, p) in m[r][col..].iter_mut().zip(&pivot[col..]) {
                        *v -= factor * p;
                    }
                }
            }
            let mut d = [0.0; 3];
            for i in (0..3).rev() {
                let s: f64 = (i + 1..3).map(|c| m[i][c] * d[c]).sum();
                d[i] = (m[i][3] - s) / m[i][i];
            }
            let size = d.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for i in 0..3 {
                z[i] += d[i];
            }
            if size == 0.0 || (size < 1e-14 && size >= last) {
                break;
            }
            last = size;
        }
        y = z;
    }
    y
}

/// Robertson at t = 40 by radau5 at rtol 1e-10 (its global error is far below the
/// differences measured against it).
fn robertson_reference() -> Vec<f64> {
    let s = adaptive("robertson", "radau5", 1e-10, 1e-14, 40.0);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.stopped_by.is_none());
    last(&sol).to_vec()
}

/// Backward Euler is L-stable: on Robertson it takes h = 1 from the start (where J has
/// no y₂ terms, so the first simplified Newton corrections overshoot and J is refreshed
/// at the iterates) to t = 40. Its Newton answer is the backward Euler solution (an
/// independent full-Newton computation) to 1e-9, far below the method's own error,
/// which is first order: 4.7e-3 relative in y1 at h = 1 against radau5, 4.9e-4 at
/// h = 0.1 (below 1e-3).
#[test]
fn backward_euler_takes_h_one_on_robertson_to_forty() {
    let reference = robertson_reference();
    let mut errors = vec![];
    for (h, steps) in [(1.0, 40), (0.1, 400)] {
        let sol = run("robertson", "backward-euler", h, 40.0);
        assert!(sol.stopped_by.is_none(), "h = {h}: {:?}", sol.warning);
        assert_eq!(*sol.t.last().unwrap(), 40.0);
        let y = last(&sol);
        let independent = robertson_backward_euler(h, steps);
        // Within 1e-7 relative, or 1e-11 absolute for y2 ~ 1e-5 (Newton's per-step
        // tolerance ATOL + RTOL |y| summed over the 400 steps of h = 0.1).
        for i in 0..3 {
            let off = (y[i] - independent[i]).abs();
            assert!(
                off < 1e-7 * independent[i].abs() + 1e-11,
                "h = {h}, y{}: {} vs {}",
                i + 1,
                y[i],
                independent[i]
            );
        }
        let error = (y[0] - reference[0]).abs() / reference[0];
        println!(
            "backward Euler h = {h}: y1 = {}, relative error {error:e}, {:?}",
            y[0], sol.stats
        );
        errors.push(error);
    }
    assert!((4.6e-3..4.8e-3).contains(&errors[0]), "{errors:?}");
    assert!(errors[1] < 1e-3, "{errors:?}");
    // First order: ten times smaller h, about ten times smaller error.
    let ratio = errors[0] / errors[1];
    assert!((9.0..11.0).contains(&ratio), "{errors:?}");
}

/// BDF2 takes h = 1 on Robertson to t = 40 too, with a relative error in y1 of 1.0e-4
/// against radau5.
#[test]
fn bdf2_takes_h_one_on_robertson_to_forty() {
    let reference = robertson_reference();
    let sol = run("robertson", "bdf2", 1.0, 40.0);
    assert!(sol.stopped_by.is_none(), "{:?}", sol.warning);
    assert_eq!(*sol.t.last().unwrap(), 40.0);
    let y = last(&sol);
    let error = (y[0] - reference[0]).abs() / reference[0];
    println!(
        "bdf2 h = 1: y = {y:?}, relative error in y1 {error:e}, {:?}",
        sol.stats
    );
    assert!(error < 1e-3 && error > 5e-5, "{error:e}");
}
