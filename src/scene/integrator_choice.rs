//! The integrator and output schedule a scene asks for, with the documented defaults, checked
//! against the contact model in one place (the command line, sweeps, Python and tests all
//! take them from here).

use crate::contact::ModelKind;
use crate::dynamics::integrator::{Integrator, adaptive_step_floor, fixed_step_counts};
use crate::dynamics::ode::Tolerances;
use crate::dynamics::simulate::Schedule;
use crate::math::compact;
use crate::scene::Scene;

/// A scene's `[sim]` settings cannot run: the message says which key and what to write.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SimSettingsError(String);

type Result<T> = std::result::Result<T, SimSettingsError>;

macro_rules! bail {
    ($($arg:tt)*) => { return Err(SimSettingsError(format!($($arg)*))) };
}

/// The names of the integrators, for messages.
pub const INTEGRATORS: [&str; 4] = ["implicit_euler", "semi_implicit_euler", "dopri5", "radau5"];

/// The integrator a model runs with when the scene names none: the pressure field's contact
/// stiffness grows with the modulus without bound, so it takes the fixed step that is stable at
/// any stiffness; Hertz contacts start and end at sharp events, which the adaptive dopri5
/// locates exactly (docs/simulation.md).
pub fn default_integrator(model: ModelKind) -> &'static str {
    match model {
        ModelKind::PressureField => "implicit_euler",
        ModelKind::Hertz => "dopri5",
        ModelKind::Volume6d | ModelKind::Peg => "time_stepping",
    }
}

/// The integrator and schedule (duration, output and exact-energy intervals) a scene asks for,
/// with the documented defaults.
pub fn integrator_choice(scene: &Scene) -> Result<(Integrator, Schedule)> {
    let sim = &scene.sim;
    let name = sim.integrator.as_deref().unwrap_or(default_integrator(scene.model));
    let tolerances = || Tolerances::new(sim.rtol.unwrap_or(1e-6), sim.atol.unwrap_or(1e-8));
    // An adaptive run's dt is its first step: within the run, as a fixed step is.
    let initial_step = || -> Result<Option<f64>> {
        match sim.dt {
            Some(dt) if dt > sim.duration => bail!(
                "[sim] dt = {} s (the first adaptive step) is longer than duration = {} s; use dt ≤ duration, or remove dt (the method picks its first step)",
                compact(dt),
                compact(sim.duration)
            ),
            Some(dt) if dt < adaptive_step_floor(sim.output_dt.unwrap_or(1e-3).min(sim.duration)) => bail!(
                "[sim] dt = {} s (the first adaptive step) is below the smallest step an adaptive run takes, {} s (a billionth of output_dt); remove dt (the method picks its first step) or give a larger one",
                compact(dt),
                compact(adaptive_step_floor(sim.output_dt.unwrap_or(1e-3).min(sim.duration)))
            ),
            dt => Ok(dt),
        }
    };
    let fixed_step = |name: &str| -> Result<f64> {
        if sim.rtol.is_some() || sim.atol.is_some() {
            bail!(
                "[sim] rtol/atol are for the adaptive integrators (dopri5, radau5), not {name}; remove them or pick one of those"
            );
        }
        let dt = sim.dt.unwrap_or(1e-3);
        if dt > sim.duration {
            bail!(
                "[sim] dt = {} s is longer than duration = {} s (the run would simulate {} s); use dt ≤ duration",
                compact(dt),
                compact(sim.duration),
                compact(dt)
            );
        }
        check_count("steps", "duration / dt", sim.duration / dt, "a larger dt or a shorter duration")?;
        Ok(dt)
    };
    // The constraint model has one integrator of its own, and the others none of it.
    let constraint_model = scene.model.is_constraint();
    if constraint_model && name != "time_stepping" {
        bail!(
            "[sim] integrator `{name}` cannot run kind = \"{}\" (contact impulses, not forces); use integrator = \"time_stepping\" (its default) or remove the key",
            scene.model.key()
        );
    }
    if !constraint_model && name == "time_stepping" {
        bail!(
            "[sim] integrator `time_stepping` is for kind = \"volume6d\" and \"peg\"; use one of: {}",
            INTEGRATORS.join(", ")
        );
    }
    let integrator = match name {
        "time_stepping" => Integrator::TimeStepping { dt: fixed_step(name)? },
        "implicit_euler" => Integrator::ImplicitEuler { dt: fixed_step(name)? },
        "semi_implicit_euler" => Integrator::SemiImplicitEuler { dt: fixed_step(name)? },
        "dopri5" => Integrator::Dopri5 { tolerances: tolerances(), initial_step: initial_step()? },
        "radau5" => Integrator::Radau5 { tolerances: tolerances(), initial_step: initial_step()? },
        other => bail!("[sim] integrator `{other}` is unknown; use one of: {}", INTEGRATORS.join(", ")),
    };
    let output_dt = sim
        .output_dt
        .unwrap_or_else(|| integrator.fixed_dt().map_or(1e-3, |dt| dt.max(1e-3)))
        .min(sim.duration);
    check_count(
        "output rows",
        "duration / output_dt",
        sim.duration / output_dt,
        "a larger output_dt or a shorter duration",
    )?;
    let mut schedule = Schedule::new(sim.duration, output_dt);
    if let Some(exact) = sim.exact_energy_dt {
        schedule.exact_energy_dt = exact;
    }
    Ok((integrator, schedule))
}

/// What a fixed-step run changes of the scene's times: a `duration` or an `output_dt` that is
/// not a whole number of steps of `dt` is rounded to one (said, not done silently).
/// `asked_output_dt` is the scene's `output_dt`, if it gives one.
pub fn rounding_notes(
    asked_output_dt: Option<f64>,
    integrator: &Integrator,
    schedule: &Schedule,
) -> Vec<String> {
    let Some(dt) = integrator.fixed_dt() else { return Vec::new() };
    let (steps, every) = fixed_step_counts(schedule.duration, schedule.output_dt, dt);
    // Within a billionth: what the division's rounding leaves of a whole number.
    let whole = |n: u64, x: f64| (n as f64 * dt - x).abs() <= 1e-9 * x;
    let mut notes = Vec::new();
    let steps_of = |n: u64| if n == 1 { "1 step".to_owned() } else { format!("{n} steps") };
    if !whole(steps, schedule.duration) {
        notes.push(format!(
            "[sim] duration = {} s is not a whole number of steps of dt = {} s: the run takes {} and ends at t = {} s (a multiple of dt ends where it says)",
            compact(schedule.duration),
            compact(dt),
            steps_of(steps),
            compact(steps as f64 * dt)
        ));
    }
    // The default output_dt (1 ms or dt) is documented as rounded to whole steps; one at least
    // `duration` gives rows at the ends only.
    if let Some(asked) = asked_output_dt
        && asked < schedule.duration
        && !whole(every, schedule.output_dt)
    {
        notes.push(format!(
            "[sim] output_dt = {} s is not a whole number of steps of dt = {} s: a row every {} ({} s)",
            compact(asked),
            compact(dt),
            steps_of(every),
            compact(every as f64 * dt)
        ));
    }
    notes
}

/// The most steps, or output rows, a run may take: beyond this a run would not end in any
/// sensible time (about 10 minutes per 1e6 steps of a small scene, far more of a large one).
pub const MAX_RUN_COUNT: f64 = 1e9;

/// Rejects a run whose `what` (= `ratio`, named `expression`) exceeds [`MAX_RUN_COUNT`].
fn check_count(what: &str, expression: &str, ratio: f64, fix: &str) -> Result<()> {
    if ratio.is_nan() || ratio > MAX_RUN_COUNT {
        bail!(
            "[sim] {expression} = {} {what}, more than the {} a run may take; use {fix}",
            compact(ratio),
            compact(MAX_RUN_COUNT)
        );
    }
    Ok(())
}
