//! 6D frictional contact from intersection volumes (Bouchard et al. 2015), `kind = "volume6d"`:
//! from the exact intersection moments of two bodies (`geometry::polytope`), the contact frame
//! and patch ellipse, one pair's projection (Algorithm 1:
//! unilateral, cone, centre of pressure, point contact on the patch edge, spin clamp), and the
//! point contacts of the `points` baseline. The sweeps and the time stepping are in
//! `dynamics::time_stepping`.

pub mod body;
mod capability;
pub mod model;
pub mod patch;
pub mod points;
pub mod projection;
pub mod settings;
