//! One pair of bodies under the Hertz point-contact model: narrow phase (signed distance,
//! normal, contact point) and the force law, as a wrench on body `a`.

use super::contact_geometry::ContactShapeKind;
use super::contact_point::contact_point;
use super::force_law::{ContactLaw, ForceLawError, contact_response};
use super::{ConvexShape, MprError, MprStats, MprTolerances, signed_distance_counted};
use crate::geometry::Shape;
use crate::math::{Isometry3, Point3, Twist, Vector3, Wrench};

/// A body as the Hertz model sees it.
#[derive(Clone, Debug)]
pub struct HertzBody {
    /// The narrow-phase shape (smoothed; a general mesh by its convex hull).
    pub shape: ConvexShape,
    /// The shape's kind and sizes, for the contact-sphere radius of the force law.
    pub kind: ContactShapeKind,
}

impl HertzBody {
    /// The Hertz view of a shape.
    pub fn new(shape: &Shape) -> Result<HertzBody, super::HertzGeometryError> {
        let kind = match shape {
            Shape::Sphere { radius } => ContactShapeKind::Sphere { diameter: 2.0 * radius },
            Shape::Ellipsoid { radii } => ContactShapeKind::Ellipsoid { lengths: radii.map(|r| 2.0 * r) },
            Shape::Box { size } => ContactShapeKind::Box { lengths: *size },
            Shape::Cylinder { radius, length } => {
                ContactShapeKind::Cylinder { diameter: 2.0 * radius, length: *length }
            }
            Shape::Capsule { radius, .. } => ContactShapeKind::Capsule { diameter: 2.0 * radius },
            Shape::Cone { radius, top_radius, .. } => {
                ContactShapeKind::Cone { diameter: 2.0 * radius, top_diameter: 2.0 * top_radius }
            }
            Shape::Beam { length, width, thickness } => {
                ContactShapeKind::Beam { length: *length, width: *width, thickness: *thickness }
            }
            Shape::Convex { points, .. } => ContactShapeKind::Mesh { shortest_edge: shortest_edge(points) },
            Shape::Mesh { data, .. } => {
                ContactShapeKind::Mesh { shortest_edge: shortest_edge(&data.surface().vertices) }
            }
            Shape::Polygon { .. } => ContactShapeKind::Mesh {
                shortest_edge: shortest_edge(&shape.hull_points(1.0).unwrap_or_default()),
            },
            Shape::HalfSpace => ContactShapeKind::Box { lengths: [1.0; 3] },
            // Refused by the narrow phase below.
            Shape::Compound { .. } => ContactShapeKind::Box { lengths: [1.0; 3] },
        };
        Ok(HertzBody { shape: ConvexShape::from_shape(shape)?, kind })
    }
}

/// A rough shortest edge for a point set: the smallest distance between distinct points (the
/// paper's `shortestEdge/2` contact radius for meshes).
fn shortest_edge(points: &[Point3]) -> f64 {
    let mut best = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = (p - q).norm();
            if d > 0.0 {
                best = best.min(d);
            }
        }
    }
    if best.is_finite() { best } else { 0.0 }
}

/// The result of one pair under the Hertz model, reported on body `a` (world frame, torque about
/// the world origin).
#[derive(Clone, Copy, Debug)]
pub struct HertzContact {
    pub wrench: Wrench,
    /// Penetration δ (m), > 0 in contact.
    pub penetration: f64,
    /// The contact point (midpoint of the witness points).
    pub point: Point3,
    /// The unit contact normal, out of `a` towards `b`.
    pub normal: Vector3,
    /// The elastic energy k_red·c_res·c_geo·δ^2.5/2.5 (J).
    pub energy: f64,
    /// Power of the damping, friction and rolling resistance on the relative motion (W, ≤ 0).
    pub dissipation_power: f64,
    /// The rate of penetration δ̇ (m/s), > 0 while pressing further.
    pub penetration_rate: f64,
}

/// Errors of a Hertz pair query.
#[derive(Debug, thiserror::Error)]
pub enum HertzPairError {
    #[error(transparent)]
    Collision(#[from] MprError),
    #[error(transparent)]
    Law(#[from] ForceLawError),
}

/// The contact of `a` and `b` at the given poses and velocities, if they penetrate. `damping` is
/// the coefficient d fixed at contact start; `None` takes it from the current approach speed
/// (for a single query without contact history).
pub fn hertz_pair(
    (a, pose_a, twist_a): (&HertzBody, &Isometry3, &Twist),
    (b, pose_b, twist_b): (&HertzBody, &Isometry3, &Twist),
    law: &ContactLaw,
    damping: Option<f64>,
    stats: &MprStats,
) -> Result<Option<HertzContact>, HertzPairError> {
    let c = signed_distance_counted(&a.shape, pose_a, &b.shape, pose_b, &MprTolerances::default(), stats)?;
    if c.distance >= 0.0 {
        return Ok(None);
    }
    let delta = -c.distance;
    let point = contact_point(&a.shape, pose_a, &b.shape, pose_b, &c);
    // Object 1 = a, object 2 = b (the paper's convention): e_n out of a, towards b.
    let e_n = c.normal;
    let v1 = twist_a.velocity_at(&Point3::from(pose_a.translation.vector), &point);
    let v2 = twist_b.velocity_at(&Point3::from(pose_b.translation.vector), &point);
    let v_rel: Vector3 = v2 - v1;
    let w_rel = twist_b.angular - twist_a.angular;
    let delta_dot = -v_rel.dot(&e_n);
    let d = damping.unwrap_or_else(|| law.damping_at_impact(delta_dot.abs()));
    let r = contact_response(law, delta, delta_dot, &e_n, &v_rel, &w_rel, d)?;
    // The response acts on b at the contact point; a receives the opposite.
    let on_b = Wrench { force: r.force, torque: point.coords.cross(&r.force) + r.torque };
    // Power on the relative motion, less the elastic part's (−f_el·δ̇ = −dU/dt).
    let elastic = law.normal_force(delta, 0.0, 0.0);
    let dissipation_power = r.force.dot(&v_rel) + r.torque.dot(&w_rel) + elastic * delta_dot;
    Ok(Some(HertzContact {
        wrench: -on_b,
        penetration: delta,
        point,
        normal: e_n,
        energy: law.elastic_energy(delta),
        dissipation_power,
        penetration_rate: delta_dot,
    }))
}
