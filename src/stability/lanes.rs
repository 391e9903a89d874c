//! `Lanes<N>`: N f64 values that go through the same arithmetic side by side, for the
//! map's row kernels (`slowfast::Prepared::row`). Each operation is N independent IEEE
//! operations, lane by lane, so a kernel written once over `Lanes<N>` gives the same
//! bits for every N (add, sub, mul, div and sqrt are correctly rounded, and nothing is
//! fused or reassociated): `Lanes<1>` is the scalar point. For N = 2 the compiler turns
//! the lane loops into one SIMD instruction each (f64x2 in wasm, where the caller enables
//! `simd128`, SSE2 natively); comparisons give all-ones masks and [`Lanes::select`] is a
//! bitwise blend, as SIMD does them, so no lane branches.

use std::ops::{Add, Div, Mul, Sub};

/// N f64 lanes (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lanes<const N: usize>(pub [f64; N]);

/// One comparison result per lane, all bits set where it holds (as SIMD compares give
/// it, so that [`Lanes::select`] is a bitwise blend); consumed by [`Lanes::select`].
#[derive(Debug, Clone, Copy)]
pub struct Mask<const N: usize>([u64; N]);

impl<const N: usize> Lanes<N> {
    /// Every lane `v`.
    #[inline(always)]
    pub fn splat(v: f64) -> Self {
        Self([v; N])
    }

    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        let mut v = self.0;
        for x in &mut v {
            *x = f(*x);
        }
        Self(v)
    }

    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let mut v = self.0;
        for (x, y) in v.iter_mut().zip(o.0) {
            *x = f(*x, y);
        }
        Self(v)
    }

    #[inline(always)]
    fn test(self, o: Self, f: impl Fn(f64, f64) -> bool) -> Mask<N> {
        let mut m = [0; N];
        for ((b, x), y) in m.iter_mut().zip(self.0).zip(o.0) {
            *b = u64::from(f(x, y)).wrapping_neg();
        }
        Mask(m)
    }

    #[inline(always)]
    pub fn sqrt(self) -> Self {
        self.map(f64::sqrt)
    }

    #[inline(always)]
    pub fn abs(self) -> Self {
        self.map(f64::abs)
    }

    /// Lane by lane `self == o` (false where either is NaN).
    #[inline(always)]
    pub fn equal(self, o: Self) -> Mask<N> {
        self.test(o, |x, y| x == y)
    }

    /// Lane by lane `self >= o` (false where either is NaN).
    #[inline(always)]
    pub fn at_least(self, o: Self) -> Mask<N> {
        self.test(o, |x, y| x >= y)
    }

    /// Lane by lane whether the value is NaN.
    #[inline(always)]
    pub fn is_nan(self) -> Mask<N> {
        self.test(self, |x, y| x != y)
    }

    /// `then` in the lanes where `m` holds, `otherwise` in the others.
    #[inline(always)]
    pub fn select(m: Mask<N>, then: Self, otherwise: Self) -> Self {
        let mut v = otherwise.0;
        for ((x, t), b) in v.iter_mut().zip(then.0).zip(m.0) {
            *x = f64::from_bits((t.to_bits() & b) | (x.to_bits() & !b));
        }
        Self(v)
    }
}

/// `Lanes ∘ Lanes`, `Lanes ∘ f64` (the scalar in every lane) and `f64 ∘ Lanes`.
macro_rules! lane_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<const N: usize> $tr for Lanes<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                self.zip(o, |x, y| x $op y)
            }
        }
        impl<const N: usize> $tr<f64> for Lanes<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: f64) -> Self {
                self.map(|x| x $op o)
            }
        }
        impl<const N: usize> $tr<Lanes<N>> for f64 {
            type Output = Lanes<N>;
            #[inline(always)]
            fn $f(self, o: Lanes<N>) -> Lanes<N> {
                o.map(|y| self $op y)
            }
        }
    };
}

lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);
lane_op!(Div, div, /);
