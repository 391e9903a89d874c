//! Band matrices: the LU factorisation with partial pivoting of a matrix whose entries
//! lie within kl subdiagonals and ku superdiagonals, the bandwidth of a sparsity
//! pattern, and the reverse Cuthill–McKee ordering that narrows a band that a
//! numbering has spread out.
//!
//! **Band LU.** The storage and the elimination are LAPACK's `xGBTF2`/`xGBTRS`
//! (Anderson et al., LAPACK Users' Guide, 3rd ed., SIAM 1999, §5.3.2 "band storage"):
//! column j holds rows j − kl − ku … j + kl, the top kl of them room for the fill that
//! row interchanges bring into U (U gets kl + ku superdiagonals); L keeps its
//! multipliers below the diagonal in the order they were made, and a solve applies
//! the interchanges as it goes, as `xGBTRS` does. A factorisation costs
//! O(n·kl·(kl + ku)) and a solve O(n·(2kl + ku)), where a dense LU costs O(n³):
//! Hairer & Wanner's RADAU5 factors a banded Jacobian the same way (their `DECB`
//! and `DECBC`, the complex one for the complex stage system, Hairer & Wanner,
//! Solving ODEs II, 2nd ed. 1996, Appendix: "Fortran codes"). Written here rather
//! than taken from a crate: it is sixty lines, runs on f64 and on complex numbers
//! alike, and keeps its storage from one factorisation to the next (no allocation
//! per step). As [`crate::linalg::Factored`], the pivots' reciprocals are kept and a
//! solve multiplies by them.
//!
//! **Ordering.** Reverse Cuthill–McKee (Cuthill & McKee, "Reducing the bandwidth of
//! sparse symmetric matrices", ACM 1969; reversed as George & Liu, Computer Solution
//! of Large Sparse Positive Definite Systems, 1981, §4.3): a breadth-first numbering
//! from a pseudo-peripheral node, neighbours by increasing degree, then reversed. The
//! Brusselator's two families u₁…u_N, v₁…v_N couple uᵢ with vᵢ N columns apart; the
//! ordering interleaves them into a band of width a few.

use nalgebra::Complex;
use std::collections::VecDeque;
use std::ops::{Add, AddAssign, Mul, Sub};

/// A number a band LU runs on: f64 or a complex number.
pub trait Entry:
    Copy + Add<Output = Self> + AddAssign + Sub<Output = Self> + Mul<Output = Self>
{
    const ZERO: Self;
    /// The size a pivot is chosen by: |x| (real), |re| + |im| (complex, as LINPACK's
    /// and nalgebra's `icamax`).
    fn size(self) -> f64;
    fn from_real(x: f64) -> Self;
    fn recip(self) -> Self;
    fn finite(self) -> bool;
}

impl Entry for f64 {
    const ZERO: Self = 0.0;
    #[inline]
    fn size(self) -> f64 {
        self.abs()
    }
    #[inline]
    fn from_real(x: f64) -> Self {
        x
    }
    #[inline]
    fn recip(self) -> Self {
        1.0 / self
    }
    #[inline]
    fn finite(self) -> bool {
        self.is_finite()
    }
}

impl Entry for Complex<f64> {
    const ZERO: Self = Complex::new(0.0, 0.0);
    #[inline]
    fn size(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
    #[inline]
    fn from_real(x: f64) -> Self {
        Complex::new(x, 0.0)
    }
    #[inline]
    fn recip(self) -> Self {
        Complex::new(1.0, 0.0) / self
    }
    #[inline]
    fn finite(self) -> bool {
        self.re.is_finite() && self.im.is_finite()
    }
}

/// An n × n band matrix with kl subdiagonals and ku superdiagonals, and after
/// [`BandLu::factor`] its LU factors.
#[derive(Debug, Clone)]
pub struct BandLu<T> {
    n: usize,
    kl: usize,
    ku: usize,
    /// Column-major, `ld` = 2kl + ku + 1 entries a column; (i, j) at
    /// j·ld + kl + ku + i − j.
    ab: Vec<T>,
    pivots: Vec<usize>,
    /// 1/uⱼⱼ.
    inverse_diagonal: Vec<T>,
}

impl<T: Entry> BandLu<T> {
    /// Storage for an n × n matrix of bandwidths (kl, ku), all zero.
    pub fn new(n: usize, kl: usize, ku: usize) -> Self {
        let ld = 2 * kl + ku + 1;
        Self {
            n,
            kl,
            ku,
            ab: vec![T::ZERO; ld * n],
            pivots: vec![0; n],
            inverse_diagonal: vec![T::ZERO; n],
        }
    }

    /// Values the storage holds (its memory, in entries).
    pub fn stored(n: usize, kl: usize, ku: usize) -> u64 {
        (2 * kl as u64 + ku as u64 + 1).saturating_mul(n as u64)
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn bandwidths(&self) -> (usize, usize) {
        (self.kl, self.ku)
    }

    fn ld(&self) -> usize {
        2 * self.kl + self.ku + 1
    }

    /// Where entry (i, j) of the matrix is stored; `None` outside the band.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        let (kl, ku) = (self.kl, self.ku);
        (i + ku >= j && i <= j + kl).then(|| j * self.ld() + kl + ku + i - j)
    }

    /// Sets every entry (band and fill room) to zero.
    pub fn clear(&mut self) {
        self.ab.iter_mut().for_each(|v| *v = T::ZERO);
    }

    /// The stored entries, for filling at [`BandLu::position`]s.
    pub fn entries_mut(&mut self) -> &mut [T] {
        &mut self.ab
    }

    /// Factorises the matrix in place (`xGBTF2`); false at a non-finite entry or an
    /// exactly zero pivot column (the matrix is singular).
    pub fn factor(&mut self) -> bool {
        if !self.ab.iter().all(|v| v.finite()) {
            return false;
        }
        let (n, kl, ku, ld) = (self.n, self.kl, self.ku, self.ld());
        let kv = kl + ku;
        let ab = &mut self.ab;
        // The last column the interchanges so far have reached.
        let mut ju = 0;
        for j in 0..n {
            let km = kl.min(n - 1 - j);
            let col = j * ld + kv;
            let mut jp = 0;
            let mut best = ab[col].size();
            for i in 1..=km {
                let s = ab[col + i].size();
                if s > best {
                    best = s;
                    jp = i;
                }
            }
            self.pivots[j] = j + jp;
            if best == 0.0 {
                return false;
            }
            ju = ju.max((j + ku + jp).min(n - 1));
            if jp != 0 {
                for k in j..=ju {
                    let at = k * ld + kv - (k - j);
                    ab.swap(at, at + jp);
                }
            }
            let r = ab[col].recip();
            self.inverse_diagonal[j] = r;
            for v in &mut ab[col + 1..=col + km] {
                *v = *v * r;
            }
            for k in j + 1..=ju {
                let at = k * ld + kv - (k - j);
                let ajk = ab[at];
                if ajk.size() != 0.0 {
                    for i in 1..=km {
                        ab[at + i] = ab[at + i] - ab[col + i] * ajk;
                    }
                }
            }
        }
        true
    }

    /// The smallest and largest pivot sizes (U's diagonal), after [`BandLu::factor`].
    pub fn pivot_range(&self) -> (f64, f64) {
        let (kv, ld) = (self.kl + self.ku, self.ld());
        (0..self.n)
            .map(|j| self.ab[j * ld + kv].size())
            .fold((f64::INFINITY, 0.0), |(lo, hi), p| (lo.min(p), hi.max(p)))
    }

    /// Solves A x = b in place with the factors (`xGBTRS`).
    pub fn solve(&self, b: &mut [T]) {
        let (n, kl, ld) = (self.n, self.kl, self.ld());
        let kv = kl + self.ku;
        let ab = &self.ab;
        let b = &mut b[..n];
        // Each column's update runs over slices zipped together (no index checks per
        // entry: a tridiagonal solve is a few operations a row); the same operations
        // in the same order as the indexed loops of `xGBTRS`.
        for j in 0..n {
            let p = self.pivots[j];
            if p != j {
                b.swap(j, p);
            }
            let km = kl.min(n - 1 - j);
            let col = j * ld + kv;
            let (head, below) = b.split_at_mut(j + 1);
            let bj = head[j];
            for (x, &l) in below[..km].iter_mut().zip(&ab[col + 1..=col + km]) {
                *x = *x - l * bj;
            }
        }
        for j in (0..n).rev() {
            let bj = b[j] * self.inverse_diagonal[j];
            b[j] = bj;
            let lo = j.saturating_sub(kv);
            let col = j * ld + kv - j;
            for (x, &u) in b[lo..j].iter_mut().zip(&ab[col + lo..col + j]) {
                *x = *x - u * bj;
            }
        }
    }
}

/// The bandwidths (kl, ku) of a pattern in compressed columns (`rows[col_start[j] ..
/// col_start[j + 1]]` are column j's rows), its diagonal counted, with row and column
/// k renumbered `new_of[k]` when given.
pub fn bandwidths(col_start: &[usize], rows: &[usize], new_of: Option<&[usize]>) -> (usize, usize) {
    let (mut kl, mut ku) = (0, 0);
    for j in 0..col_start.len().saturating_sub(1) {
        let nj = new_of.map_or(j, |p| p[j]);
        for &i in &rows[col_start[j]..col_start[j + 1]] {
            let ni = new_of.map_or(i, |p| p[i]);
            kl = kl.max(ni.saturating_sub(nj));
            ku = ku.max(nj.saturating_sub(ni));
        }
    }
    (kl, ku)
}

/// The reverse Cuthill–McKee ordering of the symmetrised pattern (i ~ j when entry
/// (i, j) or (j, i) is stored): `order[k]` is the old index of the new index k.
pub fn reverse_cuthill_mckee(n: usize, col_start: &[usize], rows: &[usize]) -> Vec<usize> {
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..n {
        for &i in &rows[col_start[j]..col_start[j + 1]] {
            if i != j && i < n {
                adjacent[i].push(j);
                adjacent[j].push(i);
            }
        }
    }
    for a in &mut adjacent {
        a.sort_unstable();
        a.dedup();
    }
    let degree: Vec<usize> = adjacent.iter().map(Vec::len).collect();
    for a in &mut adjacent {
        a.sort_by_key(|&k| (degree[k], k));
    }
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // Scratch for the level search.
    let mut level = vec![usize::MAX; n];
    while order.len() < n {
        // The unplaced node of least degree, then a pseudo-peripheral node of its
        // component: the least-degree node of the last level, while that lengthens
        // the level structure (George & Liu §4.3.2, a few rounds).
        let mut start = (0..n)
            .filter(|&k| !placed[k])
            .min_by_key(|&k| (degree[k], k))
            .unwrap_or(0);
        let mut depth = 0;
        for _ in 0..4 {
            let (last, d) = farthest(start, &adjacent, &placed, &mut level, &degree);
            if d <= depth {
                break;
            }
            depth = d;
            start = last;
        }
        let first = order.len();
        placed[start] = true;
        order.push(start);
        let mut head = first;
        while head < order.len() {
            let k = order[head];
            head += 1;
            for &m in &adjacent[k] {
                if !placed[m] {
                    placed[m] = true;
                    order.push(m);
                }
            }
        }
    }
    order.reverse();
    order
}

/// The breadth-first level structure from `start` over unplaced nodes: a node of least
/// degree in its last level, and the number of levels. Resets `level` after use.
fn farthest(
    start: usize,
    adjacent: &[Vec<usize>],
    placed: &[bool],
    level: &mut [usize],
    degree: &[usize],
) -> (usize, usize) {
    let mut queue = VecDeque::new();
    let mut seen = vec![start];
    level[start] = 0;
    queue.push_back(start);
    let mut deepest = 0;
    while let Some(k) = queue.pop_front() {
        deepest = deepest.max(level[k]);
        for &m in &adjacent[k] {
            if !placed[m] && level[m] == usize::MAX {
                level[m] = level[k] + 1;
                seen.push(m);
                queue.push_back(m);
            }
        }
    }
    let best = seen
        .iter()
        .copied()
        .filter(|&k| level[k] == deepest)
        .min_by_key(|&k| (degree[k], k))
        .unwrap_or(start);
    for k in seen {
        level[k] = usize::MAX;
    }
    (best, deepest)
}
