//! A variant per student (parameters dealt by the student id's hash), numbers the
//! engine computes at grading time, and keys that stay with the lecturer.

use odelab::homework::variant::{unit, value_at, Range};
use odelab::homework::{digest, grade_assignment, read_assignment};
use serde_json::{json, Value};

/// Euler's stability limit on the spring m x'' = −k x − c x' (m = 1): with
/// λ = −c/2 ± i√(k − c²/4), |1 + hλ| = 1 at h = −2 Re λ/|λ|² = c/k.
fn euler_limit(k: f64, c: f64) -> f64 {
    c / k
}

fn spring_assignment() -> Value {
    let params = json!({ "k": { "param": "k" }, "c": { "param": "c" } });
    json!({ "odelabAssignment": 1, "title": "springs",
        "parameters": { "k": { "min": 50, "max": 150, "step": 1 }, "c": { "min": 0.2, "max": 0.8, "step": 0.1 } },
        "tasks": [
            { "id": "limit", "kind": "number", "check": { "value": { "stabilityLimit": {
                "method": "euler", "reference": { "model": "mass-spring-damper", "params": params } } }, "relTol": 0.01 } },
            { "id": "end", "kind": "number", "check": { "value": { "endValue": {
                "reference": { "model": "mass-spring-damper", "params": params }, "t1": 1, "state": "x" } }, "relTol": 1e-6 } },
            { "id": "spring", "kind": "system", "check": {
                "reference": { "model": "mass-spring-damper", "params": params }, "t1": 2 } } ] })
}

fn work(id: &str, answers: Value) -> Value {
    json!({ "odelabWork": 1, "studentId": id, "answers": answers })
}

#[test]
fn variant_hash_is_the_documented_sha256_recipe() {
    // Python's hashlib: int.from_bytes(sha256(b"odelab-variant\nsha256:x\ns1\nk")
    // .digest()[:8], "big") >> 11, divided by 2**53, is 0.9820029249265163; on the grid
    // 50, 51, …, 150 that is 50 + ⌊0.982…·101⌋ = 149.
    let u = unit("sha256:x", "s1", "k");
    assert_eq!(u, 0.9820029249265163);
    let k = Range {
        min: 50.0,
        max: 150.0,
        step: Some(1.0),
    };
    assert_eq!(value_at(&k, u), 149.0);
    assert_eq!(u, unit("sha256:x", "s1", "k"), "deterministic");
    assert_ne!(u, unit("sha256:x", "s2", "k"), "another student");
    assert_ne!(u, unit("sha256:y", "s1", "k"), "another assignment");
    let r = Range {
        min: 0.2,
        max: 0.8,
        step: Some(0.1),
    };
    assert_eq!(value_at(&r, 0.0), 0.2);
    assert_eq!(value_at(&r, 0.5), 0.5);
    assert_eq!(value_at(&r, 0.999_999), 0.8);
    let free = Range {
        min: 1.0,
        max: 3.0,
        step: None,
    };
    assert_eq!(value_at(&free, 0.25), 1.5);
}

#[test]
fn two_student_ids_get_different_values_and_each_is_graded_against_their_own() {
    let a = spring_assignment();
    let empty = |id: &str| grade_assignment(&a, &work(id, json!({}))).expect("valid");
    let (ada, bob) = (empty("s1234567"), empty("s7654321"));
    assert_ne!(ada.parameters, bob.parameters);
    for g in [&ada, &bob] {
        let (k, c) = (g.parameters["k"], g.parameters["c"]);
        assert!((50.0..=150.0).contains(&k) && k.fract() == 0.0, "{k}");
        assert!((0.2..=0.8).contains(&c), "{c}");
    }
    assert_eq!(
        ada.parameters,
        empty("s1234567").parameters,
        "deterministic"
    );
    let (ka, ca) = (ada.parameters["k"], ada.parameters["c"]);
    let (kb, cb) = (bob.parameters["k"], bob.parameters["c"]);
    assert!((euler_limit(ka, ca) - euler_limit(kb, cb)).abs() > 0.01 * euler_limit(ka, ca));
    let system = |k: f64, c: f64| {
        format!("param g = 9.81\nx' = u\nu' = g - {k}*x - {c}*u\nx(0) = 0, u(0) = 0")
    };
    let answers = |k: f64, c: f64| json!({ "limit": { "value": euler_limit(k, c) }, "spring": { "system": system(k, c) } });
    // Each passes with their own numbers…
    let g = grade_assignment(&a, &work("s1234567", answers(ka, ca))).expect("valid");
    assert!(g.tasks[0].passed && g.tasks[2].passed, "{:?}", g.tasks);
    let g = grade_assignment(&a, &work("s7654321", answers(kb, cb))).expect("valid");
    assert!(g.tasks[0].passed && g.tasks[2].passed, "{:?}", g.tasks);
    // …and fails with the other's.
    let g = grade_assignment(&a, &work("s1234567", answers(kb, cb))).expect("valid");
    assert!(!g.tasks[0].passed && !g.tasks[2].passed, "{:?}", g.tasks);
    // The end value is the reference's x(1) for the student's k and c: the exact
    // solution of x'' = g − k x − c x' from rest (underdamped), computed here.
    let exact = |k: f64, c: f64| {
        let (s, w) = (c / 2.0, (k - c * c / 4.0).sqrt());
        let xs = 9.81 / k;
        xs * (1.0 - (-s).exp() * (w.cos() + s / w * w.sin()))
    };
    let g = grade_assignment(
        &a,
        &work("s7654321", json!({ "end": { "value": exact(kb, cb) } })),
    )
    .expect("valid");
    assert!(g.tasks[1].passed, "{}", g.tasks[1].message);
    let g = grade_assignment(
        &a,
        &work("s1234567", json!({ "end": { "value": exact(kb, cb) } })),
    )
    .expect("valid");
    assert!(!g.tasks[1].passed, "{}", g.tasks[1].message);
}

#[test]
fn assignment_with_parameters_needs_a_student_id_and_names_unknown_parameters() {
    let a = spring_assignment();
    let e = grade_assignment(&a, &json!({ "odelabWork": 1, "answers": {} })).expect_err("no id");
    assert!(e.to_string().contains("enter your student id first"), "{e}");
    let summary = read_assignment(&a).expect("valid without an id");
    assert_eq!(summary.parameters["k"].min, 50.0);
    let mut bad = a.clone();
    bad["tasks"][0]["check"]["relTol"] = json!({ "param": "q" });
    let e = read_assignment(&bad)
        .expect_err("unknown parameter")
        .to_string();
    assert_eq!(
        e,
        "tasks[0].check.relTol: names the parameter \"q\"; the assignment's parameters are c, k"
    );
}

#[test]
fn computed_values_match_independent_numbers() {
    // RK4's real-axis intercept −2.785293563405282 (the root of 1 + z + z²/2 + z³/6 +
    // z⁴/24 = 1 on the negative axis, from the polynomial's exact roots).
    let a = json!({ "odelabAssignment": 1, "tasks": [
        { "id": "q", "kind": "number", "check": { "value": { "intercept": { "method": "rk4" } }, "relTol": 1e-9 } },
        { "id": "h", "kind": "number", "check": { "value": { "stabilityLimit": { "method": "euler",
            "reference": { "model": "mass-spring-damper" } } }, "relTol": 1e-6 } } ] });
    let g = grade_assignment(
        &a,
        &json!({ "odelabWork": 1, "answers": {
        "q": { "value": -2.785293563405282 }, "h": { "value": 0.005 } } }),
    )
    .expect("valid");
    assert!(g.tasks[0].passed, "{}", g.tasks[0].message);
    assert!(g.tasks[1].passed, "{}", g.tasks[1].message);
    let bad = json!({ "odelabAssignment": 1, "tasks": [
        { "id": "q", "kind": "number", "check": { "value": { "intercept": { "method": "ros4" } } } } ] });
    let e = read_assignment(&bad).expect_err("not explicit").to_string();
    assert!(
        e.starts_with("tasks[0].check.value.intercept.method: \"ros4\" is not an explicit"),
        "{e}"
    );
}

fn keyed_assignment() -> Value {
    json!({ "odelabAssignment": 1, "title": "keyed", "tasks": [
        { "id": "limit", "kind": "number", "points": 2, "keyed": true, "prompt": "h?" },
        { "id": "practice", "kind": "number", "check": { "value": 0.25, "relTol": 0.01 } } ] })
}

#[test]
fn keyed_task_is_recorded_without_the_key_and_graded_with_it() {
    let a = keyed_assignment();
    let answers = json!({ "odelabWork": 1, "answers": { "limit": { "value": 0.0125 }, "practice": { "value": 0.3 } } });
    let student = grade_assignment(&a, &answers).expect("valid");
    let t = &student.tasks[0];
    assert!(t.recorded && t.answered && !t.passed);
    assert_eq!(t.message, "recorded: your lecturer grades this task");
    assert_eq!(t.measured, Value::Null);
    assert_eq!(
        student.tasks[1].message,
        "0.3 is too large (an answer within 1% of the right one passes)"
    );
    assert!(read_assignment(&a).expect("valid").tasks[0].keyed);

    let key = json!({ "odelabKey": 1, "assignment": digest(&a), "checks": { "limit": { "value": 0.0125, "relTol": 0.01 } } });
    let joined = odelab::homework::key::join(&a, &key).expect("an object");
    assert_eq!(
        digest(&joined),
        digest(&a),
        "the key is not part of the digest"
    );
    let lecturer = grade_assignment(&joined, &answers).expect("valid");
    assert!(lecturer.tasks[0].passed && !lecturer.tasks[0].recorded);
    assert!(lecturer.assignment_matches || answers.get("assignment").is_none());
    assert_eq!(lecturer.score, 2.0);
}

#[test]
fn a_key_for_another_assignment_or_with_stray_checks_is_refused() {
    let a = keyed_assignment();
    let err = |key: Value| {
        grade_assignment(
            &odelab::homework::key::join(&a, &key).expect("object"),
            &json!({ "odelabWork": 1, "answers": {} }),
        )
        .expect_err("refused")
        .to_string()
    };
    let e = err(json!({ "odelabKey": 1, "assignment": "sha256:00", "checks": {} }));
    assert!(
        e.starts_with("key.assignment: this key belongs to another assignment"),
        "{e}"
    );
    let e = err(json!({ "odelabKey": 1, "checks": {} }));
    assert_eq!(e, "key.checks: has no check for the keyed task \"limit\"");
    let e = err(
        json!({ "odelabKey": 1, "checks": { "limit": { "value": 1 }, "practice": { "value": 1 } } }),
    );
    assert_eq!(
        e,
        "key.checks.practice: this task is not keyed: its check is in the assignment"
    );
    let mut with_check = a.clone();
    with_check["tasks"][0]["check"] = json!({ "value": 1 });
    let e = read_assignment(&with_check)
        .expect_err("a keyed task with a check")
        .to_string();
    assert!(
        e.starts_with("tasks[0].check: a keyed task keeps its check in the key file"),
        "{e}"
    );
}

#[test]
fn every_student_id_gets_values_on_the_grid_inside_the_ranges() {
    let ranges = [
        Range {
            min: 50.0,
            max: 150.0,
            step: Some(1.0),
        },
        Range {
            min: 0.2,
            max: 0.8,
            step: Some(0.1),
        },
        Range {
            min: -1.0,
            max: 1.0,
            step: None,
        },
    ];
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..2000 {
        let id = format!("student {i} ✓");
        for (n, r) in ranges.iter().enumerate() {
            let v = value_at(r, unit("sha256:ab", &id, &n.to_string()));
            assert!((r.min..=r.max).contains(&v), "{v} outside {r:?}");
            if let Some(step) = r.step {
                let k = (v - r.min) / step;
                assert!((k - k.round()).abs() < 1e-9, "{v} is off the grid of {r:?}");
            }
            if n == 0 {
                seen.insert(v as i64);
            }
        }
    }
    // 2,000 draws from 101 grid points reach every one of them.
    assert_eq!(seen.len(), 101);
}

#[test]
fn a_keyed_system_task_gives_the_lecturer_the_difference_and_practice_does_not() {
    let spring = "param k = 4, c = 0.1\nx' = v\nv' = -k*x - c*v\nx(0) = 1, v(0) = 0";
    let check = json!({ "reference": { "system": spring }, "t1": 10, "tol": 1e-6 });
    let a = json!({ "odelabAssignment": 1, "title": "keyed system", "tasks": [
        { "id": "keyed", "kind": "system", "keyed": true },
        { "id": "practice", "kind": "system", "check": check } ] });
    let wrong = json!({ "system": "x' = v\nv' = -4*x - 0.2*v\nx(0) = 1, v(0) = 0" });
    let answers = json!({ "odelabWork": 1, "answers": { "keyed": wrong, "practice": wrong } });
    let key = json!({ "odelabKey": 1, "assignment": digest(&a), "checks": { "keyed": check } });
    let joined = odelab::homework::key::join(&a, &key).expect("an object");
    let lecturer = grade_assignment(&joined, &answers).expect("valid");
    let (keyed, practice) = (&lecturer.tasks[0], &lecturer.tasks[1]);
    assert!(!keyed.passed && !practice.passed);
    assert!(
        keyed.message.starts_with("at t = ")
            && keyed
                .message
                .contains("your v differs by 4.5e-1 from the reference (allowed 1.9e-6)"),
        "{}",
        keyed.message
    );
    assert!(keyed.measured.get("maxDifference").is_some());
    assert!(
        practice
            .message
            .starts_with("your v leaves the reference from t = 0.1 on"),
        "{}",
        practice.message
    );
    assert!(practice.measured.get("maxDifference").is_none());
}
