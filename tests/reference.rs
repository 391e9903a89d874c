//! Comparing a run with a reference run (Negrut et al. 2003 §3.1, Tables 4 and 6): the cubic spline and
//! the error table.

mod common;
use common::*;
use odelab::reference::{compare, exact_at, CubicSpline, MAX_EXACT_TIMES};
use odelab::spec::{SolveSpec, Tol};

#[test]
fn spline_interpolates_knots_and_lines_exactly_and_smooth_functions_closely() {
    let x: Vec<f64> = (0..=40).map(|i| i as f64 * 0.05).collect();
    let line: Vec<f64> = x.iter().map(|v| 3.0 * v - 1.0).collect();
    let s = CubicSpline::new(&x, &line).unwrap();
    for t in [0.0, 0.013, 0.5, 1.77, 2.0] {
        assert!((s.eval(t) - (3.0 * t - 1.0)).abs() < 1e-14, "{t}");
    }
    let sine: Vec<f64> = x.iter().map(|v| v.sin()).collect();
    let s = CubicSpline::new(&x, &sine).unwrap();
    for (xi, yi) in x.iter().zip(&sine) {
        assert!((s.eval(*xi) - yi).abs() < 1e-15);
    }
    // Away from the natural ends the error is O(h⁴) ≈ 1e-6 here.
    for t in [0.51, 1.02, 1.333] {
        assert!((s.eval(t) - f64::sin(t)).abs() < 2e-6, "{t}");
    }
    assert!(CubicSpline::new(&[0.0], &[1.0]).is_none());
    assert!(CubicSpline::new(&[0.0, 0.0], &[1.0, 2.0]).is_none());
}

/// Against a tight dp45 reference the table reproduces the error the exact solution gives.
#[test]
fn reference_table_matches_the_exact_error() {
    let run = spec("mass-spring-damper", "rk4", 0.01, 2.0);
    let reference = SolveSpec {
        h: None,
        rtol: Some(Tol::Scalar(1e-12)),
        atol: Some(Tol::Scalar(1e-14)),
        ..spec("mass-spring-damper", "dp45", 0.0, 2.0)
    };
    let c = compare(&run, &reference).unwrap();
    assert_eq!(c.table.len(), 2);
    let exact = c.run.exact.as_ref().unwrap();
    for (j, row) in c.table.iter().enumerate() {
        let (mut worst, mut at) = (0.0f64, 0.0);
        for (i, t) in c.run.t.iter().enumerate() {
            let e = (c.run.y[2 * i + j] - exact[2 * i + j]).abs();
            if e > worst {
                worst = e;
                at = *t;
            }
        }
        assert!(
            (row.max_error - worst).abs() < 1e-3 * worst,
            "{row:?} vs {worst}"
        );
        assert!((row.t_max - at).abs() < 0.05, "{row:?} vs t* {at}");
        assert!(row.rms_error < row.max_error && row.rms_error > 0.0);
        assert!(row.relative_error > 0.0);
    }
}

#[test]
fn a_reference_that_does_not_cover_the_run_is_refused() {
    let run = spec("pendulum", "rk4", 0.01, 2.0);
    let short = spec("pendulum", "rk4", 0.001, 1.0);
    let err = match compare(&run, &short) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("should be refused"),
    };
    assert!(err.contains("must cover the run"), "{err}");
}

/// The undamped oscillator x'' = −4x from x = 1 at rest: x = cos 2t, x' = −2 sin 2t.
fn undamped_oscillator() -> SolveSpec {
    let mut s = spec("mass-spring-damper", "rk4", 0.2, 3.0);
    s.params = [("m", 1.0), ("k", 4.0), ("c", 0.0), ("g", 0.0)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    s.y0 = Some(vec![1.0, 0.0]);
    s
}

#[test]
fn exact_solution_on_a_fine_grid_is_the_closed_form_between_the_steps() {
    let s = undamped_oscillator();
    // 1001 times over [0, 3]: five per step of h = 0.2 and more.
    let times: Vec<f64> = (0..=1000).map(|k| 3.0 * k as f64 / 1000.0).collect();
    let exact = exact_at(&s, &times)
        .unwrap()
        .expect("the oscillator knows its exact solution");
    assert_eq!(exact.len(), 2 * times.len());
    for (i, t) in times.iter().enumerate() {
        assert!((exact[2 * i] - (2.0 * t).cos()).abs() < 1e-14, "x at {t}");
        assert!(
            (exact[2 * i + 1] + 2.0 * (2.0 * t).sin()).abs() < 1e-13,
            "x' at {t}"
        );
    }
}

#[test]
fn exact_solution_at_the_step_points_is_the_runs_own_exact_column() {
    let s = undamped_oscillator();
    let run = odelab::solve(&s).unwrap();
    let at_steps = exact_at(&s, &run.t).unwrap().unwrap();
    assert_eq!(Some(at_steps), run.exact);
}

#[test]
fn exact_solution_is_none_for_a_model_without_one_and_checks_its_input() {
    assert_eq!(
        exact_at(&spec("pendulum", "rk4", 0.1, 1.0), &[0.0, 0.5]).unwrap(),
        None
    );
    let mut s = undamped_oscillator();
    assert!(
        exact_at(&s, &[0.0, f64::NAN]).is_err(),
        "a NaN time is refused"
    );
    assert!(
        exact_at(&s, &vec![0.0; MAX_EXACT_TIMES + 1]).is_err(),
        "too many times are refused"
    );
    s.y0 = Some(vec![1.0]);
    assert!(
        exact_at(&s, &[0.0]).is_err(),
        "a y0 of the wrong length is refused"
    );
}

/// Both relative errors of a row: Δ / max|y_ref| (the page's "relative", the state's
/// own scale over the run) and Negrut et al. 2003 §3.1's RelErr, Δ/|E*| with E* the
/// reference at t*, which the paper prints in per cent. On x = cos 2t both are computed
/// here from the exact solution.
#[test]
fn reference_rows_give_the_scale_relative_error_and_the_papers_relerr() {
    let run = undamped_oscillator();
    let reference = SolveSpec {
        h: None,
        rtol: Some(Tol::Scalar(1e-12)),
        atol: Some(Tol::Scalar(1e-14)),
        method: "dp45".into(),
        ..undamped_oscillator()
    };
    let c = compare(&run, &reference).unwrap();
    for (j, row) in c.table.iter().enumerate() {
        let exact = |t: f64| {
            if j == 0 {
                (2.0 * t).cos()
            } else {
                -2.0 * (2.0 * t).sin()
            }
        };
        let scale = [1.0, 2.0][j];
        let e_star = exact(row.t_max).abs();
        eprintln!(
            "{}: Δ = {:e} at t* = {}, Δ/max|y| = {:e}, Δ/|E*| = {:e} (E* = {e_star})",
            row.name, row.max_error, row.t_max, row.relative_error, row.relative_at_max
        );
        // max|y_ref| is over the reference's points, within 1e-3 of the peak.
        assert!((row.relative_error / (row.max_error / scale) - 1.0).abs() < 1e-3);
        assert!((row.relative_at_max / (row.max_error / e_star) - 1.0).abs() < 1e-4);
        assert!(row.relative_at_max >= row.relative_error);
    }
}
