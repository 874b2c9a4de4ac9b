//! Running a world forward in time: the stepping engine ([`super::engine`]) plus an output
//! schedule, reporting states at output times and watching the energy balance, so that a run
//! that goes wrong stops instead of reporting success (see [`super::EnergyWatch`]).

use super::engine::{Engine, Scheme, WorldSystem};
use super::error::DynamicsError;
use super::ode::{self, OdeError};
use super::solver_report::SolverReport;
use super::world::{Energies, World};
use crate::contact::model::PairContact;
use crate::math::{Isometry3, Twist};

pub use super::engine::RunStats;
pub use super::integrator::{Integrator, adaptive_step_budget, adaptive_step_floor, fixed_step_counts};

/// Whether to go on after an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
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
    /// ([`ElasticTracker`](super::elastic_tracker::ElasticTracker)). At most `output_dt` for an exact value in every output. Adaptive
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
/// [`EnergyWatch`](super::EnergyWatch)).
pub fn run(
    world: &World,
    integrator: &Integrator,
    schedule: &Schedule,
    mut observe: impl FnMut(&Sample) -> Result<Flow, DynamicsError>,
) -> Result<RunStats, DynamicsError> {
    let Schedule { duration, output_dt, exact_energy_dt } = *schedule;
    let outputs = (duration / output_dt).ceil().max(1.0) as usize;
    // Free flight is a polynomial the adaptive methods integrate exactly, so their error
    // estimate would let the step grow until it jumps over a whole contact: capped at the
    // output interval.
    let options = integrator.adaptive_options(output_dt, adaptive_step_budget(outputs));
    let (mut engine, initial) = Engine::new(world, integrator, options, false)?;
    let watch = engine.watch;
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
    let mut stats = engine.stats;
    let first = sample(0.0, &engine.y, &mut stats, None, &initial.contacts, initial.energies, &[])?;
    engine.stats = stats;
    if first == Flow::Stop {
        return Ok(engine.stats);
    }
    let Scheme::Fixed { dt, .. } = engine.scheme else {
        run_adaptive(world, &mut engine, schedule, &mut sample)?;
        return Ok(engine.stats);
    };
    let (steps, every) = fixed_step_counts(duration, output_dt, dt);
    let exact_every = ((exact_energy_dt / dt).round() as u64).max(1);
    // Every output exact (at multiples of exact_energy_dt, or only the last): nothing shows a
    // tracked energy, so none is tracked between outputs.
    if (every % exact_every == 0 || every >= steps)
        && let Scheme::Fixed { scheme, .. } = &mut engine.scheme
    {
        scheme.exact_outputs_only();
    }
    let mut reports = Vec::new();
    for k in 1..=steps {
        let (report, motion, _) = engine.fixed_step(world)?;
        reports.extend(report.solver);
        if !(k % every == 0 || k == steps) {
            continue;
        }
        let exact = k % exact_every == 0 || k == steps;
        let (out, energies, y, stats) = engine.fixed_output(world, motion, exact)?;
        let flow = sample(stats.t_end, y, stats, out.poses, out.contacts, energies, &reports)?;
        if flow == Flow::Stop {
            break;
        }
        reports.clear();
    }
    Ok(engine.stats)
}

/// The adaptive part of [`run`]: the scheme integrates the whole run, outputs from its dense
/// output; `sample` as in [`run`].
fn run_adaptive(
    world: &World,
    engine: &mut Engine,
    schedule: &Schedule,
    sample: &mut impl FnMut(
        f64,
        &[f64],
        &mut RunStats,
        Option<&[(Isometry3, Twist)]>,
        &[PairContact],
        Energies,
        &[SolverReport],
    ) -> Result<Flow, DynamicsError>,
) -> Result<(), DynamicsError> {
    let Schedule { duration, output_dt, .. } = *schedule;
    let Scheme::Adaptive(scheme) = &mut engine.scheme else { unreachable!("adaptive schemes only") };
    let n = (duration / output_dt).ceil().max(1.0) as usize;
    // The last output is the duration itself (n·output_dt can fall short of it by a rounding:
    // 3 × 0.3 = 0.8999999999999999).
    let outputs: Vec<f64> =
        (1..=n).map(|k| if k == n { duration } else { (k as f64 * output_dt).min(duration) }).collect();
    let mut system = WorldSystem { world, error: None };
    let mut failure: Option<DynamicsError> = None;
    let y0 = engine.y.clone();
    // The last state shown, to name the bodies in contact if the integrator fails.
    let mut last = (0.0, y0.clone());
    let mut run_stats = RunStats { max_energy_excess: engine.stats.max_energy_excess, ..RunStats::default() };
    let mut observer = |t: f64, y: &[f64]| {
        last = (t, y.to_vec());
        let sampled = world.contacts(t, y).and_then(|contacts| {
            let energies = world.energies_with(t, y, &contacts)?;
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
    let outcome =
        scheme.integrate(&mut system, (0.0, &y0), duration, &engine.options, &outputs, &mut observer);
    if let Some(e) = failure {
        return Err(e);
    }
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            if let Some(inner) = system.error.take() {
                return Err(inner);
            }
            let bodies = world.bodies_in_contact(last.0, &last.1);
            let advice = match e {
                // Nothing touching: the contact is not to blame.
                OdeError::StepTooSmall { .. } | OdeError::TooManySteps { .. } if bodies == "none" => {
                    "; no bodies touch, so the motion itself asks for steps this small: check rtol/atol, the loads, joint gains and masses"
                }
                OdeError::StepTooSmall { .. } | OdeError::TooManySteps { .. } => {
                    "; the contact is too stiff for an adaptive step (very light bodies or stiff moduli): use integrator = \"implicit_euler\" (fixed step, stable at any stiffness), or loosen rtol/atol"
                }
                _ => "",
            };
            let t = error_time(&e);
            // Stuck before the first output: name an initial overlap, the usual cause.
            let overlap = if t < output_dt { deepest_overlap(world, &y0) } else { None };
            let overlap = overlap.map_or(String::new(), |(a, b, depth)| {
                format!("; at t = 0 `{a}` and `{b}` already overlap by {depth:.3e} m: start them apart")
            });
            return Err(DynamicsError::Integrator { t, bodies, reason: format!("{e}{advice}{overlap}") });
        }
    };
    engine.y = outcome.y;
    engine.t = outcome.t;
    let stats = &mut engine.stats;
    stats.steps = outcome.stats.accepted;
    stats.rejected = outcome.stats.rejected;
    stats.evaluations = outcome.stats.evaluations;
    stats.t_end = outcome.t;
    stats.max_energy_excess = run_stats.max_energy_excess;
    Ok(())
}

/// The deepest overlap of any pair at state `y` (t = 0), for models that measure distances.
fn deepest_overlap(world: &World, y: &[f64]) -> Option<(String, String, f64)> {
    let body_poses = world.poses(0.0, y);
    let poses = world.model_poses(&body_poses);
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
