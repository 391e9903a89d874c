//! The slow/fast amplification matrix M(ξ; α, β) against one numerical step of seed
//! 003's scheme, eqs. (43)–(47) with the Sources panel's errata's corrections, applied to the linear
//! test equation eq. (50); and the Fig. 2–3 behaviour of its region.
//!
//! The step is written here from the equations (the method has its own tests), with
//! the block exponentials e^{Dh} of eqs. (34)/(44) and (47) computed by a plain
//! scaling-and-squaring Taylor series, independent of the closed forms in
//! `src/stability/slowfast.rs`.

use nalgebra::Complex;
use odelab::stability::slowfast::SlowFast;
use odelab::stability::{Amplification, Grid, StabilitySpec};

type C = Complex<f64>;

fn c(re: f64) -> C {
    C::new(re, 0.0)
}

/// e^M for a 3 × 3 complex matrix: scaling and squaring with a 30-term Taylor series.
fn expm3(m: [[C; 3]; 3]) -> [[C; 3]; 3] {
    let norm = m
        .iter()
        .map(|r| r.iter().map(|x| x.norm()).sum::<f64>())
        .fold(0.0, f64::max);
    let mut s = 0;
    while norm / 2f64.powi(s) > 0.25 {
        s += 1;
    }
    let scale = 2f64.powi(-s);
    let a: Vec<Vec<C>> = m
        .iter()
        .map(|r| r.iter().map(|x| x * scale).collect())
        .collect();
    let mul = |x: &[[C; 3]; 3], y: &[[C; 3]; 3]| {
        let mut out = [[c(0.0); 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                for k in 0..3 {
                    out[i][j] += x[i][k] * y[k][j];
                }
            }
        }
        out
    };
    let mut term = [[c(0.0); 3]; 3];
    let mut sum = [[c(0.0); 3]; 3];
    for i in 0..3 {
        term[i][i] = c(1.0);
        sum[i][i] = c(1.0);
    }
    let mut am = [[c(0.0); 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            am[i][j] = a[i][j];
        }
    }
    for k in 1..30 {
        term = mul(&term, &am);
        for row in term.iter_mut() {
            for x in row.iter_mut() {
                *x /= k as f64;
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                sum[i][j] += term[i][j];
            }
        }
    }
    for _ in 0..s {
        sum = mul(&sum, &sum);
    }
    sum
}

/// One step of Gil, Sanfelice & Nikravesh 2013 eqs. (43)–(47) on eq. (50) from (x_n, z_n), with λs, α, β, h.
fn scheme_step(xn: C, zn: C, lambda_s: C, alpha: f64, beta: f64, h: f64) -> (C, C) {
    // eq. (51): λf = αλs, μ = βλs, δ = βλf.
    let lf = lambda_s * alpha;
    let mu = lambda_s * beta;
    let delta = lf * beta;
    let f = |x: C, z: C| lambda_s * x + mu * z;
    let g = |x: C, z: C| delta * x + lf * z;
    let (gx, gz, fz) = (delta, lf, mu);
    // Step 1, eq. (43): γ, σ, F2, J1 from e^{Dh} of eq. (34)/(44).
    let gamma = gx * f(xn, zn) / gz;
    let sigma = g(xn, zn) / gz;
    let z0 = c(0.0);
    let d1 = [[z0, c(1.0), z0], [z0, gz, gamma], [z0, z0, z0]];
    let e1 = expm3(d1.map(|r| r.map(|x| x * h)));
    let (f2, j1) = (e1[1][1], e1[0][2]);
    let int_y = (f2 - 1.0) * sigma / gz + j1;
    // Step 2, eq. (45) with H in terms of z_n (the Sources panel's errata), RK4 for x̂.
    let hman = |x: C| zn - (gx * (x - xn) + g(xn, zn)) / gz;
    let fs = |x: C| f(x, hman(x));
    let k1 = fs(xn);
    let k2 = fs(xn + k1 * (h / 2.0));
    let k3 = fs(xn + k2 * (h / 2.0));
    let k4 = fs(xn + k3 * h);
    let xhat = xn + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
    let x1 = xhat + fz * int_y;
    // Step 3, eqs. (46)–(47) with D = [[A, C, B], [0, 0, 1], [0, 0, 0]] (the Sources panel's errata).
    let a = gz + gx * fz / gz;
    let b = a * sigma + gx * fs(xn) / gz;
    let cc = gx * (fs(x1) - fs(xn)) / (gz * h);
    let d2 = [[a, cc, b], [z0, z0, c(1.0)], [z0, z0, z0]];
    let phi = expm3(d2.map(|r| r.map(|x| x * h)))[0][2];
    let z1 = hman(x1) + sigma + phi;
    (x1, z1)
}

#[test]
fn slowfast_matrix_matches_one_numerical_step_of_the_scheme() {
    let mut worst = 0.0f64;
    for &(alpha, beta) in &[
        (10.0, 0.1),
        (100.0, 0.3),
        (2.0, 0.9),
        (50.0, 0.0),
        (5.0, -0.4),
    ] {
        for &(lre, lim) in &[(-1.0, 1.0), (-1.0, 0.0), (0.0, 1.0), (-3.0, -0.5)] {
            for &h in &[0.01, 0.05, 0.2] {
                let ls = C::new(lre, lim);
                let xi = ls * h;
                let m = SlowFast { alpha, beta }.matrix(xi);
                for (x0, z0) in [
                    (c(1.0), c(0.0)),
                    (c(0.0), c(1.0)),
                    (C::new(0.3, -0.7), c(1.0)),
                ] {
                    let (x1, z1) = scheme_step(x0, z0, ls, alpha, beta, h);
                    let px = m[0][0] * x0 + m[0][1] * z0;
                    let pz = m[1][0] * x0 + m[1][1] * z0;
                    let scale = x1.norm().max(z1.norm()).max(1.0);
                    let err = ((px - x1).norm().max((pz - z1).norm())) / scale;
                    worst = worst.max(err);
                    assert!(
                        err < 1e-12,
                        "α {alpha} β {beta} λs {ls} h {h}: M·y = ({px}, {pz}), step = ({x1}, {z1})"
                    );
                }
            }
        }
    }
    println!("slow/fast M vs one step of 003 (43)–(47): worst relative difference {worst:e}");
}

#[test]
fn printed_eq_57_is_not_the_scheme() {
    // Gil, Sanfelice & Nikravesh 2013 eq. (57)'s M21 = −βM11 + βe^{αξ} + (β/α)(e^{αξ} − 1) differs from the step.
    let (alpha, beta, ls, h) = (10.0, 0.3, C::new(-1.0, 1.0), 0.1);
    let xi = ls * h;
    let m = SlowFast { alpha, beta }.matrix(xi);
    let ea = (xi * alpha).exp();
    let m21_57 = -m[0][0] * beta + ea * beta + (ea - 1.0) * (beta / alpha);
    let (_, z1) = scheme_step(c(1.0), c(0.0), ls, alpha, beta, h);
    assert!((z1 - m[1][0]).norm() < 1e-12);
    assert!((z1 - m21_57).norm() > 1e-4, "{z1} vs eq. 57 {m21_57}");
}

fn map(method: &str, alpha: Option<f64>, beta: Option<f64>, grid: &Grid) -> Vec<f64> {
    odelab::stability::stability_map(&StabilitySpec {
        method: method.into(),
        re: Some(grid.re),
        im: Some(grid.im),
        nx: Some(grid.nx),
        ny: Some(grid.ny),
        alpha,
        beta,
        tableau: None,
        mode: None,
    })
    .unwrap()
}

#[test]
fn with_beta_zero_the_region_is_rk4_intersected_with_the_left_half_plane() {
    let grid = Grid::new([-4.0, 1.0], [-4.0, 4.0], 201, 161).unwrap();
    let rk4 = map("rk4", None, None, &grid);
    for alpha in [1.0, 10.0, 100.0] {
        let sf = map("slowfast", Some(alpha), Some(0.0), &grid);
        let mut compared = 0;
        for iy in 0..grid.ny {
            for ix in 0..grid.nx {
                let k = iy * grid.nx + ix;
                let x = grid.x(ix);
                // Away from the boundaries |R| = 1 and Re ξ = 0.
                if (rk4[k] - 1.0).abs() < 1e-3 || x.abs() < 1e-9 {
                    continue;
                }
                let want = rk4[k] <= 1.0 && x < 0.0;
                assert_eq!(sf[k] <= 1.0, want, "α {alpha} at ({x}, {})", grid.y(iy));
                compared += 1;
            }
        }
        assert!(compared > 30000);
    }
}

#[test]
fn slowfast_region_barely_changes_with_alpha() {
    let grid = Grid::new([-4.0, 1.0], [0.0, 4.0], 251, 201).unwrap();
    let base = map("slowfast", Some(10.0), Some(0.1), &grid);
    let stable_base = base.iter().filter(|&&v| v <= 1.0).count();
    for alpha in [1.0, 100.0, 1000.0] {
        let other = map("slowfast", Some(alpha), Some(0.1), &grid);
        let differ = base
            .iter()
            .zip(&other)
            .filter(|(a, b)| (**a <= 1.0) != (**b <= 1.0))
            .count();
        let frac = differ as f64 / stable_base as f64;
        println!("α 10 vs {alpha}: {differ} of {stable_base} stable points differ ({frac:.4})");
        assert!(frac < 0.05, "α = {alpha}: {frac}");
    }
    // And the map does depend on α and β (the sliders must move it).
    let other = map("slowfast", Some(11.0), Some(0.1), &grid);
    assert!(base.iter().zip(&other).any(|(a, b)| a != b));
}

#[test]
fn slowfast_is_finite_at_the_removable_points() {
    // α = 0, κ = α + β² = 0 and ξ = 0 are 0/0 in the printed eqs. (55)–(56).
    for (alpha, beta) in [(0.0, 0.5), (-0.25, 0.5), (10.0, 0.1)] {
        let amp = Amplification::SlowFast(SlowFast { alpha, beta });
        for xi in [C::new(0.0, 0.0), C::new(1e-9, 0.0), C::new(-0.5, 0.5)] {
            let v = amp.value(xi);
            assert!(v.is_finite(), "α {alpha} β {beta} ξ {xi}: {v}");
        }
        assert!((amp.value(C::new(0.0, 0.0)) - 1.0).abs() < 1e-14);
    }
}

#[test]
fn trace_determinant_form_equals_the_matrix_spectral_radius() {
    use odelab::stability::slowfast::spectral_radius;
    for (alpha, beta) in [(10.0, 0.1), (100.0, 0.5), (3.0, 1.2), (0.0, 0.3)] {
        let sf = SlowFast { alpha, beta };
        for xi in [
            C::new(-0.5, 0.7),
            C::new(-2.7, 0.1),
            C::new(0.2, 2.0),
            C::new(-0.01, 0.003),
        ] {
            let a = sf.spectral_radius(xi);
            let b = spectral_radius(sf.matrix(xi));
            assert!(
                (a - b).abs() < 1e-12 * b.max(1.0),
                "α {alpha} β {beta} ξ {xi}: {a} vs {b}"
            );
        }
    }
}

/// `Prepared::row` computes two points per f64x2 in blocks, and the row's odd point
/// alone; each point must get the bits it gets in a row of its own (the one-lane path),
/// whatever its place in the row: IEEE add, sub, mul, div and sqrt are correctly rounded
/// lane by lane. The rows are 131 points (65 pairs crossing a 64-pair block, and one
/// left over) and carry the special cases: an infinite or NaN column factor (ρ = ∞), a
/// point with d = h² − det M = 0 exactly (√d from the r = 0 branch), and points with
/// Re d of both signs (the two branches of √d).
#[test]
fn row_in_lanes_gives_each_point_the_bits_of_a_row_of_its_own() {
    const N: usize = 131;
    let xs: Vec<f64> = (0..N)
        .map(|i| -4.0 + 5.5 * i as f64 / (N - 1) as f64)
        .collect();
    for (alpha, beta, ys) in [
        (100.0, 0.5, [0.5, 3.0, 7.5]),
        (30.0, 0.3, [-1.1, 0.013, 2.9]),
        (-4.0, 1.5, [-1.0, 0.25, 0.5]),
        (2.0, 0.0, [0.0, 0.7, 2.0]),
    ] {
        let sf = SlowFast { alpha, beta };
        let p = sf.prepared();
        let mut e_alpha: Vec<f64> = xs.iter().map(|&x| odelab::math::exp(alpha * x)).collect();
        let mut e_kappa: Vec<f64> = xs
            .iter()
            .map(|&x| odelab::math::exp(sf.kappa() * x))
            .collect();
        // Overflowed and NaN factors: in a pair, in a pair's other lane, in the odd point.
        e_alpha[10] = f64::INFINITY;
        e_kappa[21] = f64::NAN;
        e_alpha[N - 1] = f64::INFINITY;
        // β = 0 and y = 0: M = diag(R(ξ), E), so E = R(x) (Horner as in the row) is a
        // double eigenvalue, d = 0 exactly, and ρ = |R(x)|.
        let at = 40;
        let (mut re_d_negative, mut re_d_positive) = (0, 0);
        for &y in &ys {
            let double_root = beta == 0.0 && y == 0.0;
            let mut ek = e_kappa.clone();
            if double_root {
                let x = xs[at];
                ek[at] = (((1.0 / 24.0 * x + 1.0 / 6.0) * x + 0.5) * x + 1.0) * x + 1.0;
            }
            let mut row = vec![0.0; N];
            p.row(y, &xs, &e_alpha, &ek, &mut row);
            for i in 0..N {
                let mut one = [0.0];
                let r = i..i + 1;
                p.row(y, &xs[r.clone()], &e_alpha[r.clone()], &ek[r], &mut one);
                assert_eq!(
                    row[i].to_bits(),
                    one[0].to_bits(),
                    "α {alpha} β {beta} y {y} x {}: {} in the row, {} alone",
                    xs[i],
                    row[i],
                    one[0]
                );
                let m = sf.matrix(C::new(xs[i], y));
                let h = (m[0][0] + m[1][1]) * 0.5;
                let d = h * h - (m[0][0] * m[1][1] - m[0][1] * m[1][0]);
                if d.re < 0.0 {
                    re_d_negative += 1;
                } else {
                    re_d_positive += 1;
                }
            }
            for i in [10, 21, N - 1] {
                assert_eq!(
                    row[i],
                    f64::INFINITY,
                    "α {alpha} β {beta} y {y} x {}",
                    xs[i]
                );
            }
            if double_root {
                assert_eq!(row[at], ek[at].abs(), "the double eigenvalue E = R(x)");
            }
        }
        assert!(
            re_d_negative > 0 && re_d_positive > 0,
            "α {alpha} β {beta}: Re d < 0 at {re_d_negative}, ≥ 0 at {re_d_positive} points"
        );
    }
}

/// With β = 0, M(ξ) = [[R(ξ), 0], [0·…, e^{αξ}]] (M12 = 0): on the imaginary axis its
/// eigenvalues are RK4's R(iy), |R| ≤ 1 up to 2√2, and e^{iαy}, of modulus 1. So the axis
/// up to 2√2 is the region's edge, ρ = 1 to rounding, whatever α; the facts' imaginary
/// extent is RK4's 2√2. The two eigenvalues come close where R(iy) ≈ e^{iαy} (y = 2πk/(α − 1)
/// near 0): computed as tr/2 ± √(tr²/4 − det), the discriminant cancels there and ρ came
/// out 1 + 1e-13, which the facts read as the end of the stable axis (0.825 at α = 100,
/// 0.239 at α = 1000).
#[test]
fn with_beta_zero_the_imaginary_axis_is_the_edge_for_every_alpha() {
    let rk4_extent = 2.0 * 2f64.sqrt();
    for alpha in [10.0, 100.0, 1000.0] {
        let sf = SlowFast { alpha, beta: 0.0 };
        let amp = Amplification::SlowFast(sf);
        let p = sf.prepared();
        // One map row per y with x = 0 among its points (and a few beside it).
        let xs = [-0.2, -1e-3, 0.0, 1e-3, 0.2];
        let e: Vec<f64> = xs.iter().map(|&x| odelab::math::exp(alpha * x)).collect();
        for k in 1..2800 {
            let y = k as f64 * 1e-3;
            let v = amp.value(C::new(0.0, y));
            assert!((v - 1.0).abs() <= 1e-14, "α {alpha}: ρ({y}i) = {v}");
            let mut row = [0.0; 5];
            p.row(y, &xs, &e, &e, &mut row);
            assert!(
                (row[2] - 1.0).abs() <= 1e-14,
                "α {alpha}: map ρ({y}i) = {}",
                row[2]
            );
        }
        let facts = odelab::stability::stability_facts(&StabilitySpec {
            method: "slowfast".into(),
            alpha: Some(alpha),
            beta: Some(0.0),
            ..Default::default()
        })
        .unwrap();
        let extent = facts.imag_extent.expect("a stable stretch of the axis");
        assert!(
            (extent - rk4_extent).abs() < 1e-9,
            "α {alpha}: extent {extent}"
        );
    }
}
