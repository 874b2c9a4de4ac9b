//! Contact models. Each turns geometry + poses (+ velocities) into contact results.

mod body;
pub mod hertz;
pub mod model;
mod model_kind;
pub mod peg;
pub mod pressure_field;
pub mod volume6d;

pub use body::{Compliance, ContactBody, ContactSpec};
pub use model_kind::ModelKind;

/// Two bodies' friction coefficients combined as their harmonic mean 2μ_aμ_b/(μ_a + μ_b) (0 when
/// both are 0), as every model combines them.
pub fn combined_friction(a: f64, b: f64) -> f64 {
    if a + b > 0.0 { 2.0 * a * b / (a + b) } else { 0.0 }
}
