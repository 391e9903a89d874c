//! Banded and sparse factorisations of big systems' step matrices: the band found on
//! known patterns (in their own numbering and after reverse Cuthill–McKee), the band
//! LU against nalgebra's dense LU, one symbolic analysis per pattern, and radau5 on
//! the band path step for step against radau5 on the dense one.

use nalgebra::{Complex, DMatrix, DVector};
use odelab::expr::UserSystem;
use odelab::linalg::band::{bandwidths, reverse_cuthill_mckee, BandLu};
use odelab::linear_solver::structured::{analyses, Layout, Plan};
use odelab::linear_solver::{Jacobian, SparseJacobian, StepMatrix};
use odelab::method::create;
use odelab::problem::System;
use odelab::stats::Stats;
use std::collections::BTreeMap;

/// Deterministic entries in [−1, 1) (a linear congruential generator).
fn entries(seed: u64, count: usize) -> Vec<f64> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005) ^ 0x9e37_79b9_7f4a_7c15;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

/// A sparse matrix from its dense form (entries ≠ 0 stored).
fn sparse_of(m: &DMatrix<f64>) -> SparseJacobian {
    let n = m.nrows();
    let (mut col_start, mut rows, mut values) = (vec![0], Vec::new(), Vec::new());
    for j in 0..n {
        for i in 0..n {
            if m[(i, j)] != 0.0 {
                rows.push(i);
                values.push(m[(i, j)]);
            }
        }
        col_start.push(rows.len());
    }
    SparseJacobian {
        n,
        col_start,
        rows,
        values,
    }
}

/// A random matrix with entries only within (kl, ku) of the diagonal.
fn band_matrix(n: usize, kl: usize, ku: usize, seed: u64) -> DMatrix<f64> {
    let e = entries(seed, n * n);
    DMatrix::from_fn(n, n, |i, j| {
        if i <= j + kl && j <= i + ku {
            e[i * n + j] * 3.0
        } else {
            0.0
        }
    })
}

/// The same matrix with rows and columns renumbered: old index k becomes `p[k]`.
fn permuted(m: &DMatrix<f64>, p: &[usize]) -> DMatrix<f64> {
    let n = m.nrows();
    let mut out = DMatrix::zeros(n, n);
    for j in 0..n {
        for i in 0..n {
            out[(p[i], p[j])] = m[(i, j)];
        }
    }
    out
}

/// A fixed shuffle of 0..n.
fn shuffle(n: usize, seed: u64) -> Vec<usize> {
    let keys = entries(seed, n);
    let mut p: Vec<usize> = (0..n).collect();
    p.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
    p
}

#[test]
fn a_tridiagonal_pattern_is_factored_as_a_band_in_its_own_numbering() {
    let j = sparse_of(&band_matrix(100, 1, 1, 1));
    assert_eq!(bandwidths(&j.col_start, &j.rows, None), (1, 1));
    match Plan::for_pattern(&j).expect("a plan").layout() {
        Layout::Band { kl, ku, order } => {
            assert_eq!((*kl, *ku), (1, 1));
            assert!(order.is_none());
        }
        Layout::General { .. } => panic!("a tridiagonal matrix is a band"),
    }
}

#[test]
fn a_shuffled_band_is_found_again_after_reverse_cuthill_mckee() {
    let n = 300;
    let band = band_matrix(n, 2, 2, 2);
    let p = shuffle(n, 3);
    let j = sparse_of(&permuted(&band, &p));
    // Shuffled, the band spreads over the whole matrix.
    let (kl, ku) = bandwidths(&j.col_start, &j.rows, None);
    assert!(kl > n / 2 && ku > n / 2, "({kl}, {ku})");
    let order = reverse_cuthill_mckee(n, &j.col_start, &j.rows);
    let mut new_of = vec![0; n];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = new;
    }
    let (kl, ku) = bandwidths(&j.col_start, &j.rows, Some(&new_of));
    // A pentadiagonal pattern's profile: RCM gets back a band of width ≤ 2·2 each way.
    assert!(kl <= 4 && ku <= 4, "({kl}, {ku})");
    match Plan::for_pattern(&j).expect("a plan").layout() {
        Layout::Band { order, .. } => assert!(order.is_some()),
        Layout::General { .. } => panic!("a shuffled band is a band after RCM"),
    }
    // And the factorisation on that ordering solves the shuffled system.
    let b = DVector::from_vec(entries(4, n));
    let mut stats = Stats::default();
    let sparse = Jacobian::Sparse(j.clone());
    let dense = Jacobian::Dense(j.to_dense());
    let (mut xs, mut xd) = (b.clone(), b.clone());
    StepMatrix::new(&sparse, 1.0, 0.3, "test", 0.0, 0.1, &mut stats)
        .unwrap()
        .solve_in_place(&mut xs)
        .unwrap();
    StepMatrix::new(&dense, 1.0, 0.3, "test", 0.0, 0.1, &mut stats)
        .unwrap()
        .solve_in_place(&mut xd)
        .unwrap();
    assert!(
        (&xs - &xd).amax() < 1e-12 * xd.amax(),
        "{}",
        (&xs - &xd).amax()
    );
}

#[test]
fn a_two_dimensional_grid_goes_to_the_general_sparse_lu() {
    // The 5-point Laplacian on a 20 × 20 grid: its band (width 20) is too wide to pay.
    let m = 20;
    let n = m * m;
    let mut dense = DMatrix::zeros(n, n);
    for r in 0..m {
        for c in 0..m {
            let k = r * m + c;
            dense[(k, k)] = -4.0;
            for (rr, cc) in [(r + 1, c), (r, c + 1)] {
                if rr < m && cc < m {
                    let l = rr * m + cc;
                    dense[(k, l)] = 1.0;
                    dense[(l, k)] = 1.0;
                }
            }
        }
    }
    let j = sparse_of(&dense);
    assert!(matches!(
        Plan::for_pattern(&j).unwrap().layout(),
        Layout::General { .. }
    ));
    let b = DVector::from_vec(entries(5, n));
    let mut stats = Stats::default();
    let (mut xs, mut xd) = (b.clone(), b.clone());
    StepMatrix::new(&Jacobian::Sparse(j), 1.0, 0.01, "t", 0.0, 0.1, &mut stats)
        .unwrap()
        .solve_in_place(&mut xs)
        .unwrap();
    StepMatrix::new(
        &Jacobian::Dense(dense),
        1.0,
        0.01,
        "t",
        0.0,
        0.1,
        &mut stats,
    )
    .unwrap()
    .solve_in_place(&mut xd)
    .unwrap();
    assert!((&xs - &xd).amax() < 1e-12 * xd.amax());
}

#[test]
fn band_lu_solves_as_the_dense_lu_to_rounding_real_and_complex() {
    for (n, kl, ku) in [(1, 0, 0), (7, 1, 1), (40, 3, 1), (40, 0, 4), (60, 5, 5)] {
        for seed in 0..4 {
            // Small diagonal: row interchanges happen.
            let m = band_matrix(n, kl, ku, seed);
            let mut lu = BandLu::<f64>::new(n, kl, ku);
            let mut cm = BandLu::<Complex<f64>>::new(n, kl, ku);
            let shift = Complex::new(0.2, 0.7);
            for j in 0..n {
                for i in 0..n {
                    if let Some(at) = lu.position(i, j) {
                        lu.entries_mut()[at] = m[(i, j)];
                        let s = if i == j {
                            shift
                        } else {
                            Complex::new(0.0, 0.0)
                        };
                        cm.entries_mut()[at] = s - Complex::new(m[(i, j)], 0.0);
                    }
                }
            }
            assert!(lu.factor(), "n = {n}, seed {seed}");
            assert!(cm.factor());
            let b = entries(seed + 10, n);
            let mut x = b.clone();
            lu.solve(&mut x);
            let want = m.clone().lu().solve(&DVector::from_vec(b.clone())).unwrap();
            let scale = want.amax().max(1.0);
            for (got, want) in x.iter().zip(want.iter()) {
                assert!((got - want).abs() <= 1e-12 * scale, "{got} vs {want}");
            }
            let mc = DMatrix::from_fn(n, n, |i, j| {
                let s = if i == j {
                    shift
                } else {
                    Complex::new(0.0, 0.0)
                };
                s - Complex::new(m[(i, j)], 0.0)
            });
            let bc: Vec<Complex<f64>> = b.iter().map(|&v| Complex::new(v, -v)).collect();
            let mut xc = bc.clone();
            cm.solve(&mut xc);
            let want = mc.lu().solve(&DVector::from_vec(bc)).unwrap();
            let scale = want.iter().map(|c| c.norm()).fold(1.0, f64::max);
            for (got, want) in xc.iter().zip(want.iter()) {
                assert!((got - want).norm() <= 1e-12 * scale, "{got} vs {want}");
            }
        }
    }
}

#[test]
fn a_singular_band_is_refused() {
    let mut lu = BandLu::<f64>::new(3, 1, 1);
    assert!(!lu.factor(), "the zero matrix");
    let at = lu.position(0, 0).unwrap();
    lu.entries_mut()[at] = f64::NAN;
    assert!(!lu.factor(), "a NaN entry");
}

/// The 1-D Brusselator (Hairer–Wanner II §IV.1, eq. 1.6'): its two families couple uᵢ
/// with vᵢ N columns apart, a band only after reordering.
const BRUSSELATOR: &str = "param N = 40, A = 1, B = 3, alpha = 0.02
u[i]' = A + u[i]^2*v[i] - (B+1)*u[i] + alpha*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])  for i = 1..N
v[i]' = B*u[i] - u[i]^2*v[i] + alpha*(N+1)^2*(v[i-1] - 2*v[i] + v[i+1])          for i = 1..N
u[0] = 1
u[N+1] = 1
v[0] = 3
v[N+1] = 3
u[i](0) = 1 + sin(2*pi*i/(N+1))   for i = 1..N
v[i](0) = 3                        for i = 1..N";

/// A system that hides its sparsity: the stiff methods factor it dense.
struct Dense<'a>(&'a UserSystem);

impl System for Dense<'_> {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.0.rhs(t, y, dy)
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        self.0.jacobian(t, y)
    }
    fn dfdt(&self, t: f64, y: &[f64]) -> Option<DVector<f64>> {
        self.0.dfdt(t, y)
    }
}

#[test]
fn radau5_on_the_band_path_steps_as_radau5_on_the_dense_path() {
    let sys = UserSystem::new(BRUSSELATOR, &BTreeMap::new()).unwrap();
    assert!(sys.sparsity().is_some(), "80 states take the sparse path");
    let n = sys.dim();
    let before = analyses();
    let mut band = create("radau5", n).unwrap();
    let mut dense = create("radau5", n).unwrap();
    let (mut sb, mut sd) = (Stats::default(), Stats::default());
    let mut y_band = sys.info().y0.clone();
    let mut y_dense = y_band.clone();
    let (mut t, mut out_b, mut out_d) = (0.0, vec![0.0; n], vec![0.0; n]);
    for k in 0..40 {
        let h = 0.02 + 0.005 * (k % 3) as f64;
        band.step(&sys, t, &y_band, h, &mut out_b, &mut sb).unwrap();
        dense
            .step(&Dense(&sys), t, &y_dense, h, &mut out_d, &mut sd)
            .unwrap();
        let scale = out_d.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (b, d) in out_b.iter().zip(&out_d) {
            assert!((b - d).abs() <= 1e-12 * scale, "step {k}: {b} vs {d}");
        }
        assert_eq!(
            (sb.nfev, sb.njev, sb.nlu, sb.nnewton),
            (sd.nfev, sd.njev, sd.nlu, sd.nnewton),
            "step {k}"
        );
        t += h;
        y_band.copy_from_slice(&out_b);
        y_dense.copy_from_slice(&out_d);
    }
    assert!(sb.nlu >= 40, "{sb:?}");
    // One pattern, at most one analysis (none if an earlier test on this thread left
    // the same plan behind).
    assert!(analyses() - before <= 1, "{} analyses", analyses() - before);
}

#[test]
fn one_symbolic_analysis_per_pattern_however_many_factorisations() {
    // A pattern no other test uses (the 2-D grid goes to faer's general LU).
    let m = 12;
    let n = m * m;
    let mut dense = DMatrix::zeros(n, n);
    for r in 0..m {
        for c in 0..m {
            let k = r * m + c;
            dense[(k, k)] = -4.0;
            for (rr, cc) in [(r + 1, c), (r, c + 1), (r + 1, c + 1)] {
                if rr < m && cc < m {
                    dense[(k, rr * m + cc)] = 1.0;
                    dense[(rr * m + cc, k)] = 0.5;
                }
            }
        }
    }
    let j = sparse_of(&dense);
    let before = analyses();
    let mut stats = Stats::default();
    let mut kept = None;
    for k in 0..10 {
        let mut jk = j.clone();
        jk.values
            .iter_mut()
            .for_each(|v| *v *= 1.0 + k as f64 / 10.0);
        let h = 0.01 * (k + 1) as f64;
        let lu = StepMatrix::in_kept(
            &mut kept,
            &Jacobian::Sparse(jk),
            1.0,
            h,
            "I − hJ",
            0.0,
            h,
            &mut stats,
        )
        .unwrap();
        let mut b = DVector::from_element(n, 1.0);
        lu.solve_in_place(&mut b).unwrap();
    }
    assert_eq!(stats.nlu, 10);
    assert_eq!(analyses() - before, 1);
    // A second run on the same pattern reuses the plan.
    StepMatrix::new(
        &Jacobian::Sparse(j),
        1.0,
        0.1,
        "I − hJ",
        0.0,
        0.1,
        &mut stats,
    )
    .unwrap();
    assert_eq!(analyses() - before, 1);
}
