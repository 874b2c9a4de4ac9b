//! The `contactlab` Python package's native module: scenes (from files, TOML text or dicts,
//! through the library's one validation path), contact queries, and a simulation stepped from
//! Python over the library's [`contactlab::dynamics::stepper::Stepper`]. Errors become
//! `ValueError` (bad scenes and arguments) or `contactlab.SimulationError` (runs that stop),
//! with the command line's messages. Heavy calls release the GIL.

mod convert;
mod errors;
mod joints;
mod scene;
mod simulation;
mod sweep;

use pyo3::prelude::*;

#[pymodule]
fn _contactlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SimulationError", m.py().get_type::<errors::SimulationError>())?;
    m.add_class::<scene::Scene>()?;
    m.add_class::<simulation::Simulation>()?;
    m.add_class::<simulation::State>()?;
    m.add_function(wrap_pyfunction!(scene::load_scene, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_local, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::portable_scene, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::run_assignment, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::write_summary, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::summary_rows, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
