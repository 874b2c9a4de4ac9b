//! Pressure field contact (Elandt et al. 2019): per-body pressure fields on tet meshes, the
//! equal-pressure contact surface, Hunt–Crossley dissipation, regularized Coulomb friction, one
//! net wrench per pair, and the elastic potential energy.
//!
//! Use [`PfBody::new`] once per body, then [`evaluate_pair`] (wrench), [`contact_surface`]
//! (the polygons, for output) and [`pair_energy`] per query.

mod body;
mod broad_phase;
mod candidate_cache;
mod capability;
mod cells;
mod chunked;
mod energy;
mod error;
mod pair;
mod plane_cache;
mod plane_quadrature;
mod polygon_rule;
mod query;
mod setup;
mod sphere_plane;

mod traction;

pub use crate::contact::surface::{ContactPolygon, ContactSurface};
pub use body::{Compliance, CompliantMesh, ContactProperties, PfBody, PfGeometry, RigidMesh};
pub use candidate_cache::CandidateCache;
pub use error::PressureFieldError;
pub use pair::BodyState;
pub use plane_cache::PlaneCache;
pub use query::{
    DEFAULT_STICTION_SPEED, PairDerivatives, PairWrench, PoseStiffness, QueryOptions, VelocityJacobian,
    contact_surface, evaluate_pair, evaluate_pair_kept, evaluate_pair_with_derivatives,
    evaluate_pair_with_derivatives_kept, evaluate_pair_with_jacobian, pair_energy, pair_penetration,
};
pub use setup::{BodyBuildError, PressureFieldModel, contact_properties};

#[cfg(test)]
mod tests;
