//! The crate's modules form layers and every import points down (or within a layer):
//!
//! ```text
//! base       math, error, stats, problem, linalg, phi, linear_solver
//! model      model
//! multibody  multibody, event, expr              (built on models)
//! method     control, jacobian, tableau, stability, method
//! driver     spec, driver
//! labs       reference, compare, convergence, spectrum, homework
//! binding    wasm
//! ```
//!
//! The test reads every `crate::…` path (and `super::…` paths that climb to the crate
//! root) in the code of `src/`, comments excluded, and fails naming the file and the
//! import if a module uses one from a higher layer.

use std::fs;
use std::path::{Path, PathBuf};

const LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "math",
            "error",
            "stats",
            "problem",
            "linalg",
            "phi",
            "linear_solver",
        ],
    ),
    ("model", &["model"]),
    ("multibody", &["multibody", "event", "expr"]),
    (
        "method",
        &["control", "jacobian", "tableau", "stability", "method"],
    ),
    ("driver", &["spec", "driver"]),
    (
        "labs",
        &[
            "reference",
            "compare",
            "convergence",
            "spectrum",
            "homework",
        ],
    ),
    ("binding", &["wasm"]),
];

/// What lib.rs re-exports at the crate root, and from where.
const ROOT_REEXPORTS: &[(&str, &str)] = &[
    ("solve", "driver"),
    ("Integrator", "driver"),
    ("Solution", "driver"),
    ("Stats", "driver"),
    ("OdeError", "error"),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments (line comments, doc comments, and block
/// comments), so prose that names a higher module is not an import.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_block = false;
    for line in text.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(i) => {
                        in_block = false;
                        rest = &rest[i + 2..];
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block = rest.find("/*");
                match (line_comment, block) {
                    (Some(l), Some(b)) if b < l => {
                        kept.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    (Some(l), _) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (None, Some(b)) => {
                        kept.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    (None, None) => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The top-level modules a piece of code names after `prefix` (e.g. "crate::"),
/// including every member of a `prefix{a, b::c}` group.
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find(prefix) {
        let start = at + i;
        // A longer path that merely ends in the prefix (e.g. `odelab::crate::`) or an
        // identifier ending in it is not this prefix.
        let before = code[..start].chars().next_back();
        at = start + prefix.len();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name = ident(item.trim());
                if !name.is_empty() {
                    found.push(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                found.push(name);
            }
        }
    }
    found
}

/// (file, its module, the modules it imports from the crate root).
fn imports() -> Vec<(String, String, Vec<String>)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut all = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let module = parts[0].trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let code = code_of(&fs::read_to_string(&file).expect("a source file"));
        let mut used = named_after(&code, "crate::");
        // `super::` from src/x.rs or src/x/mod.rs, and `super::super::` from src/x/y.rs,
        // is the crate root.
        let depth = parts.len() - 1 - usize::from(parts.last().is_some_and(|p| p == "mod.rs"));
        // (An inline `mod tests` shifts this by one; its `super::item` names an item,
        // not a module, and is skipped.)
        let root = "super::".repeat(depth + 1);
        used.extend(
            named_after(&code, &root)
                .into_iter()
                .filter(|m| layer_of(m).is_some()),
        );
        // Items the crate root re-exports (lib.rs) count as their modules.
        for m in &mut used {
            if let Some((_, owner)) = ROOT_REEXPORTS.iter().find(|(item, _)| item == m) {
                *m = owner.to_string();
            }
        }
        all.push((rel.display().to_string(), module, used));
    }
    all
}

#[test]
fn every_module_is_in_a_layer() {
    for (file, module, used) in imports() {
        assert!(
            layer_of(&module).is_some(),
            "{file}: module `{module}` is in no layer of tests/layering.rs"
        );
        for m in used {
            assert!(
                layer_of(&m).is_some(),
                "{file}: imports `crate::{m}`, which is in no layer"
            );
        }
    }
}

#[test]
fn imports_point_down_the_layers() {
    let mut violations = Vec::new();
    for (file, module, used) in imports() {
        let Some(own) = layer_of(&module) else {
            continue;
        };
        for m in used {
            if let Some(layer) = layer_of(&m) {
                if layer > own {
                    violations.push(format!(
                        "{file} ({} layer) imports crate::{m} ({} layer)",
                        LAYERS[own].0, LAYERS[layer].0
                    ));
                }
            }
        }
    }
    violations.sort();
    violations.dedup();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_reader_sees_imports_and_skips_prose() {
    let code = code_of(
        "use crate::model::{Model, ModelInfo};\n\
         /// see [`crate::driver`]\n\
         use crate::{error::OdeError, stats::Stats}; // crate::wasm\n\
         /* crate::spec */ let x = crate::math::sqrt(2.0);\n",
    );
    let mut found = named_after(&code, "crate::");
    found.sort();
    assert_eq!(found, ["error", "math", "model", "stats"]);
}
