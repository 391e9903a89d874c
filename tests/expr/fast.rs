//! `fast` lines: the text marks the slow/fast scheme's fast states (Gil, Sanfelice &
//! Nikravesh 2013, the partition y = (x, z) of eqs. 17–18), and `slowfast` runs on a
//! typed system with that partition.

use super::system_error;
use odelab::expr::UserSystem;
use odelab::spec::SolveSpec;
use std::collections::BTreeMap;

fn fast_of(text: &str) -> Vec<usize> {
    UserSystem::new(text, &BTreeMap::new())
        .unwrap_or_else(|e| panic!("{text:?} should build:\n{e}"))
        .info()
        .fast
        .clone()
}

#[test]
fn a_fast_line_marks_the_named_states() {
    let text = "x' = v\nv' = -x\nw' = -100*w\nx(0) = 1, v(0) = 0, w(0) = 1\nfast w, v";
    assert_eq!(fast_of(text), [1, 2]);
    // Without the line, no state is fast.
    assert_eq!(fast_of("x' = -x\nx(0) = 1"), Vec::<usize>::new());
}

#[test]
fn a_fast_line_takes_elements_families_and_velocities() {
    let family =
        "param N = 3\nu[i]' = -u[i] for i = 1..N\nu[i](0) = 1 for i = 1..N\ny' = -y\ny(0) = 1\n";
    assert_eq!(fast_of(&format!("{family}fast u[2]")), [1]);
    assert_eq!(fast_of(&format!("{family}fast u")), [0, 1, 2]);
    let second = "q'' = -q\nq(0) = 1, q'(0) = 0\nfast q'";
    assert_eq!(fast_of(second), [1]);
}

#[test]
fn a_state_called_fast_still_works() {
    let text = "fast' = -fast\nfast(0) = 1";
    let sys = UserSystem::new(text, &BTreeMap::new()).unwrap();
    assert_eq!(sys.info().names, ["fast"]);
}

#[test]
fn an_unknown_fast_state_is_named_and_located() {
    let msg = system_error("x' = v\nv' = -x\nx(0) = 1, v(0) = 0\nfast vv");
    assert!(msg.starts_with("line 4, column 6:"), "{msg}");
    assert!(msg.contains("\"vv\", which is not a state"), "{msg}");
    assert!(msg.contains("the states are x, v"), "{msg}");
    assert!(msg.contains("did you mean \"v\"?"), "{msg}");
}

/// The built-in `slowfast-linear` (Gil, Sanfelice & Nikravesh 2013 eq. 50, λs = −1 + i,
/// α = 100, β = 0.1) written out in real and imaginary parts.
const SLOWFAST_LINEAR: &str = "param a = -1, b = 1, alpha = 100, beta = 0.1
xr' = a*xr - b*xi + beta*(a*zr - b*zi)
xi' = b*xr + a*xi + beta*(b*zr + a*zi)
zr' = alpha*beta*(a*xr - b*xi) + alpha*(a*zr - b*zi)
zi' = alpha*beta*(b*xr + a*xi) + alpha*(b*zr + a*zi)
xr(0) = 1, xi(0) = 0, zr(0) = 1, zi(0) = 0
";

fn slowfast(model: &str, system: Option<String>) -> Result<odelab::Solution, odelab::OdeError> {
    odelab::solve(&SolveSpec {
        model: model.into(),
        system,
        method: "slowfast".into(),
        h: Some(0.1),
        t1: Some(5.0),
        ..Default::default()
    })
}

#[test]
fn slowfast_on_a_typed_system_uses_its_fast_line() {
    let typed = slowfast("", Some(format!("{SLOWFAST_LINEAR}fast zr, zi"))).unwrap();
    let builtin = slowfast("slowfast-linear", None).unwrap();
    assert_eq!(typed.t.len(), builtin.t.len());
    let scale = builtin.y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (a, b) in typed.y.iter().zip(&builtin.y) {
        assert!((a - b).abs() <= 1e-12 * scale, "{a} against {b}");
    }
    // Without the line the scheme has no partition, and says how to give one.
    let msg = slowfast("", Some(SLOWFAST_LINEAR.into()))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("needs the fast states"), "{msg}");
    assert!(
        msg.contains("add a line naming them to your system, e.g. fast v"),
        "{msg}"
    );
}
