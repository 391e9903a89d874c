//! Tolerances and the composite scale sc_i of Negrut et al. 2003 eq. (4).

use odelab::control::Tolerance;

#[test]
fn scale_uses_the_larger_of_old_and_new_value() {
    let tol = Tolerance::new(vec![1e-3, 1e-6], vec![1e-6, 0.0]).unwrap();
    // sc_0 = 1e-6 + max(|−2|, |0.5|)·1e-3
    assert!((tol.scale(0, -2.0, 0.5) - (1e-6 + 2e-3)).abs() < 1e-18);
    assert!((tol.scale(1, 0.1, -3.0) - 3e-6).abs() < 1e-20);
}

#[test]
fn bad_tolerances_are_refused_with_their_name() {
    let msg = |r: Vec<f64>, a: Vec<f64>| Tolerance::new(r, a).unwrap_err().to_string();
    let m = msg(vec![0.0], vec![1e-6]);
    assert!(
        m.contains("rtol must be greater than 0") && m.ends_with("got 0"),
        "{m}"
    );
    let m = msg(vec![1e-3, -1.0], vec![1e-6]);
    assert!(m.contains("rtol[1] must be greater than 0"), "{m}");
    let m = msg(vec![1e-3], vec![-1e-6]);
    assert!(
        m.contains("atol must be 0 or more") && m.ends_with("got -1e-6"),
        "{m}"
    );
    assert!(msg(vec![f64::NAN], vec![1e-6]).contains("rtol must be a finite number"));
}
