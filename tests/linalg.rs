//! nalgebra's matrix exponential on Van Loan block matrices, against closed forms
//! (the findings are summarised in `src/linalg.rs`), the typed failures of the
//! wrappers, and the allocation-free LU seam against nalgebra's own LU bit for bit
//! (its factors, and its solve with the one difference `Factored` makes: a product by
//! each pivot's reciprocal where nalgebra divides).

use nalgebra::{Complex, DMatrix, DVector};
use odelab::linalg::{expm, Factored};
use odelab::linear_solver::Jacobian;
use odelab::stats::Stats;
use odelab::OdeError;

/// [[hλ, h, 0], [0, 0, h], [0, 0, 0]]: F = e^{hλ}, G = h φ₁(hλ) = (e^{hλ} − 1)/λ,
/// top-right = h² φ₂(hλ) = (e^{hλ} − 1 − hλ)/λ², each relative to its own size.
#[test]
fn expm_of_scalar_van_loan_block_matches_phi_functions() {
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
fn expm_of_rotation_block_matches_closed_form() {
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
fn expm_refuses_non_finite_and_overflow() {
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
fn singular_lu_is_a_typed_error() {
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

/// A reproducible value in [−1, 1) (xorshift64), so the matrices below need no crate.
fn noise(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// Entries spread over several decades so partial pivoting swaps rows.
fn scattered(n: usize, state: &mut u64) -> DMatrix<f64> {
    DMatrix::from_fn(n, n, |i, _| {
        noise(state) * 10f64.powi((i as i32 * 3) % 5 - 2)
    })
}

/// nalgebra's `LU::solve` of M x = b as `Factored` defines its solve: nalgebra's own
/// factors, row interchanges and unit lower triangular solve, then its
/// `solve_upper_triangular_mut` (the same loop and axpy) with x_i = y_i·(1/uᵢᵢ) in place
/// of y_i/uᵢᵢ. `None` where nalgebra's solve refuses (a zero pivot).
fn lu_solve_by_reciprocals<T: nalgebra::ComplexField + Copy>(
    m: DMatrix<T>,
    b: &DVector<T>,
) -> Option<DVector<T>> {
    let n = m.nrows();
    let lu = m.lu();
    let u = lu.u();
    let mut x = b.clone();
    lu.p().permute_rows(&mut x);
    if !lu
        .l()
        .solve_lower_triangular_with_diag_mut(&mut x, T::one())
    {
        return None;
    }
    for i in (0..n).rev() {
        let diag = u[(i, i)];
        if diag.is_zero() {
            return None;
        }
        let coeff = x[i] * (T::one() / diag);
        x[i] = coeff;
        x.rows_range_mut(..i)
            .axpy(-coeff, &u.view_range(..i, i), T::one());
    }
    Some(x)
}

#[test]
fn the_reference_solve_by_reciprocals_is_nalgebras_to_an_ulp_or_so() {
    // The reference above differs from nalgebra's solve only by the rounding of each
    // 1/uᵢᵢ: on diagonally dominant matrices the solutions agree to a few ulps.
    let mut state = 0x5851_f42d_4c95_7f2d;
    let mut worst: f64 = 0.0;
    for n in 1..=6 {
        for _ in 0..25 {
            let m = scattered(n, &mut state) + DMatrix::identity(n, n) * 50.0;
            let b = DVector::from_fn(n, |_, _| noise(&mut state));
            let want = m.clone().lu().solve(&b).unwrap();
            let got = lu_solve_by_reciprocals(m, &b).unwrap();
            for (g, w) in got.iter().zip(want.iter()) {
                worst = worst.max((g - w).abs() / w.abs().max(f64::MIN_POSITIVE));
            }
        }
    }
    assert!(
        worst < 16.0 * f64::EPSILON,
        "worst relative difference {worst:e}"
    );
    assert!(
        worst > 0.0,
        "the reciprocals changed no bit: the test has no teeth"
    );
}

fn bits(v: &DVector<f64>) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn factored_solves_bit_for_bit_as_nalgebras_lu_by_reciprocals() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let mut stats = Stats::default();
    for n in 1..=6 {
        for _ in 0..25 {
            let m = scattered(n, &mut state);
            let b = DVector::from_fn(n, |_, _| noise(&mut state));
            let want = lu_solve_by_reciprocals(m.clone(), &b).expect("an invertible test matrix");
            let mut got = b.clone();
            Factored::new(m, "M", 0.0, 1.0, &mut stats)
                .unwrap()
                .solve_in_place(&mut got)
                .unwrap();
            assert_eq!(bits(&got), bits(&want), "n = {n}");
        }
    }
    assert_eq!(stats.nlu, 6 * 25);
}

#[test]
fn complex_shifted_factorisation_solves_bit_for_bit_as_nalgebras_lu_by_reciprocals() {
    // radau5's ((α + iβ)/h) I − J.
    let mut state = 0x2545_f491_4f6c_dd1d;
    let mut stats = Stats::default();
    for n in 1..=5 {
        let j = scattered(n, &mut state);
        let shift = Complex::new(noise(&mut state) * 40.0, noise(&mut state) * 40.0);
        let m = DMatrix::<Complex<f64>>::from_fn(n, n, |r, c| {
            let d = if r == c {
                shift
            } else {
                Complex::new(0.0, 0.0)
            };
            d - Complex::new(j[(r, c)], 0.0)
        });
        let b = DVector::from_fn(n, |_, _| Complex::new(noise(&mut state), noise(&mut state)));
        let want = lu_solve_by_reciprocals(m, &b).expect("an invertible test matrix");
        let mut got = b.clone();
        Factored::<Complex<f64>>::shifted(&j, shift, 1.0, "M", 0.0, 1.0, &mut stats)
            .unwrap()
            .solve_in_place(&mut got)
            .unwrap();
        let complex_bits = |v: &DVector<Complex<f64>>| -> Vec<(u64, u64)> {
            v.iter().map(|z| (z.re.to_bits(), z.im.to_bits())).collect()
        };
        assert_eq!(complex_bits(&got), complex_bits(&want), "n = {n}");
    }
}

#[test]
fn refactorising_in_kept_storage_is_bitwise_a_fresh_factorisation() {
    // What a Rosenbrock step does every step: I − γhJ for a new J and h, in the last
    // step's storage, against a fresh Factored and nalgebra's LU of I − J·c.
    let mut state = 0x0123_4567_89ab_cdef;
    let mut stats = Stats::default();
    let n = 4;
    let mut kept = Factored::shifted(
        &scattered(n, &mut state),
        1.0,
        0.3,
        "M",
        0.0,
        1.0,
        &mut stats,
    )
    .unwrap();
    for step in 1..=20 {
        let j = scattered(n, &mut state);
        let c = 0.5 * (noise(&mut state) + 1.5);
        let b = DVector::from_fn(n, |_, _| noise(&mut state));
        kept.reshift(&j, 1.0, c, step as f64, c, &mut stats)
            .unwrap();
        let fresh = Factored::shifted(&j, 1.0, c, "M", step as f64, c, &mut stats).unwrap();
        let mut from_kept = b.clone();
        kept.solve_in_place(&mut from_kept).unwrap();
        let mut from_fresh = b.clone();
        fresh.solve_in_place(&mut from_fresh).unwrap();
        let want = lu_solve_by_reciprocals(DMatrix::identity(n, n) - &j * c, &b).unwrap();
        assert_eq!(bits(&from_kept), bits(&from_fresh), "step {step}");
        assert_eq!(bits(&from_kept), bits(&want), "step {step}");
    }
    assert_eq!(stats.nlu, 1 + 2 * 20);
    // A singular refactorisation is the same typed error, at the new step.
    let err = kept.reshift(&DMatrix::zeros(n, n), 0.0, 1.0, 7.0, 0.5, &mut stats);
    assert_eq!(
        err,
        Err(OdeError::SingularMatrix {
            t: 7.0,
            h: 0.5,
            what: "M".into()
        })
    );
}

#[test]
fn two_state_fixed_size_paths_are_bitwise_the_general_ones() {
    // linalg::fixed: the same loops with n a constant must give the same bits.
    let mut state = 0xdead_beef_cafe_f00d;
    let mut stats = Stats::default();
    for _ in 0..50 {
        let j = scattered(2, &mut state);
        let f = Factored::shifted(&j, 1.0, 0.7, "M", 0.0, 1.0, &mut stats).unwrap();
        let b = [noise(&mut state), noise(&mut state)];
        let (mut general, mut fixed) = (b, b);
        f.solve_n::<0>(&mut general).unwrap();
        f.solve_n::<2>(&mut fixed).unwrap();
        assert_eq!(general.map(f64::to_bits), fixed.map(f64::to_bits));
        // y += αJx against nalgebra's gemv.
        let (x, alpha) = (DVector::from_column_slice(&b), noise(&mut state));
        let y0 = DVector::from_fn(2, |_, _| noise(&mut state));
        let mut want = y0.clone();
        want.gemv(alpha, &j, &x, 1.0);
        let jac = Jacobian::Dense(j);
        let (mut general, mut fixed) = (y0.clone(), y0.clone());
        jac.mul_add_n::<0>(alpha, x.as_slice(), general.as_mut_slice());
        jac.mul_add_n::<2>(alpha, x.as_slice(), fixed.as_mut_slice());
        assert_eq!(bits(&general), bits(&want));
        assert_eq!(bits(&fixed), bits(&want));
    }
}

#[test]
fn two_by_two_factorisation_pivots_and_refuses_as_nalgebras_lu() {
    // The 2 × 2 elimination runs with the size a constant (Factored::eliminate_n): with
    // and without the row interchange, ties of |·| (nalgebra keeps the first), and a
    // zero pivot column.
    let mut stats = Stats::default();
    let cases: [[f64; 4]; 5] = [
        [4.0, 1.0, 2.0, 3.0],       // no interchange
        [1.0, 4.0, 2.0, 3.0],       // interchange
        [-3.0, 3.0, 1.0, 2.0],      // |·| tie: the first row stays
        [1e-300, 1.0, 1.0, 1e-300], // interchange, tiny pivot
        [0.0, 0.0, 1.0, 2.0],       // zero first column: singular
    ];
    for rows in cases {
        // from_column_slice: the first two entries are column 0.
        let m = DMatrix::from_column_slice(2, 2, &rows);
        let b = DVector::from_vec(vec![0.5, -1.25]);
        let want = lu_solve_by_reciprocals(m.clone(), &b);
        let got = Factored::new(m, "M", 0.0, 1.0, &mut stats).and_then(|f| {
            let mut x = b.clone();
            f.solve_in_place(&mut x).map(|()| x)
        });
        match (want, got) {
            (Some(want), Ok(got)) => assert_eq!(bits(&got), bits(&want), "{rows:?}"),
            (None, Err(OdeError::SingularMatrix { .. })) => {}
            (want, got) => panic!("{rows:?}: nalgebra {want:?}, Factored {got:?}"),
        }
    }
}

#[test]
fn two_by_two_step_matrix_and_solve_are_nalgebras_bits() {
    // The written-out 2 × 2 paths (Factored::reshift of a 2 × 2 J, solve_n::<2>) against
    // nalgebra's LU of I − cJ formed as `I − J·c`, refactorised in one storage.
    let mut stats = Stats::default();
    let cases: [[f64; 4]; 5] = [
        [0.0, -2001.0, 1.0, -0.5],  // Van der Pol-like: interchange
        [-3.0, 0.25, 1.0, -7.0],    // no interchange
        [1.0, 1.0, 1.0, 1.0],       // |·| tie
        [0.5, -0.0, 0.0, 2.0],      // signed zeros
        [1.0 / 0.3, 0.0, 0.0, 0.0], // I − cJ singular at c = 0.3
    ];
    let c = 0.3;
    let mut kept: Option<Factored> = None;
    for cols in cases {
        let jac = DMatrix::from_column_slice(2, 2, &cols);
        let b = DVector::from_vec(vec![0.5, -1.25]);
        let m = DMatrix::<f64>::identity(2, 2) - &jac * c;
        let want = lu_solve_by_reciprocals(m, &b);
        let factored = match kept.as_mut() {
            Some(f) => f.reshift(&jac, 1.0, c, 0.0, 1.0, &mut stats),
            None => Factored::shifted(&jac, 1.0, c, "M", 0.0, 1.0, &mut stats).map(|f| {
                kept = Some(f);
            }),
        };
        let got = factored.and_then(|()| {
            let mut x = b.clone();
            let f = kept.as_ref().expect("factorised");
            f.solve_n::<2>(x.as_mut_slice()).map(|()| x)
        });
        match (want, got) {
            (Some(want), Ok(got)) => assert_eq!(bits(&got), bits(&want), "{cols:?}"),
            (None, Err(OdeError::SingularMatrix { .. })) => {}
            (want, got) => panic!("{cols:?}: nalgebra {want:?}, Factored {got:?}"),
        }
    }
}

#[test]
fn short_copies_do_what_the_slice_methods_do_at_every_length() {
    use odelab::linalg::{append_short, copy_short, fill_short};
    for n in 0..=7 {
        let src: Vec<f64> = (0..n).map(|i| 1.5 + i as f64).collect();
        let mut dst = vec![-1.0; n];
        copy_short(&mut dst, &src);
        assert_eq!(dst, src, "copy_short, length {n}");

        let mut grown = vec![7.0, 8.0];
        append_short(&mut grown, &src);
        let mut expected = vec![7.0, 8.0];
        expected.extend_from_slice(&src);
        assert_eq!(grown, expected, "append_short, length {n}");

        fill_short(&mut dst, -0.0);
        assert!(
            dst.iter().all(|v| *v == 0.0 && v.is_sign_negative()),
            "fill_short, length {n}"
        );
    }
}
