//! Gustafsson's predictive controller as RADAU5 applies it (`src/control/predictive.rs`):
//! the elementary rule with a safety that drops with the Newton iterations, the
//! prediction from the last accepted step, the band in which h is kept, and the
//! retries. Expected values are worked out by hand from the formulas of `radau5.f`.

use odelab::control::{Predictive, KEEP_BAND};

const NIT: u32 = 7;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-14 * b.abs()
}

/// First accepted step: h_new = h·fac/err^(1/4), fac = min(0.9, 0.9·15/(k + 14)).
#[test]
fn predictive_first_step_is_the_elementary_rule_with_newton_dependent_safety() {
    let mut c = Predictive::new(NIT);
    // err = 1/16: err^(1/4) = 1/2; one iteration: fac = 0.9 → h_new = 1.8 h.
    assert!(close(c.after_accept(1.0, 1.0 / 16.0, 1, false, false), 1.8));
    let mut c = Predictive::new(NIT);
    // Four iterations: fac = 13.5/18 = 0.75 → h_new = 1.5 h.
    assert!(close(c.after_accept(1.0, 1.0 / 16.0, 4, false, false), 1.5));
    // Growth is capped at 8 h, also for a zero error (floored at 1e-10).
    let mut c = Predictive::new(NIT);
    assert_eq!(c.after_accept(2.0, 0.0, 1, false, false), 16.0);
}

/// Second accepted step: quot_G = (h_acc/h)(err²/err_acc)^(1/4)/0.9 wins when it
/// asks for the smaller step.
#[test]
fn predictive_second_step_takes_gustafssons_prediction_when_smaller() {
    let mut c = Predictive::new(NIT);
    c.after_accept(1.0, 0.01, 1, false, false);
    // h = 2, err = 0.16: elementary quot = 0.16^(1/4)/0.9 = 0.70286;
    // Gustafsson (1/2)(0.0256/0.01)^(1/4)/0.9 = 0.70273 … both near, take the larger.
    let h_new = c.after_accept(2.0, 0.16, 1, false, false);
    let elementary = 0.16f64.powf(0.25) / 0.9;
    let gustafsson = 0.5 * (0.16f64 * 0.16 / 0.01).powf(0.25) / 0.9;
    assert!(close(h_new, 2.0 / elementary.max(gustafsson)), "{h_new}");
    // A step whose error jumped: the prediction shrinks h where the elementary rule
    // would grow it.
    let mut c = Predictive::new(NIT);
    c.after_accept(1.0, 0.01, 1, false, false);
    let h_new = c.after_accept(1.0, 0.5, 1, false, false);
    let gustafsson = (0.25f64 / 0.01).powf(0.25) / 0.9;
    assert!(close(h_new, 1.0 / gustafsson), "{h_new}");
    assert!(h_new < 1.0 / (0.5f64.powf(0.25) / 0.9));
}

/// h_new/h in [1, 1.2] keeps h when the method keeps J; never grows after a rejection.
#[test]
fn predictive_keeps_h_within_its_band_and_never_grows_after_a_rejection() {
    assert_eq!(KEEP_BAND, (1.0, 1.2));
    // err = (0.9/1.1)^4 gives h_new = 1.1 h.
    let err = (0.9f64 / 1.1).powi(4);
    let mut c = Predictive::new(NIT);
    assert_eq!(c.after_accept(1.0, err, 1, false, true), 1.0);
    let mut c = Predictive::new(NIT);
    assert!(close(c.after_accept(1.0, err, 1, false, false), 1.1));
    // Outside the band (1.8 h) the new h is taken even with J kept.
    let mut c = Predictive::new(NIT);
    assert!(close(c.after_accept(1.0, 1.0 / 16.0, 1, false, true), 1.8));
    let mut c = Predictive::new(NIT);
    assert_eq!(c.after_accept(1.0, 1.0 / 16.0, 1, true, false), 1.0);
}

/// A rejected first step is retried at h/10; later ones by the elementary rule, at
/// least h/5; an infinite or NaN error gives h/5.
#[test]
fn predictive_retries_the_first_step_at_a_tenth_and_later_ones_by_the_rule() {
    let mut c = Predictive::new(NIT);
    assert!(close(c.after_reject(1.0, 16.0, 1), 0.1));
    c.after_accept(0.1, 0.5, 1, true, false);
    assert!(close(c.after_reject(1.0, 16.0, 1), 0.45));
    assert!(close(c.after_reject(1.0, f64::INFINITY, 1), 0.2));
    assert!(close(c.after_reject(1.0, f64::NAN, 1), 0.2));
}
