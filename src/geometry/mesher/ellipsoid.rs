//! Ellipsoid meshes: a unit icosphere scaled by the radii and enlarged to the ellipsoid's
//! exact volume, with the centre as the core.

use super::icosphere;
use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use super::volume::fit_volume;
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::f64::consts::PI;

/// The ellipsoid with semi-axes `radii` along x, y, z, with edges ≤ ~`resolution` (scaling
/// stretches an edge by at most the largest radius, so the unit mesh is refined for that one),
/// enclosing exactly the ellipsoid's volume `4π·a·b·c/3`: its vertices lie on the ellipsoid
/// with semi-axes `k·radii`, slightly outside the exact surface
/// (`k = (V_exact/V_mesh)^(1/3)`; the vertices move out by less than `h²/(8ρ)` for edges `h`,
/// with `ρ = a_min²/a_max` the smallest radius of curvature).
pub(crate) fn surface(radii: [f64; 3], resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    Ok(corrected(radii, resolution)?.0)
}

/// The ellipsoid's surface with every core point at the centre (depth = `k` × the smallest
/// radius). Shell `s` is the corrected ellipsoid scaled by `s`, so the pressure extent is
/// `ε = 1 − sqrt(Σ x_i²/(k·a_i)²)`, the analytic extent of the volume-corrected ellipsoid,
/// exact at every vertex.
pub(crate) fn cored(radii: [f64; 3], resolution: f64) -> Result<CoredSurface, GeometryError> {
    let (surface, k) = corrected(radii, resolution)?;
    let core = vec![Point3::origin(); surface.vertices.len()];
    let depth = k * radii[0].min(radii[1]).min(radii[2]);
    Ok(CoredSurface { surface, core, depth })
}

/// The volume-corrected mesh and its enlargement `k`.
fn corrected(radii: [f64; 3], resolution: f64) -> Result<(SurfaceMesh, f64), GeometryError> {
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
    let exact = 4.0 / 3.0 * PI * radii[0] * radii[1] * radii[2];
    let k = fit_volume(&mut mesh, |_| Point3::origin(), exact);
    Ok((mesh, k))
}
