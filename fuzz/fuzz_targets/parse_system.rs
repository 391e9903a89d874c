//! Any text through the system parser and the expression compiler: never a panic.
//! A system that compiles is evaluated once (f, ∂f/∂y, ∂f/∂t, its events), and an
//! expression that compiles is evaluated with its gradient.
#![no_main]

use libfuzzer_sys::fuzz_target;
use odelab::expr::{build_user_system, compile_expr};
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok((info, model)) = build_user_system(&text, &BTreeMap::new()) {
        let y: Vec<f64> = (0..info.dim).map(|i| 0.25 * i as f64 - 0.5).collect();
        let mut dy = vec![0.0; info.dim];
        model.rhs(0.1, &y, &mut dy);
        let _ = model.jacobian(0.1, &y);
        let _ = model.dfdt(0.1, &y);
        let mut out = vec![0.0; info.outputs.len()];
        model.outputs(0.1, &y, &mut out);
        for i in 0..info.events.len() {
            let _ = model.event(i, 0.1, &y);
        }
    }
    if let Ok(e) = compile_expr(&text, &["x".into(), "v".into()], &[("k".into(), 2.0)]) {
        let _ = e.eval(0.5, &[1.0, -1.0]);
        let mut g = [0.0; 3];
        e.gradient(0.5, &[1.0, -1.0], &mut g);
    }
});
