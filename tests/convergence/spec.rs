//! Bad convergence requests are typed errors.

use odelab::convergence::{convergence, ConvergenceSpec};
use odelab::OdeError;

fn good() -> ConvergenceSpec {
    ConvergenceSpec {
        model: "mass-spring-damper".into(),
        methods: vec!["rk4".into()],
        n_min: Some(4),
        n_max: Some(8),
        tols: Some(vec![]),
        ..Default::default()
    }
}

#[test]
fn bad_convergence_specs_are_refused() {
    let e = convergence(&ConvergenceSpec {
        model: "nope".into(),
        ..good()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::UnknownModel { .. }));
    let e = convergence(&ConvergenceSpec {
        methods: vec!["rk5".into()],
        ..good()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::UnknownMethod { .. }));
    let e = convergence(&ConvergenceSpec {
        methods: vec![],
        ..good()
    })
    .unwrap_err();
    assert!(e.to_string().contains("at least one method"), "{e}");
    let e = convergence(&ConvergenceSpec {
        n_max: Some(5),
        ..good()
    })
    .unwrap_err();
    assert!(e.to_string().contains("nMin + 2"), "{e}");
    let e = convergence(&ConvergenceSpec {
        n_max: Some(30),
        ..good()
    })
    .unwrap_err();
    assert!(e.to_string().contains("at most 23"), "{e}");
    let e = convergence(&ConvergenceSpec {
        methods: vec!["rk4".into(), "euler".into(), "heun".into()],
        n_min: Some(10),
        n_max: Some(23),
        ..good()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::StepBudget { .. }), "{e}");
    let e = convergence(&ConvergenceSpec {
        tols: Some(vec![0.0]),
        ..good()
    })
    .unwrap_err();
    assert!(e.to_string().contains("tols"), "{e}");
    let e = convergence(&ConvergenceSpec {
        local_h: Some(vec![-1.0]),
        ..good()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::BadStepSize { .. }));
    let e = convergence(&ConvergenceSpec {
        t1: Some(-1.0),
        ..good()
    })
    .unwrap_err();
    assert!(matches!(e, OdeError::BadInterval { .. }));
    let e = convergence(&ConvergenceSpec {
        model: "pendulum".into(),
        methods: vec!["midpoint2".into()],
        ..good()
    });
    assert!(e.is_ok() || matches!(e, Err(OdeError::NeedsSecondOrderModel { .. })));
}

#[test]
fn convergence_spec_reads_the_js_field_names() {
    let s: ConvergenceSpec = serde_json::from_str(
        r#"{"model":"mass-spring-damper","params":{"c":5},"methods":["rk4"],
            "nMin":4,"nMax":7,"tols":[],"localH":[0.01],"t1":2}"#,
    )
    .unwrap();
    assert_eq!((s.n_min, s.n_max, s.t1), (Some(4), Some(7), Some(2.0)));
    let r = convergence(&s).unwrap();
    assert_eq!(r.global[0].h.len(), 4);
    assert_eq!(r.global[0].h[0], 2.0 / 16.0);
    let fields = odelab::spec::field_names::<ConvergenceSpec>();
    assert!(fields.contains(&"localH") && fields.contains(&"nMax"));
}
