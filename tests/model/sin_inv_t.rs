//! The sin(1/t) rotation of Gil, Sanfelice & Nikravesh (LLM) eq. (35).

use super::common::{final_error, spec};
use odelab::model::{build, catalog};
use std::collections::BTreeMap;
use std::f64::consts::FRAC_1_PI;

/// The model declares t0 = 1/π; at t0 the exact solution is x(1/π) = [0, −1, 1/π]
/// (Gil, Sanfelice & Nikravesh (LLM) eq. (35)), which is the default y0, and it equals [sin(1/t), cos(1/t), t]
/// (eq. (36)) later on.
#[test]
fn sin_inv_t_exact_at_its_start_and_eq_36() {
    let info = catalog().into_iter().find(|m| m.id == "sin-inv-t").unwrap();
    assert_eq!(info.t0, FRAC_1_PI);
    let (_, model) = build("sin-inv-t", &BTreeMap::new()).unwrap();
    let mut x = [0.0; 3];
    assert!(model.exact(info.t0, &info.y0, info.t0, &mut x));
    assert!(
        x[0].abs() < 1e-15 && x[1] == -1.0 && x[2] == FRAC_1_PI,
        "{x:?}"
    );
    for t in [0.35, 0.5, 1.0, 2.7] {
        model.exact(info.t0, &info.y0, t, &mut x);
        let e = [(1.0 / t).sin(), (1.0 / t).cos(), t];
        for i in 0..3 {
            assert!((x[i] - e[i]).abs() < 1e-14, "t = {t}: {x:?} vs {e:?}");
        }
    }
}

/// The exact solution satisfies the ODE (central differences), from a start of its own.
#[test]
fn sin_inv_t_exact_satisfies_the_ode() {
    let (_, model) = build("sin-inv-t", &BTreeMap::new()).unwrap();
    let (t0, y0) = (0.4, [0.3, 0.8, 0.45]);
    for t in [0.41, 0.6, 1.5] {
        let d = 1e-6;
        let (mut yp, mut ym, mut y, mut f) = ([0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3]);
        model.exact(t0, &y0, t + d, &mut yp);
        model.exact(t0, &y0, t - d, &mut ym);
        model.exact(t0, &y0, t, &mut y);
        model.rhs(t, &y, &mut f);
        for i in 0..3 {
            let fd = (yp[i] - ym[i]) / (2.0 * d);
            assert!((fd - f[i]).abs() < 1e-7 * (1.0 + f[i].abs()), "t = {t}");
        }
    }
    // x3 crossing zero has no exact solution.
    let mut y = [0.0; 3];
    assert!(!model.exact(0.0, &[0.0, 1.0, -0.5], 1.0, &mut y));
}

/// rk4 from t0 = 1/π (given explicitly, as the driver does not read the model's t0
/// yet) to t = 1 converges to the exact solution at fourth order.
#[test]
fn sin_inv_t_rk4_converges_from_one_over_pi() {
    let mut errs = vec![];
    let hs = [0.01, 0.005, 0.0025];
    for h in hs {
        let mut s = spec("sin-inv-t", "rk4", h, 1.0);
        s.t0 = Some(FRAC_1_PI);
        let sol = odelab::solve(&s).unwrap();
        errs.push(final_error(&sol));
    }
    let slope = super::common::loglog_slope(&hs, &errs);
    eprintln!("sin-inv-t rk4 errors {errs:?}, slope {slope}");
    assert!(
        errs[2] < 1e-8 && (slope - 4.0).abs() < 0.3,
        "{errs:?} {slope}"
    );
}
