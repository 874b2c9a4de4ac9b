//! The scheme that runs an integrator.

use super::traits::{AdaptiveScheme, FixedStepScheme};
use super::{adaptive, fixed_force, impulse};
use crate::dynamics::error::DynamicsError;
use crate::dynamics::integrator::Integrator;

/// The scheme of an integrator, by family.
#[derive(Debug)]
pub enum Scheme {
    Fixed { dt: f64, scheme: Box<dyn FixedStepScheme> },
    Adaptive(Box<dyn AdaptiveScheme>),
}

impl Clone for Scheme {
    fn clone(&self) -> Scheme {
        match self {
            Scheme::Fixed { dt, scheme } => Scheme::Fixed { dt: *dt, scheme: scheme.clone_box() },
            Scheme::Adaptive(scheme) => Scheme::Adaptive(scheme.clone_box()),
        }
    }
}

impl Scheme {
    /// The scheme that runs `integrator`. `stepwise`: it will be stepped from outside (the
    /// stepper), which Radau IIA does not support (it runs only as a whole), and which asks
    /// for exact energies, so the fixed-step force schemes track none.
    pub fn of(integrator: &Integrator, stepwise: bool) -> Result<Scheme, DynamicsError> {
        Ok(match integrator {
            Integrator::ImplicitEuler { dt } => {
                Scheme::Fixed { dt: *dt, scheme: Box::new(fixed_force::FixedForce::implicit(!stepwise)) }
            }
            Integrator::SemiImplicitEuler { dt } => {
                Scheme::Fixed { dt: *dt, scheme: Box::new(fixed_force::FixedForce::semi_implicit(!stepwise)) }
            }
            Integrator::TimeStepping { dt } => {
                Scheme::Fixed { dt: *dt, scheme: Box::new(impulse::TimeStepping::default()) }
            }
            Integrator::Dopri5 { tolerances, .. } => {
                Scheme::Adaptive(Box::new(adaptive::Dopri5Scheme::new(*tolerances)))
            }
            Integrator::Radau5 { tolerances, .. } => {
                if stepwise {
                    return Err(DynamicsError::Setup(
                        "integrator `radau5` runs only as a whole (`contactlab simulate`); to step a scene use implicit_euler (stiff contact, fixed step) or dopri5 (adaptive)".into(),
                    ));
                }
                Scheme::Adaptive(Box::new(adaptive::Radau5Scheme::new(*tolerances)))
            }
        })
    }
}
