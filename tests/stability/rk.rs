//! The stability facts of the Sources panel's errata, reproduced from the same tableaux the
//! integrator uses (not from textbook polynomials typed in again).

use nalgebra::Complex;
use odelab::method::tableau;
use odelab::stability::rk::{imaginary_axis_extent, real_axis_intercept, stability_function};

fn intercept(id: &str) -> f64 {
    real_axis_intercept(tableau(id).unwrap()).expect("a bounded real interval")
}

#[test]
fn real_axis_intercepts_match_the_independent_values() {
    let facts = [
        ("euler", -2.0),
        ("heun", -2.0),
        ("rk4", -2.785293563405282),
        ("bs23", -2.512745326618329),
        ("dp45", -3.306567892634945),
    ];
    for (id, expected) in facts {
        let x = intercept(id);
        assert!((x - expected).abs() < 1e-9, "{id}: {x} vs {expected}");
    }
}

#[test]
fn imaginary_axis_extents_match_the_independent_values() {
    let rk4 = imaginary_axis_extent(tableau("rk4").unwrap()).unwrap();
    assert!((rk4 - 2.0 * 2f64.sqrt()).abs() < 1e-9, "{rk4}");
    let bs3 = imaginary_axis_extent(tableau("bs23").unwrap()).unwrap();
    assert!((bs3 - 3f64.sqrt()).abs() < 1e-9, "{bs3}");
    // Euler and Heun: no part of the imaginary axis but 0 is stable.
    assert_eq!(imaginary_axis_extent(tableau("euler").unwrap()), None);
    assert_eq!(imaginary_axis_extent(tableau("heun").unwrap()), None);
}

/// R(z) of RK4 is the truncated exponential of Schwab & Delhaes §7.3, at a complex point.
#[test]
fn rk4_stability_function_is_the_taylor_polynomial() {
    let z = Complex::new(-0.7, 1.3);
    let expected = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    let r = stability_function(tableau("rk4").unwrap(), z);
    assert!((r - expected).norm() < 1e-15, "{r} vs {expected}");
}

/// A method of order p has R(z) = e^z + O(z^(p+1)).
#[test]
fn stability_functions_agree_with_exp_to_the_method_order() {
    for (id, p) in [
        ("euler", 1),
        ("heun", 2),
        ("rk4", 4),
        ("bs23", 3),
        ("dp45", 5),
    ] {
        let tab = tableau(id).unwrap();
        let err = |x: f64| (stability_function(tab, Complex::new(x, 0.0)).re - x.exp()).abs();
        let slope = (err(0.1) / err(0.05)).log2();
        assert!(
            (slope - (p as f64 + 1.0)).abs() < 0.1,
            "{id}: slope {slope}"
        );
    }
}
