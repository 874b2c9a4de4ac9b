//! Running a world forward in time with a chosen integrator, reporting states at output times
//! and watching the energy balance, so that a run that goes wrong stops instead of reporting
//! success (see [`EnergyWatch`]).

use super::elastic_tracker::ElasticTracker;
use super::energy_watch::EnergyWatch;
use super::error::DynamicsError;
use super::impulse_step::constraint_step;
use super::ode::{self, AdaptiveOptions, OdeError, OdeSystem, Tolerances};
use super::time_stepping::SolverReport;
use super::world::{Energies, Loads, World};
use super::{implicit_euler, semi_implicit_euler};
use crate::contact::model::PairContact;
use crate::contact::volume6d::model::WarmStarts;
use crate::math::{Isometry3, Twist};

/// The integrators, with their settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Integrator {
    /// Fixed-step backward Euler for the contact forces (Newton; stiffness and damping
    /// implicit): stable at any contact stiffness.
    ImplicitEuler { dt: f64 },
    /// Fixed-step semi-implicit (symplectic) Euler with step `dt` (s); dissipation and friction
    /// implicit, elastic contact forces explicit.
    SemiImplicitEuler { dt: f64 },
    /// Adaptive explicit Dormand–Prince 5(4).
    Dopri5 { tolerances: Tolerances, initial_step: Option<f64> },
    /// Adaptive implicit Radau IIA of order 5 (stiffly accurate, L-stable), for stiff contact.
    Radau5 { tolerances: Tolerances, initial_step: Option<f64> },
    /// Fixed-step velocity-level time stepping with contact impulses, for constraint models
    /// (`volume6d`): [`super::time_stepping`].
    TimeStepping { dt: f64 },
}

impl Integrator {
    /// The fixed step (s) of the fixed-step schemes; `None` for the adaptive ones.
    pub fn fixed_dt(&self) -> Option<f64> {
        match self {
            Integrator::ImplicitEuler { dt }
            | Integrator::SemiImplicitEuler { dt }
            | Integrator::TimeStepping { dt } => Some(*dt),
            Integrator::Dopri5 { .. } | Integrator::Radau5 { .. } => None,
        }
    }

    /// The name a scene gives it (`[sim] integrator`).
    pub fn name(&self) -> &'static str {
        match self {
            Integrator::ImplicitEuler { .. } => "implicit_euler",
            Integrator::SemiImplicitEuler { .. } => "semi_implicit_euler",
            Integrator::Dopri5 { .. } => "dopri5",
            Integrator::Radau5 { .. } => "radau5",
            Integrator::TimeStepping { .. } => "time_stepping",
        }
    }
}

/// A world seen as an ODE system; keeps the first dynamics error for the caller.
pub(super) struct WorldSystem<'a> {
    pub(super) world: &'a World,
    pub(super) error: Option<DynamicsError>,
}

impl OdeSystem for WorldSystem<'_> {
    fn dim(&self) -> usize {
        self.world.coords.dim()
    }

    fn derivative(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        self.world.derivative(t, y, dy).map_err(|e| {
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

/// Whether to go on after an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Steps taken (accepted).
    pub steps: u64,
    /// Steps rejected by error control.
    pub rejected: u64,
    /// Evaluations of the state derivative (of the contacts, for the fixed-step schemes).
    pub evaluations: u64,
    /// Implicit Euler steps whose Newton iteration did not meet its tolerance.
    pub unconverged: u64,
    /// Simulated time reached (s).
    pub t_end: f64,
    /// PEG: the fall-backs its contact solves took (regularised, reduced or frictionless
    /// problems; see `peg_step`).
    pub fallbacks: u64,
    /// The largest excess of the total energy over its initial value plus the external work
    /// seen at output times (J; ≤ 0 when energy only left the system).
    pub max_energy_excess: f64,
    /// Fixed-step runs: the largest change of the elastic energy when it was computed exactly
    /// again after being tracked ([`Schedule::exact_energy_dt`]) (J).
    pub largest_elastic_correction: f64,
}

/// What the observer sees at an output time: the state, its touching pairs and energies.
pub struct Sample<'a> {
    pub t: f64,
    pub y: &'a [f64],
    /// Each body's pose and world-frame twist at `y`.
    pub poses: &'a [(Isometry3, Twist)],
    pub contacts: &'a [PairContact],
    pub energies: Energies,
    /// Work done on the bodies by applied loads and kinematic bodies since t = 0 (J).
    pub work: f64,
    /// Time stepping: the solver's report of every step since the last sample.
    pub solver: &'a [SolverReport],
    /// Whether this is the run's last sample (its end: the last whole fixed step, or the
    /// duration).
    pub last: bool,
}

/// The default interval (s) at which fixed-step runs compute the elastic energy exactly
/// ([`Schedule::exact_energy_dt`]).
pub const DEFAULT_EXACT_ENERGY_DT: f64 = 0.1;

/// The span of a run and when it reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Simulated time (s).
    pub duration: f64,
    /// Interval between outputs (s); rounded to a whole number of steps by fixed-step schemes.
    pub output_dt: f64,
    /// Fixed-step runs: the interval (s) at which outputs compute the elastic energy exactly
    /// (tet clipping); between, it is advanced by the work of the elastic contact forces
    /// ([`ElasticTracker`]). At most `output_dt` for an exact value in every output. Adaptive
    /// runs compute it exactly at every output.
    pub exact_energy_dt: f64,
}

impl Schedule {
    /// `duration` with outputs every `output_dt` and the default exact-energy interval.
    pub fn new(duration: f64, output_dt: f64) -> Schedule {
        Schedule { duration, output_dt, exact_energy_dt: DEFAULT_EXACT_ENERGY_DT.max(output_dt) }
    }
}

/// Integrates from t = 0 to the schedule's duration, calling `observe` at t = 0 and then every
/// `output_dt` (rounded to a whole number of steps for fixed-step integrators) and at the end.
/// Stops with [`DynamicsError::EnergyGrowth`] when the energy balance is broken (see
/// [`EnergyWatch`]).
pub fn run(
    world: &World,
    integrator: &Integrator,
    schedule: &Schedule,
    mut observe: impl FnMut(&Sample) -> Result<Flow, DynamicsError>,
) -> Result<RunStats, DynamicsError> {
    let Schedule { duration, output_dt, exact_energy_dt } = *schedule;
    let mut y = world.initial_state();
    let mut stats = RunStats { max_energy_excess: f64::NEG_INFINITY, ..RunStats::default() };
    let exact = |t: f64, y: &[f64]| -> Result<(Vec<PairContact>, Energies), DynamicsError> {
        let contacts = world.contacts(t, y)?;
        let energies = world.energies_with(t, y, &contacts)?;
        Ok((contacts, energies))
    };
    let (contacts, energies) = exact(0.0, &y)?;
    let watch = EnergyWatch::new(world, &y, &energies);
    // The time of the last sample: a fixed-step run's last whole step, or the duration.
    let end = match integrator.fixed_dt() {
        Some(dt) => fixed_step_counts(duration, output_dt, dt).0 as f64 * dt,
        None => duration,
    };
    let mut sample = |t: f64,
                      y: &[f64],
                      stats: &mut RunStats,
                      poses: Option<&[(Isometry3, Twist)]>,
                      contacts: &[PairContact],
                      energies: Energies,
                      solver: &[SolverReport]| {
        world.implausible_motion(t, y)?;
        let work = world.coords.work(y);
        let excess = watch.check(world, t, y, energies.total, work, integrator)?;
        stats.max_energy_excess = stats.max_energy_excess.max(excess);
        // Fixed-step runs have the poses already (for the elastic energy).
        let computed;
        let poses = match poses {
            Some(poses) => poses,
            None => {
                computed = world.poses(t, y);
                &computed
            }
        };
        observe(&Sample { t, y, poses, contacts, energies, work, solver, last: t >= end })
    };
    if sample(0.0, &y, &mut stats, None, &contacts, energies, &[])? == Flow::Stop {
        return Ok(stats);
    }
    match integrator {
        Integrator::TimeStepping { dt } => {
            let (steps, every) = fixed_step_counts(duration, output_dt, *dt);
            let (mut applied, mut reports) = (Vec::new(), Vec::new());
            let mut warm = WarmStarts::default();
            for k in 1..=steps {
                let t = (k - 1) as f64 * dt;
                let report = constraint_step(world, t, &mut y, *dt, &mut warm, &mut applied)?;
                reports.push(report);
                stats.evaluations += report.sweeps as u64;
                stats.fallbacks += u64::from(report.fallbacks);
                let Some(motion) =
                    finish_step(world, &watch, integrator, &mut stats, &y, (k, steps, every), *dt)?
                else {
                    continue;
                };
                let energies = world.energies_tracked(&y, motion, &applied, 0.0);
                if sample(stats.t_end, &y, &mut stats, None, &applied, energies, &reports)? == Flow::Stop {
                    break;
                }
                reports.clear();
            }
        }
        Integrator::SemiImplicitEuler { dt } | Integrator::ImplicitEuler { dt } => {
            let (steps, every) = fixed_step_counts(duration, output_dt, *dt);
            let exact_every = ((exact_energy_dt / dt).round() as u64).max(1);
            let mut stiffness = implicit_euler::DerivativeCache::default();
            let mut tracker = ElasticTracker::default();
            // The bodies' poses at the state the tracker reached last, which outputs reuse.
            let mut tracked_poses = world.poses(0.0, &y);
            tracker.advance(world, &tracked_poses, &contacts, 0.0);
            tracker.correct(&contacts, true, |c| world.pair_energy(0.0, &tracked_poses, c))?;
            // The step whose end state the tracker has reached.
            let mut tracked_until = 0u64;
            // The contacts of the last step's end state: implicit Euler's applied ones (to
            // Newton's tolerance), or semi-implicit Euler's at an output, which also start the
            // next step — so outputs evaluate no contact twice.
            let mut applied: Vec<PairContact> = Vec::new();
            let mut next_loads: Option<Loads> = None;
            for k in 1..=steps {
                let t = (k - 1) as f64 * dt;
                if let Integrator::ImplicitEuler { .. } = integrator {
                    let report = implicit_euler::step(world, t, &mut y, *dt, &mut stiffness, &mut applied)?;
                    stats.evaluations += report.evaluations;
                    stats.unconverged += u64::from(!report.converged);
                    tracked_poses = world.poses(k as f64 * dt, &y);
                    tracker.advance(world, &tracked_poses, &applied, *dt);
                    tracked_until = k;
                } else {
                    let loads = match next_loads.take() {
                        Some(loads) => loads,
                        None => semi_implicit_euler::start_loads(world, t, &y)?,
                    };
                    if tracked_until < k - 1 {
                        tracked_poses = world.poses(t, &y);
                        tracker.advance(world, &tracked_poses, &loads.contacts, *dt);
                        tracked_until = k - 1;
                    }
                    semi_implicit_euler::step(world, t, &mut y, *dt, &loads)?;
                    stats.evaluations += 1;
                }
                let Some(motion) =
                    finish_step(world, &watch, integrator, &mut stats, &y, (k, steps, every), *dt)?
                else {
                    continue;
                };
                if tracked_until < k {
                    let loads = semi_implicit_euler::start_loads(world, stats.t_end, &y)?;
                    tracked_poses = world.poses(stats.t_end, &y);
                    tracker.advance(world, &tracked_poses, &loads.contacts, *dt);
                    tracked_until = k;
                    applied.clone_from(&loads.contacts);
                    next_loads = Some(loads);
                }
                // The tracker has reached this step's end state.
                let poses = &tracked_poses;
                let all = k % exact_every == 0 || k == steps;
                tracker.correct(&applied, all, |c| world.pair_energy(stats.t_end, poses, c))?;
                let energies = world.energies_tracked(&y, motion, &applied, tracker.value());
                stats.largest_elastic_correction = tracker.largest_correction;
                if sample(stats.t_end, &y, &mut stats, Some(poses), &applied, energies, &[])? == Flow::Stop {
                    break;
                }
            }
        }
        Integrator::Dopri5 { tolerances, initial_step } | Integrator::Radau5 { tolerances, initial_step } => {
            let n = (duration / output_dt).ceil().max(1.0) as usize;
            // The last output is the duration itself (n·output_dt can fall short of it by a
            // rounding: 3 × 0.3 = 0.8999999999999999).
            let outputs: Vec<f64> = (1..=n)
                .map(|k| if k == n { duration } else { (k as f64 * output_dt).min(duration) })
                .collect();
            // Free flight is a polynomial the methods integrate exactly, so their error estimate
            // would let the step grow until it jumps over a whole contact: cap it at the output
            // interval.
            let options = AdaptiveOptions {
                initial_step: *initial_step,
                max_step: Some(output_dt),
                min_step: adaptive_step_floor(output_dt),
                max_steps: adaptive_step_budget(n),
            };
            let mut system = WorldSystem { world, error: None };
            let mut failure: Option<DynamicsError> = None;
            // The last state shown, to name the bodies in contact if the integrator fails.
            let mut last = (0.0, y.clone());
            let mut run_stats =
                RunStats { max_energy_excess: stats.max_energy_excess, ..RunStats::default() };
            let observer = |t: f64, y: &[f64]| {
                last = (t, y.to_vec());
                let sampled = exact(t, y).and_then(|(contacts, energies)| {
                    sample(t, y, &mut run_stats, None, &contacts, energies, &[])
                });
                match sampled {
                    Ok(Flow::Continue) => ode::Flow::Continue,
                    Ok(Flow::Stop) => ode::Flow::Stop,
                    Err(e) => {
                        failure = Some(e);
                        ode::Flow::Stop
                    }
                }
            };
            let integrate = if matches!(integrator, Integrator::Dopri5 { .. }) {
                ode::integrate_dopri5
            } else {
                ode::integrate_radau5
            };
            let outcome = integrate(&mut system, 0.0, &y, duration, tolerances, &options, &outputs, observer);
            if let Some(e) = failure {
                return Err(e);
            }
            let outcome = match outcome {
                Ok(o) => o,
                Err(e) => {
                    if let Some(inner) = system.error.take() {
                        return Err(inner);
                    }
                    let advice = match e {
                        OdeError::StepTooSmall { .. } | OdeError::TooManySteps { .. } => {
                            "; the contact is too stiff for an adaptive step (very light bodies or stiff moduli): use integrator = \"implicit_euler\" (fixed step, stable at any stiffness), or loosen rtol/atol"
                        }
                        _ => "",
                    };
                    let t = error_time(&e);
                    // Stuck before the first output: name an initial overlap, the usual cause.
                    let overlap = if t < output_dt { deepest_overlap(world, &y) } else { None };
                    let overlap = overlap.map_or(String::new(), |(a, b, depth)| {
                        format!(
                            "; at t = 0 `{a}` and `{b}` already overlap by {depth:.3e} m: start them apart"
                        )
                    });
                    return Err(DynamicsError::Integrator {
                        t,
                        bodies: world.bodies_in_contact(last.0, &last.1),
                        reason: format!("{e}{advice}{overlap}"),
                    });
                }
            };
            stats.steps = outcome.stats.accepted;
            stats.rejected = outcome.stats.rejected;
            stats.evaluations = outcome.stats.evaluations;
            stats.t_end = outcome.t;
            stats.max_energy_excess = run_stats.max_energy_excess;
        }
    }
    Ok(stats)
}

/// A fixed-step run's number of steps of `dt` in `duration` and the steps between outputs
/// (each rounded to the nearest whole number, at least one).
pub fn fixed_step_counts(duration: f64, output_dt: f64, dt: f64) -> (u64, u64) {
    ((duration / dt).round().max(1.0) as u64, ((output_dt / dt).round() as u64).max(1))
}

/// After fixed step `k` of `steps` (outputs `every` so many steps) of `dt`: counts it, checks
/// that kinetic + gravity alone stay within the energy budget (cheap: no contact query) and
/// that no body moves implausibly fast; returns the kinetic and gravitational energy when an
/// output is due.
fn finish_step(
    world: &World,
    watch: &EnergyWatch,
    integrator: &Integrator,
    stats: &mut RunStats,
    y: &[f64],
    (k, steps, every): (u64, u64, u64),
    dt: f64,
) -> Result<Option<(f64, f64)>, DynamicsError> {
    stats.steps += 1;
    stats.t_end = k as f64 * dt;
    world.implausible_motion(stats.t_end, y)?;
    let (kinetic, gravity) = world.motion_energies(y);
    watch.check(world, stats.t_end, y, kinetic + gravity, world.coords.work(y), integrator)?;
    Ok((k % every == 0 || k == steps).then_some((kinetic, gravity)))
}

/// The deepest overlap of any pair at state `y` (t = 0), for models that measure distances.
fn deepest_overlap(world: &World, y: &[f64]) -> Option<(String, String, f64)> {
    let poses = world.poses(0.0, y);
    world
        .model
        .candidate_pairs(&poses)
        .into_iter()
        .filter_map(|(a, b)| {
            let gap = world.model.gap((a, b), (&poses[a].0, &poses[b].0))?;
            (gap < 0.0).then(|| (world.bodies[a].name.clone(), world.bodies[b].name.clone(), -gap))
        })
        .max_by(|x, y| x.2.total_cmp(&y.2))
}

/// The smallest adaptive step: a billionth of the output interval. Contacts that need smaller
/// steps are stiff enough to hang a run; the error that follows says what to do.
pub fn adaptive_step_floor(output_dt: f64) -> f64 {
    1e-9 * output_dt
}

/// The most adaptive steps (accepted and rejected) in a run of `outputs` output intervals.
pub fn adaptive_step_budget(outputs: usize) -> u64 {
    2_000_000 + 2_000 * outputs as u64
}

/// The time an integrator error happened, where it says.
fn error_time(e: &OdeError) -> f64 {
    match e {
        OdeError::NonFinite { t }
        | OdeError::StepTooSmall { t, .. }
        | OdeError::TooManySteps { t }
        | OdeError::NewtonFailed { t }
        | OdeError::System { t, .. } => *t,
        _ => 0.0,
    }
}
