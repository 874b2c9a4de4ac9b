//! `contactlab.Scene`: a validated scene (from a file, TOML text or a dict with the file's
//! keys) and its contact queries at the scene's poses, as the `contact` command makes them.

use crate::convert::{pair_dict, surface_list, to_toml};
use crate::errors::value_error;
use contactlab::commands::contact;
use contactlab::contact::model::Stepping;
use contactlab::dynamics::world::World;
use contactlab::math::{Isometry3, Twist};
use contactlab::scene::build_world;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// A validated scene. Build one with `contactlab.load_scene(path)`, `Scene.from_toml(text)` or
/// `Scene.from_dict(d)` (the keys of the scene file; docs/scene.md).
#[pyclass(module = "contactlab", frozen)]
pub struct Scene {
    pub scene: Arc<contactlab::scene::Scene>,
    /// The scene's TOML text and the folder its relative mesh files resolve against (what a
    /// sweep writes its values into).
    source: (String, PathBuf),
    /// The scene's world (bodies meshed), built by the first contact query.
    world: OnceLock<World>,
}

impl Scene {
    fn new(scene: contactlab::scene::Scene, text: String, base_dir: PathBuf) -> Scene {
        Scene { scene: Arc::new(scene), source: (text, base_dir), world: OnceLock::new() }
    }

    fn world(&self, py: Python<'_>) -> PyResult<&World> {
        if let Some(world) = self.world.get() {
            return Ok(world);
        }
        let scene = &self.scene;
        let world = py.detach(|| build_world(scene, false)).map_err(value_error)?;
        Ok(self.world.get_or_init(|| world))
    }

    /// The scene's poses and twists, as the `contact` command queries them.
    fn poses(&self) -> Vec<(Isometry3, Twist)> {
        self.scene.bodies.iter().map(|b| (b.pose, b.twist)).collect()
    }
}

/// The index of body `name` in `names`, or a `ValueError` that lists them.
pub fn body_index(names: &[String], body: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(i) = body.extract::<usize>() {
        if i < names.len() {
            return Ok(i);
        }
        return Err(PyValueError::new_err(format!(
            "body index {i} is out of range: the scene has {} bodies",
            names.len()
        )));
    }
    let name: String = body.extract()?;
    names.iter().position(|n| *n == name).ok_or_else(|| {
        PyValueError::new_err(format!("no body is named `{name}`; the bodies are: {}", names.join(", ")))
    })
}

/// The contact surface of bodies `a` and `b` of `world` at `poses`, as polygons.
pub fn surface<'py>(
    py: Python<'py>,
    world: &World,
    poses: &[(Isometry3, Twist)],
    (a, b): (usize, usize),
) -> PyResult<Bound<'py, PyList>> {
    let result = py.detach(|| world.model.surface((a, b), poses));
    match result.map_err(|e| value_error(e.into()))? {
        Some(s) => surface_list(py, &s),
        None => Err(PyValueError::new_err(format!(
            "contact surfaces are the pressure field's; kind = \"{}\" has contact points only: use contact() for its pairs",
            world.model.kind().key()
        ))),
    }
}

/// Reads and validates the scene file at `path` (relative mesh files resolve against its
/// folder). Raises `ValueError` with the command line's message when the scene is wrong.
#[pyfunction]
pub fn load_scene(path: PathBuf) -> PyResult<Scene> {
    let scene = contactlab::scene::load_scene(&path).map_err(|e| {
        value_error(anyhow::Error::new(e).context(format!("cannot load scene {}", path.display())))
    })?;
    // Read again for the text (the load above gave the messages of a file that cannot be read).
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyValueError::new_err(format!("cannot load scene {}: {e}", path.display())))?;
    let base_dir = path.parent().map_or_else(|| PathBuf::from("."), PathBuf::from);
    Ok(Scene::new(scene, text, base_dir))
}

#[pymethods]
impl Scene {
    /// A scene from TOML text; relative mesh files resolve against `base_dir` (default: the
    /// current folder).
    #[staticmethod]
    #[pyo3(signature = (text, base_dir = None))]
    fn from_toml(text: &str, base_dir: Option<PathBuf>) -> PyResult<Scene> {
        let base = base_dir.unwrap_or_else(|| PathBuf::from("."));
        let scene = contactlab::scene::parse_scene(text, &base).map_err(|e| value_error(e.into()))?;
        Ok(Scene::new(scene, text.to_owned(), base))
    }

    /// The scene as TOML text (a dict's scene as it was written out).
    #[getter]
    fn toml(&self) -> &str {
        &self.source.0
    }

    /// The folder the scene's relative mesh files resolve against.
    #[getter]
    fn base_dir(&self) -> PathBuf {
        self.source.1.clone()
    }

    /// A scene from a dict with the keys of a scene file (`{"body": [{...}, ...], "sim":
    /// {...}}`; numpy arrays allowed for vectors). It is written as TOML and takes the same
    /// checks, so the messages are those of a file (their line numbers count in that TOML).
    #[staticmethod]
    #[pyo3(signature = (scene, base_dir = None))]
    fn from_dict(scene: &Bound<'_, PyAny>, base_dir: Option<PathBuf>) -> PyResult<Scene> {
        let value = to_toml(scene, "")?;
        let toml::Value::Table(table) = value else {
            return Err(PyValueError::new_err("Scene.from_dict takes a dict with the keys of a scene file"));
        };
        let text = toml::to_string(&table)
            .map_err(|e| PyValueError::new_err(format!("the scene dict has no TOML form: {e}")))?;
        Scene::from_toml(&text, base_dir)
    }

    /// The bodies' names, in scene order.
    #[getter]
    fn body_names(&self) -> Vec<String> {
        self.scene.bodies.iter().map(|b| b.name.clone()).collect()
    }

    /// The contact model's name (`kind` in `[model]`).
    #[getter]
    fn model(&self) -> &'static str {
        self.scene.model.key()
    }

    /// The index of a body by name.
    fn body(&self, name: &Bound<'_, PyAny>) -> PyResult<usize> {
        body_index(&self.body_names(), name)
    }

    /// Every touching pair at the scene's poses, as `contactlab contact` reports them: a list of
    /// dicts with `a`, `b`, `force` and `torque` (on `a`; torque about the world origin),
    /// `area`, `energy`, `faces` (and for volume6d `volume`, `normal`, `centroid`,
    /// `semi_axes`).
    fn contact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let world = self.world(py)?;
        let (scene, poses) = (&self.scene, self.poses());
        let reports = py
            .detach(|| match world.model.stepping() {
                Stepping::Force => {
                    let pairs = world.model.candidate_pairs(&poses);
                    let results = contact::query(&world.model, &poses, &pairs)?;
                    contact::pair_reports(scene, &world.model, &poses, &results)
                }
                Stepping::Velocity => contact::impulse_pairs(scene, world, 0).map(|(pairs, _)| pairs),
            })
            .map_err(value_error)?;
        let list = PyList::empty(py);
        for r in &reports {
            list.append(pair_dict(py, r)?)?;
        }
        Ok(list)
    }

    /// The pressure-field contact surface of bodies `a` and `b` (names or indices) at the
    /// scene's poses: a list of polygons, each a dict of `vertices` (k, 3), `pressure` (k,)
    /// and `normal` (3,) (from `b` into `a`).
    fn contact_surface<'py>(
        &self,
        py: Python<'py>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let names = self.body_names();
        let pair = (body_index(&names, a)?, body_index(&names, b)?);
        surface(py, self.world(py)?, &self.poses(), pair)
    }

    fn __repr__(&self) -> String {
        format!("<contactlab.Scene: {} model, bodies {}>", self.model(), self.body_names().join(", "))
    }
}
