//! The Negrut et al. 2003 Tables 4–6 layout on the RSDA double pendulum: the two formulations side by
//! side (work, drift, time, error of φ1 and φ̇1 against a fine reference), and the
//! Table 5 step counts beside the paper's.

use super::formulations::spec;
use odelab::compare::compare_formulations;

/// Negrut et al. 2003 Table 5: steps of the Rosenbrock–Nyström code for tolerance 10^k.
const SEED_TABLE5: [(i32, u64); 4] = [(-2, 29), (-3, 49), (-4, 85), (-5, 148)];

#[test]
fn compare_formulations_rsda_counts() {
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let mut pinned = vec![];
    for (k, seed_steps) in SEED_TABLE5 {
        let tol = 10f64.powi(k);
        let c =
            compare_formulations(&spec("double-pendulum-rsda", None, "ros4", tol), &clock).unwrap();
        println!(
            "k = {k} (seed Table 5: {seed_steps} steps), reference {} steps",
            c.reference_steps
        );
        println!("  formulation  steps rej  nfev  njev  nlu newton repart  max|Φ|    max|Φq q̇|  ms  | φ1: t*  Δ  RelErr%  Δ̄  | φ̇1: t*  Δ  RelErr%  Δ̄");
        for r in &c.rows {
            println!(
                "  {:<12} {:>5} {:>3} {:>5} {:>5} {:>4} {:>6} {:>6}  {:.2e}  {:.2e} {:.1} | {:.4} {:.3e} {:.5} {:.3e} | {:.4} {:.3e} {:.5} {:.3e}",
                r.formulation, r.naccept, r.nreject, r.nfev, r.njev, r.nlu, r.newton_iterations, r.repartitions,
                r.max_drift, r.max_velocity_drift, r.time_ms,
                r.position.t_star, r.position.max, r.position.rel_err_percent, r.position.rms,
                r.velocity.t_star, r.velocity.max, r.velocity.rel_err_percent, r.velocity.rms,
            );
            assert!(r.stopped_by.is_none(), "{:?}", r.stopped_by);
        }
        let (aug, ss) = (&c.rows[0], &c.rows[1]);
        assert_eq!(aug.formulation, "augmented");
        assert_eq!(ss.formulation, "state-space");
        // State-space keeps Φ at Newton tolerance; augmented drifts.
        assert!(ss.max_drift < 1e-12);
        assert!(aug.max_drift > ss.max_drift);
        pinned.push((
            k,
            aug.naccept,
            aug.nfev,
            ss.naccept,
            ss.nfev,
            ss.repartitions,
        ));
    }
    println!("pinned {pinned:?}");
    // Deterministic counts (steps, f-evaluations; state-space with the LU-chosen
    // partition (φ1, y2) and its re-partitions).
    assert_eq!(
        pinned,
        vec![
            (-2, 30, 92, 321, 1166, 8),
            (-3, 53, 177, 210, 694, 1),
            (-4, 93, 305, 366, 1166, 1),
            (-5, 164, 516, 654, 2078, 1),
        ]
    );
}

/// The paper's independent coordinates (the two angles): Φ_u is then constant and well
/// conditioned, no re-partition, and the step counts come close to Table 5.
#[test]
fn state_space_with_angles_table5() {
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let mut pinned = vec![];
    for (k, seed_steps) in SEED_TABLE5 {
        let mut s = spec("double-pendulum-rsda", None, "ros4", 10f64.powi(k));
        s.independent = Some(vec!["φ1".into(), "φ2".into()]);
        let c = compare_formulations(&s, &clock).unwrap();
        let ss = &c.rows[1];
        println!(
            "k = {k}: seed {seed_steps} steps; augmented {} steps ({:.1} ms); state-space (φ1, φ2) {} steps ({:.1} ms), {} rejected, nfev {}, repartitions {}, φ1 Δ {:.3e} (RelErr {:.5}%, Δ̄ {:.3e}), φ̇1 Δ {:.3e}, max |Φ| {:.1e}",
            c.rows[0].naccept, c.rows[0].time_ms, ss.naccept, ss.time_ms, ss.nreject, ss.nfev, ss.repartitions, ss.position.max, ss.position.rel_err_percent, ss.position.rms, ss.velocity.max, ss.max_drift
        );
        assert_eq!(ss.repartitions, 0);
        assert!(ss.max_drift < 1e-12);
        pinned.push((k, ss.naccept, ss.nfev));
    }
    println!("pinned {pinned:?}");
    // Seed Table 5: 29, 49, 85, 148. The state-space Jacobian is analytic (chain rule
    // through the constraint solve); by finite differences through the solve the same
    // steps cost 282, 506, 870, 1504 f-evaluations.
    assert_eq!(
        pinned,
        vec![(-2, 27, 93), (-3, 48, 170), (-4, 84, 282), (-5, 147, 475)]
    );
}

/// The Tables 4–6 layout on the stiff vehicle: chassis height y_c against the same
/// mechanism's state-space run at 1e-10 (the native half-car differs by its modelling).
#[test]
fn compare_formulations_vehicle() {
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let mut s = spec("vehicle-stiff", None, "ros4", 1e-5);
    s.h_max = Some(5e-3);
    s.t1 = Some(2.0);
    let c = compare_formulations(&s, &clock).unwrap();
    println!("reference: {} ({} steps)", c.reference, c.reference_steps);
    for r in &c.rows {
        println!(
            "  {:<12} steps {} rej {} nfev {} njev {} max|Φ| {:.2e} | {}: t* {:.4} Δ {:.3e} RelErr {:.5}% Δ̄ {:.3e} | {}: Δ {:.3e}",
            r.formulation, r.naccept, r.nreject, r.nfev, r.njev, r.max_drift,
            r.position.quantity, r.position.t_star, r.position.max, r.position.rel_err_percent,
            r.position.rms, r.velocity.quantity, r.velocity.max
        );
        assert!(r.stopped_by.is_none());
        assert_eq!(r.position.quantity, "yc");
        assert_eq!(r.velocity.quantity, "y\u{307}c");
        // Errors at the tolerance's scale, not the ~5e-4 m modelling gap to the native
        // half-car: the reference is the same mechanism.
        assert!(r.position.max > 0.0 && r.position.max < 1e-4);
    }
    assert!(c.reference.starts_with("state-space"));
    assert!(c.rows[1].max_drift < 1e-12 && c.rows[0].max_drift > 1e-9);
}

fn typed_spec(text: &str, method: &str) -> odelab::spec::SolveSpec {
    let mut spec = serde_json::json!({
        "system": text, "method": method, "t1": 2.0, "rtol": 1e-8, "atol": 1e-10,
        "formulation": "state-space"
    });
    // ros4's state-space run of the driven slider-crank (no degree of freedom, an empty
    // state) would take one step to t1 without a largest step.
    if method == "ros4" {
        spec["hMax"] = serde_json::json!(0.01);
    }
    serde_json::from_value(spec).unwrap()
}

/// A typed slider-crank (no catalogue model): both formulations give the piston x3 to
/// the tolerance against the augmented-with-projection reference at 1e-10, and the
/// state-space run keeps ‖Φ‖ at Newton tolerance.
#[test]
fn compare_formulations_typed_slider_crank_piston_agrees() {
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let c = compare_formulations(&typed_spec(super::typed::SLIDER_CRANK, "ros4"), &clock).unwrap();
    println!(
        "{}: reference {} ({} steps)",
        c.model, c.reference, c.reference_steps
    );
    assert_eq!(c.model, "custom");
    assert!(
        c.reference.starts_with("augmented with projection"),
        "{}",
        c.reference
    );
    assert_eq!(c.rows.len(), 2);
    for r in &c.rows {
        println!(
            "  {:<12} steps {} nfev {} max|Φ| {:.2e} | {}: Δ {:.3e} | {}: Δ {:.3e}",
            r.formulation,
            r.naccept,
            r.nfev,
            r.max_drift,
            r.position.quantity,
            r.position.max,
            r.velocity.quantity,
            r.velocity.max
        );
        assert!(r.stopped_by.is_none(), "{:?}", r.stopped_by);
        // The last coordinate that moves: the slider's x3 (y3 and φ3 are held at 0).
        assert_eq!(r.position.quantity, "x3");
        assert_eq!(r.velocity.quantity, "x\u{307}3");
        assert!(
            r.position.max < 1e-6,
            "{}: {:e}",
            r.formulation,
            r.position.max
        );
        assert!(r.position.rms > 0.0 || r.position.max == 0.0);
    }
    let (aug, ss) = (&c.rows[0], &c.rows[1]);
    assert_eq!(aug.formulation, "augmented");
    assert_eq!(ss.formulation, "state-space");
    // The two runs' pistons differ by at most the sum of their errors.
    assert!(aug.position.max + ss.position.max < 2e-6);
    assert!(ss.max_drift < 1e-10, "{:e}", ss.max_drift);
}

/// With radau5 the comparison adds the index-3 DAE as a third row; on the typed
/// four-bar (one degree of freedom) the compared coordinate is the rocker's angle φ3.
#[test]
fn compare_formulations_typed_four_bar_radau5_adds_index_3() {
    let clock = || 0.0;
    let mut spec = typed_spec(super::typed::FOUR_BAR, "radau5");
    spec.t1 = Some(1.0);
    let c = compare_formulations(&spec, &clock).unwrap();
    let names: Vec<&str> = c.rows.iter().map(|r| r.formulation.as_str()).collect();
    assert_eq!(names, ["augmented", "state-space", "index-3"]);
    for r in &c.rows {
        println!(
            "  {:<12} steps {} max|Φ| {:.2e} | {}: Δ {:.3e}",
            r.formulation, r.naccept, r.max_drift, r.position.quantity, r.position.max
        );
        assert!(r.stopped_by.is_none(), "{:?}", r.stopped_by);
        assert_eq!(r.position.quantity, "φ3");
        assert!(
            r.position.max > 0.0 && r.position.max < 1e-5,
            "{}: {:e}",
            r.formulation,
            r.position.max
        );
    }
    // The index-3 run keeps Φ = 0 to its Newton tolerance, below rtol.
    assert!(c.rows[2].max_drift < 1e-8, "{:e}", c.rows[2].max_drift);
}

#[test]
fn compare_formulations_refuses_a_system_without_constraints() {
    let clock = || 0.0;
    let e = compare_formulations(&typed_spec("x'' = -x\nx(0) = 1", "ros4"), &clock)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no coordinates, constraints or bodies"), "{e}");
    let e = compare_formulations(
        &typed_spec("coordinates x, y\nmass 1, 1\nforce y = -9.81", "ros4"),
        &clock,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("at least one constraint"), "{e}");
}

/// A catalogue model with radau5 gets the index-3 row too, compared on body 1's angle.
#[test]
fn compare_formulations_catalogue_model_radau5_adds_index_3() {
    let mut s = spec("double-pendulum-rsda", None, "radau5", 1e-6);
    s.t1 = Some(0.5);
    let c = compare_formulations(&s, &|| 0.0).unwrap();
    let names: Vec<&str> = c.rows.iter().map(|r| r.formulation.as_str()).collect();
    assert_eq!(names, ["augmented", "state-space", "index-3"]);
    for r in &c.rows {
        println!("  {:<12} φ1: Δ {:.3e}", r.formulation, r.position.max);
        assert!(r.stopped_by.is_none(), "{:?}", r.stopped_by);
        assert!(r.position.max > 0.0 && r.position.max < 1e-3);
    }
}
