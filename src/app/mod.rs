//! Output writers for the command line: legacy VTK files and PNG pressure heat maps.

mod colormap;
mod error;
mod font;
mod png_heatmap;
mod raster;
mod view;
mod vtk;

pub use colormap::viridis;
pub use error::OutputError;
pub use png_heatmap::write_pressure_png;
pub use vtk::{write_contact_surface_vtk, write_surface_vtk, write_tet_mesh_vtk};
