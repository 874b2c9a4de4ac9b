//! 6D frictional contact from intersection volumes (Bouchard et al. 2015), `kind = "volume6d"`:
//! groundwork. The exact intersection moments of a sphere or a convex polytope with a half
//! space, and of two convex polytopes, the contact frame and patch ellipse, and one pair's
//! projection of the solver (Algorithm 1: unilateral, cone, centre of pressure, point contact on
//! the patch edge, spin clamp) are here; general meshes, the sweeps of the projected block
//! Gauss–Seidel solver and the time stepping (issue 11) are not built yet.

pub mod body;
pub mod intersection;
pub mod model;
pub mod patch;
pub mod projection;
