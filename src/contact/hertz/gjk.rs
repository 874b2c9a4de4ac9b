//! Distance between separated convex sets: the Gilbert–Johnson–Keerthi iteration on the
//! support function of `A − B`, with the closest point of each simplex found by enumerating its
//! faces (at most 15) rather than by Johnson's recursive tests, which is simpler to make robust.

use super::minkowski::{Difference, Vertex, not_above};
use crate::math::{Point3, Vector3};

/// Why a distance iteration stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GjkStop {
    /// Upper and lower bounds on the distance agree within the tolerance.
    Converged,
    /// The origin is in (or within the overlap tolerance of) `A − B`.
    Overlap,
    /// No further progress possible in floating point before the bounds met.
    Stalled,
    /// The iteration cap was hit.
    IterationCap,
}

/// Result of [`gjk_distance`]: `v` is the point of `A − B` nearest the origin found so far,
/// `pa − pb = v` its witness points.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GjkResult {
    pub v: Vector3,
    pub pa: Point3,
    pub pb: Point3,
    /// Upper minus lower bound on the distance when the iteration stopped (m).
    pub gap: f64,
    pub stop: GjkStop,
}

/// Runs GJK until the distance bounds differ by at most `tol`, the distance falls below
/// `overlap_tol`, or `max_iterations` support queries were made.
pub(crate) fn gjk_distance(diff: &Difference, tol: f64, overlap_tol: f64, max_iterations: u32) -> GjkResult {
    let mut start = -diff.interior().w;
    if not_above(start.norm_squared(), 0.0) {
        start = Vector3::x();
    }
    let w0 = diff.support(&start);
    let mut simplex: Vec<Vertex> = vec![w0];
    let mut lambda = [1.0, 0.0, 0.0, 0.0];
    let mut v = w0.w;
    let mut gap = f64::INFINITY;
    let result = |simplex: &[Vertex], lambda: &[f64; 4], v: Vector3, gap: f64, stop: GjkStop| {
        let mut pa = Vector3::zeros();
        let mut pb = Vector3::zeros();
        for (p, l) in simplex.iter().zip(lambda) {
            pa += p.a.coords * *l;
            pb += p.b.coords * *l;
        }
        GjkResult { v, pa: Point3::from(pa), pb: Point3::from(pb), gap, stop }
    };
    for _ in 0..max_iterations {
        let vv = v.norm_squared();
        let vn = vv.sqrt();
        if !vn.is_finite() {
            return result(&simplex, &lambda, v, f64::INFINITY, GjkStop::Stalled);
        }
        if vn <= overlap_tol {
            return result(&simplex, &lambda, v, gap, GjkStop::Overlap);
        }
        let w = diff.support(&-v);
        gap = (vv - v.dot(&w.w)) / vn;
        if gap <= tol {
            return result(&simplex, &lambda, v, gap.max(0.0), GjkStop::Converged);
        }
        // A repeated support point means the simplex cannot grow: round-off has the last word.
        if simplex.iter().any(|p| (p.w - w.w).norm_squared() <= (1e-15 * (vn + w.w.norm())).powi(2)) {
            return result(&simplex, &lambda, v, gap, GjkStop::Stalled);
        }
        let mut candidate = simplex.clone();
        candidate.push(w);
        let pts: Vec<Vector3> = candidate.iter().map(|p| p.w).collect();
        let Some((v_new, lam, mask)) = closest_on_hull(&pts) else {
            return result(&simplex, &lambda, v, gap, GjkStop::Stalled);
        };
        if mask == (1 << pts.len()) - 1 && pts.len() == 4 {
            return result(&candidate, &lam, v_new, gap, GjkStop::Overlap);
        }
        if not_above(vv, v_new.norm_squared()) {
            return result(&simplex, &lambda, v, gap, GjkStop::Stalled);
        }
        simplex.clear();
        lambda = [0.0; 4];
        for (i, p) in candidate.iter().enumerate() {
            if mask & (1 << i) != 0 {
                lambda[simplex.len()] = lam[i];
                simplex.push(*p);
            }
        }
        v = v_new;
    }
    result(&simplex, &lambda, v, gap, GjkStop::IterationCap)
}

/// The point of the convex hull of `pts` (1 to 4 points) nearest the origin, its barycentric
/// coordinates (indexed like `pts`) and the bit mask of the points with positive weight.
///
/// The nearest point lies in the relative interior of some face, where it is the projection
/// of the origin onto that face's affine hull with positive weights; every other face whose
/// projection has positive weights gives a hull point no nearer. So the minimum over all faces
/// with positive weights is the answer, and nearly degenerate faces can simply be skipped.
pub(crate) fn closest_on_hull(pts: &[Vector3]) -> Option<(Vector3, [f64; 4], u32)> {
    let n = pts.len().min(4);
    let mut best: Option<(f64, Vector3, [f64; 4], u32)> = None;
    for mask in 1u32..(1 << n) {
        let mut sub = [Vector3::zeros(); 4];
        let mut ids = [0usize; 4];
        let mut k = 0;
        for i in 0..n {
            if mask & (1 << i) != 0 {
                sub[k] = pts[i];
                ids[k] = i;
                k += 1;
            }
        }
        let Some(weights) = affine_projection(&sub[..k]) else {
            continue;
        };
        if weights.iter().take(k).any(|&l| not_above(l, 0.0)) {
            continue;
        }
        let mut lam = [0.0; 4];
        let mut v = Vector3::zeros();
        for j in 0..k {
            lam[ids[j]] = weights[j];
            v += sub[j] * weights[j];
        }
        let d = v.norm_squared();
        if d.is_finite() && best.as_ref().is_none_or(|b| d < b.0) {
            best = Some((d, v, lam, mask));
        }
    }
    best.map(|(_, v, lam, mask)| (v, lam, mask))
}

/// Barycentric weights of the origin's projection onto the affine hull of 1–4 points, or
/// `None` when the points are (nearly) affinely dependent.
fn affine_projection(p: &[Vector3]) -> Option<[f64; 4]> {
    // Sine of the smallest angle of a face still treated as spanning its dimension.
    const DEGENERATE: f64 = 1e-11;
    match p.len() {
        1 => Some([1.0, 0.0, 0.0, 0.0]),
        2 => {
            let e = p[1] - p[0];
            let ee = e.norm_squared();
            if not_above(ee, 0.0) {
                return None;
            }
            let t = -p[0].dot(&e) / ee;
            Some([1.0 - t, t, 0.0, 0.0])
        }
        3 => {
            // Cross products keep their relative accuracy on slivers, unlike the Gram determinant.
            let (e1, e2) = (p[1] - p[0], p[2] - p[0]);
            let n = e1.cross(&e2);
            let nn = n.norm_squared();
            if not_above(nn, (DEGENERATE * e1.norm() * e2.norm()).powi(2)) {
                return None;
            }
            let q = n * (n.dot(&p[0]) / nn);
            let l0 = (p[1] - q).cross(&(p[2] - q)).dot(&n) / nn;
            let l1 = (p[2] - q).cross(&(p[0] - q)).dot(&n) / nn;
            Some([l0, l1, 1.0 - l0 - l1, 0.0])
        }
        4 => {
            let (e1, e2, e3) = (p[1] - p[0], p[2] - p[0], p[3] - p[0]);
            let det = e1.dot(&e2.cross(&e3));
            if not_above(det.abs(), DEGENERATE * e1.norm() * e2.norm() * e3.norm()) || !det.is_finite() {
                return None;
            }
            // Solve p0 + m1 e1 + m2 e2 + m3 e3 = 0 by Cramer's rule.
            let r = -p[0];
            let m1 = r.dot(&e2.cross(&e3)) / det;
            let m2 = e1.dot(&r.cross(&e3)) / det;
            let m3 = e1.dot(&e2.cross(&r)) / det;
            Some([1.0 - m1 - m2 - m3, m1, m2, m3])
        }
        _ => None,
    }
}
