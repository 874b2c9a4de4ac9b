//! Box meshes: 8 corners and 12 triangles; the core is the box shrunk by its smallest half
//! size. The box's pressure extent is linear on each tet joining a face to the core, so the
//! coarse mesh is exact and refining it would add tets without adding accuracy.

use super::layers::CoredSurface;
use super::limits::positive;
use crate::geometry::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::collections::HashMap;

/// The box of full sizes `size`, centred on the origin: 8 vertices and 12 triangles.
pub(crate) fn coarse(size: [f64; 3]) -> Result<SurfaceMesh, GeometryError> {
    check_sizes(size)?;
    Ok(grid(size, [1, 1, 1]))
}

/// The coarse box surface (12 triangles, whatever `resolution`, which is only checked), with
/// core points: each coordinate clamped to `[−(h_i − h_min), h_i − h_min]` (a point, segment or
/// rectangle). Shell `s` is then the box shrunk by `(1 − s)·h_min` on every side, so the
/// pressure extent is `ε = min_i (h_i − |x_i|)/h_min`. It is exact everywhere, not only at
/// vertices, at any resolution: each tet lies within one face's pyramid of the medial axis,
/// where ε is linear.
pub(crate) fn cored(size: [f64; 3], resolution: f64) -> Result<CoredSurface, GeometryError> {
    check_sizes(size)?;
    positive("resolution", resolution)?;
    let surface = coarse(size)?;
    let h = size.map(|s| s / 2.0);
    let h_min = h[0].min(h[1]).min(h[2]);
    let reach = h.map(|hi| hi - h_min);
    let snap = SNAP * h[0].max(h[1]).max(h[2]);
    let core = surface
        .vertices
        .iter()
        .map(|v| Point3::from([0, 1, 2].map(|i| clamp(v[i], reach[i], snap))))
        .collect();
    Ok(CoredSurface { surface, core, depth: h_min })
}

/// Grid lines within this fraction of the box size of the core's boundary are on it: a grid
/// line meant to lie there but off by round-off would give two core points a hair apart,
/// joined by flat tets instead of merged.
const SNAP: f64 = 1e-9;

/// `x` clamped to `[−reach, reach]`, snapping values within `snap` of a bound onto it.
fn clamp(x: f64, reach: f64, snap: f64) -> f64 {
    if x >= reach - snap {
        reach
    } else if x <= -reach + snap {
        -reach
    } else {
        x
    }
}

fn check_sizes(size: [f64; 3]) -> Result<(), GeometryError> {
    for (s, what) in size.iter().zip(["box size[0]", "box size[1]", "box size[2]"]) {
        positive(what, *s)?;
    }
    Ok(())
}

/// The box surface with `n[i]` cells along axis i. Vertices are lattice points keyed by their
/// integer indices, so face grids meet exactly along the box's edges.
fn grid(size: [f64; 3], n: [u32; 3]) -> SurfaceMesh {
    let coord = |axis: usize, i: u32| {
        let h = size[axis] / 2.0;
        // The far side is set exactly so the box stays symmetric to the last bit.
        if i == n[axis] { h } else { -h + size[axis] * (i as f64 / n[axis] as f64) }
    };
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for axis in 0..3 {
        // (u, v, axis) is right-handed, so u × v points along +axis.
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0, n[axis]] {
            for i in 0..n[u] {
                for j in 0..n[v] {
                    let mut corner = |di: u32, dj: u32| {
                        let mut key = [0u32; 3];
                        key[axis] = side;
                        key[u] = i + di;
                        key[v] = j + dj;
                        *index.entry(key).or_insert_with(|| {
                            vertices.push(Point3::new(coord(0, key[0]), coord(1, key[1]), coord(2, key[2])));
                            (vertices.len() - 1) as u32
                        })
                    };
                    let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    if side == 0 {
                        triangles.push([q[0], q[2], q[1]]);
                        triangles.push([q[0], q[3], q[2]]);
                    } else {
                        triangles.push([q[0], q[1], q[2]]);
                        triangles.push([q[0], q[2], q[3]]);
                    }
                }
            }
        }
    }
    SurfaceMesh { vertices, triangles }
}
