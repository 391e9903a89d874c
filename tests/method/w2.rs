//! `w2` (Negrut et al. 2003 Table 3, ROS2): order 2 with the exact Jacobian and with inexact ones
//! (J = 0, J = 3·exact, J frozen for 10 steps), where ros4 loses its order.

use super::stiff_common::*;
use odelab::method::rosenbrock_tableau;

fn w2_order(tweak: &dyn Fn(&mut odelab::spec::SolveSpec)) -> (f64, Vec<f64>) {
    let reference = van_der_pol_mu1_reference();
    order_with("van-der-pol", "w2", 0.02, 4, 2.0, Some(&reference), &|s| {
        mu1(s);
        tweak(s)
    })
}

#[test]
fn w2_order_two_with_exact_jacobian() {
    let (p, errs) = w2_order(&|_| {});
    println!("w2 exact J: order {p}, {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, {errs:?}");
}

#[test]
fn w2_order_two_with_zero_jacobian() {
    let (p, errs) = w2_order(&|s| s.jacobian_scale = Some(0.0));
    println!("w2 J = 0: order {p}, {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, {errs:?}");
}

#[test]
fn w2_order_two_with_tripled_jacobian() {
    let (p, errs) = w2_order(&|s| s.jacobian_scale = Some(3.0));
    println!("w2 J = 3·exact: order {p}, {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, {errs:?}");
}

#[test]
fn w2_order_two_with_frozen_jacobian() {
    let (p, errs) = w2_order(&|s| s.jacobian_update = Some(10));
    println!("w2 J frozen 10 steps: order {p}, {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, {errs:?}");
}

/// the Sources panel's errata: with J = 0 ros4 drops to order 1 — the contrast w2 is there to show.
#[test]
fn ros4_loses_its_order_with_zero_jacobian() {
    let reference = van_der_pol_mu1_reference();
    let (p, errs) = order_with(
        "van-der-pol",
        "ros4",
        0.02,
        4,
        2.0,
        Some(&reference),
        &|s| {
            mu1(s);
            s.jacobian_scale = Some(0.0);
        },
    );
    println!("ros4 J = 0: order {p}, {errs:?}");
    assert!((p - 1.0).abs() < 0.15, "order {p}, {errs:?}");
}

/// R(z) = (1 + (1 − 2γ)z)/(1 − γz)² (the Sources panel's errata): L-stable.
#[test]
fn w2_stability_function() {
    let tab = rosenbrock_tableau("w2").unwrap();
    let g = tab.gamma_diag;
    for z in [-0.5, -3.0, -100.0] {
        let expected = (1.0 + (1.0 - 2.0 * g) * z) / (1.0 - g * z).powi(2);
        assert!((tab.stability(z) - expected).abs() < 1e-14);
    }
    assert!(tab.stability(f64::NEG_INFINITY).abs() < 1e-15);
}
