//! `vehicle-stiff` in body coordinates (chassis and two unsprung bodies on
//! translational joints, tyres on the road), augmented and state-space, against the
//! native half-car.

use super::formulations::{output, spec};
use odelab::Solution;

fn max(s: &[f64]) -> f64 {
    s.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

fn max_gap(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The paper's Fig. 4 run: 5 s at rtol = atol = 1e-6, hMax 5 ms (the bump lasts ~0.1 s
/// per wheel), output every 10 ms.
fn run(formulation: Option<&str>, method: &str) -> Solution {
    let mut s = spec("vehicle-stiff", formulation, method, 1e-6);
    s.h_max = Some(5e-3);
    s.t_eval = Some((0..=500).map(|i| i as f64 * 0.01).collect());
    odelab::solve(&s).unwrap()
}

#[test]
fn vehicle_state_space_and_augmented_agree_and_follow_the_native_half_car() {
    let native = run(None, "ros4");
    let aug = run(Some("augmented"), "ros4");
    let ss = run(Some("state-space"), "ros4");
    // Chassis height on the common tEval grid: y_c is state 1 of both body-coordinate
    // layouts (x_c, y_c, φ_c, …); the native state 0 is z = y_c − 0.71.
    let column = |r: &Solution, i: usize, shift: f64| -> Vec<f64> {
        assert_eq!(r.t_eval.len(), 501);
        (0..501).map(|k| r.y_eval[k * r.dim + i] + shift).collect()
    };
    let hn = column(&native, 0, 0.71);
    let (ha, hs) = (column(&aug, 1, 0.0), column(&ss, 1, 0.0));
    let (ha, hs, hn) = (&ha[..], &hs[..], &hn[..]);
    for (name, r) in [
        ("native", &native),
        ("augmented", &aug),
        ("state-space", &ss),
    ] {
        println!(
            "{name}: steps {} rejected {} nfev {} njev {} nlu {}",
            r.stats.naccept, r.stats.nreject, r.stats.nfev, r.stats.njev, r.stats.nlu
        );
        assert!(r.stopped_by.is_none(), "{name}: {:?}", r.warning);
    }
    let (gap_formulations, gap_native) = (max_gap(hs, ha), max_gap(hs, hn));
    let (drift_ss, drift_aug) = (
        max(output(&ss, "constraint |Φ|")),
        max(output(&aug, "constraint |Φ|")),
    );
    println!(
        "chassis height: max {:.6} m (native {:.6}), at t = 5 {:.7} (native {:.7}); \
         |state-space − augmented| ≤ {gap_formulations:e}, |state-space − native| ≤ \
         {gap_native:e}; max |Φ| state-space {drift_ss:e}, augmented {drift_aug:e}",
        max(hs),
        max(hn),
        hs[500],
        hn[500]
    );
    // The two formulations of one mechanism agree to the integration tolerance.
    assert!(gap_formulations < 1e-5);
    // The body model differs from the small-angle native one by O(θ²) and by reading
    // the road at each wheel's x (a pitching chassis moves its wheels by ~mm).
    assert!(gap_native < 2e-3);
    // The bump lifts the chassis by ~29 mm and it settles at the paper's 0.71 m.
    assert!(max(hs) > 0.735 && max(hs) < 0.745);
    assert!((hs[500] - 0.71).abs() < 1e-4);
    // State-space keeps Φ at round-off, augmented drifts.
    assert!(drift_ss < 1e-12);
    assert!(drift_aug > 1e-7);
    // The state-space run integrates the five independent coordinates of the default
    // partition, never re-partitions, and its Jacobian is analytic: one per step.
    let rep = ss.constraint.as_ref().unwrap();
    assert_eq!(rep.independent, ["xc", "yc", "φc", "yf", "yr"]);
    assert!(rep.repartitions.is_empty());
    assert_eq!(ss.stats.njev, ss.stats.naccept);
    // The vehicle drives: x_c = v t within a millimetre (no traction is modelled; only
    // the joints' reactions to the tilted tyre forces move it along).
    let xc = column(&ss, 0, 0.0);
    assert!(
        (xc[500] - 5.0 * 4.4704).abs() < 1e-3,
        "x_c(5) = {}",
        xc[500]
    );
    // The recorded chassis-height output is y_c.
    let out = output(&ss, "chassis height");
    assert_eq!(out[out.len() - 1], ss.y[ss.y.len() - ss.dim + 1]);
}

/// Stiff versus explicit in the state-space form: ros4 takes steps of milliseconds,
/// dp45 is held to |hλ| ≤ 3.3 by the suspension's eigenvalue near −2.6e5 (Negrut et al. 2003 §3.2).
#[test]
fn vehicle_state_space_ros4_against_dp45() {
    let mut stiff = spec("vehicle-stiff", Some("state-space"), "ros4", 1e-3);
    stiff.h_max = Some(5e-3);
    stiff.t1 = Some(0.2);
    let mut explicit = stiff.clone();
    explicit.method = "dp45".into();
    let (r, d) = (
        odelab::solve(&stiff).unwrap(),
        odelab::solve(&explicit).unwrap(),
    );
    println!(
        "t ∈ [0, 0.2]: ros4 {} steps, {} f-evals; dp45 {} steps, {} f-evals ({:.0}×)",
        r.stats.naccept,
        r.stats.nfev,
        d.stats.naccept,
        d.stats.nfev,
        d.stats.nfev as f64 / r.stats.nfev as f64
    );
    assert!(d.stats.nfev > 50 * r.stats.nfev);
}
