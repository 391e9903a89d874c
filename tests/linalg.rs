//! nalgebra's matrix exponential on Van Loan block matrices, against closed forms
//! (the findings are summarised in `src/linalg.rs`), and the typed failures of the
//! wrappers.

use nalgebra::DMatrix;
use odelab::linalg::{expm, Factored};
use odelab::stats::Stats;
use odelab::OdeError;

/// [[hλ, h, 0], [0, 0, h], [0, 0, 0]]: F = e^{hλ}, G = h φ₁(hλ) = (e^{hλ} − 1)/λ,
/// top-right = h² φ₂(hλ) = (e^{hλ} − 1 − hλ)/λ², each relative to its own size.
#[test]
fn issue_4_expm_of_scalar_van_loan_block_matches_phi_functions() {
    let mut worst: f64 = 0.0;
    for &z in &[-100.0, -30.0, -5.0, -1.0, -0.1, -1e-4, 0.5, 1.0] {
        let h = 0.1;
        let lambda: f64 = z / h;
        let m = DMatrix::from_row_slice(3, 3, &[z, h, 0.0, 0.0, 0.0, h, 0.0, 0.0, 0.0]);
        let e = expm(&m, 0.0, h, &mut Stats::default()).unwrap();
        // φ₁, φ₂ by series near 0, closed form elsewhere.
        let (phi1, phi2) = if z.abs() < 1e-2 {
            (
                1.0 + z / 2.0 + z * z / 6.0 + z.powi(3) / 24.0,
                0.5 + z / 6.0 + z * z / 24.0 + z.powi(3) / 120.0,
            )
        } else {
            (z.exp_m1() / z, (z.exp_m1() - z) / (z * z))
        };
        let checks = [
            (e[(0, 0)], z.exp()),
            (e[(0, 1)], h * phi1),
            (e[(0, 2)], h * h * phi2),
        ];
        for (got, want) in checks {
            let rel = ((got - want) / want).abs();
            worst = worst.max(rel);
            assert!(rel < 1e-13, "hλ = {z}: {got} vs {want} (rel {rel:e})");
        }
        let _ = lambda;
    }
    println!("scalar Van Loan block: worst relative error {worst:e}");
}

/// A rotation/decay block [[a, −b], [b, a]] bordered by a constant input column:
/// top-left e^{a}(cos b, sin b), top-right ∫₀¹ e^{Λ(1−s)} e₁ ds in closed form
/// (Λ⁻¹(e^Λ − I) e₁ with Λ⁻¹ = [[a, b], [−b, a]]/(a² + b²)).
#[test]
fn issue_4_expm_of_rotation_block_matches_closed_form() {
    let mut worst: f64 = 0.0;
    for &(a, b) in &[
        (0.0, 100.0),
        (-1.0, 10.0),
        (-60.0, 80.0),
        (-0.5, 3.0),
        (0.0, 1.0),
    ] {
        let m = DMatrix::from_row_slice(3, 3, &[a, -b, 1.0, b, a, 0.0, 0.0, 0.0, 0.0]);
        let e = expm(&m, 0.0, 1.0, &mut Stats::default()).unwrap();
        let ea = f64::exp(a);
        let (c, s) = (b.cos(), b.sin());
        let rot = [ea * c, -ea * s, ea * s, ea * c];
        // (e^Λ − I) e₁ = (ea c − 1, ea s); times Λ⁻¹.
        let (u, v) = (ea * c - 1.0, ea * s);
        let d = a * a + b * b;
        let input = [(a * u + b * v) / d, (-b * u + a * v) / d];
        let scale = rot.iter().chain(&input).fold(0.0f64, |m, x| m.max(x.abs()));
        let got = [
            e[(0, 0)],
            e[(0, 1)],
            e[(1, 0)],
            e[(1, 1)],
            e[(0, 2)],
            e[(1, 2)],
        ];
        let want = [rot[0], rot[1], rot[2], rot[3], input[0], input[1]];
        for (g, w) in got.iter().zip(&want) {
            let err = (g - w).abs() / scale;
            worst = worst.max(err);
            assert!(err < 1e-13, "λ = {a} + {b}i: {g} vs {w} (err {err:e})");
        }
    }
    println!("rotation block: worst error relative to the largest entry {worst:e}");
}

#[test]
fn issue_4_expm_refuses_non_finite_and_overflow() {
    let mut stats = Stats::default();
    let nan = DMatrix::from_element(2, 2, f64::NAN);
    assert!(matches!(
        expm(&nan, 1.0, 0.5, &mut stats),
        Err(OdeError::ExpmNotFinite { t, h }) if t == 1.0 && h == 0.5
    ));
    let big = DMatrix::from_row_slice(2, 2, &[1000.0, 0.0, 0.0, 0.0]);
    assert!(matches!(
        expm(&big, 1.0, 0.5, &mut stats),
        Err(OdeError::ExpmNotFinite { .. })
    ));
    assert_eq!(stats.nexpm, 1, "only the finite argument was exponentiated");
}

#[test]
fn issue_4_singular_lu_is_a_typed_error() {
    let mut stats = Stats::default();
    let m = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
    let err = Factored::new(m, "the test matrix", 3.0, 0.25, &mut stats)
        .err()
        .unwrap();
    assert_eq!(
        err,
        OdeError::SingularMatrix {
            t: 3.0,
            h: 0.25,
            what: "the test matrix".into()
        }
    );
}
