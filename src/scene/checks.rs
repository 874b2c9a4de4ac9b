//! Number checks shared by the validators. Each error names the place and key and says how to
//! fix the value.

use super::{Place, SceneError};

fn invalid(place: &Place, key: &str, problem: String, fix: String) -> SceneError {
    SceneError::Invalid { place: place.clone(), key: key.into(), problem, fix }
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
            format!("must be greater than 0{unit}, got {value}"),
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
        Err(invalid(place, key, format!("must be 0 or more, got {value}"), format!("give a `{key}` ≥ 0")))
    }
}

/// A positive value that is present, or an error saying it is required and why.
pub(super) fn required(place: &Place, key: &str, value: Option<f64>, why: &str) -> Result<f64, SceneError> {
    value.ok_or_else(|| invalid(place, key, format!("is missing: {why}"), format!("add `{key}`")))
}

/// An error for a key that must not be given in this situation.
pub(super) fn not_allowed(place: &Place, key: &str, why: &str) -> SceneError {
    invalid(place, key, format!("is not allowed here: {why}"), format!("remove `{key}`"))
}
