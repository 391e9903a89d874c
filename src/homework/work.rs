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

use super::read::{located, read};
use crate::error::OdeError;
use serde::Deserialize;
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

/// A work as the file writes it; other fields are ignored (see the module doc).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WorkFile {
    odelab_work: u64,
    assignment: Option<String>,
    student: Option<String>,
    student_id: Option<String>,
    answers: Option<Map<String, Value>>,
}

/// One answer, with the fields the kinds read (each kind reads its own).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Answer {
    pub tableau: Option<Value>,
    pub system: Option<Value>,
    pub value: Option<Value>,
    pub spec: Option<Value>,
    pub method: Option<Value>,
}

impl Answer {
    /// Whether the answer gives any of `fields` (a kind's `ANSWER_KEYS`).
    pub fn gives(&self, fields: &[&str]) -> bool {
        let given = [
            ("tableau", &self.tableau),
            ("system", &self.system),
            ("value", &self.value),
            ("spec", &self.spec),
            ("method", &self.method),
        ];
        given
            .iter()
            .any(|(name, v)| v.is_some() && fields.contains(name))
    }
}

impl Work {
    pub fn read(value: &Value) -> Result<Work, OdeError> {
        if value.get("odelabWork").is_none_or(Value::is_null) {
            return Err(located(
                "the work",
                "\"odelabWork\" is missing: this is not an odelab work file",
            ));
        }
        let file: WorkFile = read(value, "")?;
        if file.odelab_work != VERSION {
            return Err(located(
                "odelabWork",
                format!("this page reads work files of version {VERSION}"),
            ));
        }
        Ok(Work {
            assignment: file.assignment,
            student: file.student,
            student_id: super::variant::student_id(file.student_id.as_deref())?,
            answers: file.answers.unwrap_or_default(),
        })
    }
}
