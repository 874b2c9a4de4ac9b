//! A run stepped from outside (the Python package's `Simulation`): a step at a time, applied
//! loads changed between steps (control inputs), the whole state saved and put back, and the
//! contacts and energies of the current state on request.
//!
//! It advances the world through the same engine as [`super::simulate::run`]
//! ([`super::engine::Engine`]), so a fixed-step trajectory is the `simulate` command's bit for
//! bit. Adaptive steps (dopri5) are the method's own, each one accepted step;
//! [`Stepper::advance_to`] lands a step on the time asked for. [`StepperState`] holds
//! everything a step depends on — the engine (state vector, time, the scheme's memory, the
//! energy budget), the contact model's memory, the control inputs and the actuators' commands
//! — so that putting a saved state back and stepping gives the run that was not interrupted,
//! bit for bit. A mechanism's joint coordinates are set with [`Stepper::set_joint_state`].

use super::body::{KinematicMotion, Motion};
use super::engine::{Engine, RunStats, Scheme};
use super::error::DynamicsError;
use super::integrator::Integrator;
use super::mechanism::Actuator;
use super::world::{Energies, World};
use crate::contact::model::{ContactMemory, PairContact};
use crate::math::{Isometry3, Twist, Vector3};

/// A control input: a force and a torque (about the centre of mass, world frame) on a body.
pub type Load = (Vector3, Vector3);

/// Everything the next step depends on (see the module's doc): a saved state.
#[derive(Clone, Debug)]
pub struct StepperState {
    engine: Engine,
    control: Vec<Load>,
    memory: ContactMemory,
    /// Each body's motion (kinematic bodies' paths change with [`Stepper::drive`]).
    motions: Vec<Motion>,
    /// The mechanism's actuators (their commands change with
    /// [`Stepper::set_actuator_command`]; none without a mechanism).
    actuators: Vec<Actuator>,
}

impl StepperState {
    /// Time (s).
    pub fn t(&self) -> f64 {
        self.engine.t
    }

    /// The world's state vector (layout: [`super::coordinates`]).
    pub fn y(&self) -> &[f64] {
        &self.engine.y
    }

    /// The control input of each body.
    pub fn control(&self) -> &[Load] {
        &self.control
    }

    /// What the run did so far.
    pub fn stats(&self) -> &RunStats {
        &self.engine.stats
    }

    /// The contact model's memory.
    pub fn memory(&self) -> &ContactMemory {
        &self.memory
    }
}

/// A world with an integrator, stepped on request (see the module's doc).
pub struct Stepper {
    world: World,
    /// The scene's own applied load of each body; control inputs add to it.
    scene_loads: Vec<Load>,
    state: StepperState,
}

impl Stepper {
    /// At the world's initial state. `max_step`: the largest adaptive step (`simulate` uses the
    /// output interval). Radau IIA runs only as a whole (`simulate`).
    pub fn new(world: World, integrator: Integrator, max_step: f64) -> Result<Stepper, DynamicsError> {
        let options = integrator.adaptive_options(max_step, u64::MAX);
        let (engine, _) = Engine::new(&world, &integrator, options, true)?;
        let scene_loads = world.bodies.iter().map(|b| (b.force, b.torque)).collect();
        let state = StepperState {
            engine,
            control: vec![(Vector3::zeros(), Vector3::zeros()); world.bodies.len()],
            memory: world.model.memory(),
            motions: world.bodies.iter().map(|b| b.motion.clone()).collect(),
            actuators: world.mechanism.as_ref().map_or_else(Vec::new, |m| m.actuators.clone()),
        };
        Ok(Stepper { world, scene_loads, state })
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn integrator(&self) -> &Integrator {
        &self.state.engine.integrator
    }

    /// Time (s).
    pub fn t(&self) -> f64 {
        self.state.engine.t
    }

    /// The state vector (layout: [`super::coordinates`]).
    pub fn y(&self) -> &[f64] {
        &self.state.engine.y
    }

    /// What the run did so far.
    pub fn stats(&self) -> &RunStats {
        &self.state.engine.stats
    }

    /// The pose and twist (of the body-frame origin) of every body now.
    pub fn poses(&self) -> Vec<(Isometry3, Twist)> {
        self.world.poses(self.t(), self.y())
    }

    /// A copy of the whole state, to put back with [`Stepper::set_state`].
    pub fn state(&self) -> StepperState {
        let mut state = self.state.clone();
        state.memory = self.world.model.memory();
        state
    }

    /// Puts back a state saved from this stepper (or one of the same scene and integrator).
    pub fn set_state(&mut self, state: StepperState) -> Result<(), DynamicsError> {
        let same_kinds = state.motions.len() == self.world.bodies.len()
            && state
                .motions
                .iter()
                .zip(&self.world.bodies)
                .all(|(m, b)| std::mem::discriminant(m) == std::mem::discriminant(&b.motion));
        if state.engine.y.len() != self.world.coords.dim()
            || state.control.len() != self.world.bodies.len()
            || !same_kinds
            || state.engine.integrator != self.state.engine.integrator
            || state.actuators.len() != self.state.actuators.len()
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
        if let Some(m) = &mut self.world.mechanism {
            m.actuators.clone_from(&state.actuators);
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
        let engine = &mut self.state.engine;
        for (i, (pose, twist)) in motion.iter().enumerate() {
            let Some(block) = self.world.coords.free(i) else { continue };
            block.set_pose_and_twist(&mut engine.y, &self.world.bodies[i].com, pose, twist);
        }
        if let Some(bodies) = self.world.non_finite_bodies(&engine.y) {
            return Err(DynamicsError::NonFinite { t: engine.t, bodies });
        }
        self.world.implausible_motion(engine.t, &engine.y)?;
        engine.restart(&self.world)
    }

    /// Sets the mechanism's joint coordinates `q` and velocities `v` (full, the articulation's
    /// order: [`Mechanism::q`](super::mechanism::Mechanism::q)), holds the couplers (a
    /// follower's given values are replaced by its leader's through the coupler), renormalises
    /// the quaternions and starts the step's memory and the energy budget afresh there (the
    /// work done so far kept), as [`Stepper::set_motion`] does.
    pub fn set_joint_state(&mut self, q: &[f64], v: &[f64]) -> Result<(), DynamicsError> {
        let Some(m) = &self.world.mechanism else {
            return Err(DynamicsError::Setup(
                "the scene has no joints: joint coordinates need a mechanism ([[joint]] tables in the scene, docs/scene.md); set free bodies' motion with set_state".into(),
            ));
        };
        let (nq, nv) = (m.articulation.nq(), m.articulation.nv());
        if q.len() != nq || v.len() != nv {
            return Err(DynamicsError::Setup(format!(
                "{} joint coordinates and {} velocities given for a mechanism of {nq} and {nv}: give one per coordinate, in the mechanism's order",
                q.len(),
                v.len()
            )));
        }
        if !q.iter().chain(v).all(|x| x.is_finite()) {
            return Err(DynamicsError::Setup(
                "the joint coordinates or velocities are not finite: give finite numbers".into(),
            ));
        }
        let engine = &mut self.state.engine;
        let (yq, yv) = m.q_v_mut(&mut engine.y);
        yq.copy_from_slice(q);
        yv.copy_from_slice(v);
        m.hold_couplers(yq, yv);
        self.world.normalize(&mut engine.y);
        if let Some(bodies) = self.world.non_finite_bodies(&engine.y) {
            return Err(DynamicsError::NonFinite { t: engine.t, bodies });
        }
        self.world.implausible_motion(engine.t, &engine.y)?;
        engine.restart(&self.world)
    }

    /// Sets actuator `name`'s command to the constant `value` from now on: a servo's target, a
    /// motor's effort (before its gear). Held until set again; part of the saved state.
    pub fn set_actuator_command(&mut self, name: &str, value: f64) -> Result<(), DynamicsError> {
        let Some(m) = &mut self.world.mechanism else {
            return Err(DynamicsError::Setup(
                "the scene has no joints: actuators need a mechanism ([[joint]] and [[actuator]] tables in the scene, docs/scene.md)".into(),
            ));
        };
        let Some(k) = m.actuator_named(name) else {
            let names: Vec<&str> = m.actuators.iter().map(|a| a.name.as_str()).collect();
            return Err(DynamicsError::Setup(format!(
                "no actuator `{name}`: the scene's actuators are [{}]",
                names.join(", ")
            )));
        };
        if !value.is_finite() {
            return Err(DynamicsError::Setup(format!(
                "the command of actuator `{name}` is not finite: give a finite number"
            )));
        }
        m.actuators[k].set_command(value);
        self.state.actuators[k].set_command(value);
        self.state.engine.loads_changed();
        Ok(())
    }

    /// Sets the control input of body `i` — a force and a torque about its centre of mass
    /// (world frame) added to the scene's applied load — held until it is set again. Its work
    /// is counted in the energy balance like the scene's loads.
    pub fn apply(&mut self, i: usize, force: Vector3, torque: Vector3) -> Result<(), DynamicsError> {
        let body = &self.world.bodies[i];
        let kind = match body.motion {
            Motion::Free | Motion::Link(_) => "",
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
        let engine = &mut self.state.engine;
        engine.watch.allow_loads(&self.world, &engine.y);
        engine.loads_changed();
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
        let t = self.t();
        let (now, _) = path.at(t);
        let start = Isometry3::from_parts(
            (now.translation.vector - twist.linear * t).into(),
            crate::math::UnitQuaternion::from_scaled_axis(-twist.angular * t) * now.rotation,
        );
        let motion = Motion::Kinematic(KinematicMotion::Constant { start, twist });
        self.world.bodies[i].motion = motion.clone();
        self.state.motions[i] = motion;
        self.state.engine.loads_changed();
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
        self.step_towards(f64::INFINITY)
    }

    /// A fixed step, or an adaptive one towards `t_end`.
    fn step_towards(&mut self, t_end: f64) -> Result<(), DynamicsError> {
        let engine = &mut self.state.engine;
        let excess = match engine.scheme {
            Scheme::Fixed { .. } => engine.fixed_step(&self.world)?.2,
            Scheme::Adaptive(_) => engine.adaptive_step(&self.world, t_end)?,
        };
        engine.stats.max_energy_excess = engine.stats.max_energy_excess.max(excess);
        Ok(())
    }

    /// Steps until time `t`: fixed-step schemes to the nearest whole step, adaptive ones land
    /// a step on `t`. Nothing when `t` is not ahead.
    pub fn advance_to(&mut self, t: f64) -> Result<(), DynamicsError> {
        match self.state.engine.scheme {
            Scheme::Fixed { dt, .. } => {
                let target = (t / dt).round();
                while (self.state.engine.stats.steps as f64) < target {
                    self.step()?;
                }
            }
            Scheme::Adaptive(_) => {
                while t - self.t() > self.state.engine.options.min_step {
                    self.step_towards(t)?;
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
        match self.state.engine.scheme {
            Scheme::Fixed { dt, .. } => {
                let steps = (duration / dt).round().max(1.0) as u64;
                let every = ((output_dt / dt).round() as u64).max(1);
                for k in 1..=steps {
                    self.step()?;
                    if k % every == 0 || k == steps {
                        observe(self);
                    }
                }
            }
            Scheme::Adaptive(_) => {
                let start = self.t();
                let n = (duration / output_dt).ceil().max(1.0) as usize;
                for k in 1..=n {
                    self.advance_to(start + (k as f64 * output_dt).min(duration))?;
                    observe(self);
                }
            }
        }
        Ok(())
    }

    /// The contacts of the current state: the force models' evaluated now; the impulse
    /// models' from the last step (impulse / dt; none before the first step).
    pub fn contacts(&self) -> Result<Vec<PairContact>, DynamicsError> {
        match self.impulse_contacts() {
            Some(contacts) => Ok(contacts.to_vec()),
            None => self.world.contacts(self.t(), self.y()),
        }
    }

    fn impulse_contacts(&self) -> Option<&[PairContact]> {
        match &self.state.engine.scheme {
            Scheme::Fixed { scheme, .. } => scheme.impulse_contacts(),
            Scheme::Adaptive(_) => None,
        }
    }

    /// The energies of the current state (the elastic energy exact).
    pub fn energies(&self) -> Result<Energies, DynamicsError> {
        let (world, y) = (&self.world, self.y());
        match self.impulse_contacts() {
            // Impulse models store no elastic energy: their contacts give it in closed form (0).
            Some(contacts) => Ok(super::elastic_tracker::tracked_energies(
                world,
                y,
                world.motion_energies(y),
                contacts,
                0.0,
            )),
            None => world.energies(self.t(), y),
        }
    }

    /// Work done on the bodies by applied loads (the scene's and the control inputs) and
    /// kinematic bodies so far (J).
    pub fn work(&self) -> f64 {
        self.world.coords.work(self.y())
    }
}
