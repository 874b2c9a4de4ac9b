//! The two scheme families' traits and what a fixed step reports.

use super::world_system::WorldSystem;
use crate::contact::model::PairContact;
use crate::dynamics::error::DynamicsError;
use crate::dynamics::ode::{AdaptiveOptions, Flow, OdeError, OdeOutcome, StepStats};
use crate::dynamics::solver_report::SolverReport;
use crate::dynamics::world::World;
use crate::math::{Isometry3, Twist};

/// Step `k` of a fixed-step run of step `dt`: from (k − 1)·dt to k·dt. Times are products, not
/// sums of steps, so that step k of every run ends at the same time.
#[derive(Clone, Copy, Debug)]
pub struct StepClock {
    pub k: u64,
    pub dt: f64,
}

impl StepClock {
    pub fn start(&self) -> f64 {
        (self.k - 1) as f64 * self.dt
    }

    pub fn end(&self) -> f64 {
        self.k as f64 * self.dt
    }
}

/// What one fixed step did.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepReport {
    pub evaluations: u64,
    /// Newton did not meet its tolerance (implicit Euler).
    pub unconverged: bool,
    /// The velocity-level solve's report (time stepping).
    pub solver: Option<SolverReport>,
}

/// The state a fixed-step scheme reached, as an output sees it.
pub struct FixedOutput<'a> {
    /// The touching pairs: the contacts applied in the last step (force schemes: evaluated at
    /// its end state; impulse schemes: the mean wrench of its impulses).
    pub contacts: &'a [PairContact],
    /// The bodies' poses at the state, when the scheme has them.
    pub poses: Option<&'a [(Isometry3, Twist)]>,
    /// The elastic energy of the pairs whose energy is tracked rather than given (J).
    pub tracked_elastic: f64,
    /// The largest correction an exact elastic energy has made to a tracked one so far (J).
    pub largest_correction: f64,
}

/// A fixed-step scheme: its memory between steps (derivatives reused, warm starts, the tracked
/// elastic energy) and its step.
pub trait FixedStepScheme: std::fmt::Debug + Send + Sync {
    /// Starts (again) at state `y` at time `t` after `k` steps, with the touching pairs there:
    /// the scheme's memory is dropped.
    fn start(
        &mut self,
        world: &World,
        at: (f64, u64),
        y: &[f64],
        contacts: &[PairContact],
    ) -> Result<(), DynamicsError>;

    /// Step `clock.k`: advances `y` from `clock.start()` to `clock.end()`.
    fn step(&mut self, world: &World, clock: StepClock, y: &mut [f64]) -> Result<StepReport, DynamicsError>;

    /// The touching pairs and elastic energy at the state step `clock.k` reached, for an output;
    /// `exact`: every tracked pair's elastic energy is computed exactly now.
    fn output(
        &mut self,
        world: &World,
        clock: StepClock,
        y: &[f64],
        exact: bool,
    ) -> Result<FixedOutput<'_>, DynamicsError>;

    /// The contacts of the last step, for the impulse schemes (none before the first step); the
    /// force schemes' contacts are evaluated at the state instead (`None`).
    fn impulse_contacts(&self) -> Option<&[PairContact]>;

    /// The applied loads or kinematic paths changed: drops what was evaluated with the old ones.
    fn loads_changed(&mut self);

    /// Every output of the run will ask for the exact elastic energy: the scheme need not track
    /// it between outputs (nothing would show the tracked value).
    fn exact_outputs_only(&mut self);

    fn clone_box(&self) -> Box<dyn FixedStepScheme>;
}

/// An adaptive scheme: its method's state between steps.
pub trait AdaptiveScheme: std::fmt::Debug + Send + Sync {
    /// One accepted step from `(t, y)` towards `t_end` (landing on it when within reach);
    /// `loads_changed`: the applied loads changed since the last step. Returns the method's
    /// counts since it started.
    fn step(
        &mut self,
        system: &mut WorldSystem,
        state: (&mut f64, &mut [f64]),
        t_end: f64,
        options: &AdaptiveOptions,
        loads_changed: bool,
    ) -> Result<StepStats, OdeError>;

    /// The whole run from `(t0, y0)` to `t_end`, `observe` called at each of `outputs` from the
    /// steps' dense output.
    #[allow(clippy::too_many_arguments)]
    fn integrate(
        &mut self,
        system: &mut WorldSystem,
        start: (f64, &[f64]),
        t_end: f64,
        options: &AdaptiveOptions,
        outputs: &[f64],
        observe: &mut dyn FnMut(f64, &[f64]) -> Flow,
    ) -> Result<OdeOutcome, OdeError>;

    /// Forgets the method's state (the state was set by hand).
    fn restart(&mut self);

    fn clone_box(&self) -> Box<dyn AdaptiveScheme>;
}
