//! Narrow phase: signed distance, normal and witness points of two convex shapes.
//!
//! Everything works on `D = A − B` through support functions, in `f64`:
//!
//! * **Separated or shallow** (the common case, every contact of rounded shapes whose
//!   penetration is below the sum of the margins): the distance between the *cores* by GJK
//!   (`gjk.rs`) minus the margins. This is the exact Euclidean signed distance, smooth
//!   through zero, so contact start can be located in time by root finding.
//! * **Cores overlap**: Minkowski Portal Refinement (XenoCollide, Snethen, Game Programming
//!   Gems 7) on the whole shapes finds a portal of `D` hit by the ray from an interior point
//!   through the origin; its depth and normal are the classic MPR estimate. The final
//!   tetrahedron then seeds a polytope expansion (`epa.rs`) that turns the estimate into
//!   the true minimum translation depth; if that fails the MPR estimate is returned, flagged.
//!
//! Sphere–sphere is analytic. Witness points on spheres and ellipsoids are their support
//! points along the normal, so they lie exactly on the surface.

use super::collision_error::{Body, MprError};
use super::convex_shape::ConvexShape;
use super::epa::{barycentric, expand_polytope};
use super::gjk::{GjkStop, gjk_distance};
use super::minkowski::{Difference, Posed, Vertex, not_above};
use crate::math::{Isometry3, Point3, Vector3};
use std::sync::atomic::{AtomicU64, Ordering};

/// Tolerances of the narrow phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MprTolerances {
    /// Absolute tolerance on the distance (m): iterations stop once upper and lower bounds
    /// differ by less. It is raised to `16 ε · scale` (scale = sizes + centre distance) where
    /// smaller would be below round-off.
    pub distance: f64,
    /// Hard cap on support queries of each iterative stage (GJK, MPR discovery, MPR
    /// refinement, polytope expansion).
    pub max_iterations: u32,
}

impl Default for MprTolerances {
    fn default() -> Self {
        Self { distance: 1e-12, max_iterations: 100 }
    }
}

/// Why a result is only a best estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EstimateReason {
    /// An iteration cap was hit before the bounds met.
    IterationCap,
    /// Round-off stopped progress before the bounds met.
    Stalled,
    /// The portal or polytope became flat; the MPR portal estimate is returned.
    Degenerate,
    /// Concentric spheres: the normal is arbitrary (+z).
    CoincidentCentres,
    /// The stages disagree on whether the shapes touch: they are within round-off of touching.
    Touching,
}

/// How far a [`Contact`] can be trusted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quality {
    /// Distance within the tolerance.
    Converged,
    /// Best estimate; `bound` is the width of the remaining distance bracket (m), or infinity
    /// when unknown.
    BestEstimate { reason: EstimateReason, bound: f64 },
}

/// The result of a narrow-phase query, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Signed distance (m): positive when separated, `−depth` when penetrating.
    pub distance: f64,
    /// Unit contact normal, pointing from `a` towards `b`.
    pub normal: Vector3,
    /// Witness point on `a` (nearest to `b`, or deepest inside `b`).
    pub point_a: Point3,
    /// Witness point on `b`.
    pub point_b: Point3,
    pub quality: Quality,
}

impl Contact {
    /// The contact point: the midpoint of the witness points.
    pub fn point(&self) -> Point3 {
        Point3::from((self.point_a.coords + self.point_b.coords) / 2.0)
    }

    pub fn is_converged(&self) -> bool {
        self.quality == Quality::Converged
    }
}

/// Counters of queries, flagged estimates and errors; shareable between threads.
#[derive(Debug, Default)]
pub struct MprStats {
    queries: AtomicU64,
    best_estimates: AtomicU64,
    errors: AtomicU64,
}

/// A snapshot of [`MprStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MprCounts {
    pub queries: u64,
    pub best_estimates: u64,
    pub errors: u64,
}

impl MprStats {
    /// Counts one query result.
    pub fn record(&self, result: &Result<Contact, MprError>) {
        self.queries.fetch_add(1, Ordering::Relaxed);
        match result {
            Ok(c) if !c.is_converged() => {
                self.best_estimates.fetch_add(1, Ordering::Relaxed);
            }
            Ok(_) => {}
            Err(_) => {
                self.errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    pub fn counts(&self) -> MprCounts {
        MprCounts {
            queries: self.queries.load(Ordering::Relaxed),
            best_estimates: self.best_estimates.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
        }
    }
}

/// [`signed_distance`], counted in `stats`.
pub fn signed_distance_counted(
    a: &ConvexShape,
    pose_a: &Isometry3,
    b: &ConvexShape,
    pose_b: &Isometry3,
    tol: &MprTolerances,
    stats: &MprStats,
) -> Result<Contact, MprError> {
    let r = signed_distance(a, pose_a, b, pose_b, tol);
    stats.record(&r);
    r
}

/// Signed distance, normal (from `a` to `b`) and witness points of two posed convex shapes.
/// Never panics and never returns NaN: bad input is an error, doubtful output is flagged.
pub fn signed_distance(
    a: &ConvexShape,
    pose_a: &Isometry3,
    b: &ConvexShape,
    pose_b: &Isometry3,
    tol: &MprTolerances,
) -> Result<Contact, MprError> {
    a.validate_quick().map_err(|source| MprError::Shape { body: Body::A, source })?;
    b.validate_quick().map_err(|source| MprError::Shape { body: Body::B, source })?;
    check_pose(pose_a).map_err(|reason| MprError::Pose { body: Body::A, reason })?;
    check_pose(pose_b).map_err(|reason| MprError::Pose { body: Body::B, reason })?;
    let contact = match (a, b) {
        (ConvexShape::Sphere { radius: ra }, ConvexShape::Sphere { radius: rb }) => {
            sphere_sphere(pose_a, *ra, pose_b, *rb)
        }
        _ => general(a, pose_a, b, pose_b, tol)?,
    };
    let finite = contact.distance.is_finite()
        && contact.normal.iter().all(|c| c.is_finite())
        && contact.point_a.coords.iter().all(|c| c.is_finite())
        && contact.point_b.coords.iter().all(|c| c.is_finite());
    if finite { Ok(contact) } else { Err(MprError::NonFinite { stage: "final result" }) }
}

fn check_pose(pose: &Isometry3) -> Result<(), &'static str> {
    if !pose.translation.vector.iter().all(|c| c.is_finite()) {
        return Err("translation is not finite");
    }
    let q = pose.rotation.quaternion();
    if !q.coords.iter().all(|c| c.is_finite()) {
        return Err("rotation is not finite");
    }
    if (q.norm() - 1.0).abs() > 1e-6 {
        return Err("rotation quaternion is not of unit length");
    }
    Ok(())
}

fn sphere_sphere(pose_a: &Isometry3, ra: f64, pose_b: &Isometry3, rb: f64) -> Contact {
    let (ca, cb) = (pose_a.translation.vector, pose_b.translation.vector);
    let d = cb - ca;
    let len = d.norm();
    let (normal, quality) = if len > 0.0 {
        (d / len, Quality::Converged)
    } else {
        let reason = EstimateReason::CoincidentCentres;
        (Vector3::z(), Quality::BestEstimate { reason, bound: 0.0 })
    };
    Contact {
        distance: len - ra - rb,
        normal,
        point_a: Point3::from(ca + ra * normal),
        point_b: Point3::from(cb - rb * normal),
        quality,
    }
}

fn general(
    a: &ConvexShape,
    pose_a: &Isometry3,
    b: &ConvexShape,
    pose_b: &Isometry3,
    tol: &MprTolerances,
) -> Result<Contact, MprError> {
    let pa = Posed::new(a, pose_a);
    let pb = Posed::new(b, pose_b);
    let centre_gap = (pa.interior_point() - pb.interior_point()).norm();
    let scale = a.bounding_radius() + b.bounding_radius() + centre_gap;
    if !scale.is_finite() {
        return Err(MprError::NonFinite { stage: "shape size" });
    }
    let eps = tol.distance.max(16.0 * f64::EPSILON * scale);
    let max_it = tol.max_iterations.max(1);
    let margins = a.margin() + b.margin();
    // Below this core distance the core normal −v/|v| would lose digits; MPR takes over.
    let overlap_tol = if margins > 0.0 { 1e-8 * scale } else { 16.0 * f64::EPSILON * scale };

    let cores = Difference { a: &pa, b: &pb, with_margins: false };
    let g = gjk_distance(&cores, eps, overlap_tol, max_it);
    let mut contact = if g.stop != GjkStop::Overlap {
        let dist = g.v.norm();
        let normal = -g.v / dist;
        let quality = match g.stop {
            GjkStop::Converged => Quality::Converged,
            // A stall is round-off's last word: the direction of a short `v` carries an error
            // of about ε·scale/|v|, which tilts the lower bound by that much times the size of
            // the support points. Within that, the bracket cannot close further.
            GjkStop::Stalled if g.gap <= 1e3 * eps + 64.0 * f64::EPSILON * scale * scale / dist => {
                Quality::Converged
            }
            GjkStop::Stalled => Quality::BestEstimate { reason: EstimateReason::Stalled, bound: g.gap },
            _ => Quality::BestEstimate { reason: EstimateReason::IterationCap, bound: g.gap },
        };
        Contact {
            distance: dist - margins,
            normal,
            point_a: g.pa + a.margin() * normal,
            point_b: g.pb - b.margin() * normal,
            quality,
        }
    } else {
        // Polytope cores (boxes, hulls, a sphere's point against them) give exact answers in
        // finitely many steps, far better than the rounded whole shapes; flat core differences
        // (crossing capsules) have no interior, so the whole shapes take over then.
        let core = if margins > 0.0 { Some(penetration(&cores, eps, max_it, scale)) } else { None };
        match core {
            Some(Penetration::Found(c)) if c.is_converged() => Contact {
                distance: c.distance - margins,
                point_a: c.point_a + a.margin() * c.normal,
                point_b: c.point_b - b.margin() * c.normal,
                ..c
            },
            _ => {
                let whole = Difference { a: &pa, b: &pb, with_margins: true };
                match penetration(&whole, eps, max_it, scale) {
                    Penetration::Found(c) => c,
                    Penetration::Outside { normal } => {
                        // The cores overlap but MPR finds no overlap of the whole shapes: they
                        // are within round-off of touching. The supporting plane along `normal`
                        // bounds the distance.
                        let s = whole.support(&normal);
                        let bound = eps.max(s.w.dot(&normal).abs());
                        Contact {
                            distance: -s.w.dot(&normal),
                            normal,
                            point_a: s.a,
                            point_b: s.b,
                            quality: Quality::BestEstimate { reason: EstimateReason::Touching, bound },
                        }
                    }
                }
            }
        }
    };
    // Spheres and ellipsoids: the support along the normal is the exact surface point.
    if matches!(a, ConvexShape::Sphere { .. } | ConvexShape::Ellipsoid { .. }) {
        contact.point_a = pa.support(&contact.normal);
    }
    if matches!(b, ConvexShape::Sphere { .. } | ConvexShape::Ellipsoid { .. }) {
        contact.point_b = pb.support(&-contact.normal);
    }
    Ok(contact)
}

/// Outcome of [`penetration`].
enum Penetration {
    Outside {
        normal: Vector3,
    },
    /// Depth (as `−distance`), normal and witness points; flagged unless converged.
    Found(Contact),
}

/// MPR, then polytope expansion from MPR's final tetrahedron.
fn penetration(diff: &Difference, eps: f64, max_it: u32, scale: f64) -> Penetration {
    match mpr(diff, eps, max_it, scale) {
        Portal::Outside { normal } => Penetration::Outside { normal },
        Portal::Inside { estimate, tetra, refined } => {
            match tetra.and_then(|t| expand_polytope(diff, *t, eps, max_it)) {
                Some(e) => Penetration::Found(Contact {
                    distance: -e.depth,
                    normal: e.normal,
                    point_a: e.pa,
                    point_b: e.pb,
                    quality: if e.converged {
                        Quality::Converged
                    } else {
                        Quality::BestEstimate { reason: EstimateReason::IterationCap, bound: e.gap }
                    },
                }),
                None => Penetration::Found(Contact {
                    quality: Quality::BestEstimate {
                        reason: if refined {
                            EstimateReason::Degenerate
                        } else {
                            EstimateReason::IterationCap
                        },
                        bound: f64::INFINITY,
                    },
                    ..estimate
                }),
            }
        }
    }
}

/// Outcome of [`mpr`].
enum Portal {
    /// The origin is outside `D`; `normal` is the outward normal of a separating plane.
    Outside { normal: Vector3 },
    /// The origin is inside `D`. `estimate` is MPR's own answer (depth to the final portal's
    /// plane along its normal), `tetra` the interior point and portal (containing the origin)
    /// when they are usable as a seed, `refined` whether refinement ran to its tolerance.
    Inside { estimate: Contact, tetra: Option<Box<[Vertex; 4]>>, refined: bool },
}

/// Minkowski Portal Refinement on `D`, from its interior point towards the origin.
fn mpr(diff: &Difference, tol: f64, max_it: u32, scale: f64) -> Portal {
    let mut v0 = diff.interior();
    // Coincident interior points leave the ray undefined; a nudge far below any shape's
    // size keeps v0 inside D.
    if v0.w.norm() <= 1e-9 * scale {
        let nudge = Vector3::new(1e-6 * scale, 0.0, 0.0);
        v0.a += nudge;
        v0.w += nudge;
    }
    let c = v0.w;
    let d = -c; // ray direction: from v0 through the origin
    let tiny = |x: &Vector3, size: f64| not_above(x.norm(), 1e-13 * size);

    // Phase 1: portal discovery.
    let v1 = diff.support(&d);
    if not_above(v1.w.dot(&d), 0.0) {
        return Portal::Outside { normal: unit_or(&d, Vector3::x()) };
    }
    let mut n = (v1.w - c).cross(&d);
    if tiny(&n, (v1.w - c).norm() * d.norm()) {
        n = any_perpendicular(&d);
    }
    let mut v2 = diff.support(&n);
    if not_above(v2.w.dot(&n), 0.0) {
        return Portal::Outside { normal: unit_or(&n, Vector3::x()) };
    }
    let mut v1 = v1;
    let mut portal = None;
    for _ in 0..max_it {
        let (a1, a2) = (v1.w - c, v2.w - c);
        n = a1.cross(&a2);
        if tiny(&n, a1.norm() * a2.norm()) {
            // v0, v1, v2 collinear: search perpendicular to that line, towards the ray.
            let u = unit_or(&a1, Vector3::x());
            n = d - u * u.dot(&d);
            if tiny(&n, d.norm()) {
                n = any_perpendicular(&u);
            }
        }
        if n.dot(&d) < 0.0 {
            std::mem::swap(&mut v1, &mut v2);
            n = -n;
        }
        let v3 = diff.support(&n);
        if not_above(v3.w.dot(&n), 0.0) {
            return Portal::Outside { normal: unit_or(&n, Vector3::x()) };
        }
        let (a1, a2, a3) = (v1.w - c, v2.w - c, v3.w - c);
        // Ray direction in the cone's edge basis: d = α a1 + β a2 + γ a3 (γ ≥ 0 by the choice
        // of n); a negative weight names the edge to drop.
        let Some([alpha, beta, _]) = cone_coordinates(&d, &a1, &a2, &a3) else {
            break;
        };
        if alpha < 0.0 {
            v1 = v3;
        } else if beta < 0.0 {
            v2 = v3;
        } else {
            portal = Some([v1, v2, v3]);
            break;
        }
    }
    let Some([mut p1, mut p2, mut p3]) = portal else {
        return Portal::Inside { estimate: ray_estimate(diff, &d), tetra: None, refined: false };
    };

    // Phase 2: portal refinement. Invariant: the ray from v0 through the origin crosses the
    // portal triangle.
    let mut refined = false;
    let mut last: Option<(Vector3, f64)> = None;
    let mut seed = None;
    for _ in 0..max_it {
        let mut n = (p2.w - p1.w).cross(&(p3.w - p1.w));
        if n.dot(&(p1.w - c)) < 0.0 {
            std::mem::swap(&mut p2, &mut p3);
            n = -n;
        }
        let len = n.norm();
        if not_above(len, 1e-13 * (p2.w - p1.w).norm() * (p3.w - p1.w).norm()) || !len.is_finite() {
            break;
        }
        let nh = n / len;
        let plane = nh.dot(&p1.w); // > 0: the origin is behind the portal, inside v0 + portal
        last = Some((nh, plane));
        // Refined portals can end as slivers on a flat facet; the seed for the polytope
        // expansion is the last tetrahedron that still holds the origin and has volume.
        let height = nh.dot(&(p1.w - c));
        if plane >= 0.0
            && height > 1e-9 * (p2.w - p1.w).norm().max((p3.w - p1.w).norm())
            && len > 1e-9 * (p2.w - p1.w).norm() * (p3.w - p1.w).norm()
        {
            seed = Some(Box::new([v0, p1, p2, p3]));
        }
        let p4 = diff.support(&nh);
        let h = p4.w.dot(&nh);
        if not_above(h, 0.0) && plane < 0.0 {
            return Portal::Outside { normal: nh };
        }
        if h - plane <= tol {
            refined = true;
            break;
        }
        // Split the portal cone by the three planes through v0, v4 and a portal vertex and
        // keep the sub-cone holding the ray (the most interior one, for robustness).
        let a4 = p4.w - c;
        let candidates = [[p1, p2, p4], [p2, p3, p4], [p3, p1, p4]];
        let mut best: Option<(f64, usize)> = None;
        for (k, cand) in candidates.iter().enumerate() {
            if let Some(w) = cone_coordinates(&d, &(cand[0].w - c), &(cand[1].w - c), &a4) {
                let m = w[0].min(w[1]).min(w[2]);
                if best.is_none_or(|b| m > b.0) {
                    best = Some((m, k));
                }
            }
        }
        let Some((_, k)) = best else { break };
        [p1, p2, p3] = candidates[k];
    }
    let Some((nh, plane)) = last else {
        return Portal::Inside { estimate: ray_estimate(diff, &d), tetra: None, refined: false };
    };
    if plane < 0.0 {
        // Refinement ended with the origin just outside the portal: touching within tolerance.
        return Portal::Outside { normal: nh };
    }
    let lam = barycentric(&(nh * plane), &p1.w, &p2.w, &p3.w);
    let pa = p1.a.coords * lam[0] + p2.a.coords * lam[1] + p3.a.coords * lam[2];
    let pb = p1.b.coords * lam[0] + p2.b.coords * lam[1] + p3.b.coords * lam[2];
    let estimate = Contact {
        distance: -plane,
        normal: nh,
        point_a: Point3::from(pa),
        point_b: Point3::from(pb),
        quality: Quality::BestEstimate { reason: EstimateReason::Degenerate, bound: f64::INFINITY },
    };
    Portal::Inside { estimate, tetra: seed, refined }
}

/// Fallback estimate when no portal could be formed: the support along the ray direction.
fn ray_estimate(diff: &Difference, d: &Vector3) -> Contact {
    let n = unit_or(d, Vector3::x());
    let s = diff.support(&n);
    Contact {
        distance: -s.w.dot(&n).max(0.0),
        normal: n,
        point_a: s.a,
        point_b: s.b,
        quality: Quality::BestEstimate { reason: EstimateReason::Degenerate, bound: f64::INFINITY },
    }
}

/// Weights `[α, β, γ]` with `d = α a1 + β a2 + γ a3`, or `None` for a flat basis.
fn cone_coordinates(d: &Vector3, a1: &Vector3, a2: &Vector3, a3: &Vector3) -> Option<[f64; 3]> {
    let det = a1.dot(&a2.cross(a3));
    if not_above(det.abs(), 1e-14 * a1.norm() * a2.norm() * a3.norm()) || !det.is_finite() {
        return None;
    }
    Some([d.dot(&a2.cross(a3)) / det, a1.dot(&d.cross(a3)) / det, a1.dot(&a2.cross(d)) / det])
}

fn unit_or(v: &Vector3, fallback: Vector3) -> Vector3 {
    let n = v.norm();
    if n > 0.0 && n.is_finite() { v / n } else { fallback }
}

/// A unit vector perpendicular to `v` (any one; `v` need not be unit).
fn any_perpendicular(v: &Vector3) -> Vector3 {
    let axis = if v.x.abs() <= v.y.abs() && v.x.abs() <= v.z.abs() {
        Vector3::x()
    } else if v.y.abs() <= v.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    unit_or(&v.cross(&axis), Vector3::y())
}
