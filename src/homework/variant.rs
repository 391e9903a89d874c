//! A variant per student: an assignment may declare parameters with ranges,
//!
//! ```json
//! "parameters": { "k": { "min": 50, "max": 150, "step": 1 } }
//! ```
//!
//! and write `{ "param": "k" }` wherever a check takes a number (a reference's
//! `params`, `y0`, `t1`, a tolerance, a number task's `value`). Each student's values
//! follow from the assignment and their student id, deterministically:
//!
//! u = the first 8 bytes, big-endian, of SHA-256("odelab-variant\n" + digest + "\n" +
//! studentId + "\n" + name), shifted right by 11 and divided by 2⁵³ (so u ∈ [0, 1));
//! the value is min + ⌊u·(n + 1)⌋·step with n = ⌊(max − min)/step⌋ when `step` is
//! given (every grid point in [min, max] equally likely), else min + u·(max − min).
//!
//! `digest` is the assignment's (`digest.rs`), so an edited assignment deals new
//! values. The same text runs in the student's page, on the lecturer's grading page
//! and here, so a check and a re-grade see the same numbers.

use super::read::{child, located, positive, read};
use crate::error::{num, OdeError};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Most parameters one assignment may declare.
pub const MAX_PARAMETERS: usize = 32;
/// Longest student id (characters).
pub const MAX_STUDENT_ID: usize = 200;

/// One declared parameter's range.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, tsify::Tsify)]
#[serde(deny_unknown_fields)]
#[tsify(rename = "ParameterRange")]
pub struct Range {
    pub min: f64,
    pub max: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub step: Option<f64>,
}

/// The declared parameters, by name.
pub type Parameters = BTreeMap<String, Range>;

/// Reads `parameters` of an assignment (absent: none).
pub fn read_parameters(assignment: &Value) -> Result<Parameters, OdeError> {
    let Some(v) = assignment.get("parameters").filter(|v| !v.is_null()) else {
        return Ok(Parameters::new());
    };
    let parameters: Parameters = read(v, "parameters")?;
    if parameters.len() > MAX_PARAMETERS {
        return Err(located(
            "parameters",
            format!(
                "at most {MAX_PARAMETERS} parameters, got {}",
                parameters.len()
            ),
        ));
    }
    for (name, &Range { min, max, step }) in &parameters {
        let place = child("parameters", name);
        if name.trim().is_empty() {
            return Err(located(
                "parameters",
                "a parameter's name must not be empty",
            ));
        }
        if max < min {
            return Err(located(
                &child(&place, "max"),
                format!("must be at least min = {}", num(min)),
            ));
        }
        if let Some(s) = positive(step, &child(&place, "step"))? {
            if (max - min) / s > 1e9 {
                return Err(located(
                    &child(&place, "step"),
                    "gives more than 10⁹ values: make it larger",
                ));
            }
        }
    }
    Ok(parameters)
}

/// u ∈ [0, 1) for one parameter (see the module doc).
pub fn unit(digest: &str, student_id: &str, name: &str) -> f64 {
    let text = format!("odelab-variant\n{digest}\n{student_id}\n{name}");
    let hash = Sha256::digest(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    (u64::from_be_bytes(first) >> 11) as f64 / (1u64 << 53) as f64
}

/// A parameter's value for u ∈ [0, 1).
pub fn value_at(range: &Range, u: f64) -> f64 {
    match range.step {
        Some(step) => {
            let n = ((range.max - range.min) / step * (1.0 + 1e-12)).floor();
            let k = (u * (n + 1.0)).floor().min(n);
            // Rounded to 12 significant digits so that 0.1 + 3·0.1 reads 0.4.
            round12(range.min + k * step)
        }
        None => range.min + u * (range.max - range.min),
    }
}

fn round12(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// Every parameter's value for a student.
pub fn values(parameters: &Parameters, digest: &str, student_id: &str) -> BTreeMap<String, f64> {
    parameters
        .iter()
        .map(|(name, range)| {
            (
                name.clone(),
                value_at(range, unit(digest, student_id, name)),
            )
        })
        .collect()
}

/// Each parameter at its range's low end: what an assignment is checked with before any
/// student id is known.
pub fn lows(parameters: &Parameters) -> BTreeMap<String, f64> {
    parameters
        .iter()
        .map(|(name, r)| (name.clone(), r.min))
        .collect()
}

/// A student id as a work gives it: trimmed, non-empty, not too long.
pub fn student_id(raw: Option<&str>) -> Result<Option<String>, OdeError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(id) if id.chars().count() > MAX_STUDENT_ID => Err(located(
            "studentId",
            format!("is longer than {MAX_STUDENT_ID} characters"),
        )),
        Some(id) => Ok(Some(id.to_string())),
    }
}

/// `value` with every `{ "param": "k" }` replaced by k's value; an unknown name is an
/// error at its place.
pub fn substitute(
    value: &Value,
    values: &BTreeMap<String, f64>,
    place: &str,
) -> Result<Value, OdeError> {
    match value {
        Value::Object(map) if map.len() == 1 && map.contains_key("param") => {
            let name = map.get("param").and_then(Value::as_str).unwrap_or_default();
            match values.get(name) {
                Some(x) => Ok(Value::from(*x)),
                None if values.is_empty() => Err(located(
                    place,
                    format!(
                        "names the parameter \"{name}\", but the assignment declares no \
                         \"parameters\""
                    ),
                )),
                None => Err(located(
                    place,
                    format!(
                        "names the parameter \"{name}\"; the assignment's parameters are {}",
                        values.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| Ok((k.clone(), substitute(v, values, &child(place, k))?)))
            .collect::<Result<serde_json::Map<_, _>, _>>()
            .map(Value::Object),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| substitute(v, values, &format!("{place}[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}
