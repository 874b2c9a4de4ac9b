//! How a contact surface is looked at: along its mean normal, in a stable in-plane basis.

use crate::contact::surface::ContactSurface;
use crate::math::{Point3, Vector3};

/// Orthonormal in-plane axes `u`, `v` with `u × v = n`, so polygons that are counter-clockwise
/// seen from the tip of `n` stay counter-clockwise in (u, v).
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    pub u: Vector3,
    pub v: Vector3,
}

impl View {
    /// The view along the area-weighted mean polygon normal (world z if there is none, e.g. an
    /// empty surface or normals that cancel).
    pub fn of(surface: &ContactSurface) -> Self {
        let sum: Vector3 = surface
            .polygons
            .iter()
            .filter(|p| p.normal.iter().all(|c| c.is_finite()))
            .map(|p| polygon_area(&p.vertices) * p.normal)
            .sum();
        let n = sum.try_normalize(1e-300).unwrap_or_else(Vector3::z);
        Self::along(n)
    }

    /// The view along unit `n`. `u` is the world axis least aligned with `n`, made orthogonal to
    /// it: this depends only on `n`, so the same surface always looks the same.
    pub fn along(n: Vector3) -> Self {
        let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
        let a = axes
            .into_iter()
            .min_by(|a, b| a.dot(&n).abs().total_cmp(&b.dot(&n).abs()))
            .unwrap_or_else(Vector3::x);
        let u = (a - a.dot(&n) * n).normalize();
        Self { u, v: n.cross(&u) }
    }

    /// In-plane coordinates of `p`.
    pub fn project(&self, p: &Point3) -> [f64; 2] {
        [self.u.dot(&p.coords), self.v.dot(&p.coords)]
    }
}

/// Area of a planar polygon (fan from the first vertex).
fn polygon_area(vertices: &[Point3]) -> f64 {
    let Some(o) = vertices.first() else {
        return 0.0;
    };
    let twice: Vector3 = vertices.windows(2).skip(1).map(|w| (w[0] - o).cross(&(w[1] - o))).sum();
    0.5 * twice.norm()
}
