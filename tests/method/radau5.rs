//! `radau5`, Radau IIA of order 5 (Hairer–Wanner II §IV.8): order 5 on the fixed grid,
//! stage order 3 and the order conditions of its tableau, the transformation of A⁻¹ it
//! solves with, L-stability of R(z) computed from the tableau, one exact step on the
//! test equation, pinned work on Van der Pol μ = 1000 (RADAU5's step-size policy and
//! tolerance calibration, or a named controller), events, tEval and user systems.

use super::common::*;
use super::stiff_common::*;
use nalgebra::Matrix3;
use odelab::method::create;
use odelab::method::radau5::{A, ALPHA, B, BETA, C, GAMMA, T, TI};
use odelab::stability::rational::Rational;
use odelab::stats::Stats;

/// Reference y(3000) for μ = 1000, y(0) = (2, 0) (as `stiff_vdp.rs`).
const Y_3000: [f64; 2] = [-1.51060693674397, 1.1783800007312e-3];

fn rows(m: &[[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_fn(|i, j| m[i][j])
}

/// The (2, 3) Padé approximant of e^z, which R(z) of Radau IIA s = 3 is (Hairer–Wanner
/// II Thm. IV.5.3): (1 + 2z/5 + z²/20) / (1 − 3z/5 + 3z²/20 − z³/60).
fn pade_23(z: f64) -> f64 {
    (1.0 + 2.0 * z / 5.0 + z * z / 20.0)
        / (1.0 - 3.0 * z / 5.0 + 3.0 * z * z / 20.0 - z * z * z / 60.0)
}

#[test]
fn radau5_has_order_five_on_the_fixed_grid() {
    let (p, errs) = observed_order("radau5", 0.1, 4, 1.0);
    println!("radau5 order {p}, errors {errs:?}");
    assert!((p - 5.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// Stage order 3: Σⱼ aᵢⱼ cⱼ^(k−1) = cᵢ^k/k for k = 1, 2, 3 (C(3)) and not k = 4; the
/// weights integrate polynomials of degree ≤ 4 exactly (B(5)), not degree 5.
#[test]
fn radau5_tableau_has_stage_order_three_and_quadrature_order_five() {
    let c_residual = |k: i32| {
        (0..3)
            .map(|i| {
                let lhs: f64 = (0..3).map(|j| A[i][j] * C[j].powi(k - 1)).sum();
                (lhs - C[i].powi(k) / k as f64).abs()
            })
            .fold(0.0, f64::max)
    };
    for k in 1..=3 {
        assert!(c_residual(k) < 1e-15, "C({k}): {:e}", c_residual(k));
    }
    assert!(c_residual(4) > 1e-4, "C(4) holds: stage order would be 4");
    let b_residual = |k: i32| {
        let lhs: f64 = (0..3).map(|j| B[j] * C[j].powi(k - 1)).sum();
        (lhs - 1.0 / k as f64).abs()
    };
    for k in 1..=5 {
        assert!(b_residual(k) < 1e-15, "B({k}): {:e}", b_residual(k));
    }
    assert!(b_residual(6) > 1e-5);
    // The collocation polynomial (dense output) has the stage order: its error at a
    // step's midpoint is O(h⁴) (slope ≥ 4 on this linear problem).
    let (q, errs) = dense_order("radau5", 0.1, 4);
    println!("radau5 dense-output slope {q}, {errs:?}");
    assert!(q > 3.85, "dense slope {q}, {errs:?}");
}

/// T and T⁻¹ of `radau5.f` are inverse and bring A⁻¹ to diag(γ̂, [[α, −β], [β, α]]).
#[test]
fn radau5_transformation_brings_a_inverse_to_its_real_and_complex_eigenvalues() {
    let (t, ti) = (rows(&T), rows(&TI));
    assert!((t * ti - Matrix3::identity()).abs().max() < 1e-15);
    let a_inv = rows(&A).try_inverse().unwrap();
    let lambda = ti * a_inv * t;
    let expected = Matrix3::new(GAMMA, 0.0, 0.0, 0.0, ALPHA, -BETA, 0.0, BETA, ALPHA);
    let worst = (lambda - expected).abs().max();
    assert!(worst < 1e-13, "T⁻¹A⁻¹T = {lambda}");
}

/// R(z) = det(I − zA + z1bᵀ)/det(I − zA) from the tableau is the (2, 3) Padé
/// approximant: |R(−∞)| = 0 (the cubic numerator coefficient vanishes to rounding),
/// |R| ≤ 1 on the imaginary axis (A-stable), hence L-stable.
#[test]
fn radau5_stability_function_from_the_tableau_is_l_stable() {
    let a: Vec<Vec<f64>> = A.iter().map(|r| r.to_vec()).collect();
    let r = Rational::from_full(&a, &B);
    let expected_num = [1.0, 2.0 / 5.0, 1.0 / 20.0, 0.0];
    let expected_den = [1.0, -3.0 / 5.0, 3.0 / 20.0, -1.0 / 60.0];
    for k in 0..4 {
        assert!(
            (r.num[k] - expected_num[k]).abs() < 1e-15,
            "N = {:?}",
            r.num
        );
        assert!(
            (r.den[k] - expected_den[k]).abs() < 1e-15,
            "D = {:?}",
            r.den
        );
    }
    let r_inf = r.modulus_at_infinity();
    println!("radau5 |R(−∞)| = {r_inf:e}");
    assert!(r_inf < 1e-13, "|R(−∞)| = {r_inf:e}");
    for k in 0..=120 {
        let y = 10f64.powf(-3.0 + 0.05 * k as f64);
        let v = r.modulus(nalgebra::Complex::new(0.0, y));
        assert!(v <= 1.0 + 1e-14, "|R({y}i)| = {v}");
    }
    let amp = odelab::stability::Amplification::from_spec(&odelab::stability::StabilitySpec {
        method: "radau5".into(),
        ..Default::default()
    })
    .unwrap();
    assert!(amp.value_at_infinity() < 1e-13);
}

/// On y' = λy with the exact Jacobian the simplified Newton iteration is Newton's
/// method on a linear system: one step is R(hλ) y₀ to rounding, even at hλ = −100.
#[test]
fn radau5_step_on_the_test_equation_is_its_stability_function() {
    for hl in [-0.5, -5.0, -100.0] {
        let sys = Rotation {
            a: hl / 0.1,
            b: 0.0,
        };
        let mut stepper = create("radau5", 2).unwrap();
        let mut y1 = [0.0; 2];
        let mut stats = Stats::default();
        stepper
            .step(&sys, 0.0, &[1.0, 0.0], 0.1, &mut y1, &mut stats)
            .unwrap();
        let want = pade_23(hl);
        assert!(
            (y1[0] - want).abs() < 1e-14,
            "hλ = {hl}: {} vs {want}",
            y1[0]
        );
        // f at the start, two Newton iterations of 3 (the second confirms
        // convergence), the refined estimate of a first step; one J, two LUs.
        assert_eq!(
            (stats.nfev, stats.nnewton, stats.njev, stats.nlu),
            (8, 2, 1, 2),
            "hλ = {hl}"
        );
    }
}

/// Van der Pol μ = 1000 on [0, 3000], rtol 1e-6, atol 1e-8 (the stiff case and
/// `bench/cases.json`'s): with RADAU5's own step-size policy (predictive controller,
/// keep-h band, Newton-failure factor) and tolerance calibration, the work is within
/// 1.5× of Hairer's RADAU5 (5,421 f-evaluations, the figure; 8,131 is 1.5×) and
/// the error at t = 3000 stays below rtol. Counted like RADAU5's NFCN: f at each step's
/// start, 3 per Newton iteration, 1 per refined estimate (the Jacobian is analytic).
/// `nlu` counts the real and the complex LU separately (RADAU5's NDEC counts the pair).
#[test]
fn radau5_on_van_der_pol_needs_at_most_one_and_a_half_times_radau5_f_evaluations() {
    let mut s = adaptive("van-der-pol", "radau5", 1e-6, 1e-8, 3000.0);
    s.params.insert("mu".into(), 1000.0);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.stopped_by.is_none(), "{:?}", sol.warning);
    let y = last(&sol);
    let err = (y[0] - Y_3000[0]).abs().max((y[1] - Y_3000[1]).abs());
    println!("radau5 vdp: {:?}, error {err:e}", sol.stats);
    assert!(err < 1e-6, "error {err:e}");
    let st = sol.stats;
    assert!(st.nfev <= 8131, "{st:?}");
    assert_eq!(
        (st.naccept, st.nreject, st.nfev, st.njev, st.nlu, st.nnewton),
        (655, 13, 5428, 429, 1126, 1590)
    );
    // The keep-h band and J reuse: fewer LU pairs than steps.
    assert!(st.nlu / 2 < st.nsteps, "{st:?}");
}

/// A spec that names a controller gets it: the run's elementary controller replaces
/// RADAU5's policy (the tolerance calibration, a property of the estimate, stays), and
/// takes more steps and rejections on the same case.
#[test]
fn radau5_with_a_named_controller_uses_the_runs_controller() {
    let mut s = adaptive("van-der-pol", "radau5", 1e-6, 1e-8, 3000.0);
    s.params.insert("mu".into(), 1000.0);
    s.controller = Some(odelab::spec::ControllerSpec {
        kind: Some("i".into()),
        ..Default::default()
    });
    let sol = odelab::solve(&s).unwrap();
    let y = last(&sol);
    let err = (y[0] - Y_3000[0]).abs().max((y[1] - Y_3000[1]).abs());
    println!(
        "radau5 vdp, elementary controller: {:?}, error {err:e}",
        sol.stats
    );
    assert!(err < 1e-6, "error {err:e}");
    let st = sol.stats;
    assert_eq!((st.naccept, st.nreject, st.nfev), (706, 164, 6869));
}

/// RADAU5's tolerance calibration: rtol' = 0.1·rtol^(2/3), atol' = atol·rtol'/rtol,
/// per component (rtol 1e-6 → 1e-5, atol 1e-8 → 1e-7).
#[test]
fn radau5_measures_its_estimate_against_radau5s_calibrated_tolerance() {
    let stepper = create("radau5", 2).unwrap();
    let run = odelab::control::Tolerance::new(vec![1e-6, 1e-9], vec![1e-8, 0.0]).unwrap();
    let tol = stepper.error_tolerance(&run);
    assert!((tol.rtol[0] - 1e-5).abs() < 1e-19, "{tol:?}");
    assert!((tol.atol[0] - 1e-7).abs() < 1e-21, "{tol:?}");
    assert!((tol.rtol[1] - 1e-7).abs() < 1e-21, "{tol:?}");
    assert_eq!(tol.atol[1], 0.0);
    // Every other method is measured against the run's tolerance itself.
    assert_eq!(create("ros4", 2).unwrap().error_tolerance(&run), run);
}

/// Events through the dense output: the 24 contact switches of the two bouncing
/// balls on [0, 2] at the same times as dp45.
#[test]
fn radau5_finds_the_contact_events_of_dp45() {
    let reference = super::stiff_runs::contact_times("dp45", None);
    let radau = super::stiff_runs::contact_times("radau5", None);
    assert_eq!(radau.len(), reference.len());
    for (a, b) in radau.iter().zip(&reference) {
        assert_eq!(a.1, b.1);
        assert!((a.0 - b.0).abs() < 1e-5, "radau5 {a:?} vs dp45 {b:?}");
    }
}

/// tEval through the collocation polynomial on a user system (AD Jacobian): the
/// requested points agree with the exact solution of the damped oscillator.
#[test]
fn radau5_t_eval_on_a_user_system_follows_the_exact_solution() {
    let text = "x' = v\nv' = -4*x - 0.2*v\nx(0) = 1, v(0) = 0";
    let mut s = adaptive("", "radau5", 1e-9, 1e-12, 5.0);
    s.system = Some(text.into());
    s.t_eval = Some((0..=50).map(|k| 0.1 * k as f64).collect());
    let sol = odelab::solve(&s).unwrap();
    assert_eq!(sol.t_eval.len(), 51);
    // x = e^{−0.1t}(cos ωt + 0.1/ω sin ωt), ω = √(4 − 0.01).
    let w = (4.0f64 - 0.01).sqrt();
    for (k, &t) in sol.t_eval.iter().enumerate() {
        let exact = (-0.1 * t).exp() * ((w * t).cos() + 0.1 / w * (w * t).sin());
        let got = sol.y_eval[2 * k];
        assert!((got - exact).abs() < 2e-7, "t = {t}: {got} vs {exact}");
    }
}

/// A Newton iteration that converges too slowly proposes RADAU5's retry factor
/// 0.8·q^(−1/(4 + iterations left)) (q ∈ [1, 20], here after 2 of 7 iterations:
/// within [0.8·20^(−1/8), 0.8]); one that diverges proposes h/2. Neither is the run
/// controller's facMin 0.2. (Riccati y' = −2ty² from y(1) = 1, at RADAU5's FNEWT for
/// rtol 1e-6.)
#[test]
fn radau5_retries_a_failed_newton_iteration_at_radau5s_factor() {
    let factor = |h: f64| {
        let mut stepper = create("radau5", 1).unwrap();
        let run = odelab::control::Tolerance::uniform(1e-6, 1e-8, 1).unwrap();
        let tol = stepper.error_tolerance(&run);
        stepper.set_tolerance(&tol);
        let mut y1 = [0.0];
        let mut stats = Stats::default();
        let r = stepper.step(&Riccati, 1.0, &[1.0], h, &mut y1, &mut stats);
        assert!(
            matches!(
                r,
                Err(odelab::error::OdeError::NewtonFailed { iterations: 2, .. })
            ),
            "h = {h}: {r:?}"
        );
        stepper.step_control().unwrap().after_failure(h) / h
    };
    let slow = factor(2.0);
    println!("radau5 Newton retry factor at h = 2: {slow}");
    assert!(
        slow >= 0.8 * 20f64.powf(-1.0 / 8.0) && slow <= 0.8,
        "{slow}"
    );
    assert!((slow - 0.618468680580857).abs() < 1e-12, "{slow}");
    assert_eq!(factor(10.0), 0.5);
}
