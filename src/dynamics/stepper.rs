//! A run stepped from outside (the Python package's `Simulation`): a step at a time, applied
//! loads changed between steps (control inputs), the whole state saved and put back, and the
//! contacts and energies of the current state on request.
//!
//! The steps are those of [`super::simulate::run`] (the same step functions), so a fixed-step
//! trajectory is the `simulate` command's bit for bit. Adaptive steps (dopri5) are the method's
//! own, each one accepted step; [`Stepper::advance_to`] lands a step on the time asked for.
//! [`StepperState`] holds everything a step depends on — the state vector (poses, twists,
//! dissipated energy, external work), time, the integrator's memory (implicit Euler's reused
//! derivatives, dopri5's step size, controller and first stage, time stepping's warm starts),
//! the contact model's memory, the control inputs and the energy budget — so that putting a
//! saved state back and stepping gives the run that was not interrupted, bit for bit.

use super::body::{KinematicMotion, Motion};
use super::energy_watch::EnergyWatch;
use super::error::DynamicsError;
use super::implicit_euler::{self, DerivativeCache};
use super::impulse_step::constraint_step;
use super::ode::{AdaptiveOptions, Attempt, Dopri5, OdeError};
use super::semi_implicit_euler;
use super::simulate::{Integrator, RunStats, WorldSystem, adaptive_step_floor};
use super::world::{Energies, World};
use crate::contact::model::{ContactMemory, PairContact, Stepping};
use crate::contact::volume6d::model::WarmStarts;
use crate::math::{Isometry3, Twist, Vector3};

/// What a scheme carries from one step to the next besides the state vector.
#[derive(Clone, Debug)]
enum SchemeMemory {
    /// The pairs' derivatives reused for a few steps, Newton's rate, the last velocity changes.
    ImplicitEuler(Box<DerivativeCache>),
    SemiImplicitEuler,
    /// The method's state; `None` before the first step and after the motion was set by hand.
    Dopri5(Option<Box<Dopri5>>),
    /// The last step's impulses (warm starts).
    TimeStepping(WarmStarts),
}

impl SchemeMemory {
    /// A scheme's memory before its first step.
    fn fresh(integrator: &Integrator) -> Result<SchemeMemory, DynamicsError> {
        Ok(match integrator {
            Integrator::ImplicitEuler { .. } => SchemeMemory::ImplicitEuler(Box::default()),
            Integrator::SemiImplicitEuler { .. } => SchemeMemory::SemiImplicitEuler,
            Integrator::Dopri5 { .. } => SchemeMemory::Dopri5(None),
            Integrator::TimeStepping { .. } => SchemeMemory::TimeStepping(WarmStarts::default()),
            Integrator::Radau5 { .. } => {
                return Err(DynamicsError::Setup(
                    "integrator `radau5` runs only as a whole (`contactlab simulate`); to step a scene use implicit_euler (stiff contact, fixed step) or dopri5 (adaptive)".into(),
                ));
            }
        })
    }
}

/// A control input: a force and a torque (about the centre of mass, world frame) on a body.
pub type Load = (Vector3, Vector3);

/// Everything the next step depends on (see the module's doc): a saved state.
#[derive(Clone, Debug)]
pub struct StepperState {
    y: Vec<f64>,
    t: f64,
    stats: RunStats,
    control: Vec<Load>,
    memory: ContactMemory,
    scheme: SchemeMemory,
    /// Adaptive: the control inputs changed since the last step (the first stage is stale).
    loads_changed: bool,
    /// Constraint models: the last step's contacts (impulse / dt).
    contacts: Vec<PairContact>,
    watch: EnergyWatch,
    /// Each body's motion (kinematic bodies' paths change with [`Stepper::drive`]).
    motions: Vec<Motion>,
    /// The integrator and its settings the state was stepped with.
    integrator: Integrator,
}

impl StepperState {
    /// Time (s).
    pub fn t(&self) -> f64 {
        self.t
    }

    /// The world's state vector (layout: [`super::world`]).
    pub fn y(&self) -> &[f64] {
        &self.y
    }

    /// The control input of each body.
    pub fn control(&self) -> &[Load] {
        &self.control
    }

    /// What the run did so far.
    pub fn stats(&self) -> &RunStats {
        &self.stats
    }

    /// The contact model's memory.
    pub fn memory(&self) -> &ContactMemory {
        &self.memory
    }
}

/// A world with an integrator, stepped on request (see the module's doc).
pub struct Stepper {
    world: World,
    integrator: Integrator,
    /// Adaptive steps: their ceiling (the output interval, as in `simulate`) and floor.
    options: AdaptiveOptions,
    /// The scene's own applied load of each body; control inputs add to it.
    scene_loads: Vec<Load>,
    state: StepperState,
}

impl Stepper {
    /// At the world's initial state. `max_step`: the largest adaptive step (`simulate` uses the
    /// output interval). Radau IIA runs only as a whole (`simulate`).
    pub fn new(world: World, integrator: Integrator, max_step: f64) -> Result<Stepper, DynamicsError> {
        let scheme = SchemeMemory::fresh(&integrator)?;
        let initial_step = match &integrator {
            Integrator::Dopri5 { initial_step, .. } => *initial_step,
            _ => None,
        };
        let options = AdaptiveOptions {
            initial_step,
            max_step: Some(max_step),
            min_step: adaptive_step_floor(max_step),
            max_steps: u64::MAX,
        };
        let y = world.initial_state();
        world.implausible_motion(0.0, &y)?;
        let energies = world.energies(0.0, &y)?;
        let watch = EnergyWatch::new(&world, &y, &energies);
        let scene_loads = world.bodies.iter().map(|b| (b.force, b.torque)).collect();
        let state = StepperState {
            y,
            t: 0.0,
            stats: RunStats { max_energy_excess: f64::NEG_INFINITY, ..RunStats::default() },
            control: vec![(Vector3::zeros(), Vector3::zeros()); world.bodies.len()],
            memory: world.model.memory(),
            scheme,
            loads_changed: false,
            contacts: Vec::new(),
            watch,
            motions: world.bodies.iter().map(|b| b.motion.clone()).collect(),
            integrator: integrator.clone(),
        };
        Ok(Stepper { world, integrator, options, scene_loads, state })
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn integrator(&self) -> &Integrator {
        &self.integrator
    }

    /// Time (s).
    pub fn t(&self) -> f64 {
        self.state.t
    }

    /// The state vector (layout: [`super::world`]).
    pub fn y(&self) -> &[f64] {
        &self.state.y
    }

    /// What the run did so far.
    pub fn stats(&self) -> &RunStats {
        &self.state.stats
    }

    /// The pose and twist (of the body-frame origin) of every body now.
    pub fn poses(&self) -> Vec<(Isometry3, Twist)> {
        self.world.poses(self.state.t, &self.state.y)
    }

    /// A copy of the whole state, to put back with [`Stepper::set_state`].
    pub fn state(&self) -> StepperState {
        let mut state = self.state.clone();
        state.memory = self.world.model.memory();
        state
    }

    /// Puts back a state saved from this stepper (or one of the same scene and integrator).
    pub fn set_state(&mut self, state: StepperState) -> Result<(), DynamicsError> {
        let same_scheme = matches!(
            (&state.scheme, &self.integrator),
            (SchemeMemory::ImplicitEuler(_), Integrator::ImplicitEuler { .. })
                | (SchemeMemory::SemiImplicitEuler, Integrator::SemiImplicitEuler { .. })
                | (SchemeMemory::Dopri5(_), Integrator::Dopri5 { .. })
                | (SchemeMemory::TimeStepping(_), Integrator::TimeStepping { .. })
        );
        let same_kinds = state.motions.len() == self.world.bodies.len()
            && state
                .motions
                .iter()
                .zip(&self.world.bodies)
                .all(|(m, b)| std::mem::discriminant(m) == std::mem::discriminant(&b.motion));
        if state.y.len() != self.world.coords.dim()
            || state.control.len() != self.world.bodies.len()
            || !same_scheme
            || !same_kinds
            || state.integrator != self.integrator
        {
            return Err(DynamicsError::Setup(
                "the state is of another scene or integrator (or of the same with other settings, such as dt): set states saved from a simulation of the same scene and settings".into(),
            ));
        }
        for (i, (force, torque)) in state.control.iter().enumerate() {
            self.write_load(i, *force, *torque);
        }
        for (body, motion) in self.world.bodies.iter_mut().zip(&state.motions) {
            body.motion = motion.clone();
        }
        self.world.model.restore_memory(&state.memory);
        self.state = state;
        Ok(())
    }

    /// Sets the pose and twist (of the body-frame origin, world frame) of every free body (the
    /// others' entries are ignored) and starts the step's memory and the energy budget afresh
    /// there (the work done so far kept).
    pub fn set_motion(&mut self, motion: &[(Isometry3, Twist)]) -> Result<(), DynamicsError> {
        if motion.len() != self.world.bodies.len() {
            return Err(DynamicsError::Setup(format!(
                "{} poses given for {} bodies: give one per body (in scene order)",
                motion.len(),
                self.world.bodies.len()
            )));
        }
        let y = &mut self.state.y;
        for (i, (pose, twist)) in motion.iter().enumerate() {
            let Some(block) = self.world.coords.free(i) else { continue };
            block.set_pose_and_twist(y, &self.world.bodies[i].com, pose, twist);
        }
        if let Some(bodies) = self.world.non_finite_bodies(&self.state.y) {
            return Err(DynamicsError::NonFinite { t: self.state.t, bodies });
        }
        self.world.implausible_motion(self.state.t, &self.state.y)?;
        self.state.scheme = SchemeMemory::fresh(&self.integrator)?;
        self.state.contacts.clear();
        let energies = self.world.energies(self.state.t, &self.state.y)?;
        self.state.watch = EnergyWatch::restart(&self.world, &self.state.y, &energies);
        Ok(())
    }

    /// Sets the control input of body `i` — a force and a torque about its centre of mass
    /// (world frame) added to the scene's applied load — held until it is set again. Its work
    /// is counted in the energy balance like the scene's loads.
    pub fn apply(&mut self, i: usize, force: Vector3, torque: Vector3) -> Result<(), DynamicsError> {
        let body = &self.world.bodies[i];
        let kind = match body.motion {
            Motion::Free => "",
            Motion::Fixed => "fixed",
            Motion::Kinematic(_) => "kinematic",
        };
        if !kind.is_empty() {
            return Err(DynamicsError::Setup(format!(
                "body `{}` is {kind}: loads move free bodies only; apply them to a free body, or make `{}` free (remove `fixed` / `kinematic`)",
                body.name, body.name
            )));
        }
        if !(force.iter().chain(torque.iter()).all(|x| x.is_finite())) {
            return Err(DynamicsError::Setup(format!(
                "the load on `{}` is not finite: give finite force and torque components",
                body.name
            )));
        }
        self.state.control[i] = (force, torque);
        self.write_load(i, force, torque);
        self.state.watch.allow_loads(&self.world, &self.state.y);
        self.state.loads_changed = true;
        Ok(())
    }

    /// Drives kinematic body `i` at `twist` (world frame; the linear velocity of its body-frame
    /// origin) from now on, from where it is now: a position-controlled body moved by a control
    /// loop. Held until it is driven again; its work on the bodies it touches is counted in the
    /// energy balance, as a scene's kinematic body's is.
    pub fn drive(&mut self, i: usize, twist: Twist) -> Result<(), DynamicsError> {
        let body = &self.world.bodies[i];
        let Motion::Kinematic(path) = &body.motion else {
            return Err(DynamicsError::Setup(format!(
                "body `{}` is not kinematic: only kinematic bodies are driven; give it a `kinematic` table in the scene (docs/simulation.md), or move a free body with apply()",
                body.name
            )));
        };
        if !(twist.linear.iter().chain(twist.angular.iter()).all(|x| x.is_finite())) {
            return Err(DynamicsError::Setup(format!(
                "the velocity of `{}` is not finite: give finite linear and angular components",
                body.name
            )));
        }
        // A constant twist whose path passes through the pose now, at the time now.
        let t = self.state.t;
        let (now, _) = path.at(t);
        let start = Isometry3::from_parts(
            (now.translation.vector - twist.linear * t).into(),
            crate::math::UnitQuaternion::from_scaled_axis(-twist.angular * t) * now.rotation,
        );
        let motion = Motion::Kinematic(KinematicMotion::Constant { start, twist });
        self.world.bodies[i].motion = motion.clone();
        self.state.motions[i] = motion;
        self.state.loads_changed = true;
        Ok(())
    }

    fn write_load(&mut self, i: usize, force: Vector3, torque: Vector3) {
        let (scene_force, scene_torque) = self.scene_loads[i];
        let body = &mut self.world.bodies[i];
        body.force = scene_force + force;
        body.torque = scene_torque + torque;
    }

    /// One step: a fixed step, or one accepted adaptive step. A step that breaks the energy
    /// balance or moves a body implausibly fast is an error (as in `simulate`).
    pub fn step(&mut self) -> Result<(), DynamicsError> {
        match self.integrator {
            Integrator::Dopri5 { .. } => return self.adaptive_step(f64::INFINITY),
            Integrator::Radau5 { .. } => unreachable!("refused by Stepper::new"),
            _ => {}
        }
        let dt = self.fixed_dt();
        let (world, s) = (&self.world, &mut self.state);
        let t = s.t;
        match &mut s.scheme {
            SchemeMemory::ImplicitEuler(cache) => {
                let report = implicit_euler::step(world, t, &mut s.y, dt, cache, &mut s.contacts)?;
                s.stats.evaluations += report.evaluations;
                s.stats.unconverged += u64::from(!report.converged);
            }
            SchemeMemory::SemiImplicitEuler => {
                let loads = semi_implicit_euler::start_loads(world, t, &s.y)?;
                semi_implicit_euler::step(world, t, &mut s.y, dt, &loads)?;
                s.stats.evaluations += 1;
            }
            SchemeMemory::TimeStepping(warm) => {
                let report = constraint_step(world, t, &mut s.y, dt, warm, &mut s.contacts)?;
                s.stats.evaluations += report.sweeps as u64;
                s.stats.fallbacks += u64::from(report.fallbacks);
            }
            SchemeMemory::Dopri5(_) => unreachable!("adaptive"),
        }
        s.stats.steps += 1;
        // As `simulate`: the time of step k is k·dt, not a sum of steps.
        s.t = s.stats.steps as f64 * dt;
        self.finish_step()
    }

    /// The fixed step (s); 0 for adaptive schemes.
    fn fixed_dt(&self) -> f64 {
        match self.integrator {
            Integrator::ImplicitEuler { dt }
            | Integrator::SemiImplicitEuler { dt }
            | Integrator::TimeStepping { dt } => dt,
            Integrator::Dopri5 { .. } | Integrator::Radau5 { .. } => 0.0,
        }
    }

    /// The checks every step makes in `simulate`: plausible speeds, and kinetic + gravity within
    /// the energy budget (no contact query).
    fn finish_step(&mut self) -> Result<(), DynamicsError> {
        let (world, s) = (&self.world, &mut self.state);
        s.stats.t_end = s.t;
        world.implausible_motion(s.t, &s.y)?;
        let (kinetic, gravity) = world.motion_energies(&s.y);
        let work = world.coords.work(&s.y);
        let excess = s.watch.check(world, s.t, &s.y, kinetic + gravity, work, &self.integrator)?;
        s.stats.max_energy_excess = s.stats.max_energy_excess.max(excess);
        Ok(())
    }

    /// Steps until time `t`: fixed-step schemes to the nearest whole step, adaptive ones land
    /// a step on `t`. Nothing when `t` is not ahead.
    pub fn advance_to(&mut self, t: f64) -> Result<(), DynamicsError> {
        match self.integrator {
            Integrator::Dopri5 { .. } => {
                while t - self.state.t > self.options.min_step {
                    self.adaptive_step(t)?;
                }
            }
            _ => {
                let dt = self.fixed_dt();
                let target = (t / dt).round();
                while (self.state.stats.steps as f64) < target {
                    self.step()?;
                }
            }
        }
        Ok(())
    }

    /// Runs for `duration` (s) from now, calling `observe` now and every `output_dt` (rounded
    /// to whole steps for fixed-step schemes, as in `simulate`) and at the end.
    pub fn run(
        &mut self,
        duration: f64,
        output_dt: f64,
        mut observe: impl FnMut(&Stepper),
    ) -> Result<(), DynamicsError> {
        if !(duration.is_finite() && duration >= 0.0 && output_dt.is_finite() && output_dt > 0.0) {
            return Err(DynamicsError::Setup(format!(
                "run(duration = {duration}, output_dt = {output_dt}): give a finite duration ≥ 0 and an output interval > 0"
            )));
        }
        observe(self);
        if duration == 0.0 {
            return Ok(());
        }
        match self.integrator {
            Integrator::Dopri5 { .. } => {
                let start = self.state.t;
                let n = (duration / output_dt).ceil().max(1.0) as usize;
                for k in 1..=n {
                    self.advance_to(start + (k as f64 * output_dt).min(duration))?;
                    observe(self);
                }
            }
            _ => {
                let dt = self.fixed_dt();
                let steps = (duration / dt).round().max(1.0) as u64;
                let every = ((output_dt / dt).round() as u64).max(1);
                for k in 1..=steps {
                    self.step()?;
                    if k % every == 0 || k == steps {
                        observe(self);
                    }
                }
            }
        }
        Ok(())
    }

    /// One accepted dopri5 step towards `t_end`.
    fn adaptive_step(&mut self, t_end: f64) -> Result<(), DynamicsError> {
        let Integrator::Dopri5 { tolerances, .. } = self.integrator else { unreachable!("dopri5 only") };
        let (world, s, options) = (&self.world, &mut self.state, &self.options);
        let SchemeMemory::Dopri5(slot) = &mut s.scheme else { unreachable!("dopri5 only") };
        let mut system = WorldSystem { world, error: None };
        let max_step = options.max_step.unwrap_or(f64::INFINITY);
        let outcome = (|| -> Result<(), OdeError> {
            let method = match slot {
                Some(method) => {
                    if s.loads_changed {
                        method.refresh_derivative(&mut system)?;
                    }
                    method
                }
                None => slot.insert(Box::new(Dopri5::start(
                    &mut system,
                    s.t,
                    &s.y,
                    &tolerances,
                    options,
                    max_step,
                )?)),
            };
            s.loads_changed = false;
            while method.attempt(&mut system, t_end)? == Attempt::Rejected {}
            method.commit(&mut system)?;
            s.y.copy_from_slice(&method.y);
            s.t = method.t;
            Ok(())
        })();
        match outcome {
            Ok(()) => {}
            Err(e) => {
                if let Some(inner) = system.error.take() {
                    return Err(inner);
                }
                return Err(DynamicsError::Integrator {
                    t: s.t,
                    bodies: world.bodies_in_contact(s.t, &s.y),
                    reason: e.to_string(),
                });
            }
        }
        let stats = match slot {
            Some(method) => method.stats,
            None => Default::default(),
        };
        s.stats.steps = stats.accepted;
        s.stats.rejected = stats.rejected;
        s.stats.evaluations = stats.evaluations;
        self.finish_step()
    }

    /// The contacts of the current state: the force models' evaluated now; the constraint
    /// models' from the last step (impulse / dt; none before the first step).
    pub fn contacts(&self) -> Result<Vec<PairContact>, DynamicsError> {
        match self.world.model.stepping() {
            Stepping::Force => self.world.contacts(self.state.t, &self.state.y),
            Stepping::Velocity => Ok(self.state.contacts.clone()),
        }
    }

    /// The energies of the current state (the elastic energy exact).
    pub fn energies(&self) -> Result<Energies, DynamicsError> {
        let (world, s) = (&self.world, &self.state);
        match world.model.stepping() {
            Stepping::Force => world.energies(s.t, &s.y),
            Stepping::Velocity => {
                Ok(world.energies_tracked(&s.y, world.motion_energies(&s.y), &s.contacts, 0.0))
            }
        }
    }

    /// Work done on the bodies by applied loads (the scene's and the control inputs) and
    /// kinematic bodies so far (J).
    pub fn work(&self) -> f64 {
        self.world.coords.work(&self.state.y)
    }
}
