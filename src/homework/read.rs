//! Reading the homework files through serde, as the specs are read: each part of a
//! file is a `Deserialize` type, and every error names its place, the path inside the
//! file that `serde_path_to_error` tracks:
//! `tasks[2].check: "value" is missing`,
//! `tasks[0].check.value: invalid type: string "two", expected f64`; an unknown field
//! in the words [`crate::spec::check_fields`] refuses a spec's with:
//! `unknown field "reltol" in tasks[1].check (did you mean "relTol"?); the fields are …`.
//! The place of the whole file is the empty string, and its errors have no prefix.

use crate::error::{num, OdeError};
use crate::spec::check_fields;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

/// An error at `place` (a path such as `tasks[2].check`).
pub fn located(place: &str, message: impl std::fmt::Display) -> OdeError {
    OdeError::BadFile {
        message: if place.is_empty() {
            message.to_string()
        } else {
            format!("{place}: {message}")
        },
    }
}

/// The place of `key` inside `place`.
pub fn child(place: &str, key: &str) -> String {
    if place.is_empty() {
        key.to_string()
    } else {
        format!("{place}.{key}")
    }
}

/// Reads the part of a file at `place` as a `T`.
pub fn read<T: DeserializeOwned>(value: &Value, place: &str) -> Result<T, OdeError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let segments: Vec<&Segment> = e.path().iter().collect();
        let message = e.inner().to_string();
        // serde's path of an unknown field ends at the field itself; its message lists
        // the known ones between backticks ("unknown field `x`, expected one of `a`, `b`").
        let unknown = match segments.last() {
            Some(Segment::Map { key }) => message
                .strip_prefix(&format!("unknown field `{key}`, "))
                .map(|rest| (key, rest)),
            _ => None,
        };
        let end = segments.len() - usize::from(unknown.is_some());
        let mut at = place.to_string();
        for segment in &segments[..end] {
            match segment {
                Segment::Seq { index } => at.push_str(&format!("[{index}]")),
                Segment::Map { key } => at = child(&at, key),
                Segment::Enum { variant } => at = child(&at, variant),
                Segment::Unknown => at = child(&at, "?"),
            }
        }
        match unknown {
            Some((key, rest)) => {
                let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
                unknown_field(&at, key, &known)
            }
            None => located(&at, missing(&message).unwrap_or(message)),
        }
    })
}

/// A field `key` outside `known` at `place`, in the spec reader's words.
pub fn unknown_field(place: &str, key: &str, known: &[&str]) -> OdeError {
    let place = if place.is_empty() { "the file" } else { place };
    match check_fields(place, &[key.to_string()], known) {
        Err(OdeError::BadSpec { message }) => OdeError::BadFile { message },
        _ => located(place, format!("unknown field \"{key}\"")),
    }
}

/// serde's "missing field `x`" as `"x" is missing`.
fn missing(message: &str) -> Option<String> {
    let field = message.strip_prefix("missing field `")?.strip_suffix('`')?;
    Some(format!("\"{field}\" is missing"))
}

/// An optional number that must be > 0 (`place` is the number's).
pub fn positive(x: Option<f64>, place: &str) -> Result<Option<f64>, OdeError> {
    match x {
        Some(x) if x <= 0.0 => Err(located(
            place,
            format!("must be a positive number, got {}", num(x)),
        )),
        other => Ok(other),
    }
}
