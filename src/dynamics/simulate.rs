//! Running a world forward in time with a chosen integrator, reporting states at output times.

use super::error::DynamicsError;
use super::semi_implicit_euler;
use super::world::World;

/// The integrators, with their settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Integrator {
    /// Fixed-step semi-implicit (symplectic) Euler with step `dt` (s).
    SemiImplicitEuler { dt: f64 },
}

/// Whether to go on after an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Steps taken (accepted).
    pub steps: u64,
    /// Steps rejected by error control.
    pub rejected: u64,
    /// Evaluations of the state derivative.
    pub evaluations: u64,
    /// Simulated time reached (s).
    pub t_end: f64,
}

/// Integrates from t = 0 to `duration`, calling `observe(t, y)` at t = 0 and then every
/// `output_dt` (rounded to a whole number of steps for fixed-step integrators) and at the end.
pub fn run(
    world: &World,
    integrator: &Integrator,
    duration: f64,
    output_dt: f64,
    mut observe: impl FnMut(f64, &[f64]) -> Result<Flow, DynamicsError>,
) -> Result<RunStats, DynamicsError> {
    let mut y = world.initial_state();
    let mut stats = RunStats::default();
    if observe(0.0, &y)? == Flow::Stop {
        return Ok(stats);
    }
    match integrator {
        Integrator::SemiImplicitEuler { dt } => {
            let steps = (duration / dt).round().max(1.0) as u64;
            let every = ((output_dt / dt).round() as u64).max(1);
            for k in 1..=steps {
                let t = (k - 1) as f64 * dt;
                semi_implicit_euler::step(world, t, &mut y, *dt)?;
                stats.steps += 1;
                stats.evaluations += 1;
                stats.t_end = k as f64 * dt;
                if (k % every == 0 || k == steps) && observe(stats.t_end, &y)? == Flow::Stop {
                    break;
                }
            }
        }
    }
    Ok(stats)
}
