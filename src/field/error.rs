/// Errors from building pressure fields. Each message says what was wrong and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum FieldError {
    #[error("the tet mesh is empty ({vertices} vertices, {tets} tets); a field needs a meshed volume")]
    EmptyMesh { vertices: usize, tets: usize },
    #[error("{what} has {got} entries but the mesh has {expected} vertices; give one per vertex")]
    LengthMismatch { what: &'static str, got: usize, expected: usize },
    #[error("the tet mesh is unusable: {reason}")]
    BadMesh { reason: String },
    #[error("depth of vertex {vertex} is {value}; depths must be finite and ≥ 0 (m)")]
    BadDepth { vertex: usize, value: f64 },
    #[error("skin_depth must be a positive finite number (m), got {value}")]
    BadSkinDepth { value: f64 },
    #[error("no vertex is marked as boundary; mark the surface vertices (see `boundary_vertices`)")]
    NoBoundary,
    #[error(
        "no vertex is deeper than skin_depth = {skin_depth}; the deepest is {deepest}; use a smaller skin_depth or a finer resolution"
    )]
    SkinTooThick { skin_depth: f64, deepest: f64 },
    #[error("every vertex is on the boundary, so there is no interior for a core; use a finer mesh")]
    NoInterior,
    #[error("the sparse Cholesky solve failed ({reason}); the mesh may have flat or inverted tets")]
    Solve { reason: String },
}
