//! Adaptive integrators for first-order systems `y' = f(t, y)`: an explicit Dormand–Prince 5(4)
//! pair for non-stiff problems and the implicit Radau IIA method of order 5 for stiff ones.
//! Both control the step size from a local error estimate, deliver dense output at requested
//! times and let the system project accepted states back onto a constraint manifold.

mod common;
mod dopri5;
mod error;
mod options;
mod radau5;
mod radau5_tableau;
mod system;

pub use dopri5::{Attempt, Dopri5, integrate_dopri5};
pub use error::OdeError;
pub use options::{AdaptiveOptions, Flow, OdeOutcome, StepStats, Tolerances};
pub use radau5::integrate_radau5;
pub use system::{FnSystem, OdeSystem};
