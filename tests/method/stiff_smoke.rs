//! Every issue-4 method on every catalogue model for a few steps: a result or a typed
//! error, never a panic, and finite states when it succeeds.

use super::common::*;
use odelab::method::CATALOG;
use odelab::model;

#[test]
fn new_methods_run_on_every_model() {
    let new = [
        "ros4",
        "w2",
        "llm",
        "backward-euler",
        "bdf2",
        "ab3",
        "am-pece",
        "slowfast",
        "radau5",
    ];
    for m in CATALOG.iter().filter(|m| new.contains(&m.id)) {
        for info in model::catalog() {
            let s = fixed(&info.id, m.id, 1e-4, info.t0 + 1e-3);
            match odelab::solve(&s) {
                Ok(sol) => {
                    assert!(
                        sol.y.iter().all(|v| v.is_finite()),
                        "{} on {}: {:?}",
                        m.id,
                        info.id,
                        sol.warning
                    );
                }
                Err(e) => {
                    // Only a method that needs a partition, on a model without one.
                    assert!(
                        m.partitioned && info.fast.is_empty(),
                        "{} on {}: {e}",
                        m.id,
                        info.id
                    );
                }
            }
        }
    }
}
