//! Hertz point contact with MPR collision detection (the Modia3D model).

pub mod broad_phase;
mod capability;
pub mod collision_error;
pub mod contact_geometry;
mod contact_point;
pub mod contacts;
pub mod convex_shape;
mod epa;
pub mod force_law;
mod gjk;
pub mod material;
mod minkowski;
pub mod mpr;
pub mod pair;
pub mod settings;
pub mod setup;
pub mod stiffness;

pub use broad_phase::broad_phase;
pub use collision_error::{Body, HertzGeometryError, MprError};
pub use contacts::HertzModel;
pub use convex_shape::ConvexShape;
pub use mpr::{
    Contact, EstimateReason, MprCounts, MprStats, MprTolerances, Quality, signed_distance,
    signed_distance_counted,
};
