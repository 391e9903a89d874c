//! Solves one spec N times, for a profiler (callgrind, perf): the spec as JSON text,
//! exactly as the page would send it.
//!
//! `cargo run --release --example profile_spec -- '{"model":"van-der-pol","method":"ros4","t1":3000,"rtol":1e-6,"atol":1e-8}' 1`

use odelab::spec::SolveSpec;

fn main() {
    let mut args = std::env::args().skip(1);
    let text = args.next().expect("a spec as JSON text");
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let spec: SolveSpec = serde_json::from_str(&text).expect("a valid spec");
    for _ in 0..runs {
        let sol = odelab::solve(&spec).expect("the spec solves");
        std::hint::black_box(&sol);
    }
    let sol = odelab::solve(&spec).expect("the spec solves");
    println!("{:?}", sol.stats);
}
