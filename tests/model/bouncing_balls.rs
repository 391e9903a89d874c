//! The two bouncing balls of Gil, Sanfelice & Nikravesh (LLM) §3 (eqs. 19–21): energy, contact events, and the
//! energy drift with and without cutting the step at each switch.

use super::common::*;
use odelab::model::build;
use odelab::solve;
use odelab::spec::SolveSpec;
use std::collections::BTreeMap;

fn run(spec: &SolveSpec) -> odelab::Solution {
    solve(spec).expect("a valid spec solves")
}

fn with_events(mut s: SolveSpec) -> SolveSpec {
    s.events = watch(&["psi1", "psi2"]);
    s
}

/// Ψ1, Ψ2 of eq. (19) at a state.
fn psi(y: &[f64]) -> [f64; 2] {
    [0.2 - (y[0] - y[1]), 0.1 - y[1]]
}

#[test]
fn energy_at_rest_is_the_potential_energy() {
    let (info, model) = build("bouncing-balls", &BTreeMap::new()).unwrap();
    assert_eq!(info.y0, [1.0, 0.5, 0.0, 0.0]);
    let mut e = [0.0];
    model.outputs(0.0, &info.y0, &mut e);
    assert!((e[0] - 9.81 * 1.5).abs() < 1e-12);
    // In contact the penalty spring stores ½ K Ψ².
    model.outputs(0.0, &[1.0, 0.09, 0.0, 0.0], &mut e);
    assert!((e[0] - (9.81 * 1.09 + 0.5 * 1e5 * 1e-4)).abs() < 1e-9);
}

#[test]
fn switching_functions_are_declared_and_evaluated() {
    let (info, model) = build("bouncing-balls", &BTreeMap::new()).unwrap();
    let ids: Vec<_> = info.events.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["psi1", "psi2"]);
    let y = [0.35, 0.12, 0.0, 0.0];
    assert_eq!(model.event(0, 0.0, &y), psi(&y)[0]);
    assert_eq!(model.event(1, 0.0, &y), psi(&y)[1]);
}

/// Every contact start and end is located: 34 events in 3 s with dp45 at rtol = 1e-8
/// (17 contacts). Each one has |Ψ| ≤ 1e-10 m (closing speeds are a few m/s, so the
/// time is right to ~1e-11 s), and for each function starts (bodies closing) and ends
/// (separating) alternate.
#[test]
fn every_contact_start_and_end_is_located() {
    let sol = run(&with_events(adaptive(
        "bouncing-balls",
        "dp45",
        1e-8,
        1e-10,
        3.0,
    )));
    assert_eq!(sol.events.len(), 34);
    let mut expect_start = [true, true];
    for e in &sol.events {
        let g = psi(&e.y)[e.index];
        assert!(g.abs() < 1e-10, "{e:?}: Ψ = {g}");
        // dΨ1/dt = −(v1 − v2), dΨ2/dt = −v2: positive while the contact starts.
        let dpsi = if e.index == 0 {
            e.y[3] - e.y[2]
        } else {
            -e.y[3]
        };
        assert_eq!(dpsi > 0.0, expect_start[e.index], "{e:?}");
        expect_start[e.index] = !expect_start[e.index];
    }
    assert_eq!(
        expect_start,
        [true, true],
        "every contact that started ended"
    );
    let per_fn = |i| sol.events.iter().filter(|e| e.index == i).count();
    assert_eq!((per_fn(0), per_fn(1)), (16, 18));
}

/// Gil, Sanfelice & Nikravesh (LLM) §3: ODE45 "contains significant error which can be observed in the plot of
/// total energy variation". With dp45 at MATLAB's default tolerances (rtol = 1e-3,
/// atol = 1e-6) the energy drifts by 8.1 % over 3 s; cutting the step at every switch
/// brings that to 0.56 %. At rtol = 1e-6: 1.6e-4 without, 2.0e-5 with events.
#[test]
fn events_cut_the_energy_drift_of_adaptive_dp45() {
    let base = adaptive("bouncing-balls", "dp45", 1e-3, 1e-6, 3.0);
    let without = max_relative_drift(&run(&base), "energy");
    let with = max_relative_drift(&run(&with_events(base)), "energy");
    assert!(without > 0.05, "without events {without}");
    assert!(with < without / 10.0, "with {with}, without {without}");

    let base = adaptive("bouncing-balls", "dp45", 1e-6, 1e-9, 3.0);
    let without = max_relative_drift(&run(&base), "energy");
    let with = max_relative_drift(&run(&with_events(base)), "energy");
    assert!(with < without / 5.0, "with {with}, without {without}");
}

/// On a fixed grid the effect is larger: a step across a switch sees a kink in f and
/// loses its order. dp45 at h = 1e-3: 2.9e-3 without, 6.6e-5 with events; RK4 at
/// h = 5e-4: 1.4e-3 without, 6.7e-5 with.
#[test]
fn events_cut_the_energy_drift_on_a_fixed_grid() {
    for (method, h, factor) in [("dp45", 1e-3, 30.0), ("rk4", 5e-4, 15.0)] {
        let base = fixed("bouncing-balls", method, h, 3.0);
        let without = max_relative_drift(&run(&base), "energy");
        let with = max_relative_drift(&run(&with_events(base)), "energy");
        assert!(
            with * factor < without,
            "{method}: with {with}, without {without}"
        );
    }
}

/// The two balls' exact motion (Gil, Sanfelice & Nikravesh (LLM) eqs. 19–21 with the default g, K, R): between
/// switches the system is affine, z' = A z + b, so z(t_s + τ) = e^{Mτ} (z_s, 1) with the
/// 5 × 5 block M = [[A, b], [0, 0]], taken from the last switch (no error accumulates
/// within a regime). A switch is found by sampling Ψ1, Ψ2 every 1e-4 s (a contact lasts
/// ≥ 7 ms, so no sign change falls between samples) and bisecting e^{Mτ} to adjacent
/// floating-point numbers. Returns the state at `t1` and the switch times.
fn piecewise_exact(t1: f64) -> (Vec<f64>, Vec<f64>) {
    use nalgebra::{DMatrix, DVector};
    let (g, k, r) = (9.81, 1e5, 0.1);
    // Contact flags of the regime a state on the switch is entering: Ψ > 0, or Ψ = 0
    // with Ψ growing (dΨ1/dt = v2 − v1, dΨ2/dt = −v2).
    let regime = |z: &DVector<f64>| {
        let [p1, p2] = psi(z.as_slice());
        let c1 = p1 > 0.0 || (p1 == 0.0 && z[3] - z[2] > 0.0);
        let c2 = p2 > 0.0 || (p2 == 0.0 && -z[3] > 0.0);
        (c1, c2)
    };
    let block = |(c1, c2): (bool, bool)| {
        let k1 = if c1 { k } else { 0.0 };
        let k2 = if c2 { k } else { 0.0 };
        let mut m = DMatrix::<f64>::zeros(5, 5);
        m[(0, 2)] = 1.0;
        m[(1, 3)] = 1.0;
        m[(2, 0)] = -k1;
        m[(2, 1)] = k1;
        m[(3, 0)] = k1;
        m[(3, 1)] = -k1 - k2;
        m[(2, 4)] = -g + 2.0 * r * k1;
        m[(3, 4)] = -g - 2.0 * r * k1 + r * k2;
        m
    };
    let flow = |m: &DMatrix<f64>, z: &DVector<f64>, tau: f64| {
        let e = (m * tau).exp();
        let w = e * DVector::from_iterator(5, z.iter().copied().chain([1.0]));
        DVector::from_iterator(4, w.iter().take(4).copied())
    };
    let mut t = 0.0;
    let mut z = DVector::from_vec(vec![1.0, 0.5, 0.0, 0.0]);
    let mut switches = Vec::new();
    const DT: f64 = 1e-4;
    while t < t1 {
        let flags = regime(&z);
        let m = block(flags);
        let in_regime = |w: &DVector<f64>| {
            let [p1, p2] = psi(w.as_slice());
            (p1 > 0.0) == flags.0 && (p2 > 0.0) == flags.1
        };
        // The first sample past the regime's end (or t1).
        let mut tau = 0.0f64;
        let (mut lo, mut hi) = loop {
            let next = (tau + DT).min(t1 - t);
            if !in_regime(&flow(&m, &z, next)) {
                break (tau, next);
            }
            if next == t1 - t {
                return (flow(&m, &z, next).as_slice().to_vec(), switches);
            }
            tau = next;
        };
        while lo < hi {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if in_regime(&flow(&m, &z, mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        z = flow(&m, &z, hi);
        t += hi;
        switches.push(t);
    }
    (z.as_slice().to_vec(), switches)
}

/// Gil, Sanfelice & Nikravesh (LLM) §3: the problem is piecewise linear and LLM is exact on a linear regime, so
/// LLM with the step cut at every switch solves it "without error" whatever h is. Over
/// t1 = 1 (10 switches: the balls meet the ground and each other in contacts of 7 and
/// 10 ms, shorter than the coarse steps) every switch is found within 1e-12 s and the end
/// state matches the piecewise-exact one (measured: ≤ 1.2e-13 for h ≥ 0.001, 3.9e-12
/// for h = 1e-4; over the full 3 s, 34 switches, ≤ 6.4e-13 and 5.2e-11).
#[test]
fn llm_with_located_switches_is_exact_for_every_step_size() {
    let t1 = 1.0;
    let (exact, switches) = piecewise_exact(t1);
    assert!(switches.len() >= 6, "{switches:?}");
    for h in [0.02, 0.01, 0.005, 0.001, 1e-4] {
        let sol = run(&with_events(fixed("bouncing-balls", "llm", h, t1)));
        let end = last(&sol);
        let err = end
            .iter()
            .zip(&exact)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert_eq!(sol.events.len(), switches.len(), "h = {h}");
        for (e, ts) in sol.events.iter().zip(&switches) {
            assert!(
                (e.t - ts).abs() < 1e-12,
                "h = {h}: event at {} vs switch {ts}",
                e.t
            );
        }
        assert!(
            err < 1e-10,
            "h = {h}: end {end:?} vs exact {exact:?}, error {err:e}"
        );
    }
}
