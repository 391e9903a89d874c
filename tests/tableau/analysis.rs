//! `analyze_tableau`: orders, the 17 conditions, R(z), on tableaux with known answers.

use super::known::*;
use odelab::tableau::{analyze_tableau, TableauSpec};

fn orders(spec: &TableauSpec) -> (u32, Option<u32>) {
    let a = analyze_tableau(spec).unwrap();
    assert_eq!(a.conditions.len(), 17);
    let per_order: Vec<usize> = (1..=5)
        .map(|p| a.conditions.iter().filter(|c| c.order == p).count())
        .collect();
    assert_eq!(per_order, [1, 1, 2, 4, 9]);
    (a.order, a.embedded_order)
}

#[test]
fn catalogue_tableaux_have_their_orders() {
    assert_eq!(orders(&catalogue("euler")), (1, None));
    assert_eq!(orders(&catalogue("heun")), (2, None));
    assert_eq!(orders(&catalogue("rk4")), (4, None));
    assert_eq!(orders(&catalogue("bs23")), (3, Some(2)));
    assert_eq!(orders(&catalogue("dp45")), (5, Some(4)));
}

#[test]
fn catalogue_fsal_pairs_are_recognised() {
    assert!(analyze_tableau(&catalogue("dp45")).unwrap().fsal);
    assert!(analyze_tableau(&catalogue("bs23")).unwrap().fsal);
    assert!(!analyze_tableau(&catalogue("rk4")).unwrap().fsal);
}

#[test]
fn rk4_typed_as_fractions_has_exact_stability_polynomial() {
    let a = analyze_tableau(&rk4_typed()).unwrap();
    assert_eq!(a.order, 4);
    assert!(a.explicit);
    assert_eq!(a.c, [0.0, 0.5, 0.5, 1.0]);
    let r = &a.stability;
    assert_eq!(
        r.numerator,
        [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0],
        "{:?}",
        r.numerator
    );
    assert_eq!(r.denominator, [1.0]);
    assert_eq!(
        r.numerator_exact.as_deref().unwrap(),
        ["1", "1", "1/2", "1/6", "1/24"]
    );
    assert_eq!(r.text, "1 + z + z^2/2 + z^3/6 + z^4/24");
    assert_eq!(
        r.tex,
        "1 + z + \\frac{z^{2}}{2} + \\frac{z^{3}}{6} + \\frac{z^{4}}{24}"
    );
    // All conditions up to order 4 hold, exactly; some of order 5 fail.
    for c in &a.conditions {
        assert_eq!(c.holds, c.order <= 4, "{c:?}");
    }
    let b_c4 = a.conditions.iter().find(|c| c.tree == "[τ⁴]").unwrap();
    assert_eq!(b_c4.name, "Σ bᵢcᵢ⁴ = 1/5");
    assert!((b_c4.value - 5.0 / 24.0).abs() < 1e-15, "{b_c4:?}");
}

#[test]
fn rk4_as_floats_gives_the_same_order_and_float_coefficients() {
    let a = analyze_tableau(&catalogue("rk4")).unwrap();
    let r = &a.stability;
    assert!(r.numerator_exact.is_none());
    // Shown as the fractions the floats round from.
    assert_eq!(r.text, "1 + z + z^2/2 + z^3/6 + z^4/24");
    let dp45 = analyze_tableau(&catalogue("dp45")).unwrap().stability;
    assert_eq!(
        dp45.text,
        "1 + z + z^2/2 + z^3/6 + z^4/24 + z^5/120 + z^6/600"
    );
    let pi = analyze_tableau(&typed(&[&["0", "0"], &["pi/10", "0"]], &["0", "1"], None))
        .unwrap()
        .stability;
    assert_eq!(pi.text, "1 + z + 0.3141593 z^2");
    assert_eq!(r.numerator.len(), 5);
    for (x, want) in r
        .numerator
        .iter()
        .zip([1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0])
    {
        // 1/6 + 1/3 + 1/3 + 1/6 rounds to 1 − 2⁻⁵³ in floating point.
        assert!((x - want).abs() < 1e-15, "{x} vs {want}");
    }
}

#[test]
fn three_eighths_rule_and_ralston() {
    let a = analyze_tableau(&three_eighths()).unwrap();
    assert_eq!(a.order, 4);
    assert_eq!(
        a.stability.numerator_exact.as_deref().unwrap(),
        ["1", "1", "1/2", "1/6", "1/24"]
    );
    assert_eq!(a.c, [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
    let r = analyze_tableau(&ralston()).unwrap();
    assert_eq!(r.order, 2);
    assert_eq!(r.stability.text, "1 + z + z^2/2");
    let bs = analyze_tableau(&bogacki_shampine()).unwrap();
    assert_eq!((bs.order, bs.embedded_order), (3, Some(2)));
    assert!(bs.fsal);
}

#[test]
fn broken_tableau_drops_order_and_names_the_failing_condition() {
    // RK4 with b = (1/6, 1/6, 1/2, 1/6): orders 1, 2 and Σ bᵢcᵢ² = 1/3 still hold,
    // Σ bᵢaᵢⱼcⱼ = 5/24 ≠ 1/6.
    let spec = typed(
        &[
            &["0", "0", "0", "0"],
            &["1/2", "0", "0", "0"],
            &["0", "1/2", "0", "0"],
            &["0", "0", "1", "0"],
        ],
        &["1/6", "1/6", "1/2", "1/6"],
        None,
    );
    let a = analyze_tableau(&spec).unwrap();
    assert_eq!(a.order, 2);
    let failing: Vec<&str> = a
        .conditions
        .iter()
        .filter(|c| c.order == 3 && !c.holds)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failing, ["Σ bᵢaᵢⱼcⱼ = 1/6"]);
    let c = a.conditions.iter().find(|c| c.tree == "[[τ]]").unwrap();
    assert!(
        (c.residual - (5.0 / 24.0 - 1.0 / 6.0)).abs() < 1e-15,
        "{c:?}"
    );
}

#[test]
fn inconsistent_tableau_has_order_zero() {
    let a = analyze_tableau(&typed(&[&["0"]], &["1/2"], None)).unwrap();
    assert_eq!(a.order, 0);
    assert_eq!(a.stability.text, "1 + z/2");
}

#[test]
fn diagonally_implicit_tableaux_are_analysed() {
    // Implicit midpoint: order 2, R = (1 + z/2)/(1 − z/2).
    let a = analyze_tableau(&typed(&[&["1/2"]], &["1"], None)).unwrap();
    assert!(!a.explicit);
    assert_eq!(a.order, 2);
    assert_eq!(a.stability.numerator, [1.0, 0.5]);
    assert_eq!(a.stability.denominator, [1.0, -0.5]);
    assert_eq!(
        a.stability.tex,
        "\\frac{1 + \\frac{z}{2}}{1 - \\frac{z}{2}}"
    );
    assert_eq!(a.stability.text, "(1 + z/2) / (1 - z/2)");
    assert_eq!(
        a.stability.numerator_exact.as_deref().unwrap(),
        ["1", "1/2"]
    );
    assert_eq!(
        a.stability.denominator_exact.as_deref().unwrap(),
        ["1", "-1/2"]
    );
    // Backward Euler: R = 1/(1 − z). The SDIRK below has irrational entries: floats.
    let a = analyze_tableau(&typed(&[&["1"]], &["1"], None)).unwrap();
    assert_eq!(a.stability.text, "(1) / (1 - z)");
    assert_eq!(a.order, 1);
    // The two-stage SDIRK of order 3 of Crouzeix and Nørsett, γ = (3 + √3)/6, typed
    // with sqrt (floats: no exact coefficients).
    let g = "(3+sqrt(3))/6";
    let sdirk = typed(
        &[&[g, "0"], &["1 - 2*(3+sqrt(3))/6", g]],
        &["1/2", "1/2"],
        None,
    );
    let a = analyze_tableau(&sdirk).unwrap();
    assert_eq!(a.order, 3);
    assert_eq!(a.stages, 2);
}

#[test]
fn entries_may_be_decimals_and_expressions() {
    let spec = typed(&[&["0", "0"], &["0.5", "0"]], &["0", "2/2"], None);
    let a = analyze_tableau(&spec).unwrap();
    assert_eq!(a.order, 2);
    assert_eq!(
        a.stability.numerator_exact.as_deref().unwrap(),
        ["1", "1", "1/2"]
    );
    let spec = typed(&[&["0", "0"], &["sqrt(1/4)", "0"]], &["0", "1"], None);
    let a = analyze_tableau(&spec).unwrap();
    assert_eq!(a.order, 2);
    assert!(a.stability.numerator_exact.is_none());
    assert_eq!(a.stability.text, "1 + z + z^2/2");
}

#[test]
fn exact_dirk_stability_function_agrees_with_the_stability_lab() {
    use odelab::stability::rational::Rational;
    let spec = typed(
        &[
            &["1/4", "0", "0"],
            &["1/2", "1/4", "0"],
            &["-1/4", "1/2", "1/4"],
        ],
        &["1/3", "1/3", "1/3"],
        None,
    );
    let a = analyze_tableau(&spec).unwrap();
    assert!(a.stability.numerator_exact.is_some());
    let tab = spec.parse().unwrap();
    let r = Rational::from_lower_triangular(&tab.a, &tab.b);
    for (mine, lab) in [
        (&a.stability.numerator, &r.num),
        (&a.stability.denominator, &r.den),
    ] {
        assert_eq!(mine.len(), lab.len());
        for (x, y) in mine.iter().zip(lab.iter()) {
            assert!((x - y).abs() < 1e-15, "{mine:?} vs {lab:?}");
        }
    }
}

#[test]
fn cancelling_huge_weights_do_not_fake_order_conditions() {
    // Σ bᵢ = 0, yet the rounding bound Σ |bᵢ| ≈ 2e14 would excuse any residual below ~200:
    // not even consistent.
    let third = 1.0 / 3e14;
    let zero_sum = TableauSpec::from_numbers(
        vec![
            vec![0.0, 0.0, 0.0],
            vec![0.5, 0.0, 0.0],
            vec![0.5 + third, -third, 0.0],
        ],
        vec![0.0, 1e14, -1e14],
        None,
    );
    let a = analyze_tableau(&zero_sum).unwrap();
    assert_eq!(a.order, 0, "{:?}", a.conditions[0]);
    // Euler padded to six stages: Σ bᵢ = 1 exactly, but Σ bᵢcᵢ = 1e14 − 1e14 = 0, not 1/2.
    let mut rows = vec![vec![0.0; 6]; 6];
    rows[4][0] = 1.0;
    rows[5][0] = 1.0;
    let padded = TableauSpec::from_numbers(rows, vec![1.0, 0.0, 0.0, 0.0, 1e14, -1e14], None);
    assert_eq!(analyze_tableau(&padded).unwrap().order, 1);
}
