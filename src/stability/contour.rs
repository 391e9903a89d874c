//! The boundary of the region of absolute stability, value = 1 (|R| = 1 or ρ = 1), as
//! polylines in the ξ-plane, by marching squares on the map (`map.rs`).
//!
//! - A grid point is inside when its value is ≤ 1 + [`INSIDE_TOL`]: values that are 1
//!   up to round-off (LLM and midpoint2 on the imaginary axis, |e^{iy}| = 1) count as
//!   stable, so the boundary does not zigzag along such an axis.
//! - A crossing on a cell edge is placed by linear interpolation of the value to 1
//!   (clamped to the edge; an infinite value puts it at the finite end).
//! - Saddle cells (two diagonal corners inside, two outside) are resolved by the mean of
//!   the four corners: if it is inside, the inside corners are joined through the cell;
//!   otherwise they are separated. The same rule on both sides of every edge keeps the
//!   polylines consistent.
//! - Segments are joined through the cell edges they share: every crossing edge belongs to
//!   at most two cells, so each polyline is a walk from edge to edge. A polyline that
//!   comes back to its first edge is closed (its first point is repeated at the end);
//!   others end on the border of the window.

use super::spec::Grid;
use std::collections::HashMap;

/// Values up to 1 + this count as stable (round-off on |ξ-plane| curves where the value
/// is exactly 1).
pub const INSIDE_TOL: f64 = 1e-12;

/// Polylines as flat arrays: polyline k is the points `offsets[k] .. offsets[k + 1]`
/// of `xy` (pairs Re ξ, Im ξ, so its coordinates are `xy[2·offsets[k] .. 2·offsets[k+1]]`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contour {
    pub xy: Vec<f64>,
    /// npolylines + 1 point indices, starting at 0.
    pub offsets: Vec<u32>,
    /// Whether polyline k is closed (its last point repeats its first).
    pub closed: Vec<bool>,
}

impl Contour {
    /// Number of polylines.
    pub fn len(&self) -> usize {
        self.closed.len()
    }

    /// True when there is no boundary in the window.
    pub fn is_empty(&self) -> bool {
        self.closed.is_empty()
    }

    /// The points of polyline k as (Re ξ, Im ξ).
    pub fn polyline(&self, k: usize) -> impl Iterator<Item = (f64, f64)> + '_ {
        let (a, b) = (self.offsets[k] as usize, self.offsets[k + 1] as usize);
        (a..b).map(move |i| (self.xy[2 * i], self.xy[2 * i + 1]))
    }
}

#[inline]
fn inside(v: f64) -> bool {
    v <= 1.0 + INSIDE_TOL
}

/// Where value 1 lies between va (t = 0) and vb (t = 1).
fn crossing(va: f64, vb: f64) -> f64 {
    if !va.is_finite() {
        return 1.0;
    }
    if !vb.is_finite() {
        return 0.0;
    }
    let t = (1.0 - va) / (vb - va);
    if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The value-1 contour of `values` (laid out as in `map.rs`) on `grid`.
pub fn contour(values: &[f64], grid: &Grid) -> Contour {
    let (nx, ny) = (grid.nx, grid.ny);
    debug_assert_eq!(values.len(), nx * ny);
    let v = |ix: usize, iy: usize| values[iy * nx + ix];
    let horizontal = |ix: usize, iy: usize| (iy * (nx - 1) + ix) as u64;
    let vertical = |ix: usize, iy: usize| (ny * (nx - 1) + iy * nx + ix) as u64;
    let mut points: HashMap<u64, (f64, f64)> = HashMap::new();
    let mut segments: Vec<(u64, u64)> = Vec::new();
    for iy in 0..ny - 1 {
        for ix in 0..nx - 1 {
            let c = [v(ix, iy), v(ix + 1, iy), v(ix + 1, iy + 1), v(ix, iy + 1)];
            let case = c
                .iter()
                .enumerate()
                .fold(0u8, |acc, (k, &val)| acc | ((inside(val) as u8) << k));
            if case == 0 || case == 15 {
                continue;
            }
            // Edges: 0 bottom (p0→p1), 1 right (p1→p2), 2 top (p3→p2), 3 left (p0→p3).
            let edge_id = [
                horizontal(ix, iy),
                vertical(ix + 1, iy),
                horizontal(ix, iy + 1),
                vertical(ix, iy),
            ];
            let mut point = |e: usize| {
                let id = edge_id[e];
                points.entry(id).or_insert_with(|| {
                    let (x0, x1, y0, y1) = (grid.x(ix), grid.x(ix + 1), grid.y(iy), grid.y(iy + 1));
                    match e {
                        0 => (x0 + crossing(c[0], c[1]) * (x1 - x0), y0),
                        1 => (x1, y0 + crossing(c[1], c[2]) * (y1 - y0)),
                        2 => (x0 + crossing(c[3], c[2]) * (x1 - x0), y1),
                        _ => (x0, y0 + crossing(c[0], c[3]) * (y1 - y0)),
                    }
                });
                id
            };
            let pairs: &[(usize, usize)] = match case {
                1 | 14 => &[(3, 0)],
                2 | 13 => &[(0, 1)],
                3 | 12 => &[(3, 1)],
                4 | 11 => &[(1, 2)],
                6 | 9 => &[(0, 2)],
                7 | 8 => &[(2, 3)],
                5 | 10 => {
                    let mean = 0.25 * (c[0] + c[1] + c[2] + c[3]);
                    // Case 5: p0, p2 inside. Case 10: p1, p3 inside.
                    let joined = inside(mean);
                    match (case, joined) {
                        (5, true) | (10, false) => &[(0, 1), (2, 3)],
                        _ => &[(3, 0), (1, 2)],
                    }
                }
                _ => &[],
            };
            for &(e1, e2) in pairs {
                let (a, b) = (point(e1), point(e2));
                segments.push((a, b));
            }
        }
    }
    join(&segments, &points)
}

/// Joins segments that share an edge into polylines.
fn join(segments: &[(u64, u64)], points: &HashMap<u64, (f64, f64)>) -> Contour {
    let mut by_edge: HashMap<u64, Vec<usize>> = HashMap::new();
    for (k, &(a, b)) in segments.iter().enumerate() {
        by_edge.entry(a).or_default().push(k);
        by_edge.entry(b).or_default().push(k);
    }
    let mut used = vec![false; segments.len()];
    let mut out = Contour {
        xy: Vec::new(),
        offsets: vec![0],
        closed: Vec::new(),
    };
    // Walks from `edge` away from segment `from`, appending edges, until the chain ends
    // or returns to `stop`.
    let walk = |start_seg: usize, mut edge: u64, stop: u64, used: &mut Vec<bool>| {
        let mut chain = Vec::new();
        let mut seg = start_seg;
        loop {
            if edge == stop {
                return (chain, true);
            }
            let next = by_edge
                .get(&edge)
                .and_then(|list| list.iter().copied().find(|&s| s != seg && !used[s]));
            match next {
                None => return (chain, false),
                Some(s) => {
                    used[s] = true;
                    let (a, b) = segments[s];
                    edge = if a == edge { b } else { a };
                    chain.push(edge);
                    seg = s;
                }
            }
        }
    };
    for k in 0..segments.len() {
        if used[k] {
            continue;
        }
        used[k] = true;
        let (a, b) = segments[k];
        let (forward, closed) = walk(k, b, a, &mut used);
        let mut edges: Vec<u64> = Vec::new();
        if closed {
            edges.push(a);
            edges.push(b);
            edges.extend(forward); // ends with a again
        } else {
            let (backward, _) = walk(k, a, u64::MAX, &mut used);
            edges.extend(backward.iter().rev());
            edges.push(a);
            edges.push(b);
            edges.extend(forward);
        }
        for e in &edges {
            let (x, y) = points[e];
            out.xy.push(x);
            out.xy.push(y);
        }
        out.offsets.push((out.xy.len() / 2) as u32);
        out.closed.push(closed);
    }
    out
}
