//! Meshers: shapes → surface meshes (rigid bodies) and layered tet meshes (compliant bodies).
//! (Stub: to be implemented.)

use super::{GeometryError, Shape, SurfaceMesh, TetMesh};

/// A tet mesh made of shells between the shape's surface and its core (medial axis or centre).
/// `shell[v]` is 1 for a vertex on the surface and 0 on the core; vertex `v` lies at
/// `core(v) + shell[v] · (surface(v) − core(v))`.
#[derive(Clone, Debug, Default)]
pub struct LayeredTetMesh {
    pub mesh: TetMesh,
    pub shell: Vec<f64>,
}

/// The closed surface mesh of a shape, for a rigid body.
pub fn surface_mesh(shape: &Shape, resolution: Option<f64>) -> Result<SurfaceMesh, GeometryError> {
    let _ = (shape, resolution);
    unimplemented!()
}

/// The layered tet mesh of a shape, for a compliant body.
pub fn layered_tet_mesh(shape: &Shape, resolution: f64) -> Result<LayeredTetMesh, GeometryError> {
    let _ = (shape, resolution);
    unimplemented!()
}
