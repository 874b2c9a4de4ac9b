//! Contact models. Each turns geometry + poses (+ velocities) into contact results.

mod body;
pub mod body_mesh;
pub mod capability;
pub mod errors;
mod friction;
pub mod hertz;
pub mod memory;
pub mod model;
mod model_kind;
pub mod pair_contact;
mod pair_filter;
pub mod peg;
pub mod pressure_field;
pub mod surface;
pub mod volume6d;

pub use body::{Compliance, ContactBody, ContactSpec};
pub use friction::combined_friction;
pub use model_kind::ModelKind;
pub use pair_filter::PairFilter;
