//! Characteristic polynomials of the multistep maps against the methods' recurrences
//! on y' = λy, run here step by step.

use nalgebra::Complex;
use odelab::stability::multistep::{CharPoly, AB2_AM3_PECE, AB3, AM_PECE, BDF2};

type C = Complex<f64>;

/// π(ζ; ξ) evaluated at ζ.
fn pi(p: &CharPoly, xi: C, zeta: C) -> C {
    let mut acc = C::new(0.0, 0.0);
    for pj in p.coef.iter().rev() {
        let mut c = C::new(0.0, 0.0);
        for &a in pj.iter().rev() {
            c = c * xi + a;
        }
        acc = acc * zeta + c;
    }
    acc
}

/// A sequence y_n of the method satisfies Σ_j p_j(ξ) y_{n−k+j} = 0.
fn check(p: &CharPoly, ys: &[C], xi: C) {
    let k = p.coef.len() - 1;
    for n in k..ys.len() {
        let mut acc = C::new(0.0, 0.0);
        for (j, pj) in p.coef.iter().enumerate() {
            let mut c = C::new(0.0, 0.0);
            for &a in pj.iter().rev() {
                c = c * xi + a;
            }
            acc += c * ys[n - k + j];
        }
        assert!(acc.norm() < 1e-13 * ys[n].norm().max(1.0), "n {n}: {acc}");
    }
}

#[test]
fn am_pece_polynomial_is_the_ab3_am4_pece_recurrence() {
    let z = C::new(-0.7, 0.4);
    let mut ys = vec![C::new(1.0, 0.0), C::new(0.95, 0.05), C::new(0.9, 0.1)];
    for _ in 0..10 {
        let n = ys.len() - 1;
        let (y0, y1, y2) = (ys[n], ys[n - 1], ys[n - 2]);
        // P: AB3; E; C: AM4 (9, 19, −5, 1)/24 with f(y*); E (src/method/am_pece.rs).
        let ystar = y0 + z * (y0 * 23.0 - y1 * 16.0 + y2 * 5.0) / 12.0;
        let next = y0 + z * (ystar * 9.0 + y0 * 19.0 - y1 * 5.0 + y2) / 24.0;
        ys.push(next);
    }
    check(&AM_PECE, &ys, z);
}

#[test]
fn ab2_am3_pece_polynomial_is_its_recurrence() {
    let z = C::new(-0.7, 0.4);
    let mut ys = vec![C::new(1.0, 0.0), C::new(0.9, 0.1)];
    for _ in 0..10 {
        let n = ys.len() - 1;
        let (yn, ym) = (ys[n], ys[n - 1]);
        // P: AB2; E; C: AM3 with f(y*); E.
        let ystar = yn + z * (yn * 3.0 - ym) / 2.0;
        let y1 = yn + z * (ystar * 5.0 + yn * 8.0 - ym) / 12.0;
        ys.push(y1);
    }
    check(&AB2_AM3_PECE, &ys, z);
    // At ξ = −12/5, ζ = 1 is a double root.
    let xi = C::new(-2.4, 0.0);
    assert!(pi(&AB2_AM3_PECE, xi, C::new(1.0, 0.0)).norm() < 1e-14);
}

#[test]
fn ab3_and_bdf2_polynomials_are_their_recurrences() {
    let z = C::new(-0.3, 0.2);
    let mut ys = vec![C::new(1.0, 0.0), C::new(0.95, 0.05), C::new(0.9, 0.1)];
    for _ in 0..10 {
        let n = ys.len() - 1;
        let y1 = ys[n] + z * (ys[n] * 23.0 - ys[n - 1] * 16.0 + ys[n - 2] * 5.0) / 12.0;
        ys.push(y1);
    }
    check(&AB3, &ys, z);
    let z = C::new(-5.0, 3.0);
    let mut ys = vec![C::new(1.0, 0.0), C::new(0.5, 0.1)];
    for _ in 0..10 {
        let n = ys.len() - 1;
        // y_{n+1} = (4/3 y_n − 1/3 y_{n−1}) / (1 − 2z/3)
        let y1 = (ys[n] * (4.0 / 3.0) - ys[n - 1] / 3.0) / (C::new(1.0, 0.0) - z * (2.0 / 3.0));
        ys.push(y1);
    }
    check(&BDF2, &ys, z);
}

#[test]
fn max_root_of_ab3_at_its_intercept_is_one() {
    let v = AB3.max_root(C::new(-6.0 / 11.0, 0.0));
    assert!((v - 1.0).abs() < 1e-12, "{v}");
    // Consistency: at ξ = 0 the principal root is 1.
    assert!((AB3.max_root(C::new(0.0, 0.0)) - 1.0).abs() < 1e-14);
}

#[test]
fn am_pece_real_intercept() {
    use odelab::stability::facts::boundary_along;
    let value = |z: C| AM_PECE.max_root(z);
    let t = boundary_along(&value, C::new(-1.0, 0.0)).unwrap();
    // At the intercept a root of π(ζ; −t) lies on the unit circle.
    let v = AM_PECE.max_root(C::new(-t, 0.0));
    println!("am-pece (AB3 + AM4 PECE) real intercept −{t:.15}");
    assert!((v - 1.0).abs() < 1e-9, "{v}");
    assert!(t > 1.0 && t < 2.0, "{t}");
    let value = |z: C| AB2_AM3_PECE.max_root(z);
    let t2 = boundary_along(&value, C::new(-1.0, 0.0)).unwrap();
    assert!((t2 - 2.4).abs() < 1e-9, "{t2}");
}
