//! Convex meshes: the hull of the shape's points, with the hull's centroid as the core.

use super::layers::CoredSurface;
use super::limits::positive;
use crate::geometry::convex_hull::{convex_hull, volume_centroid};
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::path::Path;

/// The convex hull of `points` (read from `file`), triangle for triangle.
pub(crate) fn surface(file: &Path, points: &[Point3]) -> Result<SurfaceMesh, GeometryError> {
    convex_hull(points).map_err(|e| GeometryError::BadMesh {
        path: file.to_path_buf(),
        reason: match e {
            GeometryError::BadPoints { reason } => reason,
            other => other.to_string(),
        },
    })
}

/// The hull's own triangles (whatever `resolution`, which is only checked), with every core
/// point at the hull's volume centroid; the depth is the smallest distance from the centroid to
/// a face. Shell `s` is the hull scaled by `s` about the centroid, so the pressure extent is
/// `ε = 1 − g(x)` with `g` the hull's gauge function about the centroid. It is exact
/// everywhere, not only at vertices, at any resolution: `g` is linear on the cone from the
/// centroid over each hull triangle, so refining the hull would add tets without adding
/// accuracy.
pub(crate) fn cored(file: &Path, points: &[Point3], resolution: f64) -> Result<CoredSurface, GeometryError> {
    positive("resolution", resolution)?;
    let surface = surface(file, points)?;
    let centroid = volume_centroid(&surface);
    let depth = (0..surface.triangles.len())
        .map(|t| surface.normal(t).dot(&(surface.vertices[surface.triangles[t][0] as usize] - centroid)))
        .fold(f64::INFINITY, f64::min);
    let core = vec![centroid; surface.vertices.len()];
    Ok(CoredSurface { surface, core, depth })
}
