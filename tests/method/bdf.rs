//! The variable-step, variable-order BDF (`bdf`) and NDF (`ndf`) of Shampine &
//! Reichelt, "The MATLAB ODE Suite" (1997), §2: accuracy and cost against SciPy's `BDF`
//! (the same algorithm) on the stiff problems of the suite, the observed order with the
//! order capped, the order changing on Van der Pol, dense output, and typed stops.

use super::common::*;
use odelab::spec::{SolveSpec, Tol};

/// Van der Pol μ = 1000 (y0 = (2, 0)) at t = 3000 and Robertson at t = 40: SciPy 1.17.1
/// `solve_ivp(method="Radau", rtol=1e-12, atol=1e-14 (Robertson 1e-16), jac=…)`.
const VDP_REF: [f64; 2] = [-1.5106069367439976, 0.0011783800007311384];
const ROBERTSON_REF: [f64; 3] = [
    0.7158270687194146,
    9.185534764558205e-06,
    0.2841637457458204,
];

/// The heat equation u' = (N+1)²(u_{i−1} − 2u_i + u_{i+1}), N = 200, u_i(0) =
/// sin(πi/(N+1)): the semi-discrete solution is that mode times e^{λ₁t}.
const HEAT: &str = "param N = 200
u[i]' = (N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = sin(pi*i/(N+1))                  for i = 1..N";

/// SciPy's `BDF` at the same rtol/atol with the analytic (for the heat equation, sparse)
/// Jacobian: (problem, rtol, atol, digits, nfev). Digits are −log10 of the largest error
/// at t1 over the largest reference component. SciPy 1.17.1, computed by
/// bench/scipy_bdf_golden.py.
const SCIPY_BDF: &[(&str, f64, f64, f64, u64)] = &[
    ("van-der-pol", 1e-4, 1e-6, 2.586, 2350),
    ("van-der-pol", 1e-6, 1e-8, 4.125, 5107),
    ("robertson", 1e-4, 1e-8, 4.428, 183),
    ("robertson", 1e-6, 1e-10, 6.138, 366),
    ("heat", 1e-6, 1e-8, 5.862, 44),
    ("heat", 1e-8, 1e-10, 7.372, 72),
];

fn problem_spec(problem: &str, method: &str, rtol: f64, atol: f64) -> SolveSpec {
    let mut s = match problem {
        "heat" => SolveSpec {
            system: Some(HEAT.into()),
            t1: Some(0.05),
            ..SolveSpec::default()
        },
        "van-der-pol" => {
            let mut s = adaptive(problem, method, rtol, atol, 3000.0);
            s.params.insert("mu".into(), 1000.0);
            s
        }
        _ => adaptive(problem, method, rtol, atol, 40.0),
    };
    s.method = method.into();
    s.rtol = Some(Tol::Scalar(rtol));
    s.atol = Some(Tol::Scalar(atol));
    s
}

fn reference(problem: &str, n: usize) -> Vec<f64> {
    match problem {
        "van-der-pol" => VDP_REF.to_vec(),
        "robertson" => ROBERTSON_REF.to_vec(),
        _ => {
            let m = (n + 1) as f64;
            let pi = std::f64::consts::PI;
            let s = (pi / (2.0 * m)).sin();
            let decay = (-4.0 * m * m * s * s * 0.05).exp();
            (1..=n).map(|i| (pi * i as f64 / m).sin() * decay).collect()
        }
    }
}

/// Digits and f-evaluations of `method` on `problem`.
fn digits_and_nfev(problem: &str, method: &str, rtol: f64, atol: f64) -> (f64, u64) {
    let sol = odelab::solve(&problem_spec(problem, method, rtol, atol)).unwrap();
    assert!(
        sol.stopped_by.is_none(),
        "{problem} {method}: {:?}",
        sol.stopped_by
    );
    let y = last(&sol);
    let r = reference(problem, sol.dim);
    let err = y
        .iter()
        .zip(&r)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let scale = r.iter().map(|v| v.abs()).fold(0.0, f64::max);
    (-(err / scale).log10(), sol.stats.nfev)
}

#[test]
fn bdf_and_ndf_match_scipy_bdf_digits_and_cost_on_the_stiff_problems() {
    for &(problem, rtol, atol, digits, nfev) in SCIPY_BDF {
        for method in ["bdf", "ndf"] {
            let (d, f) = digits_and_nfev(problem, method, rtol, atol);
            println!(
                "{problem:12} rtol {rtol:.0e} {method}: digits {d:.2} (SciPy {digits:.2}), \
                 nfev {f} (SciPy {nfev}, ratio {:.2})",
                f as f64 / nfev as f64
            );
            // NDF is another formula (MATLAB's ode15s, not SciPy's): its error constants
            // differ, so its digits at a tolerance may differ by more; it is held to
            // one digit.
            let band = if method == "bdf" { 0.5 } else { 1.0 };
            assert!(
                d >= digits - band,
                "{problem} rtol {rtol} {method}: {d:.2} digits, SciPy {digits}"
            );
            assert!(
                (f as f64) <= 1.5 * nfev as f64,
                "{problem} rtol {rtol} {method}: nfev {f}, SciPy {nfev}"
            );
        }
    }
}

fn with_max_order(mut s: SolveSpec, k: f64) -> SolveSpec {
    s.method_params = Some(odelab::method::MethodParams {
        max_order: Some(k),
        ..Default::default()
    });
    s
}

/// Error at t1 on the damped oscillator (exact solution known) against accepted
/// steps, over a tolerance sweep with the order capped at k: error ∝ N^(−k).
fn slope_with_order_capped(method: &str, k: f64) -> f64 {
    let (mut ns, mut errs) = (vec![], vec![]);
    for e in [5.0, 6.0, 7.0, 8.0] {
        let tol = 10f64.powf(-e - k + 1.0).max(1e-13);
        let s = with_max_order(adaptive("mass-spring-damper", method, tol, tol, 5.0), k);
        let sol = odelab::solve(&s).unwrap();
        ns.push(sol.stats.naccept as f64);
        errs.push(final_error(&sol));
    }
    println!("{method} maxOrder {k}: steps {ns:?} errors {errs:?}");
    -loglog_slope(&ns, &errs)
}

#[test]
fn with_the_order_capped_at_k_the_error_falls_as_steps_to_the_minus_k() {
    for method in ["bdf", "ndf"] {
        for k in 1..=5 {
            let p = slope_with_order_capped(method, k as f64);
            println!("{method} maxOrder {k}: observed order {p:.2}");
            // Error against steps under step-size control, whose start-up at low
            // orders and step ratios blur the slope by a few tenths.
            assert!(
                (p - k as f64).abs() < 0.4,
                "{method} maxOrder {k}: order {p}"
            );
        }
    }
}

/// The orders the accepted steps of a Van der Pol run used (the step inspector's
/// column), and the steps taken at each.
fn orders_on_van_der_pol(method: &str) -> (Vec<u32>, [usize; 6], odelab::Solution) {
    let mut s = problem_spec("van-der-pol", method, 1e-6, 1e-8);
    s.inspect = Some(true);
    let sol = odelab::solve(&s).unwrap();
    let log = sol.inspect.as_ref().unwrap();
    assert_eq!(log.order.len(), log.t.len(), "one order per attempt");
    let mut per = [0usize; 6];
    let mut accepted = vec![];
    for (i, &k) in log.order.iter().enumerate() {
        if log.cause[i] == 0 {
            per[k as usize] += 1;
            accepted.push(k);
        }
    }
    (accepted, per, sol)
}

#[test]
fn the_order_changes_along_van_der_pol_and_the_step_log_records_it() {
    for method in ["bdf", "ndf"] {
        let (orders, per, sol) = orders_on_van_der_pol(method);
        let changes = orders.windows(2).filter(|w| w[0] != w[1]).count();
        println!(
            "{method}: steps per order {:?}, {changes} changes, {} steps, nfev {}",
            &per[1..],
            sol.stats.naccept,
            sol.stats.nfev
        );
        assert_eq!(orders.len() as u64, sol.stats.naccept);
        assert!(
            per[1..].iter().all(|&n| n > 0),
            "every order 1–5 is used: {per:?}"
        );
        assert!(changes > 20, "{changes} order changes");
        // The order starts at 1.
        assert_eq!(orders[0], 1);
    }
    // A method of fixed order logs no order column.
    let mut s = problem_spec("van-der-pol", "ros4", 1e-6, 1e-8);
    s.t1 = Some(10.0);
    s.inspect = Some(true);
    let sol = odelab::solve(&s).unwrap();
    assert!(sol.inspect.unwrap().order.is_empty());
}

fn typed(text: &str, method: &str, t1: f64, tol: f64) -> SolveSpec {
    SolveSpec {
        system: Some(text.into()),
        method: method.into(),
        t1: Some(t1),
        rtol: Some(Tol::Scalar(tol)),
        atol: Some(Tol::Scalar(tol)),
        ..SolveSpec::default()
    }
}

#[test]
fn dense_output_between_steps_and_events_on_it_are_as_accurate_as_the_steps() {
    for method in ["bdf", "ndf"] {
        let mut s = typed("y' = -y\ny(0) = 1", method, 3.0, 1e-9);
        s.t_eval = Some((0..=300).map(|i| i as f64 * 0.01).collect());
        s.events = vec![odelab::spec::EventSpec {
            expr: Some("y - 0.5".into()),
            ..Default::default()
        }];
        let sol = odelab::solve(&s).unwrap();
        let worst = sol
            .t_eval
            .iter()
            .zip(&sol.y_eval)
            .map(|(t, y)| (y - (-t).exp()).abs())
            .fold(0.0, f64::max);
        println!(
            "{method}: worst tEval error {worst:.2e}, {} steps",
            sol.stats.naccept
        );
        assert!(worst < 1e-7, "{method}: dense output error {worst}");
        assert_eq!(sol.events.len(), 1);
        let t_event = sol.events[0].t;
        assert!(
            (t_event - 2f64.ln()).abs() < 1e-7,
            "{method}: event at {t_event}"
        );
    }
}

#[test]
fn a_solution_that_blows_up_stops_with_a_typed_diagnosed_reason() {
    // y' = y², y(0) = 1: y = 1/(1 − t) leaves every bound at t = 1.
    let sol = odelab::solve(&typed("y' = y^2\ny(0) = 1", "ndf", 2.0, 1e-6)).unwrap();
    let stop = sol.stopped_by.clone().expect("the run stops");
    println!("{stop:?} / {:?}", sol.diagnosis.as_ref().map(|d| d.code));
    assert!(*sol.t.last().unwrap() <= 1.0 + 1e-6);
    assert!(sol.diagnosis.is_some(), "the stop is diagnosed: {stop}");
}

#[test]
fn max_order_is_a_whole_number_from_1_to_5_and_other_params_are_refused() {
    for bad in [0.0, 6.0, 2.5, f64::NAN] {
        let s = with_max_order(adaptive("van-der-pol", "ndf", 1e-6, 1e-8, 1.0), bad);
        let e = run_err(&s);
        assert!(e.to_string().contains("maxOrder"), "{bad}: {e}");
    }
    let mut s = adaptive("van-der-pol", "bdf", 1e-6, 1e-8, 1.0);
    s.method_params = Some(odelab::method::MethodParams {
        rho_inf: Some(0.5),
        ..Default::default()
    });
    assert!(run_err(&s).to_string().contains("maxOrder"));
    let s = with_max_order(
        spec("mass-spring-damper", "generalized-alpha", 0.01, 1.0),
        2.0,
    );
    assert!(run_err(&s).to_string().contains("maxOrder"));
}

#[test]
fn on_a_fixed_grid_the_order_still_rises_and_the_start_up_makes_it_second_order() {
    let mut errs = vec![];
    for h in [0.02, 0.01] {
        let mut s = fixed("mass-spring-damper", "bdf", h, 2.0);
        s.inspect = Some(true);
        let sol = odelab::solve(&s).unwrap();
        let top = sol.inspect.as_ref().unwrap().order.iter().copied().max();
        assert!(top > Some(1), "h = {h}: orders up to {top:?}");
        errs.push(final_error(&sol));
    }
    println!("fixed-grid errors {errs:?}");
    // The first steps at orders 1 and 2 of the full h set the global error: O(h²) on a
    // fixed grid (the adaptive start takes them tiny instead).
    assert!(errs[0] / errs[1] > 3.0 && errs[0] < 0.05, "{errs:?}");
}

/// The ξ-plane draws the fixed-step BDF5 = NDF5 (κ₅ = 0): its polynomial is
/// Σ_{j=1}^{5} ∇ʲ/j, the formula the stepper runs at order 5 on equal steps; the
/// region contains the whole negative real axis but not all of the left half-plane.
#[test]
fn the_xi_plane_draws_bdf5_which_is_not_a_stable() {
    use odelab::stability::spec::StabilitySpec;
    // Σ_j ∇ʲ/j in powers of the shift ζ (binomials of (1 − 1/ζ)ʲ times ζ⁵).
    let mut want = [0.0f64; 6];
    let binom = |n: usize, k: usize| (1..=k).fold(1.0, |a, i| a * (n + 1 - i) as f64 / i as f64);
    for j in 1..=5 {
        for i in 0..=j {
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            want[5 - i] += sign * binom(j, i) / j as f64;
        }
    }
    let poly = odelab::method::bdf::CHAR_POLY_5;
    for (j, w) in want.iter().enumerate() {
        assert!(
            (poly.coef[j][0] - w).abs() < 1e-14,
            "ζ^{j}: {} vs {w}",
            poly.coef[j][0]
        );
    }
    for id in ["bdf", "ndf"] {
        let spec = StabilitySpec {
            method: id.into(),
            re: Some([-10.0, 2.0]),
            im: Some([-6.0, 6.0]),
            nx: Some(60),
            ny: Some(60),
            ..Default::default()
        };
        let facts = odelab::stability::facts::stability_facts(&spec).unwrap();
        let map = odelab::stability::map::stability_map(&spec).unwrap();
        println!("{id}: {facts:?}, {} map values", map.len());
        assert!(map.iter().all(|v| *v >= 0.0));
        assert!(!facts.a_stable && !facts.l_stable, "{id}: {facts:?}");
        assert_eq!(
            facts.real_intercept,
            Some(f64::NEG_INFINITY),
            "{id}: stable on the whole negative axis"
        );
    }
}
