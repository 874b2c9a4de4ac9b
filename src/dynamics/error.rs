use crate::contact::model::ContactError;

/// Errors of the dynamics layer. Each names the time and the bodies involved.
#[derive(Debug, thiserror::Error)]
pub enum DynamicsError {
    #[error(
        "the state became non-finite at t = {t} s (bodies: {bodies}); reduce the time step, use an adaptive integrator, or check masses and moduli"
    )]
    NonFinite { t: f64, bodies: String },
    #[error(
        "the integrator could not meet its tolerance at t = {t} s (bodies in contact: {bodies}): {reason}"
    )]
    Integrator { t: f64, bodies: String, reason: String },
    #[error("t = {t} s, contact between `{a}` and `{b}`: {source}")]
    Contact {
        t: f64,
        a: String,
        b: String,
        #[source]
        source: Box<ContactError>,
    },
    #[error(
        "the energy balance broke at t = {t} s (bodies in contact: {bodies}): the total energy exceeds its initial value plus the work of applied loads and kinematic bodies by {excess:.3e} J (tolerance {tolerance:.3e} J); {advice}"
    )]
    EnergyGrowth { t: f64, bodies: String, excess: f64, tolerance: f64, advice: &'static str },
    #[error(
        "a body moves implausibly fast at t = {t} s: `{body}` at {speed:.3e} {unit} (the simulator handles up to {limit:e} {unit}); the run blew up: use integrator = \"implicit_euler\" or a smaller dt, and check masses, moduli and loads"
    )]
    Implausible { t: f64, body: String, speed: f64, unit: &'static str, limit: f64 },
    #[error("{0}")]
    Setup(String),
}
