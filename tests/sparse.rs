//! Big user systems on the sparse path: the pattern and colouring read off the tape,
//! the sparse Jacobian equal to the dense one, the sparse LU equal to the dense solve,
//! the heat equation against its semi-discrete exact solution, and the cost of N = 2,000
//! against N = 200 from deterministic counts.

mod common;
use common::*;
use odelab::expr::UserSystem;
use odelab::linear_solver::{Jacobian, SparseJacobian, StepMatrix};
use odelab::problem::System;
use odelab::spec::{SolveSpec, Tol};
use odelab::stats::Stats;
use std::collections::BTreeMap;

/// The heat equation.
const HEAT: &str = "param N = 200, D = 1
u[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = sin(pi*i/(N+1))                      for i = 1..N
output mean = sum(u[j] for j = 1..N)/N";

/// The 1-D Brusselator (Hairer–Wanner II §IV.1, eq. 1.6') with zero-flux… here fixed
/// boundary values u = 1, v = 3.
const BRUSSELATOR: &str = "param N = 40, A = 1, B = 3, alpha = 0.02
u[i]' = A + u[i]^2*v[i] - (B+1)*u[i] + alpha*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])  for i = 1..N
v[i]' = B*u[i] - u[i]^2*v[i] + alpha*(N+1)^2*(v[i-1] - 2*v[i] + v[i+1])          for i = 1..N
u[0] = 1
u[N+1] = 1
v[0] = 3
v[N+1] = 3
u[i](0) = 1 + sin(2*pi*i/(N+1))   for i = 1..N
v[i](0) = 3                        for i = 1..N";

fn system(text: &str, n: f64) -> UserSystem {
    let params: BTreeMap<String, f64> = [("N".to_string(), n)].into();
    UserSystem::new(text, &params).unwrap()
}

fn heat_spec(n: usize, method: &str) -> SolveSpec {
    SolveSpec {
        model: String::new(),
        system: Some(HEAT.into()),
        params: [("N".to_string(), n as f64)].into(),
        rtol: Some(Tol::Scalar(1e-8)),
        atol: Some(Tol::Scalar(1e-10)),
        ..spec("", method, 1e-4, 0.05)
    }
}

/// Largest |u_i(t1) − sin(πi/(N+1)) e^{λ₁t1}| relative to the largest exact value.
fn heat_error(sol: &odelab::Solution, n: usize) -> f64 {
    let m = (n + 1) as f64;
    let pi = std::f64::consts::PI;
    let s = odelab::math::sin(pi / (2.0 * m));
    let lambda = -4.0 * m * m * s * s;
    let t1 = *sol.t.last().unwrap();
    let y1 = last(sol);
    let decay = odelab::math::exp(lambda * t1);
    let mut worst: f64 = 0.0;
    for (i, u) in y1.iter().enumerate() {
        let exact = odelab::math::sin(pi * (i + 1) as f64 / m) * decay;
        worst = worst.max((u - exact).abs());
    }
    worst / decay
}

#[test]
fn heat_equation_pattern_is_tridiagonal_with_three_colours_whatever_n() {
    for n in [200.0, 2000.0] {
        let sys = system(HEAT, n);
        let sp = sys.sparsity().expect("sparse");
        assert_eq!(sp.colours(), 3);
        assert_eq!(sp.nnz(), 3 * n as usize - 2);
    }
}

#[test]
fn small_or_dense_systems_stay_dense() {
    // 10 states: below the sparse threshold.
    assert!(system(HEAT, 10.0).sparsity().is_none());
    // A mean field: every equation reads every state.
    let mean_field = "param N = 100\nm = sum(u[j] for j = 1..N)/N\nu[i]' = m - u[i] for i = 1..N\nu[i](0) = 0 for i = 1..N";
    assert!(system(mean_field, 100.0).sparsity().is_none());
}

#[test]
fn sparse_jacobian_equals_the_dense_one() {
    for (text, n) in [(HEAT, 100.0), (BRUSSELATOR, 40.0)] {
        let sys = system(text, n);
        let dim = sys.info().dim;
        let y: Vec<f64> = (0..dim)
            .map(|i| 1.0 + 0.01 * (i as f64).powi(2) % 3.0)
            .collect();
        let sparse = sys.jacobian_sparse(0.3, &y).expect("sparse");
        let dense = sys.jacobian(0.3, &y).unwrap();
        assert_eq!(sparse.to_dense(), dense);
    }
    // The Brusselator couples u[i] with v[i], N columns apart: still 3 colours per
    // family, 5 or 6 in all — not 80.
    let colours = system(BRUSSELATOR, 40.0).sparsity().unwrap().colours();
    assert!(colours <= 6, "{colours}");
}

#[test]
fn sparse_lu_solves_like_the_dense_one() {
    let sys = system(BRUSSELATOR, 40.0);
    let y = sys.info().y0.clone();
    let sparse = Jacobian::Sparse(sys.jacobian_sparse(0.0, &y).unwrap());
    let dense = Jacobian::Dense(sys.jacobian(0.0, &y).unwrap());
    let mut stats = Stats::default();
    let b = nalgebra::DVector::from_fn(80, |i, _| odelab::math::cos(i as f64));
    let (mut xs, mut xd) = (b.clone(), b.clone());
    StepMatrix::new(&sparse, 1.0, 0.01, "test", 0.0, 0.01, &mut stats)
        .unwrap()
        .solve_in_place(&mut xs)
        .unwrap();
    StepMatrix::new(&dense, 1.0, 0.01, "test", 0.0, 0.01, &mut stats)
        .unwrap()
        .solve_in_place(&mut xd)
        .unwrap();
    let diff = (&xs - &xd).amax();
    assert!(diff < 1e-13 * xd.amax(), "{diff}");
    // y + αJx agrees too.
    let (mut ys, mut yd) = (b.clone(), b.clone());
    sparse.mul_add(0.5, &xd, &mut ys);
    dense.mul_add(0.5, &xd, &mut yd);
    assert!((&ys - &yd).amax() < 1e-13 * yd.amax());
}

#[test]
fn singular_sparse_step_matrix_is_an_error() {
    // I − 1·J with J = I is the zero matrix.
    let n = 70;
    let j = SparseJacobian {
        n,
        col_start: (0..=n).collect(),
        rows: (0..n).collect(),
        values: vec![1.0; n],
    };
    let mut stats = Stats::default();
    let r = StepMatrix::new(
        &Jacobian::Sparse(j),
        1.0,
        1.0,
        "I − J",
        0.5,
        1.0,
        &mut stats,
    )
    .and_then(|m| m.solve_in_place(&mut nalgebra::DVector::from_element(n, 1.0)));
    assert!(
        matches!(r, Err(odelab::OdeError::SingularMatrix { .. })),
        "{r:?}"
    );
}

#[test]
fn heat_equation_n200_ros4_matches_the_semi_discrete_solution() {
    let sol = odelab::solve(&heat_spec(200, "ros4")).unwrap();
    let err = heat_error(&sol, 200);
    assert!(err < 1e-6, "{err}");
}

#[test]
fn every_sparse_capable_method_solves_the_heat_equation() {
    // 50 steps of h = 1e-3 (λ₁ ≈ −π²: first-order errors ~ hλ₁²t/2, second ~ (hλ₁)²).
    for (method, tol) in [
        ("ros4-t2", 1e-8),
        ("rodas", 1e-8),
        ("ode23s", 1e-4),
        ("w2", 1e-4),
        ("bdf2", 1e-4),
        ("backward-euler", 1e-2),
    ] {
        let spec = SolveSpec {
            h: Some(1e-3),
            adaptive: Some(false),
            ..heat_spec(100, method)
        };
        let sol = odelab::solve(&spec).unwrap();
        let err = heat_error(&sol, 100);
        assert!(err < tol, "{method}: {err}");
    }
}

/// Work of a run in units of "one pass over the N-proportional data": f evaluations
/// and Jacobian sweeps pass over the tape, each LU and solve over the pattern (the
/// tridiagonal LU has no fill). Deterministic, unlike a timing.
fn work(sys: &UserSystem, stats: &Stats) -> f64 {
    let tape = sys.rhs_program().tape().insts().len() as f64;
    let sp = sys.sparsity().unwrap();
    let sweeps = (stats.nfev + stats.njev * (sp.colours() as u64 + 1)) as f64;
    // ros4: one LU and four solves per step.
    let lu_work = (stats.nlu * 5) as f64 * sp.nnz() as f64;
    sweeps * tape + lu_work
}

#[test]
fn heat_equation_n2000_costs_under_30_times_n200() {
    let small = odelab::solve(&heat_spec(200, "ros4")).unwrap();
    let big = odelab::solve(&heat_spec(2000, "ros4")).unwrap();
    assert!(heat_error(&big, 2000) < 1e-6);
    let ratio = work(&system(HEAT, 2000.0), &big.stats) / work(&system(HEAT, 200.0), &small.stats);
    // Dense, the LU alone would grow 1,000×.
    eprintln!("work ratio {ratio}: {:?} vs {:?}", big.stats, small.stats);
    assert!(
        ratio < 30.0,
        "{ratio}: {:?} vs {:?}",
        big.stats,
        small.stats
    );
    // The step counts barely depend on N (the error is the smooth mode's).
    assert!(big.stats.nsteps <= 2 * small.stats.nsteps);
}
/// A 4,000-state chain whose Jacobian is bidiagonal: ros4 and radau5 factor it sparse
/// (a band) and llm projects it on a Krylov space, so the dense-size guard (4 · 4003²
/// values, 513 MB) does not apply and the run is made; a dense Jacobian (ros4 with
/// finite differences) is refused with the size of its matrices.
#[test]
fn a_sparse_method_runs_4000_sparse_states_and_a_dense_one_is_refused_by_size() {
    let text = "param N = 4000\nu[1]' = -u[1]\nu[i]' = -u[i] + 0.5*u[i-1] for i = 2..N\n\
                u[i](0) = 1 for i = 1..N";
    for method in ["ros4", "radau5", "llm"] {
        let spec = SolveSpec {
            system: Some(text.into()),
            method: method.into(),
            t1: Some(0.1),
            ..SolveSpec::default()
        };
        let sol = odelab::solve(&spec).expect("a sparse run");
        assert_eq!(sol.dim, 4000);
        // u1 = e^{-t} exactly.
        let u1 = sol.y[(sol.t.len() - 1) * 4000];
        assert!(
            (u1 - odelab::math::exp(-0.1)).abs() < 1e-5,
            "{method}: {u1}"
        );
    }
    let spec = SolveSpec {
        system: Some(text.into()),
        method: "ros4".into(),
        jacobian: Some("fd".into()),
        h: Some(0.01),
        t1: Some(0.1),
        ..SolveSpec::default()
    };
    let err = odelab::solve(&spec).unwrap_err();
    assert!(matches!(err, odelab::OdeError::TooLarge { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("method \"ros4\" on 4000 states")
            && message.contains("4000 × 4000 Jacobian"),
        "{message}"
    );
}

/// A solve re-made with another method, step or tolerance, or with another value of a
/// parameter that sizes nothing (D), parses and compiles nothing again (the compiled
/// system is kept, D an input of its tape); both give the runs a fresh compilation
/// gives.
#[test]
fn the_compiled_system_is_kept_across_parameter_and_method_changes() {
    use odelab::expr::compile_counts;
    let run = |n: f64, d: f64, method: &str, rtol: f64| {
        let spec = SolveSpec {
            model: String::new(),
            system: Some(HEAT.into()),
            params: [("N".to_string(), n), ("D".to_string(), d)].into(),
            rtol: Some(Tol::Scalar(rtol)),
            ..spec("", method, 1e-4, 0.01)
        };
        odelab::solve(&spec).unwrap()
    };
    let first = run(100.0, 1.0, "ros4", 1e-6);
    let (parses, compilations) = compile_counts();
    // Another method and tolerance: neither parsed nor compiled again.
    let radau = run(100.0, 1.0, "radau5", 1e-7);
    let again = run(100.0, 1.0, "ros4", 1e-6);
    assert_eq!(compile_counts(), (parses, compilations));
    assert_eq!(
        again.y, first.y,
        "a kept system runs bit for bit as a fresh one"
    );
    assert!(radau.stats.nsteps > 0);
    // A slider drag: D changes, the text is neither parsed nor compiled again.
    let slower = run(100.0, 0.5, "ros4", 1e-6);
    assert_eq!(compile_counts(), (parses, compilations));
    assert_ne!(slower.y, first.y);
    // Back to D = 1: the same bits as the first.
    let back = run(100.0, 1.0, "ros4", 1e-6);
    assert_eq!(back.y, first.y);
    assert_eq!(compile_counts(), (parses, compilations));
}

/// The run of `text` with `params`.
fn run_text(text: &str, params: &[(&str, f64)], method: &str) -> odelab::Solution {
    let spec = SolveSpec {
        model: String::new(),
        system: Some(text.into()),
        params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        rtol: Some(Tol::Scalar(1e-7)),
        ..spec("", method, 1e-4, 0.05)
    };
    odelab::solve(&spec).unwrap()
}

fn assert_bitwise_equal(kept: &odelab::Solution, fresh: &odelab::Solution) {
    assert_eq!(kept.t, fresh.t);
    assert!(kept.y == fresh.y, "the same states");
    assert_eq!(kept.outputs, fresh.outputs);
    let times = |s: &odelab::Solution| s.events.iter().map(|e| e.t).collect::<Vec<_>>();
    assert_eq!(times(kept), times(fresh));
    assert_eq!(kept.stats.nfev, fresh.stats.nfev);
}

/// Parameters are inputs of the compiled tape, except those that size the system (a
/// range bound, an index): a new value of an input (in a coefficient, an initial
/// value, an output, an event, a condition that decides the same way) compiles
/// nothing, and the run is bit for bit the one a fresh compilation gives (of the text
/// with a comment added, another text to the cache); a new size, or a condition
/// decided the other way, compiles again.
#[test]
fn a_parameter_change_compiles_nothing_unless_it_changes_the_structure() {
    use odelab::expr::compile_counts;
    const TEXT: &str = "param N = 100, D = 1, A = 1, s = 1, level = 0.7
u[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1]) + if(s > 0, 0, -s*u[i])   for i = 1..N
u[0] = 0
u[N+1] = 0
u[i](0) = A*sin(pi*i/(N+1))                      for i = 1..N
output peak = A*u[N/2]
event low: u[N/2] - level*A, falling";
    let count = || compile_counts().1;
    let fresh = |params: &[(&str, f64)], method: &str, i: usize| {
        run_text(&format!("{TEXT}\n# compiled afresh {i}"), params, method)
    };
    // (parameters, whether the run differs from the first): s = 3 decides the
    // condition as s = 1 does.
    let inputs: [(&[(&str, f64)], bool); 3] = [
        (&[("D", 0.5)], true),
        (&[("D", 0.5), ("A", 2.0), ("level", 0.8)], true),
        (&[("s", 3.0)], false),
    ];
    for method in ["ros4", "radau5", "dp45"] {
        let first = run_text(TEXT, &[], method);
        assert_eq!(first.events.len(), 1);
        let before = count();
        let kept: Vec<_> = inputs
            .iter()
            .map(|(p, _)| run_text(TEXT, p, method))
            .collect();
        assert_eq!(count(), before, "{method}: no compilation");
        for (i, ((params, differs), kept)) in inputs.iter().zip(&kept).enumerate() {
            assert_bitwise_equal(kept, &fresh(params, method, i));
            assert_eq!(kept.y != first.y, *differs, "{params:?}");
        }
        // A condition decided the other way, and another size, compile again.
        run_text(TEXT, &[], method);
        for (i, params) in [[("s", -1.0)], [("N", 60.0)]].iter().enumerate() {
            let before = count();
            let kept = run_text(TEXT, params, method);
            assert_eq!(count(), before + 1, "{method} {params:?}");
            assert_bitwise_equal(&kept, &fresh(params, method, 10 + i));
        }
    }
}

/// A parameter value that makes a constant overflow is refused where the text says so,
/// whether the system was compiled before with another value or not.
#[test]
fn an_overflowing_parameter_value_is_refused_as_by_a_fresh_compilation() {
    let text = "param k = 1\nx' = -exp(k)*x\nx(0) = 1";
    let build = |k: f64| {
        let params: BTreeMap<String, f64> = [("k".to_string(), k)].into();
        odelab::expr::build_user_system(text, &params).map(|_| ())
    };
    assert!(build(1.0).is_ok());
    let kept = build(1000.0).unwrap_err().to_string();
    assert!(build(2.0).is_ok());
    let fresh = UserSystem::new(text, &[("k".to_string(), 1000.0)].into())
        .unwrap_err()
        .to_string();
    assert_eq!(kept, fresh);
    assert!(kept.contains("line 2"), "{kept}");
}
