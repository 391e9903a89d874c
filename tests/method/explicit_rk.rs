//! Properties every explicit tableau in the catalogue must have.

use odelab::method::{self, Stepper, CATALOG};

#[test]
fn every_catalogue_method_can_be_created() {
    for info in CATALOG {
        let stepper = method::create(info.id, 3).expect("catalogue id creates");
        assert_eq!(stepper.info().id, info.id);
    }
}

#[test]
fn unknown_method_lists_the_known_ones() {
    let err = method::create("rk5", 2)
        .err()
        .expect("unknown id is refused");
    let msg = err.to_string();
    assert!(msg.contains("\"rk5\""), "{msg}");
    assert!(
        msg.contains("\"rk4\"") && msg.contains("\"euler\""),
        "{msg}"
    );
}

/// The tableaux are consistent with their metadata and with themselves: c_i = Σ_j a_ij,
/// Σ b = 1, an FSAL last row equals b, the error weights sum to 0 (both formulas are
/// consistent), and the dense output at θ = 1 reproduces the step (Σ_j d_ij = b_i).
#[test]
fn tableaux_are_consistent_with_their_metadata() {
    for info in CATALOG {
        let Some(tab) = method::tableau(info.id) else {
            // Only the explicit Runge–Kutta methods are tableaux; the stiff,
            // exponential and multistep methods have their own tests.
            assert!(
                info.second_order || info.family != "explicit Runge–Kutta",
                "{} has no tableau",
                info.id
            );
            continue;
        };
        let s = tab.stages();
        assert_eq!(tab.a.len(), s, "{}", info.id);
        assert_eq!(tab.c.len(), s, "{}", info.id);
        for (i, row) in tab.a.iter().enumerate() {
            assert_eq!(row.len(), i, "{}: row {i} is strictly lower", info.id);
            let sum: f64 = row.iter().sum();
            assert!((sum - tab.c[i]).abs() < 1e-15, "{}: c[{i}]", info.id);
        }
        assert!(
            (tab.b.iter().sum::<f64>() - 1.0).abs() < 1e-15,
            "{}",
            info.id
        );
        assert_eq!(tab.fsal, info.fsal, "{}", info.id);
        assert_eq!(tab.error.is_some(), info.adaptive, "{}", info.id);
        assert_eq!(info.embedded_order.is_some(), info.adaptive, "{}", info.id);
        if tab.fsal {
            assert_eq!(tab.a[s - 1].len(), s - 1);
            for j in 0..s - 1 {
                assert_eq!(tab.a[s - 1][j], tab.b[j], "{}: FSAL row", info.id);
            }
            assert_eq!(tab.b[s - 1], 0.0);
            assert_eq!(tab.c[s - 1], 1.0);
            assert_eq!(info.stages as usize, s - 1, "{}", info.id);
        } else {
            assert_eq!(info.stages as usize, s, "{}", info.id);
        }
        if let Some(e) = tab.error {
            assert_eq!(e.len(), s);
            assert!(e.iter().sum::<f64>().abs() < 1e-15, "{}: Σ E", info.id);
        }
        if let Some(d) = tab.dense {
            assert_eq!(d.len(), s);
            for (i, row) in d.iter().enumerate() {
                let at_one: f64 = row.iter().sum();
                assert!(
                    (at_one - tab.b[i]).abs() < 1e-14,
                    "{}: dense row {i}",
                    info.id
                );
            }
        }
    }
}

/// Order conditions up to the method's order (and, for the embedded formula b̂ = b − E,
/// up to the embedded order), with c = A·1: the ones for orders 1–4 (the fifth-order
/// conditions of DP5 are covered by the observed order test).
#[test]
fn order_conditions_hold() {
    fn conditions(b: &[f64], a: &[&[f64]], c: &[f64], order: u32) -> Vec<(String, f64)> {
        let s = b.len();
        let ac = |i: usize| -> f64 { a[i].iter().zip(c).map(|(x, y)| x * y).sum() };
        let mut out = vec![("Σb = 1".to_string(), b.iter().sum::<f64>() - 1.0)];
        let dot = |f: &dyn Fn(usize) -> f64| (0..s).map(|i| b[i] * f(i)).sum::<f64>();
        if order >= 2 {
            out.push(("Σbc = 1/2".into(), dot(&|i| c[i]) - 0.5));
        }
        if order >= 3 {
            out.push(("Σbc² = 1/3".into(), dot(&|i| c[i] * c[i]) - 1.0 / 3.0));
            out.push(("ΣbAc = 1/6".into(), dot(&ac) - 1.0 / 6.0));
        }
        if order >= 4 {
            out.push(("Σbc³ = 1/4".into(), dot(&|i| c[i].powi(3)) - 0.25));
            out.push(("ΣbcAc = 1/8".into(), dot(&|i| c[i] * ac(i)) - 0.125));
            out.push((
                "ΣbAc² = 1/12".into(),
                dot(&|i| a[i].iter().zip(c).map(|(x, y)| x * y * y).sum()) - 1.0 / 12.0,
            ));
            out.push((
                "ΣbAAc = 1/24".into(),
                dot(&|i| a[i].iter().enumerate().map(|(j, x)| x * ac(j)).sum()) - 1.0 / 24.0,
            ));
        }
        out
    }
    for info in CATALOG {
        let Some(tab) = method::tableau(info.id) else {
            continue;
        };
        for (name, residual) in conditions(tab.b, tab.a, tab.c, info.order.min(4)) {
            assert!(
                residual.abs() < 1e-14,
                "{}: {name} off by {residual}",
                info.id
            );
        }
        if let (Some(e), Some(q)) = (tab.error, info.embedded_order) {
            let b_hat: Vec<f64> = tab.b.iter().zip(e).map(|(b, e)| b - e).collect();
            for (name, residual) in conditions(&b_hat, tab.a, tab.c, q) {
                assert!(
                    residual.abs() < 1e-14,
                    "{} embedded: {name} off by {residual}",
                    info.id
                );
            }
        }
    }
}

/// Every explicit one-step method's dense output has the order its metadata states: the local error at
/// a step midpoint is O(h^(denseOrder + 1)). RK4 is left out: its Hermite interpolant's
/// error h⁴ω⁴/384 stays below RK4's own local error ~h⁵ω⁵/… until hω ≲ 1/384, where
/// both are at round-off (observed slope 4.3 at h = 0.005…0.000625, falling towards 4).
#[test]
fn dense_output_has_the_stated_order() {
    // The stiff, exponential and multistep methods are left out: on this
    // linear test LLM is exact, and a multistep method's first step is its start-up.
    let explicit_one_step =
        |m: &&&method::MethodInfo| method::tableau(m.id).is_some() || m.second_order;
    // generalized-α and HHT-α carry an acceleration-like variable whose start value
    // q̈(t0) is O(h) off (Arnold & Brüls 2007 §4): their first step's error is a start-up
    // effect, so their dense output is measured on a later step
    // (`tests/method/generalized_alpha.rs`).
    let carries_a = |m: &&&method::MethodInfo| ["generalized-alpha", "hht-alpha"].contains(&m.id);
    for info in CATALOG
        .iter()
        .filter(explicit_one_step)
        // rn4: ros4's cubic Hermite interpolant, whose slope is measured at smaller h in
        // `tests/method/rn4.rs` (here its error still falls faster than h⁴, as RK4's).
        .filter(|m| m.id != "rk4" && m.id != "rn4" && !carries_a(m))
    {
        let h0 = if info.id == "dp45" { 0.04 } else { 0.01 };
        let (p, errs) = super::common::dense_order(info.id, h0, 4);
        let expected = info.dense_order as f64 + 1.0;
        assert!(
            (p - expected).abs() < 0.15,
            "{}: slope {p}, expected {expected}, errors {errs:?}",
            info.id
        );
    }
}

/// dp45 and bs23 run the compile-time specialised step (`fixed_rk.rs`); it must give
/// the generic tableau loop's bits exactly — accepted steps (FSAL reuse), a retry from
/// the same point with a smaller h (first-stage reuse), a jump elsewhere, the error
/// estimate and the dense output — with the same f-evaluation count.
#[test]
fn fixed_rk_steps_are_bitwise_the_generic_tableau_loop() {
    let (_, model) = odelab::model::build("pendulum", &Default::default()).unwrap();
    let sys = model.as_ref();
    for id in ["dp45", "bs23"] {
        let info = method::info(id).unwrap();
        let mut generic = method::ExplicitRk::new(info, method::tableau(id).unwrap(), 2);
        let mut fixed = method::create(id, 2).unwrap();
        let (mut sg, mut sf) = (
            odelab::stats::Stats::default(),
            odelab::stats::Stats::default(),
        );
        let (mut t, mut y) = (0.0, vec![1.0, 0.3]);
        // (h, accepted): a rejected attempt is retried from the same (t, y).
        let plan = [
            (0.1, true),
            (0.3, false),
            (0.07, true),
            (0.05, true),
            (0.2, false),
            (0.02, true),
        ];
        for (k, &(h, accepted)) in plan.iter().enumerate() {
            let (mut yg, mut yf) = ([0.0; 2], [0.0; 2]);
            generic.step(sys, t, &y, h, &mut yg, &mut sg).unwrap();
            fixed.step(sys, t, &y, h, &mut yf, &mut sf).unwrap();
            assert_eq!(yg.map(f64::to_bits), yf.map(f64::to_bits), "{id} step {k}");
            let (eg, ef) = (
                generic.error_estimate().unwrap(),
                fixed.error_estimate().unwrap(),
            );
            assert_eq!(
                eg.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                ef.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{id} estimate {k}"
            );
            for theta in [0.0, 0.3, 0.75, 1.0] {
                let (mut dg, mut df) = ([0.0; 2], [0.0; 2]);
                generic.dense_output(sys, theta, &mut dg, &mut sg).unwrap();
                fixed.dense_output(sys, theta, &mut df, &mut sf).unwrap();
                assert_eq!(
                    dg.map(f64::to_bits),
                    df.map(f64::to_bits),
                    "{id} dense {k} θ = {theta}"
                );
            }
            if accepted {
                t += h;
                y = yf.to_vec();
            }
        }
        // A step from a point neither end of the last step: f is evaluated afresh.
        let (mut yg, mut yf) = ([0.0; 2], [0.0; 2]);
        generic
            .step(sys, 5.0, &[0.2, -0.1], 0.1, &mut yg, &mut sg)
            .unwrap();
        fixed
            .step(sys, 5.0, &[0.2, -0.1], 0.1, &mut yf, &mut sf)
            .unwrap();
        assert_eq!(
            yg.map(f64::to_bits),
            yf.map(f64::to_bits),
            "{id} fresh start"
        );
        assert_eq!(sg, sf, "{id}: work counts");
    }
}

/// dp45 and bs23 measure their error estimate while they step (`Stepper::measured`);
/// the driver relies on it being the norm `ErrorMeasure::of` computes afterwards from
/// the estimate, bit for bit: both norms, per-component tolerances, accepted and
/// retried steps, and a step that leaves the floating-point range (infinite).
#[test]
fn measured_steps_give_the_norm_of_their_estimate_bit_for_bit() {
    use odelab::control::{ErrorMeasure, ErrorNorm, Tolerance};
    let (_, model) = odelab::model::build("pendulum", &Default::default()).unwrap();
    let sys = model.as_ref();
    let tolerance = Tolerance::new(vec![1e-6, 1e-3], vec![1e-9, 0.0]).unwrap();
    for id in ["dp45", "bs23"] {
        for norm in [ErrorNorm::Rms, ErrorNorm::Max] {
            let measure = ErrorMeasure {
                norm,
                tolerance: &tolerance,
            };
            let mut fused = method::create(id, 2).unwrap();
            let mut plain = method::create(id, 2).unwrap();
            let mut stats = odelab::stats::Stats::default();
            let (mut t, mut y) = (0.0, vec![1.0, 0.0]);
            for (k, &h) in [0.1, 0.4, 0.05, 2.0, 0.2, f64::MAX].iter().enumerate() {
                let (mut yf, mut yp) = ([0.0; 2], [0.0; 2]);
                let got = fused
                    .measured()
                    .expect("an explicit pair measures as it steps")
                    .step_measuring(sys, (t, &y, h), &mut yf, &mut stats, Some(measure))
                    .unwrap();
                plain.step(sys, t, &y, h, &mut yp, &mut stats).unwrap();
                let want = measure.of(plain.error_estimate().unwrap(), &y, &yp);
                assert_eq!(yf.map(f64::to_bits), yp.map(f64::to_bits), "{id} step {k}");
                assert_eq!(got.to_bits(), want.to_bits(), "{id} {norm:?} step {k}");
                // dp45's measured step on two states is a copy with the size a constant
                // (FixedPair::TWO_STATES): the estimate and the dense output it leaves are
                // the plain step's too.
                let bits = |e: &[f64]| e.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(fused.error_estimate().unwrap()),
                    bits(plain.error_estimate().unwrap()),
                    "{id} estimate {k}"
                );
                let (mut df, mut dp) = ([0.0; 2], [0.0; 2]);
                fused.dense_output(sys, 0.4, &mut df, &mut stats).unwrap();
                plain.dense_output(sys, 0.4, &mut dp, &mut stats).unwrap();
                assert_eq!(df.map(f64::to_bits), dp.map(f64::to_bits), "{id} dense {k}");
                if h == f64::MAX {
                    assert_eq!(got, f64::INFINITY, "{id}: a step out of range");
                } else if got <= 1.0 {
                    t += h;
                    y = yf.to_vec();
                }
            }
        }
    }
}

/// Every method's `source` (shown beside the method on the page) names its authors, as a
/// reader can look it up, and none of the project's own file names.
#[test]
fn every_method_cites_its_source_by_authors() {
    let authors = [
        "Schwab & Delhaes",
        "Negrut et al.",
        "Gil, Sanfelice & Nikravesh",
        "Hairer",
        "Butcher",
        "Chung & Hulbert",
        "Hilber, Hughes & Taylor",
        "Newmark",
        "Shampine & Reichelt",
    ];
    for id in method::ids() {
        let info = method::info(&id).unwrap();
        assert!(
            authors.iter().any(|a| info.source.contains(a)) || id == "custom",
            "{id}: {}",
            info.source
        );
        for internal in ["seed", "METHODS", "../shared"] {
            assert!(!info.source.contains(internal), "{id}: {}", info.source);
        }
    }
}
