//! `contactlab.Simulation`: a scene's run stepped from Python (the library's `Stepper`), and
//! `contactlab.State`, a saved state that puts the run back exactly where it was.

use crate::convert::{columns, matrix, motion_from_rows, motion_rows, pair_dict};
use crate::errors::{dynamics_error, value_error};
use crate::joints;
use crate::scene::{Scene, body_index, surface};
use contactlab::commands::contact::{PairReport, pair_reports};
use contactlab::contact::model::Stepping;
use contactlab::dynamics::stepper::{Stepper, StepperState};
use contactlab::math::{Point3, Twist, Vector3};
use contactlab::scene::build_world;
use contactlab::scene::integrator_choice as integrator;
use numpy::ndarray::{Array2, Array3};
use numpy::{AllowTypeChange, IntoPyArray, PyArray1, PyArray2, PyArrayLike1, PyArrayLike2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// The columns of a trajectory row after `t` and `body`, as in `trajectory.csv`.
const TRAJECTORY_COLUMNS: [&str; 13] =
    ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];

/// A run of a scene, stepped from Python: `Simulation(scene)` starts at the scene's initial
/// state with the integrator its `[sim]` names (or the model's default).
#[pyclass(module = "contactlab")]
pub struct Simulation {
    stepper: Stepper,
    scene: Arc<contactlab::scene::Scene>,
    names: Vec<String>,
    /// The scene's output interval (`run`'s default) and duration.
    output_dt: f64,
    duration: f64,
}

#[pymethods]
impl Simulation {
    #[new]
    fn new(py: Python<'_>, scene: &Scene) -> PyResult<Simulation> {
        let spec = scene.scene.clone();
        let (integrator, schedule) = integrator(&spec).map_err(|e| value_error(e.into()))?;
        let world = py.detach(|| build_world(&spec, false)).map_err(value_error)?;
        let stepper =
            py.detach(|| Stepper::new(world, integrator, schedule.output_dt)).map_err(dynamics_error)?;
        let names = spec.bodies.iter().map(|b| b.name.clone()).collect();
        Ok(Simulation {
            stepper,
            names,
            output_dt: schedule.output_dt,
            duration: spec.sim.duration,
            scene: spec,
        })
    }

    /// Takes `n` steps (fixed steps, or accepted adaptive steps). Raises `SimulationError` when
    /// the run stops (energy balance, implausible motion, failed integrator or contact query).
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: u64) -> PyResult<()> {
        let stepper = &mut self.stepper;
        py.detach(|| (0..n).try_for_each(|_| stepper.step())).map_err(dynamics_error)
    }

    /// Runs for `duration` s (default: the scene's) with a row every `output_dt` s (default: the
    /// scene's; fixed-step schemes round it to whole steps, as `contactlab simulate` does) and
    /// returns the trajectory as `trajectory.csv` holds it: `{"t": (m,), "bodies": [names],
    /// "columns": [x … wz], "data": (m, bodies, 13)}`. The first row is the state the run
    /// started from. From the scene's initial state a fixed-step run's rows equal the
    /// command's bit for bit.
    #[pyo3(signature = (duration = None, output_dt = None))]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        duration: Option<f64>,
        output_dt: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (duration, output_dt) = (duration.unwrap_or(self.duration), output_dt.unwrap_or(self.output_dt));
        let stepper = &mut self.stepper;
        let (mut times, mut data) = (Vec::new(), Vec::new());
        py.detach(|| {
            stepper.run(duration, output_dt, |s| {
                times.push(s.t());
                for (pose, twist) in s.poses() {
                    let (p, q) = (pose.translation.vector, pose.rotation.quaternion());
                    let (v, w) = (twist.linear, twist.angular);
                    data.extend_from_slice(&[
                        p.x, p.y, p.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, w.x, w.y, w.z,
                    ]);
                }
            })
        })
        .map_err(dynamics_error)?;
        let shape = (times.len(), self.names.len(), TRAJECTORY_COLUMNS.len());
        let d = PyDict::new(py);
        d.set_item("t", PyArray1::from_vec(py, times))?;
        d.set_item("bodies", self.names.clone())?;
        d.set_item("columns", TRAJECTORY_COLUMNS.to_vec())?;
        d.set_item("data", Array3::from_shape_vec(shape, data).expect("rows of 13").into_pyarray(py))?;
        Ok(d)
    }

    /// Time (s).
    #[getter]
    fn time(&self) -> f64 {
        self.stepper.t()
    }

    /// The bodies' names, in scene order (the rows of the state's arrays).
    #[getter]
    fn body_names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// The index of a body by name.
    fn body(&self, name: &Bound<'_, PyAny>) -> PyResult<usize> {
        body_index(&self.names, name)
    }

    /// The integrator's name.
    #[getter]
    fn integrator(&self) -> &'static str {
        self.stepper.integrator().name()
    }

    /// The whole state (a `State`): `set_state(state)` puts the run back exactly there.
    #[getter]
    fn state(&self) -> State {
        State::new(&self.stepper, self.names.clone())
    }

    /// Puts back a `State` saved from this simulation (`set_state(state)`), or sets the motion of
    /// the free bodies from arrays (`set_state(positions=…, quaternions=…, velocities=…,
    /// angular_velocities=…)`, each (bodies, 3) or (bodies, 4), body frames' origins, world
    /// frame; those not given stay, rows of fixed and kinematic bodies are ignored). Setting
    /// the motion starts the integrator's memory and the energy balance afresh there.
    #[pyo3(signature = (state = None, *, positions = None, quaternions = None, velocities = None, angular_velocities = None))]
    fn set_state(
        &mut self,
        state: Option<&State>,
        positions: Option<PyArrayLike2<'_, f64, AllowTypeChange>>,
        quaternions: Option<PyArrayLike2<'_, f64, AllowTypeChange>>,
        velocities: Option<PyArrayLike2<'_, f64, AllowTypeChange>>,
        angular_velocities: Option<PyArrayLike2<'_, f64, AllowTypeChange>>,
    ) -> PyResult<()> {
        let arrays = [&positions, &quaternions, &velocities, &angular_velocities];
        let any_array = arrays.iter().any(|a| a.is_some());
        match (state, any_array) {
            (Some(state), false) => self.stepper.set_state(state.inner.clone()).map_err(dynamics_error),
            (None, true) => {
                let n = self.names.len();
                let now = motion_rows(&self.stepper.poses());
                let given = |a: &Option<PyArrayLike2<'_, f64, AllowTypeChange>>,
                             k: usize,
                             now: &[[f64; 4]],
                             what: &str| match a {
                    Some(a) => matrix(a, n, k, what),
                    None => Ok(now.iter().map(|r| r[..k].to_vec()).collect()),
                };
                let p = given(&positions, 3, &now[0], "positions")?;
                let q = given(&quaternions, 4, &now[1], "quaternions")?;
                let v = given(&velocities, 3, &now[2], "velocities")?;
                let w = given(&angular_velocities, 3, &now[3], "angular_velocities")?;
                let motion = motion_from_rows(&p, &q, &v, &w)?;
                self.stepper.set_motion(&motion).map_err(dynamics_error)
            }
            _ => Err(PyValueError::new_err(
                "set_state takes a State (sim.state) or motion arrays (positions=…, quaternions=…, velocities=…, angular_velocities=…), not both and not neither",
            )),
        }
    }

    /// Sets the control input of a free body (name or index): `force` (N) and `torque` (N·m,
    /// about its centre of mass), world frame, added to the scene's load and held until set
    /// again; its work enters the energy balance.
    #[pyo3(signature = (body, force = None, torque = None))]
    fn apply(
        &mut self,
        body: &Bound<'_, PyAny>,
        force: Option<[f64; 3]>,
        torque: Option<[f64; 3]>,
    ) -> PyResult<()> {
        let i = body_index(&self.names, body)?;
        let (f, t) = (force.unwrap_or_default(), torque.unwrap_or_default());
        self.stepper.apply(i, Vector3::from(f), Vector3::from(t)).map_err(dynamics_error)
    }

    /// Drives a kinematic body (name or index) at `linear` (m/s, the velocity of its body-frame
    /// origin) and `angular` (rad/s) velocity, world frame, from where it is now, until driven
    /// again: a position-controlled body in a control loop. Its work on the bodies it touches
    /// enters the energy balance.
    #[pyo3(signature = (body, linear = None, angular = None))]
    fn drive(
        &mut self,
        body: &Bound<'_, PyAny>,
        linear: Option<[f64; 3]>,
        angular: Option<[f64; 3]>,
    ) -> PyResult<()> {
        let i = body_index(&self.names, body)?;
        let twist = Twist {
            linear: Vector3::from(linear.unwrap_or_default()),
            angular: Vector3::from(angular.unwrap_or_default()),
        };
        self.stepper.drive(i, twist).map_err(dynamics_error)
    }

    /// The names of the mechanism's joints that have coordinates (fixed joints have none), in
    /// the order of `q` and `v`.
    fn joint_names(&self) -> PyResult<Vec<String>> {
        Ok(joints::joint_names(joints::mechanism(self.stepper.world(), "joint_names")?))
    }

    /// Every joint's coordinates now: `{name: (position, velocity)}`, numbers for revolute and
    /// prismatic joints, arrays for ball ((4,) quaternion w, x, y, z; (3,) body-frame angular
    /// velocity) and free joints ((7,) x, y, z, w, qx, qy, qz; (6,) body-frame [ω; v]).
    fn joints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = joints::mechanism(self.stepper.world(), "joints")?;
        let (q, v) = (m.q(self.stepper.y()), m.v(self.stepper.y()));
        let a = &m.articulation;
        let d = PyDict::new(py);
        for (k, name) in m.moving_joints() {
            let (jq, jv) = (a.joint_q(k, q), a.joint_v(k, v));
            if a.joints[k].kind.is_scalar() {
                d.set_item(name, (jq[0], jv[0]))?;
            } else {
                d.set_item(name, (PyArray1::from_slice(py, jq), PyArray1::from_slice(py, jv)))?;
            }
        }
        Ok(d)
    }

    /// All joint coordinates now (the mechanism's order: `joint_names()`; ball and free joints
    /// several each). Setting it (an array of as many numbers) moves the mechanism there at the
    /// same velocities: couplers are held (a follower takes its leader's value), quaternions
    /// renormalised, and the integrator's memory and the energy balance start afresh.
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let m = joints::mechanism(self.stepper.world(), "q")?;
        Ok(PyArray1::from_slice(py, m.q(self.stepper.y())))
    }

    #[setter]
    fn set_q(&mut self, q: PyArrayLike1<'_, f64, AllowTypeChange>) -> PyResult<()> {
        let m = joints::mechanism(self.stepper.world(), "q")?;
        let q = joints::vector_of(&q, m.articulation.nq(), "q")?;
        let v = m.v(self.stepper.y()).to_vec();
        self.stepper.set_joint_state(&q, &v).map_err(dynamics_error)
    }

    /// All joint velocities now (the mechanism's order; ball and free joints body-frame).
    /// Setting it works as setting `q` does, at the same coordinates.
    #[getter]
    fn v<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let m = joints::mechanism(self.stepper.world(), "v")?;
        Ok(PyArray1::from_slice(py, m.v(self.stepper.y())))
    }

    #[setter]
    fn set_v(&mut self, v: PyArrayLike1<'_, f64, AllowTypeChange>) -> PyResult<()> {
        let m = joints::mechanism(self.stepper.world(), "v")?;
        let v = joints::vector_of(&v, m.articulation.nv(), "v")?;
        let q = m.q(self.stepper.y()).to_vec();
        self.stepper.set_joint_state(&q, &v).map_err(dynamics_error)
    }

    /// Sets a servo's (`position` or `velocity` actuator's) target to the constant `value` (rad
    /// or m; rad/s or m/s) from now on, replacing the scene's target or schedule.
    fn set_target(&mut self, actuator: &str, value: f64) -> PyResult<()> {
        let m = joints::mechanism(self.stepper.world(), "set_target")?;
        joints::actuator(m, actuator, true)?;
        self.stepper.set_actuator_command(actuator, value).map_err(dynamics_error)
    }

    /// Sets a motor's commanded effort to the constant `value` (N or N·m, before its gear) from
    /// now on, replacing the scene's effort or schedule.
    fn set_effort(&mut self, actuator: &str, value: f64) -> PyResult<()> {
        let m = joints::mechanism(self.stepper.world(), "set_effort")?;
        joints::actuator(m, actuator, false)?;
        self.stepper.set_actuator_command(actuator, value).map_err(dynamics_error)
    }

    /// The joint-space mass matrix M(q) now: (nv, nv), symmetric positive definite, the joints'
    /// armature on its diagonal.
    fn mass_matrix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let m = joints::mechanism(self.stepper.world(), "mass_matrix")?;
        Ok(joints::array2(py, &m.mass_matrix_at(self.stepper.y())))
    }

    /// The bias forces b(q, v) now (nv,): Coriolis, centrifugal and gravity terms, the joint
    /// forces that keep every acceleration zero (joint springs, damping, actuators and contact
    /// not included).
    fn bias_forces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let world = self.stepper.world();
        let m = joints::mechanism(world, "bias_forces")?;
        let b = m.bias_forces_at(self.stepper.y(), &world.gravity);
        Ok(PyArray1::from_slice(py, b.as_slice()))
    }

    /// The gravity forces g(q) now (nv,): the bias forces at zero velocity.
    fn gravity_forces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let world = self.stepper.world();
        let m = joints::mechanism(world, "gravity_forces")?;
        let g = m.gravity_forces_at(self.stepper.y(), &world.gravity);
        Ok(PyArray1::from_slice(py, g.as_slice()))
    }

    /// The joint forces M(q)·a + b(q, v) (nv,) that give accelerations `accelerations` (nv,)
    /// now, armature included.
    fn inverse_dynamics<'py>(
        &self,
        py: Python<'py>,
        accelerations: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let world = self.stepper.world();
        let m = joints::mechanism(world, "inverse_dynamics")?;
        let a = joints::vector_of(&accelerations, m.articulation.nv(), "accelerations")?;
        let tau = m.inverse_dynamics_at(self.stepper.y(), Some(&a), &world.gravity);
        Ok(PyArray1::from_slice(py, tau.as_slice()))
    }

    /// The Jacobian (6, nv) now of the point `point` (world frame; default: the body frame's
    /// origin) fixed in link `body` (name or index): rows the point's velocity (3) then the
    /// body's angular velocity (3), world frame, so `jacobian(body, point) @ v` is their value.
    #[pyo3(signature = (body, point = None))]
    fn jacobian<'py>(
        &self,
        py: Python<'py>,
        body: &Bound<'py, PyAny>,
        point: Option<[f64; 3]>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let i = body_index(&self.names, body)?;
        let m = joints::mechanism(self.stepper.world(), "jacobian")?;
        let y = self.stepper.y();
        let point = match point {
            Some(p) => Point3::from(p),
            None => Point3::from(self.stepper.poses()[i].0.translation.vector),
        };
        let j = m.point_jacobian_at(y, i, &point).ok_or_else(|| {
            PyValueError::new_err(format!(
                "jacobian: body `{}` is not a link of the mechanism (no joint has it as its child); give a body that a joint moves",
                self.names[i]
            ))
        })?;
        Ok(joints::array2(py, &j))
    }

    /// Every link's pose now: `{body name: (4, 4) homogeneous matrix}` of its body frame in
    /// the world.
    fn forward_kinematics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = joints::mechanism(self.stepper.world(), "forward_kinematics")?;
        let d = PyDict::new(py);
        for (body, pose) in m.link_poses(self.stepper.y()) {
            let h = pose.to_homogeneous();
            let array = Array2::from_shape_fn((4, 4), |(r, c)| h[(r, c)]).into_pyarray(py);
            d.set_item(&self.names[body], array)?;
        }
        Ok(d)
    }

    /// The energies now (J): `kinetic`, `gravity`, `elastic` (exact), `dissipated`, `total`,
    /// and `work` (of applied loads and kinematic bodies so far; total − work stays constant up
    /// to the integrator's error).
    fn energies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stepper = &self.stepper;
        let e = py.detach(|| stepper.energies()).map_err(dynamics_error)?;
        let d = PyDict::new(py);
        for (key, value) in [
            ("kinetic", e.kinetic),
            ("gravity", e.gravity),
            ("elastic", e.elastic),
            ("dissipated", e.dissipated),
            ("total", e.total),
            ("work", stepper.work()),
        ] {
            d.set_item(key, value)?;
        }
        Ok(d)
    }

    /// Every touching pair now, as `Scene.contact()` gives them (constraint models: the last
    /// step's impulse / dt, without energy).
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (stepper, scene) = (&self.stepper, &self.scene);
        let reports: Vec<PairReport> = py
            .detach(|| -> anyhow::Result<Vec<PairReport>> {
                let contacts = stepper.contacts()?;
                let world = stepper.world();
                match world.model.stepping() {
                    Stepping::Force => {
                        let results: Vec<_> = contacts.into_iter().map(Some).collect();
                        pair_reports(scene, &world.model, &stepper.poses(), &results)
                    }
                    Stepping::Velocity => Ok(contacts
                        .iter()
                        .map(|c| PairReport {
                            a: scene.bodies[c.a].name.clone(),
                            b: scene.bodies[c.b].name.clone(),
                            force: c.wrench.force.into(),
                            torque: c.wrench.torque.into(),
                            area: c.area,
                            energy: None,
                            faces: None,
                            volume: None,
                            normal: None,
                            centroid: None,
                            semi_axes: None,
                        })
                        .collect()),
                }
            })
            .map_err(|e| match e.downcast::<contactlab::dynamics::DynamicsError>() {
                Ok(e) => dynamics_error(e),
                Err(e) => value_error(e),
            })?;
        let list = PyList::empty(py);
        for r in &reports {
            list.append(pair_dict(py, r)?)?;
        }
        Ok(list)
    }

    /// The pressure-field contact surface of bodies `a` and `b` now (see
    /// `Scene.contact_surface`).
    fn contact_surface<'py>(
        &self,
        py: Python<'py>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let pair = (body_index(&self.names, a)?, body_index(&self.names, b)?);
        surface(py, self.stepper.world(), &self.stepper.poses(), pair)
    }

    /// Counters of the run so far: steps, rejected steps, evaluations, unconverged Newton
    /// steps, LCP fall-backs, and the largest energy excess seen (J).
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.stepper.stats();
        let d = PyDict::new(py);
        d.set_item("steps", s.steps)?;
        d.set_item("rejected", s.rejected)?;
        d.set_item("evaluations", s.evaluations)?;
        d.set_item("unconverged", s.unconverged)?;
        d.set_item("fallbacks", s.fallbacks)?;
        d.set_item("max_energy_excess", s.max_energy_excess)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!("<contactlab.Simulation: {} at t = {} s>", self.integrator(), self.stepper.t())
    }
}

/// A saved state of a `Simulation` (`sim.state`): everything its next step depends on — poses
/// and twists, time, the integrator's memory, the contact model's memory, the control inputs
/// and the energy accumulators. `sim.set_state(state)` resumes from it bit for bit. The
/// arrays are copies, read-only in meaning.
#[pyclass(module = "contactlab", frozen)]
pub struct State {
    inner: StepperState,
    names: Vec<String>,
    motion: [Vec<[f64; 4]>; 4],
    dissipated: f64,
    work: f64,
}

impl State {
    fn new(stepper: &Stepper, names: Vec<String>) -> State {
        let coords = &stepper.world().coords;
        let y = stepper.y();
        State {
            inner: stepper.state(),
            names,
            motion: motion_rows(&stepper.poses()),
            dissipated: coords.dissipated(y),
            work: coords.work(y),
        }
    }
}

#[pymethods]
impl State {
    /// Time (s).
    #[getter]
    fn time(&self) -> f64 {
        self.inner.t()
    }

    #[getter]
    fn body_names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Body-frame origins (bodies, 3), world frame (m).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        columns(py, &self.motion[0], 3)
    }

    /// Orientations (bodies, 4): quaternions w, x, y, z.
    #[getter]
    fn quaternions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        columns(py, &self.motion[1], 4)
    }

    /// Velocities of the body-frame origins (bodies, 3), world frame (m/s).
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        columns(py, &self.motion[2], 3)
    }

    /// Angular velocities (bodies, 3), world frame (rad/s).
    #[getter]
    fn angular_velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        columns(py, &self.motion[3], 3)
    }

    /// Energy dissipated by contact so far (J).
    #[getter]
    fn dissipated(&self) -> f64 {
        self.dissipated
    }

    /// Work of applied loads and kinematic bodies so far (J).
    #[getter]
    fn work(&self) -> f64 {
        self.work
    }

    /// The control inputs (bodies, 6): force then torque.
    #[getter]
    fn control<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let rows: Vec<[f64; 6]> =
            self.inner.control().iter().map(|(f, t)| [f.x, f.y, f.z, t.x, t.y, t.z]).collect();
        crate::convert::rows(py, &rows)
    }

    /// The raw state vector: 13 numbers per free body (centre of mass, quaternion, its velocity,
    /// angular velocity), then a scene with joints' joint coordinates and velocities (`sim.q`,
    /// `sim.v`), then the dissipated energy and the external work.
    #[getter]
    fn vector<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, self.inner.y())
    }

    /// The contact model's memory: {(a, b): damping} of Hertz's active contacts (empty for the
    /// other models).
    #[getter]
    fn contact_memory(&self) -> Vec<((usize, usize), f64)> {
        self.inner.memory().0.iter().map(|(k, v)| (*k, *v)).collect()
    }

    fn __repr__(&self) -> String {
        format!("<contactlab.State at t = {} s>", self.inner.t())
    }
}
