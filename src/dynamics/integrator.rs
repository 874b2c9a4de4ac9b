//! The integrator choice: plain data, parsed from a scene in one place
//! (`scene::integrator_choice`) and turned into a stepping scheme by the engine
//! ([`super::engine`]).

use super::ode::{AdaptiveOptions, Tolerances};
use crate::contact::model::ContactModel;

/// The integrators, with their settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Integrator {
    /// Fixed-step backward Euler for the contact forces (Newton; stiffness and damping
    /// implicit): stable at any contact stiffness.
    ImplicitEuler { dt: f64 },
    /// Fixed-step semi-implicit (symplectic) Euler with step `dt` (s); dissipation and friction
    /// implicit, elastic contact forces explicit.
    SemiImplicitEuler { dt: f64 },
    /// Adaptive explicit Dormand–Prince 5(4).
    Dopri5 { tolerances: Tolerances, initial_step: Option<f64> },
    /// Adaptive implicit Radau IIA of order 5 (stiffly accurate, L-stable), for stiff contact.
    Radau5 { tolerances: Tolerances, initial_step: Option<f64> },
    /// Fixed-step velocity-level time stepping with contact impulses, for the impulse models
    /// (`volume6d`, `peg`).
    TimeStepping { dt: f64 },
}

impl Integrator {
    /// The fixed step (s) of the fixed-step schemes; `None` for the adaptive ones.
    pub fn fixed_dt(&self) -> Option<f64> {
        match self {
            Integrator::ImplicitEuler { dt }
            | Integrator::SemiImplicitEuler { dt }
            | Integrator::TimeStepping { dt } => Some(*dt),
            Integrator::Dopri5 { .. } | Integrator::Radau5 { .. } => None,
        }
    }

    /// The first step the adaptive schemes try (`None`: their own estimate, and for the
    /// fixed-step schemes).
    pub fn initial_step(&self) -> Option<f64> {
        match self {
            Integrator::Dopri5 { initial_step, .. } | Integrator::Radau5 { initial_step, .. } => {
                *initial_step
            }
            Integrator::ImplicitEuler { .. }
            | Integrator::SemiImplicitEuler { .. }
            | Integrator::TimeStepping { .. } => None,
        }
    }

    /// The adaptive schemes' options: the scene's first step, steps of at most `max_step` and
    /// at least [`adaptive_step_floor`] of it, at most `max_steps` steps.
    pub fn adaptive_options(&self, max_step: f64, max_steps: u64) -> AdaptiveOptions {
        AdaptiveOptions {
            initial_step: self.initial_step(),
            max_step: Some(max_step),
            min_step: adaptive_step_floor(max_step),
            max_steps,
        }
    }

    /// The name a scene gives it (`[sim] integrator`).
    pub fn name(&self) -> &'static str {
        match self {
            Integrator::ImplicitEuler { .. } => "implicit_euler",
            Integrator::SemiImplicitEuler { .. } => "semi_implicit_euler",
            Integrator::Dopri5 { .. } => "dopri5",
            Integrator::Radau5 { .. } => "radau5",
            Integrator::TimeStepping { .. } => "time_stepping",
        }
    }

    /// What to change when a run under this integrator breaks the energy balance.
    pub fn energy_growth_advice(&self, model: &ContactModel) -> &'static str {
        match self {
            Integrator::SemiImplicitEuler { .. } => {
                "the step is too large for the contact stiffness: use integrator = \"implicit_euler\" (stable at any stiffness) or a smaller dt"
            }
            Integrator::ImplicitEuler { .. } => {
                "the implicit step did not hold the contact: use a smaller dt, or integrator = \"radau5\""
            }
            Integrator::TimeStepping { .. } => model.time_stepping_advice(),
            Integrator::Dopri5 { .. } | Integrator::Radau5 { .. } => {
                "tighten rtol/atol, or use integrator = \"implicit_euler\""
            }
        }
    }
}

/// A fixed-step run's number of steps of `dt` in `duration` and the steps between outputs
/// (each rounded to the nearest whole number, at least one).
pub fn fixed_step_counts(duration: f64, output_dt: f64, dt: f64) -> (u64, u64) {
    ((duration / dt).round().max(1.0) as u64, ((output_dt / dt).round() as u64).max(1))
}

/// The smallest adaptive step: a billionth of the output interval. Contacts that need smaller
/// steps are stiff enough to hang a run; the error that follows says what to do.
pub fn adaptive_step_floor(output_dt: f64) -> f64 {
    1e-9 * output_dt
}

/// The most adaptive steps (accepted and rejected) in a run of `outputs` output intervals.
pub fn adaptive_step_budget(outputs: usize) -> u64 {
    2_000_000 + 2_000 * outputs as u64
}
