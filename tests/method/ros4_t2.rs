//! `ros4-t2`: Negrut et al. 2003 Table 2 (a21 = 2.0, the Sources panel's errata), the transformed form
//! of ros4 without products with J. One step must agree with the Table 1 form to 1e-13.

use super::stiff_common::*;
use odelab::method::create;
use odelab::model;
use odelab::stats::Stats;
use std::collections::BTreeMap;

fn one_step(
    id: &str,
    sys: &dyn odelab::problem::System,
    t: f64,
    y: &[f64],
    h: f64,
) -> (Vec<f64>, Vec<f64>, Stats) {
    let mut stepper = create(id, y.len()).unwrap();
    let mut y1 = vec![0.0; y.len()];
    let mut stats = Stats::default();
    stepper.step(sys, t, y, h, &mut y1, &mut stats).unwrap();
    let err = stepper.error_estimate().unwrap().to_vec();
    (y1, err, stats)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The golden Riccati step (∂f/∂t term) and one step of the stiff RSDA double pendulum
/// and of the vehicle on its bump (non-autonomous): Table 2 = Table 1 to 1e-13, the
/// error estimates too, at the same cost (3 f, 1 J, 1 LU).
#[test]
fn ros4_table2_form_agrees_with_table1_on_one_step() {
    let (a, ea, sa) = one_step("ros4", &Riccati, 0.5, &[0.8], 0.1);
    let (b, eb, sb) = one_step("ros4-t2", &Riccati, 0.5, &[0.8], 0.1);
    println!(
        "riccati: Table 1 {a:?}, Table 2 {b:?}, diff {:e}",
        max_diff(&a, &b)
    );
    assert!(max_diff(&a, &b) < 1e-13);
    assert!(max_diff(&ea, &eb) < 1e-13);
    assert!((b[0] - 0.7352912959643092).abs() < 1e-13);
    assert_eq!((sa.nfev, sa.njev, sa.nlu), (sb.nfev, sb.njev, sb.nlu));
    for (id, t, h) in [
        ("double-pendulum-rsda", 0.0, 1e-3),
        ("vehicle-stiff", 0.52, 1e-3),
    ] {
        let (info, m) = model::build(id, &BTreeMap::new()).unwrap();
        let y0 = m.default_y0().unwrap_or(info.y0.clone());
        let (a, ea, _) = one_step("ros4", m.as_ref(), t, &y0, h);
        let (b, eb, _) = one_step("ros4-t2", m.as_ref(), t, &y0, h);
        let scale = a.iter().fold(1.0f64, |s, v| s.max(v.abs()));
        println!(
            "{id}: max |Table 1 − Table 2| = {:e} (scale {scale}), est diff {:e}",
            max_diff(&a, &b),
            max_diff(&ea, &eb)
        );
        assert!(max_diff(&a, &b) < 1e-13 * scale, "{id}");
        assert!(max_diff(&ea, &eb) < 1e-13 * scale, "{id}");
    }
}
