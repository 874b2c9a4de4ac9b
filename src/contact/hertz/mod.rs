//! Hertz point contact with MPR collision detection (the Modia3D model).

pub mod broad_phase;
pub mod convex_shape;
mod epa;
pub mod error;
mod gjk;
mod minkowski;
pub mod mpr;

pub use broad_phase::broad_phase;
pub use convex_shape::ConvexShape;
pub use error::{HertzGeometryError, MprError};
pub use mpr::{Contact, EstimateReason, MprCounts, MprStats, MprTolerances, Quality, signed_distance};
