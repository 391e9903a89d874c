//! Where the stiff methods get ∂f/∂y and ∂f/∂t: analytic, finite differences on
//! request, typed refusals; frozen and scaled Jacobians are counted honestly.

#[path = "common/mod.rs"]
mod common;

use common::*;
use nalgebra::{DMatrix, DVector};
use odelab::jacobian::{dfdt, jacobian, JacobianOptions, JacobianProvider, JacobianSource};
use odelab::method::{create, create_with, MethodOptions};
use odelab::problem::System;
use odelab::stats::Stats;
use odelab::OdeError;

/// y' = −2ty² without derivatives.
struct NoJac;

impl System for NoJac {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -2.0 * t * y[0] * y[0];
    }
}

#[test]
fn finite_differences_agree_with_analytic() {
    let (_, model) = odelab::model::build("van-der-pol", &Default::default()).unwrap();
    let y = [1.5, -0.3];
    let mut stats = Stats::default();
    let exact: DMatrix<f64> = jacobian(
        model.as_ref(),
        JacobianSource::Analytic,
        "ros4",
        0.0,
        &y,
        &mut stats,
    )
    .unwrap();
    let fd = jacobian(
        model.as_ref(),
        JacobianSource::FiniteDifference,
        "ros4",
        0.0,
        &y,
        &mut stats,
    )
    .unwrap();
    let rel = (&fd - &exact).amax() / exact.amax();
    assert!(rel < 1e-7, "relative difference {rel:e}");
    // One analytic and one FD Jacobian; FD cost n + 1 = 3 f evaluations.
    assert_eq!((stats.njev, stats.nfev), (2, 3));
    let ft: DVector<f64> = dfdt(
        &NoJac,
        JacobianSource::FiniteDifference,
        "ros4",
        0.5,
        &[0.8],
        &mut stats,
    )
    .unwrap();
    assert!((ft[0] - (-2.0 * 0.64)).abs() < 1e-7, "{ft}");
}

/// A model without derivatives is refused unless finite differences were requested.
#[test]
fn missing_jacobian_is_a_typed_error_unless_fd_requested() {
    for id in ["ros4", "w2", "llm", "backward-euler", "bdf2"] {
        let mut s = create(id, 1).unwrap();
        let mut y1 = [0.0];
        let err = s
            .step(&NoJac, 0.5, &[0.8], 0.1, &mut y1, &mut Stats::default())
            .unwrap_err();
        assert!(matches!(err, OdeError::NoJacobian { .. }), "{id}: {err:?}");
        assert!(err.to_string().contains("jacobian: \"fd\""), "{err}");
    }
    let fd = MethodOptions {
        jacobian: JacobianOptions {
            source: JacobianSource::FiniteDifference,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut s = create_with("ros4", 1, &fd).unwrap();
    let mut y1 = [0.0];
    s.step(&NoJac, 0.5, &[0.8], 0.1, &mut y1, &mut Stats::default())
        .unwrap();
    // The golden value of the Sources panel's errata, to finite-difference accuracy.
    assert!((y1[0] - 0.7352912959643092).abs() < 1e-8, "{}", y1[0]);
}

#[test]
fn jacobian_spec_fields_are_checked() {
    let mut s = spec("van-der-pol", "ros4", 0.01, 1.0);
    s.jacobian = Some("ad".into());
    assert!(run_err(&s).to_string().contains("unknown jacobian \"ad\""));
    s.jacobian = None;
    s.jacobian_update = Some(0);
    assert!(run_err(&s).to_string().contains("jacobianUpdate"));
    s.jacobian_update = None;
    s.jacobian_scale = Some(f64::NAN);
    assert!(run_err(&s).to_string().contains("jacobianScale"));
}

/// `jacobian: "fd"` through the whole driver gives nearly the analytic run.
#[test]
fn fd_run_matches_analytic_run() {
    let mut s = adaptive("van-der-pol", "ros4", 1e-6, 1e-8, 1.0);
    s.params.insert("mu".into(), 10.0);
    let analytic = odelab::solve(&s).unwrap();
    s.jacobian = Some("fd".into());
    let fd = odelab::solve(&s).unwrap();
    let diff = (last(&analytic)[0] - last(&fd)[0]).abs();
    assert!(diff < 1e-6, "{diff:e}");
    assert_eq!(analytic.stats.naccept, fd.stats.naccept);
    // FD Jacobians cost 3 f each (n + 1 with n = 2); ∂f/∂t 2 more per Jacobian.
    assert_eq!(fd.stats.nfev, analytic.stats.nfev + 5 * fd.stats.njev);
}

/// Frozen for k steps: one evaluation per k accepted steps on a fixed grid.
#[test]
fn frozen_jacobian_is_evaluated_every_k_steps() {
    let mut s = fixed("van-der-pol", "w2", 0.01, 1.0);
    s.jacobian_update = Some(10);
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.njev, 10);
    assert_eq!(sol.stats.nlu, 100);
}

/// The JS contract: new spec fields read in camelCase, new Stats and
/// MethodInfo fields written in camelCase (additions only).
#[test]
fn js_field_names() {
    let spec: odelab::spec::SolveSpec = serde_json::from_str(
        r#"{"model": "slowfast-linear", "method": "slowfast", "h": 0.01, "t1": 0.1,
            "jacobian": "fd", "jacobianUpdate": 2, "jacobianScale": 1, "fast": [2, 3]}"#,
    )
    .unwrap();
    let sol = odelab::solve(&spec).unwrap();
    let stats = serde_json::to_value(sol.stats).unwrap();
    for key in [
        "nfev", "nsteps", "naccept", "nreject", "njev", "nlu", "nexpm", "nnewton",
    ] {
        assert!(stats.get(key).is_some(), "{key} in {stats}");
    }
    // φ-functions are evaluated when their argument changes: 10 steps, the Jacobian
    // frozen for two steps at a time (the second step of each pair reuses both φ(h g_z)
    // and φ(hA)), and this linear model's finite differences repeat some refreshes bit
    // for bit.
    assert_eq!(stats["nexpm"], 7);
    let info = serde_json::to_value(odelab::method::info("ros4").unwrap()).unwrap();
    assert_eq!(info["needsJacobian"], true);
    assert_eq!(info["lStable"], true);
    assert_eq!(info["embeddedOrder"], 3);
    assert_eq!(info["partitioned"], false);
    let fields = odelab::spec::field_names::<odelab::spec::SolveSpec>();
    for f in ["jacobian", "jacobianUpdate", "jacobianScale", "fast"] {
        assert!(fields.contains(&f), "{f}");
    }
}

/// y' = A y + (t, 0)ᵀ with a constant A, derivatives by value only (as a user's own
/// system would have them before `jacobian_into` existed).
struct ByValue;

impl System for ByValue {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -3.0 * y[0] + y[1] + t;
        dy[1] = 2.0 * y[0] - 5.0 * y[1];
    }
    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_row_slice(2, 2, &[-3.0, 1.0, 2.0, -5.0]))
    }
    fn dfdt(&self, _t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        Some(DVector::from_column_slice(&[1.0, 0.0]))
    }
}

#[test]
fn a_system_with_by_value_derivatives_only_is_served_through_the_buffers() {
    let mut buffer = DMatrix::zeros(2, 2);
    let mut ft = DVector::zeros(2);
    // The defaults say "not filled" and leave the buffers alone…
    assert!(!ByValue.jacobian_into(0.0, &[1.0, 2.0], &mut buffer));
    assert!(!ByValue.dfdt_into(0.0, &[1.0, 2.0], &mut ft));
    assert_eq!(buffer, DMatrix::zeros(2, 2));
    // …and the provider falls back to the by-value forms, every step.
    let mut provider = JacobianProvider::new("ros4", JacobianOptions::default());
    let mut stats = Stats::default();
    for step in 0..3 {
        let t = step as f64;
        let (j, f_t) = provider.at(&ByValue, t, &[1.0, t], &mut stats).unwrap();
        assert_eq!(*j, ByValue.jacobian(t, &[]).unwrap());
        assert_eq!(*f_t, ByValue.dfdt(t, &[]).unwrap());
    }
    assert_eq!(stats.njev, 3);
}

#[test]
fn van_der_pol_fills_its_buffers_with_its_by_value_derivatives() {
    let (_, model) = odelab::model::build("van-der-pol", &Default::default()).unwrap();
    let mut buffer = DMatrix::from_element(2, 2, f64::NAN);
    let mut ft = DVector::from_element(2, f64::NAN);
    for y in [[2.0, 0.0], [1.5, -0.3], [-1.2, 7.5e-4]] {
        assert!(model.jacobian_into(1.0, &y, &mut buffer));
        assert!(model.dfdt_into(1.0, &y, &mut ft));
        assert_eq!(buffer, model.jacobian(1.0, &y).unwrap());
        assert_eq!(ft, model.dfdt(1.0, &y).unwrap());
    }
}

#[test]
fn a_scaled_frozen_jacobian_is_refilled_in_place_with_the_same_values() {
    // jacobianScale and jacobianUpdate on the kept buffer: the matrix handed out is
    // s·J at the last evaluation point, as a freshly allocated one was.
    let (_, model) = odelab::model::build("van-der-pol", &Default::default()).unwrap();
    let options = JacobianOptions::from_spec(None, Some(2), Some(3.0)).unwrap();
    let mut provider = JacobianProvider::new("w2", options);
    let mut stats = Stats::default();
    let points = [[2.0, 0.0], [1.9, -0.1], [1.8, -0.2], [1.7, -0.3]];
    for (k, y) in points.iter().enumerate() {
        let (j, _) = provider
            .at(model.as_ref(), k as f64, y, &mut stats)
            .unwrap();
        let evaluated_at = &points[k - k % 2];
        assert_eq!(
            *j,
            model.jacobian(0.0, evaluated_at).unwrap() * 3.0,
            "step {k}"
        );
    }
    assert_eq!(stats.njev, 2);
}
