//! Pressure fields: the per-vertex *extent* ε on tet meshes, 0 on the surface and 1 on the
//! core, piecewise linear on the tets. The static pressure is p0 = E·ε with E the body's
//! hydroelastic modulus.
//!
//! Fields of the primitives (ε = 1 − s, with s the shell parameter of the layered mesh, see
//! [`crate::geometry::mesher`]): sphere 1 − r/R; box min_i(h_i − |x_i|)/min_i h_i; cylinder
//! min(R − ρ, L − |z|)/min(R, L) (L the half length); capsule 1 − dist(x, axis segment)/R;
//! ellipsoid 1 − √(Σ x_i²/a_i²); convex mesh 1 − (gauge of x from the hull's centroid). Each is
//! the analytic field evaluated at the mesh vertices; iso-surfaces are scaled copies of the
//! (meshed) surface towards the core. A compliant half space has p0 = E·depth/slab_thickness.

mod error;
pub mod laplace;

pub use error::FieldError;

use crate::geometry::TetMesh;
use crate::math::{Point3, Vector3};

/// A linear scalar field `value(x) = gradient · x + offset`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinearField {
    pub gradient: Vector3,
    pub offset: f64,
}

impl LinearField {
    #[inline]
    pub fn value(&self, x: &Point3) -> f64 {
        self.gradient.dot(&x.coords) + self.offset
    }

    /// The same field scaled by `k`.
    #[inline]
    pub fn scaled(&self, k: f64) -> LinearField {
        LinearField { gradient: self.gradient * k, offset: self.offset * k }
    }

    /// The linear field taking `values[i]` at `points[i]` (a non-degenerate tet).
    pub fn through_tet(points: &[Point3; 4], values: [f64; 4]) -> LinearField {
        let m = nalgebra::Matrix3::from_rows(&[
            (points[1] - points[0]).transpose(),
            (points[2] - points[0]).transpose(),
            (points[3] - points[0]).transpose(),
        ]);
        let rhs = Vector3::new(values[1] - values[0], values[2] - values[0], values[3] - values[0]);
        let gradient = m.try_inverse().map(|inv| inv * rhs).unwrap_or_else(Vector3::zeros);
        LinearField { gradient, offset: values[0] - gradient.dot(&points[0].coords) }
    }
}

/// The extent ε = 1 − s of a layered mesh from its shell parameters.
pub fn extent_from_shells(shell: &[f64]) -> Vec<f64> {
    shell.iter().map(|s| 1.0 - s).collect()
}

/// The linear extent field on each tet of `mesh`, given ε at the vertices.
pub fn tet_fields(mesh: &TetMesh, extent: &[f64]) -> Vec<LinearField> {
    mesh.tets
        .iter()
        .enumerate()
        .map(|(t, tet)| LinearField::through_tet(&mesh.tet(t), tet.map(|v| extent[v as usize])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_field_reproduces_vertex_values() {
        let p = [
            Point3::new(0.1, 0.0, 0.0),
            Point3::new(1.0, 0.2, 0.0),
            Point3::new(0.0, 1.0, 0.3),
            Point3::new(0.2, 0.1, 1.0),
        ];
        let v = [0.0, 0.5, 0.25, 1.0];
        let f = LinearField::through_tet(&p, v);
        for i in 0..4 {
            assert!((f.value(&p[i]) - v[i]).abs() < 1e-14);
        }
    }
}
