//! `contactlab.sweep`'s native half: plans, local sweeps, one run for a Ray worker, and the
//! summary rows (python/contactlab/sweep.py holds the backends).

use crate::convert::to_toml;
use contactlab::app::ProgressMode;
use contactlab::sweep::{self, Plan, RunRecord, SweepOptions, grid};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};
use std::path::Path;
use toml::Value;

/// A TOML value as a Python object.
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Integer(i) => i.into_pyobject(py)?.into_any(),
        Value::Boolean(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            PyList::new(py, items.iter().map(|i| to_py(py, i)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        other => other.to_string().into_pyobject(py)?.into_any(),
    })
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The plan of `grid` (`{key: [values]}`) and `ranges` (`{key: (lo, hi)}`, `samples` times).
fn plan(
    grid: &Bound<'_, PyDict>,
    ranges: &Bound<'_, PyDict>,
    samples: Option<usize>,
    seed: u64,
) -> PyResult<Plan> {
    let mut sets = Vec::new();
    for (key, values) in grid.iter() {
        let key: String = key.extract()?;
        let values: Vec<Value> = values.try_iter()?.map(|v| to_toml(&v?, &key)).collect::<PyResult<_>>()?;
        sets.push(grid::SetList { key, values });
    }
    let mut intervals = Vec::new();
    for (key, bounds) in ranges.iter() {
        let (lo, hi): (f64, f64) = bounds.extract()?;
        let key: String = key.extract()?;
        intervals.push(grid::Range::new(key, lo, hi).map_err(value_error)?);
    }
    Plan::new(&sets, &intervals, samples, seed).map_err(value_error)
}

/// A sweep's keys, moving bodies, every run's values as TOML text and every run's folder.
type Planned = (Vec<String>, Vec<String>, Vec<Vec<String>>, Vec<String>);

/// (keys, moving bodies, every run's values as TOML text, every run's folder under `out`):
/// what a Ray driver ships.
#[pyfunction]
pub fn sweep_plan(
    text: &str,
    base_dir: &str,
    grid: &Bound<'_, PyDict>,
    ranges: &Bound<'_, PyDict>,
    samples: Option<usize>,
    seed: u64,
) -> PyResult<Planned> {
    let plan = plan(grid, ranges, samples, seed)?;
    let (_, bodies) = sweep::run_scenes(text, Path::new(base_dir), &plan).map_err(value_error)?;
    let runs = plan.runs.iter().map(|r| r.iter().map(|(_, v)| v.to_string()).collect()).collect();
    let folders = (0..plan.runs.len()).map(|i| sweep::run_folder(i, plan.runs.len())).collect();
    Ok((plan.keys, bodies, runs, folders))
}

/// A whole sweep on local cores (the GIL released): (keys, bodies, records as JSON).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn sweep_local(
    py: Python<'_>,
    text: &str,
    base_dir: &str,
    grid: &Bound<'_, PyDict>,
    ranges: &Bound<'_, PyDict>,
    samples: Option<usize>,
    seed: u64,
    out: &str,
    jobs: Option<usize>,
    progress: bool,
) -> PyResult<(Vec<String>, Vec<String>, Vec<String>)> {
    let plan = plan(grid, ranges, samples, seed)?;
    if jobs == Some(0) {
        return Err(PyValueError::new_err(
            "jobs = 0: a sweep needs at least one job; give jobs ≥ 1 or None (one per core)",
        ));
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = SweepOptions { out: out.into(), jobs, progress: ProgressMode::for_stderr(!progress) };
    let base = Path::new(base_dir);
    let (records, bodies) =
        py.detach(|| sweep::run_sweep_text(text, base, &plan, &options)).map_err(value_error)?;
    let records = records.iter().map(|r| serde_json::to_string(r).expect("plain data")).collect();
    Ok((plan.keys, bodies, records))
}

/// The scene with its mesh files renamed flat, and (new name, file) for each.
#[pyfunction]
pub fn portable_scene(text: &str, base_dir: &str) -> PyResult<(String, Vec<(String, String)>)> {
    let (text, files) = sweep::portable_scene(text, Path::new(base_dir)).map_err(value_error)?;
    Ok((text, files.into_iter().map(|(n, p)| (n, p.to_string_lossy().into_owned())).collect()))
}

/// One run from the base text and its (key, TOML value text) pairs, into `dir`; its record as
/// JSON. The GIL is released while it runs.
#[pyfunction]
pub fn run_assignment(
    py: Python<'_>,
    text: &str,
    base_dir: &str,
    run: usize,
    assignment: Vec<(String, String)>,
    dir: &str,
) -> PyResult<String> {
    let assignment: sweep::Assignment =
        assignment.into_iter().map(|(k, v)| (k, grid::parse_value(&v))).collect();
    let record = py
        .detach(|| sweep::run_assignment(text, Path::new(base_dir), run, &assignment, Path::new(dir)))
        .map_err(value_error)?;
    Ok(serde_json::to_string(&record).expect("plain data"))
}

fn records(json: &[String]) -> PyResult<Vec<RunRecord>> {
    json.iter().map(|j| serde_json::from_str(j).map_err(value_error)).collect()
}

/// Writes summary.csv from records (as JSON).
#[pyfunction]
pub fn write_summary(
    path: &str,
    keys: Vec<String>,
    bodies: Vec<String>,
    records_json: Vec<String>,
) -> PyResult<()> {
    sweep::write_summary(Path::new(path), &keys, &bodies, &records(&records_json)?).map_err(value_error)
}

/// The summary's rows as dicts, columns as in summary.csv; numbers as floats, missing as None.
#[pyfunction]
pub fn summary_rows<'py>(
    py: Python<'py>,
    keys: Vec<String>,
    bodies: Vec<String>,
    records_json: Vec<String>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mut rows = Vec::new();
    for r in records(&records_json)? {
        let row = PyDict::new(py);
        row.set_item("run", r.run)?;
        for (k, cell) in keys.iter().zip(&r.values) {
            row.set_item(k, to_py(py, &grid::parse_value(cell))?)?;
        }
        row.set_item("status", if r.status == sweep::RunStatus::Ok { "ok" } else { "failed" })?;
        row.set_item("t_end", r.t_end)?;
        use sweep::record::POSE_COLUMNS as POSE;
        for b in &bodies {
            let pose = r.bodies.iter().find(|p| &p.body == b);
            for (i, c) in POSE.iter().enumerate() {
                let x = pose.map(|p| if i < 3 { p.position[i] } else { p.orientation[i - 3] });
                row.set_item(format!("{b}.{c}"), x)?;
            }
        }
        row.set_item("max_penetration", r.max_penetration)?;
        row.set_item("max_contact_force", r.max_contact_force)?;
        row.set_item("energy_excess", r.energy_excess)?;
        row.set_item("steps", r.steps)?;
        row.set_item("wall_time", r.wall_time)?;
        row.set_item("host", &r.host)?;
        row.set_item("message", &r.message)?;
        rows.push(row);
    }
    Ok(rows)
}
