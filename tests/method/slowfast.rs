//! `slowfast` (Gil, Sanfelice & Nikravesh 2013 eqs. 43–47, corrected per the Sources panel's errata): order 1 on the linear
//! slow/fast test equation Gil, Sanfelice & Nikravesh 2013 eq. (50), stability where RK4 fails, partition errors.

use super::common::*;
use super::stiff_common::*;

#[test]
fn slowfast_order_one_on_linear_test_equation() {
    let (p, errs) = order_with("slowfast-linear", "slowfast", 0.005, 4, 1.0, None, &|_| {});
    println!("slowfast order {p}, errors {errs:?}");
    assert!((p - 1.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// α = 100 with λs = −1 + i: hλf = 100·h·(−1 + i) is far outside RK4's region at
/// h = 0.1, and slowfast stays bounded while RK4 blows up.
#[test]
fn slowfast_is_stable_where_rk4_is_not() {
    let sol = run("slowfast-linear", "slowfast", 0.1, 5.0);
    assert!(sol.stopped_by.is_none());
    assert!(final_error(&sol) < 0.05, "error {}", final_error(&sol));
    let rk4 = odelab::solve(&fixed("slowfast-linear", "rk4", 0.1, 5.0)).unwrap();
    assert!(rk4.stopped_by.is_some() || final_error(&rk4) > 1.0);
}

#[test]
fn slowfast_partition_errors() {
    let mut s = spec("van-der-pol", "slowfast", 0.01, 1.0);
    let msg = run_err(&s).to_string();
    assert!(msg.contains("needs the fast states"), "{msg}");
    s.fast = Some(vec![5]);
    let msg = run_err(&s).to_string();
    assert!(msg.contains("fast[0]"), "{msg}");
    s.fast = Some(vec![1]);
    assert!(odelab::solve(&s).is_ok());
}

/// the Sources panel's errata: Gil, Sanfelice & Nikravesh 2013 eq. (56) with M12 = (β/α)(e^{αξ} − 1) is the amplification matrix of
/// the step procedure (43)–(47) on eq. (50); one numerical step must reproduce it.
#[test]
fn slowfast_step_matches_amplification_matrix_of_eq_56() {
    use odelab::method::{create_with, MethodOptions};
    let (alpha, beta, lambda, h) = (100.0, 0.1, -1.0, 0.05);
    let params = [
        ("lambdaRe".to_string(), lambda),
        ("lambdaIm".to_string(), 0.0),
        ("alpha".to_string(), alpha),
        ("beta".to_string(), beta),
    ]
    .into_iter()
    .collect();
    let (_, model) = odelab::model::build("slowfast-linear", &params).unwrap();
    let options = MethodOptions {
        fast: vec![2, 3],
        ..Default::default()
    };
    let column = |y0: [f64; 4]| {
        let mut s = create_with("slowfast", 4, &options).unwrap();
        let mut y1 = [0.0; 4];
        s.step(
            model.as_ref(),
            0.0,
            &y0,
            h,
            &mut y1,
            &mut Default::default(),
        )
        .unwrap();
        (y1[0], y1[2])
    };
    let xi: f64 = h * lambda;
    let r = |s: f64| 1.0 + s + s * s / 2.0 + s.powi(3) / 6.0 + s.powi(4) / 24.0;
    let ea = (alpha * xi).exp();
    let m11 = r((1.0 - beta * beta) * xi) + beta * beta / alpha * (ea - 1.0)
        - beta * beta / (alpha * alpha) * (alpha * xi - ea + 1.0);
    let m12 = beta / alpha * (ea - 1.0) - beta.powi(3) / (alpha * alpha) * (alpha * xi - ea + 1.0);
    let s = alpha + beta * beta;
    let e = (s * xi).exp();
    let c = beta * (beta * beta - 1.0);
    let m21 =
        -beta * m11 + beta * e + c * (m11 - e) / s - c * (e - 1.0) * (m11 - 1.0) / (s * s * xi);
    let m22 = -beta * m12 + e + m12 * c / s - m12 * c * (e - 1.0) / (s * s * xi);
    let (a11, a21) = column([1.0, 0.0, 0.0, 0.0]);
    let (a12, a22) = column([0.0, 0.0, 1.0, 0.0]);
    for (got, want) in [(a11, m11), (a12, m12), (a21, m21), (a22, m22)] {
        assert!((got - want).abs() < 1e-13, "step {got} vs eq. (56) {want}");
    }
}

/// The particle's spring is linear: g_z is the same every step, and g_z⁻¹g_x f_z
/// vanishes (f_z only has a θ̇ row, g_x only a θ column), so A = g_z too. The step then
/// evaluates φ(h g_z) and φ(hA) once, and again only for the last step (the driver's
/// h = t1 − t there differs from 0.005 in its last bits), and factorises g_z once; six
/// f-evaluations per step as before.
#[test]
fn slowfast_evaluates_phi_and_lu_of_a_linear_fast_block_once() {
    let sol = odelab::solve(&fixed("pendulum-particle", "slowfast", 0.005, 1.0)).unwrap();
    let st = sol.stats;
    assert_eq!((st.nsteps, st.nfev, st.nlu), (200, 1200, 1));
    assert_eq!(st.nexpm, 4);
}

/// A slow pendulum driving a chain of `m` fast, damped diffusion cells, nonlinear
/// (`cube` = 1: g_z = k·tridiag(1, −2, 1) − c I − 3 diag(z²) changes every step) or
/// linear (`cube` = 0: one g_z, one LU).
fn fast_chain(m: usize, cube: u8) -> String {
    format!(
        "param M = {m}, k = 50, c = 1\n\
         x' = v\n\
         v' = -sin(x) + 0.1*z[1]\n\
         z[i]' = k*(z[i-1] - 2*z[i] + z[i+1]) - c*z[i] - {cube}*z[i]^3 + x for i = 1..M\n\
         z[0] = v\n\
         z[M+1] = 0\n\
         x(0) = 1, v(0) = 0\n\
         z[i](0) = sin(3*i/M) for i = 1..M\n\
         fast z"
    )
}

/// Above `DENSE_MAX_FAST` fast states the step's two φ-combinations go through a
/// Krylov subspace: on a 100-state fast block (over the threshold, small enough for
/// the dense path to run too) twenty steps agree with the dense φ-functions' to the
/// Krylov tolerance, relative to the state's size (1e-12 a combination; 1e-10 over
/// the run allows for the steps' propagation).
#[test]
fn slowfast_krylov_path_agrees_with_the_dense_path_above_the_threshold() {
    use odelab::method::slowfast::{SlowFast, DENSE_MAX_FAST};
    use odelab::method::Stepper;
    let m = 100;
    assert!(m > DENSE_MAX_FAST);
    let (info, model) =
        odelab::expr::build_user_system(&fast_chain(m, 1), &Default::default()).unwrap();
    let fast = info.fast.clone();
    assert_eq!(fast.len(), m);
    let n = info.dim;
    let run = |dense_max: usize| {
        let mut s = SlowFast::with_dense_max(n, &fast, Default::default(), dense_max).unwrap();
        let (mut y, mut y1) = (info.y0.clone(), vec![0.0; n]);
        let mut stats = odelab::Stats::default();
        for k in 0..20 {
            s.step(
                model.as_ref(),
                k as f64 * 0.01,
                &y,
                0.01,
                &mut y1,
                &mut stats,
            )
            .unwrap();
            std::mem::swap(&mut y, &mut y1);
        }
        (y, stats)
    };
    let (dense, dense_stats) = run(usize::MAX);
    let (krylov, krylov_stats) = run(DENSE_MAX_FAST);
    let size = dense.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let diff = dense
        .iter()
        .zip(&krylov)
        .fold(0.0f64, |a, (d, k)| a.max((d - k).abs()));
    println!("max |dense − krylov| = {diff:e} (state size {size})");
    assert!(diff <= 1e-10 * size, "differ by {diff:e}");
    // The two paths really differ: not the same bits.
    assert!(diff > 0.0);
    // Two combinations a step either way; the same f-evaluations.
    assert_eq!(krylov_stats.nexpm, 40);
    assert_eq!(krylov_stats.nfev, dense_stats.nfev);
}

/// A 500-state fast chain runs through the driver on the Krylov path (the dense path
/// squares 500 × 500 matrices for its φ-functions) and stays close to a finer run
/// of itself (h = 0.01 against 0.005). Linear, so that g_z is factorised once (a debug build's 500 × 500 LU
/// a step would make the test slow).
#[test]
fn slowfast_runs_a_500_state_fast_block() {
    let spec = |h: f64| odelab::spec::SolveSpec {
        system: Some(fast_chain(500, 0)),
        method: "slowfast".into(),
        h: Some(h),
        t1: Some(0.2),
        ..Default::default()
    };
    let coarse = odelab::solve(&spec(0.01)).unwrap();
    let fine = odelab::solve(&spec(0.005)).unwrap();
    assert!(coarse.stopped_by.is_none());
    assert_eq!((coarse.stats.nsteps, coarse.stats.nlu), (20, 1));
    assert_eq!(coarse.stats.nexpm, 40);
    let last = |s: &odelab::Solution| s.y[s.y.len() - s.dim..].to_vec();
    let (a, b) = (last(&coarse), last(&fine));
    let diff = a
        .iter()
        .zip(&b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
    println!("500 fast states: coarse vs fine {diff:e}");
    assert!(a.iter().all(|v| v.is_finite()));
    assert!(diff < 1e-4, "coarse and fine differ by {diff:e}");
}
