//! Homework bindings (labs package): `readAssignment`, `assignmentDigest` and
//! `gradeAssignment` over the core's `crate::homework`. Assignments and works come as
//! JSON text or plain JS objects; results cross as JSON text parsed by JS, so
//! `measured` (any JSON) arrives as plain objects, not as serde-wasm-bindgen `Map`s.

use super::js_error;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The JSON text of an assignment or work given as text or as a plain JS object.
fn homework_json(value: &JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    let text = match value.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(value)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| JsError::new(&format!("{what} is neither JSON text nor an object")))?,
    };
    crate::homework::parse_json(&text, what).map_err(js_error)
}

/// A serde value as a plain JS value (through JSON text).
fn homework_to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("could not return the result").into())
}

/// Checks an assignment (text or object) and lists its tasks; throws naming the place
/// of the first problem (`tasks[2].check: "value" is missing`).
#[wasm_bindgen(js_name = readAssignment, unchecked_return_type = "AssignmentSummary")]
pub fn read_assignment(
    #[wasm_bindgen(unchecked_param_type = "string | object")] assignment: JsValue,
) -> Result<JsValue, JsValue> {
    let value = homework_json(&assignment, "the assignment")?;
    homework_to_js(&crate::homework::read_assignment(&value).map_err(js_error)?)
}

/// An assignment's digest, "sha256:…" (the SHA-256 of its canonical JSON).
#[wasm_bindgen(js_name = assignmentDigest)]
pub fn assignment_digest(
    #[wasm_bindgen(unchecked_param_type = "string | object")] assignment: JsValue,
) -> Result<String, JsValue> {
    Ok(crate::homework::digest(&homework_json(
        &assignment,
        "the assignment",
    )?))
}

/// Grades a work against an assignment (each text or object), re-running every check;
/// a score written in the work is never read.
#[wasm_bindgen(js_name = gradeAssignment, unchecked_return_type = "Grade")]
pub fn grade_assignment(
    #[wasm_bindgen(unchecked_param_type = "string | object")] assignment: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | object")] work: JsValue,
) -> Result<JsValue, JsValue> {
    let assignment = homework_json(&assignment, "the assignment")?;
    let work = homework_json(&work, "the work")?;
    homework_to_js(&crate::homework::grade_assignment(&assignment, &work).map_err(js_error)?)
}
