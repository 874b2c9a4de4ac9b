//! A three-point quadrature rule of degree 2 for a convex planar polygon.
//!
//! Any plane region with area A, centroid c and in-plane covariance Σ has a rule with three
//! equal weights A/3 exact for every polynomial of degree ≤ 2: the points c + √2·S·z_i, where
//! S = √Σ (the symmetric square root) and z_i are unit vectors 120° apart. Their mean is c and
//! their covariance is S·(⅓ Σ 2 z_i z_iᵀ)·S = S·S = Σ. For a convex region the points lie
//! inside it (the ellipse (x − c)ᵀΣ⁻¹(x − c) ≤ 2 of a convex plane body is inside the body).
//!
//! It depends only on the region, not on how its boundary is split into vertices, so a vertex
//! that appears on an edge with round-off moves nothing; and it needs 3 points where a fan of
//! m edge-midpoint rules needs 2m.

use crate::math::{Matrix3, Point3, Vector3};

/// The area of the convex polygon `points` (in a plane with unit normal `n`) and the three
/// points of its rule (weight area/3 each); `None` for a polygon of no area. The first point
/// lies from the centroid towards `reference`'s projection on the plane (see [`pair_reference`]);
/// the rule is the same for n and −n. (The queries call [`polygon_rule_in`] with the basis from
/// a [`BasisCache`].)
#[cfg(test)]
pub fn polygon_rule(points: &[Point3], n: &Vector3, reference: &Vector3) -> Option<(f64, [Point3; 3])> {
    polygon_rule_in(points, plane_basis(n, reference))
}

/// The rule of `polygon_rule` in the plane with basis (e1, e2) = `plane_basis(n, reference)`.
pub fn polygon_rule_in(points: &[Point3], (e1, e2): (Vector3, Vector3)) -> Option<(f64, [Point3; 3])> {
    let (area, centroid, offsets) = rule_about_first(points, (&e1, &e2))?;
    let centroid = points[0] + e1 * centroid.0 + e2 * centroid.1;
    let Some(offsets) = offsets else { return Some((area, [centroid; 3])) };
    Some((area, offsets.map(|(u, v)| centroid + e1 * u + e2 * v)))
}

/// The rule of `polygon_rule` in plane coordinates (s, t) = ((x − o)·e1, (x − o)·e2) about the
/// plane's point `origin`: the area and the three points' coordinates.
#[inline]
pub fn rule_in_plane(
    points: &[Point3],
    (e1, e2): (&Vector3, &Vector3),
    origin: &Point3,
) -> Option<(f64, [(f64, f64); 3])> {
    let (area, d, offsets) = rule_about_first(points, (e1, e2))?;
    let r = points[0] - origin;
    let centroid = (r.dot(e1) + d.0, r.dot(e2) + d.1);
    let offsets = offsets.unwrap_or([(0.0, 0.0); 3]);
    Some((area, offsets.map(|(u, v)| (centroid.0 + u, centroid.1 + v))))
}

/// The area of a convex polygon, its centroid's in-plane coordinates relative to its first
/// vertex, and the rule's three points' offsets from the centroid (`None`: all at the
/// centroid, a polygon of no spread); `None` for a polygon of no area.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn rule_about_first(
    points: &[Point3],
    (e1, e2): (&Vector3, &Vector3),
) -> Option<(f64, (f64, f64), Option<[(f64, f64); 3]>)> {
    let m = points.len();
    if m < 3 {
        return None;
    }
    // In-plane coordinates relative to the first vertex (keeps digits far from the origin).
    let x0 = points[0];
    let uv = |k: usize| {
        let r = points[k] - x0;
        (r.dot(e1), r.dot(e2))
    };
    // Fan from the first vertex: for a triangle (0, b, c) with twice-signed area t and
    // s = b + c, ∫x dA = t/6·s and ∫x xᵀ dA = t/24·(b bᵀ + c cᵀ + s sᵀ).
    let (mut twice, mut first, mut second) = (0.0, [0.0; 2], [0.0; 3]);
    let mut b = uv(1);
    for k in 2..m {
        let c = uv(k);
        let t = b.0 * c.1 - b.1 * c.0;
        let s = (b.0 + c.0, b.1 + c.1);
        twice += t;
        first[0] += s.0 * t;
        first[1] += s.1 * t;
        second[0] += (b.0 * b.0 + c.0 * c.0 + s.0 * s.0) * t;
        second[1] += (b.0 * b.1 + c.0 * c.1 + s.0 * s.1) * t;
        second[2] += (b.1 * b.1 + c.1 * c.1 + s.1 * s.1) * t;
        b = c;
    }
    if twice == 0.0 || twice.is_nan() {
        return None;
    }
    // Mean and covariance (the ratios do not depend on the orientation's sign).
    let d = (first[0] / (3.0 * twice), first[1] / (3.0 * twice));
    let (a, b, c) = (
        second[0] / (12.0 * twice) - d.0 * d.0,
        second[1] / (12.0 * twice) - d.0 * d.1,
        second[2] / (12.0 * twice) - d.1 * d.1,
    );
    let area = 0.5 * twice.abs();
    // √ of the 2×2 [[a, b], [b, c]]: (Σ + √det·I)/√(tr + 2√det).
    let root_det = (a * c - b * b).max(0.0).sqrt();
    let scale = (a + c + 2.0 * root_det).max(0.0).sqrt();
    if scale == 0.0 {
        return Some((area, d, None));
    }
    let s = [(a + root_det) / scale, b / scale, (c + root_det) / scale];
    // √2·z_i, z_i at 0°, 120° and 240°: a set symmetric about e1, so that flipping e2 (the
    // normal reversed, as when the pair is swapped) gives the same points.
    const H: f64 = std::f64::consts::SQRT_2;
    const K: f64 = 1.224_744_871_391_589; // √(3/2)
    const L: f64 = std::f64::consts::FRAC_1_SQRT_2;
    let offsets =
        [(H, 0.0), (-L, K), (-L, -K)].map(|(z1, z2)| (s[0] * z1 + s[1] * z2, s[1] * z1 + s[2] * z2));
    Some((area, d, Some(offsets)))
}

/// The last normal's plane basis: the polygons of a pair with a plane (a half space, a large
/// rigid face) share their normal, and its basis costs a square root and a division.
#[derive(Clone, Copy, Debug, Default)]
pub struct BasisCache {
    last: Option<(Vector3, (Vector3, Vector3))>,
}

impl BasisCache {
    /// [`plane_basis`] of `n` about `reference` (the same for every call of one pair).
    #[inline]
    pub fn basis(&mut self, n: &Vector3, reference: &Vector3) -> (Vector3, Vector3) {
        if let Some((m, basis)) = self.last
            && m == *n
        {
            return basis;
        }
        let basis = plane_basis(n, reference);
        self.last = Some((*n, basis));
        basis
    }
}

/// The reference direction of a pair's rules, in the primary's frame. Between two compliant
/// meshes (`p_from_s` given: it rotates the secondary's frame into the primary's) a fixed
/// body-frame direction of each body, summed: the same physical direction whichever body is
/// primary, so swapping the pair leaves the rules' points where they were. Otherwise the
/// primary is always the same body and its own fixed direction serves; then the rules do not
/// turn with the secondary, as the pointwise stiffness assumes. Both move with the scene.
pub fn pair_reference(p_from_s: Option<&crate::math::UnitQuaternion>) -> Vector3 {
    let axis = Vector3::new(1.0, 2.0, 3.0) / 14f64.sqrt();
    match p_from_s {
        Some(rotation) => axis + rotation * axis,
        None => axis,
    }
}

/// An orthonormal basis (e1, e2) of the plane normal to the unit vector `n`, with e1 × e2 = n:
/// e1 along `reference`'s projection on the plane (the same for n and −n); where that
/// projection vanishes, Frisvad's construction about a tilted pole.
pub fn plane_basis(n: &Vector3, reference: &Vector3) -> (Vector3, Vector3) {
    let along = reference - n * reference.dot(n);
    let length = along.norm();
    if length > 1e-6 {
        let e1 = along / length;
        return (e1, n.cross(&e1));
    }
    let m = POLE_ROTATION * n;
    let (b1, b2) = if m.z < -0.999_999_9 {
        (Vector3::new(0.0, -1.0, 0.0), Vector3::new(-1.0, 0.0, 0.0))
    } else {
        let a = 1.0 / (1.0 + m.z);
        let b = -m.x * m.y * a;
        (Vector3::new(1.0 - m.x * m.x * a, b, -m.x), Vector3::new(b, 1.0 - m.y * m.y * a, -m.y))
    };
    (POLE_ROTATION.tr_mul(&b1), POLE_ROTATION.tr_mul(&b2))
}

/// Rotation Q by 1 rad about (1, 2, 3)/√14: the basis is singular at the normal Qᵀ·(−z).
const POLE_ROTATION: Matrix3 = Matrix3::new(
    0.573137855448987,
    -0.6090066421373933,
    0.5482918096085999,
    0.740348840460782,
    0.6716445041915284,
    -0.027879282947946255,
    -0.35127851212351696,
    0.4219058779181122,
    0.8358222520957642,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact for every quadratic on a tilted pentagon: compared with the fan of edge-midpoint
    /// rules (exact to degree 2 as well).
    #[test]
    fn the_rule_integrates_quadratics_exactly_and_its_points_lie_inside() {
        let n = Vector3::new(0.2, -0.3, 0.9).normalize();
        let reference = Vector3::new(0.3, 1.0, -0.2);
        let (e1, e2) = plane_basis(&n, &reference);
        assert!(e1.dot(&n).abs() < 1e-15 && e2.dot(&n).abs() < 1e-15 && e1.dot(&e2).abs() < 1e-15);
        assert!((e1.cross(&e2) - n).norm() < 1e-15);
        let origin = Point3::new(3.0, -1.0, 2.0);
        let polygon: Vec<Point3> = [(0.0, 0.0), (0.04, -0.01), (0.06, 0.02), (0.03, 0.05), (-0.01, 0.03)]
            .iter()
            .map(|&(u, v)| origin + e1 * u + e2 * v)
            .collect();
        let (area, rule) = polygon_rule(&polygon, &n, &reference).unwrap();
        let f = |x: &Point3| {
            let r = x - origin;
            1.0 + 3.0 * r.x - 2.0 * r.y + 40.0 * r.x * r.y + 25.0 * r.z * r.z - 17.0 * r.x * r.x
        };
        let ours: f64 = rule.iter().map(|x| f(x) * area / 3.0).sum();
        let mut expected = 0.0;
        let m = polygon.len();
        for k in 1..m - 1 {
            let t = [polygon[0], polygon[k], polygon[k + 1]];
            let a = 0.5 * (t[1] - t[0]).cross(&(t[2] - t[0])).norm();
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                expected += a / 3.0 * f(&nalgebra::center(&t[i], &t[j]));
            }
        }
        assert!((ours - expected).abs() < 1e-13 * expected.abs(), "{ours} vs {expected}");
        // Inside: on the inner side of every edge.
        for x in &rule {
            for k in 0..m {
                let (a, b) = (polygon[k], polygon[(k + 1) % m]);
                assert!((b - a).cross(&(x - a)).dot(&n) > 0.0);
            }
        }
        // The reversed normal and the reversed vertex order (the pair swapped): the same points.
        let reversed: Vec<Point3> = polygon.iter().rev().copied().collect();
        let (area_r, rule_r) = polygon_rule(&reversed, &(-n), &reference).unwrap();
        assert!((area_r - area).abs() < 1e-15);
        for x in &rule {
            assert!(rule_r.iter().any(|y| (x - y).norm() < 1e-14), "{x} not in {rule_r:?}");
        }
    }

    #[test]
    fn a_polygon_of_no_area_has_no_rule_and_the_basis_is_continuous_along_a_sweep() {
        let n = Vector3::z();
        let segment = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)];
        assert!(polygon_rule(&segment, &n, &Vector3::x()).is_none());
        // The fallback basis (a reference along the normal), along a sweep of normals.
        let mut last = plane_basis(&Vector3::x(), &Vector3::zeros());
        for k in 1..=10_000 {
            let angle = k as f64 * std::f64::consts::TAU / 10_000.0;
            let n = Vector3::new(angle.cos(), angle.sin() * 0.6, angle.sin() * 0.8);
            let basis = plane_basis(&n, &Vector3::zeros());
            assert!((basis.0 - last.0).norm() < 1e-2 && (basis.1 - last.1).norm() < 1e-2, "at {angle}");
            last = basis;
        }
    }
}
