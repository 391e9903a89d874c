//! Eigenvalues of model Jacobians (src/spectrum.rs), checked against closed forms.

use odelab::model::build;
use odelab::spectrum::{eigenvalues, of_model};
use std::collections::BTreeMap;

#[test]
fn mass_spring_damper_eigenvalues_are_the_characteristic_roots() {
    // λ = −c/2m ± i√(k/m − (c/2m)²) = −0.25 ± 9.99687i for m = 1, k = 100, c = 0.5 (002 eq. 7.12).
    let (_, model) = build("mass-spring-damper", &BTreeMap::new()).unwrap();
    let l = of_model(model.as_ref(), 0.0, &[0.0, 0.0]).unwrap();
    assert_eq!(l.len(), 2);
    for v in &l {
        assert!((v.re + 0.25).abs() < 1e-12, "{v}");
        assert!(
            (v.im.abs() - (100.0f64 - 0.0625).sqrt()).abs() < 1e-12,
            "{v}"
        );
    }
}

/// METHODS.md: the pendulum-plus-particle fast eigenvalue is ±i√(k/m2) ≈ ±707.1i.
#[test]
fn pendulum_particle_fast_pair() {
    let (info, model) = build("pendulum-particle", &BTreeMap::new()).unwrap();
    let l = of_model(model.as_ref(), 0.0, &info.y0).unwrap();
    assert!(
        (l[0].norm() - (5.0f64 / 1e-5).sqrt()).abs() < 0.5,
        "{:?}",
        l
    );
    assert!(l[0].re.abs() < 1e-6 * l[0].norm(), "{:?}", l);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let (_, model) = build("pendulum", &BTreeMap::new()).unwrap();
    assert!(of_model(model.as_ref(), 0.0, &[1.0]).is_err());
    let nan = nalgebra::DMatrix::from_element(2, 2, f64::NAN);
    assert!(eigenvalues(nan).is_err());
    assert!(eigenvalues(nalgebra::DMatrix::zeros(0, 0))
        .unwrap()
        .is_empty());
}
