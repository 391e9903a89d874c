//! Whole works: unanswered tasks, a submitted score that is never trusted, the digest
//! check, files that are not works.

use super::one_task;
use odelab::homework::{digest, grade_assignment};
use serde_json::json;

fn two_tasks() -> serde_json::Value {
    json!({ "odelabAssignment": 1, "tasks": [
        { "id": "n", "points": 1, "kind": "number", "check": { "value": 2 } },
        { "id": "t", "points": 3, "kind": "tableau", "check": { "order": 1 } } ] })
}

#[test]
fn empty_work_scores_zero_and_every_task_is_unanswered() {
    let g = grade_assignment(&two_tasks(), &json!({ "odelabWork": 1 })).expect("valid");
    assert_eq!((g.score, g.max_score), (0.0, 4.0));
    assert!(g
        .tasks
        .iter()
        .all(|t| !t.answered && !t.passed && t.message == "not answered yet"));
    let blank = json!({ "odelabWork": 1, "answers": { "n": {}, "t": null } });
    let g = grade_assignment(&two_tasks(), &blank).expect("valid");
    assert!(g.tasks.iter().all(|t| !t.answered));
}

#[test]
fn submitted_score_is_ignored_and_the_answers_regraded() {
    let a = two_tasks();
    let work = json!({ "odelabWork": 1, "assignment": digest(&a), "student": "Ada",
        "score": 4, "grade": { "score": 4 },
        "answers": { "n": { "value": 3 }, "t": { "tableau": { "a": [[0]], "b": [1] } } } });
    let g = grade_assignment(&a, &work).expect("valid");
    assert_eq!(g.score, 3.0, "only the tableau is right");
    assert!(g.assignment_matches);
    assert_eq!(g.student.as_deref(), Some("Ada"));
    assert_eq!(g.tasks[1].points, 3.0);
    assert_eq!(g.tasks[1].max_points, 3.0);
}

#[test]
fn work_for_another_assignment_is_flagged() {
    let work =
        json!({ "odelabWork": 1, "assignment": "sha256:00", "answers": { "q": { "value": 1 } } });
    let g = grade_assignment(&one_task("number", json!({ "value": 1 })), &work).expect("valid");
    assert!(!g.assignment_matches);
    assert_eq!(g.score, 2.0);
}

#[test]
fn a_file_that_is_not_a_work_is_an_error() {
    let a = two_tasks();
    let e = grade_assignment(&a, &json!({ "answers": {} }))
        .expect_err("not a work")
        .to_string();
    assert_eq!(
        e,
        "the work: \"odelabWork\" is missing: this is not an odelab work file"
    );
    let e = grade_assignment(&a, &json!({ "odelabWork": 1, "answers": [] }))
        .expect_err("bad")
        .to_string();
    assert_eq!(e, "answers: invalid type: sequence, expected a map");
    let e = grade_assignment(&a, &json!([1, 2]))
        .expect_err("bad")
        .to_string();
    assert_eq!(
        e,
        "the work: \"odelabWork\" is missing: this is not an odelab work file"
    );
}

#[test]
fn an_answer_that_is_not_an_object_fails_without_an_error() {
    let work = json!({ "odelabWork": 1, "answers": { "n": 2 } });
    let g = grade_assignment(&two_tasks(), &work).expect("valid");
    assert!(g.tasks[0].answered && !g.tasks[0].passed);
    assert_eq!(
        g.tasks[0].message,
        "the answer must be an object such as { \"value\": … }"
    );
}
