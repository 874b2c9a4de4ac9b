//! What `Simulation`'s joint-space calls share: the mechanism or a `ValueError` naming the fix,
//! name look-ups, vector arguments checked for length, and matrices as numpy arrays.

use contactlab::dynamics::mechanism::{ActuatorKind, Mechanism};
use contactlab::dynamics::world::World;
use nalgebra::DMatrix;
use numpy::ndarray::Array2;
use numpy::{AllowTypeChange, IntoPyArray, PyArray2, PyArrayLike1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The world's mechanism, or a `ValueError` for a scene without joints.
pub fn mechanism<'w>(world: &'w World, call: &str) -> PyResult<&'w Mechanism> {
    world.mechanism.as_ref().ok_or_else(|| {
        PyValueError::new_err(format!(
            "{call}: the scene has no joints; joint-space calls need a mechanism: add [[joint]] tables to the scene (docs/scene.md)"
        ))
    })
}

/// The names of the joints with coordinates, in the mechanism's order.
pub fn joint_names(m: &Mechanism) -> Vec<String> {
    m.moving_joints().map(|(_, name)| name.to_string()).collect()
}

/// The index of actuator `name`, checked to be of the kind `call` commands: a servo for
/// `set_target` (`servo`), a motor for `set_effort`.
pub fn actuator(m: &Mechanism, name: &str, servo: bool) -> PyResult<usize> {
    let call = if servo { "set_target" } else { "set_effort" };
    let Some(k) = m.actuator_named(name) else {
        let names: Vec<&str> = m.actuators.iter().map(|a| a.name.as_str()).collect();
        return Err(PyValueError::new_err(format!(
            "{call}: no actuator is named `{name}`; the actuators are: [{}]",
            names.join(", ")
        )));
    };
    let kind = &m.actuators[k].kind;
    let is_servo = !matches!(kind, ActuatorKind::Motor { .. });
    if is_servo != servo {
        let fix = if servo {
            "give a motor its effort with set_effort"
        } else {
            "give a servo its target with set_target"
        };
        return Err(PyValueError::new_err(format!(
            "{call}: actuator `{name}` is a {} actuator; {fix}",
            kind.key()
        )));
    }
    Ok(k)
}

/// A vector argument of `n` numbers.
pub fn vector_of(array: &PyArrayLike1<'_, f64, AllowTypeChange>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let a = array.as_array();
    if a.len() != n {
        return Err(PyValueError::new_err(format!(
            "{what} has {} entries; give {n} (one per coordinate, in the mechanism's order: joint_names())",
            a.len()
        )));
    }
    Ok(a.to_vec())
}

/// A matrix as a numpy array.
pub fn array2<'py>(py: Python<'py>, m: &DMatrix<f64>) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((m.nrows(), m.ncols()), |(i, j)| m[(i, j)]).into_pyarray(py)
}
