//! The factorisation of dI − cJ for a sparse J, planned once per sparsity pattern.
//!
//! A [`Plan`] looks at the pattern once: if its entries lie in a narrow band, in the
//! given numbering or after reverse Cuthill–McKee (`crate::linalg::band`), the matrix
//! is factored as a band (O(n·kl·(kl + ku)), no symbolic phase at all); otherwise
//! faer's sparse LU is prepared: the pattern of dI − cJ and its symbolic analysis
//! (fill-reducing column ordering, elimination tree), which every numeric
//! factorisation then reuses. A run's Jacobians all share one pattern (it is read off
//! the system's tape), so a run makes one analysis; the last plan is also kept between
//! runs on this thread (a slider drag re-runs the same pattern), recognised by
//! comparing the pattern itself.
//!
//! [`Factors`] are the numbers: real for the Rosenbrock, BDF and Newton matrices, and
//! complex for radau5's ((α + iβ)/h)I − J, which both the band LU and faer's sparse LU
//! factor in complex arithmetic (a real 2n × 2n form would double the band's width and
//! the fill; RADAU5 itself factors the complex band with `DECBC`). Their storage is
//! kept from one factorisation to the next.

use super::SparseJacobian;
use crate::linalg::band::{self, BandLu, Entry};
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

thread_local! {
    static ANALYSES: Cell<u64> = const { Cell::new(0) };
    static LAST: RefCell<Option<Rc<Plan>>> = const { RefCell::new(None) };
}

/// Patterns analysed so far on this thread (a plan made, not one reused): what a test
/// counts to see that a run analyses its pattern once.
pub fn analyses() -> u64 {
    ANALYSES.with(Cell::get)
}

/// How a pattern is factored.
#[derive(Debug)]
pub enum Layout {
    /// A band of kl sub- and ku superdiagonals, in the numbering `order` (new index →
    /// old) when the pattern's own is too wide.
    Band {
        kl: usize,
        ku: usize,
        order: Option<Vec<usize>>,
    },
    /// faer's sparse LU with its symbolic analysis of dI − cJ's pattern.
    General {
        pattern: SymbolicSparseColMat<usize>,
        symbolic: SymbolicLu<usize>,
    },
}

/// What a pattern's factorisation needs, computed once.
#[derive(Debug)]
pub struct Plan {
    n: usize,
    col_start: Vec<usize>,
    rows: Vec<usize>,
    /// Where each stored entry of J, and each diagonal entry, goes in the factor's
    /// storage (the band's array, or the values of dI − cJ's pattern).
    entry_at: Vec<usize>,
    diagonal_at: Vec<usize>,
    layout: Layout,
}

/// Whether a band of widths (kl, ku) is worth its storage for a pattern of `nnz`
/// entries: at most about four values per stored entry and sixteen per state.
/// Tridiagonal (3n entries, 4n stored) qualifies, as does the Brusselator's
/// interleaved band; a 2-D grid's band of width √n does not, and goes to faer.
fn band_pays(n: usize, kl: usize, ku: usize, nnz: usize) -> bool {
    BandLu::<f64>::stored(n, kl, ku) <= 4 * (nnz as u64 + n as u64) + 16 * n as u64
}

impl Plan {
    /// The plan of `jac`'s pattern: the last one made on this thread if the pattern is
    /// the same, else a new one (counted in [`analyses`]). `None` when faer refuses the
    /// pattern (structurally singular).
    pub fn for_pattern(jac: &SparseJacobian) -> Option<Rc<Plan>> {
        if let Some(plan) = LAST.with(|l| l.borrow().clone()) {
            if plan.matches(jac) {
                return Some(plan);
            }
        }
        let plan = Rc::new(Plan::analyse(jac)?);
        ANALYSES.with(|a| a.set(a.get() + 1));
        LAST.with(|l| *l.borrow_mut() = Some(plan.clone()));
        Some(plan)
    }

    /// Whether `jac` has this plan's pattern.
    pub fn matches(&self, jac: &SparseJacobian) -> bool {
        self.n == jac.n && self.col_start == jac.col_start && self.rows == jac.rows
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The plan of `jac`'s pattern, made for a caller that keeps it (not counted in
    /// [`analyses`], not kept as this thread's last plan).
    pub fn analyse(jac: &SparseJacobian) -> Option<Plan> {
        let n = jac.n;
        let (col_start, rows) = (&jac.col_start, &jac.rows);
        let nnz = rows.len();
        let (kl, ku) = band::bandwidths(col_start, rows, None);
        let band = if band_pays(n, kl, ku, nnz) {
            Some((kl, ku, None))
        } else {
            let order = band::reverse_cuthill_mckee(n, col_start, rows);
            let mut new_of = vec![0; n];
            for (new, &old) in order.iter().enumerate() {
                new_of[old] = new;
            }
            let (kl, ku) = band::bandwidths(col_start, rows, Some(&new_of));
            band_pays(n, kl, ku, nnz).then_some((kl, ku, Some((order, new_of))))
        };
        let mut entry_at = Vec::with_capacity(nnz);
        let mut diagonal_at = Vec::with_capacity(n);
        let layout = match band {
            Some((kl, ku, order)) => {
                let ld = 2 * kl + ku + 1;
                let new = |k: usize| order.as_ref().map_or(k, |(_, new_of)| new_of[k]);
                let at = |i: usize, j: usize| new(j) * ld + kl + ku + new(i) - new(j);
                for j in 0..n {
                    for &i in &rows[col_start[j]..col_start[j + 1]] {
                        entry_at.push(at(i, j));
                    }
                    diagonal_at.push(at(j, j));
                }
                Layout::Band {
                    kl,
                    ku,
                    order: order.map(|(order, _)| order),
                }
            }
            None => {
                // J's pattern with every diagonal entry, rows sorted in each column.
                let mut m_start = Vec::with_capacity(n + 1);
                let mut m_rows = Vec::with_capacity(nnz + n);
                m_start.push(0);
                for j in 0..n {
                    let col = &rows[col_start[j]..col_start[j + 1]];
                    let mut diagonal_done = false;
                    for &i in col {
                        if !diagonal_done && i >= j {
                            if i > j {
                                diagonal_at.push(m_rows.len());
                                m_rows.push(j);
                            }
                            diagonal_done = true;
                        }
                        if i == j {
                            diagonal_at.push(m_rows.len());
                        }
                        entry_at.push(m_rows.len());
                        m_rows.push(i);
                    }
                    if !diagonal_done {
                        diagonal_at.push(m_rows.len());
                        m_rows.push(j);
                    }
                    m_start.push(m_rows.len());
                }
                let pattern = SymbolicSparseColMat::new_checked(n, n, m_start, None, m_rows);
                let symbolic = SymbolicLu::try_new(pattern.as_ref()).ok()?;
                Layout::General { pattern, symbolic }
            }
        };
        Some(Plan {
            n,
            col_start: col_start.clone(),
            rows: rows.clone(),
            entry_at,
            diagonal_at,
            layout,
        })
    }
}

/// The numbers a factorisation needs besides the plan.
enum Store<T: Entry + faer::traits::ComplexField> {
    Band(BandLu<T>),
    General {
        values: Vec<T>,
        lu: Option<Box<Lu<usize, T>>>,
    },
}

/// dI − cJ factorised on a [`Plan`], in storage kept across factorisations.
pub struct Factors<T: Entry + faer::traits::ComplexField> {
    plan: Rc<Plan>,
    store: Store<T>,
    /// The right-hand side in the band's numbering, when it has its own.
    scratch: RefCell<Vec<T>>,
}

impl<T: Entry + faer::traits::ComplexField> Factors<T> {
    pub fn new(plan: Rc<Plan>) -> Self {
        let store = match &plan.layout {
            Layout::Band { kl, ku, .. } => Store::Band(BandLu::new(plan.n, *kl, *ku)),
            Layout::General { pattern, .. } => Store::General {
                values: vec![T::ZERO; pattern.row_idx().len()],
                lu: None,
            },
        };
        let scratch = match &plan.layout {
            Layout::Band { order: Some(_), .. } => vec![T::ZERO; plan.n],
            _ => Vec::new(),
        };
        Self {
            plan,
            store,
            scratch: RefCell::new(scratch),
        }
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Factorises dI − cJ (J with this plan's pattern): entry (i, j) is −c·Jᵢⱼ, and
    /// d + (−c·Jᵢᵢ) on the diagonal. False for a non-finite entry or a singular matrix.
    pub fn factor(&mut self, jac: &SparseJacobian, d: T, c: f64) -> bool {
        let plan = &*self.plan;
        let fill = |values: &mut [T]| {
            values.iter_mut().for_each(|v| *v = T::ZERO);
            for &at in &plan.diagonal_at {
                values[at] = d;
            }
            for (&at, &v) in plan.entry_at.iter().zip(&jac.values) {
                values[at] += T::from_real(-c * v);
            }
        };
        match &mut self.store {
            Store::Band(lu) => {
                fill(lu.entries_mut());
                lu.factor()
            }
            Store::General { values, lu } => {
                *lu = None;
                fill(values);
                if !values.iter().all(|v| Entry::finite(*v)) {
                    return false;
                }
                let Layout::General { pattern, symbolic } = &plan.layout else {
                    return false;
                };
                let m = SparseColMatRef::new(pattern.as_ref(), values);
                *lu = Lu::try_new_with_symbolic(symbolic.clone(), m)
                    .ok()
                    .map(Box::new);
                lu.is_some()
            }
        }
    }

    /// The smallest and largest pivot sizes of a band factorisation (`None` for faer's).
    pub fn pivot_range(&self) -> Option<(f64, f64)> {
        match &self.store {
            Store::Band(lu) => Some(lu.pivot_range()),
            Store::General { .. } => None,
        }
    }

    /// Solves (dI − cJ) x = b in place (after a successful [`Factors::factor`]; the
    /// caller checks x for non-finite entries).
    pub fn solve(&self, b: &mut [T]) {
        let n = self.plan.n;
        match &self.store {
            Store::Band(lu) => match &self.plan.layout {
                Layout::Band {
                    order: Some(order), ..
                } => {
                    let mut x = self.scratch.borrow_mut();
                    for (xk, &old) in x.iter_mut().zip(order) {
                        *xk = b[old];
                    }
                    lu.solve(&mut x);
                    for (&xk, &old) in x.iter().zip(order) {
                        b[old] = xk;
                    }
                }
                _ => lu.solve(b),
            },
            Store::General { lu: Some(lu), .. } => {
                let col = faer::MatMut::from_column_major_slice_mut(&mut b[..n], n, 1);
                lu.solve_in_place(col);
            }
            // Not factored: NaN, which the caller reports as a singular matrix.
            Store::General { lu: None, .. } => {
                b.iter_mut().for_each(|v| *v = T::from_real(f64::NAN));
            }
        }
    }
}
