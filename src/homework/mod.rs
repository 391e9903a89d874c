//! Homework: one JSON file is a whole assignment, the student's page checks
//! the work with the same core that runs the playground, and the lecturer's page
//! re-grades every submission — no server.
//!
//! - [`read`]: reading the files through serde with located errors (`tasks[2].check: …`);
//! - [`assignment`]: the assignment format and its checks; [`work`]: the work format;
//! - [`digest`]: an assignment's digest (SHA-256 of its canonical JSON);
//! - [`problem`]: the model or system a task is about, and its tight reference solution;
//! - one grader per kind: [`tableau`], [`system`], [`number`], [`run`], [`order`];
//! - [`grade`]: the result and how its messages tell numbers;
//! - [`variant`]: a variant per student (parameters, the hash of the student id);
//! - [`key`]: the checks of keyed tasks, in a key file that stays with the lecturer.
//!
//! [`grade_assignment`] grades a work against an assignment: deterministic (the same
//! runs natively and in wasm), and bounded by the budgets of the runs it makes (solve's
//! step budget, the convergence lab's). A missing answer scores 0 and is not an error;
//! a malformed assignment or a file that is not a work is.

pub mod assignment;
pub mod digest;
pub mod grade;
pub mod key;
pub mod number;
pub mod order;
pub mod problem;
pub mod read;
pub mod run;
pub mod system;
pub mod tableau;
pub mod variant;
pub mod work;

pub use assignment::{Assignment, Check, Task};
pub use digest::digest;
pub use grade::{Grade, Outcome, TaskGrade};
pub use work::Work;

use crate::error::OdeError;
use serde::Serialize;
use serde_json::Value;
use work::Answer;

/// Most bytes of an assignment or work text (a hand-written file is a few kB).
pub const MAX_TEXT: usize = 1 << 20;

/// Parses JSON text (`what`: "the assignment", "the work") with its position on error.
pub fn parse_json(text: &str, what: &str) -> Result<Value, OdeError> {
    if text.len() > MAX_TEXT {
        return Err(OdeError::BadFile {
            message: format!("{what} is larger than {MAX_TEXT} bytes"),
        });
    }
    serde_json::from_str(text).map_err(|e| OdeError::BadFile {
        message: format!("{what} is not valid JSON: {e}"),
    })
}

/// One task as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[tsify(rename = "AssignmentTask")]
#[serde(rename_all = "camelCase")]
pub struct TaskSummary {
    pub id: String,
    #[tsify(type = "'tableau' | 'system' | 'number' | 'run' | 'order'")]
    pub kind: String,
    pub points: f64,
    pub prompt: String,
    /// The check is in the lecturer's key: the student's page records the answer.
    pub keyed: bool,
}

/// A checked assignment as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[tsify(hashmap_as_object)]
#[serde(rename_all = "camelCase")]
pub struct AssignmentSummary {
    pub digest: String,
    pub title: String,
    pub intro: String,
    pub max_score: f64,
    #[tsify(type = "AssignmentTask[]")]
    pub tasks: Vec<TaskSummary>,
    /// Declared parameters (a variant per student), by name.
    #[tsify(type = "Record<string, ParameterRange>")]
    pub parameters: variant::Parameters,
}

/// Checks an assignment and lists what the page shows of it.
pub fn read_assignment(value: &Value) -> Result<AssignmentSummary, OdeError> {
    let a = Assignment::read(value)?;
    Ok(AssignmentSummary {
        digest: digest(value),
        title: a.title,
        intro: a.intro,
        max_score: a.tasks.iter().map(|t| t.points).sum(),
        parameters: a.parameters,
        tasks: a
            .tasks
            .into_iter()
            .map(|t| TaskSummary {
                kind: t.check.kind().into(),
                id: t.id,
                points: t.points,
                prompt: t.prompt,
                keyed: t.keyed,
            })
            .collect(),
    })
}

/// Grades one task's answer (`None`: unanswered).
pub fn grade_task(task: &Task, answer: Option<&Value>) -> TaskGrade {
    let place = format!("answers.{}", task.id);
    let unanswered = || TaskGrade {
        id: task.id.clone(),
        kind: task.check.kind().into(),
        answered: false,
        passed: false,
        points: 0.0,
        max_points: task.points,
        message: "not answered yet".into(),
        measured: Value::Null,
        recorded: false,
    };
    let Some(answer) = answer.filter(|v| !v.is_null()) else {
        return unanswered();
    };
    let outcome = match read::read::<Answer>(answer, &place) {
        Err(_) => Outcome::fail(
            format!(
                "the answer must be an object such as {{ \"{}\": … }}",
                task.check.answer_keys()[0]
            ),
            Value::Null,
        ),
        Ok(a) if !a.gives(task.check.answer_keys()) => {
            return unanswered();
        }
        Ok(_) if matches!(task.check, Check::Recorded(_)) => {
            return TaskGrade {
                answered: true,
                recorded: true,
                message: "recorded: your lecturer grades this task".into(),
                ..unanswered()
            };
        }
        Ok(a) => match &task.check {
            Check::Tableau(c) => c.grade(&a),
            Check::System(c) => c.grade(&a),
            Check::Number(c) => c.grade(&a),
            Check::Run(c) => c.grade(&a),
            Check::Order(c) => c.grade(&a),
            Check::Recorded(_) => Outcome::fail("recorded", Value::Null),
        },
    };
    TaskGrade {
        id: task.id.clone(),
        kind: task.check.kind().into(),
        answered: true,
        passed: outcome.passed,
        points: if outcome.passed { task.points } else { 0.0 },
        max_points: task.points,
        message: outcome.message,
        measured: outcome.measured,
        recorded: false,
    }
}

/// Grades `work` against `assignment` (both parsed JSON); see the module doc.
pub fn grade_assignment(assignment: &Value, work: &Value) -> Result<Grade, OdeError> {
    let w = Work::read(work)?;
    let digest = digest(assignment);
    let parameters = variant::read_parameters(assignment)?;
    let values = match (&w.student_id, parameters.is_empty()) {
        (_, true) => Default::default(),
        (Some(id), false) => variant::values(&parameters, &digest, id),
        (None, false) => {
            return Err(OdeError::BadFile {
                message: "this assignment gives every student their own values: enter your \
                          student id first (the work has no \"studentId\")"
                    .into(),
            })
        }
    };
    let a = Assignment::read_with(assignment, &values)?;
    let tasks: Vec<TaskGrade> = a
        .tasks
        .iter()
        .map(|t| grade_task(t, w.answers.get(&t.id)))
        .collect();
    Ok(Grade {
        score: tasks.iter().map(|t| t.points).sum(),
        max_score: a.tasks.iter().map(|t| t.points).sum(),
        assignment_matches: w.assignment.as_deref() == Some(digest.as_str()),
        assignment: digest,
        student: w.student,
        student_id: w.student_id,
        parameters: values,
        tasks,
    })
}

/// [`grade_assignment`] on the two files' texts.
pub fn grade_assignment_text(assignment: &str, work: &str) -> Result<Grade, OdeError> {
    grade_assignment(
        &parse_json(assignment, "the assignment")?,
        &parse_json(work, "the work")?,
    )
}
