//! The second-order integrators' analysis on q'' = −ω²q against Ω = ωh: its curves
//! against closed forms (RK4, midpoint2, Störmer–Verlet, the average-acceleration rule),
//! generalized-α's ρ(Ω → ∞) = ρ∞ (Chung & Hulbert 1993), and its matrix against steps of
//! the integrator itself.

use odelab::method::MethodParams;
use odelab::stability::structural::{alpha_matrix, structural_analysis, Scheme, StructuralSpec};

fn spec(method: &str, params: Option<MethodParams>, omega_h: Vec<f64>) -> StructuralSpec {
    StructuralSpec {
        method: method.into(),
        method_params: params,
        omega_h: Some(omega_h),
    }
}

fn rho(r: f64) -> Option<MethodParams> {
    Some(MethodParams {
        rho_inf: Some(r),
        ..Default::default()
    })
}

fn grid() -> Vec<f64> {
    (0..=200)
        .map(|k| 1e-2 * 10f64.powf(k as f64 / 40.0))
        .collect()
}

#[test]
fn generalized_alpha_spectral_radius_tends_to_rho_inf() {
    for r in [0.0, 0.5, 0.9, 1.0] {
        let c = structural_analysis(&spec("generalized-alpha", rho(r), vec![1e6])).unwrap();
        let limit = c.spectral_radius_at_infinity;
        assert!((limit - r).abs() < 1e-12, "ρ∞ = {r}: limit {limit}");
        // Far out the computed roots approach it (a triple root at −ρ∞: slowly).
        let far = c.spectral_radius[0];
        assert!((far - r).abs() < 1e-3, "ρ∞ = {r}: ρ(1e6) = {far}");
    }
}

#[test]
fn hht_spectral_radius_at_infinity_is_one_plus_alpha_over_one_minus_alpha() {
    for a in [-1.0 / 3.0, -0.1, 0.0] {
        let p = Some(MethodParams {
            alpha: Some(a),
            ..Default::default()
        });
        let c = structural_analysis(&spec("hht-alpha", p, vec![1.0])).unwrap();
        let expected = (1.0 + a) / (1.0 - a);
        assert!((c.spectral_radius_at_infinity - expected).abs() < 1e-12);
    }
}

/// The average-acceleration rule is the trapezoidal rule on (q, q'): its principal
/// roots are (1 ± iΩ/2)/(1 ∓ iΩ/2) = e^{±iΩ̄} with tan(Ω̄/2) = Ω/2: ρ = 1, ξ̄ = 0 and
/// (T̄ − T)/T = Ω/(2 arctan(Ω/2)) − 1 (≈ Ω²/12 for small Ω).
#[test]
fn average_acceleration_has_no_damping_and_the_trapezoidal_period_error() {
    let c = structural_analysis(&spec("newmark", None, grid())).unwrap();
    for (i, &w) in c.omega_h.iter().enumerate() {
        assert!((c.spectral_radius[i] - 1.0).abs() < 1e-12, "Ω = {w}");
        assert!(
            c.damping_ratio[i].abs() < 1e-12,
            "Ω = {w}: ξ̄ {}",
            c.damping_ratio[i]
        );
        let exact = w / (2.0 * (w / 2.0).atan()) - 1.0;
        let got = c.period_error[i];
        assert!(
            (got - exact).abs() <= 1e-10 * exact.abs().max(1.0),
            "Ω = {w}: {got} vs {exact}"
        );
    }
    assert!((c.spectral_radius_at_infinity - 1.0).abs() < 1e-15);
}

/// RK4 on y = (q, q'): R(iΩ) = 1 − Ω²/2 + Ω⁴/24 + i(Ω − Ω³/6), so
/// |R|² = 1 − Ω⁶/72 + Ω⁸/576 and Ω̄ = arg R.
#[test]
fn rk4_curves_match_the_closed_form() {
    let c = structural_analysis(&spec("rk4", None, grid())).unwrap();
    for (i, &w) in c.omega_h.iter().enumerate() {
        let (re, im) = (1.0 - w * w / 2.0 + w.powi(4) / 24.0, w - w.powi(3) / 6.0);
        let modulus = (1.0 - w.powi(6) / 72.0 + w.powi(8) / 576.0).sqrt();
        assert!(
            (c.spectral_radius[i] - modulus).abs() <= 1e-12 * modulus.max(1.0),
            "Ω = {w}: {} vs {modulus}",
            c.spectral_radius[i]
        );
        let arg = im.atan2(re);
        if arg > 0.0 {
            let xi = -modulus.ln() / arg;
            let period = w / arg - 1.0;
            assert!((c.damping_ratio[i] - xi).abs() <= 1e-10, "Ω = {w}");
            assert!((c.period_error[i] - period).abs() <= 1e-10 * period.abs().max(1.0));
        } else {
            assert!(
                c.damping_ratio[i].is_nan() && c.period_error[i].is_nan(),
                "Ω = {w}"
            );
        }
    }
    // Small Ω: ξ̄ ≈ Ω⁵/144 (from |R| ≈ 1 − Ω⁶/144), period error ≈ Ω⁴/120.
    let c = structural_analysis(&spec("rk4", None, vec![0.05])).unwrap();
    assert!((c.damping_ratio[0] / (0.05f64.powi(5) / 144.0) - 1.0).abs() < 1e-2);
    assert!((c.period_error[0] / (0.05f64.powi(4) / 120.0) - 1.0).abs() < 1e-2);
    assert!(c.spectral_radius_at_infinity.is_infinite());
}

/// midpoint2 ("Euler 2", Schwab & Delhaes §7.4) and Störmer–Verlet on q'' = −ω²q: det 1,
/// trace 2 − Ω², so for Ω < 2 ρ = 1 and cos Ω̄ = 1 − Ω²/2, Ω̄ = 2 arcsin(Ω/2); above 2
/// the roots are real and ρ = Ω²/2 − 1 + √((Ω²/2 − 1)² − 1).
#[test]
fn midpoint2_and_stormer_verlet_match_the_closed_form() {
    for method in ["midpoint2", "stormer-verlet"] {
        let c = structural_analysis(&spec(method, None, grid())).unwrap();
        for (i, &w) in c.omega_h.iter().enumerate() {
            if w < 2.0 {
                assert!(
                    (c.spectral_radius[i] - 1.0).abs() < 1e-12,
                    "{method} Ω = {w}"
                );
                assert!(c.damping_ratio[i].abs() < 1e-12);
                let exact = w / (2.0 * (w / 2.0).asin()) - 1.0;
                assert!(
                    (c.period_error[i] - exact).abs() <= 1e-10,
                    "{method} Ω = {w}: {} vs {exact}",
                    c.period_error[i]
                );
            } else if w > 2.0 {
                let b = w * w / 2.0 - 1.0;
                let exact = b + (b * b - 1.0).sqrt();
                assert!(
                    (c.spectral_radius[i] - exact).abs() <= 1e-9 * exact,
                    "{method}"
                );
                assert!(c.period_error[i].is_nan());
            }
        }
    }
}

/// Implicit midpoint is the trapezoidal rule on a linear system: the same curves as the
/// average-acceleration rule; LLM is exact.
#[test]
fn implicit_midpoint_equals_average_acceleration_and_llm_is_exact() {
    let a = structural_analysis(&spec("implicit-midpoint", None, grid())).unwrap();
    let b = structural_analysis(&spec("newmark", None, grid())).unwrap();
    for i in 0..a.omega_h.len() {
        assert!((a.spectral_radius[i] - b.spectral_radius[i]).abs() < 1e-12);
        let (x, y) = (a.period_error[i], b.period_error[i]);
        assert!((x - y).abs() <= 1e-10 * x.abs().max(1.0), "{x} vs {y}");
    }
    let l = structural_analysis(&spec("llm", None, grid())).unwrap();
    assert!(l.period_error.iter().all(|&e| e == 0.0));
    assert!(l.damping_ratio.iter().all(|&e| e == 0.0));
}

/// The 3 × 3 matrix is the integrator's step: N steps of `generalized-alpha` on the
/// undamped spring from (q0, 0) (a0 = q̈0 = −ω²q0) equal A(Ω)^N applied to
/// (q0, 0, h²a0).
#[test]
fn alpha_matrix_is_the_integrators_step() {
    for r in [0.0, 0.5, 0.9] {
        let (omega, h, steps) = (10.0f64, 0.07, 40usize);
        let mut s = odelab::spec::SolveSpec {
            model: "mass-spring-damper".into(),
            method: "generalized-alpha".into(),
            h: Some(h),
            t1: Some(h * steps as f64),
            y0: Some(vec![1.0, 0.0]),
            method_params: rho(r),
            ..Default::default()
        };
        for (k, v) in [("c", 0.0), ("g", 0.0), ("k", omega * omega)] {
            s.params.insert(k.into(), v);
        }
        let sol = odelab::solve(&s).unwrap();
        let Scheme::Alpha(c) = Scheme::of("generalized-alpha", rho(r).as_ref()).unwrap() else {
            panic!("an alpha scheme")
        };
        let m = alpha_matrix(&c, omega * h);
        let mut x = [1.0, 0.0, -(omega * h).powi(2)];
        for n in 1..=steps {
            x = [0, 1, 2].map(|i| (0..3).map(|j| m[i][j] * x[j]).sum());
            let (q, v) = (sol.y[2 * n], sol.y[2 * n + 1]);
            assert!((q - x[0]).abs() < 1e-11, "ρ∞ {r} step {n}: {q} vs {}", x[0]);
            assert!((v * h - x[1]).abs() < 1e-11, "ρ∞ {r} step {n}");
        }
    }
}

/// Chung & Hulbert's point: at equal ρ∞, generalized-α damps the low frequencies less
/// than HHT-α (ρ∞ = 0.8: HHT's α = −1/9; at ρ∞ = 0.5, α_m = 0 and the two coincide).
#[test]
fn generalized_alpha_damps_low_frequencies_less_than_hht() {
    let w = vec![0.1, 0.3];
    let g = structural_analysis(&spec("generalized-alpha", rho(0.8), w.clone())).unwrap();
    let h = structural_analysis(&spec("hht-alpha", rho(0.8), w)).unwrap();
    for i in 0..2 {
        assert!(g.damping_ratio[i] < h.damping_ratio[i], "{g:?} {h:?}");
    }
}

#[test]
fn bad_requests_are_refused_with_what_is_allowed() {
    let err = |s: StructuralSpec| structural_analysis(&s).unwrap_err().to_string();
    assert!(err(spec("bdf2", None, vec![1.0])).contains("generalized-alpha"));
    assert!(err(spec("rk4", rho(0.5), vec![1.0])).contains("methodParams"));
    assert!(err(spec("generalized-alpha", rho(2.0), vec![1.0])).contains("rhoInf"));
    assert!(err(spec("newmark", None, vec![0.0])).contains("omegaH[0]"));
    assert!(err(spec("newmark", None, vec![f64::NAN])).contains("omegaH[0]"));
    let c = structural_analysis(&StructuralSpec {
        method: "newmark".into(),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(c.omega_h.len(), 201);
    assert!((c.omega_h[200] / 1e3 - 1.0).abs() < 1e-12);
}

/// The damped matrix is the integrator's step too: on q'' = −kq − cq' (m = 1, k = 100,
/// c = 2, ζ = 0.1) 40 steps equal A^N with Ω² = kh², 2ζΩ = ch.
#[test]
fn damped_alpha_matrix_is_the_integrators_step() {
    use odelab::method::generalized_alpha::amplification::matrix;
    let (k, c_phys, h, steps) = (100.0f64, 2.0, 0.07, 40usize);
    let mut s = odelab::spec::SolveSpec {
        model: "mass-spring-damper".into(),
        method: "generalized-alpha".into(),
        h: Some(h),
        t1: Some(h * steps as f64),
        y0: Some(vec![1.0, 0.0]),
        method_params: rho(0.6),
        ..Default::default()
    };
    for (name, v) in [("c", c_phys), ("g", 0.0), ("k", k)] {
        s.params.insert(name.into(), v);
    }
    let sol = odelab::solve(&s).unwrap();
    let Scheme::Alpha(c) = Scheme::of("generalized-alpha", rho(0.6).as_ref()).unwrap() else {
        panic!("an alpha scheme")
    };
    let m = matrix(&c, k * h * h, c_phys * h);
    let mut x = [1.0, 0.0, -k * h * h];
    for n in 1..=steps {
        x = [0, 1, 2].map(|i| (0..3).map(|j| m[i][j] * x[j]).sum());
        assert!((sol.y[2 * n] - x[0]).abs() < 1e-11, "step {n}");
        assert!((sol.y[2 * n + 1] * h - x[1]).abs() < 1e-11, "step {n}");
    }
}

/// The ξ-plane's value for generalized-α (default ρ∞ = 0.9) is ρ of that matrix: on the
/// imaginary axis (no damping) the Second-order view's spectral radius, and at most 1
/// over the left half-plane (unconditionally stable for any positive damping).
#[test]
fn xi_plane_value_is_the_spectral_radius_of_the_damped_oscillator() {
    use nalgebra::Complex;
    use odelab::method::generalized_alpha::amplification::xi_generalized_alpha;
    for w in [0.1, 1.0, 10.0, 100.0] {
        let c = structural_analysis(&spec("generalized-alpha", rho(0.9), vec![w])).unwrap();
        let v = xi_generalized_alpha(Complex::new(0.0, w));
        assert!((v - c.spectral_radius[0]).abs() < 1e-14, "Ω = {w}: {v}");
    }
    for re in [-50.0, -5.0, -0.5, -0.01] {
        for im in [0.0, 0.3, 3.0, 30.0] {
            let v = xi_generalized_alpha(Complex::new(re, im));
            assert!(v <= 1.0 + 1e-12, "ξ = {re} + {im}i: ρ = {v}");
        }
    }
}
