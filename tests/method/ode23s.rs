//! `ode23s`, the modified Rosenbrock 2(3) pair of Shampine & Reichelt ("The MATLAB ODE
//! Suite", 1997, §3): a golden step, the same method as a Rosenbrock table, orders of the
//! solution, estimate and interpolant, L-stability, events, and the sparse path.

use super::common::*;
use super::stiff_common::*;
use odelab::method::{create, info, rosenbrock_tableau, Rosenbrock, Stepper};
use odelab::spec::{SolveSpec, Tol};
use odelab::stats::Stats;

/// One step of y' = −2ty² from t = 0.5, y = 0.8, h = 0.1 (exercises the h d T terms),
/// against the §3 formulas evaluated directly in Python floats:
/// y1 = 0.735184505269212, h/6 (k1 − 2k2 + k3) = 1.1880822249206354e-4.
#[test]
fn ode23s_golden_step() {
    let mut st = create("ode23s", 1).unwrap();
    let mut y1 = [0.0];
    let mut stats = Stats::default();
    st.step(&Riccati, 0.5, &[0.8], 0.1, &mut y1, &mut stats)
        .unwrap();
    assert!(
        (y1[0] - 0.735184505269212).abs() < 1e-15,
        "y1 = {:.17}",
        y1[0]
    );
    let e = st.error_estimate().unwrap()[0];
    assert!(
        (e.abs() - 1.1880822249206354e-4).abs() < 1e-17,
        "estimate {e:e}"
    );
    assert_eq!((stats.nfev, stats.njev, stats.nlu), (3, 1, 1));
}

/// The step written as a Rosenbrock table (γ = d, α21 = ½, γ21 = −d, α32 = 1,
/// γ31 = (e32 − 2)d, γ32 = −e32 d, b = (0, 1, 0), b̂ = (−⅙, 4/3, −⅙)), run by the generic
/// Rosenbrock loop with its products by J, gives the same y1 and estimate: the table
/// the ξ-plane draws is the method that runs.
#[test]
fn ode23s_equals_its_rosenbrock_table_form() {
    let tab = rosenbrock_tableau("ode23s").unwrap();
    let mut generic = Rosenbrock::new(info("ode23s").unwrap(), tab, 1, Default::default());
    let mut own = create("ode23s", 1).unwrap();
    let (mut a, mut b) = ([0.0], [0.0]);
    for h in [0.1, 0.03] {
        generic
            .step(&Riccati, 0.5, &[0.8], h, &mut a, &mut Stats::default())
            .unwrap();
        own.step(&Riccati, 0.5, &[0.8], h, &mut b, &mut Stats::default())
            .unwrap();
        assert!((a[0] - b[0]).abs() < 1e-15, "{a:?} {b:?}");
        let (ea, eb) = (
            generic.error_estimate().unwrap()[0],
            own.error_estimate().unwrap()[0],
        );
        assert!((ea.abs() - eb.abs()).abs() < 1e-16, "{ea:e} {eb:e}");
    }
    // L-stable: R(−∞) = 0 (numerator of degree 1 over (1 − dz)²).
    assert!(tab.stability(f64::NEG_INFINITY).abs() < 1e-15);
}

#[test]
fn ode23s_is_second_order_with_a_third_order_estimate_and_interpolant() {
    let (p, errs) = observed_order("ode23s", 0.02, 4, 1.0);
    println!("ode23s order {p}, errors {errs:?}");
    assert!((p - 2.0).abs() < 0.1, "order {p}, errors {errs:?}");
    // The estimate is O(h³).
    let (q, ests) = embedded_order_on_riccati("ode23s", 0.1, 4);
    assert!((q - 3.0).abs() < 0.15, "estimate slope {q}, {ests:?}");
    // The free interpolant: midpoint error O(h³).
    let (d, errs) = dense_order("ode23s", 0.1, 4);
    assert!((d - 3.0).abs() < 0.2, "dense slope {d}, {errs:?}");
}

/// First same as last: an adaptive run costs two f evaluations per attempted step, plus
/// F0 at the start and the two of the driver's choice of the first step (Hairer's
/// algorithm); a retry reuses F0. Its error control meets the tolerance on Van der Pol
/// μ = 1.
#[test]
fn ode23s_adaptive_run_is_fsal_and_meets_its_tolerance() {
    let mut s = adaptive("van-der-pol", "ode23s", 1e-6, 1e-8, 2.0);
    s.params.insert("mu".into(), 1.0);
    let sol = odelab::solve(&s).unwrap();
    let st = &sol.stats;
    assert_eq!(st.nfev, 3 + 2 * (st.naccept + st.nreject), "{st:?}");
    let r = van_der_pol_mu1_reference();
    let err = last(&sol)
        .iter()
        .zip(&r)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(err < 1e-4 && err > 1e-9, "error {err:e}");
    // Stiff: Van der Pol μ = 1000 over one relaxation, where an explicit pair crawls.
    let stiff = odelab::solve(&adaptive("van-der-pol", "ode23s", 1e-4, 1e-6, 1000.0)).unwrap();
    assert!(
        stiff.stopped_by.is_none() && stiff.stats.naccept < 5000,
        "{:?}",
        stiff.stats
    );
}

/// Events end steps on its interpolant: the bouncing balls' 24 contact switches on
/// [0, 2], each found to 1e-9 in Ψ, at dp45's times.
#[test]
fn ode23s_finds_the_bouncing_balls_contacts() {
    let ours = super::stiff_runs::contact_times("ode23s", None);
    let dp45 = super::stiff_runs::contact_times("dp45", None);
    assert_eq!(ours.len(), dp45.len());
    for ((a, i), (b, j)) in ours.iter().zip(&dp45) {
        assert_eq!(i, j);
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }
}

/// A big typed system runs on the sparse LU (the heat equation, N = 300, against its
/// semi-discrete exact solution).
#[test]
fn ode23s_solves_a_big_system_on_the_sparse_path() {
    let text = "param N = 300
u[i]' = (N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = sin(pi*i/(N+1))                      for i = 1..N";
    let s = SolveSpec {
        system: Some(text.into()),
        method: "ode23s".into(),
        t1: Some(0.05),
        rtol: Some(Tol::Scalar(1e-6)),
        atol: Some(Tol::Scalar(1e-9)),
        ..SolveSpec::default()
    };
    let sol = odelab::solve(&s).unwrap();
    let m = 301.0;
    let sn = odelab::math::sin(std::f64::consts::PI / (2.0 * m));
    let decay = odelab::math::exp(-4.0 * m * m * sn * sn * 0.05);
    let y = last(&sol);
    let worst = (1..=300)
        .map(|i| (y[i - 1] - odelab::math::sin(std::f64::consts::PI * i as f64 / m) * decay).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-4 * decay.max(1e-3), "error {worst:e}");
}
