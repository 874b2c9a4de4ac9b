//! The unit sphere as a subdivided icosahedron: 20 faces, each split into n² triangles whose
//! corners are projected onto the sphere.

use crate::geometry::SurfaceMesh;
use crate::math::Point3;
use std::collections::HashMap;

/// Edge length of the icosahedron inscribed in the unit sphere.
const EDGE: f64 = 1.051_462_224_238_267_2;
/// Distance of the icosahedron's faces from the centre. Radial projection from outside this
/// ball onto the unit sphere stretches lengths by at most its inverse, which bounds edges.
const INRADIUS: f64 = 0.794_654_472_291_766_1;

/// The subdivision count that keeps every edge of an icosphere of radius `radius` at most
/// `max_edge` long.
pub(crate) fn divisions_for(radius: f64, max_edge: f64) -> f64 {
    (radius * EDGE / (INRADIUS * max_edge)).ceil().max(1.0)
}

/// Triangle count of the icosphere with `n` divisions.
pub(crate) fn triangle_count(n: f64) -> f64 {
    20.0 * n * n
}

/// The unit icosphere with `n` divisions per icosahedron edge, outward oriented.
pub(crate) fn unit_icosphere(n: u32) -> SurfaceMesh {
    let corners = icosahedron_corners();
    let faces = icosahedron_faces(&corners);
    let mut index: HashMap<[(u32, u32); 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    // A grid point is Σ w_k·corner_k / n with integer weights; keyed by its sorted
    // (corner, weight) pairs, a point on a shared edge or corner gets one vertex whichever face
    // meets it first, and its position is computed from the key so it is the same bits.
    let mut point = |weights: [(u32, u32); 3]| -> u32 {
        let mut key = weights.map(|(c, w)| if w == 0 { (u32::MAX, 0) } else { (c, w) });
        key.sort_unstable();
        *index.entry(key).or_insert_with(|| {
            let mut p = nalgebra::Vector3::zeros();
            for (c, w) in key.iter().filter(|(_, w)| *w > 0) {
                p += corners[*c as usize].coords * (*w as f64);
            }
            vertices.push(Point3::from(p.normalize()));
            (vertices.len() - 1) as u32
        })
    };
    let mut triangles = Vec::with_capacity(20 * (n as usize).pow(2));
    for [a, b, c] in faces {
        let mut p = |i: u32, j: u32| point([(a, n - i - j), (b, i), (c, j)]);
        for i in 0..n {
            for j in 0..n - i {
                triangles.push([p(i, j), p(i + 1, j), p(i, j + 1)]);
                if i + j + 1 < n {
                    triangles.push([p(i + 1, j), p(i + 1, j + 1), p(i, j + 1)]);
                }
            }
        }
    }
    SurfaceMesh { vertices, triangles }
}

/// The 12 corners: cyclic permutations of (0, ±1, ±φ), normalized.
fn icosahedron_corners() -> Vec<Point3> {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut corners = Vec::with_capacity(12);
    for (s1, s2) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
        for p in [[0.0, s1, s2 * phi], [s1, s2 * phi, 0.0], [s2 * phi, 0.0, s1]] {
            corners.push(Point3::from(nalgebra::Vector3::from(p).normalize()));
        }
    }
    corners
}

/// The 20 faces: every triple of mutually adjacent corners, oriented outward.
fn icosahedron_faces(corners: &[Point3]) -> Vec<[u32; 3]> {
    let adjacent = |i: usize, j: usize| (corners[i] - corners[j]).norm() < 1.2 * EDGE;
    let mut faces = Vec::with_capacity(20);
    for i in 0..12 {
        for j in i + 1..12 {
            for k in j + 1..12 {
                if adjacent(i, j) && adjacent(j, k) && adjacent(i, k) {
                    let (a, b, c) = (corners[i], corners[j], corners[k]);
                    let outward = (b - a).cross(&(c - a)).dot(&a.coords) > 0.0;
                    let (j, k) = if outward { (j, k) } else { (k, j) };
                    faces.push([i as u32, j as u32, k as u32]);
                }
            }
        }
    }
    faces
}
