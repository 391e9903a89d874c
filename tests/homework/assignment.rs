//! The assignment's checks: every error names its place; the digest.

use super::{error_of, one_task};
use odelab::homework::{digest, read_assignment};
use serde_json::json;

#[test]
fn missing_check_field_is_located() {
    let a = json!({ "odelabAssignment": 1, "tasks": [
        { "id": "a", "kind": "number", "check": { "value": 1 } },
        { "id": "b", "kind": "number", "check": { "value": 2 } },
        { "id": "c", "kind": "number", "check": { "relTol": 0.01 } } ] });
    assert_eq!(error_of(a), "tasks[2].check: \"value\" is missing");
}

#[test]
fn malformed_assignments_name_the_place() {
    assert_eq!(
        error_of(json!({ "tasks": [] })),
        "\"odelabAssignment\" is missing: this is not an odelab assignment"
    );
    assert_eq!(
        error_of(one_task("essay", json!({}))),
        "tasks[0].kind: unknown kind \"essay\"; the kinds are tableau, system, number, run, order"
    );
    assert_eq!(
        error_of(one_task("number", json!({ "value": 1, "reltol": 0.1 }))),
        "unknown field \"reltol\" in tasks[0].check (did you mean \"relTol\"?); the fields are \"value\", \"relTol\", \"absTol\""
    );
    assert_eq!(
        error_of(one_task("number", json!({ "value": "two" }))),
        "tasks[0].check.value: invalid type: string \"two\", expected f64"
    );
    assert_eq!(
        error_of(one_task("number", json!({ "value": 1, "relTol": -1 }))),
        "tasks[0].check.relTol: must be a positive number, got -1"
    );
    assert_eq!(
        error_of(one_task("tableau", json!({ "realIntercept": [-2] }))),
        "tasks[0].check.realIntercept: invalid length 1, expected an array of length 2"
    );
    assert_eq!(
        error_of(one_task("tableau", json!({ "realIntercept": [-2, -3] }))),
        "tasks[0].check.realIntercept: must be [lo, hi] with lo ≤ hi"
    );
    let twice = json!({ "odelabAssignment": 1, "tasks": [
        { "id": "a", "kind": "number", "check": { "value": 1 } },
        { "id": "a", "kind": "number", "check": { "value": 2 } } ] });
    assert_eq!(
        error_of(twice),
        "tasks[1].id: \"a\" is the id of an earlier task; ids must differ"
    );
    assert_eq!(
        error_of(json!({ "odelabAssignment": 2, "tasks": [] })),
        "odelabAssignment: version 2 is not known to this page (it reads version 1)"
    );
}

#[test]
fn bad_references_are_located() {
    let e = error_of(one_task(
        "run",
        json!({ "reference": { "model": "van-der-pool" }, "t1": 1, "maxError": 1 }),
    ));
    assert!(
        e.starts_with("tasks[0].check.reference: unknown model \"van-der-pool\""),
        "{e}"
    );
    let e = error_of(one_task(
        "system",
        json!({ "reference": { "system": "x' = y" }, "t1": 1 }),
    ));
    assert!(e.starts_with("tasks[0].check.reference: "), "{e}");
    assert!(e.contains("line 1"), "{e}");
    let e = error_of(one_task(
        "system",
        json!({ "reference": { "system": "x' = -x" } }),
    ));
    assert_eq!(e, "tasks[0].check: \"t1\" is missing");
    let e = error_of(one_task("system", json!({ "reference": {}, "t1": 1 })));
    assert_eq!(e, "tasks[0].check.reference: give either \"system\" (a system's text) or \"model\" (a catalogue model id)");
    let e = error_of(one_task(
        "order",
        json!({ "problem": "pendulum", "order": 2, "nMax": 40 }),
    ));
    assert!(e.starts_with("tasks[0].check.problem: nMax"), "{e}");
    let e = error_of(one_task(
        "run",
        json!({ "reference": { "model": "pendulum" }, "t1": 1,
                                            "maxError": 1, "fixed": { "t1": 3 } }),
    ));
    assert!(
        e.starts_with("unknown field \"t1\" in tasks[0].check.fixed"),
        "{e}"
    );
}

#[test]
fn invalid_json_text_gives_its_position() {
    let e = odelab::homework::grade_assignment_text(
        "{ \"odelabAssignment\": 1,\n  \"tasks\": [ }",
        "{}",
    )
    .expect_err("not JSON")
    .to_string();
    assert!(e.starts_with("the assignment is not valid JSON: "), "{e}");
    assert!(e.contains("line 2"), "{e}");
}

#[test]
fn digest_is_sha256_of_canonical_json() {
    // printf '%s' '{"odelabAssignment":1,"tasks":[]}' | sha256sum
    let pinned = "sha256:6e5a5c25819233ef283562cf25e89d2ce78fee22f6c57f51927707f2cab1374b";
    let a: serde_json::Value =
        serde_json::from_str("{ \"tasks\" : [ ],\n \"odelabAssignment\": 1 }").expect("json");
    assert_eq!(digest(&a), pinned, "whitespace and key order do not count");
    assert_ne!(
        digest(&json!({ "odelabAssignment": 1, "tasks": [], "title": "x" })),
        pinned
    );
    let summary = read_assignment(&a).expect("valid");
    assert_eq!(summary.digest, pinned);
    assert_eq!(summary.max_score, 0.0);
}

#[test]
fn misspelt_fields_are_refused_at_their_place_with_a_suggestion() {
    let e = error_of(one_task(
        "run",
        json!({ "reference": { "modle": "pendulum" }, "t1": 1, "maxError": 1 }),
    ));
    assert_eq!(
        e,
        "unknown field \"modle\" in tasks[0].check.reference (did you mean \"model\"?); \
         the fields are \"system\", \"model\", \"params\""
    );
    let e = error_of(one_task(
        "run",
        json!({ "reference": { "model": "pendulum" }, "t1": 1, "maxError": 1,
                "fixed": { "rtoll": 1e-3 } }),
    ));
    assert!(
        e.starts_with("unknown field \"rtoll\" in tasks[0].check.fixed (did you mean \"rtol\"?)"),
        "{e}"
    );
    let e = error_of(json!({ "odelabAssignment": 1, "titel": "x", "tasks": [] }));
    assert!(
        e.starts_with(
            "unknown field \"titel\" in the file (did you mean \"title\"?); the fields are"
        ),
        "{e}"
    );
    let e = error_of(json!({ "odelabAssignment": 1, "tasks": [
        { "id": "a", "kind": "number", "check": { "value": 1 } },
        { "id": "b", "kind": "number", "points": "two", "check": { "value": 1 } } ] }));
    assert_eq!(
        e,
        "tasks[1].points: invalid type: string \"two\", expected f64"
    );
}
