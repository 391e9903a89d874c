//! Bad requests are typed errors with clear messages, never panics.

use odelab::stability::{stability_facts, stability_map, StabilitySpec, TableauSpec};
use odelab::OdeError;

fn good() -> StabilitySpec {
    StabilitySpec {
        method: "rk4".into(),
        re: Some([-3.0, 1.0]),
        im: Some([-3.0, 3.0]),
        nx: Some(8),
        ny: Some(8),
        ..Default::default()
    }
}

fn err(s: StabilitySpec) -> OdeError {
    stability_map(&s).expect_err("should be refused")
}

#[test]
fn bad_windows_and_sizes_are_refused() {
    let e = err(StabilitySpec {
        nx: Some(1),
        ..good()
    });
    assert!(e.to_string().contains("nx must be at least 2"), "{e}");
    let e = err(StabilitySpec {
        re: Some([1.0, -3.0]),
        ..good()
    });
    assert!(e.to_string().contains("greater than re[0]"), "{e}");
    let e = err(StabilitySpec {
        im: Some([0.0, f64::NAN]),
        ..good()
    });
    assert!(matches!(e, OdeError::NotFinite { .. }), "{e}");
    let e = err(StabilitySpec {
        nx: Some(4096),
        ny: Some(2048),
        ..good()
    });
    assert!(e.to_string().contains("at most 4194304"), "{e}");
    let e = err(StabilitySpec {
        nx: Some(usize::MAX),
        ny: Some(3),
        ..good()
    });
    assert!(matches!(e, OdeError::OutOfRange { .. }), "{e}");
    let e = err(StabilitySpec { re: None, ..good() });
    assert!(e.to_string().contains("re: [a, b]"), "{e}");
    assert!(stability_map(&StabilitySpec {
        nx: Some(2048),
        ny: Some(2),
        ..good()
    })
    .is_ok());
}

#[test]
fn unknown_methods_and_misplaced_parameters_are_refused() {
    let e = err(StabilitySpec {
        method: "rk5".into(),
        ..good()
    });
    assert!(
        matches!(e, OdeError::UnknownMethod { .. }) && e.to_string().contains("\"slowfast\""),
        "{e}"
    );
    let e = err(StabilitySpec {
        alpha: Some(2.0),
        ..good()
    });
    assert!(e.to_string().contains("slowfast"), "{e}");
    let e = err(StabilitySpec {
        method: "slowfast".into(),
        beta: Some(f64::INFINITY),
        ..good()
    });
    assert!(matches!(e, OdeError::NotFinite { .. }), "{e}");
    let e = stability_facts(&StabilitySpec {
        method: "custom".into(),
        ..Default::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("needs a tableau"), "{e}");
}

#[test]
fn bad_tableaux_are_refused() {
    let with = |a: Vec<Vec<f64>>, b: Vec<f64>, c: Option<Vec<f64>>| {
        stability_facts(&StabilitySpec {
            method: "custom".into(),
            tableau: Some(TableauSpec::from_numbers(a, b, c)),
            ..Default::default()
        })
        .unwrap_err()
        .to_string()
    };
    assert!(with(vec![vec![0.0]], vec![], None).contains("number of stages"));
    assert!(with(vec![vec![0.0]], vec![0.5, 0.5], None).contains("tableau.a"));
    assert!(with(vec![vec![0.0, 0.0], vec![1.0]], vec![0.5, 0.5], None).contains("tableau.a[1]"));
    assert!(
        with(vec![vec![0.0, 1.0], vec![1.0, 0.0]], vec![0.5, 0.5], None)
            .contains("above the diagonal")
    );
    assert!(with(vec![vec![f64::NAN]], vec![1.0], None).contains("tableau.a[0][0]"));
    assert!(with(vec![vec![0.0]], vec![1.0], Some(vec![0.0, 1.0])).contains("tableau.c"));
}

/// The JS field names, as the front end writes them (the binding reads the same struct).
#[test]
fn stability_spec_reads_the_js_field_names() {
    let s: StabilitySpec = serde_json::from_str(
        r#"{"method":"custom","re":[-3,1],"im":[-2,2],"nx":16,"ny":8,
            "tableau":{"a":[[0,0],[1,0]],"b":[0.5,0.5],"c":[0,1]}}"#,
    )
    .unwrap();
    assert_eq!(s.nx, Some(16));
    assert_eq!(stability_map(&s).unwrap().len(), 128);
    let s: StabilitySpec =
        serde_json::from_str(r#"{"method":"slowfast","alpha":10,"beta":0.2}"#).unwrap();
    assert_eq!((s.alpha, s.beta), (Some(10.0), Some(0.2)));
    assert!(serde_json::from_str::<StabilitySpec>(r#"{"method":"rk4","alhpa":1}"#).is_err());
    assert!(serde_json::from_str::<StabilitySpec>(r#"{"method":"rk4","re":[1]}"#).is_err());
    assert!(serde_json::from_str::<StabilitySpec>(r#"{"method":"rk4","nx":2.5}"#).is_err());
    let fields = odelab::spec::field_names::<StabilitySpec>();
    assert!(fields.contains(&"tableau") && fields.contains(&"ny"));
}
