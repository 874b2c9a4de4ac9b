//! Refining a closed triangle mesh by longest-edge bisection until no edge is too long.

use crate::geometry::SurfaceMesh;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// An edge waiting to be split, ordered by length (ties by indices, for determinism).
#[derive(PartialEq)]
struct Long(f64, u32, u32);

impl Eq for Long {}

impl PartialOrd for Long {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Long {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(other.1.cmp(&self.1)).then(other.2.cmp(&self.2))
    }
}

/// Splits the longest edge of the mesh at its midpoint, in both triangles that share it, until
/// every edge is at most `max_edge`. The longest edge of the mesh is the longest edge of both
/// its triangles, so this is longest-edge bisection: no hanging vertices, and angles never
/// shrink below half the smallest input angle. Midpoints stay on the input's planes.
pub(crate) fn split_long_edges(mesh: &SurfaceMesh, max_edge: f64) -> SurfaceMesh {
    let mut vertices = mesh.vertices.clone();
    let mut triangles = mesh.triangles.clone();
    let mut owner: HashMap<(u32, u32), usize> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let length = |v: &[crate::math::Point3], a: u32, b: u32| (v[a as usize] - v[b as usize]).norm();
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            owner.insert((a, b), t);
            if a < b {
                heap.push(Long(length(&vertices, a, b), a, b));
            }
        }
    }
    while let Some(Long(len, a, b)) = heap.pop() {
        if len <= max_edge {
            break;
        }
        let (Some(&t), Some(&u)) = (owner.get(&(a, b)), owner.get(&(b, a))) else {
            continue; // Already split.
        };
        let m = vertices.len() as u32;
        vertices.push(vertices[a as usize] + (vertices[b as usize] - vertices[a as usize]) / 2.0);
        for (t, a, b) in [(t, a, b), (u, b, a)] {
            // Triangle (a, b, c) becomes (a, m, c) and (m, b, c).
            let tri = triangles[t];
            let r = (0..3).find(|&i| tri[i] == a).unwrap_or(0);
            let c = tri[(r + 2) % 3];
            let new = triangles.len();
            triangles[t] = [a, m, c];
            triangles.push([m, b, c]);
            owner.remove(&(a, b));
            owner.insert((a, m), t);
            owner.insert((m, c), t);
            owner.insert((m, b), new);
            owner.insert((b, c), new);
            owner.insert((c, m), new);
            heap.push(Long(length(&vertices, m, c), m.min(c), m.max(c)));
        }
        heap.push(Long(len / 2.0, a.min(m), a.max(m)));
        heap.push(Long(len / 2.0, b.min(m), b.max(m)));
    }
    SurfaceMesh { vertices, triangles }
}
