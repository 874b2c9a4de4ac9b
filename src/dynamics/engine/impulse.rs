//! The fixed-step scheme of the impulse models: velocity-level time stepping, the 6D model's
//! block Gauss–Seidel ([`crate::dynamics::time_stepping`]) or PEG's LCP
//! ([`crate::dynamics::peg_step`]).

use super::traits::{FixedOutput, FixedStepScheme, StepClock, StepReport};
use crate::contact::model::{Capability, ImpulseSolver, PairContact};
use crate::contact::volume6d::model::WarmStarts;
use crate::dynamics::error::DynamicsError;
use crate::dynamics::solver_report::SolverReport;
use crate::dynamics::world::World;
use crate::dynamics::{peg_step, time_stepping};

/// One step of the world's impulse model from `t` by `dt` — the 6D model's (warm-started from
/// `warm`) or PEG's; `contacts` receives each touching pair's mean wrench. An error for the
/// force models.
pub fn constraint_step(
    world: &World,
    t: f64,
    y: &mut [f64],
    dt: f64,
    warm: &mut WarmStarts,
    contacts: &mut Vec<PairContact>,
) -> Result<SolverReport, DynamicsError> {
    match world.model.capability() {
        Capability::Impulse(m) => match m.solver() {
            ImpulseSolver::BlockGaussSeidel(model) => time_stepping::step(world, model, t, y, dt, warm, contacts),
            ImpulseSolver::Lcp(model) => peg_step::step(world, model, t, y, dt, contacts),
        },
        Capability::Force(_) => Err(DynamicsError::Setup(
            "integrator `time_stepping` runs the constraint models (kind = \"volume6d\" or \"peg\"); use implicit_euler, semi_implicit_euler, dopri5 or radau5".into(),
        )),
    }
}

/// Time stepping: the last step's impulses (warm starts) and contacts.
#[derive(Clone, Debug, Default)]
pub struct TimeStepping {
    warm: WarmStarts,
    /// The last step's contacts (impulse / dt).
    applied: Vec<PairContact>,
}

impl FixedStepScheme for TimeStepping {
    fn start(
        &mut self,
        _world: &World,
        _at: (f64, u64),
        _y: &[f64],
        _contacts: &[PairContact],
    ) -> Result<(), DynamicsError> {
        *self = TimeStepping::default();
        Ok(())
    }

    fn step(&mut self, world: &World, clock: StepClock, y: &mut [f64]) -> Result<StepReport, DynamicsError> {
        let report = constraint_step(world, clock.start(), y, clock.dt, &mut self.warm, &mut self.applied)?;
        Ok(StepReport { evaluations: 0, unconverged: false, solver: Some(report) })
    }

    fn output(
        &mut self,
        _world: &World,
        _clock: StepClock,
        _y: &[f64],
        _exact: bool,
    ) -> Result<FixedOutput<'_>, DynamicsError> {
        Ok(FixedOutput {
            contacts: &self.applied,
            poses: None,
            tracked_elastic: 0.0,
            largest_correction: 0.0,
        })
    }

    fn impulse_contacts(&self) -> Option<&[PairContact]> {
        Some(&self.applied)
    }

    fn loads_changed(&mut self) {}

    /// (Impulse models track no elastic energy.)
    fn exact_outputs_only(&mut self) {}

    fn clone_box(&self) -> Box<dyn FixedStepScheme> {
        Box::new(self.clone())
    }
}
