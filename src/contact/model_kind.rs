//! Which contact model runs: the names scene files and outputs use for the models.

use serde::Deserialize;

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
    /// Every model, in the order of the papers.
    pub const ALL: [ModelKind; 4] =
        [ModelKind::PressureField, ModelKind::Hertz, ModelKind::Volume6d, ModelKind::Peg];

    /// A constraint (velocity-level) model, stepped by `time_stepping`.
    pub fn is_constraint(self) -> bool {
        match self {
            ModelKind::Volume6d | ModelKind::Peg => true,
            ModelKind::PressureField | ModelKind::Hertz => false,
        }
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
