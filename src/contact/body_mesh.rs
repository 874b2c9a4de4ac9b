//! A body's mesh as a model holds it, for drawing.

use crate::math::Point3;

/// A body's mesh as a model holds it, for drawing.
pub enum BodyMesh<'a> {
    /// A compliant tet mesh (body frame) with its extent ε and hydroelastic modulus.
    Tets { vertices: &'a [Point3], tets: &'a [[u32; 4]], extent: &'a [f64], modulus: f64 },
    /// A rigid surface mesh (body frame).
    Triangles { vertices: &'a [Point3], triangles: &'a [[u32; 3]] },
}
