//! Tetrahedral meshes of the interior of a closed triangle surface, by isosurface stuffing
//! (Labelle & Shewchuk 2007) on a body-centred cubic lattice of spacing `resolution`.
//!
//! Inside and outside come from the generalized winding number (robust to small holes and
//! self-intersections); boundary vertices are exact crossings of lattice edges with the
//! surface, so they lie on it. Warping lattice vertices near the surface onto it, with the
//! published thresholds, bounds every dihedral angle away from 0° and 180° (10.7°–164.8° is
//! the proven range for the authors' stencils; these measure 17°–151°). The boundary is made of
//! chords of the surface, so curved parts lose a little volume and sharp edges and corners are
//! bevelled by up to about one lattice spacing; by default the boundary vertices are then moved
//! out along their normals by one small common distance that restores the enclosed volume
//! ([`MesherOptions::fit_volume`]).
//!
//! Features thinner than the resolution cannot be resolved by a lattice that coarse: they are
//! reported in [`MesherOutput::warnings`], as are surface components that vanished, a mesh
//! that broke into more pieces than the input has, and open or inside-out input.

mod diagnostics;
mod interior;
mod lattice;
mod level_set;
mod quality;
mod stuffing;
mod surface_distance;
mod triangle;
mod volume_fit;

pub use interior::{
    MesherOptions, MesherOutput, MesherStats, default_resolution, mesh_interior, mesh_interior_with,
};
pub use level_set::{LevelSetMesh, conform_to_level_set};
pub use quality::dihedral_range;
pub use surface_distance::SurfaceDistance;
