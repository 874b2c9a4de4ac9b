//! The engine itself: a world's state, its scheme and its energy watch.

use super::run_stats::RunStats;
use super::scheme::Scheme;
use super::traits::{FixedOutput, StepClock, StepReport};
use super::world_system::WorldSystem;
use crate::contact::model::PairContact;
use crate::dynamics::energy_watch::EnergyWatch;
use crate::dynamics::error::DynamicsError;
use crate::dynamics::integrator::Integrator;
use crate::dynamics::ode::AdaptiveOptions;
use crate::dynamics::world::{Energies, World};

/// A world's state advanced by a scheme, with the energy watch that stops a run going wrong.
/// The world is lent to every call (the stepper owns it; `simulate` borrows it).
#[derive(Clone, Debug)]
pub struct Engine {
    pub integrator: Integrator,
    /// Adaptive steps: their ceiling and floor (and the run's step budget).
    pub options: AdaptiveOptions,
    pub y: Vec<f64>,
    pub t: f64,
    pub stats: RunStats,
    pub scheme: Scheme,
    pub watch: EnergyWatch,
    /// Adaptive: the applied loads changed since the last step.
    pub loads_changed: bool,
}

/// The touching pairs and energies of the engine's initial state.
pub struct InitialState {
    pub contacts: Vec<PairContact>,
    pub energies: Energies,
}

impl Engine {
    /// At the world's initial state.
    pub fn new(
        world: &World,
        integrator: &Integrator,
        options: AdaptiveOptions,
        stepwise: bool,
    ) -> Result<(Engine, InitialState), DynamicsError> {
        let mut scheme = Scheme::of(integrator, stepwise)?;
        let y = world.initial_state();
        world.implausible_motion(0.0, &y)?;
        world.through_half_space(0.0, &y)?;
        crate::dynamics::inside_body::inside_body(world, 0.0, &y)?;
        crate::dynamics::start_overlap::deep_start_overlap(world, &y)?;
        let contacts = world.contacts(0.0, &y)?;
        let energies = world.energies_with(0.0, &y, &contacts)?;
        let watch = EnergyWatch::new(world, &y, &energies);
        if let Scheme::Fixed { scheme, .. } = &mut scheme {
            scheme.start(world, (0.0, 0), &y, &contacts)?;
        }
        let engine = Engine {
            integrator: integrator.clone(),
            options,
            y,
            t: 0.0,
            stats: RunStats { max_energy_excess: f64::NEG_INFINITY, ..RunStats::default() },
            scheme,
            watch,
            loads_changed: false,
        };
        Ok((engine, InitialState { contacts, energies }))
    }

    /// Starts the scheme's memory and the energy budget afresh at the current state (set by
    /// hand), the work done so far kept.
    pub fn restart(&mut self, world: &World) -> Result<(), DynamicsError> {
        let contacts = world.contacts(self.t, &self.y)?;
        let energies = world.energies_with(self.t, &self.y, &contacts)?;
        match &mut self.scheme {
            Scheme::Fixed { scheme, .. } => {
                scheme.start(world, (self.t, self.stats.steps), &self.y, &contacts)?
            }
            Scheme::Adaptive(scheme) => scheme.restart(),
        }
        self.watch = EnergyWatch::restart(world, &self.y, &energies);
        Ok(())
    }

    /// The applied loads or kinematic paths changed (control inputs).
    pub fn loads_changed(&mut self) {
        self.loads_changed = true;
        if let Scheme::Fixed { scheme, .. } = &mut self.scheme {
            scheme.loads_changed();
        }
    }

    /// One fixed step, with the checks every step makes (plausible speeds; kinetic + gravity
    /// within the energy budget: no contact query). Returns the step's report and the state's
    /// kinetic and gravitational energy and their excess over the budget.
    pub fn fixed_step(&mut self, world: &World) -> Result<(StepReport, (f64, f64), f64), DynamicsError> {
        let Scheme::Fixed { dt, scheme } = &mut self.scheme else {
            unreachable!("fixed_step on an adaptive scheme")
        };
        let clock = StepClock { k: self.stats.steps + 1, dt: *dt };
        // The fixed-step schemes cut a step that would carry a body through a half space or
        // another body.
        let cuts = crate::dynamics::crossing::substeps(world, clock.start(), &self.y, clock.dt);
        let report = if cuts == 1 {
            scheme.step(world, clock, &mut self.y)?
        } else {
            // Sub-step j of step k is step (k − 1)·cuts + j of dt / cuts: it ends at its time.
            let mut total = StepReport::default();
            for j in 1..=u64::from(cuts) {
                let sub =
                    StepClock { k: (clock.k - 1) * u64::from(cuts) + j, dt: clock.dt / f64::from(cuts) };
                let report = scheme.step(world, sub, &mut self.y)?;
                total.evaluations += report.evaluations;
                total.unconverged |= report.unconverged;
                total.solver = match (total.solver, report.solver) {
                    (Some(mut sum), Some(r)) => {
                        sum.sweeps += r.sweeps;
                        sum.fallbacks += r.fallbacks;
                        sum.residual = r.residual;
                        sum.unknowns = sum.unknowns.max(r.unknowns);
                        sum.overlap = r.overlap;
                        Some(sum)
                    }
                    (sum, r) => sum.or(r),
                };
            }
            total
        };
        let stats = &mut self.stats;
        stats.evaluations += report.evaluations;
        stats.unconverged += u64::from(report.unconverged);
        if let Some(solver) = &report.solver {
            stats.evaluations += solver.sweeps as u64;
            stats.fallbacks += u64::from(solver.fallbacks);
        }
        stats.steps += 1;
        self.t = clock.end();
        stats.t_end = self.t;
        let (motion, excess) = self.check_motion(world)?;
        world.past_deadline(self.t)?;
        Ok((report, motion, excess))
    }

    /// The state's touching pairs and energies for an output after a fixed step (see
    /// [`FixedStepScheme::output`](super::FixedStepScheme::output)), with the state and the run's counts.
    #[allow(clippy::type_complexity)]
    pub fn fixed_output(
        &mut self,
        world: &World,
        (kinetic, gravity): (f64, f64),
        exact: bool,
    ) -> Result<(FixedOutput<'_>, Energies, &[f64], &mut RunStats), DynamicsError> {
        let Scheme::Fixed { dt, scheme } = &mut self.scheme else {
            unreachable!("fixed_output on an adaptive scheme")
        };
        let clock = StepClock { k: self.stats.steps, dt: *dt };
        let out = scheme.output(world, clock, &self.y, exact)?;
        let energies = crate::dynamics::elastic_tracker::tracked_energies(
            world,
            &self.y,
            (kinetic, gravity),
            out.contacts,
            out.tracked_elastic,
        );
        self.stats.largest_elastic_correction = out.largest_correction;
        Ok((out, energies, &self.y, &mut self.stats))
    }

    /// One accepted adaptive step towards `t_end`, with the checks of [`Engine::fixed_step`].
    pub fn adaptive_step(&mut self, world: &World, t_end: f64) -> Result<f64, DynamicsError> {
        let Scheme::Adaptive(scheme) = &mut self.scheme else {
            unreachable!("adaptive_step on a fixed-step scheme")
        };
        let mut system = WorldSystem { world, error: None };
        let outcome =
            scheme.step(&mut system, (&mut self.t, &mut self.y), t_end, &self.options, self.loads_changed);
        let counts = match outcome {
            Ok(counts) => counts,
            Err(e) => {
                if let Some(inner) = system.error.take() {
                    return Err(inner);
                }
                return Err(DynamicsError::Integrator {
                    t: self.t,
                    bodies: world.bodies_in_contact(self.t, &self.y),
                    reason: e.to_string(),
                });
            }
        };
        self.loads_changed = false;
        self.stats.steps = counts.accepted;
        self.stats.rejected = counts.rejected;
        self.stats.evaluations = counts.evaluations;
        self.stats.t_end = self.t;
        Ok(self.check_motion(world)?.1)
    }

    /// Plausible speeds, and kinetic + gravity within the energy budget: the state's kinetic
    /// and gravitational energy and their excess.
    fn check_motion(&self, world: &World) -> Result<((f64, f64), f64), DynamicsError> {
        world.implausible_motion(self.t, &self.y)?;
        world.through_half_space(self.t, &self.y)?;
        crate::dynamics::inside_body::inside_body(world, self.t, &self.y)?;
        let (kinetic, gravity) = world.motion_energies(&self.y);
        let work = world.coords.work(&self.y);
        let excess = self.watch.check(world, self.t, &self.y, kinetic + gravity, work, &self.integrator)?;
        Ok(((kinetic, gravity), excess))
    }
}
