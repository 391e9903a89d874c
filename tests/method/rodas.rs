//! `rodas`, RODAS of Hairer & Wanner (Solving ODEs II, 1996, §VI.4): golden values from
//! Hairer's own Fortran code RODAS (gfortran, coefficient set METH = 1, analytic J and
//! ∂f/∂t), its orders, its stability and its dense output.

// Digits as Hairer's code printed them (ES25.17).
#![allow(clippy::excessive_precision)]

use super::common::*;
use super::stiff_common::*;
use odelab::method::create;
use odelab::spec::Tol;
use odelab::stats::Stats;

/// One step of y' = −2ty² from t = 0.5, y = 0.8 with h = 0.1 (the ∂f/∂t terms h·d_i·f_t
/// included), against Hairer's RODAS taking the same single step (XEND = 0.6, H = 0.1,
/// tolerances 1 so that it is accepted): y1 = 7.35293970365046179e-1.
#[test]
fn rodas_golden_step_against_hairers_code() {
    let mut st = create("rodas", 1).unwrap();
    let mut y1 = [0.0];
    let mut stats = Stats::default();
    st.step(&Riccati, 0.5, &[0.8], 0.1, &mut y1, &mut stats)
        .unwrap();
    assert!(
        (y1[0] - 7.35293970365046179e-1).abs() < 2e-16,
        "y1 = {:.17e}",
        y1[0]
    );
    assert_eq!(stats.nfev, 6);
    assert_eq!(stats.njev, 1);
    assert_eq!(stats.nlu, 1);
}

/// Van der Pol, μ = 1000, y(0) = (2, 0), to t = 3000 at rtol 1e-6, atol 1e-8 (the bench's
/// stiff case). Hairer's RODAS at rtol 1e-10, atol 1e-12 ends at
/// (−1.51060693661177714, 1.17838000077820598e-3); at rtol 1e-6 it takes 1366 accepted and
/// 11 rejected steps and ends 2.1e-6 from there. rodas, with RODAS's controller, ends as
/// close and takes as many steps (its first step is chosen by the driver, not H = 1e-6).
#[test]
fn rodas_golden_van_der_pol_run_against_hairers_code() {
    let golden = [-1.51060693661177714, 1.17838000077820598e-3];
    let sol = odelab::solve(&adaptive("van-der-pol", "rodas", 1e-6, 1e-8, 3000.0)).unwrap();
    let y = last(&sol);
    let err = (y[0] - golden[0]).abs().max((y[1] - golden[1]).abs());
    println!(
        "rodas: {} accepted, {} rejected, nfev {}, error {err:e}",
        sol.stats.naccept, sol.stats.nreject, sol.stats.nfev
    );
    assert!(err < 1e-5, "error {err:e}");
    let steps = sol.stats.naccept as f64;
    assert!((steps / 1366.0 - 1.0).abs() < 0.1, "{steps} steps");
    // Tight: within 1e-9 of Hairer's code at the same tolerance.
    let tight = odelab::solve(&adaptive("van-der-pol", "rodas", 1e-10, 1e-12, 3000.0)).unwrap();
    let y = last(&tight);
    let err = (y[0] - golden[0]).abs().max((y[1] - golden[1]).abs());
    assert!(err < 1e-8, "tight error {err:e}");
}

#[test]
fn rodas_is_fourth_order_with_a_third_order_estimate() {
    let (p, errs) = observed_order("rodas", 0.02, 4, 1.0);
    println!("rodas order {p}, errors {errs:?}");
    assert!((p - 4.0).abs() < 0.2, "order {p}, errors {errs:?}");
    let (q, ests) = embedded_order_on_riccati("rodas", 0.1, 4);
    assert!((q - 4.0).abs() < 0.2, "estimate slope {q}, {ests:?}");
}

/// The dense output (Hairer & Wanner §VI.4) is of order 3: its midpoint error ∝ h⁴.
#[test]
fn rodas_dense_output_is_third_order() {
    let (p, errs) = dense_order("rodas", 0.2, 4);
    println!("rodas dense slope {p}, {errs:?}");
    assert!(p > 3.8, "dense slope {p}, {errs:?}");
}

/// Stiffly accurate and L-stable: R(z) → 0 as z → −∞; |R| ≤ 1 on the imaginary axis.
#[test]
fn rodas_is_l_stable() {
    use nalgebra::Complex;
    use odelab::method::rodas::amplification;
    let r_inf = amplification(Complex::new(-1e12, 0.0)).norm();
    assert!(r_inf < 1e-10, "|R(−1e12)| = {r_inf:e}");
    for k in 0..400 {
        let y = 10f64.powf(-3.0 + 0.02 * k as f64);
        let r = amplification(Complex::new(0.0, y)).norm();
        assert!(r <= 1.0 + 1e-12, "|R({y}i)| = {r}");
    }
    // R(z) = e^z + O(z⁵).
    let z = Complex::new(-0.01, 0.02);
    let d = (amplification(z) - z.exp()).norm();
    assert!(d < 1e-10, "{d:e}");
}

/// Per-component tolerances on a non-stiff Van der Pol (μ = 1): accurate to them.
#[test]
fn rodas_runs_with_tolerance_vectors_and_stays_accurate() {
    let mut s = adaptive("van-der-pol", "rodas", 1e-8, 1e-10, 2.0);
    s.params.insert("mu".into(), 1.0);
    s.atol = Some(Tol::PerComponent(vec![1e-10, 1e-10]));
    let sol = odelab::solve(&s).unwrap();
    let r = van_der_pol_mu1_reference();
    let err = last(&sol)
        .iter()
        .zip(&r)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(err < 1e-7, "error {err:e}");
}
