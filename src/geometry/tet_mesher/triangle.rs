//! Point and segment queries against one triangle.

use crate::math::{Point3, Vector3};

/// The point of triangle `[a, b, c]` nearest to `p`, found by testing which Voronoi region of
/// the triangle (a vertex, an edge or the face) holds `p`.
pub(crate) fn closest_point(p: &Point3, [a, b, c]: &[Point3; 3]) -> Point3 {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * ratio(d1, d1 - d3);
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * ratio(d2, d2 - d6);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ratio(d4 - d3, (d4 - d3) + (d5 - d6));
    }
    let sum = va + vb + vc;
    if sum.abs() > 0.0 && sum.is_finite() {
        a + ab * (vb / sum) + ac * (vc / sum)
    } else {
        // A degenerate (zero-area) triangle: the nearest of its vertices is close enough.
        nearest_vertex(p, [a, b, c])
    }
}

/// `num / den` clamped to [0, 1]; 0 for a zero denominator (a zero-length edge).
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 { (num / den).clamp(0.0, 1.0) } else { 0.0 }
}

fn nearest_vertex(p: &Point3, v: [&Point3; 3]) -> Point3 {
    let mut best = *v[0];
    for q in &v[1..] {
        if (*q - p).norm_squared() < (best - p).norm_squared() {
            best = **q;
        }
    }
    best
}

/// The solid angle (sr) that triangle `[a, b, c]` subtends at `p`, positive when `p` is behind
/// the triangle (on the side opposite `(b − a) × (c − a)`), by Van Oosterom and Strackee's
/// formula.
pub(crate) fn solid_angle(p: &Point3, [a, b, c]: &[Point3; 3]) -> f64 {
    let (x, y, z) = (a - p, b - p, c - p);
    let (lx, ly, lz) = (x.norm(), y.norm(), z.norm());
    let num = x.dot(&y.cross(&z));
    let den = lx * ly * lz + x.dot(&y) * lz + x.dot(&z) * ly + y.dot(&z) * lx;
    2.0 * num.atan2(den)
}

/// Where the segment `a + t·(b − a)`, `t ∈ [0, 1]`, meets the triangle, as `t`. Points on the
/// triangle's edges count (within a relative tolerance), so a segment through an edge shared by
/// two triangles is not missed between them.
pub(crate) fn segment_hit(a: &Point3, d: &Vector3, [p, q, r]: &[Point3; 3]) -> Option<f64> {
    const EDGE_TOLERANCE: f64 = 1e-10;
    let e1 = q - p;
    let e2 = r - p;
    let s = d.cross(&e2);
    let det = e1.dot(&s);
    // Parallel (or degenerate): a segment within the triangle's plane touches it only where it
    // also crosses a neighbouring triangle, so nothing is lost by skipping it.
    if det.abs() <= f64::EPSILON * e1.norm() * e2.norm() * d.norm() || !det.is_finite() {
        return None;
    }
    let inv = 1.0 / det;
    let w = a - p;
    let u = w.dot(&s) * inv;
    if !(-EDGE_TOLERANCE..=1.0 + EDGE_TOLERANCE).contains(&u) {
        return None;
    }
    let wq = w.cross(&e1);
    let v = d.dot(&wq) * inv;
    if v < -EDGE_TOLERANCE || u + v > 1.0 + EDGE_TOLERANCE {
        return None;
    }
    let t = e2.dot(&wq) * inv;
    (0.0..=1.0).contains(&t).then_some(t)
}
