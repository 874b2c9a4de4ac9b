//! Dynamics: bodies, the world, integrators.

pub mod body;
pub mod semi_implicit_euler;
pub mod simulate;
mod error;
pub mod world;

pub use error::DynamicsError;
