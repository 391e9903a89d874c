//! The two bouncing balls of seed 000 §3 (eqs. 19–21): energy, contact events, and the
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
fn issue_3_every_contact_start_and_end_is_located() {
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

/// Seed 000 §3: ODE45 "contains significant error which can be observed in the plot of
/// total energy variation". With dp45 at MATLAB's default tolerances (rtol = 1e-3,
/// atol = 1e-6) the energy drifts by 8.1 % over 3 s; cutting the step at every switch
/// brings that to 0.56 %. At rtol = 1e-6: 1.6e-4 without, 2.0e-5 with events.
#[test]
fn issue_3_events_cut_the_energy_drift_of_adaptive_dp45() {
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
fn issue_3_events_cut_the_energy_drift_on_a_fixed_grid() {
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
