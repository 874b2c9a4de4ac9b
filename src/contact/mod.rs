//! Contact models. Each turns geometry + poses (+ velocities) into contact results.

mod body;
mod friction;
pub mod hertz;
pub mod model;
mod model_kind;
pub mod pair_contact;
pub mod peg;
pub mod pressure_field;
pub mod volume6d;

pub use body::{Compliance, ContactBody, ContactSpec};
pub use friction::combined_friction;
pub use model_kind::ModelKind;
