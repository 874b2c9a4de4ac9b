//! Which vertices form the rigid core (ε = 1) of a Laplace field.

use super::graph::Neighbours;
use crate::field::FieldError;
use crate::geometry::TetMesh;

/// The core of a Laplace field: where ε = 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Core {
    /// An approximation of the medial axis from the depth field: the vertices no neighbour is
    /// deeper than by more than [`RIDGE_SLOPE`] × the edge to it (the ridges of depth).
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
