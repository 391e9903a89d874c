//! hλᵢ markers: eigenvalues of ∂f/∂y times h.

use odelab::stability::eigen::{scaled_eigenvalues, EigenSpec};
use odelab::stability::{Amplification, StabilitySpec};
use odelab::OdeError;

#[test]
fn issue_5_mass_spring_damper_eigenvalues_times_h() {
    let e = scaled_eigenvalues(&EigenSpec {
        model: "mass-spring-damper".into(),
        h: Some(0.01),
        ..Default::default()
    })
    .unwrap();
    // λ = −c/(2m) ± i√(k/m − (c/2m)²) with m = 1, k = 100, c = 0.5 (002 eq. 7.12).
    let im = (100.0f64 - 0.0625).sqrt() * 0.01;
    let mut ims = e.im.clone();
    ims.sort_by(f64::total_cmp);
    assert!(
        (ims[0] + im).abs() < 1e-13 && (ims[1] - im).abs() < 1e-13,
        "{e:?}"
    );
    assert!(e.re.iter().all(|r| (r + 0.0025).abs() < 1e-13), "{e:?}");
}

#[test]
fn issue_5_pendulum_particle_fast_mode_is_outside_rk4_at_h_0_005() {
    let e = scaled_eigenvalues(&EigenSpec {
        model: "pendulum-particle".into(),
        h: Some(0.005),
        ..Default::default()
    })
    .unwrap();
    // METHODS.md: λf = i√(k/m2) ≈ 707.1i, so hλf ≈ 3.54i.
    let top = e.im.iter().cloned().fold(0.0, f64::max);
    assert!((top - 0.005 * (5.0f64 / 1e-5).sqrt()).abs() < 0.02, "{e:?}");
    let rk4 = Amplification::from_spec(&StabilitySpec {
        method: "rk4".into(),
        ..Default::default()
    })
    .unwrap();
    let k = e.im.iter().position(|&v| v == top).unwrap();
    assert!(rk4.value(nalgebra::Complex::new(e.re[k], e.im[k])) > 1.0);
}

#[test]
fn issue_5_eigenvalue_requests_are_checked() {
    let e = scaled_eigenvalues(&EigenSpec {
        model: "pendulum".into(),
        h: Some(-1.0),
        ..Default::default()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::BadStepSize { .. }));
    let e = scaled_eigenvalues(&EigenSpec {
        model: "pendulum".into(),
        y: Some(vec![1.0]),
        ..Default::default()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::WrongLength { .. }));
    let e = scaled_eigenvalues(&EigenSpec {
        model: "pendulum".into(),
        y: Some(vec![f64::NAN, 0.0]),
        ..Default::default()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::NotFinite { .. }), "{e}");
    let e = scaled_eigenvalues(&EigenSpec::default()).unwrap_err();
    assert!(e.to_string().contains("missing field"));
    // A user system: x' = v, v' = -4x → ±2i.
    let e = scaled_eigenvalues(&EigenSpec {
        system: Some("x' = v\nv' = -4*x\nx(0) = 1\nv(0) = 0".into()),
        ..Default::default()
    })
    .unwrap();
    let mut ims = e.im.clone();
    ims.sort_by(f64::total_cmp);
    assert!((ims[1] - 2.0).abs() < 1e-14, "{e:?}");
}
