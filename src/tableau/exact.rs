//! Exact rational numbers p/q (i128, always reduced, q > 0) for tableau entries typed as
//! fractions or decimals ("1/6", "-3/4", "0.5", "(1+2)/8"), so the stability polynomial
//! of a rational tableau prints as 1 + z + z²/2 + z³/6 + z⁴/24 rather than as decimals.
//!
//! Every operation is checked: an overflow gives `None` and the caller falls back to
//! floating point. Nothing here can panic.

use std::fmt;

/// A reduced fraction `num/den` with `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frac {
    pub num: i128,
    pub den: i128,
}

/// gcd(|a|, |b|) in u128, so i128::MIN has an absolute value too.
fn gcd(a: i128, b: i128) -> u128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// Largest magnitude of numerator and denominator kept exact: 2^53, so that both convert
/// to f64 exactly and `num as f64 / den as f64` is the correctly rounded value.
const MAX_EXACT_F64: i128 = 1 << 53;

impl Frac {
    pub const ZERO: Frac = Frac { num: 0, den: 1 };
    pub const ONE: Frac = Frac { num: 1, den: 1 };

    /// p/q reduced; `None` for q = 0 or on overflow.
    pub fn new(num: i128, den: i128) -> Option<Frac> {
        if den == 0 {
            return None;
        }
        let g = i128::try_from(gcd(num, den).max(1)).ok()?;
        let sign = if den < 0 { -1 } else { 1 };
        Some(Frac {
            num: num.checked_mul(sign)? / g,
            den: den.checked_mul(sign)? / g,
        })
    }

    pub fn int(n: i128) -> Frac {
        Frac { num: n, den: 1 }
    }

    pub fn checked_add(self, o: Frac) -> Option<Frac> {
        let g = i128::try_from(gcd(self.den, o.den).max(1)).ok()?;
        let den = (self.den / g).checked_mul(o.den)?;
        let num = self
            .num
            .checked_mul(o.den / g)?
            .checked_add(o.num.checked_mul(self.den / g)?)?;
        Frac::new(num, den)
    }

    pub fn checked_neg(self) -> Option<Frac> {
        Some(Frac {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    pub fn checked_sub(self, o: Frac) -> Option<Frac> {
        self.checked_add(o.checked_neg()?)
    }

    pub fn checked_mul(self, o: Frac) -> Option<Frac> {
        let g1 = i128::try_from(gcd(self.num, o.den).max(1)).ok()?;
        let g2 = i128::try_from(gcd(o.num, self.den).max(1)).ok()?;
        Frac::new(
            (self.num / g1).checked_mul(o.num / g2)?,
            (self.den / g2).checked_mul(o.den / g1)?,
        )
    }

    pub fn checked_div(self, o: Frac) -> Option<Frac> {
        if o.num == 0 {
            return None;
        }
        self.checked_mul(Frac::new(o.den, o.num)?)
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The correctly rounded f64 when numerator and denominator fit in 53 bits (so
    /// "1/6" gives exactly `1.0 / 6.0`, as the `const` tableaux write it).
    pub fn to_f64(self) -> f64 {
        // Beyond 2^53 both conversions round: still accurate to a few ulps.
        self.num as f64 / self.den as f64
    }

    /// True when numerator and denominator convert to f64 exactly.
    pub fn fits_f64(self) -> bool {
        self.num.abs() <= MAX_EXACT_F64 && self.den <= MAX_EXACT_F64
    }
}

impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// Parses `text` as an exact rational: integers, decimals ("0.125", ".5"), + − * /,
/// unary signs and parentheses. `None` for anything else (names such as `sqrt`, an
/// exponent `1e-3`, division by zero, overflow): the caller then evaluates the text
/// with the expression language in floating point.
pub fn parse_exact(text: &str) -> Option<Frac> {
    let bytes: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if bytes.len() > 200 {
        return None;
    }
    let mut p = Parser {
        s: &bytes,
        i: 0,
        depth: 0,
    };
    let v = p.expr()?;
    (p.i == bytes.len()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expr(&mut self) -> Option<Frac> {
        let mut v = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            let r = self.term()?;
            v = if op == b'+' {
                v.checked_add(r)?
            } else {
                v.checked_sub(r)?
            };
        }
        Some(v)
    }

    fn term(&mut self) -> Option<Frac> {
        let mut v = self.unary()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.i += 1;
            let r = self.unary()?;
            v = if op == b'*' {
                v.checked_mul(r)?
            } else {
                v.checked_div(r)?
            };
        }
        Some(v)
    }

    fn unary(&mut self) -> Option<Frac> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let v = match self.peek()? {
            b'-' => {
                self.i += 1;
                self.unary()?.checked_neg()
            }
            b'+' => {
                self.i += 1;
                self.unary()
            }
            b'(' => {
                self.i += 1;
                let v = self.expr()?;
                (self.peek()? == b')').then_some(())?;
                self.i += 1;
                Some(v)
            }
            _ => self.number(),
        };
        self.depth -= 1;
        v
    }

    fn number(&mut self) -> Option<Frac> {
        let mut num: i128 = 0;
        let mut den: i128 = 1;
        let mut digits = 0;
        let mut fraction = false;
        while let Some(ch) = self.peek() {
            match ch {
                b'0'..=b'9' => {
                    num = num.checked_mul(10)?.checked_add(i128::from(ch - b'0'))?;
                    if fraction {
                        den = den.checked_mul(10)?;
                    }
                    digits += 1;
                }
                b'.' if !fraction => fraction = true,
                _ => break,
            }
            self.i += 1;
        }
        (digits > 0).then_some(())?;
        Frac::new(num, den)
    }
}
