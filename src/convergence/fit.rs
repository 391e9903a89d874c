//! The slope of log(error) against log(h) over the asymptotic range, and the round-off
//! floor of Schwab & Delhaes §7.5 (E = C1 h^p + C2/h: the error stops decreasing, then grows,
//! as h goes small).
//!
//! The range is found without assuming the order: take the points (largest h first) up
//! to the smallest error (where the floor begins) and their local slopes
//! s_j = log(e_j/e_{j+1})/log(h_j/h_{j+1}). The reference slope is the last one (smallest
//! h) that agrees within 0.2 with the one before it, which passes over the pair already
//! bent by round-off; the range extends towards large h while the local slopes stay
//! within 0.25 of it. Least squares on its points gives the slope. Points at large h
//! (pre-asymptotic, or a blow-up: e = ∞) and in the floor fall outside. With too few
//! points for that (no two consecutive slopes), every usable point up to the smallest
//! error is fitted.

use serde::Serialize;

/// A fitted slope and the points it used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct SlopeFit {
    /// Least-squares slope of log e vs log h (NaN if fewer than two usable points).
    pub slope: f64,
    /// First and last index (inclusive) of the fitted points.
    pub from: usize,
    pub to: usize,
    /// Index of the smallest error when the errors after it stop decreasing (the
    /// round-off floor); `None` if the error still decreases at the smallest h.
    #[tsify(optional)]
    pub floor: Option<usize>,
}

/// Least-squares slope of y against x.
pub fn least_squares_slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    if x.len() < 2 {
        return f64::NAN;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
    }
    sxy / sxx
}

/// Fits the asymptotic slope of `err` against `h` (h decreasing).
pub fn fit_slope(h: &[f64], err: &[f64]) -> SlopeFit {
    let usable = |i: usize| err[i].is_finite() && err[i] > 0.0;
    let none = SlopeFit {
        slope: f64::NAN,
        from: 0,
        to: 0,
        floor: None,
    };
    // The smallest error (first occurrence).
    let Some(i_min) = (0..err.len())
        .filter(|&i| usable(i))
        .min_by(|&a, &b| err[a].total_cmp(&err[b]))
    else {
        return none;
    };
    let last_usable = (0..err.len()).rev().find(|&i| usable(i)).unwrap_or(i_min);
    let floor = (i_min < last_usable).then_some(i_min);
    // Local slopes s_j of consecutive usable points j, j + 1 up to i_min.
    let slope_at =
        |i: usize| crate::math::ln(err[i] / err[i + 1]) / crate::math::ln(h[i] / h[i + 1]);
    let pair = |j: usize| usable(j) && usable(j + 1);
    // The reference slope: the last pair (smallest h) whose slope agrees within 0.2 with
    // the pair before it; the pair touching the floor is usually off and is passed over.
    let Some(j_ref) = (1..i_min)
        .rev()
        .find(|&j| pair(j) && pair(j - 1) && (slope_at(j) - slope_at(j - 1)).abs() <= 0.2)
    else {
        // Too few points to judge consistency: fit every usable point up to the minimum.
        let pts: Vec<usize> = (0..=i_min).filter(|&i| usable(i)).collect();
        if pts.len() < 2 {
            return SlopeFit { floor, ..none };
        }
        let x: Vec<f64> = pts.iter().map(|&i| crate::math::ln(h[i])).collect();
        let y: Vec<f64> = pts.iter().map(|&i| crate::math::ln(err[i])).collect();
        return SlopeFit {
            slope: least_squares_slope(&x, &y),
            from: pts[0],
            to: pts[pts.len() - 1],
            floor,
        };
    };
    let s_ref = slope_at(j_ref);
    // Extend backwards (towards large h) while the local slopes stay within 0.25.
    let mut from = j_ref - 1;
    while from > 0 && pair(from - 1) && (slope_at(from - 1) - s_ref).abs() <= 0.25 {
        from -= 1;
    }
    let to = j_ref + 1;
    let x: Vec<f64> = (from..=to).map(|i| crate::math::ln(h[i])).collect();
    let y: Vec<f64> = (from..=to).map(|i| crate::math::ln(err[i])).collect();
    SlopeFit {
        slope: least_squares_slope(&x, &y),
        from,
        to,
        floor,
    }
}
