//! `llm` on stiff kinetics and the test-set Van der Pol, typed as systems as a user
//! would: the increment form of src/method/llm.rs keeps its digits where the
//! rearranged form lost them.

use super::common::*;
use odelab::spec::{SolveSpec, Tol};

const ROBERTSON: &str = "y1' = -0.04*y1 + 1e4*y2*y3
y2' = 0.04*y1 - 1e4*y2*y3 - 3e7*y2^2
y3' = 3e7*y2^2
y1(0) = 1, y2(0) = 0, y3(0) = 0";

fn typed(text: &str, method: &str, rtol: f64, atol: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        model: String::new(),
        system: Some(text.into()),
        h: None,
        rtol: Some(Tol::Scalar(rtol)),
        atol: Some(Tol::Scalar(atol)),
        max_steps: Some(1_000_000),
        ..spec("", method, 0.0, t1)
    }
}

fn last(sol: &odelab::Solution) -> Vec<f64> {
    sol.y[sol.y.len() - sol.dim..].to_vec()
}

/// −log10 of the largest componentwise relative error.
fn digits(y: &[f64], reference: &[f64]) -> f64 {
    -y.iter()
        .zip(reference)
        .map(|(a, b)| ((a - b) / b).abs())
        .fold(0.0, f64::max)
        .log10()
}

/// A 20-species kinetics chain: y_i' = k_{i−1} y_{i−1} − k_i y_i − q y_i², rates
/// cycling through 1, 10, 100, 1000 /s, quadratic losses q = 50. Stiff (|λ| up to
/// ~2000), nonlinear, with quasi-steady species where |J y| ≫ |f|.
fn chain_text() -> String {
    let k = |i: usize| 10f64.powi((i % 4) as i32);
    let mut text = String::from("param q = 50\n");
    for i in 1..=20 {
        let mut rhs = String::new();
        if i > 1 {
            rhs += &format!("{:e}*y{} ", k(i - 1), i - 1);
        }
        if i < 20 {
            rhs += &format!("- {:e}*y{i} ", k(i));
        }
        rhs += &format!("- q*y{i}^2");
        text += &format!("y{i}' = {rhs}\n");
    }
    text += "y1(0) = 1";
    for i in 2..=20 {
        text += &format!(", y{i}(0) = 0");
    }
    text
}

/// Robertson's kinetics typed as a system, to t = 1e11, atol = 1e-6 rtol: LLM gains
/// digits as rtol tightens and has ≥ 5 at rtol 1e-8 (5.1 / 5.8 / 6.1; the rearranged
/// step had 4.35 / 3.11 at rtol 1e-6 / 1e-8, fewer digits the tighter; see
/// src/method/llm.rs). Reference: ros4 at rtol 1e-12, atol 1e-24
/// (ros4 at rtol 1e-10 agrees with it to 10 digits).
#[test]
fn llm_gains_digits_on_typed_robertson_to_1e11() {
    let reference = [
        2.083340149799588e-8,
        8.333360770728343e-14,
        0.9999999791664551,
    ];
    let d: Vec<f64> = [1e-6, 1e-8, 1e-10]
        .iter()
        .map(|&rtol| {
            let sol = odelab::solve(&typed(ROBERTSON, "llm", rtol, rtol * 1e-6, 1e11)).unwrap();
            assert!(sol.stopped_by.is_none() && sol.warning.is_none());
            digits(&last(&sol), &reference)
        })
        .collect();
    println!("llm on Robertson, digits at rtol 1e-6 / 1e-8 / 1e-10: {d:?}");
    assert!(d[1] > d[0] && d[2] > d[1], "{d:?}");
    assert!(d[1] >= 5.0, "{d:?}");
}

/// A stiff nonlinear 20-species chain, fixed steps h = 0.1 / 0.01 / 0.001 to t = 10:
/// the error falls with h at order 2 (it grew as h shrank with the rearranged step).
#[test]
fn llm_fixed_step_error_falls_with_h_on_a_stiff_chain() {
    let text = chain_text();
    let reference = last(&odelab::solve(&typed(&text, "ros4", 1e-12, 1e-16, 10.0)).unwrap());
    let errs: Vec<f64> = [0.1, 0.01, 0.001]
        .iter()
        .map(|&h| {
            let s = SolveSpec {
                adaptive: Some(false),
                h: Some(h),
                rtol: None,
                atol: None,
                ..typed(&text, "llm", 1e-6, 1e-6, 10.0)
            };
            let y = last(&odelab::solve(&s).unwrap());
            y.iter()
                .zip(&reference)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        })
        .collect();
    println!("llm fixed-step errors on the chain at h = 0.1 / 0.01 / 0.001: {errs:?}");
    for w in errs.windows(2) {
        assert!(w[1] < w[0] / 30.0, "{errs:?}");
    }
}

/// Van der Pol in the test-set scaling (ε = 1e-6, y(0) = (2, 0), t ∈ [0, 2]), rtol =
/// atol = 1e-8: LLM crosses the fold at t ≈ 0.807 (where the rearranged step stalled:
/// e^{hJ} y_n and ψ, each ~e^{hλ} with hλ ≫ 0 on the unstable side of the fold,
/// cancelled, and the controller read their rounding as error) and reaches t = 2 in
/// well under 10⁶ steps. Reference: Mazzia and Magherini's IVP test set (`vdpol`).
#[test]
fn llm_crosses_the_van_der_pol_fold_at_test_set_scaling() {
    let vdp = "y1' = y2
y2' = ((1 - y1^2)*y2 - y1)/1e-6
y1(0) = 2, y2(0) = 0";
    let reference = [1.706167732170483, -0.8928097010247975];
    let sol = odelab::solve(&typed(vdp, "llm", 1e-8, 1e-8, 2.0)).unwrap();
    let d = digits(&last(&sol), &reference);
    println!(
        "llm on Van der Pol ε = 1e-6: {:?}, digits {d:.2}",
        sol.stats
    );
    assert!(sol.stopped_by.is_none() && sol.warning.is_none());
    assert_eq!(*sol.t.last().unwrap(), 2.0);
    assert!(sol.stats.nsteps < 1_000_000, "{:?}", sol.stats);
    assert!(d >= 4.5, "{d}");
}
