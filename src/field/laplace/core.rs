//! Which vertices form the rigid core (ε = 1) of a Laplace field.

use super::graph::Neighbours;
use crate::field::FieldError;
use crate::geometry::TetMesh;

/// The core of a Laplace field: where ε = 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Core {
    /// An approximation of the medial axis from the depth field — the vertices no neighbour is
    /// deeper than by more than [`RIDGE_SLOPE`] × the edge to it (the ridges of depth) —
    /// thickened to every vertex at least half as deep as its nearest ridge vertex (see
    /// [`CORE_DEPTH_FRACTION`]), and without its parts shallower than a quarter of the deepest
    /// point (see [`MIN_CORE_DEPTH_FRACTION`]).
    #[default]
    MedialAxis,
    /// Every vertex at depth ≥ h (m): a compliant skin of thickness h over a rigid core.
    SkinDepth(f64),
}

/// A vertex is on the ridge when no neighbour is deeper by more than this fraction of the edge
/// to it. Off the medial axis depth grows at unit rate along its gradient, so the neighbour best
/// aligned with the gradient is deeper by ≈ cos(angle)·edge, well above this for meshes whose
/// edges spread over all directions; on the ridge every neighbour is shallower or level.
pub const RIDGE_SLOPE: f64 = 0.3;

/// The medial-axis core is thickened to the vertices at least this fraction as deep as their
/// nearest ridge vertex. A point or curve core (a sphere's centre, a cylinder's axis) holds
/// ε = 1 on a set of vanishing capacity: the field would fall off ever faster around it under
/// refinement and the body would be far too soft. Thickened, a sphere's core is the ball of
/// half its radius and a slab's the middle half of its thickness, whatever the resolution.
pub const CORE_DEPTH_FRACTION: f64 = 0.5;

/// Medial-axis core vertices shallower than this fraction of the body's deepest point are
/// dropped (where the medial axis runs out to convex edges and corners).
pub const MIN_CORE_DEPTH_FRACTION: f64 = 0.25;

/// The core vertices (never boundary vertices), or the error saying why there are none.
pub(crate) fn select(
    mesh: &TetMesh,
    graph: &Neighbours,
    boundary: &[bool],
    depth: &[f64],
    core: Core,
) -> Result<Vec<bool>, FieldError> {
    let deepest = (0..depth.len()).filter(|&v| !boundary[v]).map(|v| depth[v]).fold(0.0, f64::max);
    match core {
        Core::SkinDepth(h) => {
            if !(h.is_finite() && h > 0.0) {
                return Err(FieldError::BadSkinDepth { value: h });
            }
            let inside: Vec<bool> = (0..depth.len()).map(|v| !boundary[v] && depth[v] >= h).collect();
            if inside.iter().any(|&c| c) {
                Ok(inside)
            } else {
                Err(FieldError::SkinTooThick { skin_depth: h, deepest })
            }
        }
        Core::MedialAxis => {
            if deepest <= 0.0 {
                return Err(FieldError::NoInterior);
            }
            let mut core = medial_axis(mesh, graph, boundary, depth);
            // A boundary neighbour given a larger depth could disqualify the deepest vertex.
            if let Some(v) = (0..depth.len()).find(|&v| !boundary[v] && depth[v] == deepest) {
                core[v] = true;
            }
            let mut core = thicken(mesh, graph, boundary, depth, &core);
            // The medial axis reaches the surface at convex edges and corners; a core there
            // would pin ε = 1 right under the surface. Keep only the deep part.
            for v in 0..core.len() {
                core[v] &= depth[v] >= MIN_CORE_DEPTH_FRACTION * deepest;
            }
            if let Some(v) = (0..depth.len()).find(|&v| !boundary[v] && depth[v] == deepest) {
                core[v] = true;
            }
            Ok(core)
        }
    }
}

/// The approximate medial axis: interior vertices of positive depth with no neighbour deeper
/// by more than [`RIDGE_SLOPE`] × the edge to it. This keeps the local maxima of depth and the
/// vertices within about `RIDGE_SLOPE` edge lengths of a ridge of the distance field; the
/// deepest vertex always qualifies, so the core is never empty when some vertex is interior.
/// The core is then a band one or two vertices wide around the true medial axis. In 3D a core
/// that is a point or a curve (a sphere's centre, a cylinder's axis) holds ε = 1 only on a set
/// of vanishing capacity, so under refinement the field falls off ever faster around it: use a
/// skin depth for such bodies.
pub(crate) fn medial_axis(mesh: &TetMesh, graph: &Neighbours, boundary: &[bool], depth: &[f64]) -> Vec<bool> {
    (0..depth.len())
        .map(|v| {
            !boundary[v]
                && depth[v] > 0.0
                && graph.of_vertex(v).iter().all(|&u| {
                    let u = u as usize;
                    let edge = (mesh.vertices[u] - mesh.vertices[v]).norm();
                    depth[u] - depth[v] <= RIDGE_SLOPE * edge
                })
        })
        .collect()
}

/// Adds to the ridge vertices every interior vertex whose depth is at least
/// [`CORE_DEPTH_FRACTION`] × the depth of its nearest ridge vertex (nearest along mesh edges,
/// by a multi-source Dijkstra).
fn thicken(
    mesh: &TetMesh,
    graph: &Neighbours,
    boundary: &[bool],
    depth: &[f64],
    ridge: &[bool],
) -> Vec<bool> {
    use std::cmp::Ordering;
    use std::collections::BinaryHeap;
    #[derive(PartialEq)]
    struct Item(f64, usize);
    impl Eq for Item {}
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Item {
        // Smallest distance first; ties by vertex for determinism.
        fn cmp(&self, o: &Self) -> Ordering {
            o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
        }
    }
    let n = depth.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut source_depth = vec![0.0; n];
    let mut heap = BinaryHeap::new();
    for v in (0..n).filter(|&v| ridge[v]) {
        dist[v] = 0.0;
        source_depth[v] = depth[v];
        heap.push(Item(0.0, v));
    }
    while let Some(Item(d, v)) = heap.pop() {
        if d > dist[v] {
            continue;
        }
        for &u in graph.of_vertex(v) {
            let u = u as usize;
            let nd = d + (mesh.vertices[u] - mesh.vertices[v]).norm();
            if nd < dist[u] {
                dist[u] = nd;
                source_depth[u] = source_depth[v];
                heap.push(Item(nd, u));
            }
        }
    }
    (0..n)
        .map(|v| {
            ridge[v]
                || (!boundary[v] && dist[v].is_finite() && depth[v] >= CORE_DEPTH_FRACTION * source_depth[v])
        })
        .collect()
}
