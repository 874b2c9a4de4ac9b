//! Number checks shared by the validators. Each error names the place and key and says how to
//! fix the value.

use super::{Place, SceneError};
use crate::math::compact;

pub(super) fn invalid(place: &Place, key: &str, problem: String, fix: String) -> SceneError {
    SceneError::Invalid { place: place.clone(), key: key.into(), problem, fix }
}

/// The same error about another key (`Invalid` only: a shared check reporting under the key the
/// scene file spells, e.g. `origin.orientation` for an orientation check).
pub(super) fn rekey(err: SceneError, key: &str) -> SceneError {
    match err {
        SceneError::Invalid { place, problem, fix, .. } => {
            SceneError::Invalid { place, key: key.into(), problem, fix }
        }
        other => other,
    }
}

/// `value` is finite (TOML can spell `nan` and `inf`).
pub(super) fn finite(place: &Place, key: &str, value: f64) -> Result<f64, SceneError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(invalid(
            place,
            key,
            format!("must be a finite number, got {value}"),
            "give a finite value (nan and inf are not allowed)".into(),
        ))
    }
}

/// Every component is finite.
pub(super) fn finite_n<const N: usize>(
    place: &Place,
    key: &str,
    value: [f64; N],
) -> Result<[f64; N], SceneError> {
    for v in value {
        finite(place, key, v)?;
    }
    Ok(value)
}

/// `value` is finite and > 0; `unit` is for the message (e.g. "m").
pub(super) fn positive(place: &Place, key: &str, value: f64, unit: &str) -> Result<f64, SceneError> {
    finite(place, key, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        let unit = if unit.is_empty() { String::new() } else { format!(" ({unit})") };
        Err(invalid(
            place,
            key,
            format!("must be greater than 0{unit}, got {}", compact(value)),
            format!("give a positive `{key}`"),
        ))
    }
}

/// Every component is finite and > 0.
pub(super) fn positive_n<const N: usize>(
    place: &Place,
    key: &str,
    value: [f64; N],
    unit: &str,
) -> Result<[f64; N], SceneError> {
    for v in value {
        positive(place, key, v, unit)?;
    }
    Ok(value)
}

/// `value` is finite and ≥ 0.
pub(super) fn non_negative(place: &Place, key: &str, value: f64) -> Result<f64, SceneError> {
    finite(place, key, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(invalid(
            place,
            key,
            format!("must be 0 or more, got {}", compact(value)),
            format!("give a `{key}` ≥ 0"),
        ))
    }
}

/// A positive value that is present, or an error saying it is required and why.
pub(super) fn required(place: &Place, key: &str, value: Option<f64>, why: &str) -> Result<f64, SceneError> {
    value.ok_or_else(|| invalid(place, key, format!("is missing: {why}"), format!("add `{key}`")))
}

/// `[model]` keys belonging to the models `owners`, `given` under `kind`: refused (naming the
/// first given) unless `kind` is one of `owners`.
pub(super) fn model_keys(
    owners: &[super::ModelKind],
    kind: super::ModelKind,
    given: &[(&str, bool)],
) -> Result<(), SceneError> {
    match given.iter().find(|(_, g)| *g) {
        Some((key, _)) if !owners.contains(&kind) => {
            let names: Vec<String> = owners.iter().map(|o| format!("kind = \"{}\"", o.key())).collect();
            let names = names.join(" or ");
            Err(invalid(
                &Place::section("[model]"),
                key,
                format!("is a setting of {names}, not of kind = \"{}\"", kind.key()),
                format!("remove it or set {names}"),
            ))
        }
        _ => Ok(()),
    }
}

/// An error for a key that must not be given in this situation.
pub(super) fn not_allowed(place: &Place, key: &str, why: &str) -> SceneError {
    invalid(place, key, format!("is not allowed here: {why}"), format!("remove `{key}`"))
}

/// Physical ranges of scene numbers: beyond them products of masses, moduli, speeds and
/// lengths overflow or lose all precision in f64 long before a result could mean anything.
/// (Documented in docs/scene.md, "Ranges".)
pub(super) mod range {
    /// Mass (kg): a microgram dust grain … a million-tonne block.
    pub const MASS: (f64, f64) = (1e-9, 1e9);
    /// Density (kg/m³): aerogels … ten times osmium.
    pub const DENSITY: (f64, f64) = (1e-3, 2.5e5);
    /// Hydroelastic and Young's moduli (Pa): soft gels … ten times diamond.
    pub const MODULUS: (f64, f64) = (1.0, 1e13);
    /// Lengths: sizes, radii, resolutions, slab thickness (m).
    pub const LENGTH: (f64, f64) = (1e-7, 1e5);
    /// Largest distance of a position from the origin (m).
    pub const POSITION: f64 = 1e6;
    /// Largest speed (m/s) and rate of turn (rad/s).
    pub const SPEED: f64 = 1e5;
    pub const RATE: f64 = 1e6;
    /// Largest angle (rad): beyond it a turn count loses precision.
    pub const ANGLE: f64 = 1e6;
    /// Largest gravity (m/s²): ten thousand g.
    pub const GRAVITY: f64 = 1e5;
    /// Largest applied force (N) and torque (N·m).
    pub const FORCE: f64 = 1e12;
    /// Hertz's elastic contact reduction factor k_red.
    pub const REDUCTION: (f64, f64) = (1e-12, 1e3);
    /// Friction coefficient μ: frictionless … ten times the grippiest rubber.
    pub const FRICTION: (f64, f64) = (0.0, 10.0);
    /// Hunt–Crossley dissipation (s/m): none … critically damped at a thousand m/s and more.
    pub const DISSIPATION: (f64, f64) = (0.0, 1e4);
    /// Regularized friction's stiction speed (m/s): below it friction's slope μN/v_s passes
    /// what an f64 solve resolves; above it nothing sticks.
    pub const STICTION_SPEED: (f64, f64) = (1e-9, 1e2);
    /// A planar body's moment of inertia (kg·m²): the extremes of MASS times LENGTH².
    pub const MOMENT_OF_INERTIA: (f64, f64) = (1e-23, 1e19);
}

/// `value` is finite, positive and within `[lo, hi]` (`unit` for the message).
pub(super) fn within(
    place: &Place,
    key: &str,
    value: f64,
    range: (f64, f64),
    unit: &str,
) -> Result<f64, SceneError> {
    let value = positive(place, key, value, unit)?;
    signed_within(place, key, value, range, unit)
}

/// `value` is finite and within `[lo, hi]`, of either sign (`unit` for the message).
pub(super) fn signed_within(
    place: &Place,
    key: &str,
    value: f64,
    (lo, hi): (f64, f64),
    unit: &str,
) -> Result<f64, SceneError> {
    let value = finite(place, key, value)?;
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
        Err(invalid(
            place,
            key,
            format!("= {value:e}{unit} is outside the range the simulator handles, {lo:e} … {hi:e}{unit}"),
            format!("give `{key}` a value in that range (check the units: SI throughout)"),
        ))
    }
}

/// A finite vector of length at most `max` (`unit` for the message).
pub(super) fn norm_at_most(
    place: &Place,
    key: &str,
    value: [f64; 3],
    max: f64,
    unit: &str,
) -> Result<[f64; 3], SceneError> {
    let value = finite_n(place, key, value)?;
    // Scaled by the largest component, so that 1e300 does not overflow to inf.
    let big = value.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let norm =
        if big > 0.0 { big * value.iter().map(|x| (x / big).powi(2)).sum::<f64>().sqrt() } else { 0.0 };
    if norm <= max {
        Ok(value)
    } else {
        Err(invalid(
            place,
            key,
            format!("has magnitude {norm:e} {unit}, more than the {max:e} {unit} the simulator handles"),
            format!("give `{key}` a magnitude of at most {max:e} {unit} (check the units: SI throughout)"),
        ))
    }
}

/// Every component is within `[lo, hi]`.
pub(super) fn within_n<const N: usize>(
    place: &Place,
    key: &str,
    value: [f64; N],
    r: (f64, f64),
    unit: &str,
) -> Result<[f64; N], SceneError> {
    for v in value {
        within(place, key, v, r, unit)?;
    }
    Ok(value)
}
