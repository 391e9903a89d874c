//! The scaled error norms: weighted RMS (Negrut et al. 2003 eq. 5) and max (ode23/ode45 listings).

use odelab::control::{error_norm, ErrorNorm, Tolerance};

#[test]
fn rms_and_max_norms_of_a_known_vector() {
    let tol = Tolerance::uniform(0.0 + 1e-3, 0.0, 2).unwrap();
    let y = [1.0, 2.0];
    // Scaled components: 3e-3 / 1e-3 = 3, 8e-3 / 2e-3 = 4.
    let err = [3e-3, -8e-3];
    let rms = error_norm(ErrorNorm::Rms, &err, &y, &y, &tol);
    let max = error_norm(ErrorNorm::Max, &err, &y, &y, &tol);
    assert!((rms - (12.5f64).sqrt()).abs() < 1e-12, "{rms}");
    assert!((max - 4.0).abs() < 1e-12, "{max}");
}

#[test]
fn per_component_tolerances_weigh_components_separately() {
    // A loose tolerance on the second component hides its large error.
    let tol = Tolerance::new(vec![1e-6, 1e-1], vec![0.0, 0.0]).unwrap();
    let y = [1.0, 1.0];
    let err = [1e-6, 1e-2];
    let max = error_norm(ErrorNorm::Max, &err, &y, &y, &tol);
    assert!((max - 1.0).abs() < 1e-12, "{max}");
}

/// A zero scale (atol = 0 at y = 0) with a zero error is not a 0/0 NaN.
#[test]
fn zero_error_on_zero_scale_counts_as_zero() {
    let tol = Tolerance::uniform(1e-3, 0.0, 2).unwrap();
    let y = [0.0, 1.0];
    let e = error_norm(ErrorNorm::Rms, &[0.0, 1e-4], &y, &y, &tol);
    assert!(e.is_finite() && e > 0.0);
}

/// `larger` is `f64::max` bit for bit (a comparison instead of wasm's `fmax` call): a
/// NaN loses to a number, equal values and signed zeros keep max's answer.
#[test]
fn larger_is_f64_max_bit_for_bit() {
    use odelab::control::larger;
    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1e-300,
        f64::MIN_POSITIVE,
        2.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for &a in &values {
        for &b in &values {
            let (got, want) = (larger(a, b), a.max(b));
            let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
            // max(±0, ∓0) may return either zero; the norms only compare |values|.
            let zeros = a == 0.0 && b == 0.0 && got == 0.0;
            assert!(same || zeros, "larger({a}, {b}) = {got}, max = {want}");
        }
    }
}
