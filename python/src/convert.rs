//! Conversions between Python values and the library's: scene dicts to TOML (so that they take
//! the scene files' one validation path), numpy arrays to and from poses and contacts.

use contactlab::commands::contact::PairReport;
use contactlab::contact::pressure_field::ContactSurface;
use contactlab::math::{Isometry3, Quaternion, Translation3, Twist, UnitQuaternion, Vector3};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// A Python value as TOML: dicts, lists/tuples, str, bool, int, float (numpy arrays and
/// scalars through `tolist()`). `path` names the key for messages.
pub fn to_toml(value: &Bound<'_, PyAny>, path: &str) -> PyResult<toml::Value> {
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut table = toml::Table::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.extract::<String>() else {
                return Err(PyTypeError::new_err(format!(
                    "scene dict: the keys of `{path}` must be strings, got {}",
                    key.repr()?
                )));
            };
            let inner = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            if item.is_none() {
                continue;
            }
            table.insert(key, to_toml(&item, &inner)?);
        }
        return Ok(toml::Value::Table(table));
    }
    if value.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(toml::Value::Integer(value.extract()?));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(value.extract()?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = value.extract()?;
        let array = items
            .iter()
            .enumerate()
            .map(|(i, item)| to_toml(item, &format!("{path}[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(toml::Value::Array(array));
    }
    if value.hasattr("tolist")? {
        return to_toml(&value.call_method0("tolist")?, path);
    }
    Err(PyTypeError::new_err(format!(
        "scene dict: `{path}` is a {}, which has no TOML form; give a dict, list, str, bool, int or float",
        value.get_type().name()?
    )))
}

/// Rows of `n` numbers as an (len, n) array.
pub fn rows<'py, const N: usize>(py: Python<'py>, rows: &[[f64; N]]) -> Bound<'py, PyArray2<f64>> {
    let flat: Vec<f64> = rows.iter().flatten().copied().collect();
    Array2::from_shape_vec((rows.len(), N), flat).expect("rows of N").into_pyarray(py)
}

/// A vector as a (3,) array.
pub fn vector<'py>(py: Python<'py>, v: &Vector3) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, v.as_slice())
}

/// Poses and twists of every body as the four arrays of the API: positions (n, 3) and
/// quaternions (n, 4: w, x, y, z) of the body frames, velocities of their origins (n, 3) and
/// angular velocities (n, 3), world frame.
pub fn motion_rows(motion: &[(Isometry3, Twist)]) -> [Vec<[f64; 4]>; 4] {
    let mut out: [Vec<[f64; 4]>; 4] = Default::default();
    for (pose, twist) in motion {
        let p = pose.translation.vector;
        let q = pose.rotation.quaternion();
        out[0].push([p.x, p.y, p.z, 0.0]);
        out[1].push([q.w, q.i, q.j, q.k]);
        out[2].push([twist.linear.x, twist.linear.y, twist.linear.z, 0.0]);
        out[3].push([twist.angular.x, twist.angular.y, twist.angular.z, 0.0]);
    }
    out
}

/// The first `n` columns of 4-wide rows.
pub fn columns<'py>(py: Python<'py>, rows: &[[f64; 4]], n: usize) -> Bound<'py, PyArray2<f64>> {
    let flat: Vec<f64> = rows.iter().flat_map(|r| r[..n].iter().copied()).collect();
    Array2::from_shape_vec((rows.len(), n), flat).expect("rows of n").into_pyarray(py)
}

/// An (n, k) array argument, checked.
pub fn matrix(array: &PyReadonlyArray2<'_, f64>, n: usize, k: usize, what: &str) -> PyResult<Vec<Vec<f64>>> {
    let a = array.as_array();
    if a.shape() != [n, k] {
        return Err(PyValueError::new_err(format!(
            "{what} has shape ({}); give an array of shape ({n}, {k}) (one row per body, in scene order)",
            a.shape().iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(a.rows().into_iter().map(|r| r.to_vec()).collect())
}

/// Poses and twists from the four arrays (see [`motion_rows`]); the quaternions normalized.
pub fn motion_from_rows(
    positions: &[Vec<f64>],
    quaternions: &[Vec<f64>],
    velocities: &[Vec<f64>],
    angular: &[Vec<f64>],
) -> PyResult<Vec<(Isometry3, Twist)>> {
    (0..positions.len())
        .map(|i| {
            let (p, q, v, w) = (&positions[i], &quaternions[i], &velocities[i], &angular[i]);
            let quaternion = Quaternion::new(q[0], q[1], q[2], q[3]);
            if !(quaternion.norm() > 0.0 && quaternion.norm().is_finite()) {
                return Err(PyValueError::new_err(format!(
                    "quaternion {i} is {q:?}: give a non-zero finite quaternion (w, x, y, z)"
                )));
            }
            let pose = Isometry3::from_parts(
                Translation3::new(p[0], p[1], p[2]),
                UnitQuaternion::new_normalize(quaternion),
            );
            Ok((
                pose,
                Twist { linear: Vector3::new(v[0], v[1], v[2]), angular: Vector3::new(w[0], w[1], w[2]) },
            ))
        })
        .collect()
}

/// One pair's result as a dict: names, force and torque on `a` (torque about the world
/// origin), area, energy, faces (and under volume6d the intersection's geometry).
pub fn pair_dict<'py>(py: Python<'py>, p: &PairReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("a", &p.a)?;
    d.set_item("b", &p.b)?;
    d.set_item("force", PyArray1::from_slice(py, &p.force))?;
    d.set_item("torque", PyArray1::from_slice(py, &p.torque))?;
    d.set_item("area", p.area)?;
    d.set_item("energy", p.energy)?;
    d.set_item("faces", p.faces)?;
    if let Some(volume) = p.volume {
        d.set_item("volume", volume)?;
    }
    if let Some(normal) = p.normal {
        d.set_item("normal", PyArray1::from_slice(py, &normal))?;
    }
    if let Some(centroid) = p.centroid {
        d.set_item("centroid", PyArray1::from_slice(py, &centroid))?;
    }
    if let Some(axes) = p.semi_axes {
        d.set_item("semi_axes", PyArray1::from_slice(py, &axes))?;
    }
    Ok(d)
}

/// A contact surface as a list of polygons, each a dict of `vertices` (k, 3), `pressure` (k,)
/// (the static pressure at each vertex, Pa) and `normal` (3,) (from body b into body a).
pub fn surface_list<'py>(py: Python<'py>, surface: &ContactSurface) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for polygon in &surface.polygons {
        let d = PyDict::new(py);
        let vertices: Vec<[f64; 3]> = polygon.vertices.iter().map(|v| [v.x, v.y, v.z]).collect();
        d.set_item("vertices", rows(py, &vertices))?;
        d.set_item("pressure", PyArray1::from_slice(py, &polygon.pressure))?;
        d.set_item("normal", vector(py, &polygon.normal))?;
        list.append(d)?;
    }
    Ok(list)
}
