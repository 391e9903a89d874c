//! Marching squares: the Euler circle |z + 1| = 1, closed polylines, RK4's intercept
//! and extent from the grid contour to 1e-4.

use odelab::stability::{stability_analysis, stability_contour, Contour, StabilitySpec};

fn spec(method: &str, re: [f64; 2], im: [f64; 2], n: usize) -> StabilitySpec {
    StabilitySpec {
        method: method.into(),
        re: Some(re),
        im: Some(im),
        nx: Some(n),
        ny: Some(n),
        ..Default::default()
    }
}

#[test]
fn euler_contour_lies_on_the_circle_and_is_closed() {
    let c: Contour = stability_contour(&spec("euler", [-2.5, 0.5], [-1.5, 1.5], 301)).unwrap();
    assert_eq!(c.len(), 1, "{:?}", c.closed);
    assert!(c.closed[0]);
    let pts: Vec<(f64, f64)> = c.polyline(0).collect();
    assert_eq!(pts.first(), pts.last());
    let h = 3.0 / 300.0;
    let worst = pts
        .iter()
        .map(|&(x, y)| ((x + 1.0).hypot(y) - 1.0).abs())
        .fold(0.0, f64::max);
    // Linear interpolation of |1 + z| across a cell: error O(h²).
    assert!(worst < h * h, "worst distance from the circle {worst}");
    assert!(pts.len() > 300);
}

#[test]
fn rk4_contour_crosses_the_axes_at_the_independently_checked_values() {
    // A grid with a row on Im ξ = 0 and a column on Re ξ = 0.
    let n = 2001;
    let c = stability_contour(&spec("rk4", [-3.0, 1.0], [-3.0, 3.0], n)).unwrap();
    let mut leftmost_on_axis = f64::INFINITY;
    let mut top_on_axis = 0.0f64;
    for k in 0..c.len() {
        for (x, y) in c.polyline(k) {
            if y.abs() < 1e-12 {
                leftmost_on_axis = leftmost_on_axis.min(x);
            }
            if x.abs() < 1e-12 {
                top_on_axis = top_on_axis.max(y);
            }
        }
    }
    assert!(
        (leftmost_on_axis + 2.785293563405282).abs() < 1e-4,
        "{leftmost_on_axis}"
    );
    assert!(
        (top_on_axis - 2.0 * 2f64.sqrt()).abs() < 1e-4,
        "{top_on_axis}"
    );
    assert!(c.closed.iter().all(|&x| x));
}

#[test]
fn analysis_bundles_map_contour_and_facts() {
    let a = stability_analysis(&spec("llm", [-2.0, 2.0], [-2.0, 2.0], 65)).unwrap();
    assert_eq!(a.values.len(), 65 * 65);
    assert!(a.facts.a_stable);
    // LLM's boundary is the imaginary axis: one open polyline at Re ξ = 0.
    assert_eq!(a.contour.len(), 1);
    assert!(a.contour.polyline(0).all(|(x, _)| x.abs() < 1e-12));
}

/// Where the contour crosses the real axis (leftmost) and the positive imaginary axis
/// (topmost): contours of two thin windows, a strip along the real axis (its middle row
/// is Im ξ = 0) and one along the imaginary axis (its middle column is Re ξ = 0).
fn axis_crossings(method: &str, left: f64, top: f64) -> (f64, f64) {
    let contour = |re: [f64; 2], im: [f64; 2], nx: usize, ny: usize| {
        stability_contour(&StabilitySpec {
            method: method.into(),
            re: Some(re),
            im: Some(im),
            nx: Some(nx),
            ny: Some(ny),
            ..Default::default()
        })
        .unwrap()
    };
    let strip = 1e-3;
    let (mut x_min, mut y_max) = (f64::INFINITY, 0.0f64);
    let c = contour([left, 1.0], [-strip, strip], 4001, 3);
    for k in 0..c.len() {
        for (x, y) in c.polyline(k) {
            if y.abs() < 1e-15 {
                x_min = x_min.min(x);
            }
        }
    }
    let c = contour([-strip, strip], [-top, top], 3, 4001);
    for k in 0..c.len() {
        for (x, y) in c.polyline(k) {
            if x.abs() < 1e-15 {
                y_max = y_max.max(y);
            }
        }
    }
    (x_min, y_max)
}

#[test]
fn grid_contours_reproduce_the_independently_checked_intercepts_to_1e_4() {
    // (method, left end of the window, expected intercept, expected extent or NaN)
    let cases = [
        ("euler", -3.0, -2.0, f64::NAN),
        ("heun", -3.0, -2.0, f64::NAN),
        ("bs23", -3.0, -2.512745326618329, 3f64.sqrt()),
        ("dp45", -4.0, -3.306567892634945, f64::NAN),
        ("ab3", -1.0, -6.0 / 11.0, f64::NAN),
        ("am-pece", -3.0, -1.93460842115737, f64::NAN),
    ];
    for (id, left, x_want, y_want) in cases {
        let (x, y) = axis_crossings(id, left, 2.0);
        println!("{id}: contour intercept {x:.6}, extent {y:.6}");
        assert!((x - x_want).abs() < 1e-4, "{id}: {x} vs {x_want}");
        if y_want.is_finite() {
            assert!((y - y_want).abs() < 1e-4, "{id}: {y} vs {y_want}");
        }
    }
}
