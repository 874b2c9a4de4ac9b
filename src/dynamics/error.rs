use crate::contact::pressure_field::PressureFieldError;

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
    #[error("contact between `{a}` and `{b}`: {source}")]
    Contact {
        a: String,
        b: String,
        #[source]
        source: PressureFieldError,
    },
    #[error("{0}")]
    Setup(String),
}
