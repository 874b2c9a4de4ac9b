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

impl ContactSurface {
    /// The centre of pressure (∫x·p dA / ∫p dA) and the pressure-weighted mean normal (unit,
    /// out of b into a); `None` without pressure.
    pub fn centre_of_pressure(&self) -> Option<(Point3, Vector3)> {
        let (mut load, mut moment, mut normal) = (0.0, Vector3::zeros(), Vector3::zeros());
        for polygon in &self.polygons {
            let (v, p) = (&polygon.vertices, &polygon.pressure);
            // A fan of triangles; p is linear over each: ∫p dA = A·Σp/3 and
            // ∫x·p dA = A/12·(Σ pᵢxᵢ + Σp·Σx).
            for k in 1..v.len().saturating_sub(1) {
                let (x, q) = ([v[0], v[k], v[k + 1]], [p[0], p[k], p[k + 1]]);
                let area = 0.5 * (x[1] - x[0]).cross(&(x[2] - x[0])).norm();
                let sum_p: f64 = q.iter().sum();
                let sum_x = x[0].coords + x[1].coords + x[2].coords;
                let sum_px = x[0].coords * q[0] + x[1].coords * q[1] + x[2].coords * q[2];
                load += area * sum_p / 3.0;
                moment += (sum_px + sum_x * sum_p) * (area / 12.0);
                normal += polygon.normal * (area * sum_p / 3.0);
            }
        }
        (load > 0.0 && normal.norm() > 0.0).then(|| (Point3::from(moment / load), normal.normalize()))
    }
}
