//! `crate::phi`: φ₀ … φ₃ of small matrices by scaling and modified squaring, against
//! closed forms (scalars, the rotation block) and against the Van Loan block
//! exponential of nalgebra (`linalg::expm`) that it replaced in `llm` and `slowfast`.

use nalgebra::DMatrix;
use odelab::linalg::expm;
use odelab::phi::PhiFunctions;
use odelab::stats::Stats;
use odelab::OdeError;

/// φ_k(z) for real z from its definition: Taylor series for |z| < 1, else the
/// recurrence φ_{k+1} = (φ_k − 1/k!)/z (accurate there for k ≤ 3).
fn phi_scalar(k: usize, z: f64) -> f64 {
    if z.abs() < 1.0 {
        let mut term = 1.0;
        for j in 1..=k {
            term /= j as f64;
        }
        let (mut sum, mut j) = (0.0, 0);
        while term.abs() > 1e-300 && j < 60 {
            sum += term;
            j += 1;
            term *= z / (j + k) as f64;
        }
        sum
    } else {
        let mut p = z.exp();
        let mut fact = 1.0;
        for j in 0..k {
            p = (p - 1.0 / fact) / z;
            fact *= (j + 1) as f64;
        }
        p
    }
}

fn compute(z: &DMatrix<f64>, k: usize) -> PhiFunctions {
    let mut phi = PhiFunctions::new(z.nrows());
    phi.compute(z, 1.0, k, 0.0, 1.0, &mut Stats::default())
        .unwrap();
    phi
}

#[test]
fn phi_functions_of_a_scalar_match_their_closed_forms() {
    let mut worst: f64 = 0.0;
    for &z in &[
        -1e6, -1e3, -100.0, -36.0, -5.0, -1.0, -0.3, -1e-8, 0.0, 1e-6, 0.7, 3.0, 20.0,
    ] {
        let phi = compute(&DMatrix::from_element(1, 1, z), 3);
        for k in 0..=3 {
            let exact = phi_scalar(k, z);
            let got = phi.phi(k)[0];
            // Relative to the value, or to 1/k! where φ_k underflows (φ₀ at z = −1e6).
            let scale = exact.abs().max(if k == 0 { 1e-300 } else { 0.0 });
            let rel = (got - exact).abs() / scale.max(f64::MIN_POSITIVE);
            worst = worst.max(rel);
            assert!(
                rel <= 1e-13,
                "φ{k}({z}) = {got:e}, exact {exact:e}, rel {rel:e}"
            );
        }
    }
    println!("φ_k of scalars: worst relative error {worst:e}");
}

#[test]
fn phi_functions_agree_with_the_van_loan_block_exponential() {
    // A non-normal 4 × 4 with a stiff and an oscillatory part, at several h.
    let j = DMatrix::from_row_slice(
        4,
        4,
        &[
            -50.0, 3.0, 0.0, 1.0, //
            0.5, -2.0, 40.0, 0.0, //
            0.0, -40.0, -1.0, 2.0, //
            1.0, 0.0, 0.3, -0.1,
        ],
    );
    let n = 4;
    for &h in &[1e-3, 0.05, 0.5, 3.0] {
        let mut phi = PhiFunctions::new(n);
        phi.compute(&j, h, 3, 0.0, h, &mut Stats::default())
            .unwrap();
        // [[hJ, I, 0, 0], [0, 0, I, 0], [0, 0, 0, I], [0, 0, 0, 0]]: its first block row
        // is (e^{hJ}, φ₁(hJ), φ₂(hJ), φ₃(hJ)).
        let mut big = DMatrix::zeros(4 * n, 4 * n);
        big.view_mut((0, 0), (n, n)).copy_from(&(&j * h));
        for b in 0..3 {
            for i in 0..n {
                big[(b * n + i, (b + 1) * n + i)] = 1.0;
            }
        }
        let e = expm(&big, 0.0, h, &mut Stats::default()).unwrap();
        for k in 0..=3 {
            let block = e.view((0, k * n), (n, n));
            let scale = block.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let got = DMatrix::from_column_slice(n, n, phi.phi(k));
            let diff = (got - block).abs().max();
            assert!(
                diff <= 1e-13 * scale,
                "h = {h}, φ{k}: {diff:e} (scale {scale:e})"
            );
        }
    }
}

#[test]
fn phi_of_a_rotation_block_is_exact() {
    // J = [[a, −b], [b, a]]: e^{J} = e^a R(b), φ₁ from the complex scalar formula.
    for &(a, b) in &[(0.0, 100.0), (-60.0, 80.0), (-0.5, -3.0), (-1.0, 10.0)] {
        let phi = compute(&DMatrix::from_row_slice(2, 2, &[a, -b, b, a]), 1);
        let (ea, c, s) = (f64::exp(a), f64::cos(b), f64::sin(b));
        let e = phi.phi(0);
        let err = (e[0] - ea * c).abs() + (e[1] - ea * s).abs();
        assert!(err <= 1e-12, "({a}, {b}): e^J off by {err:e}");
        // φ₁ = (e^z − 1)/z, z = a + ib: its real and imaginary parts are column 0.
        let z2 = a * a + b * b;
        let (nr, ni) = (ea * c - 1.0, ea * s);
        let (pr, pi) = ((nr * a + ni * b) / z2, (ni * a - nr * b) / z2);
        let p1 = phi.phi(1);
        let err = (p1[0] - pr).abs() + (p1[1] - pi).abs();
        assert!(err <= 1e-13, "({a}, {b}): φ₁ off by {err:e}");
    }
}

#[test]
fn phi_refuses_non_finite_and_huge_arguments_with_a_typed_error() {
    let mut phi = PhiFunctions::new(2);
    let mut stats = Stats::default();
    let nan = DMatrix::from_row_slice(2, 2, &[1.0, f64::NAN, 0.0, 1.0]);
    assert_eq!(
        phi.compute(&nan, 0.1, 3, 2.0, 0.1, &mut stats),
        Err(OdeError::ExpmNotFinite { t: 2.0, h: 0.1 })
    );
    let huge = DMatrix::from_row_slice(2, 2, &[1e14, 0.0, 0.0, 1.0]);
    assert!(phi.compute(&huge, 0.1, 3, 2.0, 0.1, &mut stats).is_err());
    // e^{1000} overflows.
    let grow = DMatrix::from_row_slice(2, 2, &[1e4, 0.0, 0.0, 1.0]);
    assert!(phi.compute(&grow, 0.1, 3, 2.0, 0.1, &mut stats).is_err());
    assert_eq!(stats.nexpm, 1, "only the overflowing one was evaluated");
}

/// h·J can overflow although h and J are finite; such an argument is refused like a
/// non-finite one (balancing it never ended: the page froze), at a compile-time size
/// (2) and at any size (10).
#[test]
fn phi_refuses_an_argument_whose_product_with_h_overflows() {
    for n in [2, 10] {
        let mut j = DMatrix::from_diagonal_element(n, n, -1.0);
        j[(0, 1)] = 1e300;
        j[(1, 0)] = -1e300;
        let mut stats = Stats::default();
        let mut phi = PhiFunctions::new(n);
        assert_eq!(
            phi.compute(&j, 1e10, 3, 4.0, 1e10, &mut stats),
            Err(OdeError::ExpmNotFinite { t: 4.0, h: 1e10 }),
            "n = {n}"
        );
        assert_eq!(stats.nexpm, 0, "n = {n}: nothing was evaluated");
    }
}

/// `PhiFunctions::reusing`: a repeated argument (h·J the same bits) is answered from the
/// held evaluation without counting one, with the bits a fresh evaluation gives; a
/// change of h or of one entry in its last bit, or a higher k, evaluates again. Sizes 3
/// (compile-time path) and 10 (any-size path).
#[test]
fn reusing_phi_functions_evaluate_only_a_changed_argument() {
    for n in [3, 10] {
        let j = DMatrix::from_fn(n, n, |r, c| {
            ((r * 7 + c * 3) % 5) as f64 - 2.0 + if r == c { -3.0 } else { 0.0 }
        });
        let fresh = |j: &DMatrix<f64>, h: f64, k: usize| {
            let mut p = PhiFunctions::new(n);
            p.compute(j, h, k, 0.0, h, &mut Stats::default()).unwrap();
            (0..=k).map(|i| p.phi(i).to_vec()).collect::<Vec<_>>()
        };
        let held =
            |p: &PhiFunctions, k: usize| (0..=k).map(|i| p.phi(i).to_vec()).collect::<Vec<_>>();
        let mut stats = Stats::default();
        let mut p = PhiFunctions::reusing(n);
        p.compute(&j, 0.3, 2, 0.0, 0.3, &mut stats).unwrap();
        p.compute(&j, 0.3, 2, 0.0, 0.3, &mut stats).unwrap();
        assert_eq!(stats.nexpm, 1, "n = {n}: the repeat is not evaluated");
        assert_eq!(held(&p, 2), fresh(&j, 0.3, 2));

        let mut j2 = j.clone();
        j2[(1, 2)] = f64::from_bits(j2[(1, 2)].to_bits() + 1);
        p.compute(&j2, 0.3, 2, 0.0, 0.3, &mut stats).unwrap();
        assert_eq!(stats.nexpm, 2, "n = {n}: one entry changed in its last bit");
        assert_eq!(held(&p, 2), fresh(&j2, 0.3, 2));

        p.compute(&j2, 0.25, 2, 0.0, 0.25, &mut stats).unwrap();
        assert_eq!(stats.nexpm, 3, "n = {n}: h changed");
        p.compute(&j2, 0.25, 3, 0.0, 0.25, &mut stats).unwrap();
        assert_eq!(stats.nexpm, 4, "n = {n}: φ₃ asked for");
        assert_eq!(held(&p, 3), fresh(&j2, 0.25, 3));

        // A refused argument is not held: the next call with it is refused again.
        let huge = DMatrix::from_element(n, n, 1e300);
        assert!(p.compute(&huge, 1.0, 2, 0.0, 1.0, &mut stats).is_err());
        assert!(p.compute(&huge, 1.0, 2, 0.0, 1.0, &mut stats).is_err());
    }
}

/// φ₀ … φ₃ of h·J for van der Pol's Jacobian J = [[0, 1], [−2μ y₀ y₁ − 1, μ(1 − y₀²)]],
/// μ = 1000, at four (y, h) of an llm solve (the slow branch at two step sizes, the
/// fast jump, the fold), against the Van Loan block exponential in 60 digits (mpmath
/// 1.3 `expm` of the 8 × 8 block, from the f64 entries of h·J), column-major. The 2 × 2
/// path (`src/phi/two.rs`) to 4 ε ρ of the largest entry, ρ = max(1, ‖hJ‖₁): the
/// accuracy scaling and squaring has on a stiff argument.
#[test]
fn phi_of_van_der_pol_jacobians_matches_a_sixty_digit_reference() {
    #[rustfmt::skip]
    let cases: [(f64, f64, f64, [[f64; 4]; 4]); 4] = [
        (0.5, 1.6640000000000001, -3000.0, [
            [1.0002771868024183, 0.0005548203103663163, 0.0003334256672874497, 1.8494006926208118e-07],
            [1.0001384946697083, 0.000554373604836554, 0.0003331572144450445, 0.0006668513345748993],
            [0.5000461330888308, 0.0002769893394167138, 0.00016645993955331358, 0.000666314428890089],
            [0.1666781921056764, 9.226617766167071e-05, 5.5448424075523255e-05, 0.00033291987910662716],
        ]),
        (7.44, 2.5700000000000003, -1250.0, [
            [1.015412536729511, 0.0020876847416976597, 0.0008123286932675718, 1.670145046308074e-06],
            [1.007685797489147, 0.0020715775174073967, 0.0008060612908199986, 0.00010918396414886718],
            [0.5025583887154916, 0.0010330372969283618, 0.0004019600377153159, 0.000108341571346774],
            [0.16730570539210707, 0.00034386945100693255, 0.0001338013428042539, 5.402688678969299e-05],
        ]),
        (0.002, -1201.0, 910.0, [
            [0.995140904336825, -6.820532309650435, 0.00567904438771893, 6.163071297161052],
            [0.9986491491095588, -2.4295478315875134, 0.0020229374118130835, 2.839522193859465],
            [0.49969755257535886, -0.6754254452206052, 0.0005623858827815197, 1.0114687059065417],
            [0.16661044496135188, -0.1512237123205703, 0.00012591483124110766, 0.28119294139075984],
        ]),
        (0.05, 1399.6999999999998, -1.0002499999999248, [
            [3.282968920501995, 115.64869377958087, 0.0826239149671936, 3.2003243495560656],
            [1.6851072864515655, 45.6593784100399, 0.0326208318997213, 1.6524782993438718],
            [0.6622084299966139, 13.702145729031312, 0.009789344666022227, 0.652416637994426],
            [0.1981052327089435, 3.244168599932278, 0.002317759948512023, 0.19578689332044455],
        ]),
    ];
    let mut worst: f64 = 0.0;
    for (h, j10, j11, reference) in cases {
        let j = DMatrix::from_column_slice(2, 2, &[0.0, j10, 1.0, j11]);
        let rho = (&j * h).abs().row_sum().max().max(1.0);
        let mut phi = PhiFunctions::new(2);
        phi.compute(&j, h, 3, 0.0, h, &mut Stats::default())
            .unwrap();
        for (k, want) in reference.iter().enumerate() {
            let m = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let diff = want
                .iter()
                .zip(phi.phi(k))
                .fold(0.0f64, |d, (w, g)| d.max((w - g).abs()));
            let rel = diff / (m * rho * f64::EPSILON);
            worst = worst.max(rel);
            assert!(
                rel <= 4.0,
                "h = {h}, J₁₀ = {j10}, φ{k}: {rel:.3} ε ρ off (ρ = {rho:e})"
            );
        }
    }
    println!("van der Pol φ against 60 digits: worst {worst:.3} ε ρ");
}
