//! Library errors as Python exceptions: a scene or argument that is wrong is a `ValueError`, a
//! run that stops is a `SimulationError`; the messages are the command line's.

use contactlab::dynamics::DynamicsError;
use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};

create_exception!(
    contactlab,
    SimulationError,
    PyException,
    "A simulation stopped: the energy balance broke, a body moved implausibly fast, the integrator failed or a contact query failed. The message says when, which bodies and what to do."
);

/// A bad scene or argument (anyhow chains: the CLI's message).
pub fn value_error(e: anyhow::Error) -> PyErr {
    PyValueError::new_err(contactlab::commands::error_message(&e))
}

/// An error of a run: set-up errors (bad arguments, states of another scene) are `ValueError`,
/// the others stop the run.
pub fn dynamics_error(e: DynamicsError) -> PyErr {
    match e {
        DynamicsError::Setup(message) => PyValueError::new_err(message),
        other => SimulationError::new_err(contactlab::commands::error_message(&other.into())),
    }
}
