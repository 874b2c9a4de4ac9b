//! Reading mesh files (OBJ, STL ascii/binary).
//! (Stub: to be implemented.)

use super::GeometryError;
use crate::math::Point3;
use std::path::Path;

/// Reads the vertex positions of an OBJ or STL (ASCII or binary) file.
pub fn read_points(path: &Path) -> Result<Vec<Point3>, GeometryError> {
    Err(GeometryError::MeshFile { path: path.to_path_buf(), reason: "not implemented".into() })
}
