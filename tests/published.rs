//! Numbers and claims the four source works publish, each reproduced here with its
//! tolerance and its citation. What odelab does not reproduce is listed, with the
//! reason, in the errata of the page's Sources panel (index.html); the tests below that
//! pin a difference say so.

// Digits exactly as printed in Negrut et al. 2003 Table 2; index loops over the 4 × 4
// coefficient matrices read like the formulas they check.
#![allow(clippy::excessive_precision, clippy::needless_range_loop)]

use nalgebra::Complex;
use odelab::compare::compare_formulations;
use odelab::method::ros4::TABLEAU;
use odelab::spec::{SolveSpec, Tol};
use odelab::stability::slowfast::SlowFast;
use odelab::stability::{Grid, StabilitySpec};

// ---- Negrut et al. 2003, Table 2 against Table 1 -------------------------------------

/// Table 1 as 4 × 4 lower-triangular matrices α (strict) and Γ (γ on the diagonal),
/// from `ros4`'s table (γ21's sign corrected, the Sources panel's errata).
fn table1() -> ([[f64; 4]; 4], [[f64; 4]; 4]) {
    let (mut alpha, mut gamma) = ([[0.0; 4]; 4], [[0.0; 4]; 4]);
    for i in 0..4 {
        gamma[i][i] = TABLEAU.gamma_diag;
        for j in 0..i {
            alpha[i][j] = TABLEAU.alpha[i][j];
            gamma[i][j] = TABLEAU.gamma[i][j];
        }
    }
    (alpha, gamma)
}

fn product(a: &[[f64; 4]; 4], b: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let mut p = [[0.0; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            p[i][j] = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    p
}

/// Γ⁻¹ by forward substitution (Γ is lower triangular).
fn inverse_lower(l: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let mut x = [[0.0; 4]; 4];
    for j in 0..4 {
        for i in 0..4 {
            let unit = if i == j { 1.0 } else { 0.0 };
            let s: f64 = (0..i).map(|k| l[i][k] * x[k][j]).sum();
            x[i][j] = (unit - s) / l[i][i];
        }
    }
    x
}

/// Negrut et al. 2003 Table 2 lists, beside a, c, m, m̂ (the transformed form that
/// `ros4-t2` runs), the Rosenbrock–Nyström coefficients θ, δ, μ, μ̂ of the companion
/// paper. They follow from Table 1 with B = α + Γ: θ = α B Γ⁻¹, δ = Γ B Γ⁻¹ (its strict
/// lower part), μ = bᵀ B Γ⁻¹ and μ̂ = b̂ᵀ B Γ⁻¹ (the relations were found by fitting
/// and hold to round-off for every printed digit, so the two tables are one method).
/// δ21 = α21 + γ21 = −1.196… holds only with γ21 negative: Table 2 confirms the
/// correction of Table 1's sign.
#[test]
fn rosenbrock_nystrom_coefficients_of_table_2_follow_from_table_1() {
    let (alpha, gamma) = table1();
    let mut beta = alpha;
    for i in 0..4 {
        for j in 0..4 {
            beta[i][j] += gamma[i][j];
        }
    }
    let bg = product(&beta, &inverse_lower(&gamma));
    let theta = product(&alpha, &bg);
    let delta = product(&gamma, &bg);
    let weights = |w: &[f64]| -> Vec<f64> {
        (0..4)
            .map(|j| (0..4).map(|k| w[k] * bg[k][j]).sum())
            .collect()
    };
    // Table 2, as printed (strict lower parts, row by row).
    let theta_printed = [
        (1, 0, 1.14563212),
        (2, 0, 0.7895091628156386296980),
        (2, 1, 0.134294186842504800149232),
        (3, 0, 0.7895091628156386296980),
        (3, 1, 0.134294186842504800149232),
        (3, 2, 0.0),
    ];
    let delta_printed = [
        (1, 0, -1.19636100711201394970520),
        (2, 0, 1.47028025440978071463870),
        (2, 1, 0.34810583767920449016704),
        (3, 0, 0.003765094355556165798974),
        (3, 1, -0.10976248675810325875398),
        (3, 2, -0.22803103597313382947744),
    ];
    let mu_printed = [
        1.59275081940958534074900,
        0.195938266310250609693329,
        0.0,
        0.62637874732074217781171,
    ];
    let mu_hat_printed = [
        1.43490397184820947267100,
        0.22297867258869836905153,
        0.124559686414702049774897,
        0.20996980978930432131906,
    ];
    let mut worst = 0.0f64;
    for (i, j, v) in theta_printed {
        worst = worst.max((theta[i][j] - v).abs());
    }
    for (i, j, v) in delta_printed {
        worst = worst.max((delta[i][j] - v).abs());
    }
    for (got, want) in [
        (weights(TABLEAU.b), mu_printed),
        (weights(TABLEAU.b_hat), mu_hat_printed),
    ] {
        for k in 0..4 {
            worst = worst.max((got[k] - want[k]).abs());
        }
    }
    eprintln!("Table 2 θ, δ, μ, μ̂ from Table 1: largest difference {worst:e}");
    assert!(worst < 1e-14, "{worst}");
    // With Table 1's printed (positive) γ21, δ21 would be α21 + 2.342 = +3.488.
    assert!((TABLEAU.alpha[1][0] + 2.34199312711201394970520 - delta_printed[0].2).abs() > 4.0);
}

/// Table 3, the W-method (ROS2 of Verwer et al.) in the same printed form: α21 = 1,
/// γ21 = −2γ, γ = 1 + 1/√2, b = (1/2, 1/2), b̂ = (0, 1) give, by the relations of
/// Table 2 (a = αΓ⁻¹, c = diag(1/γ) − Γ⁻¹, m = bᵀΓ⁻¹, θ = αBΓ⁻¹, δ = ΓBΓ⁻¹,
/// μ = bᵀBΓ⁻¹), every printed entry to its 14 digits: Table 3 is consistent.
#[test]
fn w_method_table_3_follows_from_ros2_by_the_same_relations() {
    let g = 1.0 + std::f64::consts::FRAC_1_SQRT_2;
    // Γ = [[γ, 0], [−2γ, γ]], Γ⁻¹ = [[1/γ, 0], [2/γ, 1/γ]]; α = [[0, 0], [1, 0]].
    let gi = [[1.0 / g, 0.0], [2.0 / g, 1.0 / g]];
    let (a21, gamma21) = (1.0, -2.0 * g);
    // B Γ⁻¹ with B = α + Γ = [[γ, 0], [1 − 2γ, γ]].
    let bg = [[1.0, 0.0], [(a21 + gamma21) / g + 2.0, 1.0]];
    let row = |w: [f64; 2], m: [[f64; 2]; 2]| [w[0] * m[0][0] + w[1] * m[1][0], w[1] * m[1][1]];
    let computed = [
        ("a21", a21 * gi[0][0], 0.58578643762690),
        ("c21", -gi[1][0], -1.17157287525380),
        ("θ21", a21 * bg[0][0], 1.0),
        ("δ11", g * bg[0][0], 1.70710678118650),
        ("δ21", gamma21 * bg[0][0] + g * bg[1][0], -2.41421356237310),
        ("δ22", g * bg[1][1], 1.70710678118650),
        ("m1", row([0.5, 0.5], gi)[0], 0.87867965644040),
        ("m2", row([0.5, 0.5], gi)[1], 0.29289321881340),
        ("m̂1", row([0.0, 1.0], gi)[0], 1.17157287525380),
        ("m̂2", row([0.0, 1.0], gi)[1], 0.58578643762690),
        ("μ1", row([0.5, 0.5], bg)[0], 0.79289321881340),
        ("μ2", row([0.5, 0.5], bg)[1], 0.5),
        ("μ̂1", row([0.0, 1.0], bg)[0], 0.58578643762690),
        ("μ̂2", row([0.0, 1.0], bg)[1], 1.0),
    ];
    for (name, got, printed) in computed {
        assert!(
            (got - printed).abs() < 1e-13,
            "{name}: {got} vs printed {printed}"
        );
    }
    // γ1 = γ, γ2 = γ21 + γ (row sums) and α2 = α21, as printed.
    assert!((gamma21 + g - -1.70710678118650).abs() < 1e-13);
}

// ---- Negrut et al. 2003, Tables 4 and 6: Δ⁽ᵏ⁾ ≈ 10ᵏ -------------------------------------

/// Table 4 (θ1) and Table 6 (θ̇1) as printed: k, t*, Δ⁽ᵏ⁾, RelErr [%].
const TABLE4: [(i32, f64, f64, f64); 4] = [
    (-2, 0.592127, 5.223e-2, 0.12126),
    (-3, 0.599954, 4.198e-3, 0.00964),
    (-4, 0.626135, 4.196e-4, 0.00108),
    (-5, 1.065146, 1.902e-5, 0.00039),
];
const TABLE6: [(i32, f64, f64, f64); 4] = [
    (-2, 0.795548, 4.061e-2, 1.84434),
    (-3, 0.373114, 3.792e-3, 0.12340),
    (-4, 0.217757, 8.652e-4, 0.00922),
    (-5, 0.186183, 2.343e-4, 0.00246),
];

fn rsda(tol: f64) -> SolveSpec {
    SolveSpec {
        model: "double-pendulum-rsda".into(),
        method: "ros4".into(),
        t1: Some(2.0),
        rtol: Some(Tol::Scalar(tol)),
        atol: Some(Tol::Scalar(tol)),
        ..SolveSpec::default()
    }
}

/// "If, for example, k = −3, that is, accuracy of the order 10⁻³ is demanded, Δ⁽⁻³⁾
/// should have this order of magnitude" (Negrut et al. 2003 §3.1). ros4 in the
/// state-space formulation on the paper's independent coordinates (the two angles),
/// rtol = atol = 10ᵏ as in the paper, against a 1e-10 reference. The paper's own
/// tables set the factor: Δ⁽ᵏ⁾/10ᵏ is 1.9–5.2 for θ1 (the paper bounds it by 7, the
/// relative tolerance times |θ1| ≤ 6 plus the absolute one) and 3.8–23 for θ̇1 (which
/// reaches 10 rad/s: "up to the order 10^(k+1) are considered very good"). odelab's
/// θ1 errors are 3.4–4.3 × 10ᵏ, inside the paper's bound; its θ̇1 errors are 24–33 ×
/// 10ᵏ, of the order 10^(k+1) the paper accepts but above its Table 6 (the Sources
/// panel lists the difference). Both ratios are pinned to their ranges, so a change of
/// the error control shows here.
#[test]
fn state_space_ros4_meets_the_tolerance_like_tables_4_and_6() {
    let clock = || 0.0;
    let (mut pos_ratio, mut vel_ratio) = (vec![], vec![]);
    for ((k, _, d4, _), (_, _, d6, _)) in TABLE4.into_iter().zip(TABLE6) {
        let tol = 10f64.powi(k);
        let mut s = rsda(tol);
        s.independent = Some(vec!["φ1".into(), "φ2".into()]);
        let c = compare_formulations(&s, &clock).unwrap();
        let ss = &c.rows[1];
        assert_eq!(ss.formulation, "state-space");
        assert!(ss.stopped_by.is_none());
        let (p, v) = (ss.position.max / tol, ss.velocity.max / tol);
        eprintln!(
            "k = {k}: θ1 Δ = {:.3e} (paper {d4:.3e}), Δ/10^k = {p:.2} (paper {:.2}); θ̇1 Δ = {:.3e} (paper {d6:.3e}), Δ/10^k = {v:.2} (paper {:.2}); steps {}",
            ss.position.max,
            d4 / tol,
            ss.velocity.max,
            d6 / tol,
            ss.naccept
        );
        pos_ratio.push(p);
        vel_ratio.push(v);
    }
    for (k, (p, v)) in TABLE4
        .map(|r| r.0)
        .iter()
        .zip(pos_ratio.iter().zip(&vel_ratio))
    {
        assert!(*p <= 7.0 && *p >= 2.0, "k = {k}: θ1 Δ/10^k = {p}");
        assert!(*v < 50.0 && *v >= 10.0, "k = {k}: θ̇1 Δ/10^k = {v}");
    }
}

/// Table 4's RelErr column is Δ⁽ᵏ⁾/E* × 100 with E* the reference θ1 at t* (Negrut et al.
/// 2003 §3.1). Dividing Δ by it gives E* ≈ 43, 44, 39 for k = −2…−4, but θ1 stays
/// between about 3.7 and 6.3 for the whole run; only k = −5's 4.9 is a value θ1 takes.
/// odelab's reference θ1 at the printed t* is 4.14, 4.19, 4.35 for k = −2…−4 and 4.9
/// at k = −5: the first three RelErr entries are 9–10 times too small (a misprint odelab's
/// comparison does not reproduce; the Sources panel lists it). Table 6's RelErr gives
/// |E*| = 2.2, 3.1, 9.4, 9.5 for θ̇1, values θ̇1 does take (−10…7 rad/s); odelab's
/// reference there is 3.2, −4.6, −9.7, −9.3 rad/s.
#[test]
fn table_4_relerr_implies_a_reference_theta1_ten_times_too_large_for_k_above_minus_5() {
    let times: Vec<f64> = TABLE4.iter().map(|r| r.1).collect();
    let mut s = rsda(1e-11);
    s.t_eval = Some(times.clone());
    let sol = odelab::solve(&s).unwrap();
    for (i, (k, t, d, rel)) in TABLE4.into_iter().enumerate() {
        let theta1 = sol.y_eval[i * sol.dim];
        let implied = d / rel * 100.0;
        eprintln!("k = {k}: θ1({t}) = {theta1:.4}; Table 4 implies E* = {implied:.2}");
        if k > -5 {
            let ratio = implied / theta1;
            assert!(implied > 35.0 && ratio > 8.5 && ratio < 11.0, "{ratio}");
        } else {
            assert!((implied - theta1).abs() < 0.1, "{implied} vs {theta1}");
        }
    }
    // Table 6's t* decrease with k; tEval must increase.
    let times6: Vec<f64> = TABLE6.iter().rev().map(|r| r.1).collect();
    s.t_eval = Some(times6);
    let sol = odelab::solve(&s).unwrap();
    for (i, (k, t, d, rel)) in TABLE6.into_iter().enumerate() {
        let rate = sol.y_eval[(3 - i) * sol.dim + 2];
        let implied = d / rel * 100.0;
        eprintln!("k = {k}: θ̇1({t}) = {rate:.4}; Table 6 implies |E*| = {implied:.2}");
        assert!(implied > 1.0 && implied < 10.0);
    }
}

/// "A dominant eigenvalue with a small imaginary part and a real part of the order
/// −10E5" (Negrut et al. 2003 §3.1). odelab's model, with its guessed inertias (the
/// paper prints none; the Sources panel says so), has −1.0e5 at the initial state: of
/// the order 10⁵. The paper's own E notation (k2 = 3.E5) would read "−10E5" as −1e6,
/// which no choice of inertias reaches: from rods (the defaults) to point masses
/// (J → 0) the eigenvalue stays between −1.0e5 and −1.6e5.
#[test]
fn rsda_dominant_eigenvalue_is_of_the_order_minus_1e5() {
    let dominant = |j1: f64, j2: f64| {
        let params = [("J1".to_string(), j1), ("J2".to_string(), j2)].into();
        let (info, model) = odelab::model::build("double-pendulum-rsda", &params).unwrap();
        let ev = model.jacobian(0.0, &info.y0).unwrap().complex_eigenvalues();
        *ev.iter()
            .max_by(|a, b| a.norm().total_cmp(&b.norm()))
            .unwrap()
    };
    let d = dominant(1.0, 0.225);
    let point = dominant(1e-9, 1e-9);
    eprintln!("RSDA dominant eigenvalue {d}; with point masses (J → 0): {point}");
    assert!((d.re / -1.0e5 - 1.0).abs() < 0.02, "{d}");
    assert!(d.im.abs() < 1e-3 * d.re.abs());
    assert!(point.re < d.re && point.re > -1.7e5, "{point}");
}

/// "The relative tolerance is multiplied by a value that for θ1 oscillates between 4.0
/// and 6.0" (Negrut et al. 2003 §3.1, about its Fig. 2). odelab's θ1 spans 3.68 to 6.30:
/// it starts at 2π = 6.28 (the paper's own initial state, θ1 = 0 with body 1
/// horizontal, so the paper's 6.0 is already a rounded reading), overshoots briefly, and
/// its first swing reaches down to 3.68; after t = 0.8 s it stays within 4.25–5.41. The
/// inertias the paper does not print do not explain the gap (point masses, J → 0:
/// 3.71). The Sources panel lists the difference; the scenario's caption says 3.7–6.3.
#[test]
fn rsda_theta1_range_against_the_papers_four_to_six() {
    let range = |j1: f64, j2: f64, from: f64| {
        let mut s = rsda(1e-9);
        s.params = [("J1".to_string(), j1), ("J2".to_string(), j2)].into();
        let sol = odelab::solve(&s).unwrap();
        sol.t
            .iter()
            .zip(sol.y.chunks(4))
            .filter(|(t, _)| **t >= from)
            .fold((f64::MAX, f64::MIN), |(lo, hi), (_, y)| {
                (lo.min(y[0]), hi.max(y[0]))
            })
    };
    let (lo, hi) = range(1.0, 0.225, 0.0);
    let (lo_later, hi_later) = range(1.0, 0.225, 0.8);
    let (lo_point, _) = range(1e-9, 1e-9, 0.0);
    eprintln!(
        "θ1 ∈ [{lo:.3}, {hi:.3}]; after t = 0.8: [{lo_later:.3}, {hi_later:.3}]; point masses: from {lo_point:.3}"
    );
    assert!((lo - 3.68).abs() < 0.01 && (hi - 6.30).abs() < 0.01);
    assert!(hi >= 2.0 * std::f64::consts::PI);
    assert!(lo_later > 4.0 && hi_later < 6.0);
    assert!((lo_point - 3.71).abs() < 0.01);
}

// ---- Gil, Sanfelice & Nikravesh 2013, Figs. 3–5 ----------------------------------------

fn slowfast_map(alpha: f64, beta: f64, grid: &Grid) -> Vec<f64> {
    odelab::stability::stability_map(&StabilitySpec {
        method: "slowfast".into(),
        re: Some(grid.re),
        im: Some(grid.im),
        nx: Some(grid.nx),
        ny: Some(grid.ny),
        alpha: Some(alpha),
        beta: Some(beta),
        tableau: None,
        mode: None,
    })
    .unwrap()
}

/// The smallest s > 0 with ρ(M(−s)) > 1: the slow/fast region's reach along the
/// negative real ξ axis (bisection on the amplification matrix).
fn real_reach(alpha: f64, beta: f64) -> f64 {
    let sf = SlowFast { alpha, beta };
    let stable = |s: f64| sf.spectral_radius(Complex::new(-s, 0.0)) <= 1.0;
    let (mut lo, mut hi) = (1.0, 10.0);
    assert!(stable(lo) && !stable(hi));
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if stable(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// "As the parameter β increases, the region of the absolute stability changes
/// slightly" (Gil, Sanfelice & Nikravesh 2013, Fig. 3). How slightly, in numbers: the
/// slow part is RK4 on (1 − β²)ξ (eq. 53), so the region is RK4's stretched by about
/// 1/(1 − β²): its real-axis reach is −2.785/(1 − β²) to 0.1 % at α = 100, a change of
/// 1 % at β = 0.1 and 10 % at β = 0.3; in the upper half ξ-plane β = 0.1 changes under
/// 3 % of the stable points against β = 0 (RK4's region cut by the left half-plane).
#[test]
fn slowfast_region_changes_only_slightly_with_beta() {
    const RK4_REACH: f64 = 2.785293563405282;
    for beta in [0.0, 0.1, 0.2, 0.3] {
        let reach = real_reach(100.0, beta);
        let stretched = RK4_REACH / (1.0 - beta * beta);
        eprintln!("α 100 β {beta}: real reach {reach:.4}, RK4/(1 − β²) = {stretched:.4}");
        assert!((reach / stretched - 1.0).abs() < 1e-3, "β {beta}: {reach}");
    }
    let grid = Grid::new([-4.0, 1.0], [0.0, 4.0], 251, 201).unwrap();
    for alpha in [10.0, 100.0] {
        let base = slowfast_map(alpha, 0.0, &grid);
        let stable = base.iter().filter(|&&v| v <= 1.0).count();
        for beta in [0.05, 0.1] {
            let other = slowfast_map(alpha, beta, &grid);
            let differ = base
                .iter()
                .zip(&other)
                .filter(|(a, b)| (**a <= 1.0) != (**b <= 1.0))
                .count();
            let frac = differ as f64 / stable as f64;
            eprintln!(
                "α {alpha}: β 0 vs {beta}: {differ} of {stable} stable points differ ({frac:.4})"
            );
            assert!(frac < 0.03, "α {alpha} β {beta}: {frac}");
            assert!(differ > 0, "β must move the region");
        }
    }
}

/// One step of `method` on the slow/fast test equation (Gil, Sanfelice & Nikravesh
/// 2013 eqs. 50, 62: λs = −1 + i, x(0) = z(0) = 1) with α, β; the local error of
/// eq. (61), the larger of l_x and l_z.
fn local_error(method: &str, alpha: f64, beta: f64, h: f64) -> f64 {
    let s = SolveSpec {
        model: "slowfast-linear".into(),
        method: method.into(),
        h: Some(h),
        t1: Some(h),
        params: [("alpha", alpha), ("beta", beta)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        ..SolveSpec::default()
    };
    let sol = odelab::solve(&s).unwrap();
    let exact = sol.exact.as_ref().unwrap();
    let n = sol.y.len();
    let (y, e) = (&sol.y[n - 4..], &exact[n - 4..]);
    let lx = Complex::new(y[0] - e[0], y[1] - e[1]).norm();
    let lz = Complex::new(y[2] - e[2], y[3] - e[3]).norm();
    lx.max(lz)
}

/// "The local error does not depend on the parameter α … The accuracy of RK4 becomes
/// worse as the parameter α increases" (Gil, Sanfelice & Nikravesh 2013, Fig. 4). At
/// h = 1e-3 and β = 0.1, α from 10 to 1000 changes the slow/fast scheme's local error
/// by less than a factor 3 and multiplies RK4's by more than 1e4 (its error is
/// O((hλf)⁵), λf = αλs).
#[test]
fn rk4_local_error_grows_with_alpha_and_the_slowfast_one_does_not() {
    let h = 1e-3;
    let sf: Vec<f64> = [10.0, 100.0, 1000.0]
        .iter()
        .map(|&a| local_error("slowfast", a, 0.1, h))
        .collect();
    let rk: Vec<f64> = [10.0, 100.0, 1000.0]
        .iter()
        .map(|&a| local_error("rk4", a, 0.1, h))
        .collect();
    eprintln!("h = {h}, α = 10, 100, 1000: slowfast {sf:?}, rk4 {rk:?}");
    let spread =
        sf.iter().copied().fold(0.0, f64::max) / sf.iter().copied().fold(f64::MAX, f64::min);
    assert!(spread < 3.0, "{sf:?}");
    assert!(rk[1] > rk[0] && rk[2] > rk[1], "{rk:?}");
    assert!(rk[2] / rk[0] > 1e4, "{rk:?}");
}

// ---- Gil, Sanfelice & Nikravesh, Local Linearization Method, §5, Fig. 7 -----------------

/// "We use the EPUS definition of r, … k = 2 since the order of the LLM is two. The
/// safety factor γ is set to be 0.9. … tol = 0.1 and tol = 0.05 … the smaller step size
/// is taken and the number of steps increases as the more strict tolerance is imposed.
/// The plot of the estimated error confirms that the error is maintained within the
/// specified value" (Gil, Sanfelice & Nikravesh, LLM §5, Fig. 7, on the stiff double
/// pendulum of §2). odelab's llm with the elementary controller per unit step (k = q =
/// 2, γ = 0.9, the defaults with perUnitStep) and tol as an absolute tolerance (rtol
/// 1e-12, as small as the spec allows): every accepted step's r = ‖l‖/h is within the
/// tolerance (0.96 and 0.98 × tol at most), and tol = 0.05 takes more and smaller
/// steps than 0.1 (48 against 33, median h 0.038 against 0.056). The page cannot set
/// the controller yet, so this figure has no scenario.
#[test]
fn llm_per_unit_step_control_keeps_the_estimate_within_tol_like_fig_7() {
    let run = |tol: f64| {
        let s: SolveSpec = serde_json::from_value(serde_json::json!({
            "model": "double-pendulum-stiff",
            "method": "llm",
            "t1": 2.0,
            "rtol": 1e-12,
            "atol": tol,
            "controller": { "kind": "i", "safety": 0.9, "perUnitStep": true },
        }))
        .unwrap();
        odelab::solve(&s).unwrap()
    };
    let mut medians = vec![];
    let mut steps = vec![];
    for tol in [0.1, 0.05] {
        let sol = run(tol);
        assert!(sol.warning.is_none(), "{:?}", sol.warning);
        // r = ‖l‖/h of eq. (39): the recorded estimate is per step, normalised by tol.
        let worst = sol
            .err_est
            .iter()
            .zip(&sol.h)
            .map(|(e, h)| e / h)
            .fold(0.0, f64::max);
        let mut h = sol.h.clone();
        h.sort_by(f64::total_cmp);
        let median = h[h.len() / 2];
        eprintln!(
            "tol {tol}: {} steps ({} rejected), median h {median:.4}, largest accepted r = ‖l‖/h: {worst:.3} × tol",
            sol.stats.naccept, sol.stats.nreject
        );
        assert_eq!(sol.err_est.len(), sol.h.len());
        assert!(worst <= 1.0, "tol {tol}: {worst}");
        medians.push(median);
        steps.push(sol.stats.naccept);
    }
    assert!(steps[1] > steps[0], "{steps:?}");
    assert!(medians[1] < medians[0], "{medians:?}");
}
