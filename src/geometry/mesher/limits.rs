//! Input checks shared by the meshers: positive sizes and an element budget.

use crate::geometry::GeometryError;

/// The most elements (triangles or tets) a mesher will build; beyond this a resolution is
/// almost surely a unit mistake, and the mesh would exhaust memory before anyone noticed.
pub(crate) const MAX_ELEMENTS: u64 = 5_000_000;

/// Returns `value` if it is a positive finite number.
pub(crate) fn positive(what: &str, value: f64) -> Result<f64, GeometryError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GeometryError::NonPositiveSize { what: what.into(), value })
    }
}

/// Fails with `TooFine` when an estimated element count exceeds [`MAX_ELEMENTS`].
pub(crate) fn budget(shape: &str, resolution: f64, count: f64) -> Result<(), GeometryError> {
    if count.is_finite() && count <= MAX_ELEMENTS as f64 {
        Ok(())
    } else {
        Err(GeometryError::TooFine {
            shape: shape.into(),
            resolution,
            count: count.min(u64::MAX as f64) as u64,
            limit: MAX_ELEMENTS,
        })
    }
}

/// `ceil(x)` as a count of at least `min`, for subdivision counts that passed [`budget`].
pub(crate) fn divisions(x: f64, min: u32) -> u32 {
    (x.ceil().min(u32::MAX as f64) as u32).max(min)
}
