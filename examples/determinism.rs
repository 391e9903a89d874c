//! The native half of the determinism test (issue 9, `tests/node/determinism.test.mjs`):
//! every built-in model with every method that applies to it, solved natively, printed
//! as JSON — the spec and a hash of the bytes of every result array — so the Node test
//! can solve the same specs in WASM and compare bit for bit.
//!
//! `cargo run --example determinism`; with the argument `maps`, the stability maps of
//! `stability_maps()` instead (their row kernels are vectorised, with `simd128` in wasm).

use odelab::spec::SolveSpec;
use odelab::{method, model};
use serde_json::{json, Value};

/// 64-bit FNV-1a over the little-endian bytes of the values (the Node test computes
/// the same over a Float64Array's buffer).
fn fnv1a(values: &[f64]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The hashes of a native solve of `spec` (or its error message).
fn entry(spec: &Value) -> Value {
    let parsed: SolveSpec = serde_json::from_value(spec.clone()).expect("a valid spec");
    match odelab::solve(&parsed) {
        Ok(sol) => {
            let mut outputs = Vec::new();
            for (_, series) in &sol.outputs {
                outputs.extend_from_slice(series);
            }
            json!({
                "t": fnv1a(&sol.t), "y": fnv1a(&sol.y), "outputs": fnv1a(&outputs),
                "yEval": fnv1a(&sol.y_eval), "exact": sol.exact.as_deref().map(fnv1a),
                "n": sol.t.len(), "nfev": sol.stats.nfev,
            })
        }
        Err(e) => json!({ "error": e.to_string() }),
    }
}

/// Stability maps whose bytes the Node test compares with `stabilityMap` in WASM:
/// slow/fast (default and other α, β; windows with and without mirrored rows, one
/// around ξ = 0 where the series points are), stability polynomials, and the multistep
/// maps (the root finder's moduli and square roots from `crate::math`).
fn stability_maps() -> Value {
    let specs = [
        json!({ "method": "slowfast", "re": [-5.0, 1.0], "im": [0.5, 7.5], "nx": 257, "ny": 193 }),
        json!({ "method": "slowfast", "re": [-3.0, 1.0], "im": [-1.0, 2.0], "nx": 301, "ny": 151,
                "alpha": 30.0, "beta": 0.3 }),
        json!({ "method": "slowfast", "re": [-0.3, 0.2], "im": [-0.25, 0.25], "nx": 101, "ny": 101 }),
        json!({ "method": "rk4", "re": [-5.0, 1.0], "im": [-3.5, 3.5], "nx": 257, "ny": 193 }),
        json!({ "method": "dp45", "re": [-6.0, 2.0], "im": [0.1, 6.0], "nx": 200, "ny": 120 }),
        json!({ "method": "ab3", "re": [-1.5, 0.5], "im": [-1.2, 1.2], "nx": 161, "ny": 121 }),
        json!({ "method": "bdf2", "re": [-2.0, 6.0], "im": [-4.0, 4.0], "nx": 121, "ny": 121 }),
    ];
    let out = specs.map(|spec| {
        let parsed: odelab::stability::StabilitySpec =
            serde_json::from_value(spec.clone()).expect("a valid stability spec");
        let values = odelab::stability::stability_map(&parsed).expect("the map computes");
        json!({ "spec": spec, "native": fnv1a(&values) })
    });
    Value::Array(out.to_vec())
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("maps") {
        println!("{}", stability_maps());
        return;
    }
    let mut out = Vec::new();
    for info in model::catalog() {
        for m in method::CATALOG {
            if m.second_order && !info.second_order {
                continue;
            }
            // The exponential methods (llm, slowfast) are bitwise too since their
            // φ-functions come from crate::phi (+ − × ÷ only, no platform powf/log2 as
            // nalgebra's expm had), so they are hashed like every other method.
            // Short runs: a few hundred steps, a fixed h for every method without an
            // error estimate, default tolerances (and tEval) for the adaptive ones.
            let t1 = info.t0 + (info.t1 - info.t0).min(2.0);
            let mut spec = json!({ "model": info.id, "method": m.id, "t1": t1, "maxSteps": 5000 });
            if m.adaptive {
                spec["tEval"] = json!([
                    info.t0 + 0.25 * (t1 - info.t0),
                    info.t0 + 0.5 * (t1 - info.t0)
                ]);
            } else {
                spec["h"] = json!((t1 - info.t0) / 200.0);
            }
            out.push(json!({ "spec": spec, "native": entry(&spec) }));
        }
    }
    // radau5 on the benchmark's stiff case (Van der Pol μ = 1000 to t = 3000, rtol 1e-6,
    // atol 1e-8): 668 steps of its own step-size policy (the predictive controller's
    // powers, the keep-h band), long enough for any platform difference to show.
    let stiff = json!({ "model": "van-der-pol", "method": "radau5", "t1": 3000,
                        "rtol": 1e-6, "atol": 1e-8 });
    out.push(json!({ "spec": stiff, "native": entry(&stiff) }));
    println!("{}", Value::Array(out));
}
