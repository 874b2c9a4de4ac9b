//! Dynamics: bodies, the world, integrators.

pub mod body;
mod error;
pub mod hertz_contacts;
pub mod ode;
pub mod semi_implicit_euler;
pub mod simulate;
pub mod world;

pub use error::DynamicsError;
