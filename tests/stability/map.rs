//! The map's layout and values.

use nalgebra::Complex;
use odelab::stability::{stability_map, Amplification, StabilitySpec};

fn spec(method: &str) -> StabilitySpec {
    StabilitySpec {
        method: method.into(),
        re: Some([-3.0, 1.0]),
        im: Some([-2.0, 2.0]),
        nx: Some(5),
        ny: Some(3),
        ..Default::default()
    }
}

#[test]
fn layout_is_row_major_in_imaginary_part() {
    let v = stability_map(&spec("euler")).unwrap();
    assert_eq!(v.len(), 15);
    for iy in 0..3 {
        for ix in 0..5 {
            let z = Complex::new(-3.0 + ix as f64, -2.0 + 2.0 * iy as f64);
            let want = (z + 1.0).norm();
            assert!((v[iy * 5 + ix] - want).abs() < 1e-15, "({ix}, {iy})");
        }
    }
}

#[test]
fn every_method_maps_without_nan() {
    for id in odelab::stability::amplification::ids() {
        if id == "custom" {
            continue;
        }
        let mut s = spec(id);
        s.re = Some([-50.0, 50.0]);
        s.im = Some([-50.0, 50.0]);
        s.nx = Some(41);
        s.ny = Some(41);
        let v = stability_map(&s).unwrap();
        assert!(v.iter().all(|x| !x.is_nan() && *x >= 0.0), "{id}");
    }
}

#[test]
fn llm_map_is_exp_of_the_real_part() {
    let v = stability_map(&spec("llm")).unwrap();
    assert!((v[0] - (-3f64).exp()).abs() < 1e-16);
    let amp = Amplification::from_spec(&spec("llm")).unwrap();
    assert_eq!(amp.value(Complex::new(0.0, 7.0)), 1.0);
}

#[test]
#[ignore = "timing, not a test: cargo test --release -- --ignored --nocapture"]
fn timing_of_a_1024_squared_map() {
    for (id, alpha, beta) in [("rk4", None, None), ("slowfast", Some(100.0), Some(0.1))] {
        let s = StabilitySpec {
            method: id.into(),
            re: Some([-4.0, 1.0]),
            im: Some([-4.0, 4.0]),
            nx: Some(1024),
            ny: Some(1024),
            alpha,
            beta,
            tableau: None,
        };
        let t = std::time::Instant::now();
        let v = stability_map(&s).unwrap();
        println!(
            "{id}: 1024² map in {:.2} ms (sum {})",
            t.elapsed().as_secs_f64() * 1e3,
            v.iter().sum::<f64>()
        );
    }
}

fn window(
    method: &str,
    re: [f64; 2],
    im: [f64; 2],
    n: usize,
) -> (Vec<f64>, odelab::stability::Grid) {
    let s = StabilitySpec {
        method: method.into(),
        re: Some(re),
        im: Some(im),
        nx: Some(n),
        ny: Some(n),
        ..Default::default()
    };
    (stability_map(&s).unwrap(), s.grid().unwrap())
}

#[test]
fn backward_euler_is_unstable_only_in_the_disk_around_one() {
    let (v, g) = window("backward-euler", [-2.0, 4.0], [-3.0, 3.0], 121);
    for iy in 0..g.ny {
        for ix in 0..g.nx {
            let d = (g.x(ix) - 1.0).hypot(g.y(iy));
            if (d - 1.0).abs() < 1e-6 {
                continue;
            }
            assert_eq!(
                v[iy * g.nx + ix] > 1.0,
                d < 1.0,
                "({}, {})",
                g.x(ix),
                g.y(iy)
            );
        }
    }
}

#[test]
fn llm_region_is_the_closed_left_half_plane() {
    let (v, g) = window("llm", [-3.0, 3.0], [-30.0, 30.0], 61);
    for iy in 0..g.ny {
        for ix in 0..g.nx {
            assert_eq!(v[iy * g.nx + ix] <= 1.0, g.x(ix) <= 0.0);
        }
    }
}

#[test]
fn slowfast_with_beta_zero_has_rk4_facts() {
    let f = odelab::stability::stability_facts(&StabilitySpec {
        method: "slowfast".into(),
        alpha: Some(50.0),
        beta: Some(0.0),
        ..Default::default()
    })
    .unwrap();
    assert!(
        (f.real_intercept.unwrap() + 2.785293563405282).abs() < 1e-9,
        "{f:?}"
    );
    assert!(
        (f.imag_extent.unwrap() - 2.0 * 2f64.sqrt()).abs() < 1e-9,
        "{f:?}"
    );
}

#[test]
fn mirrored_rows_equal_direct_evaluation() {
    // A symmetric window: the upper rows are copies of the lower ones; they must agree
    // with evaluating each point directly (to rounding of the grid coordinates).
    for (id, alpha, beta) in [
        ("rk4", None, None),
        ("slowfast", Some(30.0), Some(0.3)),
        ("ab3", None, None),
        ("midpoint2", None, None),
    ] {
        let s = StabilitySpec {
            method: id.into(),
            re: Some([-3.0, 1.0]),
            im: Some([-3.0, 3.0]),
            nx: Some(41),
            ny: Some(61),
            alpha,
            beta,
            tableau: None,
        };
        assert_map_is_pointwise(&s);
    }
}

/// The fast row evaluation (per-row coefficients, separable exponentials, 1/ξ from
/// |ξ|², the series near ξ = 0) against the value at each point computed the
/// straightforward way (`Amplification::value`: M(ξ) from exp and complex quotients),
/// on asymmetric windows where no row is a mirror copy, around ξ = 0 and far out.
#[test]
fn fast_map_rows_equal_pointwise_values_on_asymmetric_windows() {
    // (method, α, β, re, im)
    type Case = (&'static str, Option<f64>, Option<f64>, [f64; 2], [f64; 2]);
    let cases: [Case; 7] = [
        ("slowfast", None, None, [-5.0, 1.0], [-1.0, 3.5]),
        ("slowfast", Some(30.0), Some(0.3), [-3.1, 0.7], [0.013, 2.9]),
        ("slowfast", Some(2.0), Some(0.9), [-0.3, 0.2], [-0.25, 0.1]),
        ("slowfast", Some(-4.0), Some(1.5), [-2.0, 2.0], [-1.0, 0.5]),
        ("slowfast", Some(0.0), Some(0.0), [-3.0, 1.0], [-0.5, 2.0]),
        ("rk4", None, None, [-4.0, 1.0], [-0.7, 3.3]),
        ("dp45", None, None, [-6.0, 2.0], [0.1, 6.0]),
    ];
    for (id, alpha, beta, re, im) in cases {
        let s = StabilitySpec {
            method: id.into(),
            re: Some(re),
            im: Some(im),
            nx: Some(97),
            ny: Some(83),
            alpha,
            beta,
            tableau: None,
        };
        assert_map_is_pointwise(&s);
    }
}

/// Every point of the map of `s` equals the amplification evaluated at that point the
/// straightforward way (`Amplification::value`) to 1e-12 relative (absolute below 1).
fn assert_map_is_pointwise(s: &StabilitySpec) {
    let v = stability_map(s).unwrap();
    let g = s.grid().unwrap();
    let amp = Amplification::from_spec(s).unwrap();
    for iy in 0..g.ny {
        for ix in 0..g.nx {
            let want = amp.value(Complex::new(g.x(ix), g.y(iy)));
            let got = v[iy * g.nx + ix];
            let rel = if got == want {
                0.0
            } else {
                (got - want).abs() / want.max(1.0)
            };
            assert!(
                rel <= 1e-12,
                "{} α {:?} β {:?} at ({}, {}): {got} vs {want}",
                s.method,
                s.alpha,
                s.beta,
                g.x(ix),
                g.y(iy)
            );
        }
    }
}

#[test]
fn every_method_maps_without_nan_on_the_widest_window_and_refuses_a_wider_one() {
    let m = odelab::stability::spec::MAX_WINDOW;
    for id in odelab::stability::amplification::ids() {
        if id == "custom" {
            continue;
        }
        for (re, im) in [
            ([-m, m], [-m, m]),
            ([-m, -m / 2.0], [0.0, 1.0]),
            ([-1.0, 1.0], [-m, m]),
        ] {
            let mut s = spec(id);
            s.re = Some(re);
            s.im = Some(im);
            s.nx = Some(64);
            s.ny = Some(64);
            let v = stability_map(&s).unwrap();
            let bad = v.iter().filter(|x| x.is_nan() || **x < 0.0).count();
            assert_eq!(bad, 0, "{id} on {re:?} × {im:?}");
        }
        let mut s = spec(id);
        s.re = Some([-1e80, 1e80]);
        let message = stability_map(&s).unwrap_err().to_string();
        assert!(message.contains("zoom in"), "{message}");
    }
}
