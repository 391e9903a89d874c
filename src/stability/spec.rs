//! What a user asks the stability lab for (JS field names in camelCase), and its checks:
//! every bad input is a typed [`OdeError`] with a message that says what is allowed.

use crate::error::finite;
use crate::error::{num, OdeError};
use serde::Deserialize;

/// Largest map: nx·ny ≤ 2048² values (32 MiB of f64).
pub const MAX_POINTS: usize = 2048 * 2048;

/// Largest |Re ξ| and |Im ξ| a map window may reach. Beyond it the powers of ξ in R(ξ)
/// overflow (ξ⁵ of a fifth-order method at 1e80 is 1e400), and ∞/∞ or ∞·0 would leave
/// NaN in the map where |R| has a value.
pub const MAX_WINDOW: f64 = 1e15;

/// Default α and β of the slow/fast map: the `slowfast-linear` model's defaults.
pub const DEFAULT_ALPHA: f64 = 100.0;
pub const DEFAULT_BETA: f64 = 0.1;

/// A user's Butcher tableau (method id `"custom"`): the same format as `solve`'s and
/// `analyzeTableau`'s (entries numbers or strings such as "1/6"), see `crate::tableau`.
pub use crate::tableau::TableauSpec;

/// `stabilityMap` / `stabilityAnalysis` / `stabilityFacts` input.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StabilitySpec {
    /// A method id (see [`super::amplification::ids`]) or `"custom"` with `tableau`.
    pub method: String,
    /// [a, b]: the Re ξ range (map only).
    #[serde(default)]
    pub re: Option<[f64; 2]>,
    /// [c, d]: the Im ξ range (map only).
    #[serde(default)]
    pub im: Option<[f64; 2]>,
    #[serde(default)]
    pub nx: Option<usize>,
    #[serde(default)]
    pub ny: Option<usize>,
    /// α = λf/λs of the slow/fast map (Gil, Sanfelice & Nikravesh 2013 eq. 51).
    #[serde(default)]
    pub alpha: Option<f64>,
    /// β = δ/λf = μ/λs of the slow/fast map (Gil, Sanfelice & Nikravesh 2013 eq. 51).
    #[serde(default)]
    pub beta: Option<f64>,
    #[serde(default)]
    pub tableau: Option<TableauSpec>,
    /// What the map shows: `"region"` (the default: |R(ξ)|, the region of absolute
    /// stability where it is ≤ 1) or `"order-star"` (|R(ξ)e^{−ξ}| against 1, for a method
    /// with a rational R; Hairer & Wanner, Solving ODEs II, §IV.4).
    #[serde(default)]
    #[tsify(type = "\"region\" | \"order-star\"")]
    pub mode: Option<String>,
}

/// A checked grid: Re ξ = a + ix(b − a)/(nx − 1), Im ξ = c + iy(d − c)/(ny − 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub re: [f64; 2],
    pub im: [f64; 2],
    pub nx: usize,
    pub ny: usize,
}

impl Grid {
    /// Checks ranges and sizes.
    pub fn new(re: [f64; 2], im: [f64; 2], nx: usize, ny: usize) -> Result<Self, OdeError> {
        for (v, what) in [
            (re[0], "re[0]"),
            (re[1], "re[1]"),
            (im[0], "im[0]"),
            (im[1], "im[1]"),
        ] {
            finite(v, &format!("{what} (the ξ-plane window)"))?;
            if v.abs() > MAX_WINDOW {
                return Err(OdeError::OutOfRange {
                    what: format!("{what} (the ξ-plane window)"),
                    value: v,
                    allowed: format!(
                        "between −{m} and {m}: zoom in; beyond, the powers of ξ overflow",
                        m = num(MAX_WINDOW)
                    ),
                });
            }
        }
        if re[1] <= re[0] {
            return Err(OdeError::OutOfRange {
                what: "re[1], the right end of the Re ξ range,".into(),
                value: re[1],
                allowed: format!("greater than re[0] = {}", num(re[0])),
            });
        }
        if im[1] <= im[0] {
            return Err(OdeError::OutOfRange {
                what: "im[1], the top of the Im ξ range,".into(),
                value: im[1],
                allowed: format!("greater than im[0] = {}", num(im[0])),
            });
        }
        for (n, what) in [(nx, "nx"), (ny, "ny")] {
            if n < 2 {
                return Err(OdeError::OutOfRange {
                    what: what.into(),
                    value: n as f64,
                    allowed: "at least 2".into(),
                });
            }
        }
        match nx.checked_mul(ny) {
            Some(n) if n <= MAX_POINTS => Ok(Grid { re, im, nx, ny }),
            _ => Err(OdeError::OutOfRange {
                what: "nx·ny, the number of map points,".into(),
                value: nx as f64 * ny as f64,
                allowed: format!("at most {MAX_POINTS} (2048 × 2048)"),
            }),
        }
    }

    /// Re ξ of column ix.
    #[inline]
    pub fn x(&self, ix: usize) -> f64 {
        self.re[0] + ix as f64 * (self.re[1] - self.re[0]) / (self.nx - 1) as f64
    }

    /// Im ξ of row iy.
    #[inline]
    pub fn y(&self, iy: usize) -> f64 {
        self.im[0] + iy as f64 * (self.im[1] - self.im[0]) / (self.ny - 1) as f64
    }
}

impl StabilitySpec {
    /// The checked grid of a map request.
    pub fn grid(&self) -> Result<Grid, OdeError> {
        let missing = |what: &str| OdeError::BadSpec {
            message: format!("a stability map needs {what}"),
        };
        Grid::new(
            self.re.ok_or_else(|| missing("re: [a, b]"))?,
            self.im.ok_or_else(|| missing("im: [c, d]"))?,
            self.nx.ok_or_else(|| missing("nx (at least 2)"))?,
            self.ny.ok_or_else(|| missing("ny (at least 2)"))?,
        )
    }
}
