//! Tests of homework grading, mirroring `src/homework/`: each kind's grader
//! (right answers pass, wrong ones fail with their messages), the assignment's checks
//! (located errors), the digest, whole works (empty, tampered), and the two example
//! assignments in `examples/assignments/` with their model answers.

mod assignment;
mod examples;
mod grading;
mod kinds;
mod readings;
mod variants;

use odelab::homework::{grade_assignment, Grade, TaskGrade};
use serde_json::{json, Value};

/// An assignment of one task.
pub fn one_task(kind: &str, check: Value) -> Value {
    json!({ "odelabAssignment": 1, "title": "t", "tasks": [
        { "id": "q", "points": 2, "kind": kind, "prompt": "p", "check": check } ] })
}

/// Grades one answer to the one task of `assignment`.
pub fn grade_one(assignment: &Value, answer: Value) -> TaskGrade {
    let work = json!({ "odelabWork": 1, "answers": { "q": answer } });
    let grade: Grade = grade_assignment(assignment, &work).expect("a valid assignment and work");
    grade.tasks.into_iter().next().expect("one task")
}

/// The error message of a malformed assignment.
pub fn error_of(assignment: Value) -> String {
    let work = json!({ "odelabWork": 1, "answers": {} });
    grade_assignment(&assignment, &work)
        .expect_err("a malformed assignment")
        .to_string()
}
