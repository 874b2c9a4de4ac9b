//! What a contact model needs of a body, without the scene it came from: its name (for
//! messages), shape (or none: the body touches nothing), contact properties and whether it is
//! fixed. The scene describes its bodies this way (`scene::contact_model`); so can anything else
//! that builds a model.

use crate::geometry::Shape;
use serde::Deserialize;

/// One body as the contact models take it.
#[derive(Clone, Copy, Debug)]
pub struct ContactBody<'a> {
    /// The body's name, for messages.
    pub name: &'a str,
    /// Its shape in the body frame; `None`: the body has none (a link with only mass
    /// properties) and touches nothing — the [`super::PairFilter`] keeps it out of every pair.
    pub shape: Option<&'a Shape>,
    pub contact: &'a ContactSpec,
    /// Fixed bodies never move: pairs of two never touch.
    pub fixed: bool,
}

/// What the models that keep geometry at every body index build for a body without a shape: a
/// 1 mm cube, exact in every model without a resolution, so it costs next to nothing. It is never
/// queried: the pair filter allows no pair with the body.
static PLACEHOLDER: Shape = Shape::Box { size: [1e-3; 3] };

impl ContactBody<'_> {
    /// The body's shape, or for a body without one the placeholder that stands in for it in
    /// per-body tables (never in a pair).
    pub fn shape_or_placeholder(&self) -> &Shape {
        self.shape.unwrap_or(&PLACEHOLDER)
    }
}

/// Whether a body deforms under contact (pressure field) or is rigid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compliance {
    Compliant,
    #[default]
    Rigid,
}

/// Contact properties of a body (`contact = { ... }`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ContactSpec {
    pub compliance: Compliance,
    /// Hydroelastic modulus E (Pa); required for compliant bodies.
    pub hydroelastic_modulus: Option<f64>,
    /// Target edge length (m) of the body's meshes; required for compliant bodies other than a
    /// half space.
    pub resolution: Option<f64>,
    /// Hunt–Crossley dissipation (s/m), ≥ 0. Default 0.
    pub dissipation: f64,
    /// Coulomb friction coefficient, ≥ 0. Default 0.
    pub friction: f64,
    /// Depth (m) over which a compliant half space's pressure grows to E; half spaces only.
    pub slab_thickness: Option<f64>,
    /// Hertz model: a material of the palette by name (e.g. "Steel").
    pub material: Option<String>,
    /// Hertz model: a custom material's Young's modulus (Pa) and Poisson's ratio.
    pub youngs_modulus: Option<f64>,
    pub poissons_ratio: Option<f64>,
}
