//! Comparing a run with a reference run (001 §3.1, Tables 4 and 6): the cubic spline and
//! the error table (issue 6).

mod common;
use common::*;
use odelab::reference::{compare, CubicSpline};
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
fn issue_6_reference_table_matches_the_exact_error() {
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
