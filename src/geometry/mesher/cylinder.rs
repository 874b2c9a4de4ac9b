//! Cylinder meshes: a side grid and two caps of concentric rings, all rings aligned in angle,
//! widened to the cylinder's exact volume.

use super::layers::CoredSurface;
use super::limits::{budget, divisions, positive};
use super::revolution::{Ring, angle, revolve, ring_count};
use super::volume::fit_volume;
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::f64::consts::PI;

/// Chords and ring spacings are at most this fraction of the resolution, so the diagonals of
/// the side grid stay within 1.13 × resolution.
const STEP: f64 = 0.8;

/// Core snapping tolerance, as a fraction of the cylinder's size.
const SNAP: f64 = 1e-9;

/// The cylinder of radius `radius` and length `length` (axis z, centred) with edges
/// ≤ ~resolution, enclosing exactly the cylinder's volume `πR²·2L` (L the half length): x and y
/// are scaled by `k = sqrt(V_exact/V_mesh)`, so the side vertices lie on the cylinder of radius
/// `k·R`, slightly outside the exact surface (`(k − 1)·R` below `h²/(8R)` for chords `h`),
/// and the flat caps stay exact.
pub(crate) fn surface(radius: f64, length: f64, resolution: f64) -> Result<SurfaceMesh, GeometryError> {
    Ok(corrected(radius, length, resolution)?.0)
}

/// The volume-corrected cylinder's surface (radius `R' = k·R`) with core points on its medial
/// core, at depth `min(R', L)` (L the half length): for L ≥ R' the axis segment `|z| ≤ L − R'`
/// (`c = (0, 0, clamp(z))`), otherwise the disc `ρ ≤ R' − L` at z = 0 (`c` = the radial vector
/// clamped to length R' − L). Shell `s` is then the cylinder shrunk by `(1 − s)·min(R', L)` on
/// every side, so the pressure extent is `ε = min(R' − ρ, L − |z|)/min(R', L)`, the analytic
/// extent of the volume-corrected cylinder, exact at every vertex.
pub(crate) fn cored(radius: f64, length: f64, resolution: f64) -> Result<CoredSurface, GeometryError> {
    let (surface, rings, k) = corrected(radius, length, resolution)?;
    let radius = k * radius;
    let half = length / 2.0;
    // Rings within this distance of the core's boundary are on it: a ring meant to lie there
    // but off by round-off would give two core points a hair apart, joined by flat tets.
    let snap = SNAP * radius.max(half);
    let clamp = |x: f64, reach: f64| {
        if x >= reach - snap {
            reach
        } else if x <= -reach + snap {
            -reach
        } else {
            x
        }
    };
    // Core points come from ring data, not vertex positions, so points on one ray share the
    // exact same core point and merge.
    let mut core = Vec::with_capacity(surface.vertices.len());
    for ring in &rings {
        for i in 0..ring.count {
            core.push(if half >= radius {
                let reach = half - radius;
                Point3::new(0.0, 0.0, clamp(ring.z, reach))
            } else {
                let reach = radius - half;
                let rho = clamp(k * ring.rho, reach);
                let a = angle(i, ring.count);
                if ring.count == 1 {
                    Point3::origin()
                } else {
                    Point3::new(rho * a.cos(), rho * a.sin(), 0.0)
                }
            });
        }
    }
    Ok(CoredSurface { surface, core, depth: radius.min(half) })
}

/// The volume-corrected surface, its rings (before scaling) and the scale `k` of x and y.
fn corrected(
    radius: f64,
    length: f64,
    resolution: f64,
) -> Result<(SurfaceMesh, Vec<Ring>, f64), GeometryError> {
    let exact = PI * radius * radius * length;
    let half = length / 2.0;
    let axis = |v: &Point3| Point3::new(0.0, 0.0, v.z);
    let mut rings = rings(radius, length, resolution, half < radius)?;
    let mut mesh = revolve(&rings);
    let mut k = fit_volume(&mut mesh, axis, exact);
    if half >= radius && half < k * radius {
        // Widening made a long cylinder short: its core becomes a disc, whose cap rings need
        // the rim's count. Extra points on the flat caps leave the volume and k as they were.
        rings = self::rings(radius, length, resolution, true)?;
        mesh = revolve(&rings);
        k = fit_volume(&mut mesh, axis, exact);
    }
    Ok((mesh, rings, k))
}

/// The rings of the cylinder; `short` marks a cylinder whose core is a disc (R > L).
fn rings(radius: f64, length: f64, resolution: f64, short: bool) -> Result<Vec<Ring>, GeometryError> {
    positive("cylinder radius", radius)?;
    positive("cylinder length", length)?;
    positive("resolution", resolution)?;
    let step = STEP * resolution;
    let half = length / 2.0;
    let around = ring_count(radius, step);
    let radial = (radius / step).ceil().max(1.0);
    let along = (length / step).ceil().max(1.0);
    budget("cylinder", resolution, 2.0 * around * (along + 2.0 * radial))?;
    let (around, radial, along) = (divisions(around, 3), divisions(radial, 1), divisions(along, 1));

    // A short cylinder's core is a disc of radius R − L: cap rings outside it (and the ring
    // just inside) keep the rim's count so their points share rays with the rim, which keeps
    // the flattened shells from folding.
    let disc = radius - half;
    let cap_ring = |k: u32, z: f64| -> Ring {
        if k == 0 {
            return Ring { rho: 0.0, z, count: 1 };
        }
        let rho = if k == radial { radius } else { radius * k as f64 / radial as f64 };
        let next = radius * (k + 1) as f64 / radial as f64;
        let count =
            if next > disc && short { around } else { divisions(ring_count(rho, step), 3).min(around) };
        Ring { rho, z, count }
    };
    let mut rings: Vec<Ring> = (0..=radial).map(|k| cap_ring(k, -half)).collect();
    for j in 1..along {
        let z = -half + length * (j as f64 / along as f64);
        rings.push(Ring { rho: radius, z, count: around });
    }
    rings.extend((0..=radial).rev().map(|k| cap_ring(k, half)));
    Ok(rings)
}
