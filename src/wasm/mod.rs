//! The binding: the one module that knows about wasm-bindgen and js-sys.
//!
//! It turns core types into JavaScript values and core errors into thrown `Error`s.
//! Bulk arrays cross as `Float64Array` copies (never views into wasm memory, which
//! are invalidated when memory grows); small objects cross through serde.
//!
//! The same crate is built into two wasm packages, chosen by cargo features
//! (`scripts/build-wasm.sh`): `run.rs` (feature `run`, without `full`) is
//! `pkg/odelab.js`, what the page needs for its first plot — the catalogues, `solve`,
//! `Integrator`, `describeSystem` — over a core that runs the catalogue models only;
//! `labs.rs` (feature `labs`, with `run` and `full`) is `pkg-labs/odelab_labs.js`,
//! loaded on first use — the stability and convergence labs, `spectrum`, tableau
//! analysis, the run/formulation comparisons, and the run API again over the whole
//! engine (user systems, formulations, sparse LU). What pkg/ cannot run it refuses with
//! `OdeError::NotInThisBuild`, thrown with `code` = [`crate::error::NOT_IN_THIS_BUILD`] by `solve`,
//! `new Integrator` and `describeSystem`; the worker re-runs those in pkg-labs/. A new binding goes into the file of the package
//! that needs it (a lab's function into `labs.rs`), reads its request with [`read`],
//! and returns a Rust type whose TypeScript declaration is derived (`tsify::Tsify`, on
//! the core type itself or on a struct here whose typed arrays cross as they are,
//! `serde_wasm_bindgen::preserve`): no declaration is written by hand. Each package's
//! `.wasm` holds only the core code its bindings reach (the linker drops the rest); a
//! declaration costs no bytes (wasm-bindgen moves it into the `.d.ts`).

#[cfg(feature = "labs")]
mod homework;
#[cfg(feature = "labs")]
mod labs;
#[cfg(feature = "run")]
mod run;

use crate::convergence::ConvergenceSpec;
use crate::error::OdeError;
use crate::spec::{check_fields, field_names, ControllerSpec, EventSpec, SolveSpec};
use crate::spectrum::SpectrumSpec;
use crate::stability::{StabilitySpec, TableauSpec};
use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What an `Error` thrown by the engine carries besides `message`, the text to show.
#[derive(Serialize, tsify::Tsify)]
pub struct OdeErrorFields {
    /// The kind of error, stable across versions: "unknown-method", "bad-spec",
    /// "parse", "blew-up", "not-in-this-build", … (one per kind; the text may change).
    pub code: &'static str,
    /// A mistake in a typed text: its line and column (1-based; columns count characters).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub column: Option<u32>,
    /// An error of a running step: the t and h of that step.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub h: Option<f64>,
}

/// A core error as a thrown JS `Error`: `message` is its text, and the fields say what
/// a program needs without reading it: `code` ([`OdeError::code`]; the worker re-runs a
/// [`crate::error::NOT_IN_THIS_BUILD`] in pkg-labs/), `line` and `column` (1-based) for a located
/// error in a text, `t` and `h` for an error of a running step.
fn js_error(e: OdeError) -> JsValue {
    let value: JsValue = JsError::new(&e.to_string()).into();
    let (line, column) = match e {
        OdeError::Parse { line, column, .. } => (Some(line as u32), Some(column as u32)),
        _ => (None, None),
    };
    let step = e.step();
    let fields = OdeErrorFields {
        code: e.code(),
        line,
        column,
        t: step.map(|s| s.0),
        h: step.map(|s| s.1),
    };
    // Setting a property of a fresh Error object cannot fail.
    let put = |key: &str, v: JsValue| {
        let _ = Reflect::set(&value, &JsValue::from_str(key), &v);
    };
    put("code", JsValue::from_str(fields.code));
    let numbers = [
        ("line", fields.line.map(f64::from)),
        ("column", fields.column.map(f64::from)),
        ("t", fields.t),
        ("h", fields.h),
    ];
    for (key, v) in numbers {
        if let Some(v) = v {
            put(key, JsValue::from_f64(v));
        }
    }
    value
}

/// Always: the first-load build leaves the field out of what it returns, while its
/// declaration stays (optional) so that both packages publish the same type.
#[cfg(not(feature = "full"))]
fn left_out<T>(_: &T) -> bool {
    true
}

fn set(obj: &Object, key: &str, value: &JsValue) -> Result<(), JsValue> {
    Reflect::set(obj, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| JsError::new(&format!("could not set field {key}")).into())
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()).into())
}

/// The own keys of a plain JS object (not of arrays or other values).
fn object_keys(value: &JsValue) -> Option<Vec<String>> {
    if !value.is_object() || Array::is_array(value) {
        return None;
    }
    let obj: &Object = value.unchecked_ref();
    Some(
        Object::keys(obj)
            .iter()
            .filter_map(|k| k.as_string())
            .collect(),
    )
}

/// An object nested in a request whose keys [`read`] checks too.
struct Nested {
    /// The request's field that holds it.
    key: &'static str,
    /// The nested struct's own fields (`field_names::<T>`).
    fields: fn() -> &'static [&'static str],
    /// The field is a list of such objects (`events`), not one object.
    list: bool,
}

impl Nested {
    const fn object(key: &'static str, fields: fn() -> &'static [&'static str]) -> Self {
        Nested {
            key,
            fields,
            list: false,
        }
    }

    const fn list(key: &'static str, fields: fn() -> &'static [&'static str]) -> Self {
        Nested {
            key,
            fields,
            list: true,
        }
    }
}

/// A request JS sends: a serde struct whose keys are checked before it is read.
/// serde-wasm-bindgen reads only the fields a struct declares, so serde's
/// `deny_unknown_fields` never sees a misspelt JS key; [`read`] refuses it instead.
trait Request: DeserializeOwned {
    /// The nested objects whose keys are checked as well.
    const NESTED: &'static [Nested] = &[];
}

const TABLEAU: Nested = Nested::object("tableau", field_names::<TableauSpec>);
#[cfg(feature = "full")]
const METHOD_PARAMS: Nested =
    Nested::object("methodParams", field_names::<crate::method::MethodParams>);

impl Request for SolveSpec {
    const NESTED: &'static [Nested] = &[
        Nested::object("controller", field_names::<ControllerSpec>),
        TABLEAU,
        Nested::list("events", field_names::<EventSpec>),
        #[cfg(feature = "full")]
        METHOD_PARAMS,
    ];
}
impl Request for TableauSpec {}
impl Request for StabilitySpec {
    const NESTED: &'static [Nested] = &[TABLEAU];
}
impl Request for ConvergenceSpec {
    const NESTED: &'static [Nested] = &[TABLEAU];
}
impl Request for SpectrumSpec {}
#[cfg(feature = "labs")]
impl Request for crate::stability::structural::StructuralSpec {
    const NESTED: &'static [Nested] = &[METHOD_PARAMS];
}

/// Refuses keys of `value` (named `what` in the message) and of its nested objects
/// that `T` does not declare.
fn check_keys<T: Request>(what: &str, value: &JsValue) -> Result<(), OdeError> {
    if let Some(keys) = object_keys(value) {
        check_fields(what, &keys, field_names::<T>())?;
    }
    for nested in T::NESTED {
        let Ok(inner) = Reflect::get(value, &JsValue::from_str(nested.key)) else {
            continue;
        };
        if nested.list {
            if Array::is_array(&inner) {
                for (i, item) in Array::from(&inner).iter().enumerate() {
                    if let Some(keys) = object_keys(&item) {
                        check_fields(&format!("{}[{i}]", nested.key), &keys, (nested.fields)())?;
                    }
                }
            }
        } else if let Some(keys) = object_keys(&inner) {
            check_fields(nested.key, &keys, (nested.fields)())?;
        }
    }
    Ok(())
}

/// Reads the request `what` ("the spec", "tableau", …): refuses unknown keys (with a
/// "did you mean" suggestion), then deserialises it; every failure is a `BadSpec` that
/// names `what` ("invalid type: string \"big\", expected f64 in the spec").
fn read<T: Request>(what: &str, value: JsValue) -> Result<T, JsValue> {
    check_keys::<T>(what, &value).map_err(js_error)?;
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| {
        unreadable(what, &e.to_string(), &value, &|v| {
            serde_wasm_bindgen::from_value::<T>(v).is_ok()
        })
    })
}

/// The error for a request that did not read: serde-wasm-bindgen's `text`, after the
/// field it concerns (it names none: the one without which the rest `reads` is it).
fn unreadable(what: &str, text: &str, value: &JsValue, reads: &dyn Fn(JsValue) -> bool) -> JsValue {
    // The JS error's text starts with its class name ("Error: …"); the page shows only
    // the message. "Reflect.get called on non-object" is JS's own wording for a number
    // or a string where an object or a list belongs.
    let text = if text.contains("Reflect.get called on non-object") {
        "expected a list or an object with named fields"
    } else {
        text.trim_start_matches("Error: ")
    };
    let field = object_keys(value).and_then(|keys| {
        keys.into_iter().find(|key| {
            let without = Object::assign(&Object::new(), value.unchecked_ref());
            Reflect::delete_property(&without, &JsValue::from_str(key)).is_ok()
                && reads(without.into())
        })
    });
    let message = match field {
        Some(field) => format!("{field}: {text} in {what}"),
        None => format!("{text} in {what}"),
    };
    js_error(OdeError::BadSpec { message })
}
