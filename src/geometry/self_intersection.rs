//! Finding where a triangle mesh crosses itself: pairs of triangles that share no vertex and
//! whose interiors meet (an edge of one passes through the other). Candidates come from a
//! uniform grid of cells about the size of a triangle, so the search is linear in the mesh size.

use crate::math::{Point3, Vector3};
use std::collections::HashMap;

/// Relative tolerance: an edge must pass through a triangle by more than this fraction of the
/// triangles' size to count (touching is not crossing).
const MARGIN: f64 = 1e-9;

/// The first pair of triangles (input indices, smaller first) that cross each other, and a
/// point where they do; `None` when the surface does not cross itself.
pub fn first_self_intersection(
    vertices: &[Point3],
    triangles: &[[u32; 3]],
) -> Option<(usize, usize, Point3)> {
    if triangles.len() < 2 {
        return None;
    }
    let corners = |t: usize| triangles[t].map(|v| vertices[v as usize]);
    let boxes: Vec<(Point3, Point3)> = (0..triangles.len())
        .map(|t| {
            let [a, b, c] = corners(t);
            (a.inf(&b).inf(&c), a.sup(&b).sup(&c))
        })
        .collect();
    // Cells as large as the mean triangle box's largest side.
    let mean: f64 = boxes.iter().map(|(lo, hi)| (hi - lo).max()).sum::<f64>() / boxes.len() as f64;
    let cell = if mean > 0.0 { mean } else { return None };
    let key = |p: &Point3| p.coords.map(|x| (x / cell).floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    for (t, (lo, hi)) in boxes.iter().enumerate() {
        let (a, b) = (key(lo), key(hi));
        for i in a.x..=b.x {
            for j in a.y..=b.y {
                for k in a.z..=b.z {
                    grid.entry([i, j, k]).or_default().push(t as u32);
                }
            }
        }
    }
    let mut best: Option<(usize, usize, Point3)> = None;
    let mut cells: Vec<&Vec<u32>> = grid.values().collect();
    // Deterministic: the answer must not depend on the hash map's order.
    cells.sort_unstable_by_key(|c| c[0]);
    for members in cells {
        for (k, &s) in members.iter().enumerate() {
            for &t in &members[k + 1..] {
                let (s, t) = (s.min(t) as usize, s.max(t) as usize);
                if best.is_some_and(|(bs, bt, _)| (bs, bt) <= (s, t)) {
                    continue;
                }
                let (bs, bt) = (&boxes[s], &boxes[t]);
                if (0..3).any(|d| bs.1[d] < bt.0[d] || bt.1[d] < bs.0[d]) {
                    continue;
                }
                if triangles[s].iter().any(|v| triangles[t].contains(v)) {
                    continue;
                }
                if let Some(p) = crossing(&corners(s), &corners(t)) {
                    best = Some((s, t, p));
                }
            }
        }
    }
    best
}

/// A point where an edge of one triangle passes through the other, if any.
fn crossing(a: &[Point3; 3], b: &[Point3; 3]) -> Option<Point3> {
    edge_through(a, b).or_else(|| edge_through(b, a))
}

/// A point where an edge of `e` passes through the interior of triangle `t`.
fn edge_through(e: &[Point3; 3], t: &[Point3; 3]) -> Option<Point3> {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let size = (t[1] - t[0]).norm().max((t[2] - t[0]).norm()).max((e[1] - e[0]).norm());
    let len = n.norm();
    if len <= 0.0 {
        return None;
    }
    let n = n / len;
    let tolerance = MARGIN * size;
    for k in 0..3 {
        let (p, q) = (e[k], e[(k + 1) % 3]);
        let (dp, dq) = (n.dot(&(p - t[0])), n.dot(&(q - t[0])));
        // Strictly on both sides of the plane.
        if !((dp > tolerance && dq < -tolerance) || (dp < -tolerance && dq > tolerance)) {
            continue;
        }
        let x = p + (q - p) * (dp / (dp - dq));
        if strictly_inside(&x, t, &n, tolerance) {
            return Some(x);
        }
    }
    None
}

/// Whether `x` (in the plane of `t`, normal `n`) lies inside `t` by more than `tolerance`.
fn strictly_inside(x: &Point3, t: &[Point3; 3], n: &Vector3, tolerance: f64) -> bool {
    (0..3).all(|k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let edge = b - a;
        let inward = n.cross(&edge);
        let len = inward.norm();
        len > 0.0 && inward.dot(&(x - a)) / len > tolerance
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closed octahedron around `c` with half-diagonal `r`.
    fn octahedron(c: [f64; 3], r: f64, offset: u32) -> (Vec<Point3>, Vec<[u32; 3]>) {
        let v = [[r, 0.0, 0.0], [-r, 0.0, 0.0], [0.0, r, 0.0], [0.0, -r, 0.0], [0.0, 0.0, r], [0.0, 0.0, -r]]
            .map(|p| Point3::new(c[0] + p[0], c[1] + p[1], c[2] + p[2]))
            .to_vec();
        let f = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]]
            .map(|t: [u32; 3]| t.map(|i| i + offset))
            .to_vec();
        (v, f)
    }

    #[test]
    fn two_overlapping_solids_cross_and_separate_ones_do_not() {
        let (mut v, mut f) = octahedron([0.0; 3], 1.0, 0);
        let (v2, f2) = octahedron([3.0, 0.0, 0.0], 1.0, 6);
        v.extend(&v2);
        f.extend(&f2);
        assert!(first_self_intersection(&v, &f).is_none(), "apart");
        let (mut v, mut f) = octahedron([0.0; 3], 1.0, 0);
        let (v2, f2) = octahedron([0.7, 0.2, 0.1], 1.0, 6);
        v.extend(&v2);
        f.extend(&f2);
        let (s, t, p) = first_self_intersection(&v, &f).expect("overlapping octahedra cross");
        assert!(s < 8 && t >= 8, "one triangle of each: {s}, {t}");
        assert!(p.coords.norm() < 2.0);
    }
}
