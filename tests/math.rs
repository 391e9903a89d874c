//! the core computes its elementary functions through
//! `odelab::math` (the libm crate on every target), so a run is bitwise the same natively
//! and in WASM (`tests/node/determinism.test.mjs` checks the outputs themselves).

use odelab::math;
use std::path::Path;

const PLATFORM_METHODS: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp_m1",
    "ln", "ln_1p", "log10", "log2", "powf", "powi", "cbrt", "hypot", "sin_cos",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_platform_math_in_the_core() {
    let mut files = Vec::new();
    rust_files(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &mut files,
    );
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("math.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for m in PLATFORM_METHODS {
                if code.contains(&format!(".{m}(")) {
                    found.push(format!(
                        "{}:{}: .{m}( — use odelab::math::{m}",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "platform math in the core:\n{}",
        found.join("\n")
    );
}

#[test]
fn math_matches_the_platform_closely() {
    // Not bitwise (that is the point), but within a few ulps of the C library.
    for i in 0..1000 {
        let x = -20.0 + 0.04 * i as f64 + 1e-3;
        let close =
            |a: f64, b: f64| a == b || (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs());
        assert!(close(math::sin(x), x.sin()), "sin {x}");
        assert!(close(math::cos(x), x.cos()), "cos {x}");
        assert!(close(math::exp(x), x.exp()), "exp {x}");
        assert!(close(math::atan2(x, 1.5), x.atan2(1.5)), "atan2 {x}");
        assert!(
            close(math::powf(x.abs(), 0.3), x.abs().powf(0.3)),
            "powf {x}"
        );
        for n in -4..=6 {
            assert!(close(math::powi(x, n), x.powi(n)), "powi {x} {n}");
        }
    }
    let z = nalgebra::Complex::new(0.3, -1.7);
    let close =
        |a: nalgebra::Complex<f64>, b: nalgebra::Complex<f64>| (a - b).norm() <= 1e-15 * b.norm();
    assert!(close(math::complex::exp(z), z.exp()));
    assert!(close(math::complex::sinh(z), z.sinh()));
    assert!(close(math::complex::cosh(z), z.cosh()));
    assert!(close(math::complex::sqrt(z), z.sqrt()));
    assert_eq!(
        math::complex::sqrt(nalgebra::Complex::new(-4.0, 0.0)),
        nalgebra::Complex::new(0.0, 2.0)
    );
}

/// Ulps between two finite positive doubles.
fn ulps(a: f64, b: f64) -> u64 {
    a.to_bits().abs_diff(b.to_bits())
}

#[test]
fn fourth_root_is_within_an_ulp_of_pow() {
    // radau5's controller takes err^(1/4) as √√err; err runs from its floor 1e-10 up,
    // and err²/err_acc further (err_acc ≥ 0.01).
    let mut x = 1e-22;
    let mut worst = 0;
    while x < 1e22 {
        for y in [x, x * (1.0 + f64::EPSILON), x * 1.7, x * 3.3] {
            worst = worst.max(ulps(math::fourth_root(y), math::powf(y, 0.25)));
        }
        x *= 1.37;
    }
    assert!(worst <= 1, "√√x is {worst} ulps from x^0.25");
    assert_eq!(math::fourth_root(16.0), 2.0);
    assert_eq!(math::fourth_root(f64::INFINITY), f64::INFINITY);
    assert_eq!(math::fourth_root(0.0), 0.0);
}

/// The largest distance in ulps of `root` from `exact` at points spread over the whole
/// normal range (five near each power of 2.7), where a controller's error may fall.
fn worst_ulps_over_the_normal_range(root: fn(f64) -> f64, exact: impl Fn(f64) -> f64) -> u64 {
    let mut x = f64::MIN_POSITIVE;
    let mut worst = 0;
    while x < f64::MAX / 4.0 {
        for y in [x, x * (1.0 + f64::EPSILON), x * 1.3, x * 1.9, x * 3.1] {
            worst = worst.max(ulps(root(y), exact(y)));
        }
        x *= 2.7;
    }
    worst
}

#[test]
fn inverse_fifth_root_is_within_two_ulps_over_the_normal_range() {
    // dp45's controller takes err^(−1/5): err from its floor 1e-10 up (accepted steps)
    // and without bound (rejected ones), so the whole normal range. The double 0.2 is
    // 1/5 + ε with ε = 1.1102230246251565e-17, so pow(x, −0.2) is x^(−1/5) · x^(−ε), off
    // by ε|ln x| (up to ~70 ulps near the ends of the range); the reference undoes it.
    const EPS_OF_ONE_FIFTH: f64 = 1.1102230246251565e-17;
    let exact = |x: f64| math::powf(x, -0.2) * (1.0 + EPS_OF_ONE_FIFTH * math::ln(x));
    let worst = worst_ulps_over_the_normal_range(math::inverse_fifth_root, exact);
    assert!(worst <= 2, "x^(−1/5) is {worst} ulps from x^(−1/5)");
    // Exact fifth powers of two, and what a step-size rule meets at the edges.
    for (x, root) in [
        (32.0, 0.5),
        (1.0, 1.0),
        (2f64.powi(-50), 1024.0),
        (1e-10, 100.0),
    ] {
        let off = ulps(math::inverse_fifth_root(x), root);
        assert!(off <= 1, "{x:e}^(−1/5) is {off} ulps from {root}");
    }
    assert_eq!(math::inverse_fifth_root(f64::INFINITY), 0.0);
    assert_eq!(math::inverse_fifth_root(0.0), f64::INFINITY);
    assert!(math::inverse_fifth_root(f64::NAN).is_nan());
    // (2.2250738585072014e-308)^(−1/5) = 3.39258793843465751482905…e61 (to 50 digits).
    assert_eq!(
        math::inverse_fifth_root(f64::MIN_POSITIVE),
        3.3925879384346575e61
    );
    let tiny = math::inverse_fifth_root(1e-310);
    assert!((tiny / math::powf(1e-310, -0.2) - 1.0).abs() < 1e-13);
}

#[test]
fn inverse_cube_root_is_within_two_ulps_over_the_normal_range() {
    // llm's and bs23's controllers take err^(−1/3) over the whole normal range. The double
    // 1/3 is 1/3 − δ with δ = 1.850371707708594e-17, so pow(x, −1/3) is x^(−1/3) · x^δ,
    // off by δ|ln x| (up to ~100 ulps near the ends of the range); the reference undoes it.
    const DELTA_OF_ONE_THIRD: f64 = 1.850371707708594e-17;
    let exact = |x: f64| math::powf(x, -1.0 / 3.0) * (1.0 - DELTA_OF_ONE_THIRD * math::ln(x));
    let worst = worst_ulps_over_the_normal_range(math::inverse_cube_root, exact);
    assert!(worst <= 2, "x^(−1/3) is {worst} ulps from x^(−1/3)");
    // Exact cubes of powers of two, and what a step-size rule meets at the edges.
    for (x, root) in [
        (8.0, 0.5),
        (1.0, 1.0),
        (0.125, 2.0),
        (2f64.powi(-30), 1024.0),
        (1e-9, 1000.0),
    ] {
        let off = ulps(math::inverse_cube_root(x), root);
        assert!(off <= 1, "{x:e}^(−1/3) is {off} ulps from {root}");
    }
    assert_eq!(math::inverse_cube_root(f64::INFINITY), 0.0);
    assert_eq!(math::inverse_cube_root(0.0), f64::INFINITY);
    assert!(math::inverse_cube_root(f64::NAN).is_nan());
    let tiny = math::inverse_cube_root(1e-310);
    assert!((tiny / math::powf(1e-310, -1.0 / 3.0) - 1.0).abs() < 1e-13);
}

#[test]
fn inverse_fourth_root_is_within_two_ulps_of_pow() {
    // ros4's controller takes err^(−1/4) as 1/√√err (control::controller::inverse_root);
    // 0.25 is exact in binary, so pow(x, −0.25) is the reference.
    let mut x = 1e-300;
    let mut worst = 0;
    while x < 1e300 {
        for y in [x, x * (1.0 + f64::EPSILON), x * 1.3, x * 1.9, x * 3.1] {
            worst = worst.max(ulps(1.0 / math::fourth_root(y), math::powf(y, -0.25)));
        }
        x *= 2.7;
    }
    assert!(worst <= 2, "1/√√x is {worst} ulps from x^(−1/4)");
}
