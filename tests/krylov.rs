//! The LLM on big systems: Krylov φ-functions (`odelab::phi::krylov`) against the dense
//! ones, the 2,000-state heat equation against its eigen-expansion, and the observed
//! order on a nonlinear system above the dense limit.

mod common;
use common::*;
use nalgebra::DMatrix;
use odelab::phi::krylov::KrylovPhi;
use odelab::phi::PhiFunctions;
use odelab::spec::{SolveSpec, Tol};
use odelab::stats::Stats;

/// A fixed pseudo-random sequence on [0, 1).
fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ seed;
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Test matrices of size n: a stiff 1-D diffusion (eigenvalues to −4·10⁴), an
/// oscillatory chain of springs ([[0, I], [−K, −cI]], frequencies to ~200), and a
/// random sparse nonsymmetric one with a stiff diagonal.
fn matrices(n: usize, next: &mut impl FnMut() -> f64) -> Vec<(&'static str, DMatrix<f64>)> {
    let d = 1e4;
    let diffusion = DMatrix::from_fn(n, n, |r, c| match r.abs_diff(c) {
        0 => -2.0 * d,
        1 => d,
        _ => 0.0,
    });
    let m = n / 2;
    let springs = DMatrix::from_fn(n, n, |r, c| {
        if r < m {
            if c == r + m {
                1.0
            } else {
                0.0
            }
        } else if c < m {
            let (i, j) = (r - m, c);
            match i.abs_diff(j) {
                0 => -2e4,
                1 => 1e4,
                _ => 0.0,
            }
        } else if c == r {
            -0.5
        } else {
            0.0
        }
    });
    let random = DMatrix::from_fn(n, n, |r, c| {
        if r == c {
            -1e3 * next() - 1.0
        } else if next() < 0.08 {
            100.0 * (next() - 0.5)
        } else {
            0.0
        }
    });
    vec![
        ("diffusion", diffusion),
        ("springs", springs),
        ("random", random),
    ]
}

/// Σ_k τ^k φ_k(τA) w_k by the dense φ-functions.
fn dense(a: &DMatrix<f64>, tau: f64, w: &[Vec<f64>]) -> Vec<f64> {
    let n = a.nrows();
    let mut phi = PhiFunctions::new(n);
    phi.compute(a, tau, 3, 0.0, tau, &mut Stats::default())
        .unwrap();
    let mut out = vec![0.0; n];
    let mut part = vec![0.0; n];
    for (k, wk) in w.iter().enumerate() {
        let k = k + 1;
        phi.apply(k, odelab::math::powi(tau, k as i32), wk, &mut part);
        for (o, p) in out.iter_mut().zip(&part) {
            *o += p;
        }
    }
    out
}

fn krylov(
    a: &DMatrix<f64>,
    tau: f64,
    w: &[Vec<f64>],
    tol: f64,
) -> (Vec<f64>, odelab::phi::krylov::KrylovReport) {
    let n = a.nrows();
    let mut k = KrylovPhi::new(n);
    let mut out = vec![0.0; n];
    let mut matvec = |x: &[f64], y: &mut [f64]| {
        for (j, &xj) in x.iter().enumerate() {
            for (i, yi) in y.iter_mut().enumerate() {
                *yi += a[(i, j)] * xj;
            }
        }
    };
    let ws: Vec<&[f64]> = w.iter().map(|v| v.as_slice()).collect();
    let mut stats = Stats::default();
    k.combination(&mut matvec, tau, &ws, &mut out, tol, 0.0, tau, &mut stats)
        .unwrap();
    assert_eq!(stats.nexpm, 1);
    (out, k.report)
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// On moderate systems (n = 60 and 120) the Krylov combination equals the dense
/// φ-functions to 1e-10 relative to the result, for p = 1, 2, 3, over step sizes from
/// non-stiff to ‖τA‖ ≈ 4·10³ (many sub-steps at the largest basis).
#[test]
fn krylov_phi_combinations_equal_the_dense_phi_functions_to_1e_10() {
    let mut next = uniform(7);
    let mut worst: f64 = 0.0;
    for n in [60, 120] {
        for (name, a) in matrices(n, &mut next) {
            for tau in [1e-5, 1e-3, 0.05] {
                for p in 1..=3 {
                    let w: Vec<Vec<f64>> = (0..p)
                        .map(|_| (0..n).map(|_| next() - 0.3).collect())
                        .collect();
                    let exact = dense(&a, tau, &w);
                    let scale = norm(&exact);
                    let (got, report) = krylov(&a, tau, &w, 1e-13 * scale);
                    let diff: Vec<f64> = got.iter().zip(&exact).map(|(g, e)| g - e).collect();
                    let rel = norm(&diff) / scale;
                    worst = worst.max(rel);
                    assert!(
                        rel <= 1e-10,
                        "{name}, n = {n}, τ = {tau}, p = {p}: relative error {rel:e}, {report:?}"
                    );
                }
            }
        }
    }
    eprintln!("Krylov against dense φ: worst relative 2-norm difference {worst:e}");
}

/// An invariant subspace ends the Arnoldi process early: for an eigenvector w of A
/// the space is spanned by e_p and w, so the first checkpoint (four vectors) already
/// meets the tolerance in one sub-step, and the result is exact.
#[test]
fn krylov_phi_stops_at_an_invariant_subspace() {
    let n = 100;
    let a = DMatrix::from_fn(n, n, |r, c| match r.abs_diff(c) {
        0 => -2.0,
        1 => 1.0,
        _ => 0.0,
    });
    let m = (n + 1) as f64;
    let pi = std::f64::consts::PI;
    let w: Vec<f64> = (1..=n)
        .map(|i| odelab::math::sin(pi * i as f64 / m))
        .collect();
    let lambda = -4.0 * odelab::math::powi(odelab::math::sin(pi / (2.0 * m)), 2);
    let tau = 3.0;
    let (got, report) = krylov(&a, tau, std::slice::from_ref(&w), 1e-14);
    assert!(report.matvecs <= 4 && report.substeps == 1, "{report:?}");
    let phi1 = odelab::math::exp_m1(lambda * tau) / (lambda * tau);
    for (g, wi) in got.iter().zip(&w) {
        assert!(
            (g - tau * phi1 * wi).abs() < 1e-13,
            "{g} vs {}",
            tau * phi1 * wi
        );
    }
}

/// The heat equation by the method of lines, N cells, from `init` (a text in x = i/(N+1)).
fn heat(n: usize, init: &str, t1: f64) -> SolveSpec {
    let text = format!(
        "param N = {n}, D = 1
u[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = {init}   for i = 1..N"
    );
    SolveSpec {
        system: Some(text),
        rtol: Some(Tol::Scalar(1e-8)),
        atol: Some(Tol::Scalar(1e-10)),
        ..spec("", "llm", 1e-4, t1)
    }
}

/// λ_k = −4(N+1)² sin²(kπ/(2(N+1))), the k-th eigenvalue of the semi-discrete
/// Laplacian (eigenvector sin(kπi/(N+1))).
fn lambda(n: usize, k: usize) -> f64 {
    let m = (n + 1) as f64;
    let s = odelab::math::sin(k as f64 * std::f64::consts::PI / (2.0 * m));
    -4.0 * m * m * s * s
}

/// The exact semi-discrete solution Σ_k c_k e^{λ_k t} sin(kπi/(N+1)) for the given
/// (k, c_k).
fn modes(n: usize, t: f64, coef: &[(usize, f64)]) -> Vec<f64> {
    let m = (n + 1) as f64;
    let pi = std::f64::consts::PI;
    let mut u = vec![0.0; n];
    for &(k, c) in coef {
        let decay = c * odelab::math::exp(lambda(n, k) * t);
        if decay == 0.0 {
            continue;
        }
        for (i, ui) in u.iter_mut().enumerate() {
            *ui += decay * odelab::math::sin(k as f64 * pi * (i + 1) as f64 / m);
        }
    }
    u
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// `llm` runs the 2,000-state heat equation (above the dense limit: Krylov φ-functions
/// of the sparse Jacobian) from three modes, k = 1, 7 and 40 (λ₄₀ ≈ −1.6·10⁴), to
/// t = 0.003 and agrees with the exact semi-discrete solution to 1e-10. The system is
/// linear, so the LLM is exact but for the Krylov tolerance and round-off: its error
/// estimate is round-off and the steps grow geometrically (1e-4, 1e-3, then the rest).
/// The end time is short because a Krylov sub-step here is ≈ 5·10⁻⁵ (`phi::krylov`,
/// its limitation on stiff parabolic problems).
#[test]
fn llm_on_the_2000_state_heat_equation_matches_the_exact_modes() {
    let n = 2000;
    let init = "sin(pi*i/(N+1)) + sin(7*pi*i/(N+1))/2 + sin(40*pi*i/(N+1))/4";
    let sol = odelab::solve(&heat(n, init, 0.003)).unwrap();
    let exact = modes(n, 0.003, &[(1, 1.0), (7, 0.5), (40, 0.25)]);
    let err = max_diff(last(&sol), &exact);
    eprintln!(
        "llm heat N = 2000, three modes: max error {err:e}, {:?}",
        sol.stats
    );
    assert!(err < 1e-10, "max error {err:e}");
    assert!(sol.stats.naccept <= 10, "{:?}", sol.stats);
}

/// From u(0) = 1 every mode is excited (the data jump to the boundary values), and
/// f = Ju keeps stiff components at the boundary: the Krylov sub-steps are then held
/// to σ ≈ j²/ρ(J) by the polynomial approximation. N = 400 (ρ ≈ 6.4·10⁵) to t = 0.01,
/// against the eigen-expansion c_k = 2/(N+1) Σ_i sin(kπi/(N+1)).
#[test]
fn llm_on_the_heat_equation_with_every_mode_excited_matches_its_eigen_expansion() {
    let n = 400;
    let m = (n + 1) as f64;
    let pi = std::f64::consts::PI;
    let coef: Vec<(usize, f64)> = (1..=n)
        .map(|k| {
            let c: f64 = (1..=n)
                .map(|i| odelab::math::sin(k as f64 * pi * i as f64 / m))
                .sum();
            (k, 2.0 * c / m)
        })
        .collect();
    let sol = odelab::solve(&heat(n, "1", 0.01)).unwrap();
    let err = max_diff(last(&sol), &modes(n, 0.01, &coef));
    eprintln!(
        "llm heat N = 400 from u = 1: max error {err:e}, {:?}",
        sol.stats
    );
    assert!(err < 1e-9, "max error {err:e}");
}

/// The 1-D Brusselator (Hairer–Wanner II §IV.1, eq. 1.6') with N = 40 cells: 80
/// states, above the dense limit, nonlinear. On a fixed grid (h = 0.04 … 0.01) the
/// Krylov path keeps the LLM's order 2 (slope within 0.15), against radau5 at rtol 1e-12.
#[test]
fn llm_on_the_krylov_path_keeps_order_two() {
    let text = "param N = 40, A = 1, B = 3, alpha = 0.02
u[i]' = A + u[i]^2*v[i] - (B+1)*u[i] + alpha*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])  for i = 1..N
v[i]' = B*u[i] - u[i]^2*v[i] + alpha*(N+1)^2*(v[i-1] - 2*v[i] + v[i+1])          for i = 1..N
u[0] = 1
u[N+1] = 1
v[0] = 3
v[N+1] = 3
u[i](0) = 1 + sin(2*pi*i/(N+1))   for i = 1..N
v[i](0) = 3                        for i = 1..N";
    let with = |method: &str, h: f64, adaptive: bool| SolveSpec {
        system: Some(text.into()),
        adaptive: Some(adaptive),
        rtol: Some(Tol::Scalar(1e-12)),
        atol: Some(Tol::Scalar(1e-14)),
        ..spec("", method, h, 1.0)
    };
    let reference = odelab::solve(&with("radau5", 1e-3, true)).unwrap();
    let exact = last(&reference).to_vec();
    let hs = [0.04, 0.02, 0.01];
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            max_diff(
                last(&odelab::solve(&with("llm", h, false)).unwrap()),
                &exact,
            )
        })
        .collect();
    let slope = loglog_slope(&hs, &errs);
    eprintln!("llm Krylov path, Brusselator N = 40: errors {errs:?}, slope {slope}");
    assert!((slope - 2.0).abs() < 0.15, "slope {slope}, errors {errs:?}");
}
