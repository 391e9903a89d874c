//! The crate's modules form layers and every import points down (or within a layer),
//! and no imports go round in a circle, neither between the modules of a layer nor
//! between the files of a folder:
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
//!
//! For cycles it resolves every `crate::`, `super::` and `self::` path to the module
//! it names and draws an edge between the two siblings under their deepest common
//! folder: `src/driver/outcome.rs` naming `super::stepping::…` is an edge
//! outcome → stepping in folder `driver`, `crate::tableau::…` from `src/method/x.rs`
//! an edge method → tableau at the crate root. A parent using its child (`mod.rs`
//! declaring and re-exporting) and a child using its parent's items are not edges; an
//! item re-exported by a `mod.rs` counts as the parent's. [`cycles`] then fails on any
//! circle in any folder's graph.

use std::collections::{BTreeMap, BTreeSet};
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

/// The module path of a file under src/: `driver/outcome.rs` → [driver, outcome],
/// `driver/mod.rs` → [driver].
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// Every path a piece of code names after `crate::`, `self::` or a chain of `super::`,
/// resolved against `module` to absolute segments (groups `{a, b::c}` expanded, `self`
/// in a group naming the group's prefix). Paths inside an inline `mod tests` resolve one
/// level too high; they name items, which are no edges.
fn paths_in(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let before = if i == 0 { b' ' } else { bytes[i - 1] };
        if is_ident(before) || before == b':' {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        let (base, mut at) = if rest.starts_with(b"crate::") {
            (Vec::new(), i + "crate::".len())
        } else if rest.starts_with(b"self::") {
            (module.to_vec(), i + "self::".len())
        } else if rest.starts_with(b"super::") {
            let mut base = module.to_vec();
            let mut at = i;
            while bytes[at..].starts_with(b"super::") {
                base.pop();
                at += "super::".len();
            }
            (base, at)
        } else {
            i += 1;
            continue;
        };
        at = read_path(code, at, base, &mut out);
        i = at.max(i + 1);
    }
    out
}

/// Reads the path continuing at `at` (segments, `::`, groups) onto `prefix`, pushing
/// each complete path to `out`; returns where it stopped.
fn read_path(
    code: &str,
    mut at: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let bytes = code.as_bytes();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == b'{' {
            at += 1;
            loop {
                at = read_path(code, at, prefix.clone(), out);
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                match bytes.get(at) {
                    Some(b',') => at += 1,
                    Some(b'}') => return at + 1,
                    _ => return at,
                }
            }
        }
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        let ident = &code[start..at];
        if ident.is_empty() {
            out.push(prefix);
            return at;
        }
        if ident != "self" {
            prefix.push(ident.to_string());
        }
        if bytes[at..].starts_with(b"::") {
            at += 2;
        } else {
            out.push(prefix);
            return at;
        }
    }
}

/// An import edge between two siblings `from` → `to` of folder `folder` (module path,
/// empty for the crate root).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    folder: Vec<String>,
    from: String,
    to: String,
    /// The file whose import it is.
    file: String,
}

/// The sibling edges of the crate's modules (see the module doc).
fn sibling_edges() -> Vec<Edge> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|f| module_path(f.strip_prefix(&src).expect("under src/")))
        .filter(|m| m.first().is_some_and(|s| s != "lib.rs" && s != "lib"))
        .collect();
    let mut edges = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let module = module_path(rel);
        if module.first().is_none_or(|s| s == "lib") {
            continue;
        }
        let code = code_of(&fs::read_to_string(file).expect("a source file"));
        for mut path in paths_in(&code, &module) {
            if let Some(first) = path.first_mut() {
                if let Some((_, owner)) = ROOT_REEXPORTS.iter().find(|(item, _)| item == first) {
                    *first = owner.to_string();
                }
            }
            let common = module.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common >= module.len() || common >= path.len() {
                continue;
            }
            let folder = module[..common].to_vec();
            let mut target = folder.clone();
            target.push(path[common].clone());
            if !modules.contains(&target) {
                continue;
            }
            edges.push(Edge {
                folder,
                from: module[common].clone(),
                to: path[common].clone(),
                file: rel.display().to_string(),
            });
        }
    }
    edges.sort();
    edges.dedup_by(|a, b| a.folder == b.folder && a.from == b.from && a.to == b.to);
    edges
}

/// Every circle of imports, one line each ("folder: a → b → a (a.rs, b.rs)"), found
/// by a depth-first search of each folder's graph of sibling edges.
fn cycles(edges: &[Edge]) -> Vec<String> {
    let mut graphs: BTreeMap<&[String], BTreeMap<&str, Vec<&Edge>>> = BTreeMap::new();
    for e in edges {
        graphs
            .entry(&e.folder[..])
            .or_default()
            .entry(&e.from)
            .or_default()
            .push(e);
    }
    let mut found = BTreeSet::new();
    for (folder, graph) in &graphs {
        // 0 unvisited, 1 on the current path, 2 done.
        let mut state: BTreeMap<&str, u8> = BTreeMap::new();
        let mut stack: Vec<&Edge> = Vec::new();
        fn visit<'a>(
            node: &'a str,
            graph: &BTreeMap<&'a str, Vec<&'a Edge>>,
            state: &mut BTreeMap<&'a str, u8>,
            stack: &mut Vec<&'a Edge>,
            folder: &[String],
            found: &mut BTreeSet<String>,
        ) {
            state.insert(node, 1);
            for e in graph.get(node).into_iter().flatten() {
                match state.get(e.to.as_str()).copied().unwrap_or(0) {
                    1 => {
                        let start = stack
                            .iter()
                            .position(|s| s.from == e.to)
                            .unwrap_or(stack.len());
                        let circle: Vec<&Edge> =
                            stack[start..].iter().copied().chain([*e]).collect();
                        let names: Vec<&str> = circle
                            .iter()
                            .map(|c| c.from.as_str())
                            .chain([e.to.as_str()])
                            .collect();
                        let files: Vec<&str> = circle.iter().map(|c| c.file.as_str()).collect();
                        let place = if folder.is_empty() {
                            "src".to_string()
                        } else {
                            format!("src/{}", folder.join("/"))
                        };
                        found.insert(format!(
                            "{place}: {} ({})",
                            names.join(" → "),
                            files.join(", ")
                        ));
                    }
                    0 => {
                        stack.push(e);
                        visit(&e.to, graph, state, stack, folder, found);
                        stack.pop();
                    }
                    _ => {}
                }
            }
            state.insert(node, 2);
        }
        for node in graph.keys() {
            if state.get(node).copied().unwrap_or(0) == 0 {
                visit(node, graph, &mut state, &mut stack, folder, &mut found);
            }
        }
    }
    found.into_iter().collect()
}

#[test]
fn no_imports_go_round_in_a_circle_in_a_layer_or_a_folder() {
    let edges = sibling_edges();
    assert!(
        edges
            .iter()
            .any(|e| e.folder.is_empty() && e.from == "method" && e.to == "tableau"),
        "the reader finds the crate's imports"
    );
    let found = cycles(&edges);
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_cycle_check_finds_a_planted_cycle_and_passes_a_chain() {
    let edge = |folder: &[&str], from: &str, to: &str| Edge {
        folder: folder.iter().map(|s| s.to_string()).collect(),
        from: from.into(),
        to: to.into(),
        file: format!("{from}.rs"),
    };
    // A chain inside a layer and a folder, and the same names in another folder.
    let chain = [
        edge(&[], "method", "tableau"),
        edge(&[], "stability", "method"),
        edge(&["driver"], "stepping", "outcome"),
        edge(&["x"], "outcome", "stepping"),
    ];
    assert!(cycles(&chain).is_empty(), "{:?}", cycles(&chain));
    // method → tableau → stability → method at the root, and a two-file circle.
    let mut planted = chain.to_vec();
    planted.push(edge(&[], "tableau", "stability"));
    planted.push(edge(&["driver"], "outcome", "stepping"));
    let found = cycles(&planted);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/driver: "), "{found:?}");
    assert!(
        found[0].contains("outcome") && found[0].contains("stepping"),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("src: ")
            && ["method", "tableau", "stability"]
                .iter()
                .all(|m| found[1].contains(m)),
        "{found:?}"
    );
}

#[test]
fn the_path_reader_resolves_super_self_and_groups() {
    let module: Vec<String> = ["method", "ab3"].iter().map(|s| s.to_string()).collect();
    let code = code_of(
        "use super::adams::{self, Adams, Scheme};\n\
         use crate::{error::OdeError, stats::Stats};\n\
         let v = super::super::math::exp(1.0); // crate::wasm\n",
    );
    let mut found: Vec<String> = paths_in(&code, &module)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "error::OdeError",
            "math::exp",
            "method::adams",
            "method::adams::Adams",
            "method::adams::Scheme",
            "stats::Stats"
        ]
    );
}
