//! The native half of `npm run bench` (issue 9): the cases of `bench/cases.json` run
//! through the same core natively, timed like `bench/wasm_bench.mjs` times them in
//! WASM (warm-up, then the median of N runs), printed as one JSON object.
//!
//! `cargo run --release --example bench_native -- bench/cases.json RUNS [dp45]`
//! (with `dp45`, only the first case: for profiling it under callgrind or perf).

use odelab::spec::SolveSpec;
use serde_json::{json, Value};
use std::time::Instant;

fn spec(v: &Value) -> SolveSpec {
    serde_json::from_value(v.clone()).expect("bench/cases.json holds valid specs")
}

/// Median wall time in ms of `runs` calls of `f` after one warm-up call, and the
/// last result.
fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, Vec<f64>, T) {
    let mut out = f();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        out = f();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        0.5 * (sorted[mid - 1] + sorted[mid])
    };
    (median, times, out)
}

fn stats(sol: &odelab::Solution) -> Value {
    json!({
        "nfev": sol.stats.nfev,
        "nsteps": sol.stats.nsteps,
        "naccept": sol.stats.naccept,
        "nreject": sol.stats.nreject,
    })
}

fn last(sol: &odelab::Solution) -> Vec<f64> {
    sol.y[sol.y.len() - sol.dim..].to_vec()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "bench/cases.json".into());
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(21);
    let text = std::fs::read_to_string(&path).expect("read bench/cases.json");
    let cases: Value = serde_json::from_str(&text).expect("bench/cases.json is JSON");
    let mut out = serde_json::Map::new();
    out.insert("runs".into(), json!(runs));

    // 1. dp45 on the pendulum.
    let s = spec(&cases["dp45Pendulum"]);
    let (ms, times, sol) = timed(runs, || odelab::solve(&s).expect("dp45 solves"));
    out.insert(
        "dp45Pendulum".into(),
        json!({ "ms": ms, "runs": times, "stats": stats(&sol), "yEnd": last(&sol) }),
    );
    if args.next().as_deref() == Some("dp45") {
        println!("{}", Value::Object(out));
        return;
    }

    // 2. Stiff methods on Van der Pol, when the catalogue has them.
    let stiff = &cases["stiff"];
    let reference: Vec<f64> = serde_json::from_value(stiff["reference"].clone()).unwrap();
    let mut stiff_out = serde_json::Map::new();
    for m in stiff["methods"].as_array().unwrap() {
        let id = m.as_str().unwrap();
        if odelab::method::info(id).is_err() {
            stiff_out.insert(id.into(), json!({ "pending": true }));
            continue;
        }
        let mut v = stiff["spec"].clone();
        v["method"] = json!(id);
        let s = spec(&v);
        let (ms, times, sol) = timed(runs.min(7), || odelab::solve(&s));
        let entry = match sol {
            Ok(sol) => {
                let y = last(&sol);
                let err = y
                    .iter()
                    .zip(&reference)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                json!({ "ms": ms, "runs": times, "stats": stats(&sol), "yEnd": y,
                        "err": err, "warning": sol.warning })
            }
            Err(e) => json!({ "error": e.to_string() }),
        };
        stiff_out.insert(id.into(), entry);
    }
    out.insert("stiff".into(), Value::Object(stiff_out));

    // 3. The convergence sweep: every method at every step size, on a fixed grid.
    let sweep = &cases["sweep"];
    let specs: Vec<SolveSpec> = sweep["methods"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| {
            sweep["h"].as_array().unwrap().iter().map(move |h| {
                spec(
                    &json!({ "model": sweep["model"], "method": m, "t1": sweep["t1"],
                              "h": h, "adaptive": false }),
                )
            })
        })
        .collect();
    let (ms, times, nfev) = timed(runs, || {
        specs
            .iter()
            .map(|s| odelab::solve(s).expect("sweep solves").stats.nfev)
            .sum::<u64>()
    });
    out.insert(
        "sweep".into(),
        json!({ "ms": ms, "runs": times, "solves": specs.len(), "nfev": nfev }),
    );

    // 4. Stability maps on an n × n grid, through the same `stability_map` the WASM
    //    `stabilityMap` calls (src/stability/map.rs).
    //    The case's window, then one without mirrored rows ("asymmetric").
    let map = &cases["stabilityMap"];
    let asym = &map["asymmetric"];
    for (key, window) in [("stabilityMap", map), ("stabilityMapAsymmetric", asym)] {
        let mut maps = serde_json::Map::new();
        for m in map["methods"].as_array().unwrap() {
            let id = m.as_str().unwrap();
            let spec: odelab::stability::spec::StabilitySpec = serde_json::from_value(json!({
                "method": id, "re": window["re"], "im": window["im"],
                "nx": map["n"], "ny": map["n"],
            }))
            .expect("a valid stability spec");
            let (ms, times, stable) = timed(runs.min(7), || {
                odelab::stability::map::stability_map(&spec)
                    .expect("the map computes")
                    .iter()
                    .filter(|&&r| r <= 1.0)
                    .count()
            });
            maps.insert(
                id.into(),
                json!({ "ms": ms, "runs": times, "n": map["n"], "stableCells": stable }),
            );
        }
        out.insert(key.into(), Value::Object(maps));
    }

    // 5. Pairs: a method against a baseline in the same run, both timed, each end
    //    point compared with an untimed tight reference.
    let mut pairs = Vec::new();
    for case in cases["pairs"]["cases"].as_array().unwrap() {
        let reference = last(&odelab::solve(&spec(&case["reference"])).expect("reference solves"));
        let components: Vec<usize> = match case.get("components") {
            Some(c) => serde_json::from_value(c.clone()).unwrap(),
            None => (0..reference.len()).collect(),
        };
        // Run and baseline alternate call by call, so both see the same machine load.
        let (run, baseline) = (spec(&case["run"]), spec(&case["baseline"]));
        let mut times = [Vec::new(), Vec::new()];
        let mut sols = [None, None];
        for i in 0..=runs.min(11) {
            for (k, s) in [&run, &baseline].into_iter().enumerate() {
                let start = Instant::now();
                let sol = odelab::solve(s).expect("pair solves");
                if i > 0 {
                    times[k].push(start.elapsed().as_secs_f64() * 1e3);
                }
                sols[k] = Some(sol);
            }
        }
        let side = |k: usize| {
            let sol = sols[k].as_ref().expect("solved");
            let y = last(sol);
            let err = components
                .iter()
                .map(|&i| (y[i] - reference[i]).abs())
                .fold(0.0, f64::max);
            let mut sorted = times[k].clone();
            sorted.sort_by(f64::total_cmp);
            json!({ "ms": sorted[sorted.len() / 2], "runs": times[k], "stats": stats(sol), "err": err })
        };
        let (run, baseline) = (side(0), side(1));
        pairs.push(json!({ "name": case["name"], "run": run, "baseline": baseline }));
    }
    out.insert("pairs".into(), Value::Array(pairs));

    println!("{}", Value::Object(out));
}
