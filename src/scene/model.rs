use crate::math::Vector3;
use serde::Deserialize;

use super::BodySpec;

/// A parsed and validated scene: the contact model, simulation settings and bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub model: ModelKind,
    /// Settings of the contact model (`[model]` keys other than `kind`).
    pub model_settings: ModelSettings,
    pub sim: SimSettings,
    pub bodies: Vec<BodySpec>,
}

impl Scene {
    /// The body called `name`, if any.
    pub fn body(&self, name: &str) -> Option<&BodySpec> {
        self.bodies.iter().find(|b| b.name == name)
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

/// `[model]` keys of `kind = "peg"` (docs/scene.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PegSpec {
    /// PEG's contact constraints (default), or one point contact per closest feature pair.
    pub formulation: PegFormulation,
    /// The contact tolerance ε (m); `None`: per pair and step,
    /// max(2·h·|v_rel| + ½·g·h², 10⁻³·L) with L the smaller body's size.
    pub contact_tolerance: Option<f64>,
    /// Directions of the polyhedral friction cone, in opposite pairs: 3D an even number from 4
    /// (default) to 64; planar scenes always 2.
    pub friction_directions: usize,
    /// Bodies move in the world x–z plane (x, z and the rotation about y).
    pub planar: bool,
    /// The largest speed (m/s) at which a step pushes out an overlap that is already there
    /// (from linearisation or a start pose). Default 0.1.
    pub correction_speed: f64,
}

impl Default for PegSpec {
    fn default() -> Self {
        PegSpec {
            formulation: PegFormulation::Peg,
            contact_tolerance: None,
            friction_directions: 4,
            planar: false,
            correction_speed: 0.1,
        }
    }
}

/// How the PEG model turns nearby features into constraints (`formulation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PegFormulation {
    /// `"peg"`: unilateral, inter-contact and cross-contact constraints (Williams et al. 2017).
    Peg,
    /// `"standard"`: one unilateral point contact per closest feature pair within ε (the
    /// paper's baseline).
    Standard,
}

/// `[model]` keys of `kind = "volume6d"` (docs/scene.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volume6dSpec {
    /// One 6D impulse per pair (default), or the point-contact baseline.
    pub formulation: Volume6dFormulation,
    /// k: patch semi-axes √(k·λ) of the tangent covariance. Default 3.
    pub patch_scale: f64,
    /// Most Gauss–Seidel sweeps per step, ≥ 1. Default 100.
    pub iterations: usize,
    /// Sweeps stop when the 2-norm of a sweep's impulse update is below this (N·s), > 0.
    /// Default 1e-10.
    pub tolerance: f64,
    /// Start each step from the last step's impulses. Default true.
    pub warm_start: bool,
    /// The spin-torque bound (default uniform pressure over the patch).
    pub spin_limit: SpinLimit,
}

impl Default for Volume6dSpec {
    fn default() -> Self {
        Volume6dSpec {
            formulation: Volume6dFormulation::SixD,
            patch_scale: DEFAULT_PATCH_SCALE,
            iterations: 100,
            tolerance: 1e-10,
            warm_start: true,
            spin_limit: SpinLimit::Uniform,
        }
    }
}

/// The default `patch_scale` k: semi-axes √(k·λ) make the ellipse of a rectangular footprint
/// touch its edges (a side L has variance L²/12, and √(3·L²/12) = L/2). Worked example of the
/// other end: a sphere's footprint in a plane is its contact disc of radius ρ, variance ρ²/4, so
/// k = 3 gives a circle of radius ρ·√3/2 (and k = 4 the disc).
pub const DEFAULT_PATCH_SCALE: f64 = 3.0;

/// How the spin torque about the centre of pressure is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpinLimit {
    /// μ·f_n times the mean distance from the centre of pressure over the patch ellipse: the
    /// torque of uniform pressure sliding about it (a disc of radius r about its centre:
    /// (2/3)·μ·f_n·r). The default.
    Uniform,
    /// The paper's §5.6 bound: f_n spread over the four corners of the rectangle around the
    /// ellipse by bilinear weights of the centre of pressure, μ·Σ f_i·|c_i − p|. It
    /// overestimates (a square of side w with the centre of pressure in the middle:
    /// 0.707·μ·f_n·w, where uniform pressure over the square gives 0.383·μ·f_n·w).
    Corners,
}

/// How the 6D model solves a touching pair (`formulation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Volume6dFormulation {
    /// `"6d"`: one 6D impulse per pair, projected as a whole (Bouchard et al. 2015).
    SixD,
    /// `"points"`: a point contact at each vertex of the intersection polyhedron on the second
    /// body's surface, solved point by point (the paper's baseline).
    Points,
}

/// Hertz contact properties of two materials (by material or body name).
#[derive(Clone, Debug, PartialEq)]
pub struct PairSpec {
    pub a: String,
    pub b: String,
    pub restitution: f64,
    pub sliding_friction: f64,
    pub rolling_resistance: f64,
    pub v_small: f64,
    pub w_small: f64,
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

/// The contact model a scene runs under (`[model] kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelKind {
    #[default]
    PressureField,
    Hertz,
    Volume6d,
    Peg,
}

impl ModelKind {
    /// A constraint (velocity-level) model, stepped by `time_stepping`.
    pub fn is_constraint(self) -> bool {
        matches!(self, ModelKind::Volume6d | ModelKind::Peg)
    }

    /// The key used in scene files and JSON output.
    pub fn key(self) -> &'static str {
        match self {
            ModelKind::PressureField => "pressure_field",
            ModelKind::Hertz => "hertz",
            ModelKind::Volume6d => "volume6d",
            ModelKind::Peg => "peg",
        }
    }
}

impl std::fmt::Display for ModelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
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
