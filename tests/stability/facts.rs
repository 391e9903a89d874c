//! the Sources panel's errata's stability facts, by root refinement (1e-9) from every method's
//! amplification.

use odelab::stability::{stability_facts, StabilityFacts, StabilitySpec, TableauSpec};

fn facts(id: &str) -> StabilityFacts {
    stability_facts(&StabilitySpec {
        method: id.into(),
        ..Default::default()
    })
    .unwrap()
}

fn close(x: Option<f64>, want: f64, what: &str) {
    let x = x.unwrap_or_else(|| panic!("{what}: no boundary"));
    assert!((x - want).abs() < 1e-9, "{what}: {x} vs {want}");
}

#[test]
fn real_intercepts_and_imaginary_extents_match_the_independent_values() {
    close(facts("rk4").real_intercept, -2.785293563405282, "rk4");
    close(facts("rk4").imag_extent, 2.0 * 2f64.sqrt(), "rk4 extent");
    close(facts("euler").real_intercept, -2.0, "euler");
    close(facts("heun").real_intercept, -2.0, "heun");
    assert_eq!(facts("euler").imag_extent, None);
    assert_eq!(facts("heun").imag_extent, None);
    close(facts("bs23").real_intercept, -2.512745326618329, "bs23");
    close(facts("bs23").imag_extent, 3f64.sqrt(), "bs23 extent");
    close(facts("dp45").real_intercept, -3.306567892634945, "dp45");
    close(facts("ab3").real_intercept, -6.0 / 11.0, "ab3");
    // am-pece (AB3 predictor, AM4 corrector, PECE, as src/method/am_pece.rs): the root
    // of its cubic on the unit circle, −1.934608421157370 (tests/stability/multistep.rs
    // checks the polynomial against the recurrence; an independent Durand–Kerner in
    // Python puts max|ζ| = 1 ∓ 4.3e-7 at ±1e-6 around it).
    close(
        facts("am-pece").real_intercept,
        -1.93460842115737,
        "am-pece",
    );
    // midpoint2 undamped: stable iff hω ≤ 2 (the Sources panel's errata).
    close(facts("midpoint2").imag_extent, 2.0, "midpoint2 extent");
}

#[test]
fn explicit_methods_are_not_a_stable() {
    for id in [
        "euler",
        "heun",
        "rk4",
        "bs23",
        "dp45",
        "ab3",
        "am-pece",
        "midpoint2",
    ] {
        let f = facts(id);
        assert!(!f.a_stable && !f.l_stable, "{id}: {f:?}");
    }
}

#[test]
fn a_and_l_stability_of_the_implicit_and_exponential_methods() {
    // Backward Euler: A- and L-stable, whole negative axis stable (the Sources panel's errata).
    let be = facts("backward-euler");
    assert!(be.a_stable && be.l_stable, "{be:?}");
    assert_eq!(be.real_intercept, Some(f64::NEG_INFINITY));
    assert_eq!(be.imag_extent, Some(f64::INFINITY));
    // BDF2 A-stable (and its σ = (2/3)ζ² makes it L-stable).
    let bdf2 = facts("bdf2");
    assert!(bdf2.a_stable, "{bdf2:?}");
    assert!(bdf2.value_at_minus_infinity < 1e-12, "{bdf2:?}");
    // LLM: R = e^ξ, region = closed left half-plane.
    let llm = facts("llm");
    assert!(llm.a_stable && llm.l_stable, "{llm:?}");
    assert_eq!(llm.imag_extent, Some(f64::INFINITY));
    // ros4: A-stable, |R(−∞)| < 1e-6 (the Sources panel's errata: 9.6e-9).
    let ros4 = facts("ros4");
    assert!(ros4.a_stable && ros4.l_stable, "{ros4:?}");
    assert!(ros4.value_at_minus_infinity < 1e-6);
    // w2: L-stable.
    let w2 = facts("w2");
    assert!(w2.a_stable && w2.l_stable, "{w2:?}");
}

#[test]
fn am3_corrector_alone_has_intercept_minus_six() {
    use nalgebra::Complex;
    use odelab::stability::facts::boundary_along;
    use odelab::stability::multistep::AM3;
    let value = |z: Complex<f64>| AM3.max_root(z);
    let t = boundary_along(&value, Complex::new(-1.0, 0.0)).unwrap();
    assert!((t - 6.0).abs() < 1e-9, "{t}");
}

#[test]
fn user_tableau_reproduces_rk4_and_an_sdirk() {
    let rk4 = TableauSpec::from_numbers(
        vec![
            vec![0.0, 0.0, 0.0, 0.0],
            vec![0.5, 0.0, 0.0, 0.0],
            vec![0.0, 0.5, 0.0, 0.0],
            vec![0.0, 0.0, 1.0, 0.0],
        ],
        vec![1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
        Some(vec![0.0, 0.5, 0.5, 1.0]),
    );
    let f = stability_facts(&StabilitySpec {
        method: "custom".into(),
        tableau: Some(rk4),
        ..Default::default()
    })
    .unwrap();
    close(f.real_intercept, -2.785293563405282, "custom rk4");
    // The implicit midpoint rule (A = 1/2, b = 1): R = (1 + z/2)/(1 − z/2), A-stable,
    // |R(−∞)| = 1, so not L-stable.
    let f = stability_facts(&StabilitySpec {
        method: "custom".into(),
        tableau: Some(TableauSpec::from_numbers(vec![vec![0.5]], vec![1.0], None)),
        ..Default::default()
    })
    .unwrap();
    assert!(f.a_stable && !f.l_stable, "{f:?}");
}

/// Generalized-α, HHT-α and Newmark's average acceleration are unconditionally stable on
/// the damped oscillator (Chung & Hulbert 1993; Hilber, Hughes & Taylor 1977; Newmark
/// 1959), so their ξ-plane regions hold the whole left half-plane and the facts must say
/// A-stable. Two round-off traps made them say "no": the Jordan block at ξ = 0 (a double
/// root 1 split into 1 ± √ε) and isolated spikes where critical damping (the negative real
/// axis) gives a double root (Newmark read 1.068 at ξ ≈ −43.866).
#[test]
fn the_structural_integrators_are_a_stable_in_the_facts() {
    for id in ["generalized-alpha", "hht-alpha", "newmark"] {
        let f = facts(id);
        assert!(f.a_stable, "{id}: {f:?}");
        assert_eq!(f.real_intercept, Some(f64::NEG_INFINITY), "{id}");
        assert_eq!(f.imag_extent, Some(f64::INFINITY), "{id}");
        assert!(!f.l_stable, "{id}: ρ∞ > 0 keeps it from L-stability");
    }
}

#[test]
fn a_double_root_is_not_counted_as_growth_on_the_negative_real_axis() {
    use nalgebra::Complex;
    for id in ["generalized-alpha", "hht-alpha", "newmark"] {
        let spec = StabilitySpec {
            method: id.into(),
            ..Default::default()
        };
        let amp = odelab::stability::Amplification::from_spec(&spec).unwrap();
        assert_eq!(amp.value(Complex::new(0.0, 0.0)), 1.0, "{id} at ξ = 0");
        // The scan the facts make, step 1e-3 to 50: every point inside.
        let mut t = 1e-3f64;
        while t < 50.0 {
            let v = amp.value(Complex::new(-t, 0.0));
            assert!(v < 1.0, "{id}: |R({})| = {v}", -t);
            t += 1e-3;
        }
    }
}
