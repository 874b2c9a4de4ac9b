//! The fixed-step schemes of the force models: backward Euler ([`super::super::implicit_euler`])
//! and semi-implicit Euler ([`super::super::semi_implicit_euler`]), with the elastic energy
//! tracked between exact evaluations ([`ElasticTracker`]).

use super::traits::{FixedOutput, FixedStepScheme, StepClock, StepReport};
use crate::contact::model::PairContact;
use crate::dynamics::elastic_tracker::ElasticTracker;
use crate::dynamics::error::DynamicsError;
use crate::dynamics::implicit_euler::{self, DerivativeCache};
use crate::dynamics::joint_space_step::{self, JointGuess, JointScheme};
use crate::dynamics::semi_implicit_euler;
use crate::dynamics::world::{Loads, World};
use crate::math::{Isometry3, Twist};

/// Which method, with its own memory.
#[derive(Clone, Debug)]
enum Method {
    /// The pairs' derivatives reused for a few steps, Newton's rate, the last velocity changes.
    Implicit(Box<DerivativeCache>),
    /// The loads at the end state of the last step, evaluated for an output: the next step
    /// starts from them (an output evaluates no contact twice).
    SemiImplicit { next_loads: Option<Loads> },
}

/// Implicit or semi-implicit Euler, with the tracked elastic energy when outputs sample it.
#[derive(Clone, Debug)]
pub struct FixedForce {
    method: Method,
    /// Whether the elastic energy is tracked: for runs whose outputs sample it
    /// ([`FixedStepScheme::output`]); a run stepped from outside asks for exact energies instead.
    tracking: bool,
    /// Implicit Euler in a run whose every output takes the exact energy: the tracker starts
    /// afresh at each output instead of following every step.
    at_outputs_only: bool,
    tracker: ElasticTracker,
    /// The bodies' poses at the state the tracker reached last, which outputs reuse.
    tracked_poses: Vec<(Isometry3, Twist)>,
    /// The step whose end state the tracker has reached, counted as [`FixedForce::taken`].
    tracked_until: u64,
    /// The steps taken since the start, each sub-step of a cut step one (the run's clock counts
    /// whole steps), and the last one's length.
    taken: u64,
    last_dt: f64,
    /// The contacts of the last step's end state: implicit Euler's applied ones (to Newton's
    /// tolerance), or semi-implicit Euler's evaluated for an output.
    applied: Vec<PairContact>,
    /// A world with a mechanism: the last smooth step's velocity change (Newton's first guess).
    joint_guess: JointGuess,
}

impl FixedForce {
    fn with(method: Method, tracking: bool) -> FixedForce {
        FixedForce {
            method,
            tracking,
            at_outputs_only: false,
            tracker: ElasticTracker::default(),
            tracked_poses: Vec::new(),
            tracked_until: 0,
            taken: 0,
            last_dt: 0.0,
            applied: Vec::new(),
            joint_guess: JointGuess::default(),
        }
    }

    pub fn implicit(tracking: bool) -> FixedForce {
        FixedForce::with(Method::Implicit(Box::default()), tracking)
    }

    pub fn semi_implicit(tracking: bool) -> FixedForce {
        FixedForce::with(Method::SemiImplicit { next_loads: None }, tracking)
    }
}

impl FixedStepScheme for FixedForce {
    fn start(
        &mut self,
        world: &World,
        (t, k): (f64, u64),
        y: &[f64],
        contacts: &[PairContact],
    ) -> Result<(), DynamicsError> {
        self.method = match self.method {
            Method::Implicit(_) => Method::Implicit(Box::default()),
            Method::SemiImplicit { .. } => Method::SemiImplicit { next_loads: None },
        };
        self.tracker = ElasticTracker::default();
        self.tracked_until = k;
        self.taken = k;
        self.applied.clear();
        self.joint_guess = JointGuess::default();
        if !self.tracking {
            return Ok(());
        }
        self.tracked_poses = world.poses(t, y);
        self.tracker.advance(world, &self.tracked_poses, contacts, 0.0);
        let poses = &self.tracked_poses;
        self.tracker.correct(contacts, true, |c| world.pair_energy(t, poses, c))?;
        Ok(())
    }

    fn step(&mut self, world: &World, clock: StepClock, y: &mut [f64]) -> Result<StepReport, DynamicsError> {
        let (t, dt) = (clock.start(), clock.dt);
        self.taken += 1;
        let (k, last_dt) = (self.taken, std::mem::replace(&mut self.last_dt, dt));
        match &mut self.method {
            Method::Implicit(cache) => {
                // A world with a mechanism steps every velocity at once, in joint coordinates.
                let report = match world.mechanism {
                    Some(_) => {
                        let (scheme, guess) = (JointScheme::Implicit, &mut self.joint_guess);
                        joint_space_step::step(world, (t, dt), y, scheme, None, &mut self.applied, guess)?
                    }
                    None => implicit_euler::step(world, t, y, dt, cache, &mut self.applied)?,
                };
                if self.tracking && !self.at_outputs_only {
                    self.tracked_poses = world.poses(clock.end(), y);
                    self.tracker.advance(world, &self.tracked_poses, &self.applied, dt);
                    self.tracked_until = k;
                }
                Ok(StepReport {
                    evaluations: report.evaluations,
                    unconverged: !report.converged,
                    solver: None,
                })
            }
            Method::SemiImplicit { next_loads } => {
                let loads = match next_loads.take() {
                    Some(loads) => loads,
                    None => semi_implicit_euler::start_loads(world, t, y)?,
                };
                if self.tracking && self.tracked_until < k - 1 {
                    self.tracked_poses = world.poses(t, y);
                    self.tracker.advance(world, &self.tracked_poses, &loads.contacts, last_dt);
                    self.tracked_until = k - 1;
                }
                match world.mechanism {
                    Some(_) => {
                        let scheme = JointScheme::SemiImplicit;
                        let no_guess = &mut JointGuess::default();
                        joint_space_step::step(
                            world,
                            (t, dt),
                            y,
                            scheme,
                            Some(&loads),
                            &mut Vec::new(),
                            no_guess,
                        )?;
                    }
                    None => semi_implicit_euler::step(world, t, y, dt, &loads)?,
                }
                Ok(StepReport { evaluations: 1, unconverged: false, solver: None })
            }
        }
    }

    fn output(
        &mut self,
        world: &World,
        clock: StepClock,
        y: &[f64],
        exact: bool,
    ) -> Result<FixedOutput<'_>, DynamicsError> {
        debug_assert!(self.tracking, "outputs sample the tracked elastic energy");
        let (t, k) = (clock.end(), self.taken);
        if self.tracked_until < k {
            match &mut self.method {
                // Untracked since the last output: the tracker starts afresh from the contacts
                // the last step applied, and every one of its pairs is computed exactly below.
                Method::Implicit(_) => {
                    debug_assert!(exact, "untracked between outputs, yet asked for a tracked value");
                    let largest_correction = self.tracker.largest_correction;
                    self.tracker = ElasticTracker::default();
                    self.tracker.largest_correction = largest_correction;
                    self.tracked_poses = world.poses(t, y);
                    self.tracker.advance(world, &self.tracked_poses, &self.applied, 0.0);
                }
                // Semi-implicit Euler: the end state's contacts, which also start the next step.
                Method::SemiImplicit { next_loads } => {
                    let loads = semi_implicit_euler::start_loads(world, t, y)?;
                    self.tracked_poses = world.poses(t, y);
                    self.tracker.advance(world, &self.tracked_poses, &loads.contacts, self.last_dt);
                    self.applied.clone_from(&loads.contacts);
                    *next_loads = Some(loads);
                }
            }
            self.tracked_until = k;
        }
        let poses = &self.tracked_poses;
        self.tracker.correct(&self.applied, exact, |c| world.pair_energy(t, poses, c))?;
        Ok(FixedOutput {
            contacts: &self.applied,
            poses: Some(poses),
            tracked_elastic: self.tracker.value(),
            largest_correction: self.tracker.largest_correction,
        })
    }

    fn impulse_contacts(&self) -> Option<&[PairContact]> {
        None
    }

    fn loads_changed(&mut self) {
        if let Method::SemiImplicit { next_loads } = &mut self.method {
            *next_loads = None;
        }
    }

    /// Implicit Euler only: semi-implicit Euler's outputs evaluate the end state's loads, which
    /// its next step starts from.
    fn exact_outputs_only(&mut self) {
        self.at_outputs_only = matches!(self.method, Method::Implicit(_));
    }

    fn clone_box(&self) -> Box<dyn FixedStepScheme> {
        Box::new(self.clone())
    }
}
