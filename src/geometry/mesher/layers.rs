//! The "scaled shells" construction: a surface triangulation, a core point per surface vertex,
//! and layers of prisms between shells, each split into three tets.

use super::LayeredTetMesh;
use crate::geometry::{SurfaceMesh, TetMesh};
use crate::math::Point3;
use std::collections::HashMap;

/// A closed surface triangulation with, for each vertex, the point of the shape's core it
/// shrinks to, and the depth of the core below the surface (for graded shells).
pub(crate) struct CoredSurface {
    pub surface: SurfaceMesh,
    pub core: Vec<Point3>,
    pub depth: f64,
}

/// Tets with `|6V|` below this fraction of their longest edge cubed are flat: they join
/// coincident or collinear core points and carry no volume.
const FLAT: f64 = 1e-12;

/// Builds the layered tet mesh for shells `1 = s_0 > … > s_K = 0`.
pub(crate) fn build(cored: &CoredSurface, shells: &[f64]) -> LayeredTetMesh {
    let surface = &cored.surface;
    let nv = surface.vertices.len();
    let layers = shells.len() - 1;
    let mut vertices = Vec::with_capacity(nv * layers + 1);
    let mut shell = Vec::with_capacity(nv * layers + 1);

    // Core vertices come first and are merged by exact position: the prism rule below starts
    // every collapsed prism from its smallest index, so collapsed prisms fan out from the core,
    // which never produces flat or inverted tets.
    let mut merged: HashMap<[u64; 3], u32> = HashMap::new();
    let core_id: Vec<u32> = cored
        .core
        .iter()
        .map(|c| {
            // `+ 0.0` makes −0 and +0 (from clamping) one key.
            let key = [c.x, c.y, c.z].map(|x| (x + 0.0).to_bits());
            *merged.entry(key).or_insert_with(|| {
                vertices.push(*c);
                shell.push(0.0);
                (vertices.len() - 1) as u32
            })
        })
        .collect();
    let first_shell = vertices.len();
    for (k, &s) in shells[..layers].iter().enumerate() {
        for (v, c) in surface.vertices.iter().zip(&cored.core) {
            // The surface shell keeps the exact surface points.
            vertices.push(if k == 0 { *v } else { c + s * (v - c) });
            shell.push(s);
        }
    }
    let id = |k: usize, v: u32| -> u32 {
        if k == layers { core_id[v as usize] } else { (first_shell + k * nv) as u32 + v }
    };

    let mut tets = Vec::with_capacity(surface.triangles.len() * 3 * layers);
    for tri in &surface.triangles {
        for k in 0..layers {
            let outer = tri.map(|v| id(k, v));
            let inner = tri.map(|v| id(k + 1, v));
            for tet in split_prism(outer, inner) {
                if let Some(tet) = oriented(&vertices, tet) {
                    tets.push(tet);
                }
            }
        }
    }
    LayeredTetMesh { mesh: TetMesh { vertices, tets }, shell }
}

/// Splits the prism between triangles `x` and `y` (`x[i]`–`y[i]` are its side edges) into
/// three tets. Each quad side is cut along the diagonal from its smallest vertex index, so two
/// prisms sharing a side cut it the same way and the mesh conforms.
fn split_prism(x: [u32; 3], y: [u32; 3]) -> [[u32; 4]; 3] {
    let all = [x[0], x[1], x[2], y[0], y[1], y[2]];
    let mut m = 0;
    for i in 1..6 {
        if all[i] < all[m] {
            m = i;
        }
    }
    // Relabel so the smallest vertex is x0; both quads at x0 are then cut from x0.
    let (x, y) = if m < 3 { (x, y) } else { (y, x) };
    let r = m % 3;
    let rot = |t: [u32; 3]| [t[r], t[(r + 1) % 3], t[(r + 2) % 3]];
    let (x, y) = (rot(x), rot(y));
    let first = [x[0], y[0], y[1], y[2]];
    let quad_min = x[1].min(x[2]).min(y[1]).min(y[2]);
    if quad_min == x[1] || quad_min == y[2] {
        [first, [x[0], x[1], x[2], y[2]], [x[0], x[1], y[2], y[1]]]
    } else {
        [first, [x[0], x[1], x[2], y[1]], [x[0], x[2], y[2], y[1]]]
    }
}

/// The tet with positive orientation, or `None` if it repeats a vertex or is flat.
fn oriented(vertices: &[Point3], mut t: [u32; 4]) -> Option<[u32; 4]> {
    if t[0] == t[1] || t[0] == t[2] || t[0] == t[3] || t[1] == t[2] || t[1] == t[3] || t[2] == t[3] {
        return None;
    }
    let [a, b, c, d] = t.map(|i| vertices[i as usize]);
    let six_v = (b - a).dot(&(c - a).cross(&(d - a)));
    let longest = [b - a, c - a, d - a, c - b, d - b, d - c]
        .iter()
        .map(|e| e.norm_squared())
        .fold(0.0, f64::max)
        .sqrt();
    if six_v.abs() <= FLAT * longest.powi(3) {
        return None;
    }
    if six_v < 0.0 {
        t.swap(2, 3);
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prism_split_cuts_shared_sides_alike() {
        // Two prisms sharing side (1, 2): both must cut it along the same diagonal.
        let a = split_prism([0, 1, 2], [10, 11, 12]);
        let b = split_prism([2, 1, 3], [12, 11, 13]);
        let side = |tets: &[[u32; 4]; 3]| {
            let mut faces = Vec::new();
            for t in tets {
                for skip in 0..4 {
                    let mut f: Vec<u32> = (0..4).filter(|&i| i != skip).map(|i| t[i]).collect();
                    f.sort();
                    if f.iter().all(|v| [1, 2, 11, 12].contains(v)) {
                        faces.push(f);
                    }
                }
            }
            faces.sort();
            faces
        };
        assert_eq!(side(&a), side(&b));
        assert_eq!(side(&a).len(), 2);
    }
}
