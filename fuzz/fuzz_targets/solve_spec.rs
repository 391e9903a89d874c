//! JSON bytes → `SolveSpec` (serde_json, as a front end would send it) → `solve`, with
//! a small step budget so each input runs in milliseconds: never a panic, and a run
//! that succeeds has consistent shapes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use odelab::spec::SolveSpec;

/// Most steps one input may take (the spec's own maxSteps is capped to this).
const BUDGET: usize = 500;

fuzz_target!(|data: &[u8]| {
    let Ok(mut spec) = serde_json::from_slice::<SolveSpec>(data) else {
        return;
    };
    spec.max_steps = Some(spec.max_steps.unwrap_or(BUDGET).min(BUDGET));
    if spec.t_eval.as_ref().is_some_and(|t| t.len() > 10_000) {
        return;
    }
    if let Ok(sol) = odelab::solve(&spec) {
        assert_eq!(sol.y.len(), sol.t.len() * sol.dim);
        assert_eq!(sol.h.len() + 1, sol.t.len());
        assert!(sol.t.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(sol.y_eval.len(), sol.t_eval.len() * sol.dim);
    }
});
