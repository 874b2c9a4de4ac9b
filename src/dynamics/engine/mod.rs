//! The one stepping engine: a world's state, its scheme and its energy watch, advanced step by
//! step. The `simulate` run ([`super::simulate::run`]: the engine plus an output schedule) and
//! the stepper driven from outside ([`super::stepper::Stepper`]: Python) both advance a world
//! only through it.
//!
//! Schemes come in two families, each behind a trait: fixed-step schemes
//! ([`FixedStepScheme`]: implicit and semi-implicit Euler, velocity-level time stepping) and
//! adaptive ones ([`AdaptiveScheme`]: dopri5, radau5). [`Engine::new`] picks the scheme of an
//! [`Integrator`](crate::dynamics::integrator::Integrator); a new integrator is a new implementation of its family's trait and one arm
//! there.

mod adaptive;
mod driver;
mod fixed_force;
mod impulse;
mod run_stats;
mod scheme;
mod traits;
mod world_system;

pub use driver::{Engine, InitialState};
pub use impulse::constraint_step;
pub use run_stats::RunStats;
pub use scheme::Scheme;
pub use traits::{AdaptiveScheme, FixedOutput, FixedStepScheme, StepClock, StepReport};
pub use world_system::WorldSystem;
