//! The PEG model's settings: what a scene's `[model]` keys of `kind = "peg"` set (the scene
//! parses and checks them; the model and its time stepping read them).

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
