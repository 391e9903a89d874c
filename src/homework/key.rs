//! A key that stays with the lecturer: the checks of an assignment's keyed tasks
//! (`"keyed": true`, no `check`) in a file of their own, never hosted next to the
//! assignment students load (a public contract):
//!
//! ```json
//! { "odelabKey": 1, "assignment": "sha256:…",
//!   "checks": { "<task id>": { …the check, as the task's kind reads it… } } }
//! ```
//!
//! `assignment` (optional) is the digest of the assignment the key belongs to; a key
//! for another assignment, or another version of it, is refused. The lecturer's page
//! grades with the key by handing the core the assignment with the key under `key`
//! (the digest never covers `key`, so works still name the students' file). Checks in
//! a key may name parameters (`{ "param": "k" }`) as an assignment's can.

use super::read::{child, located, read};
use crate::error::OdeError;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The format version this core reads.
pub const VERSION: u64 = 1;

#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub checks: Map<String, Value>,
}

/// A key as the file writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeyFile {
    odelab_key: u64,
    assignment: Option<String>,
    checks: Map<String, Value>,
}

impl Key {
    /// Reads a key and checks that it belongs to the assignment of digest `digest`.
    pub fn read(value: &Value, digest: &str) -> Result<Key, OdeError> {
        if value.get("odelabKey").is_none_or(Value::is_null) {
            return Err(located(
                "key",
                "\"odelabKey\" is missing: this is not an odelab key file",
            ));
        }
        let file: KeyFile = read(value, "key")?;
        if file.odelab_key != VERSION {
            return Err(located(
                "key.odelabKey",
                format!("this page reads key files of version {VERSION}"),
            ));
        }
        if let Some(named) = file.assignment.filter(|named| named != digest) {
            return Err(located(
                "key.assignment",
                format!(
                    "this key belongs to another assignment, or to another version of \
                     this one ({named}; this assignment is {digest})"
                ),
            ));
        }
        Ok(Key {
            checks: file.checks,
        })
    }

    /// The key's check of task `id`.
    pub fn check_of(&self, id: &str) -> Option<&Value> {
        self.checks.get(id).filter(|v| !v.is_null())
    }

    /// Refuses a check for a task that is not keyed (it would be ignored silently);
    /// `tasks` are the assignment's (id, keyed) pairs.
    pub fn only_keyed(&self, tasks: &[(&str, bool)]) -> Result<(), OdeError> {
        for id in self.checks.keys() {
            match tasks.iter().find(|t| t.0 == id) {
                Some((_, true)) => {}
                Some(_) => {
                    return Err(located(
                        &child("key.checks", id),
                        "this task is not keyed: its check is in the assignment",
                    ))
                }
                None => {
                    return Err(located(
                        &child("key.checks", id),
                        "the assignment has no task with this id",
                    ))
                }
            }
        }
        Ok(())
    }
}

/// The assignment `assignment` with `key` joined under `key` (what the lecturer's page
/// grades with).
pub fn join(assignment: &Value, key: &Value) -> Result<Value, OdeError> {
    let mut joined = assignment.clone();
    match &mut joined {
        Value::Object(map) => {
            map.insert("key".into(), key.clone());
            Ok(joined)
        }
        _ => Err(located("", "the assignment must be an object { … }")),
    }
}
