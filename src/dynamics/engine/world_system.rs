//! A world seen as an ODE system, for the adaptive schemes.

use crate::dynamics::error::DynamicsError;
use crate::dynamics::ode::{OdeError, OdeSystem};
use crate::dynamics::world::World;

/// A world seen as an ODE system; keeps the first dynamics error for the caller.
pub struct WorldSystem<'a> {
    pub world: &'a World,
    pub error: Option<DynamicsError>,
}

impl OdeSystem for WorldSystem<'_> {
    fn dim(&self) -> usize {
        self.world.coords.dim()
    }

    fn derivative(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        self.world.past_deadline(t).and_then(|()| self.world.derivative(t, y, dy)).map_err(|e| {
            let message = e.to_string();
            self.error.get_or_insert(e);
            OdeError::system(t, message)
        })
    }

    fn project(&mut self, y: &mut [f64]) {
        self.world.normalize(y);
    }

    fn accepted(&mut self, t: f64, y: &[f64]) {
        self.world.accept_step(t, y);
    }

    fn locate_event(
        &mut self,
        t0: f64,
        y0: &[f64],
        t1: f64,
        y1: &[f64],
        interp: &dyn Fn(f64, &mut [f64]),
    ) -> Option<f64> {
        self.world.locate_contact_event(t0, y0, t1, y1, interp)
    }
}
