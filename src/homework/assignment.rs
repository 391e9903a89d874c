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
//!
//! Two extensions: `parameters` (a variant per student, `variant.rs`: every
//! `{ "param": "k" }` in a check is that student's value of k), and keyed tasks
//! (`"keyed": true` and no `check`: the check is in a key file that stays with the
//! lecturer, `key.rs`; without the key such a task is recorded, not graded).

use super::key::Key;
use super::number::NumberCheck;
use super::order::OrderCheck;
use super::read::{child, located, read};
use super::run::RunCheck;
use super::system::SystemCheck;
use super::tableau::TableauCheck;
use super::variant::{read_parameters, substitute, Parameters};
use crate::error::OdeError;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

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
    /// A keyed task read without its key: the answer is recorded, not graded. The
    /// kind is the task's.
    Recorded(&'static str),
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
            Check::Recorded(kind) => kind,
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
            Check::Recorded(kind) => answer_keys_of(kind),
        }
    }
}

/// The answer fields a kind reads.
fn answer_keys_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "tableau" => super::tableau::ANSWER_KEYS,
        "system" => super::system::ANSWER_KEYS,
        "number" => super::number::ANSWER_KEYS,
        "run" => super::run::ANSWER_KEYS,
        _ => super::order::ANSWER_KEYS,
    }
}

/// Reads a check of `kind` (one of [`KINDS`], checked by the caller) at `place`.
fn read_check(kind: &str, check: &Value, place: &str) -> Result<Check, OdeError> {
    Ok(match kind {
        "tableau" => Check::Tableau(TableauCheck::read(check, place)?),
        "system" => Check::System(SystemCheck::read(check, place)?),
        "number" => Check::Number(NumberCheck::read(check, place)?),
        "run" => Check::Run(RunCheck::read(check, place)?),
        _ => Check::Order(OrderCheck::read(check, place)?),
    })
}

/// An assignment as the file writes it; `parameters` and `key` are read on their own
/// (`variant::read_parameters`, `Key::read`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AssignmentFile {
    odelab_assignment: Value,
    title: Option<String>,
    intro: Option<String>,
    tasks: Vec<TaskFile>,
    #[allow(dead_code)]
    parameters: Option<IgnoredAny>,
    key: Option<Value>,
}

/// A task as the file writes it; its check is read by its kind.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskFile {
    id: String,
    points: Option<f64>,
    kind: String,
    prompt: Option<String>,
    check: Option<Value>,
    keyed: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: String,
    pub points: f64,
    pub prompt: String,
    pub check: Check,
    /// The check is in the lecturer's key, not in the assignment.
    pub keyed: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub title: String,
    pub intro: String,
    pub tasks: Vec<Task>,
    /// Declared parameters of a variant per student (empty: one variant for all).
    pub parameters: Parameters,
}

/// The parameter values checks are read with, and the key (if the lecturer has it).
struct Context<'a> {
    values: &'a BTreeMap<String, f64>,
    key: Option<&'a Key>,
}

fn read_task(task: TaskFile, place: &str, cx: &Context) -> Result<Task, OdeError> {
    let id = task.id.trim().to_string();
    if id.is_empty() {
        return Err(located(&child(place, "id"), "must not be empty"));
    }
    let points = match task.points {
        Some(p) if p < 0.0 => {
            return Err(located(&child(place, "points"), "must be 0 or more"));
        }
        p => p.unwrap_or(1.0),
    };
    let Some(&kind) = KINDS.iter().find(|k| **k == task.kind) else {
        return Err(located(
            &child(place, "kind"),
            format!(
                "unknown kind \"{}\"; the kinds are {}",
                task.kind,
                KINDS.join(", ")
            ),
        ));
    };
    let keyed = task.keyed.unwrap_or(false);
    let check = if keyed {
        if task.check.is_some() {
            return Err(located(
                &child(place, "check"),
                "a keyed task keeps its check in the key file, not here (students load \
                 this file)",
            ));
        }
        match cx.key.map(|k| k.check_of(&id)) {
            None => Check::Recorded(kind),
            Some(None) => {
                return Err(located(
                    "key.checks",
                    format!("has no check for the keyed task \"{id}\""),
                ))
            }
            Some(Some(raw)) => {
                let check_place = child("key.checks", &id);
                let raw = substitute(raw, cx.values, &check_place)?;
                match read_check(kind, &raw, &check_place)? {
                    // Graded with the key, on the lecturer's page only: the numbers stay.
                    Check::System(c) => Check::System(SystemCheck { reveal: true, ..c }),
                    other => other,
                }
            }
        }
    } else {
        let check_place = child(place, "check");
        let Some(raw) = &task.check else {
            return Err(located(place, "\"check\" is missing"));
        };
        read_check(
            kind,
            &substitute(raw, cx.values, &check_place)?,
            &check_place,
        )?
    };
    Ok(Task {
        id,
        points,
        prompt: task.prompt.unwrap_or_default(),
        check,
        keyed,
    })
}

impl Assignment {
    /// Reads and checks an assignment, its parameters at the low ends of their ranges
    /// and its keyed tasks recorded (unless the assignment carries its `key`).
    pub fn read(value: &Value) -> Result<Assignment, OdeError> {
        let low = super::variant::lows(&read_parameters(value)?);
        Self::read_with(value, &low)
    }

    /// Reads and checks an assignment with `values` for its parameters (which must be
    /// all of them) and the key it carries under `key`, if any.
    pub fn read_with(
        value: &Value,
        values: &BTreeMap<String, f64>,
    ) -> Result<Assignment, OdeError> {
        if value.get("odelabAssignment").is_none_or(Value::is_null) {
            return Err(located(
                "",
                "\"odelabAssignment\" is missing: this is not an odelab assignment",
            ));
        }
        let file: AssignmentFile = read(value, "")?;
        let parameters = read_parameters(value)?;
        if let Some(missing) = parameters.keys().find(|k| !values.contains_key(*k)) {
            return Err(located("parameters", format!("no value for \"{missing}\"")));
        }
        let key = match &file.key {
            None => None,
            Some(k) => Some(Key::read(k, &super::digest(value))?),
        };
        let cx = Context {
            values,
            key: key.as_ref(),
        };
        match file.odelab_assignment.as_u64() {
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
        if file.tasks.len() > MAX_TASKS {
            return Err(located(
                "tasks",
                format!("at most {MAX_TASKS} tasks, got {}", file.tasks.len()),
            ));
        }
        let mut tasks: Vec<Task> = Vec::with_capacity(file.tasks.len());
        for (i, item) in file.tasks.into_iter().enumerate() {
            let place = format!("tasks[{i}]");
            let task = read_task(item, &place, &cx)?;
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
        if let Some(key) = &key {
            let ids: Vec<(&str, bool)> = tasks.iter().map(|t| (t.id.as_str(), t.keyed)).collect();
            key.only_keyed(&ids)?;
        }
        Ok(Assignment {
            parameters,
            title: file.title.unwrap_or_default(),
            intro: file.intro.unwrap_or_default(),
            tasks,
        })
    }
}
