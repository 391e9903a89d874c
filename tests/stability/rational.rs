//! R = N/D from tableaux: the same values as the forward substitution of `rk.rs`, and the
//! closed forms of the Sources panel's errata for backward Euler, w2 and ros4.

use nalgebra::Complex;
use odelab::method::tableau;
use odelab::stability::rational::Rational;
use odelab::stability::rk::stability_function;
use odelab::stability::{Amplification, StabilitySpec};

fn amp(id: &str) -> Amplification {
    Amplification::from_spec(&StabilitySpec {
        method: id.into(),
        ..Default::default()
    })
    .unwrap()
}

fn rational(id: &str) -> Rational {
    match amp(id) {
        Amplification::Rational(r) => r,
        other => panic!("{id}: {other:?}"),
    }
}

#[test]
fn polynomials_of_the_explicit_tableaux_match_forward_substitution() {
    for id in ["euler", "heun", "rk4", "bs23", "dp45"] {
        let r = rational(id);
        assert!(r.is_polynomial(), "{id}");
        for z in [
            Complex::new(-0.7, 1.3),
            Complex::new(-2.5, 0.1),
            Complex::new(0.3, -2.0),
            Complex::new(-4.0, 3.0),
        ] {
            let a = r.eval(z);
            let b = stability_function(tableau(id).unwrap(), z);
            assert!(
                (a - b).norm() <= 1e-14 * b.norm().max(1.0),
                "{id} at {z}: {a} vs {b}"
            );
        }
    }
    // RK4: exactly the truncated exponential, Gil, Sanfelice & Nikravesh 2013 eq. (49).
    let r = rational("rk4");
    let want = [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0];
    for (c, w) in r.num.iter().zip(want) {
        assert!((c - w).abs() < 1e-15, "{:?}", r.num);
    }
}

#[test]
fn backward_euler_is_one_over_one_minus_z() {
    let r = rational("backward-euler");
    for z in [
        Complex::new(-3.0, 1.0),
        Complex::new(0.5, 0.5),
        Complex::new(1e6, -1e6),
    ] {
        let want = Complex::new(1.0, 0.0) / (Complex::new(1.0, 0.0) - z);
        assert!(
            (r.eval(z) - want).norm() <= 1e-15 * want.norm().max(1e-300),
            "{z}"
        );
    }
}

#[test]
fn w2_matches_the_closed_form_match_the_independent_values() {
    let g = 1.0 + std::f64::consts::FRAC_1_SQRT_2;
    let r = rational("w2");
    for z in [
        Complex::new(-3.0, 1.0),
        Complex::new(0.2, 2.0),
        Complex::new(-1e5, 3e4),
    ] {
        let one = Complex::new(1.0, 0.0);
        let want = (one + z * (1.0 - 2.0 * g) + z * z * (g * g - 2.0 * g + 0.5))
            / ((one - z * g) * (one - z * g));
        assert!(
            (r.eval(z) - want).norm() <= 1e-14 * want.norm().max(1e-12),
            "{z}"
        );
    }
    // The z² coefficient γ² − 2γ + 1/2 vanishes (the Sources panel's errata).
    assert!(r.num[2].abs() < 1e-15, "{:?}", r.num);
}

#[test]
fn ros4_r_at_infinity_is_about_1e_8_and_order_four() {
    let r = rational("ros4");
    let at_inf = r.modulus_at_infinity();
    println!("ros4 |R(−∞)| = {at_inf:e}");
    assert!(at_inf < 1e-6 && at_inf > 1e-9, "{at_inf}");
    // R(z) = e^z + O(z^5).
    let err = |x: f64| (r.eval(Complex::new(x, 0.0)).re - x.exp()).abs();
    let slope = (err(0.1) / err(0.05)).log2();
    assert!((slope - 5.0).abs() < 0.3, "slope {slope}");
}
