use crate::contact::model::ContactError;

/// Errors of the dynamics layer. Each names the time and the bodies involved.
#[derive(Debug, thiserror::Error)]
pub enum DynamicsError {
    #[error(
        "the state became non-finite at t = {t_text} s (bodies: {bodies}); reduce the time step, use an adaptive integrator, or check masses and moduli", t_text = crate::math::compact(*.t)
    )]
    NonFinite { t: f64, bodies: String },
    #[error(
        "the integrator could not meet its tolerance at t = {t_text} s (bodies in contact: {bodies}): {reason}", t_text = crate::math::compact(*.t)
    )]
    Integrator { t: f64, bodies: String, reason: String },
    #[error("t = {t_text} s, contact between `{a}` and `{b}`: {source}", t_text = crate::math::compact(*.t)
    )]
    Contact {
        t: f64,
        a: String,
        b: String,
        #[source]
        source: Box<ContactError>,
    },
    #[error(
        "the energy balance broke at t = {t_text} s (bodies in contact: {bodies}): the total energy exceeds its initial value plus the work of applied loads and kinematic bodies by {excess:.3e} J (tolerance {tolerance:.3e} J); {advice}", t_text = crate::math::compact(*.t)
    )]
    EnergyGrowth { t: f64, bodies: String, excess: f64, tolerance: f64, advice: &'static str },
    #[error(
        "a body moves implausibly fast at t = {t_text} s: `{body}` at {speed:.3e} {unit} (the simulator handles up to {limit:e} {unit}); the run blew up: use integrator = \"implicit_euler\" or a smaller dt, and check masses, moduli and loads", t_text = crate::math::compact(*.t)
    )]
    Implausible { t: f64, body: String, speed: f64, unit: &'static str, limit: f64 },
    #[error(
        "`{body}` passed through `{half_space}` at t = {t_text} s: it is wholly inside it, {depth:.3e} m below its surface (contact cannot push it back out); the step let it through, or the contact could not carry its load: use a smaller dt, a stiffer modulus, or start it above the surface", t_text = crate::math::compact(*.t)
    )]
    ThroughHalfSpace { t: f64, body: String, half_space: String, depth: f64 },
    #[error(
        "`{body}` is wholly inside `{other}` at t = {t_text} s (its bounding sphere, radius {radius:.3e} m, lies within `{other}`'s solid): contact cannot push it back out; the step let it through, the contact could not carry its load, or it started there: use a smaller dt, a stiffer modulus or a smaller load, or start it outside `{other}`", t_text = crate::math::compact(*.t)
    )]
    InsideBody { t: f64, body: String, other: String, radius: f64 },
    #[error(
        "at t = 0 `{a}` and `{b}` already overlap by {depth:.3e} m, more than the {limit:.3e} m (a tenth of the smaller body's bounding radius) the contact law describes: start them apart (at most touching)"
    )]
    DeepStartOverlap { a: String, b: String, depth: f64, limit: f64 },
    #[error(
        "the run reached [sim] max_wall_time = {limit_text} s at t = {t_text} s, between two outputs (the outputs up to the last one are kept): raise max_wall_time or remove it", t_text = crate::math::compact(*.t), limit_text = crate::math::compact(*.limit)
    )]
    WallTime { t: f64, limit: f64 },
    #[error("{0}")]
    Setup(String),
}
