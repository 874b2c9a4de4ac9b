//! Sphere meshes: an icosphere enlarged to the sphere's exact volume, with the centre as the
//! core.

use super::icosphere;
use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use super::volume::fit_volume;
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::f64::consts::PI;

/// The sphere of radius `radius` as an icosphere with edges ≤ ~`resolution`, enclosing exactly
/// the sphere's volume `4πR³/3`: its vertices lie on the sphere of radius `k·R`, slightly
/// outside the exact surface (`k = (V_exact/V_icosphere)^(1/3)`, `(k − 1)·R` below `h²/(8R)`
/// for edges `h`).
pub(crate) fn surface(radius: f64, resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    Ok(corrected(radius, resolution)?.0)
}

/// The sphere's surface with every core point at the centre, at depth `k·R`. Shell `s` is the
/// sphere of radius `s·k·R`, so the pressure extent is `ε = 1 − |x|/(k·R)`, the analytic extent
/// of the volume-corrected sphere, exact at every vertex.
pub(crate) fn cored(radius: f64, resolution: f64) -> Result<CoredSurface, GeometryError> {
    let (surface, k) = corrected(radius, resolution)?;
    let core = vec![Point3::origin(); surface.vertices.len()];
    Ok(CoredSurface { surface, core, depth: k * radius })
}

/// The volume-corrected icosphere and its enlargement `k`.
fn corrected(radius: f64, resolution: f64) -> Result<(SurfaceMesh, f64), GeometryError> {
    positive("sphere radius", radius)?;
    positive("resolution", resolution)?;
    let n = icosphere::divisions_for(radius, resolution);
    budget("sphere", resolution, icosphere::triangle_count(n))?;
    let mut mesh = icosphere::unit_icosphere(divisions(n, 1));
    for p in &mut mesh.vertices {
        *p = Point3::from(p.coords * radius);
    }
    let k = fit_volume(&mut mesh, |_| Point3::origin(), 4.0 / 3.0 * PI * radius.powi(3));
    Ok((mesh, k))
}
