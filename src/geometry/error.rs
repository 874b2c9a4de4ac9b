use std::path::PathBuf;

/// Errors from building geometry. Each message says what was wrong and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum GeometryError {
    #[error("{what} must be a positive finite number (m), got {value}; give a size > 0")]
    NonPositiveSize { what: String, value: f64 },
    #[error(
        "resolution {resolution} m is too fine for a {shape} of this size: it would need about {count} elements (limit {limit}); use a coarser resolution"
    )]
    TooFine { shape: String, resolution: f64, count: u64, limit: u64 },
    #[error("cannot read mesh file {path}: {reason}")]
    MeshFile { path: PathBuf, reason: String },
    #[error("mesh {path} is unusable: {reason}")]
    BadMesh { path: PathBuf, reason: String },
    /// The shape cannot be meshed at all (a half space).
    #[error("a {shape} has no mesh; {hint}")]
    NoMesh { shape: String, hint: String },
    /// A curved rigid shape was given no target edge length.
    #[error(
        "a rigid {shape} needs `resolution` in its contact table under pressure_field: its surface is meshed with edges of about that length (m; e.g. a tenth of its radius)"
    )]
    MissingResolution { shape: String },
    /// Points from which no convex hull with volume can be built.
    #[error("cannot build a convex hull: {reason}")]
    BadPoints { reason: String },
    /// A mesher option out of its range.
    #[error("invalid {what}: {reason}")]
    InvalidParameter { what: String, reason: String },
    /// A surface mesh that does not bound a solid; `problems` lists every defect found.
    #[error(
        "the surface mesh does not bound a solid ({} problem{}):\n  - {}\nVertex and triangle indices count from 0. Repair the mesh in a mesh editor (close holes, remove non-manifold edges, make normals consistent) and load it again",
        .problems.len(),
        if .problems.len() == 1 { "" } else { "s" },
        .problems.join("\n  - ")
    )]
    InvalidMesh { problems: Vec<String> },
    #[error("cannot write mesh file {path}: {reason}")]
    WriteMesh { path: PathBuf, reason: String },
    /// A surface whose interior cannot be tet-meshed (empty, broken, or enclosing nothing).
    #[error("cannot mesh the interior of the surface: {reason}")]
    Unmeshable { reason: String },
}
