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
