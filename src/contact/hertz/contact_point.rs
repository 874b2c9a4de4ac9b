//! The contact point of a flat contact: where the overlap's depth is centred.
//!
//! MPR's witness points are the deepest points of the two shapes. Where the touching features
//! are a face or a line (a box resting on a box, a cylinder lying on a face), "deepest" is a
//! whole set, and the witness points fall anywhere in it: they jump between its ends as the
//! bodies tilt by round-off, and the contact torque jumps with them (a cylinder held between two
//! pads rocks from end to end, and an adaptive integrator crawls through the jumps). Here the
//! point is instead the centroid of the overlap's depth: each body's touching feature is found by
//! support queries along directions tilted about the normal (a face gives its corners, a line its
//! ends, a curved surface a small cap), both are projected on the contact plane, and the depth
//! d(y) between them (affine over each feature) weights the centroid of the region where both
//! features overlap and d > 0. That point moves continuously with the poses, and lies at the
//! deepest point when the bodies tilt onto an edge or a corner. Strictly convex shapes (spheres,
//! ellipsoids) touch at a point: their witness point is kept.

use super::convex_shape::ConvexShape;
use super::minkowski::Posed;
use super::mpr::Contact;
use crate::math::{Isometry3, Point3, Vector3};
use smallvec::SmallVec;

/// Directions tilted about the normal per body, 45° apart: every corner of a rectangular face is
/// the support of one (each corner's cone of directions spans 90°).
const TILTS: usize = 8;

/// tan θ of the tilt = this × √(depth / the shape's bounding radius), at most `MAX_TILT`. The
/// tilt must be large against depth/size, so that a face tilted by less than the depth across
/// it (all of it overlapping) still gives all its corners, and small against √(depth/radius),
/// so that a curved surface's cap between the tilted supports (sagging by radius·θ²/2) stays
/// within the depth: this rule keeps the sag under 5% of the depth.
const TILT_FACTOR: f64 = 0.3;
const MAX_TILT: f64 = 0.25;

type Points = SmallVec<[[f64; 2]; 16]>;

/// A body's touching feature projected on the contact plane: a convex region (a point, a
/// segment or a polygon, counter-clockwise) and the affine height along the normal over it.
struct Feature {
    region: Points,
    height: Affine,
}

/// h(y) = h0 + g·y over the contact plane's coordinates.
#[derive(Clone, Copy)]
struct Affine {
    h0: f64,
    g: [f64; 2],
}

impl Affine {
    fn at(&self, y: [f64; 2]) -> f64 {
        self.h0 + self.g[0] * y[0] + self.g[1] * y[1]
    }
}

/// The contact point of penetrating `a` and `b` (MPR's `contact`): the depth-weighted centroid
/// of the flat overlap, or the witness points' midpoint where a shape is strictly convex or the
/// features do not overlap in a region or a segment.
pub(crate) fn contact_point(
    a: &ConvexShape,
    pose_a: &Isometry3,
    b: &ConvexShape,
    pose_b: &Isometry3,
    contact: &Contact,
) -> Point3 {
    let fallback = contact.point();
    let strictly_convex =
        |s: &ConvexShape| matches!(s, ConvexShape::Sphere { .. } | ConvexShape::Ellipsoid { .. });
    if strictly_convex(a) || strictly_convex(b) {
        return fallback;
    }
    let n = contact.normal;
    let t1 = perpendicular(&n);
    let t2 = n.cross(&t1);
    let origin = fallback;
    // A support point in plane coordinates, with its reach along the direction it was asked for.
    let plane = |p: &Point3, along: &Vector3| {
        let r = p - origin;
        ([r.dot(&t1), r.dot(&t2)], r.dot(along))
    };
    // a's feature is its part farthest along n, b's its part farthest along −n.
    let pa = Posed::new(a, pose_a);
    let pb = Posed::new(b, pose_b);
    let depth = -contact.distance;
    let supports = |posed: &Posed, along: Vector3| -> SmallVec<[([f64; 2], f64); TILTS]> {
        let tilt = (TILT_FACTOR * (depth / posed.shape.bounding_radius()).sqrt()).min(MAX_TILT);
        (0..TILTS)
            .map(|k| {
                let phi = 2.0 * std::f64::consts::PI * (k as f64 + 0.5) / TILTS as f64;
                let d = along + tilt * (phi.cos() * t1 + phi.sin() * t2);
                plane(&posed.support(&d), &along)
            })
            .collect()
    };
    let scale = a.bounding_radius() + b.bounding_radius();
    let (Some(fa), Some(fb)) = (feature(&supports(&pa, n), scale), feature(&supports(&pb, -n), scale)) else {
        return fallback;
    };
    // Depth: a reaches fa.height along n, b reaches fb.height along −n; they overlap by the sum.
    let overlap = Affine {
        h0: fa.height.h0 + fb.height.h0,
        g: [fa.height.g[0] + fb.height.g[0], fa.height.g[1] + fb.height.g[1]],
    };
    let Some(y) = overlap_centroid(&fa.region, &fb.region, &overlap, scale) else { return fallback };
    let h = 0.5 * (fa.height.at(y) - fb.height.at(y));
    origin + y[0] * t1 + y[1] * t2 + h * n
}

/// A unit vector perpendicular to unit `n`, continuous in `n` away from ±x.
fn perpendicular(n: &Vector3) -> Vector3 {
    let helper = if n.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() };
    helper.cross(n).normalize()
}

/// The feature spanned by support points (plane coordinates and reaches): its convex region and
/// the affine reach through its corners (least squares over a polygon's; a segment's along its
/// direction; a point's constant).
fn feature(points: &[([f64; 2], f64)], scale: f64) -> Option<Feature> {
    let (hull, reaches) = hull_2d(points, 1e-9 * scale);
    let height = match hull.len() {
        0 => return None,
        1 => Affine { h0: reaches[0], g: [0.0, 0.0] },
        2 => {
            let (p, q) = (hull[0], hull[1]);
            let e = [q[0] - p[0], q[1] - p[1]];
            let slope = (reaches[1] - reaches[0]) / (e[0] * e[0] + e[1] * e[1]);
            let g = [slope * e[0], slope * e[1]];
            Affine { h0: reaches[0] - g[0] * p[0] - g[1] * p[1], g }
        }
        _ => plane_fit(&hull, &reaches)?,
    };
    Some(Feature { region: hull, height })
}

/// The least-squares plane h = h0 + g·y through points (y, h); `None` when they are collinear.
fn plane_fit(ys: &[[f64; 2]], hs: &[f64]) -> Option<Affine> {
    let m = ys.len() as f64;
    let (cx, cy) = (ys.iter().map(|y| y[0]).sum::<f64>() / m, ys.iter().map(|y| y[1]).sum::<f64>() / m);
    let ch = hs.iter().sum::<f64>() / m;
    let (mut sxx, mut sxy, mut syy, mut sxh, mut syh) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (y, h) in ys.iter().zip(hs) {
        let (dx, dy, dh) = (y[0] - cx, y[1] - cy, h - ch);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
        sxh += dx * dh;
        syh += dy * dh;
    }
    let det = sxx * syy - sxy * sxy;
    if det <= 1e-12 * (sxx * syy).max(f64::MIN_POSITIVE) {
        return None;
    }
    let g = [(sxh * syy - syh * sxy) / det, (syh * sxx - sxh * sxy) / det];
    Some(Affine { h0: ch - g[0] * cx - g[1] * cy, g })
}

/// The convex hull of 2D points with their reaches, counter-clockwise, points closer than `tol`
/// merged (keeping the larger reach): one point, two (a segment) or a polygon.
fn hull_2d(points: &[([f64; 2], f64)], tol: f64) -> (Points, SmallVec<[f64; 16]>) {
    let tol2 = tol * tol;
    let close = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) <= tol2;
    let mut p: SmallVec<[([f64; 2], f64); 16]> = SmallVec::new();
    for &(y, h) in points {
        match p.iter_mut().find(|(q, _)| close(*q, y)) {
            Some(merged) => merged.1 = merged.1.max(h),
            None => p.push((y, h)),
        }
    }
    let split = |v: &[([f64; 2], f64)]| -> (Points, SmallVec<[f64; 16]>) {
        (v.iter().map(|(y, _)| *y).collect(), v.iter().map(|(_, h)| *h).collect())
    };
    if p.len() < 3 {
        return split(&p);
    }
    p.sort_by(|a, b| a.0[0].total_cmp(&b.0[0]).then(a.0[1].total_cmp(&b.0[1])));
    let cross =
        |o: [f64; 2], a: [f64; 2], b: [f64; 2]| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    // Andrew's monotone chain; turns within tol·(the span) count as straight.
    let span = (p[p.len() - 1].0[0] - p[0].0[0]).abs() + tol;
    let mut hull: SmallVec<[([f64; 2], f64); 16]> = SmallVec::new();
    for pass in 0..2 {
        let start = hull.len();
        for k in 0..p.len() {
            let y = if pass == 0 { p[k] } else { p[p.len() - 1 - k] };
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2].0, hull[hull.len() - 1].0, y.0) <= tol * span
            {
                hull.pop();
            }
            hull.push(y);
        }
        hull.pop();
    }
    if hull.len() < 3 {
        // Collinear: the two extreme points.
        return split(&[p[0], p[p.len() - 1]]);
    }
    split(&hull)
}

/// The centroid, weighted by `depth`, of the part of `ra ∩ rb` where depth > 0: regions are
/// polygons or segments (a segment against a polygon is clipped to it); `None` when the overlap
/// is a point, empty or carries no depth.
fn overlap_centroid(ra: &Points, rb: &Points, depth: &Affine, scale: f64) -> Option<[f64; 2]> {
    let (polygon, clip_by) = match (ra.len(), rb.len()) {
        (la, lb) if la >= 3 && lb >= 3 => (ra.clone(), rb),
        (2, lb) if lb >= 3 => (ra.clone(), rb),
        (la, 2) if la >= 3 => (rb.clone(), ra),
        _ => return None,
    };
    let mut region = polygon;
    let m = clip_by.len();
    for k in 0..m {
        let (p, q) = (clip_by[k], clip_by[(k + 1) % m]);
        // Inside: left of p → q (counter-clockwise).
        let side = move |y: [f64; 2]| (q[0] - p[0]) * (y[1] - p[1]) - (q[1] - p[1]) * (y[0] - p[0]);
        region = clip(&region, side);
        if region.is_empty() {
            return None;
        }
    }
    region = clip(&region, |y| depth.at(y));
    let tiny = 1e-12 * scale;
    match region.len() {
        0 | 1 => None,
        2 => {
            // A segment: ∫ d·y ds / ∫ d ds with d linear along it.
            let (p, q) = (region[0], region[1]);
            let (dp, dq) = (depth.at(p), depth.at(q));
            let w = dp + dq;
            if (q[0] - p[0]).hypot(q[1] - p[1]) <= tiny || w <= 0.0 {
                return None;
            }
            let c = |i: usize| (p[i] * (2.0 * dp + dq) + q[i] * (dp + 2.0 * dq)) / (3.0 * w);
            Some([c(0), c(1)])
        }
        _ => {
            // Triangles fanned from the first vertex: ∫ d over a triangle is A·(d1 + d2 + d3)/3
            // and ∫ d·y is A/12·(Σ dᵢyᵢ + (Σ dᵢ)(Σ yᵢ)).
            let (mut weight, mut moment) = (0.0, [0.0, 0.0]);
            let o = region[0];
            for k in 1..region.len() - 1 {
                let (b, c) = (region[k], region[k + 1]);
                let area = 0.5 * ((b[0] - o[0]) * (c[1] - o[1]) - (b[1] - o[1]) * (c[0] - o[0]));
                let d = [depth.at(o), depth.at(b), depth.at(c)];
                let sum = d[0] + d[1] + d[2];
                weight += area * sum / 3.0;
                for i in 0..2 {
                    moment[i] +=
                        area / 12.0 * (d[0] * o[i] + d[1] * b[i] + d[2] * c[i] + sum * (o[i] + b[i] + c[i]));
                }
            }
            (weight > 0.0).then(|| [moment[0] / weight, moment[1] / weight])
        }
    }
}

/// The part of a convex polygon or segment where `value ≥ 0` (Sutherland–Hodgman for one line;
/// a segment stays a segment).
fn clip(points: &Points, value: impl Fn([f64; 2]) -> f64) -> Points {
    let mut out: Points = SmallVec::new();
    let n = points.len();
    let edges = if n == 2 { 1 } else { n };
    let lerp = |p: [f64; 2], q: [f64; 2], vp: f64, vq: f64| {
        let t = vp / (vp - vq);
        [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]
    };
    if n == 2 {
        let (p, q) = (points[0], points[1]);
        let (vp, vq) = (value(p), value(q));
        match (vp >= 0.0, vq >= 0.0) {
            (true, true) => out.extend([p, q]),
            (true, false) => out.extend([p, lerp(p, q, vp, vq)]),
            (false, true) => out.extend([lerp(p, q, vp, vq), q]),
            (false, false) => {}
        }
        return out;
    }
    for k in 0..edges {
        let (p, q) = (points[k], points[(k + 1) % n]);
        let (vp, vq) = (value(p), value(q));
        if vp >= 0.0 {
            out.push(p);
        }
        if (vp >= 0.0) != (vq >= 0.0) {
            out.push(lerp(p, q, vp, vq));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::hertz::{MprTolerances, signed_distance};
    use crate::math::{Translation3, UnitQuaternion};

    fn pose(x: f64, y: f64, z: f64, rotation: UnitQuaternion) -> Isometry3 {
        Isometry3::from_parts(Translation3::new(x, y, z), rotation)
    }

    fn point(a: &ConvexShape, pa: &Isometry3, b: &ConvexShape, pb: &Isometry3) -> Point3 {
        let c = signed_distance(a, pa, b, pb, &MprTolerances::default()).unwrap();
        assert!(c.distance < 0.0);
        contact_point(a, pa, b, pb, &c)
    }

    #[test]
    fn a_cylinder_lying_on_a_box_touches_at_the_middle_of_the_shared_line_and_moves_smoothly() {
        // A pencil (r 4 mm, 18 cm, along x) 0.05 mm into a pad's face (3 cm square, centred at
        // x = 0.05): the line of contact is x ∈ [0.035, 0.065], so the point is at x = 0.05.
        let pencil = ConvexShape::Cylinder { radius: 0.004, half_length: 0.09, smoothing: 0.0 };
        let pad = ConvexShape::Box { half: Vector3::new(0.015, 0.005, 0.015), smoothing: 0.0 };
        let along_x = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
        let pad_pose = pose(0.05, 0.009 - 0.00005, 0.0, UnitQuaternion::identity());
        let mut last: Option<Point3> = None;
        for k in -20..=20 {
            // Tilt the pencil about the pad's normal's perpendicular (z) by up to ±2e-4 rad: its
            // deepest point runs from one end of the shared line to the other.
            let tilt = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 1e-5 * k as f64);
            let p = point(&pencil, &pose(0.0, 0.0, 0.0, tilt * along_x), &pad, &pad_pose);
            assert!(p.x > 0.035 && p.x < 0.065, "{p}");
            if k == 0 {
                assert!((p.x - 0.05).abs() < 1e-6, "{p}");
            }
            if let Some(q) = last {
                assert!((p - q).norm() < 1.5e-3, "a jump from {q} to {p} at step {k}");
            }
            last = Some(p);
        }
    }

    #[test]
    fn a_box_resting_on_a_box_touches_under_its_centre() {
        let floor = ConvexShape::Box { half: Vector3::new(1.0, 1.0, 0.1), smoothing: 0.0 };
        let block = ConvexShape::Box { half: Vector3::new(0.05, 0.05, 0.05), smoothing: 0.0 };
        let floor_pose = pose(0.0, 0.0, -0.1, UnitQuaternion::identity());
        let spin = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3);
        let p = point(&block, &pose(0.2, -0.1, 0.0499, spin), &floor, &floor_pose);
        assert!((p.x - 0.2).abs() < 1e-9 && (p.y + 0.1).abs() < 1e-9, "{p}");
        // Swapped, the same point.
        let q = point(&floor, &floor_pose, &block, &pose(0.2, -0.1, 0.0499, spin));
        assert!((p - q).norm() < 1e-9, "{p} vs {q}");
        // Tilted onto an edge (0.1 rad, far beyond the depth): the point is on that edge.
        let tilted = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.1);
        let low_edge_z = 0.05 * (0.1f64.cos() + 0.1f64.sin()) - 1e-4;
        let p = point(&block, &pose(0.0, 0.0, low_edge_z, tilted), &floor, &floor_pose);
        let edge_x = 0.05 * (0.1f64.cos() - 0.1f64.sin());
        assert!((p.x - edge_x).abs() < 1e-3 && p.y.abs() < 1e-9, "{p} (edge at x = {edge_x})");
    }
}
