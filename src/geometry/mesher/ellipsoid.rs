//! Ellipsoid meshes: a unit icosphere scaled by the radii, with the centre as the core.

use super::icosphere;
use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;

/// The ellipsoid with semi-axes `radii` along x, y, z, with edges ≤ `resolution`: scaling
/// stretches an edge by at most the largest radius, so the unit mesh is refined for that one.
pub(crate) fn surface(radii: [f64; 3], resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    for (r, what) in radii.iter().zip(["ellipsoid radii[0]", "ellipsoid radii[1]", "ellipsoid radii[2]"]) {
        positive(what, *r)?;
    }
    positive("resolution", resolution)?;
    let largest = radii[0].max(radii[1]).max(radii[2]);
    let n = icosphere::divisions_for(largest, resolution);
    budget("ellipsoid", resolution, icosphere::triangle_count(n))?;
    let mut mesh = icosphere::unit_icosphere(divisions(n, 1));
    for p in &mut mesh.vertices {
        *p = Point3::new(p.x * radii[0], p.y * radii[1], p.z * radii[2]);
    }
    Ok(mesh)
}

/// The ellipsoid's surface with every core point at the centre (depth = smallest radius).
/// Shell `s` is the ellipsoid scaled by `s`, so the pressure extent is
/// `ε = 1 − sqrt(Σ x_i²/a_i²)`, exact at every vertex.
pub(crate) fn cored(radii: [f64; 3], resolution: f64) -> Result<CoredSurface, GeometryError> {
    let surface = surface(radii, resolution)?;
    let core = vec![Point3::origin(); surface.vertices.len()];
    let depth = radii[0].min(radii[1]).min(radii[2]);
    Ok(CoredSurface { surface, core, depth })
}
