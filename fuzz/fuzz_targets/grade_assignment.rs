//! Bytes → an assignment text and a work text (split at the first NUL byte) →
//! `homework::grade_assignment_text`: never a panic; a grade's score lies within
//! [0, maxScore] and each task earns all of its points or none. Reference runs are
//! bounded by solve's budgets.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (assignment, work) = text.split_once('\0').unwrap_or((&text, "{\"odelabWork\":1}"));
    if let Ok(g) = odelab::homework::grade_assignment_text(assignment, work) {
        assert!(g.score >= 0.0 && g.score <= g.max_score);
        for t in &g.tasks {
            assert!(t.points == 0.0 || (t.passed && t.points == t.max_points));
        }
    }
});
