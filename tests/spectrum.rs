//! Eigenvalues of model Jacobians (src/spectrum.rs), checked against closed forms.

use odelab::model::build;
use odelab::spectrum::{eigenvalues, of_model};
use std::collections::BTreeMap;

#[test]
fn mass_spring_damper_eigenvalues_are_the_characteristic_roots() {
    // λ = −c/2m ± i√(k/m − (c/2m)²) = −0.25 ± 9.99687i for m = 1, k = 100, c = 0.5 (Schwab & Delhaes eq. 7.12).
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

/// the Sources panel's errata: the pendulum-plus-particle fast eigenvalue is ±i√(k/m2) ≈ ±707.1i.
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

/// spectrum() of a formulation's own ODE. The stiff vehicle's state-space ODE
/// (Negrut et al. 2003 §3.2: "the dominant eigenvalue of the corresponding SODE has a real component
/// of approximately −2.6E5") has the native half-car's dominant eigenvalue, and so has
/// the augmented ODE in body coordinates.
#[test]
fn spectrum_of_a_formulation() {
    use odelab::spectrum::{of_spec, SpectrumSpec};
    let native = of_spec(&SpectrumSpec {
        model: "vehicle-stiff".into(),
        ..Default::default()
    })
    .unwrap();
    for formulation in ["state-space", "augmented"] {
        let l = of_spec(&SpectrumSpec {
            model: "vehicle-stiff".into(),
            formulation: Some(formulation.into()),
            ..Default::default()
        })
        .unwrap();
        println!(
            "{formulation}: {} eigenvalues, dominant {:.6e}; native {:.6e}",
            l.len(),
            l[0],
            native[0]
        );
        assert_eq!(l.len(), if formulation == "state-space" { 10 } else { 18 });
        // Within 1e-4: the body model has exact rotations (measured 1.1e-5 apart).
        assert!((l[0] - native[0]).norm() < 1e-4 * native[0].norm());
        assert!(l[0].re < -2.5e5 && l[0].re > -2.7e5);
    }
    // Baumgarte stabilisation (α = β = 10) changes the augmented ODE: the constraint
    // directions' zero eigenvalues become the double root −α ± √(α² − β²) = −10 (a
    // defective root: the computed pair splits by ~√ε·10 ≈ 4e-3).
    let plain = of_spec(&SpectrumSpec {
        model: "pendulum-particle".into(),
        formulation: Some("augmented".into()),
        ..Default::default()
    })
    .unwrap();
    let stabilized = of_spec(&SpectrumSpec {
        model: "pendulum-particle".into(),
        formulation: Some("augmented".into()),
        stabilization: Some("baumgarte".into()),
        ..Default::default()
    })
    .unwrap();
    let near =
        |l: &[nalgebra::Complex<f64>], z: f64| l.iter().filter(|v| (**v - z).norm() < 1e-2).count();
    println!("augmented pendulum-particle: {plain:.4?}\n  with Baumgarte: {stabilized:.4?}");
    assert_eq!(near(&stabilized, -10.0), 4);
    assert_eq!(near(&plain, -10.0), 0);
    // A state the Newton recovery cannot reach is a typed error, not a panic.
    let bad = of_spec(&SpectrumSpec {
        model: "double-pendulum-rsda".into(),
        formulation: Some("state-space".into()),
        independent: Some(vec!["y1".into(), "y2".into()]),
        y: Some(vec![5.0, 9.0, 0.0, 0.0]),
        ..Default::default()
    });
    println!("{bad:?}");
    assert!(bad.is_err());
}

/// The blocks of a slow/fast partition (Gil, Sanfelice & Nikravesh 2013, eqs. 50–51): the
/// pendulum-plus-particle's fast block ∂g/∂z is the particle on its spring, ±i√(k/m2) in
/// x and in y; its slow block ∂f_x/∂x is the bar alone, whose λ_s are small and imaginary
/// (the undamped swing). The full spectrum holds both, the slow pair slightly shifted by
/// the coupling.
#[test]
fn slow_and_fast_blocks_of_the_pendulum_particle() {
    use odelab::spectrum::{of_spec, SpectrumSpec};
    let spec = |block: Option<&str>| SpectrumSpec {
        model: "pendulum-particle".into(),
        block: block.map(str::to_string),
        ..Default::default()
    };
    let fast = of_spec(&spec(Some("fast"))).unwrap();
    assert_eq!(fast.len(), 4);
    for v in &fast {
        assert!((v.im.abs() - (5.0f64 / 1e-5).sqrt()).abs() < 1e-6, "{v}");
        assert!(v.re.abs() < 1e-9, "{v}");
    }
    let slow = of_spec(&spec(Some("slow"))).unwrap();
    assert_eq!(slow.len(), 2);
    for v in &slow {
        assert!(
            v.re.abs() < 1e-12 && v.im.abs() > 1.0 && v.im.abs() < 2.0,
            "{v}"
        );
    }
    let full = of_spec(&spec(None)).unwrap();
    assert_eq!(full.len(), 6);
    assert!(
        (full[5].im.abs() - slow[0].im.abs()).abs() < 0.05,
        "{full:?} {slow:?}"
    );
    // An explicit partition, and the errors a student can act on.
    let mut explicit = spec(Some("fast"));
    explicit.fast = Some(vec![4, 5]);
    assert_eq!(of_spec(&explicit).unwrap().len(), 2);
    for (block, fast, words) in [
        ("middle", None, "block must be \"slow\" or \"fast\""),
        ("fast", Some(vec![6]), "fast[0] = 6 is not a state index"),
        (
            "fast",
            Some(vec![2, 2]),
            "fast[1] = 2 is not a state index of its own",
        ),
        ("slow", Some(vec![]), "declares no fast states"),
    ] {
        let mut s = spec(Some(block));
        s.fast = fast;
        let message = of_spec(&s).unwrap_err().to_string();
        assert!(message.contains(words), "{message}");
    }
}
