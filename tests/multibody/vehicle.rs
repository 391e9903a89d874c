//! Issue 8: `vehicle-stiff` in body coordinates with translational joints, in the
//! augmented and state-space formulations, against the native half-car.

use super::formulations::{output, spec};
use odelab::Solution;

fn max(s: &[f64]) -> f64 {
    s.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

fn run(formulation: Option<&str>, method: &str, tol: f64) -> Solution {
    let mut s = spec("vehicle-stiff", formulation, method, tol);
    s.h_max = Some(5e-3);
    odelab::solve(&s).unwrap()
}

#[test]
fn issue_8_vehicle_in_body_coordinates_follows_the_native_half_car() {
    let native = run(None, "ros4", 1e-6);
    for f in ["augmented", "state-space"] {
        let r = run(Some(f), "ros4", 1e-6);
        let h = output(&r, "chassis height");
        let hn = output(&native, "chassis height");
        println!(
            "{f}: steps {} rejected {} nfev {} njev {} max h {} (native {}), last {} vs {}, max|Φ| {:e}",
            r.stats.naccept,
            r.stats.nreject,
            r.stats.nfev,
            r.stats.njev,
            max(h),
            max(hn),
            h[h.len() - 1],
            hn[hn.len() - 1],
            max(output(&r, "constraint |Φ|")),
        );
    }
    println!(
        "native: steps {} nfev {}",
        native.stats.naccept, native.stats.nfev
    );
}
