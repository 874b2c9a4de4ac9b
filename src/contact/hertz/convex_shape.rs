//! Convex shapes described by support functions, as the narrow phase sees them.
//!
//! Every shape is split into a *core* and a *margin*: the shape is the core grown by a sphere
//! of radius `margin` (a sphere is a point grown by its radius, a capsule a segment, a smoothed
//! box a smaller box). The narrow phase measures distances between cores and subtracts the
//! margins, which is exact and far better conditioned than working on the rounded surfaces.

use super::collision_error::HertzGeometryError;
use crate::geometry::Shape;
use crate::geometry::convex_hull::convex_hull;
use crate::math::{Isometry3, Point3, Vector3};

/// Default smoothing radius of boxes, cylinders, cones and beams (m), as in Modia3D.
pub const DEFAULT_SMOOTHING: f64 = 1e-3;
/// Smoothing never exceeds this fraction of a shape's smallest dimension.
pub const MAX_SMOOTHING_FRACTION: f64 = 0.1;

/// A convex shape in its body frame (m). Box, cylinder, cone and beam are rounded by a
/// sphere of radius `smoothing`: the rounded shape is the shape shrunk by `smoothing` and then
/// grown by a sphere of that radius, so its outer dimensions are the given ones.
#[derive(Clone, Debug, PartialEq)]
pub enum ConvexShape {
    Sphere {
        radius: f64,
    },
    /// Semi-axes along body x, y, z.
    Ellipsoid {
        radii: Vector3,
    },
    /// Centred box with half extents `half`.
    Box {
        half: Vector3,
        smoothing: f64,
    },
    /// Flat-ended cylinder, axis z, centred, total length `2 half_length`.
    Cylinder {
        radius: f64,
        half_length: f64,
        smoothing: f64,
    },
    /// Cone (`top_radius = 0`) or frustum along z: base disc at z = 0, top at z = `length`.
    Cone {
        base_radius: f64,
        top_radius: f64,
        length: f64,
        smoothing: f64,
    },
    /// Segment from z = −`half_length` to z = `half_length` grown by `radius`.
    Capsule {
        radius: f64,
        half_length: f64,
    },
    /// Modia3D's beam: a box whose two ends along x are half-cylinders with axes along z.
    /// `length` is the distance between the two half-cylinder axes (x = ±length/2), `width`
    /// their diameter (extent along y), `thickness` the extent along z; the outer length is
    /// `length + width`.
    Beam {
        length: f64,
        width: f64,
        thickness: f64,
        smoothing: f64,
    },
    /// Convex hull of `points` grown by `smoothing` (the hull is *not* shrunk first).
    Hull {
        points: Vec<Point3>,
        smoothing: f64,
    },
}

impl ConvexShape {
    /// A short lower-case name for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            ConvexShape::Sphere { .. } => "sphere",
            ConvexShape::Ellipsoid { .. } => "ellipsoid",
            ConvexShape::Box { .. } => "box",
            ConvexShape::Cylinder { .. } => "cylinder",
            ConvexShape::Cone { .. } => "cone",
            ConvexShape::Capsule { .. } => "capsule",
            ConvexShape::Beam { .. } => "beam",
            ConvexShape::Hull { .. } => "convex hull",
        }
    }

    /// The convex hull of `points` (e.g. the vertices of an OBJ/STL file), keeping only the
    /// hull corners so that support queries stay cheap.
    pub fn hull(points: &[Point3], smoothing: f64) -> Result<Self, HertzGeometryError> {
        let mesh = convex_hull(points).map_err(|e| HertzGeometryError::BadHull { reason: e.to_string() })?;
        let shape = ConvexShape::Hull { points: mesh.vertices, smoothing };
        shape.validate()?;
        Ok(shape)
    }

    /// The narrow-phase shape of a geometry [`Shape`], with the default smoothing.
    pub fn from_shape(shape: &Shape) -> Result<Self, HertzGeometryError> {
        let s = match shape {
            Shape::Sphere { radius } => ConvexShape::Sphere { radius: *radius },
            Shape::Ellipsoid { radii } => ConvexShape::Ellipsoid { radii: Vector3::from(*radii) },
            Shape::Box { size } => ConvexShape::Box { half: Vector3::from(*size) / 2.0, smoothing: 0.0 },
            Shape::Cylinder { radius, length } => {
                ConvexShape::Cylinder { radius: *radius, half_length: length / 2.0, smoothing: 0.0 }
            }
            Shape::Capsule { radius, length } => {
                ConvexShape::Capsule { radius: *radius, half_length: length / 2.0 }
            }
            Shape::Convex { points, .. } => return ConvexShape::hull(points, 0.0),
            Shape::Polygon { .. } => {
                return ConvexShape::hull(&shape.hull_points(1.0).unwrap_or_default(), 0.0);
            }
            Shape::Cone { radius, top_radius, length } => ConvexShape::Cone {
                base_radius: *radius,
                top_radius: *top_radius,
                length: *length,
                smoothing: 0.0,
            },
            Shape::Beam { length, width, thickness } => {
                ConvexShape::Beam { length: *length, width: *width, thickness: *thickness, smoothing: 0.0 }
            }
            // A general mesh is approximated by its convex hull (as in Modia3D).
            Shape::Mesh { data, .. } => return ConvexShape::hull(&data.surface().vertices, 0.0),
            Shape::HalfSpace => {
                return Err(HertzGeometryError::Unsupported {
                    shape: "halfspace",
                    hint: "it is unbounded; use a large box instead",
                });
            }
            Shape::Compound { .. } => {
                return Err(HertzGeometryError::Unsupported {
                    shape: "compound",
                    hint: "point contact needs one convex shape per body; run the scene with kind = \"volume6d\", or use one convex shape",
                });
            }
        };
        let s = s.with_default_smoothing();
        s.validate()?;
        Ok(s)
    }

    /// The same shape with the default smoothing: 1 mm, clamped to 10% of the smallest
    /// dimension. Spheres, ellipsoids, capsules and hulls are returned unchanged.
    pub fn with_default_smoothing(self) -> Self {
        let clamp = |smallest: f64| DEFAULT_SMOOTHING.min(MAX_SMOOTHING_FRACTION * smallest).max(0.0);
        let smallest = self.smallest_dimension();
        match self {
            ConvexShape::Box { half, .. } => ConvexShape::Box { half, smoothing: clamp(smallest) },
            ConvexShape::Cylinder { radius, half_length, .. } => {
                ConvexShape::Cylinder { radius, half_length, smoothing: clamp(smallest) }
            }
            ConvexShape::Cone { base_radius, top_radius, length, .. } => {
                ConvexShape::Cone { base_radius, top_radius, length, smoothing: clamp(smallest) }
            }
            ConvexShape::Beam { length, width, thickness, .. } => {
                ConvexShape::Beam { length, width, thickness, smoothing: clamp(smallest) }
            }
            other => other,
        }
    }

    /// The smallest dimension that bounds the smoothing radius (m); NaN if the shape is bad.
    fn smallest_dimension(&self) -> f64 {
        match self {
            ConvexShape::Box { half, .. } => 2.0 * half.min(),
            ConvexShape::Cylinder { radius, half_length, .. } => 2.0 * radius.min(*half_length),
            ConvexShape::Cone { base_radius, length, .. } => (2.0 * base_radius).min(*length),
            ConvexShape::Beam { width, thickness, .. } => width.min(*thickness),
            _ => f64::INFINITY,
        }
    }

    /// Checks that every size is finite and positive and the smoothing within its bounds.
    pub fn validate(&self) -> Result<(), HertzGeometryError> {
        let shape = self.kind();
        let positive = |what: &'static str, value: f64| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(HertzGeometryError::NonPositive { shape, what, value })
            }
        };
        let non_negative = |what: &'static str, value: f64| {
            if value.is_finite() && value >= 0.0 {
                Ok(())
            } else {
                Err(HertzGeometryError::Negative { shape, what, value })
            }
        };
        match self {
            ConvexShape::Sphere { radius } => positive("radius", *radius)?,
            ConvexShape::Ellipsoid { radii } => {
                positive("radius x", radii.x)?;
                positive("radius y", radii.y)?;
                positive("radius z", radii.z)?;
            }
            ConvexShape::Box { half, smoothing } => {
                positive("half extent x", half.x)?;
                positive("half extent y", half.y)?;
                positive("half extent z", half.z)?;
                non_negative("smoothing", *smoothing)?;
            }
            ConvexShape::Cylinder { radius, half_length, smoothing } => {
                positive("radius", *radius)?;
                positive("half length", *half_length)?;
                non_negative("smoothing", *smoothing)?;
            }
            ConvexShape::Cone { base_radius, top_radius, length, smoothing } => {
                positive("base radius", *base_radius)?;
                non_negative("top radius", *top_radius)?;
                positive("length", *length)?;
                non_negative("smoothing", *smoothing)?;
                if top_radius > base_radius {
                    return Err(HertzGeometryError::TopWiderThanBase {
                        top: *top_radius,
                        base: *base_radius,
                    });
                }
            }
            ConvexShape::Capsule { radius, half_length } => {
                positive("radius", *radius)?;
                non_negative("half length", *half_length)?;
            }
            ConvexShape::Beam { length, width, thickness, smoothing } => {
                non_negative("length", *length)?;
                positive("width", *width)?;
                positive("thickness", *thickness)?;
                non_negative("smoothing", *smoothing)?;
            }
            ConvexShape::Hull { points, smoothing } => {
                non_negative("smoothing", *smoothing)?;
                if let Some(i) = points.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
                    return Err(HertzGeometryError::BadHull { reason: format!("point {i} is not finite") });
                }
                // A flat or empty point set has no interior, which the narrow phase needs.
                convex_hull(points).map_err(|e| HertzGeometryError::BadHull { reason: e.to_string() })?;
            }
        }
        let smallest = self.smallest_dimension();
        let smoothing = self.margin();
        let limit = MAX_SMOOTHING_FRACTION * smallest;
        // The relative slack lets `with_default_smoothing` output pass despite round-off.
        if smallest.is_finite() && smoothing > limit * (1.0 + 1e-12) {
            return Err(HertzGeometryError::SmoothingTooLarge { shape, smoothing, smallest, limit });
        }
        Ok(())
    }

    /// The cheap part of [`ConvexShape::validate`], run on every query: scalar sizes only.
    pub(crate) fn validate_quick(&self) -> Result<(), HertzGeometryError> {
        match self {
            ConvexShape::Hull { points, smoothing } => {
                if points.is_empty() {
                    return Err(HertzGeometryError::BadHull { reason: "no points".into() });
                }
                if !(smoothing.is_finite() && *smoothing >= 0.0) {
                    return Err(HertzGeometryError::Negative {
                        shape: "convex hull",
                        what: "smoothing",
                        value: *smoothing,
                    });
                }
                Ok(())
            }
            _ => self.validate(),
        }
    }

    /// The radius of the sphere that grows the core into the shape (m).
    pub fn margin(&self) -> f64 {
        match self {
            ConvexShape::Sphere { radius } | ConvexShape::Capsule { radius, .. } => *radius,
            ConvexShape::Ellipsoid { .. } => 0.0,
            ConvexShape::Box { smoothing, .. }
            | ConvexShape::Cylinder { smoothing, .. }
            | ConvexShape::Cone { smoothing, .. }
            | ConvexShape::Beam { smoothing, .. }
            | ConvexShape::Hull { smoothing, .. } => *smoothing,
        }
    }

    /// A point strictly inside the shape, body frame.
    pub fn interior_point(&self) -> Point3 {
        match self {
            ConvexShape::Cone { length, .. } => Point3::new(0.0, 0.0, length / 3.0),
            ConvexShape::Hull { points, .. } => {
                let n = points.len().max(1) as f64;
                Point3::from(points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n)
            }
            _ => Point3::origin(),
        }
    }

    /// Radius of a ball about [`ConvexShape::interior_point`] that holds the shape (m).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            ConvexShape::Sphere { radius } => *radius,
            ConvexShape::Ellipsoid { radii } => radii.max(),
            ConvexShape::Box { half, .. } => half.norm(),
            ConvexShape::Cylinder { radius, half_length, .. } => radius.hypot(*half_length),
            ConvexShape::Cone { base_radius, length, .. } => base_radius.hypot(*length),
            ConvexShape::Capsule { radius, half_length } => radius + half_length,
            ConvexShape::Beam { length, width, thickness, .. } => {
                length / 2.0 + (width / 2.0).hypot(thickness / 2.0)
            }
            ConvexShape::Hull { points, smoothing } => {
                let c = self.interior_point();
                points.iter().map(|p| (p - c).norm()).fold(0.0, f64::max) + smoothing
            }
        }
    }

    /// The point of the shape farthest along `dir` (body frame; `dir` need not be unit).
    pub fn support(&self, dir: &Vector3) -> Point3 {
        let n = dir.norm();
        let unit = if n > 0.0 && n.is_finite() { dir / n } else { Vector3::zeros() };
        self.core_support(dir) + self.margin() * unit
    }

    /// The point of the core farthest along `dir` (body frame). Ties (zero components) pick
    /// the middle of the face, which is as valid a support point as any corner.
    pub fn core_support(&self, d: &Vector3) -> Point3 {
        let sgn = |x: f64, h: f64| {
            if x > 0.0 {
                h
            } else if x < 0.0 {
                -h
            } else {
                0.0
            }
        };
        // Unit xy direction, or zero when `d` is along z (any point of the disc then supports).
        let radial = || {
            let r = d.x.hypot(d.y);
            if r > 0.0 && r.is_finite() { Vector3::new(d.x / r, d.y / r, 0.0) } else { Vector3::zeros() }
        };
        match self {
            ConvexShape::Sphere { .. } => Point3::origin(),
            ConvexShape::Ellipsoid { radii } => {
                // Maximiser of d·x on x'A⁻²x = 1 is A²d / |A d|.
                let ad = radii.component_mul(d);
                let n = ad.norm();
                if n > 0.0 && n.is_finite() {
                    Point3::from(radii.component_mul(&ad) / n)
                } else {
                    Point3::new(radii.x, 0.0, 0.0)
                }
            }
            ConvexShape::Box { half, smoothing } => {
                let h = half.add_scalar(-smoothing);
                Point3::new(sgn(d.x, h.x), sgn(d.y, h.y), sgn(d.z, h.z))
            }
            ConvexShape::Cylinder { radius, half_length, smoothing } => {
                let u = radial() * (radius - smoothing);
                Point3::new(u.x, u.y, sgn(d.z, half_length - smoothing))
            }
            ConvexShape::Cone { .. } => {
                let (zb, rb, zt, rt) = self.cone_core();
                let u = radial();
                let base = Point3::new(rb * u.x, rb * u.y, zb);
                let top = Point3::new(rt * u.x, rt * u.y, zt);
                if d.dot(&top.coords) > d.dot(&base.coords) { top } else { base }
            }
            ConvexShape::Capsule { half_length, .. } => Point3::new(0.0, 0.0, sgn(d.z, *half_length)),
            ConvexShape::Beam { length, width, thickness, smoothing } => {
                let u = radial() * (width / 2.0 - smoothing);
                Point3::new(sgn(d.x, length / 2.0) + u.x, u.y, sgn(d.z, thickness / 2.0 - smoothing))
            }
            ConvexShape::Hull { points, .. } => {
                let mut best = points.first().copied().unwrap_or_else(Point3::origin);
                let mut best_dot = d.dot(&best.coords);
                for p in points.iter().skip(1) {
                    let v = d.dot(&p.coords);
                    if v > best_dot {
                        best_dot = v;
                        best = *p;
                    }
                }
                best
            }
        }
    }

    /// The cone's core frustum `(z_base, r_base, z_top, r_top)`: the cone shrunk by the
    /// smoothing radius. Its slanted side is the original side moved inward by `smoothing`
    /// along its normal; a sharp tip is cut where the moved side meets the axis, so smoothing
    /// rounds and slightly shortens a pointed cone.
    fn cone_core(&self) -> (f64, f64, f64, f64) {
        let ConvexShape::Cone { base_radius, top_radius, length, smoothing: s } = *self else {
            return (0.0, 0.0, 0.0, 0.0);
        };
        let slope = (top_radius - base_radius) / length;
        let shift = s * (1.0 + slope * slope).sqrt();
        let r = |z: f64| base_radius + slope * z - shift;
        let (zb, zt) = (s, length - s);
        let (rb, rt) = (r(zb), r(zt));
        if rt >= 0.0 || slope >= 0.0 {
            (zb, rb.max(0.0), zt, rt.max(0.0))
        } else {
            // The moved side reaches the axis below z_top: the core's tip is there.
            let z0 = ((shift - base_radius) / slope).clamp(zb, zt);
            (zb, rb.max(0.0), z0, 0.0)
        }
    }

    /// World-frame axis-aligned bounding box `(min, max)` of the shape at `pose` (exact:
    /// supports along ± world axes).
    pub fn aabb(&self, pose: &Isometry3) -> (Point3, Point3) {
        let mut lo = Point3::origin();
        let mut hi = Point3::origin();
        for k in 0..3 {
            let mut e = Vector3::zeros();
            e[k] = 1.0;
            let local = pose.rotation.inverse_transform_vector(&e);
            hi[k] = (pose * self.support(&local))[k];
            lo[k] = (pose * self.support(&-local))[k];
        }
        (lo, hi)
    }
}
