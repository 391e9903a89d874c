//! The catalogue's metadata is consistent with what the models compute.

use odelab::model::{build, catalog};
use std::collections::BTreeMap;

#[test]
fn ids_are_the_public_contract() {
    let ids: Vec<_> = catalog().into_iter().map(|m| m.id).collect();
    assert_eq!(
        ids,
        [
            "mass-spring-damper",
            "pendulum",
            "bouncing-balls",
            "van-der-pol",
            "robertson",
            "sin-inv-t",
            "slowfast-linear",
            "pendulum-particle",
            "double-pendulum-rsda",
            "double-pendulum-stiff",
            "vehicle-stiff",
        ]
    );
}

#[test]
fn metadata_matches_the_system() {
    for info in catalog() {
        let (_, model) = build(&info.id, &BTreeMap::new()).unwrap();
        assert_eq!(model.dim(), info.dim, "{}", info.id);
        assert_eq!(info.names.len(), info.dim, "{}", info.id);
        assert_eq!(info.y0.len(), info.dim, "{}", info.id);
        assert!(info.t1 > info.t0, "{}", info.id);
        assert!(info.fast.iter().all(|&i| i < info.dim), "{}", info.id);
        for p in &info.params {
            if let Some(lo) = p.greater_than {
                assert!(p.value > lo, "{} default {} in range", info.id, p.name);
            }
        }
        // By authors, as a reader can look it up, never by the project's own file names.
        assert!(
            [
                "Schwab & Delhaes",
                "Negrut et al.",
                "Gil, Sanfelice & Nikravesh",
                "Hairer"
            ]
            .iter()
            .any(|a| info.source.contains(a)),
            "{} cites its source: {}",
            info.id,
            info.source
        );
        for internal in ["seed", "METHODS", "../shared"] {
            assert!(
                !info.source.contains(internal),
                "{}: {}",
                info.id,
                info.source
            );
        }
    }
}

/// Analytic Jacobians agree with central differences of f.
#[test]
fn jacobians_match_finite_differences() {
    for info in catalog() {
        let (_, model) = build(&info.id, &BTreeMap::new()).unwrap();
        let y: Vec<f64> = (0..info.dim).map(|i| 0.3 + 0.7 * i as f64).collect();
        let jac = model.jacobian(0.2, &y).expect("every model has J");
        let mut fp = vec![0.0; info.dim];
        let mut fm = vec![0.0; info.dim];
        for j in 0..info.dim {
            let d = 1e-6;
            let mut yp = y.clone();
            let mut ym = y.clone();
            yp[j] += d;
            ym[j] -= d;
            model.rhs(0.2, &yp, &mut fp);
            model.rhs(0.2, &ym, &mut fm);
            for i in 0..info.dim {
                let fd = (fp[i] - fm[i]) / (2.0 * d);
                // Central differences carry round-off of about ε|f|/d = 1e-10 |f|.
                let noise = 1e-8 * fp[i].abs().max(fm[i].abs());
                assert!(
                    (jac[(i, j)] - fd).abs() < 1e-6 * (1.0 + fd.abs()) + noise,
                    "{} ∂f{i}/∂y{j}: {} vs {fd}",
                    info.id,
                    jac[(i, j)]
                );
            }
        }
    }
}

#[test]
fn unknown_parameter_is_refused_with_the_known_ones() {
    let mut p = BTreeMap::new();
    p.insert("kk".to_string(), 3.0);
    let err = build("mass-spring-damper", &p).err().unwrap().to_string();
    assert!(err.contains("\"kk\"") && err.contains("\"k\""), "{err}");
}

#[test]
fn out_of_range_parameter_is_refused() {
    let mut p = BTreeMap::new();
    p.insert("m".to_string(), 0.0);
    let err = build("mass-spring-damper", &p).err().unwrap().to_string();
    assert!(err.contains("m must be greater than 0"), "{err}");
    p.insert("m".to_string(), f64::NAN);
    let err = build("mass-spring-damper", &p).err().unwrap().to_string();
    assert!(err.contains("finite"), "{err}");
}

/// Every model gives ∂f/∂t, and it agrees with central differences in t (at times off
/// the kinks of piecewise inputs such as vehicle-stiff's bump edges).
#[test]
fn dfdt_matches_finite_differences() {
    for info in catalog() {
        let (_, model) = build(&info.id, &BTreeMap::new()).unwrap();
        for t in [
            info.t0 + 0.1137 * (info.t1 - info.t0),
            info.t0 + 0.5371 * (info.t1 - info.t0),
        ] {
            let y = info.y0.clone();
            let ft = model.dfdt(t, &y).expect("every model has ∂f/∂t");
            let d = 1e-6 * (1.0 + t.abs());
            let mut fp = vec![0.0; info.dim];
            let mut fm = vec![0.0; info.dim];
            model.rhs(t + d, &y, &mut fp);
            model.rhs(t - d, &y, &mut fm);
            for i in 0..info.dim {
                let fd = (fp[i] - fm[i]) / (2.0 * d);
                let scale = 1.0 + fd.abs() + fp[i].abs() * 1e-4;
                assert!(
                    (ft[i] - fd).abs() < 1e-5 * scale,
                    "{} t = {t} i = {i}: {} vs {fd}",
                    info.id,
                    ft[i]
                );
            }
        }
    }
}

/// Every bounded parameter refuses a value at its bound with the typed error.
#[test]
fn parameters_at_their_bound_are_refused() {
    for info in catalog() {
        for p in &info.params {
            if let Some(lo) = p.greater_than {
                let mut over = BTreeMap::new();
                over.insert(p.name.clone(), lo);
                match build(&info.id, &over) {
                    Err(odelab::OdeError::BadParam { name, .. }) => assert_eq!(name, p.name),
                    other => panic!("{} {}: {:?}", info.id, p.name, other.map(|_| ())),
                }
            }
        }
    }
}

/// A parameter-dependent default state (`Model::default_y0`) equals the catalogue's y0
/// for the default parameters, and every model's outputs are finite at its y0.
#[test]
fn default_states_agree_and_outputs_are_finite() {
    for info in catalog() {
        let (_, model) = build(&info.id, &BTreeMap::new()).unwrap();
        if let Some(y0) = model.default_y0() {
            assert_eq!(y0, info.y0, "{}", info.id);
        }
        let mut out = vec![0.0; info.outputs.len()];
        model.outputs(info.t0, &info.y0, &mut out);
        assert!(out.iter().all(|v| v.is_finite()), "{}", info.id);
        let mut f = vec![0.0; info.dim];
        model.rhs(info.t0, &info.y0, &mut f);
        assert!(f.iter().all(|v| v.is_finite()), "{}", info.id);
    }
}

/// The driver calls `after_step`, `take_failure` and `report_state` only for a model
/// that `acts_between_steps`, and a Rosenbrock step asks an `autonomous` model for
/// ∂f/∂t once: for every catalogue model what is skipped must be what it would return.
#[test]
fn what_the_driver_skips_is_what_each_catalogue_model_would_have_done() {
    for info in catalog() {
        let id = &info.id;
        let (_, mut model) = build(id, &BTreeMap::new()).unwrap();
        assert!(!model.acts_between_steps(), "{id} acts between steps");
        let mut y: Vec<f64> = info.y0.iter().map(|v| v + 0.125).collect();
        let before = y.clone();
        assert_eq!(model.after_step(0.3, &mut y), Ok(false), "{id}");
        assert_eq!(y, before, "{id}: after_step rewrote the state");
        assert_eq!(model.take_failure(), None, "{id}");
        let mut reported = vec![f64::NAN; info.dim];
        assert!(!model.report_state(&y, &mut reported, false), "{id}");
        if model.autonomous() {
            let mut f0 = vec![0.0; info.dim];
            let mut f1 = vec![0.0; info.dim];
            model.rhs(0.0, &y, &mut f0);
            for t in [0.7, -3.0, 123.25] {
                let ft = model.dfdt(t, &y).expect("an autonomous model has ∂f/∂t");
                assert!(ft.iter().all(|v| *v == 0.0), "{id}: ∂f/∂t ≠ 0 at t = {t}");
                model.rhs(t, &y, &mut f1);
                assert_eq!(f1, f0, "{id}: f changes with t");
            }
        }
    }
    let time_dependent: Vec<String> = catalog()
        .into_iter()
        .filter(|m| !build(&m.id, &BTreeMap::new()).unwrap().1.autonomous())
        .map(|m| m.id)
        .collect();
    // Every model but the vehicle, whose road profile is a function of t.
    assert_eq!(time_dependent, ["vehicle-stiff"]);
}
