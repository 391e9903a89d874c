//! The contract across the wasm boundary: the TypeScript declarations of the packages
//! are derived from the Rust request types (tsify), so each declaration names exactly
//! the fields its reader accepts; and a field given as `null` reads as absent.

use odelab::spec::{field_names, ControllerSpec, EventSpec, SolveSpec};
use odelab::stability::{StabilitySpec, TableauSpec};
use serde::de::DeserializeOwned;
use tsify::Tsify;

/// The top-level keys of an `export interface … { … }` declaration, in order.
fn declared_keys(decl: &str) -> Vec<String> {
    decl.lines()
        .filter(|l| l.starts_with("    ") && !l.starts_with("     ") && l.contains(':'))
        .filter(|l| !l.trim_start().starts_with('*') && !l.trim_start().starts_with("/**"))
        .map(|l| {
            let key = l.trim_start().split(':').next().unwrap_or_default();
            key.trim_end_matches('?').to_string()
        })
        .collect()
}

fn assert_declared_as_read<T: Tsify + DeserializeOwned>(name: &str) {
    let decl = T::DECL;
    assert!(
        decl.contains(&format!("export interface {name} {{")),
        "{decl}"
    );
    assert_eq!(declared_keys(decl), field_names::<T>(), "{decl}");
}

#[test]
fn each_request_declaration_names_the_fields_its_reader_accepts() {
    assert_declared_as_read::<SolveSpec>("SolveSpec");
    assert_declared_as_read::<ControllerSpec>("ControllerSpec");
    assert_declared_as_read::<EventSpec>("EventSpec");
    assert_declared_as_read::<TableauSpec>("TableauSpec");
    assert_declared_as_read::<StabilitySpec>("StabilitySpec");
    assert_declared_as_read::<odelab::method::MethodParams>("MethodParams");
}

#[test]
fn declarations_keep_the_published_spellings_of_their_fields() {
    let spec = SolveSpec::DECL;
    for line in [
        "method: string;",
        "params?: Record<string, number>;",
        "rtol?: number | number[];",
        "norm?: \"rms\" | \"max\";",
        "controller?: ControllerSpec | undefined;",
        "events?: EventSpec[];",
        "methodParams?: MethodParams;",
        "formulation?: \"native\" | \"augmented\" | \"state-space\" | \"index-3\";",
    ] {
        assert!(spec.contains(line), "{line} missing from\n{spec}");
    }
    assert!(EventSpec::DECL.contains("direction?: -1 | 0 | 1;"));
    assert!(TableauSpec::DECL.contains("a: TableauEntry[][];"));
    let code = <odelab::driver::Code as Tsify>::DECL;
    assert!(code.contains("export type DiagnosisCode ="), "{code}");
    assert!(code.contains("\"tolerance-too-tight\""), "{code}");
}

#[test]
fn a_spec_field_given_as_null_reads_as_absent() {
    let spec: SolveSpec = serde_json::from_value(serde_json::json!({
        "model": "pendulum", "method": "rk4", "params": null, "events": null, "y0": null
    }))
    .expect("null means absent");
    assert!(spec.params.is_empty());
    assert!(spec.events.is_empty());
    assert_eq!(spec.y0, None);
    let with_null_model: SolveSpec =
        serde_json::from_value(serde_json::json!({ "model": null, "method": "rk4" }))
            .expect("null model means absent");
    assert_eq!(with_null_model.model, "");
}
