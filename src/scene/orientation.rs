//! `orientation = [w, x, y, z]` checked into a rotation, for bodies and compound parts alike.

use super::checks::finite_n;
use super::{Place, SceneError};
use crate::math::{Quaternion, UnitQuaternion};

/// How far |q| may be from 1 before an orientation is rejected rather than normalised.
const UNIT_TOLERANCE: f64 = 1e-6;

/// `orientation = [w, x, y, z]`: finite, unit within [`UNIT_TOLERANCE`], then normalised.
pub(super) fn unit_quaternion(place: &Place, q: [f64; 4]) -> Result<UnitQuaternion, SceneError> {
    let [w, x, y, z] = finite_n(place, "orientation", q)?;
    let q = Quaternion::new(w, x, y, z);
    let norm = q.norm();
    if (norm - 1.0).abs() > UNIT_TOLERANCE {
        return Err(SceneError::Invalid {
            place: place.clone(),
            key: "orientation".into(),
            problem: format!(
                "[{w}, {x}, {y}, {z}] is not a unit quaternion (|q| = {norm}, must be 1 within {UNIT_TOLERANCE})"
            ),
            fix: "normalise it, e.g. [1, 0, 0, 0] for no rotation; the order is [w, x, y, z]".into(),
        });
    }
    Ok(UnitQuaternion::from_quaternion(q))
}
