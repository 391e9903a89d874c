//! A user's Butcher tableau as the page sends it ([`TableauSpec`]: A, b, optional c and
//! b̂, entries numbers or strings) and its checked form ([`ButcherTableau`]).
//!
//! Checks, each a typed [`OdeError`] naming the entry (0-based JS indices and 1-based
//! row/column): 1 ≤ s ≤ [`MAX_STAGES`]; A is s × s and lower triangular (explicit:
//! strictly; diagonally implicit: with a diagonal); b, c, b̂ have s entries; every entry
//! a finite number; c_i = Σ_j a_ij to 1e-12 (the row-sum condition under which the
//! order conditions below are the classical ones, Hairer–Nørsett–Wanner I §II.2,
//! eq. (1.9)); c defaults to the row sums.

use super::entry::{Entry, Value};
use super::exact::Frac;
use crate::error::{num, OdeError};
use serde::Deserialize;

/// Most stages a user tableau may have.
pub const MAX_STAGES: usize = 16;

/// Your own Runge–Kutta method (method id `"custom"` in `solve` and in the stability
/// lab). s = b.length, 1 <= s <= 16; `a` is s × s and lower triangular (explicit: zero
/// diagonal; diagonally implicit: a diagonal); `c` must be the row sums of `a` (to
/// 1e-12; the default); `bHat` the weights of an embedded formula. Errors name the
/// entry, e.g. "tableau.a[2][1] (row 3, column 2)".
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TableauSpec {
    /// s rows of s entries: lower triangular (explicit, or diagonally implicit).
    #[tsify(type = "TableauEntry[][]")]
    pub a: Vec<Vec<Entry>>,
    /// The s weights.
    #[tsify(type = "TableauEntry[]")]
    pub b: Vec<Entry>,
    /// The s nodes; the row sums of A when absent.
    #[serde(default)]
    #[tsify(type = "TableauEntry[]")]
    pub c: Option<Vec<Entry>>,
    /// Weights of an embedded formula (error estimate y − ŷ = h Σ (b_i − b̂_i) k_i).
    #[serde(default)]
    #[tsify(type = "TableauEntry[]")]
    pub b_hat: Option<Vec<Entry>>,
}

/// A checked tableau: every entry finite, shapes consistent, c = row sums of A.
#[derive(Debug, Clone, PartialEq)]
pub struct ButcherTableau {
    /// s × s, lower triangular (entries above the diagonal are 0).
    pub a: Vec<Vec<f64>>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    pub b_hat: Option<Vec<f64>>,
    /// Exact A and b when every one of their entries is a fraction or short decimal.
    pub a_exact: Option<Vec<Vec<Frac>>>,
    pub b_exact: Option<Vec<Frac>>,
    /// True when the diagonal of A is zero.
    pub explicit: bool,
}

impl ButcherTableau {
    /// Number of stages s.
    pub fn stages(&self) -> usize {
        self.b.len()
    }

    /// The first diagonal entry that is not 0, as (i, a_ii).
    pub fn first_diagonal(&self) -> Option<(usize, f64)> {
        (0..self.stages())
            .map(|i| (i, self.a[i][i]))
            .find(|&(_, d)| d != 0.0)
    }
}

/// "tableau.a[i][j] (row i+1, column j+1)".
fn place_a(i: usize, j: usize) -> String {
    format!("tableau.a[{i}][{j}] (row {}, column {})", i + 1, j + 1)
}

/// The values of a weight-like vector (b, c, b̂) of length s.
fn vector(entries: &[Entry], s: usize, name: &str, what: &str) -> Result<Vec<Value>, OdeError> {
    if entries.len() != s {
        return Err(OdeError::WrongLength {
            what: format!("tableau.{name} ({what}, one per stage)"),
            expected: s,
            got: entries.len(),
        });
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| e.value(&format!("tableau.{name}[{i}] (stage {})", i + 1)))
        .collect()
}

fn exact_all(values: &[Value]) -> Option<Vec<Frac>> {
    values.iter().map(|v| v.exact).collect()
}

impl TableauSpec {
    /// A tableau of plain numbers (tests, and tableaux built in Rust).
    pub fn from_numbers(a: Vec<Vec<f64>>, b: Vec<f64>, c: Option<Vec<f64>>) -> TableauSpec {
        let entries = |v: Vec<f64>| v.into_iter().map(Entry::Number).collect();
        TableauSpec {
            a: a.into_iter().map(entries).collect(),
            b: entries(b),
            c: c.map(entries),
            b_hat: None,
        }
    }

    /// Checks the tableau and evaluates its entries.
    pub fn parse(&self) -> Result<ButcherTableau, OdeError> {
        let s = self.b.len();
        if s == 0 || s > MAX_STAGES {
            return Err(OdeError::OutOfRange {
                what: "the number of stages (length of tableau.b)".into(),
                value: s as f64,
                allowed: format!("between 1 and {MAX_STAGES}"),
            });
        }
        if self.a.len() != s {
            return Err(OdeError::WrongLength {
                what: "tableau.a (one row per stage, as many as tableau.b has weights)".into(),
                expected: s,
                got: self.a.len(),
            });
        }
        let mut a = vec![vec![0.0; s]; s];
        let mut a_exact: Option<Vec<Vec<Frac>>> = Some(vec![vec![Frac::ZERO; s]; s]);
        for (i, row) in self.a.iter().enumerate() {
            if row.len() != s {
                return Err(OdeError::WrongLength {
                    what: format!("tableau.a[{i}] (row {} of a square s × s matrix)", i + 1),
                    expected: s,
                    got: row.len(),
                });
            }
            for (j, entry) in row.iter().enumerate() {
                let v = entry.value(&place_a(i, j))?;
                if j > i && v.x != 0.0 {
                    return Err(OdeError::BadSpec {
                        message: format!(
                            "{} = {} is above the diagonal; only explicit (strictly lower \
                             triangular) and diagonally implicit (lower triangular) tableaux \
                             are supported",
                            place_a(i, j),
                            num(v.x)
                        ),
                    });
                }
                a[i][j] = v.x;
                match (v.exact, a_exact.as_mut()) {
                    (Some(f), Some(ax)) => ax[i][j] = f,
                    _ => a_exact = None,
                }
            }
        }
        let b = vector(&self.b, s, "b", "the weights")?;
        let row_sums: Vec<f64> = (0..s)
            .map(|i| match &a_exact {
                Some(ax) => ax[i]
                    .iter()
                    .try_fold(Frac::ZERO, |acc, &f| acc.checked_add(f))
                    .map(Frac::to_f64)
                    .unwrap_or_else(|| a[i].iter().sum()),
                None => a[i].iter().sum(),
            })
            .collect();
        let c = match &self.c {
            None => row_sums,
            Some(entries) => {
                let c = vector(entries, s, "c", "the nodes")?;
                for (i, (ci, sum)) in c.iter().zip(&row_sums).enumerate() {
                    let scale = a[i].iter().map(|x| x.abs()).sum::<f64>().max(1.0);
                    if (ci.x - sum).abs() > 1e-12 * scale {
                        return Err(OdeError::BadSpec {
                            message: format!(
                                "tableau.c[{i}] = {} but row {} of tableau.a sums to {}; the \
                                 nodes must be the row sums c_i = Σ_j a_ij (leave c out to use \
                                 them)",
                                num(ci.x),
                                i + 1,
                                num(*sum)
                            ),
                        });
                    }
                }
                c.iter().map(|v| v.x).collect()
            }
        };
        let b_hat = match &self.b_hat {
            None => None,
            Some(entries) => Some(
                vector(entries, s, "bHat", "the embedded weights")?
                    .iter()
                    .map(|v| v.x)
                    .collect(),
            ),
        };
        let explicit = (0..s).all(|i| a[i][i] == 0.0);
        Ok(ButcherTableau {
            b_exact: exact_all(&b),
            b: b.iter().map(|v| v.x).collect(),
            a,
            c,
            b_hat,
            a_exact,
            explicit,
        })
    }
}
