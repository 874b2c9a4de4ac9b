use pyo3::prelude::*;

#[pymodule]
fn _contactlab(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
