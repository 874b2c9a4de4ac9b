//! Where the shells of a layered tet mesh sit between the surface (s = 1) and the core (s = 0).

use super::limits::MAX_ELEMENTS;
use crate::geometry::GeometryError;

/// How the shells between a compliant body's surface and its core are spaced. A shell with
/// parameter `s` places each surface vertex `v` at `core(v) + s·(v − core(v))`, so its pressure
/// extent is `ε = 1 − s`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShellLayout {
    rule: Rule,
}

#[derive(Clone, Debug, Default, PartialEq)]
enum Rule {
    #[default]
    Cone,
    Graded {
        growth: f64,
    },
    Explicit(Vec<f64>),
}

impl ShellLayout {
    /// The growth factor of [`ShellLayout::graded`] layer thickness the design recommends.
    pub const DEFAULT_GROWTH: f64 = 2.0;

    /// One layer: every surface triangle joined to its core (`s = [1, 0]`). The default; the
    /// fewest tets, and exact for the linear fields of the primitives.
    pub fn cone() -> Self {
        Self { rule: Rule::Cone }
    }

    /// Thin layers under the surface, for fields that must be resolved near it: the first shell
    /// lies one `resolution` below the surface, each next layer is `growth` times thicker,
    /// until `s` would drop below 0.5; then the core.
    pub fn graded(growth: f64) -> Self {
        Self { rule: Rule::Graded { growth } }
    }

    /// Explicit shell parameters, strictly decreasing from 1 to 0.
    pub fn explicit(shells: Vec<f64>) -> Self {
        Self { rule: Rule::Explicit(shells) }
    }

    /// The shell parameters `1 = s_0 > s_1 > … > s_K = 0` for a shape whose core lies `depth`
    /// below its surface.
    pub fn shells(&self, resolution: f64, depth: f64) -> Result<Vec<f64>, GeometryError> {
        match &self.rule {
            Rule::Cone => Ok(vec![1.0, 0.0]),
            Rule::Graded { growth } => graded(resolution, depth, *growth),
            Rule::Explicit(shells) => {
                let decreasing = shells.windows(2).all(|w| w[0] > w[1]);
                if shells.first() == Some(&1.0) && shells.last() == Some(&0.0) && decreasing {
                    Ok(shells.clone())
                } else {
                    Err(GeometryError::InvalidParameter {
                        what: "shell layout".into(),
                        reason: format!("shells must decrease strictly from 1 to 0, got {shells:?}"),
                    })
                }
            }
        }
    }
}

fn graded(resolution: f64, depth: f64, growth: f64) -> Result<Vec<f64>, GeometryError> {
    if !(growth.is_finite() && growth >= 1.0) {
        return Err(GeometryError::InvalidParameter {
            what: "graded shell growth".into(),
            reason: format!("must be a finite number ≥ 1, got {growth}"),
        });
    }
    let mut shells = vec![1.0];
    let mut thickness = resolution;
    let mut s = 1.0 - thickness / depth;
    while s >= 0.5 {
        shells.push(s);
        if shells.len() as u64 > MAX_ELEMENTS {
            return Err(GeometryError::TooFine {
                shape: "graded shell layout".into(),
                resolution,
                count: shells.len() as u64,
                limit: MAX_ELEMENTS,
            });
        }
        thickness *= growth;
        s -= thickness / depth;
    }
    shells.push(0.0);
    Ok(shells)
}
