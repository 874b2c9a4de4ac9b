//! Capsule meshes: a side of long elements between two hemispheres of latitude rings, pushed
//! out from the axis segment to the capsule's exact volume.

use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use super::revolution::{Ring, revolve, ring_count};
use super::volume::fit_volume;
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::f64::consts::{FRAC_PI_2, PI};

/// Chords and ring spacings are at most this fraction of the resolution, so the diagonals of
/// the side grid stay within 1.13 × resolution.
const STEP: f64 = 0.8;

/// The capsule of radius `radius` whose hemisphere centres are `length` apart (axis z,
/// centred), with edges ≤ ~resolution across the axis, enclosing exactly the capsule's volume
/// `πR²·length + 4πR³/3`: every vertex `v` is moved to `c(v) + k·(v − c(v))`, with `c(v)` its
/// nearest point on the axis segment, so the vertices lie on the capsule of radius `k·R`,
/// slightly outside the exact surface (`(k − 1)·R` below `h²/(8R)` for edges `h`).
pub(crate) fn surface(radius: f64, length: f64, resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    Ok(corrected(radius, length, resolution)?.0)
}

/// The volume-corrected capsule's surface (radius `R' = k·R`) with each core point the nearest
/// point of the axis segment `|z| ≤ length/2` (depth R'). Shell `s` is the capsule of radius
/// `s·R'`, so the pressure extent is `ε = 1 − dist(x, segment)/R'`, the analytic extent of the
/// volume-corrected capsule, exact at every vertex.
pub(crate) fn cored(radius: f64, length: f64, resolution: f64) -> Result<CoredSurface, GeometryError> {
    let (surface, k) = corrected(radius, length, resolution)?;
    let half = length / 2.0;
    let core = surface.vertices.iter().map(|v| segment_point(v, half)).collect();
    Ok(CoredSurface { surface, core, depth: k * radius })
}

/// The nearest point to `v` on the axis segment `|z| ≤ half`.
fn segment_point(v: &Point3, half: f64) -> Point3 {
    Point3::new(0.0, 0.0, v.z.max(-half).min(half))
}

/// The volume-corrected surface and its enlargement `k`.
fn corrected(radius: f64, length: f64, resolution: f64) -> Result<(SurfaceMesh, f64), GeometryError> {
    let mut mesh = inscribed(radius, length, resolution)?;
    let half = length / 2.0;
    let exact = PI * radius * radius * length + 4.0 / 3.0 * PI * radius.powi(3);
    let k = fit_volume(&mut mesh, |v| segment_point(v, half), exact);
    Ok((mesh, k))
}

/// The capsule's mesh with its vertices on the exact surface.
fn inscribed(radius: f64, length: f64, resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    positive("capsule radius", radius)?;
    if !(length.is_finite() && length >= 0.0) {
        return Err(GeometryError::NonPositiveSize { what: "capsule length".into(), value: length });
    }
    positive("resolution", resolution)?;
    let step = STEP * resolution;
    let half = length / 2.0;
    let around = ring_count(radius, step);
    let latitudes = (FRAC_PI_2 * radius / step).ceil().max(1.0);
    // The side's field 1 − ρ/R is the same at every z: the two rims alone bound it, so its
    // elements are long along the axis and a contact along the side cuts few of them.
    let along = if length > 0.0 { 1 } else { 0 };
    budget("capsule", resolution, 2.0 * around * (along as f64 + 2.0 * latitudes))?;
    let (around, latitudes) = (divisions(around, 3), divisions(latitudes, 1));

    // Latitude k of the top hemisphere, k = 0 at the pole; the rim is exact so both
    // hemispheres meet the side at z = ±L.
    let latitude = |k: u32, sign: f64| -> Ring {
        if k == latitudes {
            return Ring { rho: radius, z: sign * half, count: around };
        }
        let polar = FRAC_PI_2 * k as f64 / latitudes as f64;
        let rho = radius * polar.sin();
        let count = if k == 0 { 1 } else { divisions(ring_count(rho, step), 3).min(around) };
        Ring { rho, z: sign * (half + radius * polar.cos()), count }
    };
    let mut rings: Vec<Ring> = (0..=latitudes).map(|k| latitude(k, -1.0)).collect();
    // A capsule of length 0 is a sphere: its two rims are one ring.
    let skip_rim = if along == 0 { 1 } else { 0 };
    rings.extend((0..=latitudes).rev().skip(skip_rim).map(|k| latitude(k, 1.0)));
    Ok(revolve(&rings))
}
