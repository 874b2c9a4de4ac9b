//! Geometry: shapes, triangle surface meshes, tetrahedral meshes, bounding-volume hierarchies,
//! clipping, convex polytopes and their exact intersections, mesh files and the meshers that
//! turn shapes into meshes.

pub mod bvh;
pub mod clip;
pub mod convex_hull;
mod error;
mod interior;
pub mod mass_properties;
pub mod mesh_check;
pub mod mesh_io;
pub mod mesher;
pub mod polytope;
pub mod self_intersection;
mod shape;
pub mod solid_moments;
pub mod surface_io;
mod surface_mesh;
pub mod tet_io;
mod tet_mesh;
pub mod tet_mesher;

pub use error::GeometryError;
pub use interior::Interior;
pub use shape::{CompoundPart, MeshCore, MeshData, Shape};
pub use surface_mesh::SurfaceMesh;
pub use tet_mesh::{TetMesh, signed_tet_volume, tet_planes};
