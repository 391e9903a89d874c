//! An assignment's digest: "sha256:" and the hex SHA-256 of its canonical JSON — the
//! parsed file written back by serde_json with object keys sorted (its `Map` is a
//! `BTreeMap`) and no whitespace, so re-indenting or reordering fields keeps the digest
//! and changing any value (a task, a tolerance, a word of a prompt) changes it. Numbers
//! are written as serde_json reads them: `1` and `1.0` differ. A work file names the
//! digest of the assignment it answers; the page keys its autosave by it. A `key`
//! joined to the assignment (`key.rs`) is left out: the digest is that of the file
//! students load.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical JSON text of a value.
pub fn canonical_json(value: &Value) -> String {
    // serde_json writes a `Value` without failing (keys are strings).
    serde_json::to_string(value).unwrap_or_default()
}

/// "sha256:<64 hex digits>".
pub fn digest(value: &Value) -> String {
    let without_key;
    let value = match value {
        Value::Object(map) if map.contains_key("key") => {
            let mut map = map.clone();
            map.remove("key");
            without_key = Value::Object(map);
            &without_key
        }
        other => other,
    };
    let hash = Sha256::digest(canonical_json(value).as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
