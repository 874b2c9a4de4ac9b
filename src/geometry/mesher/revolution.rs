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
/// rings of different counts without gaps. Vertices are listed ring by ring, point 0 first.
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
        let (na, nb) = (rings[r].count, rings[r + 1].count);
        let a = |i: u32| first[r] + i % na;
        let b = |j: u32| first[r + 1] + j % nb;
        let (mut i, mut j) = (0, 0);
        // Each step adds one triangle, advancing on whichever ring's next point comes first
        // in angle ((i + 1)/na ≤ (j + 1)/nb, compared exactly in integers); a pole never
        // advances.
        while (i < na && na > 1) || (j < nb && nb > 1) {
            let advance_a = nb == 1
                || (na > 1
                    && i < na
                    && (j >= nb || (i as u64 + 1) * nb as u64 <= (j as u64 + 1) * na as u64));
            if advance_a {
                triangles.push([a(i), a(i + 1), b(j)]);
                i += 1;
            } else {
                triangles.push([a(i), b(j + 1), b(j)]);
                j += 1;
            }
        }
    }
    SurfaceMesh {
        vertices,
        triangles,
    }
}
