//! What a user asks for: the `solve` / `Integrator` spec, read with serde at the
//! boundary and validated here, in the core, so every front end gets the same errors.

use crate::error::OdeError;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Default cap on the number of steps of one run: enough for any lecture example,
/// small enough that a typo in h cannot exhaust the page's memory.
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// A request to integrate a model with a method (JS field names in camelCase).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SolveSpec {
    /// Model id, e.g. "pendulum".
    pub model: String,
    /// Parameter overrides by name; the rest keep the model's defaults.
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// Initial state; the model's default when absent.
    #[serde(default)]
    pub y0: Option<Vec<f64>>,
    /// Method id, e.g. "rk4".
    pub method: String,
    /// Start time (default 0).
    #[serde(default)]
    pub t0: Option<f64>,
    /// End time; the model's default when absent.
    #[serde(default)]
    pub t1: Option<f64>,
    /// Step size (required by fixed-step methods).
    #[serde(default)]
    pub h: Option<f64>,
    /// Step budget (default [`DEFAULT_MAX_STEPS`]).
    #[serde(default)]
    pub max_steps: Option<usize>,
}

/// Checks that a number is finite, naming it in the error.
pub(crate) fn finite(value: f64, what: &str) -> Result<f64, OdeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(OdeError::NotFinite {
            what: what.to_string(),
        })
    }
}

/// The time grid of a fixed-step run, checked: t0 < t1, h > 0, within budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub t0: f64,
    pub t1: f64,
    pub h: f64,
    /// Number of steps; the last one is shortened to land exactly on t1.
    pub steps: usize,
}

impl Grid {
    pub fn new(t0: f64, t1: f64, h: f64, max_steps: usize) -> Result<Self, OdeError> {
        let t0 = finite(t0, "start time t0")?;
        let t1 = finite(t1, "end time t1")?;
        if h.is_nan() || h <= 0.0 {
            return Err(OdeError::BadStepSize { h });
        }
        let h = finite(h, "step size h")?;
        if t1 <= t0 {
            return Err(OdeError::BadInterval { t0, t1 });
        }
        let ratio = (t1 - t0) / h;
        if ratio > max_steps as f64 {
            return Err(OdeError::StepBudget {
                needed: ratio.ceil(),
                max_steps,
            });
        }
        // A ratio within rounding of an integer means h divides the interval: no
        // sliver of a last step.
        let nearest = ratio.round();
        let steps = if (ratio - nearest).abs() <= 1e-9 * ratio.max(1.0) {
            nearest as usize
        } else {
            ratio.ceil() as usize
        };
        Ok(Grid {
            t0,
            t1,
            h,
            steps: steps.max(1),
        })
    }

    /// Time of grid point `k` (0 ≤ k ≤ steps), computed from t0 rather than
    /// accumulated, so round-off does not drift.
    pub fn time(&self, k: usize) -> f64 {
        if k >= self.steps {
            self.t1
        } else {
            self.t0 + k as f64 * self.h
        }
    }
}

/// The field names `SolveSpec` accepts, read from its serde derive (so the list can
/// never fall out of date).
pub fn spec_fields() -> &'static [&'static str] {
    use serde::de::{self, Deserializer, Visitor};

    struct FieldNames(Option<&'static [&'static str]>);
    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("stop")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<T: std::fmt::Display>(_: T) -> Self {
            Stop
        }
    }
    impl<'de> Deserializer<'de> for &mut FieldNames {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0 = Some(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
            enum identifier ignored_any
        }
    }
    let mut names = FieldNames(None);
    let _ = SolveSpec::deserialize(&mut names);
    names.0.unwrap_or(&[])
}

/// Refuses a spec field the API does not know, suggesting the closest known name
/// (a student's `rtoll` gets "did you mean rtol?").
pub fn check_field_names<'a>(keys: impl IntoIterator<Item = &'a str>) -> Result<(), OdeError> {
    let known = spec_fields();
    for key in keys {
        if !known.contains(&key) {
            let suggestion = known
                .iter()
                .map(|k| (edit_distance(key, k), *k))
                .filter(|(d, _)| *d <= 2)
                .min();
            let mut message = format!("unknown field `{key}`");
            if let Some((_, k)) = suggestion {
                message.push_str(&format!(" (did you mean `{k}`?)"));
            }
            message.push_str(&format!("; the fields are {}", known.join(", ")));
            return Err(OdeError::BadSpec { message });
        }
    }
    Ok(())
}

/// Levenshtein distance, for "did you mean" suggestions.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_list_comes_from_the_struct() {
        let fields = spec_fields();
        for f in [
            "model", "params", "y0", "method", "t0", "t1", "h", "maxSteps",
        ] {
            assert!(fields.contains(&f), "{f} in {fields:?}");
        }
    }

    #[test]
    fn unknown_field_gets_a_suggestion() {
        let err = check_field_names(["model", "hh"]).unwrap_err().to_string();
        assert!(
            err.contains("unknown field `hh` (did you mean `h`?)"),
            "{err}"
        );
        assert!(check_field_names(["model", "method", "h"]).is_ok());
        let err = check_field_names(["zzzzzz"]).unwrap_err().to_string();
        assert!(!err.contains("did you mean"), "{err}");
    }
}
