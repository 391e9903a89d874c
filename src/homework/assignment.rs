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

use super::json::{child, located, Obj};
use super::key::Key;
use super::number::NumberCheck;
use super::order::OrderCheck;
use super::run::RunCheck;
use super::system::SystemCheck;
use super::tableau::TableauCheck;
use super::variant::{read_parameters, substitute, Parameters};
use crate::error::OdeError;
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

/// Reads a check of `kind` (one of [`KINDS`], checked by the caller).
fn read_check(kind: &str, check: &Obj) -> Result<Check, OdeError> {
    Ok(match kind {
        "tableau" => Check::Tableau(TableauCheck::read(check)?),
        "system" => Check::System(SystemCheck::read(check)?),
        "number" => Check::Number(NumberCheck::read(check)?),
        "run" => Check::Run(RunCheck::read(check)?),
        _ => Check::Order(OrderCheck::read(check)?),
    })
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

fn read_task(value: &Value, place: &str, cx: &Context) -> Result<Task, OdeError> {
    let task = Obj::new(value, place)?;
    task.only(&["id", "points", "kind", "prompt", "check", "keyed"])?;
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
    let Some(&kind) = KINDS.iter().find(|k| **k == kind) else {
        return Err(located(
            &child(place, "kind"),
            format!(
                "unknown kind \"{kind}\"; the kinds are {}",
                KINDS.join(", ")
            ),
        ));
    };
    let keyed = task.boolean("keyed")?.unwrap_or(false);
    let check = if keyed {
        if task.has("check") {
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
                match read_check(kind, &Obj::new(&raw, &check_place)?)? {
                    // Graded with the key, on the lecturer's page only: the numbers stay.
                    Check::System(c) => Check::System(SystemCheck { reveal: true, ..c }),
                    other => other,
                }
            }
        }
    } else {
        let check_place = child(place, "check");
        let raw = substitute(task.require("check")?, cx.values, &check_place)?;
        read_check(kind, &Obj::new(&raw, &check_place)?)?
    };
    Ok(Task {
        id,
        points,
        prompt: task.string("prompt")?.unwrap_or_default().to_string(),
        check,
        keyed,
    })
}

impl Assignment {
    /// Reads and checks an assignment, its parameters at the low ends of their ranges
    /// and its keyed tasks recorded (unless the assignment carries its `key`).
    pub fn read(value: &Value) -> Result<Assignment, OdeError> {
        let top = Obj::new(value, "")?;
        let low = super::variant::lows(&read_parameters(&top)?);
        Self::read_with(value, &low)
    }

    /// Reads and checks an assignment with `values` for its parameters (which must be
    /// all of them) and the key it carries under `key`, if any.
    pub fn read_with(
        value: &Value,
        values: &BTreeMap<String, f64>,
    ) -> Result<Assignment, OdeError> {
        let top = Obj::new(value, "")?;
        if !top.has("odelabAssignment") {
            return Err(located(
                "",
                "\"odelabAssignment\" is missing: this is not an odelab assignment",
            ));
        }
        top.only(&[
            "odelabAssignment",
            "title",
            "intro",
            "tasks",
            "parameters",
            "key",
        ])?;
        let parameters = read_parameters(&top)?;
        if let Some(missing) = parameters.keys().find(|k| !values.contains_key(*k)) {
            return Err(located("parameters", format!("no value for \"{missing}\"")));
        }
        let key = match top.get("key") {
            None => None,
            Some(k) => Some(Key::read(k, &super::digest(value))?),
        };
        let cx = Context {
            values,
            key: key.as_ref(),
        };
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
            title: top.string("title")?.unwrap_or_default().to_string(),
            intro: top.string("intro")?.unwrap_or_default().to_string(),
            tasks,
        })
    }
}
