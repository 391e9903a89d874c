//! Events along a run: located on the dense output, reported, the step cut there.

use super::common::*;
use odelab::solve;
use odelab::spec::EventSpec;

fn bouncing(method: &str, events: Vec<EventSpec>) -> odelab::spec::SolveSpec {
    let mut s = adaptive("bouncing-balls", method, 1e-8, 1e-10, 3.0);
    s.events = events;
    s
}

/// Each reported event is a point of the solution: the run was cut there.
#[test]
fn event_times_are_solution_points() {
    let sol = solve(&bouncing("dp45", watch(&["psi1", "psi2"]))).unwrap();
    assert!(!sol.events.is_empty());
    for e in &sol.events {
        let i = sol
            .t
            .iter()
            .position(|&t| t == e.t)
            .expect("cut at the event");
        assert_eq!(&sol.y[4 * i..4 * i + 4], &e.y[..]);
    }
}

/// direction 1 keeps only rising crossings (contact starts: Ψ goes from − to +).
#[test]
fn direction_filters_crossings() {
    let both = solve(&bouncing("dp45", watch(&["psi2"]))).unwrap();
    let mut rising = watch(&["psi2"]);
    rising[0].direction = Some(1.0);
    let starts = solve(&bouncing("dp45", rising)).unwrap();
    assert_eq!(both.events.len(), 2 * starts.events.len());
    for e in &starts.events {
        // Just after a contact start, the ball moves down into the ground.
        assert!(e.y[3] < 0.0, "{e:?}");
    }
}

/// A terminal event stops the run at the first contact of the lower ball with the
/// ground: free fall from y2 = 0.5 to y2 = R = 0.1 takes √(2·0.4/9.81) s.
#[test]
fn terminal_event_stops_the_run() {
    let mut ground = watch(&["psi2"]);
    ground[0].terminal = Some(true);
    let sol = solve(&bouncing("dp45", ground)).unwrap();
    assert_eq!(sol.events.len(), 1);
    let t_hit = (2.0 * 0.4f64 / 9.81).sqrt();
    let t_end = *sol.t.last().unwrap();
    assert_eq!(t_end, sol.events[0].t);
    assert!((t_end - t_hit).abs() < 1e-9, "{t_end} vs {t_hit}");
    assert!(sol.warning.is_none());
}

/// Fixed-step methods cut their grid step at the event and resume the grid after it;
/// contact starts (Ψ2 rising) and ends (falling) alternate, each located where Ψ2 = 0
/// (the ball meets the ground at ~2.8 m/s, so |Ψ2| ≤ 1e-10 m puts the contact time
/// within ~4e-11 s).
#[test]
fn fixed_grid_resumes_after_a_cut() {
    let mut s = fixed("bouncing-balls", "rk4", 1e-3, 0.5);
    s.events = watch(&["psi2"]);
    let sol = solve(&s).unwrap();
    assert_eq!(sol.events.len(), 4, "{:?}", sol.events);
    for (n, e) in sol.events.iter().enumerate() {
        let psi2 = 0.1 - e.y[1];
        assert!(psi2.abs() < 1e-10, "event {n}: Ψ2 = {psi2}");
        // Starts have the ball moving down (v2 < 0), ends moving up.
        assert_eq!(e.y[3] < 0.0, n % 2 == 0, "event {n}: {e:?}");
    }
    // Every point is a grid point k·h or a point where the step was cut.
    let cuts = sol.t.len() - 501;
    assert!(cuts >= 4, "{cuts} cuts");
    let off_grid = sol
        .t
        .iter()
        .filter(|&&t| ((t / 1e-3).round() * 1e-3 - t).abs() > 1e-12)
        .count();
    assert_eq!(off_grid, cuts);
}

/// A crossing at the very end of a grid step (free fall with g = 8 from y2 = 0.35 meets
/// R = 0.1 at t = 0.25 = 5h, where RK4 is exact for the parabola): the grid advances
/// past that point instead of taking zero-length steps.
#[test]
fn crossing_on_a_grid_point_does_not_stall_the_grid() {
    let mut s = fixed("bouncing-balls", "rk4", 0.05, 0.255);
    s.params.insert("g".into(), 8.0);
    s.y0 = Some(vec![5.0, 0.35, 0.0, 0.0]);
    s.events = watch(&["psi2"]);
    let sol = solve(&s).unwrap();
    assert_eq!(sol.events.len(), 1, "{:?}", sol.events);
    assert!((sol.events[0].t - 0.25).abs() < 1e-12);
    assert!(sol.t.len() <= 8, "{:?}", sol.t);
    assert!(sol.h.iter().all(|&h| h > 0.0), "{:?}", sol.h);
}

/// A switching function that is NaN has no sign to watch: the run says so, naming the
/// event, instead of passing its crossings by.
#[test]
fn a_switching_function_that_is_not_a_number_is_reported() {
    let mut s = fixed("pendulum", "rk4", 0.01, 1.0);
    s.system = Some("x' = 1\nx(0) = 0".into());
    s.model = String::new();
    s.events = vec![EventSpec {
        expr: Some("log(x - 5)".into()),
        ..EventSpec::default()
    }];
    let outcome = solve(&s);
    let message = match &outcome {
        Err(e) => e.to_string(),
        Ok(sol) => sol.warning.clone().unwrap_or_default(),
    };
    assert!(
        message.contains(
            "event 0 of the spec: its switching function is not a number (NaN) at t = 0.01"
        ),
        "{message}"
    );
}

/// BDF2 on the bouncing balls, watching the contact switches: the history before a
/// contact start belongs to the free flight, so after every event BDF2 starts afresh
/// (extrapolated backward Euler, second order). Located switches then make it more
/// accurate, as they should (at t = 0.6 against dp45 at rtol 1e-12: 3.9e-5 against
/// 1.1e-4 unwatched at h = 6.25e-5; looking back across the switch it was 7.3e-4).
#[test]
fn bdf2_is_more_accurate_with_the_contact_switches_located() {
    let mut r = adaptive("bouncing-balls", "dp45", 1e-12, 1e-14, 0.6);
    r.events = watch(&["psi1", "psi2"]);
    let reference = solve(&r).unwrap();
    let exact = &reference.y[reference.y.len() - 4..];
    let error = |h: f64, events: bool| {
        let mut s = fixed("bouncing-balls", "bdf2", h, 0.6);
        if events {
            s.events = watch(&["psi1", "psi2"]);
        }
        let sol = solve(&s).unwrap();
        let y = &sol.y[sol.y.len() - 4..];
        y.iter()
            .zip(exact)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    };
    for h in [1.25e-4, 6.25e-5] {
        let (watched, unwatched) = (error(h, true), error(h, false));
        assert!(
            watched < 0.6 * unwatched,
            "h = {h}: {watched:e} with the switches located, {unwatched:e} without"
        );
    }
}
