//! A bracketing root finder for switching functions: the Illinois variant of regula
//! falsi (Dowell & Jarratt 1971), with a bisection fallback so it always terminates.
//! It returns the end of the final bracket that lies past the crossing, so the state
//! at the returned time is already on the new side of g = 0 and the next step does
//! not see the same crossing again.

/// Locates a sign change of `g` in [a, b], given g(a) = `ga` ≠ 0 and g(b) = `gb` with
/// ga·gb ≤ 0, to |Δt| ≤ `tol`. Returns t with g(t) on the new side (g(t)·ga ≤ 0).
pub fn locate_crossing(
    mut g: impl FnMut(f64) -> f64,
    a: f64,
    ga: f64,
    b: f64,
    gb: f64,
    tol: f64,
) -> f64 {
    let old_sign = ga.signum();
    let (mut a, mut fa, mut b, mut fb) = (a, ga, b, gb);
    if fb == 0.0 {
        return b;
    }
    // −1: the last move replaced a; +1: it replaced b (Illinois halves the other end's
    // value when the same end moves twice, which restores superlinear convergence).
    let mut last_moved = 0i8;
    for iteration in 0..200 {
        if b - a <= tol {
            break;
        }
        let secant = (a * fb - b * fa) / (fb - fa);
        let c = if iteration < 60 && secant > a && secant < b && secant.is_finite() {
            secant
        } else {
            0.5 * (a + b)
        };
        if c <= a || c >= b {
            break; // the bracket is down to adjacent floating-point numbers
        }
        let fc = g(c);
        if fc * old_sign <= 0.0 {
            b = c;
            fb = fc;
            if fb == 0.0 {
                break;
            }
            if last_moved == 1 {
                fa *= 0.5;
            }
            last_moved = 1;
        } else {
            a = c;
            fa = fc;
            if last_moved == -1 {
                fb *= 0.5;
            }
            last_moved = -1;
        }
    }
    b
}
