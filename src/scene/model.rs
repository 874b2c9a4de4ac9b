use super::{ActuatorSpec, BodySpec, CouplerSpec, ExcludeSpec, JointSpec};
use crate::contact::ModelKind;
use crate::contact::hertz::settings::PairSpec;
use crate::contact::peg::settings::PegSpec;
use crate::contact::volume6d::settings::Volume6dSpec;
use crate::math::Vector3;

/// A parsed and validated scene: the contact model, simulation settings and bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub model: ModelKind,
    /// Settings of the contact model (`[model]` keys other than `kind`).
    pub model_settings: ModelSettings,
    pub sim: SimSettings,
    pub bodies: Vec<BodySpec>,
    /// `[[joint]]`s in file order: each child body is the child of one joint, no loops.
    pub joints: Vec<JointSpec>,
    /// `[[actuator]]`s in file order.
    pub actuators: Vec<ActuatorSpec>,
    /// `[[coupler]]`s in file order.
    pub couplers: Vec<CouplerSpec>,
    /// `[[exclude]]`s in file order: pairs of bodies that never touch.
    pub excludes: Vec<ExcludeSpec>,
    /// `[[measure]]`s in file order.
    pub measures: Vec<MeasureSpec>,
    /// Things the scene allows but that are probably not meant (e.g. an actuator target outside
    /// its joint's limits), for the caller to show.
    pub warnings: Vec<String>,
}

impl Scene {
    /// The body called `name`, if any.
    pub fn body(&self, name: &str) -> Option<&BodySpec> {
        self.bodies.iter().find(|b| b.name == name)
    }

    /// The joint called `name`, if any.
    pub fn joint(&self, name: &str) -> Option<&JointSpec> {
        self.joints.iter().find(|j| j.name == name)
    }
}

/// Contact-model settings from `[model]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSettings {
    /// Stiction speed v_s (m/s) of the regularized Coulomb friction: friction grows smoothly
    /// from zero and reaches ≈ 71% of μ·p at a slip speed of v_s. Default 1e-4 m/s.
    pub stiction_speed: f64,
    /// Hertz model: the elastic contact reduction factor k_red (> 0). Default 1.
    pub elastic_contact_reduction_factor: f64,
    /// Hertz model: the largest damping coefficient d_max (N·s/m, ≥ 0). Default 2000.
    pub max_contact_damping: f64,
    /// Hertz model: contact properties of material pairs (`[[model.pair]]`), overriding the
    /// palette's.
    pub pairs: Vec<PairSpec>,
    /// 6D model: the solver's settings.
    pub volume6d: Volume6dSpec,
    /// PEG model: its settings.
    pub peg: PegSpec,
}

impl Default for ModelSettings {
    fn default() -> Self {
        Self {
            stiction_speed: 1e-4,
            elastic_contact_reduction_factor: 1.0,
            max_contact_damping: 2000.0,
            pairs: Vec::new(),
            volume6d: Volume6dSpec::default(),
            peg: PegSpec::default(),
        }
    }
}

/// Settings read by `simulate` (`[sim]`). `integrator` names are defined by the dynamics layer;
/// the scene only checks the numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSettings {
    /// Simulated time (s), > 0. Default 1.
    pub duration: f64,
    /// Gravity (m/s²), world frame. Default (0, 0, −9.81).
    pub gravity: Vector3,
    pub integrator: Option<String>,
    /// Fixed or initial step (s), > 0.
    pub dt: Option<f64>,
    /// Relative error tolerance of adaptive integrators, > 0.
    pub rtol: Option<f64>,
    /// Absolute error tolerance of adaptive integrators, > 0.
    pub atol: Option<f64>,
    /// Interval (s) between output rows, > 0; default: the integrator's choice.
    pub output_dt: Option<f64>,
    /// Wall-clock budget of a run (s), > 0: `simulate` stops at the first output past it,
    /// keeping its outputs. `None`: no limit.
    pub max_wall_time: Option<f64>,
    /// Fixed-step runs: interval (s) at which outputs compute the elastic energy exactly, > 0;
    /// between, it is advanced by the work of the elastic forces. Default: 0.1 s, or
    /// `output_dt` if longer.
    pub exact_energy_dt: Option<f64>,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            duration: 1.0,
            gravity: Vector3::new(0.0, 0.0, -9.81),
            integrator: None,
            output_dt: None,
            max_wall_time: None,
            exact_energy_dt: None,
            dt: None,
            rtol: None,
            atol: None,
        }
    }
}

/// One `[[measure]]`: how far body `b` has moved relative to body `a` (`None`: the world) since
/// time `from` — the translation of b's origin in a's frame and the angle of b's rotation
/// relative to a, each against their values at the first output time at or after `from`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureSpec {
    /// Unique among measures, non-empty.
    pub name: String,
    pub a: Option<String>,
    pub b: String,
    /// ≥ 0, below the duration. Default 0.
    pub from: f64,
}
