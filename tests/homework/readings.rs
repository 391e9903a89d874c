//! The published formats read the same: every example assignment (alone, for a
//! student's values, with its key) and a work are read to the values recorded in
//! `readings/` (their `{:#?}`). Set `ODELAB_RECORD_READINGS=1` to write the files
//! after a change that means to read differently.

use odelab::homework::assignment::Assignment;
use odelab::homework::{digest, key, read_assignment, variant, Work};
use serde_json::{json, Value};

fn file(path: &str) -> Value {
    let path = format!("{}/examples/assignments/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the example exists");
    serde_json::from_str(&text).expect("the example is JSON")
}

/// Compares `reading` with the recorded one of `name` (or records it).
fn same_as_recorded(name: &str, reading: String) {
    let path = format!(
        "{}/tests/homework/readings/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    if std::env::var_os("ODELAB_RECORD_READINGS").is_some() {
        std::fs::write(&path, &reading).expect("writable");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("a recorded reading");
    assert!(recorded == reading, "{name} reads differently:\n{reading}");
}

#[test]
fn example_assignments_read_as_recorded() {
    for name in ["stability", "stiffness", "springs"] {
        let a = file(&format!("{name}.json"));
        same_as_recorded(
            name,
            format!(
                "{:#?}\n{:#?}",
                Assignment::read(&a).expect("valid"),
                read_assignment(&a).expect("valid")
            ),
        );
    }
}

#[test]
fn a_students_variant_and_the_key_read_as_recorded() {
    let a = file("springs.json");
    let parameters = Assignment::read(&a).expect("valid").parameters;
    let values = variant::values(&parameters, &digest(&a), "ada");
    let keyed = key::join(&a, &file("keys/springs.key.json")).expect("an object");
    same_as_recorded(
        "springs-ada-keyed",
        format!(
            "{values:#?}\n{:#?}\n{:#?}",
            Assignment::read_with(&a, &values).expect("valid"),
            Assignment::read_with(&keyed, &values).expect("valid")
        ),
    );
}

#[test]
fn a_work_reads_as_recorded() {
    let work = json!({ "odelabWork": 1, "assignment": "sha256:00", "student": "Ada",
        "studentId": "  ada ", "score": 9, "answers": { "q": { "value": 1 }, "r": null } });
    same_as_recorded("work", format!("{:#?}", Work::read(&work).expect("a work")));
}
