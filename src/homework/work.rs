//! The work format a student's page writes and a lecturer collects (a public contract):
//!
//! ```json
//! { "odelabWork": 1, "assignment": "<digest>", "student": "…", "studentId": "…",
//!   "answers": { "<task id>": { "tableau" | "system" | "value" | "spec" | "method": … } } }
//! ```
//!
//! Anything else in the file (a `score` or `grade` the page saved) is ignored: grading
//! never trusts it. A task without an entry in `answers` is unanswered. `studentId`
//! (optional) chooses the student's values of an assignment with parameters
//! (`variant.rs`).

use super::json::{located, Obj};
use crate::error::OdeError;
use serde_json::{Map, Value};

pub const VERSION: u64 = 1;

#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// The digest of the assignment the work was written for.
    pub assignment: Option<String>,
    pub student: Option<String>,
    pub student_id: Option<String>,
    pub answers: Map<String, Value>,
}

impl Work {
    pub fn read(value: &Value) -> Result<Work, OdeError> {
        let top = Obj::new(value, "the work")?;
        if !top.has("odelabWork") {
            return Err(located(
                "the work",
                "\"odelabWork\" is missing: this is not an odelab work file",
            ));
        }
        if top.count("odelabWork")? != Some(VERSION) {
            return Err(located(
                "odelabWork",
                format!("this page reads work files of version {VERSION}"),
            ));
        }
        let answers = match top.get("answers") {
            None => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(_) => return Err(located("answers", "must be an object { \"<task id>\": … }")),
        };
        Ok(Work {
            assignment: top.string("assignment")?.map(str::to_string),
            student: top.string("student")?.map(str::to_string),
            student_id: super::variant::student_id(top.string("studentId")?)?,
            answers,
        })
    }
}
