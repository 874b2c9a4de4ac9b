//! 6D frictional contact from intersection volumes (Bouchard et al. 2015), `kind = "volume6d"`:
//! groundwork. The exact intersection moments of a sphere or a convex polytope with a half
//! space, and of two convex polytopes, and the contact frame and patch ellipse are here; general
//! meshes and the projected block Gauss–Seidel solver (issue 11) are not built yet.

pub mod intersection;
pub mod patch;
