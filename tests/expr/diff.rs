//! Exact derivatives by forward-mode AD over the tape: against analytic derivatives
//! (to round-off) and, as a cross-check, central differences (to 1e-7).

use super::xy;

type Grad = fn(f64, f64, f64) -> [f64; 3];

/// (expression, its gradient [∂/∂t, ∂/∂x, ∂/∂y] written by hand), at points where the
/// expression is smooth.
const CASES: &[(&str, Grad)] = &[
    ("x*y + t", |_, x, y| [1.0, y, x]),
    ("x/y", |_, x, y| [0.0, 1.0 / y, -x / (y * y)]),
    ("-x^2", |_, x, _| [0.0, -2.0 * x, 0.0]),
    ("x^3 - 2*y^-2", |_, x, y| {
        [0.0, 3.0 * x * x, 4.0 / (y * y * y)]
    }),
    ("x^y", |_, x, y| {
        [0.0, y * x.powf(y - 1.0), x.powf(y) * x.ln()]
    }),
    ("2^t", |t, _, _| [2f64.powf(t) * 2f64.ln(), 0.0, 0.0]),
    ("sin(x*t)", |t, x, _| {
        [x * (x * t).cos(), t * (x * t).cos(), 0.0]
    }),
    ("cos(y)", |_, _, y| [0.0, 0.0, -y.sin()]),
    ("tan(x)", |_, x, _| [0.0, 1.0 / (x.cos() * x.cos()), 0.0]),
    ("asin(y/4)", |_, _, y| {
        [0.0, 0.0, 0.25 / (1.0 - y * y / 16.0).sqrt()]
    }),
    ("acos(y/4)", |_, _, y| {
        [0.0, 0.0, -0.25 / (1.0 - y * y / 16.0).sqrt()]
    }),
    ("atan(x)", |_, x, _| [0.0, 1.0 / (1.0 + x * x), 0.0]),
    ("atan2(y, x)", |_, x, y| {
        let r2 = x * x + y * y;
        [0.0, -y / r2, x / r2]
    }),
    ("exp(-k*t)*x", |t, x, _| {
        [-2.0 * (-2.0 * t).exp() * x, (-2.0 * t).exp(), 0.0]
    }),
    ("log(x*x)", |_, x, _| [0.0, 2.0 / x, 0.0]),
    ("sqrt(x + y*y)", |_, x, y| {
        let s = (x + y * y).sqrt();
        [0.0, 0.5 / s, y / s]
    }),
    ("sinh(y)", |_, _, y| [0.0, 0.0, y.cosh()]),
    ("cosh(x)", |_, x, _| [0.0, x.sinh(), 0.0]),
    ("tanh(x - 3)", |_, x, _| {
        let th = (x - 3.0).tanh();
        [0.0, 1.0 - th * th, 0.0]
    }),
    ("abs(y)*x", |_, x, y| [0.0, y.abs(), x * y.signum()]),
    ("min(x, y)", |_, _, _| [0.0, 0.0, 1.0]),
    ("max(x, y)", |_, _, _| [0.0, 1.0, 0.0]),
    ("sign(y)*x", |_, _, y| [0.0, y.signum(), 0.0]),
    ("if(y < 0, -1000*y^2, x)", |_, _, y| [0.0, 0.0, -2000.0 * y]),
    ("x > 0 ? x*t : y", |_, x, _| [x, 0.25, 0.0]),
    ("(x > 1) + (y < 0)", |_, _, _| [0.0, 0.0, 0.0]),
    ("sin(x)^2 + cos(x)^2", |_, _, _| [0.0, 0.0, 0.0]),
];

const T: f64 = 0.25;
const X: f64 = 1.3;
const Y: f64 = -0.7;

fn ad(text: &str, t: f64, x: f64, y: f64) -> [f64; 3] {
    let mut g = [0.0; 3];
    xy(text).gradient(t, &[x, y], &mut g);
    g
}

#[test]
fn derivatives_match_analytic_ones_to_round_off() {
    for (text, grad) in CASES {
        let got = ad(text, T, X, Y);
        let want = grad(T, X, Y);
        for k in 0..3 {
            let tol = 4.0 * f64::EPSILON * (1.0 + want[k].abs());
            assert!(
                (got[k] - want[k]).abs() <= tol,
                "{text}: component {k}: AD {} vs analytic {}",
                got[k],
                want[k]
            );
        }
    }
}

#[test]
fn derivatives_match_central_differences() {
    for (text, _) in CASES {
        let e = xy(text);
        let got = ad(text, T, X, Y);
        let d = 1e-6;
        let p = [T, X, Y];
        for k in 0..3 {
            let (mut hi, mut lo) = (p, p);
            hi[k] += d;
            lo[k] -= d;
            let fd = (e.eval(hi[0], &[hi[1], hi[2]]) - e.eval(lo[0], &[lo[1], lo[2]])) / (2.0 * d);
            assert!(
                (got[k] - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
                "{text}: component {k}: AD {} vs central difference {fd}",
                got[k]
            );
        }
    }
}

#[test]
fn non_smooth_functions_take_the_active_branch() {
    // At the kink the derivative is that of the first argument / the chosen branch.
    assert_eq!(ad("abs(x)", 0.0, 0.0, 0.0), [0.0, 0.0, 0.0]);
    assert_eq!(ad("min(x, y)", 0.0, 1.0, 1.0), [0.0, 1.0, 0.0]);
    assert_eq!(ad("max(x, 2*y)", 0.0, 3.0, -1.0), [0.0, 1.0, 0.0]);
    assert_eq!(ad("if(x < 0, -5*x, 0)", 0.0, -1.0, 0.0), [0.0, -5.0, 0.0]);
    assert_eq!(ad("if(x < 0, -5*x, 0)", 0.0, 1.0, 0.0), [0.0, 0.0, 0.0]);
    // A direction that does not reach an infinite partial gives no NaN.
    assert_eq!(ad("sqrt(x) + y", 0.0, 0.0, 1.0)[2], 1.0);
    assert_eq!(ad("sqrt(x^2)", 0.0, 0.0, 0.0), [0.0, 0.0, 0.0]);
    assert_eq!(ad("y^0.5", 0.0, 0.0, -1.0)[1], 0.0);
    // The inactive branch's infinite derivative does not leak in.
    assert_eq!(ad("max(1, sqrt(x))", 0.0, 0.0, 0.0), [0.0, 0.0, 0.0]);
    assert_eq!(ad("if(x > 0, sqrt(x), y)", 0.0, 0.0, 0.0), [0.0, 0.0, 1.0]);
}

#[test]
fn jacobian_and_dfdt_of_a_system() {
    use odelab::problem::System;
    let sys = odelab::expr::UserSystem::new(
        "param k = 100, c = 0.5\nx' = v\nv' = -k*x - c*v + sin(t)\nx(0) = 1, v(0) = 0",
        &Default::default(),
    )
    .unwrap();
    let (t, y) = (0.7, [0.3, -1.1]);
    let j = sys.jacobian(t, &y).unwrap();
    assert_eq!(j.shape(), (2, 2));
    assert_eq!(j.as_slice(), &[0.0, -100.0, 1.0, -0.5]); // column-major
    let ft = sys.dfdt(t, &y).unwrap();
    assert_eq!(ft.as_slice(), &[0.0, t.cos()]);
}

/// The Jacobian of a nonlinear coupled system against one written by hand.
#[test]
fn jacobian_of_a_nonlinear_system() {
    use odelab::problem::System;
    let sys = odelab::expr::UserSystem::new(
        "param mu = 3\nx' = y\ny' = mu*(1 - x^2)*y - x + cos(2*t)\nx(0) = 2, y(0) = 0",
        &Default::default(),
    )
    .unwrap();
    let (t, x, y) = (0.4, 1.7, -0.3);
    let j = sys.jacobian(t, &[x, y]).unwrap();
    let want = [[0.0, 1.0], [-2.0 * 3.0 * x * y - 1.0, 3.0 * (1.0 - x * x)]];
    for (r, row) in want.iter().enumerate() {
        for (c, w) in row.iter().enumerate() {
            assert!(
                (j[(r, c)] - w).abs() <= 1e-14 * (1.0 + w.abs()),
                "J[{r},{c}]"
            );
        }
    }
    let ft = sys.dfdt(t, &[x, y]).unwrap();
    assert!((ft[1] + 2.0 * (2.0 * t).sin()).abs() < 1e-15);
}
