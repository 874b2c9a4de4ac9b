//! The adaptive schemes: explicit Dormand–Prince 5(4), resumable a step at a time, and Radau
//! IIA of order 5, which runs only as a whole.

use super::traits::AdaptiveScheme;
use super::world_system::WorldSystem;
use crate::dynamics::ode::{
    self, AdaptiveOptions, Attempt, Dopri5, Flow, OdeError, OdeOutcome, StepStats, Tolerances,
};

/// Dopri5 and its method's state (`None` before the first step and after the state was set by
/// hand).
#[derive(Clone, Debug)]
pub struct Dopri5Scheme {
    tolerances: Tolerances,
    method: Option<Box<Dopri5>>,
}

impl Dopri5Scheme {
    pub fn new(tolerances: Tolerances) -> Dopri5Scheme {
        Dopri5Scheme { tolerances, method: None }
    }
}

impl AdaptiveScheme for Dopri5Scheme {
    fn step(
        &mut self,
        system: &mut WorldSystem,
        (t, y): (&mut f64, &mut [f64]),
        t_end: f64,
        options: &AdaptiveOptions,
        loads_changed: bool,
    ) -> Result<StepStats, OdeError> {
        let max_step = options.max_step.unwrap_or(f64::INFINITY);
        let method = match &mut self.method {
            Some(method) => {
                if loads_changed {
                    method.refresh_derivative(system)?;
                }
                method
            }
            slot @ None => {
                slot.insert(Box::new(Dopri5::start(system, *t, y, &self.tolerances, options, max_step)?))
            }
        };
        while method.attempt(system, t_end)? == Attempt::Rejected {}
        method.commit(system)?;
        y.copy_from_slice(&method.y);
        *t = method.t;
        Ok(method.stats)
    }

    fn integrate(
        &mut self,
        system: &mut WorldSystem,
        (t0, y0): (f64, &[f64]),
        t_end: f64,
        options: &AdaptiveOptions,
        outputs: &[f64],
        observe: &mut dyn FnMut(f64, &[f64]) -> Flow,
    ) -> Result<OdeOutcome, OdeError> {
        ode::integrate_dopri5(system, t0, y0, t_end, &self.tolerances, options, outputs, observe)
    }

    fn restart(&mut self) {
        self.method = None;
    }

    fn clone_box(&self) -> Box<dyn AdaptiveScheme> {
        Box::new(self.clone())
    }
}

/// Radau IIA (order 5): whole runs only.
#[derive(Clone, Debug)]
pub struct Radau5Scheme {
    tolerances: Tolerances,
}

impl Radau5Scheme {
    pub fn new(tolerances: Tolerances) -> Radau5Scheme {
        Radau5Scheme { tolerances }
    }
}

impl AdaptiveScheme for Radau5Scheme {
    fn step(
        &mut self,
        _system: &mut WorldSystem,
        (t, _y): (&mut f64, &mut [f64]),
        _t_end: f64,
        _options: &AdaptiveOptions,
        _loads_changed: bool,
    ) -> Result<StepStats, OdeError> {
        // Refused when the engine is made stepwise (`Scheme::of`).
        Err(OdeError::system(*t, "radau5 runs only as a whole"))
    }

    fn integrate(
        &mut self,
        system: &mut WorldSystem,
        (t0, y0): (f64, &[f64]),
        t_end: f64,
        options: &AdaptiveOptions,
        outputs: &[f64],
        observe: &mut dyn FnMut(f64, &[f64]) -> Flow,
    ) -> Result<OdeOutcome, OdeError> {
        ode::integrate_radau5(system, t0, y0, t_end, &self.tolerances, options, outputs, observe)
    }

    fn restart(&mut self) {}

    fn clone_box(&self) -> Box<dyn AdaptiveScheme> {
        Box::new(self.clone())
    }
}
