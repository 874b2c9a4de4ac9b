//! Cylinder meshes: two caps of concentric rings and a side of long elements (short cylinders:
//! a side grid), all rings aligned in angle, widened to the cylinder's exact volume.

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
/// ≤ ~resolution across the axis (along it, see [`rings`]), enclosing exactly the cylinder's
/// volume `πR²·2L` (L the half length): x and y are scaled by `k = sqrt(V_exact/V_mesh)`, so the
/// side vertices lie on the cylinder of radius `k·R`, slightly outside the exact surface
/// (`(k − 1)·R` below `h²/(8R)` for chords `h`), and the flat caps stay exact.
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
    let axis = |v: &Point3| Point3::new(0.0, 0.0, v.z);
    let rings = rings(radius, length, resolution)?;
    let mut mesh = revolve(&rings);
    let k = fit_volume(&mut mesh, axis, exact);
    Ok((mesh, rings, k))
}

/// The scale of x and y that gives a cylinder whose rims have `around` points its exact volume:
/// the caps are flat, so the mesh encloses the rim polygon's area times the length, and
/// k² = πR² / (½·n·R²·sin(2π/n)). The volume fit finds the same k to round-off; knowing it
/// first places the side rings where the widened cylinder's core ends.
fn rim_scale(around: u32) -> f64 {
    let n = around as f64;
    (2.0 * PI / (n * (2.0 * PI / n).sin())).sqrt()
}

/// The rings of the cylinder: its two caps' concentric rings and, along the side, rings only
/// where the field needs them.
///
/// A long cylinder (half length L ≥ k·R, its core the axis segment |z| ≤ L − k·R) has the
/// field (k·R − ρ)/(k·R) on its side, the same at every z: side rings at z = ±(L − k·R), where
/// the core ends and the field's kink (the cones from the core's ends through the rims) meets the
/// side, and none between, so the side's elements are long along the axis and a contact along
/// the side cuts few of them (as many polygons for a 1 m cylinder as for a 0.1 m one). A short
/// cylinder (core a disc; its field varies along z everywhere) keeps side rings every
/// `STEP·resolution`.
fn rings(radius: f64, length: f64, resolution: f64) -> Result<Vec<Ring>, GeometryError> {
    positive("cylinder radius", radius)?;
    positive("cylinder length", length)?;
    positive("resolution", resolution)?;
    let step = STEP * resolution;
    let half = length / 2.0;
    let around = ring_count(radius, step);
    let radial = (radius / step).ceil().max(1.0);
    // Bounded by the short cylinder's count, so the budget is checked before any division.
    let along = (length / step).ceil().max(1.0);
    budget("cylinder", resolution, 2.0 * around * (along + 2.0 * radial))?;
    let (around, radial) = (divisions(around, 3), divisions(radial, 1));
    let core_end = half - rim_scale(around) * radius;
    let short = core_end < 0.0;

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
    if short {
        let along = divisions(along, 1);
        for j in 1..along {
            let z = -half + length * (j as f64 / along as f64);
            rings.push(Ring { rho: radius, z, count: around });
        }
    } else if core_end >= 0.5 * step {
        // (Closer to the middle, the two rings would make a band of flat prisms; the rims alone
        // then join the side, as for a core that is a point.)
        rings.push(Ring { rho: radius, z: -core_end, count: around });
        rings.push(Ring { rho: radius, z: core_end, count: around });
    }
    rings.extend((0..=radial).rev().map(|k| cap_ring(k, half)));
    Ok(rings)
}
