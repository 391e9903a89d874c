//! The example assignments of `examples/assignments/` are valid, and their model
//! answers (what a student makes in the playground) score full marks while wrong ones
//! lose the task's points.

use odelab::homework::{grade_assignment, read_assignment};
use serde_json::{json, Value};

fn example(name: &str) -> Value {
    let path = format!(
        "{}/examples/assignments/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("the example exists");
    serde_json::from_str(&text).expect("the example is JSON")
}

fn full_marks(assignment: &Value, answers: Value) {
    let work = json!({ "odelabWork": 1, "answers": answers });
    let g = grade_assignment(assignment, &work).expect("valid");
    for t in &g.tasks {
        assert!(t.passed, "{}: {}", t.id, t.message);
    }
    assert_eq!(g.score, g.max_score);
}

#[test]
fn stability_example_model_answers_score_full_marks() {
    let a = example("stability");
    assert_eq!(read_assignment(&a).expect("valid").max_score, 9.0);
    let kutta = json!({ "a": [[0, 0, 0], ["1/2", 0, 0], [-1, 2, 0]], "b": ["1/6", "2/3", "1/6"] });
    full_marks(
        &a,
        json!({
            "euler-limit": { "value": 0.005 },
            "rk4-limit": { "value": 0.2875 },
            "order3": { "tableau": kutta },
            "order3-observed": { "spec": { "model": "mass-spring-damper", "method": "custom", "h": 0.01, "tableau": kutta } },
            "rk4-intercept": { "value": -2.7853 },
            "spring-system": { "system": "param k = 100, c = 0.5, g = 9.81\nx' = v\nv' = g - k*x - c*v\nx(0) = 0, v(0) = 0" },
        }),
    );
    let wrong = json!({ "odelabWork": 1, "answers": { "euler-limit": { "value": 0.01 },
                         "order3-observed": { "spec": { "method": "heun", "h": 0.01 } } } });
    let g = grade_assignment(&a, &wrong).expect("valid");
    assert_eq!(g.score, 0.0);
    assert!(
        g.tasks[0].message.contains("too large"),
        "{}",
        g.tasks[0].message
    );
}

#[test]
fn stiffness_example_model_answers_score_full_marks() {
    let a = example("stiffness");
    assert_eq!(read_assignment(&a).expect("valid").max_score, 8.0);
    full_marks(
        &a,
        json!({
            "vdp-system": { "system": "param mu = 100\nu' = w\nw' = mu*(1 - u^2)*w - u\nu(0) = 2, w(0) = 0" },
            "vdp-budget": { "spec": { "model": "pendulum", "method": "ros4", "rtol": 1e-6, "atol": 1e-6 } },
            "w-frozen": { "spec": { "method": "ros4", "rtol": 1e-5, "atol": 1e-5 } },
        }),
    );
    let explicit = json!({ "odelabWork": 1, "answers": {
        "vdp-budget": { "spec": { "method": "dp45", "rtol": 1e-4, "atol": 1e-4 } },
        "w-frozen": { "spec": { "method": "w2", "rtol": 1e-4, "atol": 1e-4 } } } });
    let g = grade_assignment(&a, &explicit).expect("valid");
    assert_eq!(g.score, 0.0);
    assert!(
        g.tasks[1]
            .message
            .contains("✓ but 80,697 f-evaluations > 20,000"),
        "{}",
        g.tasks[1].message
    );
    assert!(
        g.tasks[2]
            .message
            .starts_with("w2 on van-der-pol (mu = 100) to t = 200: error 5.4e-3 > 1e-3"),
        "{}",
        g.tasks[2].message
    );
}

fn key(name: &str) -> Value {
    let path = format!(
        "{}/examples/assignments/keys/{name}.key.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("the key exists")).expect("JSON")
}

/// |R(z)| of RK4, R = 1 + z + z²/2 + z³/6 + z⁴/24, in plain complex arithmetic.
fn rk4_amplification(re: f64, im: f64) -> f64 {
    let mul = |(a, b): (f64, f64), (c, d): (f64, f64)| (a * c - b * d, a * d + b * c);
    let z = (re, im);
    let z2 = mul(z, z);
    let z3 = mul(z2, z);
    let z4 = mul(z3, z);
    let r = (
        1.0 + z.0 + z2.0 / 2.0 + z3.0 / 6.0 + z4.0 / 24.0,
        z.1 + z2.1 / 2.0 + z3.1 / 6.0 + z4.1 / 24.0,
    );
    r.0.hypot(r.1)
}

#[test]
fn springs_example_is_graded_per_student_with_the_key_and_recorded_without_it() {
    let a = example("springs");
    let k = key("springs");
    assert_eq!(
        k["assignment"].as_str(),
        Some(odelab::homework::digest(&a).as_str()),
        "the key names the assignment's digest"
    );
    let joined = odelab::homework::key::join(&a, &k).expect("object");
    let id = "s1234567";
    let values = grade_assignment(
        &a,
        &json!({ "odelabWork": 1, "studentId": id, "answers": {} }),
    )
    .expect("valid")
    .parameters;
    let (kk, c, l) = (values["k"], values["c"], values["L"]);
    // λ = −c/2 ± iω; Euler's limit is c/k, RK4's by bisection on |R(hλ)| = 1.
    let w = (kk - c * c / 4.0).sqrt();
    let (mut lo, mut hi) = (1e-6, 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if rk4_amplification(-c / 2.0 * mid, w * mid) <= 1.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let s = c / 2.0;
    let end = 9.81 / kk * (1.0 - (-s * 0.5f64).exp() * ((w * 0.5).cos() + s / w * (w * 0.5).sin()));
    let pendulum = format!(
        "param len = {l}\ncoordinates u, v, th\nmass 1, 1, len^2/12\nforce v = -9.81\nconstraint a: u = len/2*sin(th)\nconstraint b: v = -len/2*cos(th)\nu(0) = len/2*sin(0.5), v(0) = -len/2*cos(0.5), th(0) = 0.5"
    );
    let answers = json!({
        "euler-limit": { "value": c / kk },
        "rk4-limit": { "value": lo },
        "euler-growth": { "value": 1.005f64.sqrt() },
        "end-value": { "value": end },
        "spring-system": { "system": format!("pos' = vel\nvel' = 9.81 - {kk}*pos - {c}*vel\npos(0) = 0, vel(0) = 0") },
        "pendulum-body": { "system": pendulum },
    });
    let work = json!({ "odelabWork": 1, "studentId": id, "answers": answers });
    let lecturer = grade_assignment(&joined, &work).expect("valid");
    for t in &lecturer.tasks {
        assert!(t.passed, "{}: {}", t.id, t.message);
    }
    assert_eq!(lecturer.score, 9.0);
    // The student's page, without the key: the practice tasks are graded, the keyed
    // ones recorded with nothing measured.
    let student = grade_assignment(&a, &work).expect("valid");
    assert_eq!(student.score, 3.0);
    for t in student.tasks.iter().filter(|t| t.recorded) {
        assert_eq!(t.measured, Value::Null);
        assert_eq!(t.message, "recorded: your lecturer grades this task");
    }
    assert_eq!(student.tasks.iter().filter(|t| t.recorded).count(), 4);
    // Another student's numbers fail this student's keyed checks.
    let other =
        json!({ "odelabWork": 1, "studentId": "s7654321", "answers": work["answers"].clone() });
    let g = grade_assignment(&joined, &other).expect("valid");
    assert!(g.score < 9.0, "{:?}", g.tasks);
}
