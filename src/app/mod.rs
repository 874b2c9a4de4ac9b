//! Output writers for the command line: VTK files and series, PNG heat maps and line plots, CSV
//! histories and a progress line.

mod colormap;
mod csv_out;
mod error;
mod font;
pub mod interrupt;
mod measures;
mod number;
mod plot;
mod png_heatmap;
mod progress;
mod raster;
pub mod simulation;
mod view;
mod viewer_page;
mod vtk;
mod vtk_series;

pub use colormap::viridis;
pub(crate) use csv_out::write_text as write_csv_text;
pub use csv_out::{
    BodyRow, CONTACT_COLUMNS, ContactRow, ENERGY_COLUMNS, ENERGY_JOINT_COLUMNS, EnergyRow, JOINT_COLUMNS,
    MEASURE_COLUMNS, MeasuresCsv, SOLVER_COLUMNS, SimWriter, SolverCsv, TRAJECTORY_COLUMNS, WriterThread,
};
pub use error::OutputError;
pub use measures::{MeasureDrift, Measures};
pub use number::Shortest;
pub use plot::{plot_colour, plot_lines};
pub use png_heatmap::write_pressure_png;
pub use progress::{Progress, ProgressMode};
pub use viewer_page::{
    PageBody, PageEnergy, PageMarker, PagePatch, ViewerPage, viewer_html, write_viewer_page,
};
pub use vtk::{write_contact_surface_vtk, write_surface_vtk, write_tet_mesh_vtk};
pub use vtk_series::{BodyFrame, ContactFrame, MeshCells, VtkSeries};
