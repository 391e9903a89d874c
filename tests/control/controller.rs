//! Controllers: the elementary one of Gil, Sanfelice & Nikravesh (LLM) eq. (38) with Negrut et al. 2003 eq. (7)'s limits,
//! error per unit step (Gil, Sanfelice & Nikravesh (LLM) eq. 39), and the PI controller of Gil, Sanfelice & Nikravesh (LLM) eq. (40).

use super::common::*;
use odelab::control::{Controller, ControllerKind, ControllerSettings};
use odelab::solve;
use odelab::spec::ControllerSpec;

fn elementary(q: u32) -> Controller {
    Controller::new(ControllerKind::I, q, ControllerSettings::default()).unwrap()
}

/// h_new = h · min(facmax, max(facmin, fac · (1/err)^{1/(q+1)})) (Negrut et al. 2003 eq. 7).
#[test]
fn elementary_controller_follows_eq_38_and_7() {
    let mut c = elementary(4);
    let h = 0.1;
    let new = c.after_accept(h, 0.5, false);
    assert!((new - h * 0.9 * 2f64.powf(0.2)).abs() < 1e-15, "{new}");
    // Capped by facMax = 10 and by 1 right after a rejection.
    assert!((c.after_accept(h, 1e-12, false) - 1.0).abs() < 1e-15);
    assert!((c.after_accept(h, 0.01, true) - h).abs() < 1e-15);
    // A rejected step shrinks, at most by facMin = 0.2.
    let retry = c.after_reject(h, 2.0);
    assert!((retry - h * 0.9 * 2f64.powf(-0.2)).abs() < 1e-15, "{retry}");
    assert!((c.after_reject(h, 1e9) - 0.2 * h).abs() < 1e-15);
    assert!((c.after_reject(h, f64::INFINITY) - 0.2 * h).abs() < 1e-15);
}

/// Error per unit step (Gil, Sanfelice & Nikravesh (LLM) eq. 39): r = err / h, and k = q instead of q + 1.
#[test]
fn per_unit_step_divides_by_h_and_lowers_the_exponent() {
    let settings = ControllerSettings {
        per_unit_step: true,
        ..Default::default()
    };
    let mut c = Controller::new(ControllerKind::I, 4, settings).unwrap();
    assert_eq!(c.measure(0.5, 0.1), 5.0);
    assert_eq!(c.k, 4.0);
    let new = c.after_accept(0.1, 0.5, false);
    assert!((new - 0.1 * 0.9 * 2f64.powf(0.25)).abs() < 1e-15);
}

/// h_{n+1} = γ (1/r_{n+1})^{kI} (r_n/r_{n+1})^{kP} h_n (Gil, Sanfelice & Nikravesh (LLM) eq. 40), user gains.
#[test]
fn pi_controller_follows_eq_40() {
    let settings = ControllerSettings {
        k_i: Some(0.1),
        k_p: Some(0.05),
        ..Default::default()
    };
    let mut c = Controller::new(ControllerKind::Pi, 4, settings).unwrap();
    let h1 = c.after_accept(0.1, 0.5, false); // no r_n yet: integral part only
    assert!((h1 - 0.1 * 0.9 * 2f64.powf(0.1)).abs() < 1e-15);
    let h2 = c.after_accept(h1, 0.8, false);
    let expected = h1 * 0.9 * (1.0 / 0.8f64).powf(0.1) * (0.5f64 / 0.8).powf(0.05);
    assert!((h2 - expected).abs() < 1e-15, "{h2} vs {expected}");
}

#[test]
fn bad_settings_are_refused() {
    let msg = |kind, s: ControllerSettings| Controller::new(kind, 4, s).unwrap_err().to_string();
    let m = msg(
        ControllerKind::I,
        ControllerSettings {
            fac_min: Some(2.0),
            fac_max: Some(1.5),
            ..Default::default()
        },
    );
    assert!(
        m.contains("facMin must be less than facMax = 1.5, got 2"),
        "{m}"
    );
    let m = msg(
        ControllerKind::I,
        ControllerSettings {
            k_p: Some(0.1),
            ..Default::default()
        },
    );
    assert!(m.contains("kP"), "{m}");
    let m = msg(
        ControllerKind::Pi,
        ControllerSettings {
            safety: Some(1.5),
            ..Default::default()
        },
    );
    assert!(m.contains("safety must be in (0, 1]"), "{m}");
    let m = msg(
        ControllerKind::Pi,
        ControllerSettings {
            k_i: Some(f64::NAN),
            ..Default::default()
        },
    );
    assert!(m.contains("kI must be a finite number"), "{m}");
}

/// Gil, Sanfelice & Nikravesh (LLM) §5: the PI controller "was suggested to overcome the issue of oscillating
/// step size sequence, which often occurs when stability rather than accuracy dictates
/// the step size". A stiff-ish mass–spring–damper (m = 1, k = 10⁴, c = 1000: eigenvalues
/// ≈ −10.1 and −990) with explicit dp45: once the fast mode has decayed, h sits at
/// DP5's stability boundary (hλ ≈ −3.3). The elementary controller rejects 494 of 3493
/// steps; the PI controller with Gustafsson's gains rejects none.
#[test]
fn pi_controller_rejects_fewer_steps_when_stability_limits_h() {
    let stats = |kind: &str| {
        let mut s = adaptive("mass-spring-damper", "dp45", 1e-4, 1e-7, 10.0);
        s.params.insert("c".into(), 1000.0);
        s.params.insert("k".into(), 1e4);
        s.controller = Some(ControllerSpec {
            kind: Some(kind.into()),
            ..Default::default()
        });
        solve(&s).unwrap().stats
    };
    let (i, pi) = (stats("i"), stats("pi"));
    assert_eq!((i.naccept, i.nreject), (2999, 494), "{i:?}");
    assert_eq!((pi.naccept, pi.nreject), (3010, 0), "{pi:?}");
    assert!(pi.nreject * 10 < i.nreject);
    assert!(pi.nfev < i.nfev);
}

/// Error per unit step (Gil, Sanfelice & Nikravesh (LLM) eq. 39) end to end: the run completes, every accepted step
/// has err/h ≤ 1, and on the pendulum (h < 1 throughout) it is the stricter criterion,
/// so it takes more steps than error per step at the same tolerances.
#[test]
fn per_unit_step_control_runs_end_to_end() {
    let per_step = solve(&adaptive("pendulum", "dp45", 1e-6, 1e-9, 10.0)).unwrap();
    let mut s = adaptive("pendulum", "dp45", 1e-6, 1e-9, 10.0);
    s.controller = Some(ControllerSpec {
        per_unit_step: Some(true),
        ..Default::default()
    });
    let per_unit = solve(&s).unwrap();
    assert_eq!(*per_unit.t.last().unwrap(), 10.0);
    for (e, h) in per_unit.err_est.iter().zip(&per_unit.h) {
        assert!(e / h <= 1.0, "err {e}, h {h}");
    }
    assert!(per_unit.stats.naccept > per_step.stats.naccept);
}
