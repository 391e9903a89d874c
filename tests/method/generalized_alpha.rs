//! generalized-α (Chung & Hulbert 1993, in the form of Arnold & Brüls 2007), HHT-α
//! (Hilber, Hughes & Taylor 1977) and Newmark (1959) on second-order systems: their
//! orders, the average-acceleration rule's exact amplitude and period, and the checks of
//! `methodParams`.

use super::common::*;
use odelab::method::MethodParams;
use odelab::spec::SolveSpec;

fn with_params(mut s: SolveSpec, p: MethodParams) -> SolveSpec {
    s.method_params = Some(p);
    s
}

fn rho(r: f64) -> MethodParams {
    MethodParams {
        rho_inf: Some(r),
        ..Default::default()
    }
}

/// Observed order on the damped mass–spring–damper (c = 0.5, gravity, from rest: f
/// depends on q and q'), against its exact solution, h = 0.005 … 0.005/16 on [0, 2].
fn order_of(method: &str, p: MethodParams) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..5).map(|k| 0.005 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let s = with_params(fixed("mass-spring-damper", method, h, 2.0), p.clone());
            final_error(&odelab::solve(&s).unwrap())
        })
        .collect();
    (loglog_slope(&hs, &errs), errs)
}

#[test]
fn generalized_alpha_is_second_order_on_a_damped_oscillator() {
    for r in [0.0, 0.5, 0.9, 1.0] {
        let (p, errs) = order_of("generalized-alpha", rho(r));
        assert!(
            (p - 2.0).abs() < 0.15,
            "ρ∞ = {r}: order {p}, errors {errs:?}"
        );
    }
}

#[test]
fn hht_alpha_and_average_acceleration_newmark_are_second_order() {
    let hht = MethodParams {
        alpha: Some(-0.3),
        ..Default::default()
    };
    let (p, errs) = order_of("hht-alpha", hht);
    assert!((p - 2.0).abs() < 0.15, "HHT: order {p}, errors {errs:?}");
    let (p, errs) = order_of("newmark", MethodParams::default());
    assert!(
        (p - 2.0).abs() < 0.15,
        "Newmark: order {p}, errors {errs:?}"
    );
}

/// γ > ½ adds numerical damping at the price of an O(h) error (Hughes 1987 §9.1).
#[test]
fn newmark_with_gamma_above_one_half_is_first_order() {
    let p = MethodParams {
        gamma: Some(0.6),
        ..Default::default()
    };
    let (p, errs) = order_of("newmark", p);
    assert!((p - 1.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// On q'' = −ω²q the average-acceleration rule (β = ¼, γ = ½) is the trapezoidal rule on
/// (q, q'): in (ωq, q') a Cayley transform of a rotation generator, so every step
/// rotates by exactly Ω̄ = 2 arctan(Ω/2), Ω = ωh (tan(Ω̄/2) = Ω/2): no amplitude error,
/// period T̄ = T·Ω/Ω̄.
#[test]
fn newmark_average_acceleration_keeps_the_amplitude_and_has_the_trapezoidal_period() {
    let (omega, h, steps) = (10.0f64, 0.05, 2000usize);
    let mut s = fixed("mass-spring-damper", "newmark", h, h * steps as f64);
    for (k, v) in [("c", 0.0), ("g", 0.0), ("k", omega * omega)] {
        s.params.insert(k.into(), v);
    }
    s.y0 = Some(vec![1.0, 0.0]);
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.t.len(), steps + 1);
    let big_omega = omega * h;
    let omega_bar = 2.0 * (big_omega / 2.0).atan();
    for (n, y) in sol.y.chunks(2).enumerate() {
        let (q, v) = (y[0], y[1]);
        let amplitude = ((omega * q).powi(2) + v * v).sqrt() / omega;
        assert!(
            (amplitude - 1.0).abs() < 1e-12,
            "step {n}: amplitude {amplitude}"
        );
        let phase = n as f64 * omega_bar;
        assert!((q - phase.cos()).abs() < 1e-10, "step {n}: q {q}");
        assert!(
            (v + omega * phase.sin()).abs() < 1e-10 * omega,
            "step {n}: v {v}"
        );
    }
}

/// ρ∞ = 1 gives α_m = α_f = ½: the same method as the average-acceleration rule.
#[test]
fn generalized_alpha_with_rho_one_is_average_acceleration() {
    let a = odelab::solve(&with_params(
        fixed("pendulum", "generalized-alpha", 0.01, 3.0),
        rho(1.0),
    ))
    .unwrap();
    let b = odelab::solve(&fixed("pendulum", "newmark", 0.01, 3.0)).unwrap();
    for (x, y) in a.y.iter().zip(&b.y) {
        assert!((x - y).abs() < 1e-11, "{x} vs {y}");
    }
}

/// With ρ∞ = 0 a mode far above 1/h is damped out in a few steps; with average
/// acceleration it keeps its amplitude.
#[test]
fn rho_zero_damps_an_unresolved_frequency_newmark_keeps_it() {
    let run = |method: &str, p: MethodParams| {
        let mut s = with_params(fixed("mass-spring-damper", method, 0.1, 2.0), p);
        for (k, v) in [("c", 0.0), ("g", 0.0), ("k", 1e6)] {
            s.params.insert(k.into(), v);
        }
        s.y0 = Some(vec![1.0, 0.0]);
        let sol = odelab::solve(&s).unwrap();
        last(&sol)[0].abs() + last(&sol)[1].abs() / 1e3
    };
    assert!(run("generalized-alpha", rho(0.0)) < 1e-6);
    assert!(run("newmark", MethodParams::default()) > 0.5);
}

#[test]
fn one_newton_correction_suffices_on_a_linear_system() {
    let sol = odelab::solve(&fixed("mass-spring-damper", "generalized-alpha", 0.01, 1.0)).unwrap();
    assert_eq!(sol.stats.nsteps, 100);
    // One f at the start, then per step the predictor's residual and the check of the
    // exact Newton correction.
    assert_eq!(sol.stats.nfev, 1 + 2 * 100);
    assert_eq!(sol.stats.nlu, 100);
}

#[test]
fn parameters_out_of_range_are_refused_with_the_reason() {
    let msg = |s: SolveSpec| run_err(&s).to_string();
    let base = || fixed("pendulum", "generalized-alpha", 0.01, 1.0);
    let m = msg(with_params(base(), rho(1.5)));
    assert!(m.contains("rhoInf") && m.contains("between 0"), "{m}");
    let m = msg(with_params(
        fixed("pendulum", "hht-alpha", 0.01, 1.0),
        MethodParams {
            alpha: Some(-0.5),
            ..Default::default()
        },
    ));
    assert!(m.contains("−1/3"), "{m}");
    let m = msg(with_params(
        fixed("pendulum", "newmark", 0.01, 1.0),
        MethodParams {
            gamma: Some(0.4),
            ..Default::default()
        },
    ));
    assert!(m.contains("amplitude") && m.contains("grows"), "{m}");
    let m = msg(with_params(
        base(),
        MethodParams {
            beta: Some(0.25),
            ..Default::default()
        },
    ));
    assert!(m.contains("takes methodParams rhoInf, not beta"), "{m}");
    let m = msg(with_params(fixed("pendulum", "rk4", 0.01, 1.0), rho(0.5)));
    assert!(
        m.contains("methodParams are read by generalized-alpha"),
        "{m}"
    );
    let m = msg(fixed("robertson", "newmark", 0.01, 1.0));
    assert!(m.contains("second-order systems"), "{m}");
}

#[test]
fn unknown_method_params_keys_are_refused() {
    let json = r#"{"model":"pendulum","method":"generalized-alpha","h":0.01,
        "methodParams":{"rhoInfinity":0.5}}"#;
    let err = serde_json::from_str::<SolveSpec>(json)
        .unwrap_err()
        .to_string();
    assert!(err.contains("rhoInfinity"), "{err}");
}

/// A typed `x''` system runs with its AD Jacobian (∂f/∂q, ∂f/∂q').
#[test]
fn runs_a_typed_second_order_system() {
    let s = SolveSpec {
        system: Some("param w = 3\nx'' = -w^2*sin(x) - 0.1*x'\nx(0) = 1\nx'(0) = 0".into()),
        method: "generalized-alpha".into(),
        h: Some(0.01),
        t1: Some(5.0),
        method_params: Some(rho(0.5)),
        ..SolveSpec::default()
    };
    let a = odelab::solve(&s).unwrap();
    let fine = odelab::solve(&SolveSpec {
        method: "dp45".into(),
        rtol: Some(odelab::spec::Tol::Scalar(1e-11)),
        atol: Some(odelab::spec::Tol::Scalar(1e-11)),
        method_params: None,
        ..s.clone()
    })
    .unwrap();
    let err = (last(&a)[0] - last(&fine)[0]).abs();
    // h = 0.01, ω ≈ 3: a second-order error of a few 1e-3 at most.
    assert!(err < 5e-3, "error {err}");
}

/// Every second-order catalogue model runs with each of the three; the others are
/// refused with a reason, never a panic.
#[test]
fn runs_on_every_second_order_model_and_refuses_the_others() {
    for id in ["generalized-alpha", "hht-alpha", "newmark"] {
        for info in odelab::model::catalog() {
            let s = fixed(&info.id, id, 1e-3, info.t0 + 0.05);
            match odelab::solve(&s) {
                Ok(sol) => {
                    assert!(info.second_order, "{id} ran on {}", info.id);
                    assert!(sol.y.iter().all(|v| v.is_finite()), "{id} on {}", info.id);
                }
                Err(e) => {
                    let m = e.to_string();
                    assert!(
                        !info.second_order || m.contains("Newton") || m.contains("constraint"),
                        "{id} on {}: {m}",
                        info.id
                    );
                }
            }
        }
    }
}

/// The dense output (a cubic Hermite through (q, q') and (q', q̈) at both ends) has the
/// stated order on a step once the start-up has settled: the error at the midpoint of
/// the fortieth step against the exact solution through that step's own start is
/// O(h^(denseOrder + 1)) = O(h³).
#[test]
fn dense_output_has_the_stated_order_after_the_start() {
    for (id, p) in [
        ("generalized-alpha", rho(0.5)),
        (
            "hht-alpha",
            MethodParams {
                alpha: Some(-0.3),
                ..Default::default()
            },
        ),
        ("newmark", MethodParams::default()),
    ] {
        let hs: Vec<f64> = (0..4).map(|k| 0.01 / 2f64.powi(k)).collect();
        let errs: Vec<f64> = hs
            .iter()
            .map(|&h| {
                let s = with_params(fixed("mass-spring-damper", id, h, 40.0 * h), p.clone());
                let mut run = odelab::Integrator::new(&s).unwrap();
                let mut start = run.y().to_vec();
                let mut t = run.t();
                for _ in 0..40 {
                    start = run.y().to_vec();
                    t = run.t();
                    run.step().unwrap();
                }
                let mut mid = [0.0; 2];
                run.interpolate(t + 0.5 * h, &mut mid).unwrap();
                let (_, model) = odelab::model::build(&s.model, &s.params).unwrap();
                let mut exact = [0.0; 2];
                model.exact(t, &start, t + 0.5 * h, &mut exact);
                mid.iter()
                    .zip(&exact)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max)
            })
            .collect();
        let slope = loglog_slope(&hs, &errs);
        assert!(
            (slope - 3.0).abs() < 0.2,
            "{id}: slope {slope}, errors {errs:?}"
        );
    }
}

/// The undamped spring (k = 100, m = 1: ω = 10) from x = 1 under Newmark (β, γ) at
/// step h: the largest |x| over 2,000 steps.
fn newmark_peak(beta: f64, gamma: f64, h: f64) -> f64 {
    let mut s = fixed("mass-spring-damper", "newmark", h, 2000.0 * h);
    s.params = [("c".to_string(), 0.0), ("g".to_string(), 0.0)]
        .into_iter()
        .collect();
    s.y0 = Some(vec![1.0, 0.0]);
    let s = with_params(
        s,
        MethodParams {
            beta: Some(beta),
            gamma: Some(gamma),
            ..Default::default()
        },
    );
    let sol = odelab::solve(&s).unwrap();
    (0..sol.t.len())
        .map(|i| sol.y[i * sol.dim].abs())
        .fold(0.0, f64::max)
}

#[test]
fn newmark_below_half_gamma_is_stable_up_to_the_critical_omega_h_only() {
    use odelab::method::generalized_alpha::Coefficients;
    // Central difference (β = 0, γ = ½): ωh ≤ 2; average acceleration: no limit.
    assert_eq!(Coefficients::newmark_critical_omega_h(0.0, 0.5), Some(2.0));
    assert_eq!(Coefficients::newmark_critical_omega_h(0.25, 0.5), None);
    assert_eq!(Coefficients::newmark_critical_omega_h(0.3, 0.6), None);
    // β = 0.1, γ = 0.5: Ω_crit = 1/√0.15 ≈ 2.582; just below it the amplitude stays
    // bounded over 2,000 steps, just above it grows by orders of magnitude.
    let crit = Coefficients::newmark_critical_omega_h(0.1, 0.5).unwrap();
    assert!((crit - 1.0 / 0.15f64.sqrt()).abs() < 1e-15);
    let below = newmark_peak(0.1, 0.5, 0.99 * crit / 10.0);
    let above = newmark_peak(0.1, 0.5, 1.01 * crit / 10.0);
    println!("peak |x|: {below} at 0.99 Ω_crit, {above} at 1.01 Ω_crit");
    assert!(below < 20.0, "{below}");
    assert!(above > 1e3, "{above}");
}
