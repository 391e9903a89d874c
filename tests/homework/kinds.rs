//! One grader per kind: a right answer passes, a wrong one fails and says why.

use super::{grade_one, one_task};
use serde_json::json;

/// Kutta's third-order method (HNW I, Table 1.1).
fn kutta3() -> serde_json::Value {
    json!({ "a": [[0, 0, 0], ["1/2", 0, 0], [-1, 2, 0]], "b": ["1/6", "2/3", "1/6"] })
}

fn heun() -> serde_json::Value {
    json!({ "a": [[0, 0], [1, 0]], "b": ["1/2", "1/2"] })
}

fn rk4() -> serde_json::Value {
    json!({ "a": [[0, 0, 0, 0], ["1/2", 0, 0, 0], [0, "1/2", 0, 0], [0, 0, 1, 0]],
            "b": ["1/6", "1/3", "1/3", "1/6"] })
}

#[test]
fn number_within_tolerance_passes_and_off_answer_says_only_which_side() {
    let a = one_task(
        "number",
        json!({ "value": -2.785293563405282, "relTol": 0.01 }),
    );
    let right = grade_one(&a, json!({ "value": -2.78 }));
    assert!(right.passed, "{}", right.message);
    assert_eq!(right.points, 2.0);
    assert_eq!(right.message, "-2.78 is right (within 1%)");
    let text = grade_one(&a, json!({ "value": "−2.79" }));
    assert!(
        text.passed,
        "a number typed as text counts: {}",
        text.message
    );
    let wrong = grade_one(&a, json!({ "value": -2.5 }));
    assert!(!wrong.passed);
    assert_eq!(wrong.points, 0.0);
    assert_eq!(
        wrong.message,
        "-2.5 is too large (an answer within 1% of the right one passes)"
    );
    // Neither the message nor the measured numbers carry the distance to the value.
    assert_eq!(wrong.measured, json!({ "value": -2.5 }));
    let far = grade_one(&a, json!({ "value": 2.785 }));
    assert_eq!(
        far.message,
        "2.785 is too large (an answer within 1% of the right one passes)"
    );
    let low = grade_one(&a, json!({ "value": -3 }));
    assert_eq!(
        low.message,
        "-3 is too small (an answer within 1% of the right one passes)"
    );
    let nonsense = grade_one(&a, json!({ "value": "abc" }));
    assert!(!nonsense.passed && nonsense.answered);
    assert_eq!(nonsense.message, "your answer is not a number");
}

#[test]
fn number_with_absolute_tolerance() {
    let a = one_task("number", json!({ "value": 0.005, "absTol": 1e-4 }));
    assert!(grade_one(&a, json!({ "value": 0.00505 })).passed);
    let wrong = grade_one(&a, json!({ "value": 0.0049 - 2e-4 }));
    assert!(!wrong.passed);
    assert!(wrong.message.contains("too small"), "{}", wrong.message);
    assert!(
        wrong
            .message
            .ends_with("(an answer within ±0.0001 of the right one passes)"),
        "{}",
        wrong.message
    );
}

#[test]
fn tableau_of_order_three_passes_and_heun_fails_naming_the_conditions() {
    let a = one_task(
        "tableau",
        json!({ "explicit": true, "stages": 3, "order": 3 }),
    );
    let right = grade_one(&a, json!({ "tableau": kutta3() }));
    assert!(right.passed, "{}", right.message);
    assert_eq!(right.message, "✓ explicit, 3 stages, order 3");
    assert_eq!(right.measured["order"], 3);
    let wrong = grade_one(&a, json!({ "tableau": heun() }));
    assert!(!wrong.passed);
    assert_eq!(
        wrong.message,
        "2 stages, 3 wanted; order 2, at least 3 wanted: at order 3, Σ bᵢcᵢ² = 1/3 fails \
         (yours gives 0.5), Σ bᵢaᵢⱼcⱼ = 1/6 fails (yours gives 0) (explicit ✓)"
    );
}

#[test]
fn tableau_order_message_says_which_conditions_hold() {
    // b·c² = 1/3 holds for this 3-stage tableau with c = (0, 2/3, 2/3) but b·A·c = 1/6
    // does not (A·c = 0 with the third row all on the first stage).
    let tableau = json!({ "a": [[0, 0, 0], ["2/3", 0, 0], ["2/3", 0, 0]],
                          "b": ["1/4", "3/8", "3/8"] });
    let a = one_task("tableau", json!({ "order": 3 }));
    let g = grade_one(&a, json!({ "tableau": tableau }));
    assert!(!g.passed);
    assert!(g.message.contains("Σ bᵢcᵢ² = 1/3 holds"), "{}", g.message);
    assert!(
        g.message.contains("Σ bᵢaᵢⱼcⱼ = 1/6 fails (yours gives 0)"),
        "{}",
        g.message
    );
}

#[test]
fn tableau_real_intercept_and_a_stability() {
    let a = one_task(
        "tableau",
        json!({ "realIntercept": [-2.8, -2.7], "aStable": false }),
    );
    let right = grade_one(&a, json!({ "tableau": rk4() }));
    assert!(right.passed, "{}", right.message);
    let x = right.measured["realIntercept"]
        .as_f64()
        .expect("an intercept");
    assert!((x + 2.785293563405282).abs() < 1e-6, "{x}");
    let wrong = grade_one(&a, json!({ "tableau": heun() }));
    assert!(!wrong.passed);
    assert!(
        wrong
            .message
            .starts_with("stable on the real axis down to -2, not within [-2.8, -2.7]"),
        "{}",
        wrong.message
    );
    // Backward Euler: implicit, A-stable.
    let a = one_task("tableau", json!({ "explicit": false, "aStable": true }));
    let be = grade_one(&a, json!({ "tableau": { "a": [[1]], "b": [1] } }));
    assert!(be.passed, "{}", be.message);
    assert!(!grade_one(&a, json!({ "tableau": rk4() })).passed);
}

#[test]
fn tableau_embedded_order_is_exact() {
    // Heun–Euler: order 2 with an embedded order-1 formula.
    let pair = json!({ "a": [[0, 0], [1, 0]], "b": ["1/2", "1/2"], "bHat": [1, 0] });
    let a = one_task("tableau", json!({ "order": 2, "embeddedOrder": 1 }));
    assert!(grade_one(&a, json!({ "tableau": pair })).passed);
    let none = grade_one(&a, json!({ "tableau": heun() }));
    assert!(
        none.message.contains("no embedded weights b̂"),
        "{}",
        none.message
    );
}

#[test]
fn tableau_that_does_not_parse_fails_with_the_entry_named() {
    let a = one_task("tableau", json!({ "order": 1 }));
    let g = grade_one(
        &a,
        json!({ "tableau": { "a": [[0, 0], [1]], "b": [1, 0] } }),
    );
    assert!(!g.passed && g.answered);
    assert!(
        g.message.starts_with("your tableau: tableau.a[1]"),
        "{}",
        g.message
    );
}

const SPRING: &str = "param k = 4, c = 0.1\nx' = v\nv' = -k*x - c*v\nx(0) = 1, v(0) = 0";

#[test]
fn system_in_other_names_and_order_passes() {
    let a = one_task(
        "system",
        json!({ "reference": { "system": SPRING }, "t1": 10, "tol": 1e-6 }),
    );
    let same = grade_one(&a, json!({ "system": SPRING }));
    assert!(same.passed, "{}", same.message);
    let renamed = "w' = -4*p - 0.1*w\np' = w\np(0) = 1\nw(0) = 0";
    let g = grade_one(&a, json!({ "system": renamed }));
    assert!(g.passed, "{}", g.message);
    assert!(
        g.message.contains("your p = its x, your w = its v"),
        "{}",
        g.message
    );
    assert_eq!(g.measured["states"], json!({ "x": "p", "v": "w" }));
}

#[test]
fn system_in_second_order_form_passes_against_a_first_order_reference() {
    let a = one_task(
        "system",
        json!({ "reference": { "system": SPRING }, "t1": 10, "tol": 1e-6 }),
    );
    // x'' = … gains the state x' (the x'' notation of src/expr/expand.rs).
    let second = "x'' = -4*x - 0.1*x'\nx(0) = 1, x'(0) = 0";
    let g = grade_one(&a, json!({ "system": second }));
    assert!(g.passed, "{}", g.message);
    let wrong = "x'' = -4*x - 0.2*x'\nx(0) = 1, x'(0) = 0";
    let g = grade_one(&a, json!({ "system": wrong }));
    assert!(!g.passed, "{}", g.message);
}

#[test]
fn system_against_a_catalogue_model_passes() {
    // Schwab & Delhaes eq. (7.7) with g = 0: x'' = −(k/m) x − (c/m) x'.
    let a = one_task(
        "system",
        json!({
        "reference": { "model": "mass-spring-damper", "params": { "g": 0 } },
        "y0": [1, 0], "t1": 5 }),
    );
    let g = grade_one(
        &a,
        json!({ "system": "q' = p\np' = -100*q - 0.5*p\nq(0) = 1, p(0) = 0" }),
    );
    assert!(g.passed, "{}", g.message);
}

#[test]
fn system_with_a_wrong_coefficient_fails_saying_which_state_and_when_without_a_number() {
    let a = one_task(
        "system",
        json!({ "reference": { "system": SPRING }, "t1": 10, "tol": 1e-6 }),
    );
    let g = grade_one(
        &a,
        json!({ "system": "x' = v\nv' = -4*x - 0.2*v\nx(0) = 1, v(0) = 0" }),
    );
    assert!(!g.passed);
    // The damping acts on v first: v leaves the reference at the first sample after 0
    // (t = 0.1 of 101 samples on [0, 10]), far beyond 1e-6.
    assert_eq!(
        g.message,
        "your v leaves the reference from t = 0.1 on, far beyond the check's tolerance \
         (1e-6 of the state's largest magnitude, or of 1 if that is smaller): look at the \
         equation of v and the terms it depends on"
    );
    // No difference and no allowance (it holds the reference's magnitude) anywhere.
    assert!(g.measured.get("maxDifference").is_none(), "{}", g.measured);
    assert!(!g.message.contains("differs by") && !g.message.contains("allowed"));
    // A wrong initial value is named as such.
    let start = grade_one(
        &a,
        json!({ "system": "x' = v\nv' = -4*x - 0.1*v\nx(0) = 1.5, v(0) = 0" }),
    );
    assert!(
        start
            .message
            .starts_with("your x starts away from the reference, far beyond")
            && start.message.ends_with(": check its initial value"),
        "{}",
        start.message
    );
    // Just beyond: a coefficient off by 1e-7 relative.
    let close = grade_one(
        &a,
        json!({ "system": "x' = v\nv' = -4.000001*x - 0.1*v\nx(0) = 1, v(0) = 0" }),
    );
    assert!(!close.passed);
    assert!(close.message.contains("just beyond"), "{}", close.message);
    let wrong_size = grade_one(&a, json!({ "system": "x' = -x\nx(0) = 1" }));
    assert_eq!(
        wrong_size.message,
        "your system has 1 states (x), the reference has 2 (x, v)"
    );
    let broken = grade_one(&a, json!({ "system": "x' = v +\nv' = -x" }));
    assert!(!broken.passed && broken.answered);
    assert!(broken.message.contains("line 1"), "{}", broken.message);
}

#[test]
fn system_states_map_pairs_by_name() {
    let a = one_task(
        "system",
        json!({ "reference": { "system": SPRING }, "t1": 2,
                                       "states": { "x": "pos", "v": "vel" } }),
    );
    let right = grade_one(
        &a,
        json!({ "system": "vel' = -4*pos - 0.1*vel\npos' = vel\npos(0) = 1, vel(0) = 0" }),
    );
    assert!(right.passed, "{}", right.message);
    let wrong = grade_one(
        &a,
        json!({ "system": "b' = -4*a - 0.1*b\na' = b\na(0) = 1, b(0) = 0" }),
    );
    assert_eq!(
        wrong.message,
        "your system has no state called pos; its states are b, a"
    );
}

/// The run task of these tests: the spring to t = 5 against its exact solution… as a
/// reference run (the grader always uses its tight reference).
fn spring_run() -> serde_json::Value {
    one_task(
        "run",
        json!({ "reference": { "model": "mass-spring-damper" }, "t1": 5,
                            "maxError": 1e-4, "maxNfev": 5000 }),
    )
}

#[test]
fn run_within_error_and_budget_passes() {
    let g = grade_one(
        &spring_run(),
        json!({ "spec": { "method": "dp45", "rtol": 1e-7, "atol": 1e-9 } }),
    );
    assert!(g.passed, "{}", g.message);
    assert!(
        g.message
            .starts_with("dp45 on mass-spring-damper to t = 5: error "),
        "{}",
        g.message
    );
    assert!(g.measured["error"].as_f64().expect("error") <= 1e-4);
}

#[test]
fn run_over_budget_fails_with_the_count() {
    // rk4 with h = 1e-3: 5000 steps, 20,000 f-evaluations: accurate but over budget.
    let g = grade_one(
        &spring_run(),
        json!({ "spec": { "method": "rk4", "h": 1e-3, "model": "pendulum", "t1": 1 } }),
    );
    assert!(!g.passed);
    assert!(
        g.message.contains("✓ but 20,000 f-evaluations > 5,000"),
        "{}",
        g.message
    );
    assert_eq!(g.measured["nfev"], 20000);
}

#[test]
fn run_too_inaccurate_or_unstable_fails() {
    let coarse = grade_one(
        &spring_run(),
        json!({ "spec": { "method": "euler", "h": 0.01 } }),
    );
    assert!(!coarse.passed);
    assert!(
        coarse.message.contains("error ") && coarse.message.contains("> 1e-4"),
        "{}",
        coarse.message
    );
    let unstable = grade_one(
        &spring_run(),
        json!({ "spec": { "method": "rk4", "h": 0.5 } }),
    );
    assert!(!unstable.passed);
    assert!(
        unstable
            .message
            .contains(": error 1.3e13 > 1e-4; 40 f-evaluations ≤ 5,000 ✓"),
        "{}",
        unstable.message
    );
    let stopped = grade_one(
        &spring_run(),
        json!({ "spec": { "method": "dp45", "maxSteps": 10 } }),
    );
    assert!(!stopped.passed);
    assert!(
        stopped
            .message
            .starts_with("your run (dp45) on mass-spring-damper to t = 5 stopped at t = "),
        "{}",
        stopped.message
    );
}

#[test]
fn run_fixed_fields_override_the_answer() {
    let a = one_task(
        "run",
        json!({ "reference": { "model": "mass-spring-damper" }, "t1": 5,
                                    "maxError": 1e-4, "fixed": { "method": "euler", "h": 0.01 } }),
    );
    let g = grade_one(&a, json!({ "spec": { "method": "dp45", "rtol": 1e-9 } }));
    assert!(!g.passed);
    assert!(
        g.message.starts_with("euler on mass-spring-damper"),
        "{}",
        g.message
    );
}

#[test]
fn order_observed_for_a_method_id_and_a_tableau() {
    let a = one_task(
        "order",
        json!({ "problem": "mass-spring-damper", "order": 4, "within": 0.3 }),
    );
    let right = grade_one(&a, json!({ "method": "rk4" }));
    assert!(right.passed, "{}", right.message);
    let p = right.measured["order"].as_f64().expect("an order");
    assert!((p - 4.0).abs() < 0.3, "{p}");
    let wrong = grade_one(&a, json!({ "method": "heun" }));
    assert!(!wrong.passed);
    assert!(
        wrong.message.starts_with("observed order 2.0"),
        "{}",
        wrong.message
    );
    assert!(
        wrong.message.ends_with("but 4 ± 0.3 wanted"),
        "{}",
        wrong.message
    );
    let a3 = one_task(
        "order",
        json!({ "problem": { "model": "mass-spring-damper", "t1": 2 }, "order": 3 }),
    );
    let tab = grade_one(
        &a3,
        json!({ "spec": { "method": "custom", "tableau": kutta3() } }),
    );
    assert!(tab.passed, "{}", tab.message);
}

#[test]
fn order_task_for_your_own_method_refuses_a_catalogue_method() {
    let a = one_task(
        "order",
        json!({ "problem": { "model": "mass-spring-damper", "t1": 2 }, "order": 3, "ownMethod": true }),
    );
    let catalogue = grade_one(&a, json!({ "spec": { "method": "bs23", "h": 0.01 } }));
    assert!(!catalogue.passed);
    assert_eq!(catalogue.points, 0.0);
    assert!(
        catalogue
            .message
            .contains("the built-in method bs23 does not count"),
        "{}",
        catalogue.message
    );
    let own = grade_one(
        &a,
        json!({ "spec": { "method": "custom", "tableau": kutta3() } }),
    );
    assert!(own.passed, "{}", own.message);
}

/// A pendulum typed as a constrained body (Schwab & Delhaes, Lecture Notes Multibody
/// Dynamics B, ch. 7: body coordinates x, y, φ, a revolute joint to the ground).
const BODY_PENDULUM: &str = "param L = 1, m = 1, g = 9.81\nparam J = m*L^2/12\ncoordinates x, y, φ\nmass m, m, J\nforce y = -m*g\nconstraint px: x - L/2*sin(φ) = 0\nconstraint py: y + L/2*cos(φ) = 0\nx(0) = L/2*sin(0.5), y(0) = -L/2*cos(0.5), φ(0) = 0.5";

#[test]
fn mechanism_typed_with_constraints_is_graded_by_its_trajectory() {
    let a = one_task(
        "system",
        json!({ "reference": { "system": BODY_PENDULUM }, "t1": 2, "tol": 1e-5 }),
    );
    // The same mechanism in other names, its joint written the other way round.
    let renamed = "param len = 1, mass1 = 1, grav = 9.81\ncoordinates u, w, th\nmass mass1, mass1, mass1*len^2/12\nforce w = -mass1*grav\nconstraint hx: len/2*sin(th) = u\nconstraint hy: 0 = w + len/2*cos(th)\nu(0) = 0.5*sin(0.5), w(0) = -0.5*cos(0.5), th(0) = 0.5";
    let g = grade_one(&a, json!({ "system": renamed }));
    assert!(g.passed, "{}", g.message);
    // A pin at the wrong end of the link swings with another period.
    let wrong = BODY_PENDULUM
        .replace("x - L/2*sin", "x - L/3*sin")
        .replace("y + L/2*cos(φ) = 0", "y + L/3*cos(φ) = 0")
        .replace(
            "x(0) = L/2*sin(0.5), y(0) = -L/2*cos(0.5)",
            "x(0) = L/3*sin(0.5), y(0) = -L/3*cos(0.5)",
        );
    let g = grade_one(&a, json!({ "system": wrong }));
    assert!(!g.passed, "{}", g.message);
    assert!(
        g.message
            .contains(" starts away from the reference, far beyond"),
        "{}",
        g.message
    );
}
