//! `llm`, Gil, Sanfelice & Nikravesh (LLM): exactness on linear problems, order 2, the local-error estimate of
//! eqs. (29)–(33) against the exact local error (Gil, Sanfelice & Nikravesh (LLM) Fig. 6), adaptive runs.

use super::common::*;
use super::stiff_common::*;
use odelab::method::create;
use odelab::stats::Stats;

/// One LLM step of `sys` from (0, y0) with step h.
fn one_step(sys: &dyn odelab::problem::System, y0: &[f64], h: f64) -> (Vec<f64>, Vec<f64>) {
    let mut s = create("llm", y0.len()).unwrap();
    let mut y1 = vec![0.0; y0.len()];
    s.step(sys, 0.0, y0, h, &mut y1, &mut Stats::default())
        .unwrap();
    (y1, s.error_estimate().unwrap().to_vec())
}

/// Gil, Sanfelice & Nikravesh (LLM) §1: R(ξ) = e^ξ, for real hλ down to −100, to 1e-12 relative to |y_n| (the
/// increment form of src/method/llm.rs rounds at ε|y_n|, so where e^{hλ} < 1e-12 the
/// step returns ~0, not e^{hλ} y_n to full relative precision; the rearranged form that
/// did cancelled catastrophically on stiff nonlinear problems).
#[test]
fn llm_exact_on_real_test_equation() {
    let mut worst: f64 = 0.0;
    for &hl in &[-100.0, -50.0, -10.0, -1.0, -1e-3, 0.0] {
        for &h in &[1e-3, 0.1, 1.0, 10.0] {
            let sys = Rotation { a: hl / h, b: 0.0 };
            let (y1, _) = one_step(&sys, &[1.0, 0.0], h);
            let exact = f64::exp(hl);
            let rel = (y1[0] - exact).abs();
            worst = worst.max(rel);
            assert!(rel <= 1e-12, "hλ = {hl}, h = {h}: relative error {rel:e}");
            assert_eq!(y1[1], 0.0);
        }
    }
    println!("LLM real λ: worst relative error {worst:e}");
}

/// Complex λ = a + ib as the 2 × 2 rotation block, |hλ| ≤ 100, relative to |y_n| = 1
/// (see the real case).
#[test]
fn llm_exact_on_complex_test_equation() {
    let mut worst: f64 = 0.0;
    for &(ha, hb) in &[
        (0.0, 100.0),
        (0.0, 1.0),
        (-1.0, 10.0),
        (-60.0, 80.0),
        (-10.0, 50.0),
        (-0.5, -3.0),
    ] {
        let h = 0.1;
        let sys = Rotation {
            a: ha / h,
            b: hb / h,
        };
        let (y1, _) = one_step(&sys, &[1.0, 0.0], h);
        let mag = f64::exp(ha);
        let exact = [mag * f64::cos(hb), mag * f64::sin(hb)];
        let rel = ((y1[0] - exact[0]).powi(2) + (y1[1] - exact[1]).powi(2)).sqrt();
        worst = worst.max(rel);
        assert!(rel <= 1e-12, "hλ = {ha} + {hb}i: relative error {rel:e}");
    }
    println!("LLM complex λ: worst relative error {worst:e}");
}

/// Global order 2 on Gil, Sanfelice & Nikravesh (LLM) eq. (35) (`sin-inv-t`, nonlinear, exact solution).
#[test]
fn llm_order_two() {
    let t1 = 1.0;
    let hs: Vec<f64> = (0..4).map(|k| 0.02 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&odelab::solve(&fixed("sin-inv-t", "llm", h, t1)).unwrap()))
        .collect();
    let p = loglog_slope(&hs, &errs);
    println!("LLM order on sin-inv-t: {p}, errors {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// Gil, Sanfelice & Nikravesh (LLM) Fig. 6: the estimate of eqs. (29)–(33) against the exact local error of one step
/// of eq. (35) from t0 = 1/π, x = (0, −1, 1/π), for h from 0.1 down to 0.001.
#[test]
fn llm_error_estimate_tracks_exact_local_error() {
    let (info, model) = odelab::model::build("sin-inv-t", &Default::default()).unwrap();
    let t0 = std::f64::consts::FRAC_1_PI;
    let y0 = info.y0.clone();
    let mut ratios = Vec::new();
    for &h in &[0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001] {
        let mut s = create("llm", 3).unwrap();
        let mut y1 = [0.0; 3];
        s.step(model.as_ref(), t0, &y0, h, &mut y1, &mut Stats::default())
            .unwrap();
        let mut exact = [0.0; 3];
        model.exact(t0, &y0, t0 + h, &mut exact);
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let true_err: Vec<f64> = exact.iter().zip(&y1).map(|(e, y)| e - y).collect();
        let ratio = norm(s.error_estimate().unwrap()) / norm(&true_err);
        ratios.push((h, ratio));
        if h <= 0.01 {
            assert!(
                (ratio - 1.0).abs() <= 0.2,
                "h = {h}: estimate/exact = {ratio}"
            );
        }
    }
    println!("LLM estimate/exact local error: {ratios:?}");
    // the Sources panel's errata: 0.87 at h = 0.1.
    assert!((ratios[0].1 - 0.87).abs() < 0.03, "{ratios:?}");
}

/// Gil, Sanfelice & Nikravesh (LLM) eq. (18): the dense output is the same exponential formula at θh, so on a linear
/// problem it is exact inside the step too.
#[test]
fn llm_dense_output_is_exact_on_linear_problems() {
    let sys = Rotation { a: -3.0, b: 40.0 };
    let mut s = create("llm", 2).unwrap();
    let mut y1 = [0.0; 2];
    let mut stats = Stats::default();
    s.step(&sys, 0.0, &[1.0, 0.0], 0.5, &mut y1, &mut stats)
        .unwrap();
    for theta in [0.1, 0.37, 0.5, 0.9] {
        let mut out = [0.0; 2];
        s.dense_output(&sys, theta, &mut out, &mut stats).unwrap();
        let tau = theta * 0.5;
        let mag = f64::exp(-3.0 * tau);
        let exact = [mag * f64::cos(40.0 * tau), mag * f64::sin(40.0 * tau)];
        for (o, e) in out.iter().zip(&exact) {
            assert!(
                (o - e).abs() < 1e-14 * mag.max(1e-300) * 10.0,
                "θ = {theta}: {out:?} vs {exact:?}"
            );
        }
    }
    // One φ evaluation for the step and its error estimate, one per dense point.
    assert_eq!(stats.nexpm, 1 + 4);
}

/// Gil, Sanfelice & Nikravesh (LLM) §5: EPUS with k = 2 (k = q for a per-unit-step controller with q = 2), safety
/// 0.9 and the PI controller of eq. (40): an adaptive run on eq. (35) meets its
/// tolerance at t1.
#[test]
fn llm_adaptive_epus_pi_on_sin_inv_t() {
    let mut s = adaptive("sin-inv-t", "llm", 1e-6, 1e-8, 1.0);
    s.controller = Some(odelab::spec::ControllerSpec {
        kind: Some("pi".into()),
        per_unit_step: Some(true),
        safety: Some(0.9),
        ..Default::default()
    });
    let c = s
        .controller(odelab::method::info("llm").unwrap().embedded_order.unwrap())
        .unwrap();
    assert_eq!(c.k, 2.0);
    let sol = odelab::solve(&s).unwrap();
    println!(
        "llm EPUS+PI on sin-inv-t: {:?}, final error {:e}",
        sol.stats,
        final_error(&sol)
    );
    assert!(sol.stopped_by.is_none());
    assert!(final_error(&sol) < 1e-4, "{}", final_error(&sol));
    let eps = odelab::solve(&adaptive("sin-inv-t", "llm", 1e-6, 1e-8, 1.0)).unwrap();
    println!(
        "llm EPS+I on sin-inv-t: {:?}, final error {:e}",
        eps.stats,
        final_error(&eps)
    );
    // Error per step lets the global error accumulate over the steps (Gil, Sanfelice & Nikravesh (LLM) §5).
    assert!(final_error(&eps) < 5e-4, "{}", final_error(&eps));
}

/// Non-autonomous via f_t (Gil, Sanfelice & Nikravesh (LLM) eq. 2): on y' = λy + ct the linearisation is f itself,
/// so ten LLM steps are exact to round-off; without the f_t column they would not be.
#[test]
fn llm_exact_on_affine_non_autonomous_problem() {
    let sys = Affine {
        lambda: -20.0,
        c: 3.0,
    };
    let mut s = create("llm", 1).unwrap();
    let (mut t, mut y, h) = (0.0, [1.0], 0.25);
    let mut stats = Stats::default();
    for _ in 0..10 {
        let mut y1 = [0.0];
        s.step(&sys, t, &y, h, &mut y1, &mut stats).unwrap();
        t += h;
        y = y1;
    }
    let exact = sys.exact(1.0, t);
    assert!(
        ((y[0] - exact) / exact).abs() < 1e-13,
        "{} vs {exact}",
        y[0]
    );
}

/// Order 2 on the non-autonomous nonlinear y' = −2ty² (one step from the exact
/// solution, local error h³).
#[test]
fn llm_local_order_three_on_riccati() {
    let hs: Vec<f64> = (0..4).map(|k| 0.1 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let mut s = create("llm", 1).unwrap();
            let mut y1 = [0.0];
            s.step(&Riccati, 0.5, &[0.8], h, &mut y1, &mut Stats::default())
                .unwrap();
            (y1[0] - riccati_exact(0.5, 0.8, 0.5 + h)).abs()
        })
        .collect();
    let p = loglog_slope(&hs, &errs);
    println!("llm local error slope on Riccati {p}, {errs:?}");
    assert!((p - 3.0).abs() < 0.15, "{p}, {errs:?}");
}
