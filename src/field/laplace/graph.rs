//! The vertex graph of a tet mesh (its edges), its boundary vertices and graph depths.

use crate::geometry::TetMesh;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The neighbours of each vertex along tet edges, in compressed rows: the neighbours of `v` are
/// `adjacent[start[v]..start[v + 1]]`, sorted, without `v`.
pub(crate) struct Neighbours {
    pub start: Vec<usize>,
    pub adjacent: Vec<u32>,
}

impl Neighbours {
    /// The edges of the tets `keep` accepts; tets naming a vertex outside the mesh are ignored.
    pub fn of(mesh: &TetMesh, keep: impl Fn(usize) -> bool) -> Neighbours {
        let nv = mesh.vertices.len();
        let valid = |tet: &[u32; 4]| tet.iter().all(|&v| (v as usize) < nv);
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(mesh.tets.len() * 12);
        for (t, tet) in mesh.tets.iter().enumerate() {
            if !valid(tet) || !keep(t) {
                continue;
            }
            for i in 0..4 {
                for j in 0..4 {
                    if tet[i] != tet[j] {
                        pairs.push((tet[i], tet[j]));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut start = vec![0; nv + 1];
        for &(a, _) in &pairs {
            start[a as usize + 1] += 1;
        }
        for v in 0..nv {
            start[v + 1] += start[v];
        }
        Neighbours { start, adjacent: pairs.into_iter().map(|(_, b)| b).collect() }
    }

    #[inline]
    pub fn of_vertex(&self, v: usize) -> &[u32] {
        &self.adjacent[self.start[v]..self.start[v + 1]]
    }

    /// The position of the edge `(v, u)` in `adjacent`, if it exists.
    #[inline]
    pub fn edge(&self, v: usize, u: u32) -> Option<usize> {
        self.of_vertex(v).binary_search(&u).ok().map(|k| self.start[v] + k)
    }
}

/// Whether each vertex lies on the mesh's boundary (a corner of a face that only one tet has).
pub fn boundary_vertices(mesh: &TetMesh) -> Vec<bool> {
    let mut on = vec![false; mesh.vertices.len()];
    for tri in mesh.boundary().triangles {
        for v in tri {
            if let Some(flag) = on.get_mut(v as usize) {
                *flag = true;
            }
        }
    }
    on
}

/// The depth of each vertex below the surface, approximated by the shortest path along mesh
/// edges from a boundary vertex (Dijkstra). Paths bend along edges, so this overestimates the
/// straight-line distance (by up to ~15% on irregular meshes, not at all along mesh-aligned
/// directions); an exact point-to-surface distance is better where the caller has one.
/// Vertices no path reaches (no boundary in their part of the mesh) get depth 0.
pub fn depth_by_graph(mesh: &TetMesh, boundary: &[bool]) -> Vec<f64> {
    let graph = Neighbours::of(mesh, |_| true);
    let nv = mesh.vertices.len();
    let mut depth = vec![f64::INFINITY; nv];
    let mut heap = BinaryHeap::new();
    for v in 0..nv {
        if boundary.get(v).copied().unwrap_or(false) {
            depth[v] = 0.0;
            heap.push(Visit { depth: 0.0, vertex: v });
        }
    }
    while let Some(Visit { depth: d, vertex: v }) = heap.pop() {
        if d > depth[v] {
            continue;
        }
        for &u in graph.of_vertex(v) {
            let u = u as usize;
            let next = d + (mesh.vertices[u] - mesh.vertices[v]).norm();
            if next < depth[u] {
                depth[u] = next;
                heap.push(Visit { depth: next, vertex: u });
            }
        }
    }
    for d in &mut depth {
        if !d.is_finite() {
            *d = 0.0;
        }
    }
    depth
}

/// A heap entry ordered so the shallowest vertex pops first.
struct Visit {
    depth: f64,
    vertex: usize,
}

impl PartialEq for Visit {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Visit {}
impl PartialOrd for Visit {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Visit {
    fn cmp(&self, other: &Self) -> Ordering {
        other.depth.total_cmp(&self.depth).then(other.vertex.cmp(&self.vertex))
    }
}
