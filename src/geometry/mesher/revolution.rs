//! Surfaces of revolution about z from a stack of rings, for cylinders and capsules.

use crate::geometry::SurfaceMesh;
use crate::math::Point3;
use std::f64::consts::PI;

/// `count` points evenly spaced around the circle of radius `rho` at height `z`, the first at
/// angle 0; a ring with `count == 1` is a pole on the axis.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ring {
    pub rho: f64,
    pub z: f64,
    pub count: u32,
}

/// Points a ring of radius `rho` needs so its chords are ≤ `max_chord` (at least 3; 1 on the
/// axis).
pub(crate) fn ring_count(rho: f64, max_chord: f64) -> f64 {
    if rho <= 0.0 {
        return 1.0;
    }
    let half = (max_chord / (2.0 * rho)).min(1.0).asin();
    (PI / half).ceil().max(3.0)
}

/// The angle of point `i` of a ring of `count` points; one formula, so rings with equal counts
/// have bit-identical angles.
pub(crate) fn angle(i: u32, count: u32) -> f64 {
    2.0 * PI * i as f64 / count as f64
}

/// The closed surface through `rings`, listed from the bottom pole to the top pole along the
/// profile, outward oriented. Consecutive rings are zipped together in angle order, which joins
/// rings of different counts without gaps and keeps the joining edges short. Vertices are listed ring by ring, point 0 first.
pub(crate) fn revolve(rings: &[Ring]) -> SurfaceMesh {
    let mut vertices = Vec::new();
    let mut first = Vec::with_capacity(rings.len());
    for ring in rings {
        first.push(vertices.len() as u32);
        for i in 0..ring.count {
            let angle = angle(i, ring.count);
            let (rho, z) = (ring.rho, ring.z);
            vertices.push(if ring.count == 1 {
                Point3::new(0.0, 0.0, z)
            } else {
                Point3::new(rho * angle.cos(), rho * angle.sin(), z)
            });
        }
    }
    let mut triangles = Vec::new();
    for r in 0..rings.len().saturating_sub(1) {
        // Zip from the inner (then lower) ring, whichever way the profile runs, so the two caps
        // of a cylinder get mirror-identical triangulations: a short cylinder's shells collapse
        // both caps onto one disc, where their tets must meet face to face.
        let (p, q) = (&rings[r], &rings[r + 1]);
        let forward = (p.rho, p.z) <= (q.rho, q.z);
        let (lo, hi) = if forward { (r, r + 1) } else { (r + 1, r) };
        let zipped = zip(&vertices, (first[lo], rings[lo].count), (first[hi], rings[hi].count));
        // Zipped triangles face outward when `lo` precedes `hi` along the profile.
        triangles.extend(zipped.into_iter().map(|t| if forward { t } else { [t[0], t[2], t[1]] }));
    }
    SurfaceMesh { vertices, triangles }
}

/// Triangulates the band between rings `(first, count)` A and B, each step adding one triangle
/// that advances on the ring whose advance makes the shorter new edge (ties: the one whose next
/// point comes first in angle, compared exactly in integers); a pole never advances.
fn zip(vertices: &[Point3], (fa, na): (u32, u32), (fb, nb): (u32, u32)) -> Vec<[u32; 3]> {
    let a = |i: u32| fa + i % na;
    let b = |j: u32| fb + j % nb;
    let len = |p: u32, q: u32| (vertices[p as usize] - vertices[q as usize]).norm();
    let mut triangles = Vec::with_capacity((na + nb) as usize);
    let (mut i, mut j) = (0, 0);
    while (i < na && na > 1) || (j < nb && nb > 1) {
        let advance_a = if na == 1 || i == na {
            false
        } else if nb == 1 || j == nb {
            true
        } else {
            let (via_a, via_b) = (len(a(i + 1), b(j)), len(a(i), b(j + 1)));
            if (via_a - via_b).abs() > 1e-9 * (via_a + via_b) {
                via_a < via_b
            } else {
                (i as u64 + 1) * nb as u64 <= (j as u64 + 1) * na as u64
            }
        };
        if advance_a {
            triangles.push([a(i), a(i + 1), b(j)]);
            i += 1;
        } else {
            triangles.push([a(i), b(j + 1), b(j)]);
            j += 1;
        }
    }
    triangles
}
