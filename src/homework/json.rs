//! Reading JSON a lecturer wrote by hand, with every error naming its place:
//! `tasks[2].check: "value" is missing`, `tasks[0].points: must be a number, got "two"`,
//! `tasks[1].check: unknown field "reltol"; the fields are …`. The place of the whole
//! file is the empty string, and its errors have no prefix.

use crate::error::{num, OdeError};
use serde_json::{Map, Value};

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

/// A short description of a JSON value for an error message ("got \"two\"").
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), num),
        Value::String(s) if s.chars().count() > 40 => {
            format!("\"{}…\"", s.chars().take(40).collect::<String>())
        }
        Value::String(s) => format!("\"{s}\""),
        Value::Array(a) => format!("a list of {} entries", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

/// A JSON object at a known place.
#[derive(Debug, Clone, Copy)]
pub struct Obj<'a> {
    map: &'a Map<String, Value>,
    place: &'a str,
}

impl<'a> Obj<'a> {
    /// `value` as an object, or an error naming `place`.
    pub fn new(value: &'a Value, place: &'a str) -> Result<Self, OdeError> {
        match value {
            Value::Object(map) => Ok(Obj { map, place }),
            other => Err(located(
                place,
                format!("must be an object {{ … }}, got {}", describe(other)),
            )),
        }
    }

    pub fn place(&self) -> &'a str {
        self.place
    }

    /// Refuses fields outside `known` (a misspelt field would otherwise be ignored).
    pub fn only(&self, known: &[&str]) -> Result<(), OdeError> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(located(
                self.place,
                format!(
                    "unknown field \"{k}\"; the fields are {}",
                    known
                        .iter()
                        .map(|f| format!("\"{f}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The field, absent or `null` as `None`.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn require(&self, key: &str) -> Result<&'a Value, OdeError> {
        self.get(key)
            .ok_or_else(|| located(self.place, format!("\"{key}\" is missing")))
    }

    fn wrong(&self, key: &str, what: &str, got: &Value) -> OdeError {
        located(
            &child(self.place, key),
            format!("must be {what}, got {}", describe(got)),
        )
    }

    /// An optional finite number.
    pub fn number(&self, key: &str) -> Result<Option<f64>, OdeError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(self.wrong(key, "a number", v)),
            },
        }
    }

    pub fn require_number(&self, key: &str) -> Result<f64, OdeError> {
        self.require(key)?;
        Ok(self.number(key)?.unwrap_or(f64::NAN))
    }

    /// An optional number > 0.
    pub fn positive(&self, key: &str) -> Result<Option<f64>, OdeError> {
        match self.number(key)? {
            Some(x) if x <= 0.0 => Err(self.wrong(key, "a positive number", &Value::from(x))),
            other => Ok(other),
        }
    }

    /// An optional whole number ≥ 0.
    pub fn count(&self, key: &str) -> Result<Option<u64>, OdeError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .or_else(|| {
                    v.as_f64()
                        .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 9e15)
                        .map(|x| x as u64)
                })
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a whole number ≥ 0", v)),
        }
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>, OdeError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.wrong(key, "true or false", v)),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<&'a str>, OdeError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.wrong(key, "text in quotes", v)),
        }
    }

    pub fn require_string(&self, key: &str) -> Result<&'a str, OdeError> {
        self.require(key)?;
        Ok(self.string(key)?.unwrap_or_default())
    }

    /// An optional list of finite numbers.
    pub fn numbers(&self, key: &str) -> Result<Option<Vec<f64>>, OdeError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_f64().filter(|x| x.is_finite()))
                .collect::<Option<Vec<f64>>>()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a list of numbers", &Value::Array(items.clone()))),
            Some(v) => Err(self.wrong(key, "a list of numbers", v)),
        }
    }

    /// An optional object of name → number (a model's parameters, a states map).
    pub fn number_map(
        &self,
        key: &str,
    ) -> Result<std::collections::BTreeMap<String, f64>, OdeError> {
        let Some(v) = self.get(key) else {
            return Ok(Default::default());
        };
        let place = child(self.place, key);
        let Value::Object(map) = v else {
            return Err(self.wrong(key, "an object of names and numbers", v));
        };
        map.iter()
            .map(|(k, x)| match x.as_f64().filter(|x| x.is_finite()) {
                Some(x) => Ok((k.clone(), x)),
                None => Err(located(
                    &child(&place, k),
                    format!("must be a number, got {}", describe(x)),
                )),
            })
            .collect()
    }

    /// An optional object of name → text.
    pub fn string_map(
        &self,
        key: &str,
    ) -> Result<Option<std::collections::BTreeMap<String, String>>, OdeError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let place = child(self.place, key);
        let Value::Object(map) = v else {
            return Err(self.wrong(key, "an object of names", v));
        };
        map.iter()
            .map(|(k, x)| match x {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err(located(
                    &child(&place, k),
                    format!("must be a name in quotes, got {}", describe(other)),
                )),
            })
            .collect::<Result<_, _>>()
            .map(Some)
    }
}
