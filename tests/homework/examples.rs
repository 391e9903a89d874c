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
