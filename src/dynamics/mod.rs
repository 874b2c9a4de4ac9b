//! Dynamics: bodies, the world, integrators.

pub mod body;
pub mod coordinates;
pub mod crossing;
pub mod elastic_tracker;
mod energy_watch;
pub mod engine;
mod error;
mod group_solve;
pub mod implicit_euler;
pub mod impulse_step;
pub mod inside_body;
pub mod integrator;
pub mod joint_space_step;
pub mod lcp;
pub mod mechanism;
mod mechanism_response;
pub mod ode;
pub mod peg_step;
pub mod semi_implicit_euler;
pub mod simulate;
pub mod solver_report;
pub mod start_overlap;
pub mod stepper;
pub mod time_stepping;
pub mod world;

pub use energy_watch::{EnergyWatch, RELATIVE_TOLERANCE as ENERGY_TOLERANCE};
pub use error::DynamicsError;
