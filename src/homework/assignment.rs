//! The assignment format, a public contract lecturers write by hand:
//!
//! ```json
//! { "odelabAssignment": 1, "title": "…", "intro": "…",
//!   "tasks": [ { "id": "order3", "points": 2, "kind": "tableau", "prompt": "…",
//!                "check": { "explicit": true, "stages": 3, "order": 3 } } ] }
//! ```
//!
//! Kinds and their checks: `tableau` (`tableau.rs`), `system` (`system.rs`), `number`
//! (`number.rs`), `run` (`run.rs`), `order` (`order.rs`). `points` defaults to 1 and
//! must be ≥ 0; ids are unique and non-empty. Unknown fields are refused (a misspelt
//! `reltol` would otherwise be ignored), and every error names its place:
//! `tasks[2].check: "value" is missing`.

use super::json::{child, located, Obj};
use super::number::NumberCheck;
use super::order::OrderCheck;
use super::run::RunCheck;
use super::system::SystemCheck;
use super::tableau::TableauCheck;
use crate::error::OdeError;
use serde_json::Value;

/// The format version this core reads.
pub const VERSION: u64 = 1;
/// Most tasks one assignment may have.
pub const MAX_TASKS: usize = 100;

/// A task's check, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    Tableau(TableauCheck),
    System(SystemCheck),
    Number(NumberCheck),
    Run(RunCheck),
    Order(OrderCheck),
}

/// The kinds, as the `kind` field names them.
pub const KINDS: &[&str] = &["tableau", "system", "number", "run", "order"];

impl Check {
    pub fn kind(&self) -> &'static str {
        match self {
            Check::Tableau(_) => "tableau",
            Check::System(_) => "system",
            Check::Number(_) => "number",
            Check::Run(_) => "run",
            Check::Order(_) => "order",
        }
    }

    /// The answer fields the kind reads (an answer with none of them is unanswered).
    pub fn answer_keys(&self) -> &'static [&'static str] {
        match self {
            Check::Tableau(_) => super::tableau::ANSWER_KEYS,
            Check::System(_) => super::system::ANSWER_KEYS,
            Check::Number(_) => super::number::ANSWER_KEYS,
            Check::Run(_) => super::run::ANSWER_KEYS,
            Check::Order(_) => super::order::ANSWER_KEYS,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: String,
    pub points: f64,
    pub prompt: String,
    pub check: Check,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub title: String,
    pub intro: String,
    pub tasks: Vec<Task>,
}

fn read_task(value: &Value, place: &str) -> Result<Task, OdeError> {
    let task = Obj::new(value, place)?;
    task.only(&["id", "points", "kind", "prompt", "check"])?;
    let id = task.require_string("id")?.trim().to_string();
    if id.is_empty() {
        return Err(located(&child(place, "id"), "must not be empty"));
    }
    let points = match task.number("points")? {
        Some(p) if p < 0.0 => {
            return Err(located(&child(place, "points"), "must be 0 or more"));
        }
        p => p.unwrap_or(1.0),
    };
    let kind = task.require_string("kind")?;
    let check_place = child(place, "check");
    let check = Obj::new(task.require("check")?, &check_place)?;
    let check = match kind {
        "tableau" => Check::Tableau(TableauCheck::read(&check)?),
        "system" => Check::System(SystemCheck::read(&check)?),
        "number" => Check::Number(NumberCheck::read(&check)?),
        "run" => Check::Run(RunCheck::read(&check)?),
        "order" => Check::Order(OrderCheck::read(&check)?),
        other => {
            return Err(located(
                &child(place, "kind"),
                format!(
                    "unknown kind \"{other}\"; the kinds are {}",
                    KINDS.join(", ")
                ),
            ))
        }
    };
    Ok(Task {
        id,
        points,
        prompt: task.string("prompt")?.unwrap_or_default().to_string(),
        check,
    })
}

impl Assignment {
    /// Reads and checks an assignment.
    pub fn read(value: &Value) -> Result<Assignment, OdeError> {
        let top = Obj::new(value, "")?;
        if !top.has("odelabAssignment") {
            return Err(located(
                "",
                "\"odelabAssignment\" is missing: this is not an odelab assignment",
            ));
        }
        top.only(&["odelabAssignment", "title", "intro", "tasks"])?;
        match top.count("odelabAssignment")? {
            Some(VERSION) => {}
            other => {
                return Err(located(
                    "odelabAssignment",
                    format!(
                        "version {} is not known to this page (it reads version {VERSION})",
                        other.unwrap_or(0)
                    ),
                ))
            }
        }
        let Value::Array(items) = top.require("tasks")? else {
            return Err(located("tasks", "must be a list [ … ] of tasks"));
        };
        if items.len() > MAX_TASKS {
            return Err(located(
                "tasks",
                format!("at most {MAX_TASKS} tasks, got {}", items.len()),
            ));
        }
        let mut tasks: Vec<Task> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let place = format!("tasks[{i}]");
            let task = read_task(item, &place)?;
            if tasks.iter().any(|t| t.id == task.id) {
                return Err(located(
                    &child(&place, "id"),
                    format!(
                        "\"{}\" is the id of an earlier task; ids must differ",
                        task.id
                    ),
                ));
            }
            tasks.push(task);
        }
        Ok(Assignment {
            title: top.string("title")?.unwrap_or_default().to_string(),
            intro: top.string("intro")?.unwrap_or_default().to_string(),
            tasks,
        })
    }
}
