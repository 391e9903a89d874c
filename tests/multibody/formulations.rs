//! Both formulations on the constrained models: same motion, drift reported, Baumgarte
//! and projection, re-partitioning, typed errors, the Tables 4–6 comparison.

use odelab::model;
use odelab::multibody::augmented::{saddle_point, PIVOT_RATIO};
use odelab::multibody::mechanism::{Anchor, Body, Force, Joint, Mechanism, Revolute};
use odelab::multibody::{ConstraintFailure, Stabilization};
use odelab::spec::{SolveSpec, Tol};
use odelab::{OdeError, Solution};

pub fn spec(model: &str, formulation: Option<&str>, method: &str, tol: f64) -> SolveSpec {
    SolveSpec {
        model: model.into(),
        method: method.into(),
        formulation: formulation.map(Into::into),
        rtol: Some(Tol::Scalar(tol)),
        atol: Some(Tol::Scalar(tol)),
        ..SolveSpec::default()
    }
}

pub fn output<'a>(run: &'a Solution, name: &str) -> &'a [f64] {
    &run.outputs
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no output {name}"))
        .1
}

fn max(s: &[f64]) -> f64 {
    s.iter().copied().fold(0.0, f64::max)
}

fn last(s: &[f64]) -> f64 {
    s[s.len() - 1]
}

/// The same motion in the native (joint-angle), augmented and state-space forms of the
/// RSDA double pendulum: body angles and energy at t = 2 agree to the integration
/// tolerance; drift numbers.
#[test]
fn formulations_agree_on_rsda_pendulum() {
    let tol = 1e-7;
    let native = odelab::solve(&spec("double-pendulum-rsda", None, "ros4", tol)).unwrap();
    let aug = odelab::solve(&spec(
        "double-pendulum-rsda",
        Some("augmented"),
        "ros4",
        tol,
    ))
    .unwrap();
    let ss = odelab::solve(&spec(
        "double-pendulum-rsda",
        Some("state-space"),
        "ros4",
        tol,
    ))
    .unwrap();
    assert!(aug.stopped_by.is_none() && ss.stopped_by.is_none());
    let n = native.t.len() - 1;
    let (t1n, t2n) = (native.y[4 * n], native.y[4 * n + 1]);
    for run in [&aug, &ss] {
        let (p1, p2) = (last(output(run, "q:φ1")), last(output(run, "q:φ2")));
        let e = last(output(run, "energy"));
        let en = last(output(&native, "energy"));
        let x2 = last(output(run, "x2"));
        println!(
            "{:?}: steps {} nfev {} |Δφ1| {:e} |Δφ2| {:e} |Δenergy| {:e} |Δx2| {:e}, max |Φ| {:e}, max |Φq q̇| {:e}",
            run.constraint.as_ref().unwrap().formulation,
            run.stats.naccept,
            run.stats.nfev,
            (p1 - t1n).abs(),
            (p2 - t2n).abs(),
            (e - en).abs(),
            (x2 - last(output(&native, "x2"))).abs(),
            max(output(run, "constraint |Φ|")),
            max(output(run, "velocity constraint |Φq q̇|")),
        );
        assert!((p1 - t1n).abs() < 1e-4 && (p2 - t2n).abs() < 1e-4);
        assert!((x2 - last(output(&native, "x2"))).abs() < 1e-4);
    }
    // Augmented: drift grows from 0 but stays at the tolerance's level; state-space:
    // the constraints hold to Newton tolerance at every step.
    let drift = output(&aug, "constraint |Φ|");
    assert!(drift[0] < 1e-15);
    assert!(max(drift) > 1e-12 && max(drift) < 1e-4, "{:e}", max(drift));
    assert!(max(output(&ss, "constraint |Φ|")) < 1e-12);
    assert!(max(output(&ss, "velocity constraint |Φq q̇|")) < 1e-10);
}

/// The stiff double pendulum of Gil, Sanfelice & Nikravesh (LLM) §2: native body-coordinate model, the generic
/// augmented one and the state-space one agree; f and J of the generic augmented model
/// equal the native model's (same equations).
#[test]
fn formulations_agree_on_stiff_pendulum() {
    let tol = 1e-7;
    let mut runs = vec![];
    for f in [None, Some("augmented"), Some("state-space")] {
        let mut s = spec("double-pendulum-stiff", f, "ros4", tol);
        s.t1 = Some(0.5);
        let run = odelab::solve(&s).unwrap();
        assert!(run.stopped_by.is_none(), "{f:?}: {:?}", run.warning);
        runs.push(run);
    }
    let n = runs[0].t.len() - 1;
    let (p1, p2) = (runs[0].y[12 * n + 2], runs[0].y[12 * n + 5]);
    for run in &runs[1..] {
        let (a, b) = (last(output(run, "q:φ1")), last(output(run, "q:φ2")));
        println!(
            "{}: steps {} nfev {} |Δφ1| {:e} |Δφ2| {:e} max |Φ| {:e} max |Φq q̇| {:e}",
            run.constraint.as_ref().unwrap().formulation,
            run.stats.naccept,
            run.stats.nfev,
            (a - p1).abs(),
            (b - p2).abs(),
            max(output(run, "constraint |Φ|")),
            max(output(run, "velocity constraint |Φq q̇|"))
        );
        assert!((a - p1).abs() < 1e-4 && (b - p2).abs() < 1e-4);
    }
    let native_drift = max(output(&runs[0], "constraint |Φ|"));
    println!("native max |Φ| {native_drift:e}");
    assert!(max(output(&runs[2], "constraint |Φ|")) < 1e-12);
    // Same equations: f and J of the generic model equal the native model's.
    let (info, native) = model::build("double-pendulum-stiff", &Default::default()).unwrap();
    let mut y = native.default_y0().unwrap();
    y[8] = 1.3;
    y[11] = -0.7;
    // Velocities consistent with the joints: ṙ1 = a1 e⊥(φ1) φ̇1, ṙ2 = 2a1 e⊥ φ̇1 + a2 e⊥ φ̇2.
    let (a1, a2) = (0.5, 0.5);
    y[6] = 0.0;
    y[7] = a1 * y[8];
    y[9] = 0.0;
    y[10] = 2.0 * a1 * y[8] + a2 * y[11];
    let mut s = spec("double-pendulum-stiff", Some("augmented"), "ros4", tol);
    s.y0 = Some(y.clone());
    let mut run = odelab::Integrator::new(&s).unwrap();
    let _ = &mut run;
    let (_, generic) = odelab::multibody::build(&s.formulation_request())
        .unwrap()
        .unwrap();
    let (mut f1, mut f2) = (vec![0.0; 12], vec![0.0; 12]);
    native.rhs(0.0, &y, &mut f1);
    generic.rhs(0.0, &y, &mut f2);
    let df = f1
        .iter()
        .zip(&f2)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let j1 = native.jacobian(0.0, &y).unwrap();
    let j2 = generic.jacobian(0.0, &y).unwrap();
    let dj = (&j1 - &j2).amax() / j1.amax();
    println!(
        "native vs generic augmented: |Δf| {df:e}, |ΔJ|/|J| {dj:e} ({} states)",
        info.dim
    );
    assert!(df < 1e-9 && dj < 1e-12);
}

/// Gil, Sanfelice & Nikravesh (LLM) eqs. (10)–(15) against central finite differences, on every constrained model,
/// at a state with nonzero velocities, with and without Baumgarte terms.
#[test]
fn constrained_jacobian_matches_finite_differences() {
    for id in [
        "double-pendulum-rsda",
        "double-pendulum-stiff",
        "pendulum-particle",
        "vehicle-stiff",
    ] {
        for stab in ["none", "baumgarte"] {
            let mut s = spec(id, Some("augmented"), "ros4", 1e-6);
            s.stabilization = Some(stab.into());
            let (info, m) = odelab::multibody::build(&s.formulation_request())
                .unwrap()
                .unwrap();
            let mut y = m.default_y0().unwrap();
            // Perturb off the constraint manifold a little, so Baumgarte terms act.
            for (i, v) in y.iter_mut().enumerate() {
                *v += 1e-3 * ((i as f64) * 0.7).sin();
            }
            let j = m.jacobian(0.0, &y).unwrap();
            let n = info.dim;
            let mut worst: f64 = 0.0;
            let mut at = (0, 0, 0.0, 0.0);
            for c in 0..n {
                // δ = 1e-4: smaller steps lose digits to cancellation (|J| ~ 1e6 here;
                // at δ = 1e-6 the Baumgarte case showed 3e-4 of round-off).
                let d = 1e-4 * y[c].abs().max(1.0);
                let (mut yp, mut ym) = (y.clone(), y.clone());
                yp[c] += d;
                ym[c] -= d;
                let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
                m.rhs(0.0, &yp, &mut fp);
                m.rhs(0.0, &ym, &mut fm);
                for r in 0..n {
                    let fd = (fp[r] - fm[r]) / (2.0 * d);
                    let e = (fd - j[(r, c)]).abs() / (1.0 + j[(r, c)].abs());
                    if e > worst {
                        worst = e;
                        at = (r, c, fd, j[(r, c)]);
                    }
                }
            }
            println!(
                "{id} ({stab}): max relative |J − FD| = {worst:e} at {at:?}, |J|max = {:e}",
                j.amax()
            );
            assert!(worst < 1e-5, "{id} {stab}: {worst:e}");
        }
    }
}

/// Baumgarte and projection keep the drift of the augmented formulation down.
#[test]
fn baumgarte_and_projection_reduce_drift() {
    let mut drifts = vec![];
    for stab in [None, Some("baumgarte"), Some("projection")] {
        let mut s = spec("double-pendulum-rsda", Some("augmented"), "ros4", 1e-4);
        s.stabilization = stab.map(Into::into);
        let run = odelab::solve(&s).unwrap();
        assert!(run.stopped_by.is_none());
        let (d, v) = (
            max(output(&run, "constraint |Φ|")),
            max(output(&run, "velocity constraint |Φq q̇|")),
        );
        let (fd, fv) = (
            last(output(&run, "constraint |Φ|")),
            last(output(&run, "velocity constraint |Φq q̇|")),
        );
        println!(
            "{stab:?}: steps {} max |Φ| {d:e} max |Φq q̇| {v:e}, at t1 {fd:e} {fv:e}, projection Newton {}",
            run.stats.naccept,
            run.constraint.unwrap().newton_iterations
        );
        drifts.push((d, v, fd, fv));
    }
    let (none, baum, proj) = (drifts[0], drifts[1], drifts[2]);
    assert!(baum.2 < none.2 && baum.3 < none.3, "Baumgarte at t1");
    // PROJECTION_TOL is 1e-12 in the max norm; the output is the 2-norm.
    assert!(proj.0 < 1e-11 && proj.1 < 1e-12, "projection");
    assert!(none.0 > 1e-8, "without stabilisation the drift shows");
}

/// Algorithm 1 step 7: along the RSDA run the initial partition (φ1, y2 independent)
/// becomes ill-conditioned and is replaced; a tight limit forces more re-partitions;
/// the run keeps going and keeps Φ at Newton tolerance.
#[test]
fn partition_check_repartitions_and_keeps_running() {
    for limit in [None, Some(5.0)] {
        let mut s = spec("double-pendulum-rsda", Some("state-space"), "ros4", 1e-6);
        s.partition_limit = limit;
        // tEval across the re-partitions: the dense output of a step that ended in a
        // re-partition is still there (in that step's coordinates).
        s.t_eval = Some((0..=20).map(|i| i as f64 * 0.1).collect());
        let run = odelab::solve(&s).unwrap();
        assert_eq!(run.t_eval.len(), 21);
        let rep = run.constraint.clone().unwrap();
        println!(
            "limit {limit:?}: initial {:?}, {} re-partitions {:?}, steps {}, reached t = {}, stopped {:?}",
            rep.independent,
            rep.repartitions.len(),
            rep.repartitions.iter().map(|r| (r.t, r.condition, r.independent.clone())).collect::<Vec<_>>(),
            run.stats.naccept,
            last(&run.t),
            run.warning
        );
        assert!(run.stopped_by.is_none());
        assert_eq!(last(&run.t), 2.0);
        assert!(!rep.repartitions.is_empty());
        for r in &rep.repartitions {
            assert!(r.condition > limit.unwrap_or(100.0));
        }
        assert!(max(output(&run, "constraint |Φ|")) < 1e-12);
    }
}

/// A partition that no choice can fix is a typed error with t and h.
#[test]
fn unfixable_partition_and_singular_saddle_point_are_typed_errors() {
    let mut s = spec("double-pendulum-rsda", Some("state-space"), "ros4", 1e-6);
    s.partition_limit = Some(1.000001);
    match odelab::solve(&s) {
        Err(OdeError::IllConditionedPartition { t, h, condition }) => {
            println!("unfixable partition at t = {t}, h = {h}, cond {condition}");
            assert!(condition > 1.000001);
        }
        other => panic!("{other:?}"),
    }
    // Redundant joints (the same hinge twice): the saddle-point matrix is singular.
    let hinge = Revolute {
        a: Anchor::Body(0, [-1.0, 0.0]),
        b: Anchor::Ground([0.0, 0.0]),
    };
    let mech = Mechanism {
        bodies: vec![Body {
            name: "1",
            mass: 1.0,
            inertia: 1.0,
        }],
        joints: vec![Joint::Revolute(hinge), Joint::Revolute(hinge)],
        forces: vec![Force::Gravity { g: 9.81 }],
    };
    let q = [1.0, 0.0, 0.0];
    let r = saddle_point(&mech, &q, &[0.0; 3], Stabilization::None);
    assert!(
        matches!(r, Err(ConstraintFailure::SingularSaddlePoint)),
        "pivot ratio {PIVOT_RATIO}"
    );
    let e = ConstraintFailure::SingularSaddlePoint.at(0.25, 0.01);
    assert_eq!(e, OdeError::SingularSaddlePoint { t: 0.25, h: 0.01 });
    println!("{e}");
}

/// Newton recovery failing (a v with no u: body 2 placed out of reach) is a typed error.
#[test]
fn newton_recovery_failure_is_typed() {
    let s = spec("double-pendulum-rsda", Some("state-space"), "ros4", 1e-6);
    let (info, m) = odelab::multibody::build(&s.formulation_request())
        .unwrap()
        .unwrap();
    let mut y = m.default_y0().unwrap();
    // Independent coordinates φ1, y2: y2 = 50 is out of reach of the 2 + 1.5 m arms.
    assert_eq!(info.names[1], "y2");
    y[1] = 50.0;
    let mut f = vec![0.0; info.dim];
    m.rhs(0.0, &y, &mut f);
    let failure = m.take_failure().unwrap();
    assert!(
        matches!(failure, ConstraintFailure::Newton { .. }),
        "{failure:?}"
    );
    let e = failure.at(1.5, 0.001);
    println!("{e}");
    assert!(matches!(e, OdeError::ConstraintNewtonFailed { t, h, .. } if t == 1.5 && h == 0.001));
}

/// The pendulum with the particle (Gil, Sanfelice & Nikravesh 2013 eqs. 63–64, hinge as a constraint) in both
/// formulations agrees with the hinge-eliminated native model.
#[test]
fn pendulum_particle_in_both_formulations() {
    let mut out = vec![];
    for f in [None, Some("augmented"), Some("state-space")] {
        let mut s = spec("pendulum-particle", f, "ros4", 1e-7);
        s.t1 = Some(1.0);
        let run = odelab::solve(&s).unwrap();
        assert!(run.stopped_by.is_none(), "{f:?} {:?}", run.warning);
        let e = last(output(&run, "energy"));
        let theta = match f {
            None => run.y[run.dim * (run.t.len() - 1)],
            Some(_) => last(output(&run, "q:φ1")),
        };
        println!(
            "{f:?}: θ(1) = {theta}, energy {e}, steps {}",
            run.stats.naccept
        );
        out.push((theta, e));
    }
    for o in &out[1..] {
        assert!((o.0 - out[0].0).abs() < 1e-4);
        assert!((o.1 - out[0].1).abs() < 1e-4 * out[0].1.abs().max(1.0));
    }
}

/// The state-space Jacobian (analytic, by the chain rule through the constraint solve)
/// serves every method that needs one; bdf2 restarts its history after each
/// re-partition.
#[test]
fn state_space_with_other_stiff_methods() {
    let native = odelab::solve(&spec("double-pendulum-rsda", None, "ros4", 1e-8)).unwrap();
    let p_ref = native.y[4 * (native.t.len() - 1)];
    for (method, h, limit) in [
        ("w2", None, None),
        ("ros4-t2", None, None),
        ("bdf2", Some(1e-3), Some(5.0)),
    ] {
        let mut s = spec("double-pendulum-rsda", Some("state-space"), method, 1e-5);
        s.h = h;
        s.partition_limit = limit;
        let run = odelab::solve(&s).unwrap();
        let p1 = last(output(&run, "q:φ1"));
        let rep = run.constraint.clone().unwrap();
        println!(
            "{method}: steps {} nfev {} njev {} repartitions {} |Δφ1(2)| {:e} max |Φ| {:e}",
            run.stats.naccept,
            run.stats.nfev,
            run.stats.njev,
            rep.repartitions.len(),
            (p1 - p_ref).abs(),
            max(output(&run, "constraint |Φ|"))
        );
        assert!(run.stopped_by.is_none(), "{method}: {:?}", run.warning);
        assert!((p1 - p_ref).abs() < 2e-2, "{method}");
        assert!(max(output(&run, "constraint |Φ|")) < 1e-12);
    }
}

/// A state-space run's columns mean what their names say for the whole run, across
/// re-partitions: on the RSDA double pendulum (ros4, rtol 1e-9, t1 = 2: the run
/// re-partitions), y = (φ1, y2, φ̇1, ẏ2) at every output time equals the augmented
/// run's columns of the same name (before: after a re-partition the second and fourth
/// columns held x2 and ẋ2). Both runs are within ~1e-7 of the motion at rtol 1e-9;
/// the bound 1e-5 leaves room for their dense outputs and is far below the size of the
/// confusion it rules out (|x2 − y2| ≈ 3).
#[test]
fn state_space_columns_keep_their_names_across_repartitions() {
    let times: Vec<f64> = (0..=200).map(|i| i as f64 * 0.01).collect();
    let mut ss = spec("double-pendulum-rsda", Some("state-space"), "ros4", 1e-9);
    ss.t1 = Some(2.0);
    ss.t_eval = Some(times.clone());
    let mut aug = spec("double-pendulum-rsda", Some("augmented"), "ros4", 1e-9);
    aug.t1 = Some(2.0);
    aug.t_eval = Some(times.clone());
    let ss = odelab::solve(&ss).unwrap();
    let aug = odelab::solve(&aug).unwrap();
    let report = ss.constraint.as_ref().unwrap();
    assert!(!report.repartitions.is_empty(), "the run re-partitions");
    assert_eq!(&ss.names[..2], ["φ1", "y2"]);
    assert_eq!(ss.t_eval.len(), times.len());
    let column = |run: &Solution, name: &str| run.names.iter().position(|n| n == name).unwrap();
    let mut largest: f64 = 0.0;
    for (j, name) in ss.names.iter().enumerate() {
        let a = column(&aug, name);
        for (i, t) in times.iter().enumerate() {
            let d = (ss.y_eval[i * ss.dim + j] - aug.y_eval[i * aug.dim + a]).abs();
            assert!(d < 1e-5, "{name} at t = {t}: {d:e}");
            largest = largest.max(d);
        }
        // The recorded points too: at the end both runs are at t = 2.
        let end_ss = ss.y[ss.y.len() - ss.dim + j];
        let end_aug = aug.y[aug.y.len() - aug.dim + a];
        assert!(
            (end_ss - end_aug).abs() < 1e-5,
            "{name} at t1: {end_ss} vs {end_aug}"
        );
    }
    eprintln!(
        "largest difference {largest:e}, repartitions {:?}",
        report.repartitions
    );
}

#[test]
fn constrained_formulations_say_they_act_between_steps() {
    // The driver calls after_step, take_failure and report_state only for a model that
    // says so (`Model::acts_between_steps`); both formulations override all three.
    for id in model::CONSTRAINED {
        for formulation in ["augmented", "state-space"] {
            let s = spec(id, Some(formulation), "ros4", 1e-6);
            let (_, built) = odelab::multibody::build(&s.formulation_request())
                .unwrap()
                .expect("a non-native formulation");
            assert!(built.acts_between_steps(), "{id} {formulation}");
            assert!(
                !built.autonomous(),
                "{id} {formulation}: the default, always safe"
            );
        }
    }
}
