//! What the integrators integrate: a first-order system y' = f(t, y) and its hooks.

use super::error::OdeError;

/// A first-order system y' = f(t, y).
pub trait OdeSystem {
    /// Number of state components.
    fn dim(&self) -> usize;
    /// Writes f(t, y) into dy. Errors (e.g. a non-finite state) stop the integration and are
    /// returned unchanged; non-finite values written into `dy` are caught by the integrator.
    fn derivative(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError>;
    /// Called on every accepted step's end state; may modify it (e.g. renormalise quaternions).
    /// Default: nothing.
    fn project(&mut self, _y: &mut [f64]) {}
    /// Called after every accepted step with its end time and (projected) state, before the
    /// next step: the place to update discrete state that depends on the accepted trajectory
    /// (e.g. which contacts are active). Default: nothing.
    fn accepted(&mut self, _t: f64, _y: &[f64]) {}
    /// After a step from `(t0, y0)` to `(t1, y1)` passed the error test, with `interp(t, out)`
    /// its dense output on [t0, t1]: the earliest time in (t0, t1) where a discrete event
    /// happens (e.g. a contact starts or ends), to end the step exactly there. Default: none.
    fn locate_event(
        &mut self,
        _t0: f64,
        _y0: &[f64],
        _t1: f64,
        _y1: &[f64],
        _interp: &dyn Fn(f64, &mut [f64]),
    ) -> Option<f64> {
        None
    }
}

/// An [`OdeSystem`] made of a dimension and a closure, for small problems and tests.
pub struct FnSystem<F> {
    dim: usize,
    f: F,
}

impl<F: FnMut(f64, &[f64], &mut [f64])> FnSystem<F> {
    /// A system of `dim` components whose derivative is `f(t, y, dy)`.
    pub fn new(dim: usize, f: F) -> Self {
        Self { dim, f }
    }
}

impl<F: FnMut(f64, &[f64], &mut [f64])> OdeSystem for FnSystem<F> {
    fn dim(&self) -> usize {
        self.dim
    }

    fn derivative(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        (self.f)(t, y, dy);
        Ok(())
    }
}
