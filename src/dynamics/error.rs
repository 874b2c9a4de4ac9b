use crate::contact::model::ContactError;

/// Errors of the dynamics layer. Each names the time and the bodies involved.
#[derive(Debug, thiserror::Error)]
pub enum DynamicsError {
    #[error(
        "the state became non-finite at t = {t_text} s (bodies: {bodies}); reduce the time step, use an adaptive integrator, or check masses and moduli", t_text = crate::dynamics::error::time_text(*.t)
    )]
    NonFinite { t: f64, bodies: String },
    #[error(
        "the integrator could not meet its tolerance at t = {t_text} s (bodies in contact: {bodies}): {reason}", t_text = crate::dynamics::error::time_text(*.t)
    )]
    Integrator { t: f64, bodies: String, reason: String },
    #[error("t = {t_text} s, contact between `{a}` and `{b}`: {source}", t_text = crate::dynamics::error::time_text(*.t)
    )]
    Contact {
        t: f64,
        a: String,
        b: String,
        #[source]
        source: Box<ContactError>,
    },
    #[error(
        "the energy balance broke at t = {t_text} s (bodies in contact: {bodies}): the total energy exceeds its initial value plus the work of applied loads and kinematic bodies by {excess:.3e} J (tolerance {tolerance:.3e} J); {advice}", t_text = crate::dynamics::error::time_text(*.t)
    )]
    EnergyGrowth { t: f64, bodies: String, excess: f64, tolerance: f64, advice: &'static str },
    #[error(
        "a body moves implausibly fast at t = {t_text} s: `{body}` at {speed:.3e} {unit} (the simulator handles up to {limit:e} {unit}); the run blew up: use integrator = \"implicit_euler\" or a smaller dt, and check masses, moduli and loads", t_text = crate::dynamics::error::time_text(*.t)
    )]
    Implausible { t: f64, body: String, speed: f64, unit: &'static str, limit: f64 },
    #[error("{0}")]
    Setup(String),
}

/// A time for a message: plain when moderate, with an exponent when tiny (1.04e-12, not 28
/// digits).
pub fn time_text(t: f64) -> String {
    let a = t.abs();
    if a == 0.0 || !a.is_finite() || (1e-4..1e7).contains(&a) { format!("{t}") } else { format!("{t:.3e}") }
}
