//! The 6D model's settings: what a scene's `[model]` keys of `kind = "volume6d"` set (the scene
//! parses and checks them; the model and its time stepping read them).

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
