//! Convex polytopes and the exact intersection of bodies made of them: the volume of an overlap
//! and its moments (Bouchard et al. 2015), which the 6D model turns into contacts and PEG into
//! its overlap measure.

pub mod convex;
pub mod intersection;
pub mod overlap;
pub mod tet_solid;

pub use convex::{Placed, Polytope, TetSolid};
pub use intersection::{IntersectionFaces, IntersectionMoments};
pub use overlap::{OverlapPairError, OverlapShape, OverlapShapeError};
