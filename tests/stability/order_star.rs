//! Order stars (Wanner, Hairer & Nørsett 1978; Hairer & Wanner, Solving Ordinary
//! Differential Equations II, §IV.4): where |R(ξ)e^{−ξ}| > 1 against < 1. Near the
//! origin R(ξ)e^{−ξ} = 1 + Cξ^{p+1} + O(ξ^{p+2}) for a method of order p, so 2(p + 1)
//! sectors, alternately > 1 and < 1, meet there.

use nalgebra::Complex;
use odelab::error::OdeError;
use odelab::stability::{stability_map, Amplification, StabilitySpec};

fn order_star(method: &str) -> Amplification {
    Amplification::from_spec(&StabilitySpec {
        method: method.into(),
        mode: Some("order-star".into()),
        ..Default::default()
    })
    .unwrap()
}

/// Sign changes of |R(ξ)e^{−ξ}| − 1 around the circle |ξ| = r.
fn sectors(method: &str, r: f64) -> usize {
    let amp = order_star(method);
    let n = 7200;
    let side = |k: usize| {
        let angle = 2.0 * std::f64::consts::PI * (k as f64 + 0.5) / n as f64;
        amp.value(Complex::from_polar(r, angle)) > 1.0
    };
    (0..n).filter(|&k| side(k) != side((k + 1) % n)).count()
}

#[test]
fn sectors_at_the_origin_are_twice_the_order_plus_one() {
    for (method, order) in [
        ("euler", 1),
        ("heun", 2),
        ("rk4", 4),
        ("backward-euler", 1),
        ("implicit-midpoint", 2),
        ("ros4", 4),
        ("radau5", 5),
    ] {
        assert_eq!(sectors(method, 0.05), 2 * (order + 1), "{method}");
    }
}

/// Explicit Euler: (1 + x)e^{−x} < 1 for every real x ≠ 0, and > −1 from x ≈ −1.28 on,
/// so the real axis there is in the < 1 set; on the imaginary axis |1 + iy| > 1 = |e^{−iy}|.
#[test]
fn explicit_euler_is_below_one_on_the_real_axis_and_above_on_the_imaginary() {
    let amp = order_star("euler");
    for x in [-1.2f64, -0.5, 0.2, 2.0] {
        let want: f64 = (1.0 + x) * (-x).exp();
        let v = amp.value(Complex::new(x, 0.0));
        assert!((v - want.abs()).abs() < 1e-14, "x = {x}: {v}");
        assert!(v < 1.0, "x = {x}");
    }
    for y in [-2.0, 0.3, 1.0] {
        assert!(amp.value(Complex::new(0.0, y)) > 1.0, "y = {y}");
    }
}

/// A-stable implicit midpoint: |R| = 1 = |e^{−iy}| on the whole imaginary axis, so its
/// order star has no sector crossing it (Hairer & Wanner II §IV.4).
#[test]
fn implicit_midpoint_is_one_on_the_imaginary_axis() {
    let amp = order_star("implicit-midpoint");
    for y in [0.1, 1.0, 10.0, 100.0] {
        assert!((amp.value(Complex::new(0.0, y)) - 1.0).abs() < 1e-13);
    }
}

#[test]
fn the_order_star_map_is_a_number_everywhere_on_the_widest_window() {
    let m = odelab::stability::spec::MAX_WINDOW;
    for method in [
        "euler",
        "rk4",
        "radau5",
        "implicit-midpoint",
        "ros4",
        "dp45",
    ] {
        let values = stability_map(&StabilitySpec {
            method: method.into(),
            mode: Some("order-star".into()),
            re: Some([-m, m]),
            im: Some([-m, m]),
            nx: Some(33),
            ny: Some(33),
            ..Default::default()
        })
        .unwrap();
        assert!(values.iter().all(|v| *v >= 0.0), "{method}");
    }
}

#[test]
fn methods_without_a_rational_r_and_unknown_modes_are_refused() {
    for method in ["ab3", "midpoint2", "llm", "slowfast", "verlet"] {
        let err = Amplification::from_spec(&StabilitySpec {
            method: method.into(),
            mode: Some("order-star".into()),
            ..Default::default()
        })
        .err()
        .unwrap();
        assert!(matches!(err, OdeError::BadSpec { .. }), "{method}: {err}");
        assert!(err.to_string().contains("order star"), "{err}");
    }
    let err = Amplification::from_spec(&StabilitySpec {
        method: "rk4".into(),
        mode: Some("stars".into()),
        ..Default::default()
    })
    .err()
    .unwrap();
    assert!(err.to_string().contains("\"order-star\""), "{err}");
}
