//! A contact surface for output: the polygons where two bodies touch, in the world frame, with
//! their pressures (the pressure field's; other models have none).

use crate::math::{Point3, Vector3};

/// One convex polygon of a contact surface, in the world frame.
#[derive(Clone, Debug, Default)]
pub struct ContactPolygon {
    /// Vertices, counter-clockwise seen from the tip of `normal`.
    pub vertices: Vec<Point3>,
    /// The static pressure p0 (Pa) at each vertex (linear over the polygon).
    pub pressure: Vec<f64>,
    /// Unit normal, pointing from body `b` into body `a`.
    pub normal: Vector3,
}

/// The contact surface of one pair of bodies: every polygon, possibly in several patches.
#[derive(Clone, Debug, Default)]
pub struct ContactSurface {
    pub polygons: Vec<ContactPolygon>,
}
