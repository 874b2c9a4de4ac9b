//! Convex meshes: the hull of the shape's points, with the hull's centroid as the core.

use super::layers::CoredSurface;
use super::limits::{budget, positive};
use super::refine::split_long_edges;
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

/// The hull refined to edges ≤ `resolution`, with every core point at the hull's volume
/// centroid; the depth is the smallest distance from the centroid to a face. Shell `s` is the
/// hull scaled by `s` about the centroid, so the pressure extent is `ε = 1 − g(x)` with `g` the
/// hull's gauge function about the centroid, exact everywhere (g is linear on each cone).
pub(crate) fn cored(file: &Path, points: &[Point3], resolution: f64) -> Result<CoredSurface, GeometryError> {
    positive("resolution", resolution)?;
    let hull = surface(file, points)?;
    // Each bisection leaves triangles with their longest edge above half the resolution, so
    // about 4·area/resolution² triangles (well shaped) and never many more for the hull's own.
    let estimate = hull.triangles.len() as f64 + 8.0 * hull.area() / (resolution * resolution);
    budget("convex", resolution, estimate)?;
    let centroid = volume_centroid(&hull);
    let depth = (0..hull.triangles.len())
        .map(|t| hull.normal(t).dot(&(hull.vertices[hull.triangles[t][0] as usize] - centroid)))
        .fold(f64::INFINITY, f64::min);
    let surface = split_long_edges(&hull, resolution);
    let core = vec![centroid; surface.vertices.len()];
    Ok(CoredSurface { surface, core, depth })
}
