//! What grading returns — `{ score, maxScore, tasks: [{ id, passed, points, message,
//! measured }] }` — and how numbers are told in its messages (2 significant digits for
//! errors, thousands separators for counts).

use serde::Serialize;
use serde_json::Value;

/// The outcome of one task's check, before points are given.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub passed: bool,
    /// What was right or wrong, in words a student understands.
    pub message: String,
    /// The numbers the check measured (order, error, f-evaluations…).
    pub measured: Value,
}

impl Outcome {
    pub fn pass(message: impl Into<String>, measured: Value) -> Self {
        Outcome {
            passed: true,
            message: message.into(),
            measured,
        }
    }

    pub fn fail(message: impl Into<String>, measured: Value) -> Self {
        Outcome {
            passed: false,
            message: message.into(),
            measured,
        }
    }
}

/// One task's grade.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskGrade {
    pub id: String,
    pub kind: String,
    /// The work has an answer for this task.
    pub answered: bool,
    pub passed: bool,
    /// Points earned: all of the task's points when it passed, else 0.
    pub points: f64,
    /// The task's points.
    pub max_points: f64,
    pub message: String,
    #[tsify(type = "unknown")]
    pub measured: Value,
    /// A keyed task graded without its key: the answer is recorded for the lecturer.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[tsify(optional)]
    pub recorded: bool,
}

/// A whole work's grade.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[tsify(hashmap_as_object)]
#[serde(rename_all = "camelCase")]
pub struct Grade {
    pub score: f64,
    pub max_score: f64,
    /// The digest of the assignment graded against.
    pub assignment: String,
    /// The work names this assignment's digest (false: it was written for another
    /// version of the assignment, or for another one).
    pub assignment_matches: bool,
    /// The student's name, as the work gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub student: Option<String>,
    /// The student id the work gives (it chose the parameters' values).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub student_id: Option<String>,
    /// The values of the assignment's parameters this work was graded with.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[tsify(optional)]
    pub parameters: std::collections::BTreeMap<String, f64>,
    pub tasks: Vec<TaskGrade>,
}

/// A small number as "3.1e-2" (2 significant digits), 0 as "0", ∞ as "∞".
pub fn short(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.is_infinite() {
        if x > 0.0 { "∞" } else { "−∞" }.into()
    } else if x.is_nan() {
        "NaN".into()
    } else {
        let s = format!("{x:.1e}");
        s.replace(".0e", "e")
    }
}

/// A size such as a percentage with 2 significant digits, plainly where that reads
/// well (0.25, 4.3, 100), else as [`short`].
pub fn plain(x: f64) -> String {
    if x == 0.0 || !(1e-3..1e6).contains(&x.abs()) {
        return short(x);
    }
    let digits = (1.0 - crate::math::log10(x.abs()).floor()).max(0.0) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A count with thousands separators: 11,824,491.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
