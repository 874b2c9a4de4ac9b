//! Sphere meshes: an icosphere, with the centre as the core.

use super::icosphere;
use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;

/// The sphere of radius `radius` as an icosphere with edges ≤ `resolution`; vertices lie on the
/// sphere.
pub(crate) fn surface(radius: f64, resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    positive("sphere radius", radius)?;
    positive("resolution", resolution)?;
    let n = icosphere::divisions_for(radius, resolution);
    budget("sphere", resolution, icosphere::triangle_count(n))?;
    let mut mesh = icosphere::unit_icosphere(divisions(n, 1));
    for p in &mut mesh.vertices {
        *p = Point3::from(p.coords * radius);
    }
    Ok(mesh)
}

/// The sphere's surface with every core point at the centre (depth R). Shell `s` is the sphere
/// of radius sR, so the pressure extent is `ε = 1 − |x|/R`, exact at every vertex.
pub(crate) fn cored(radius: f64, resolution: f64) -> Result<CoredSurface, GeometryError> {
    let surface = surface(radius, resolution)?;
    let core = vec![Point3::origin(); surface.vertices.len()];
    Ok(CoredSurface { surface, core, depth: radius })
}
