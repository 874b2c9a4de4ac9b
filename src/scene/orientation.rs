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

/// A frame `{ position, orientation }` given as key `key` (`origin`, a robot's `base`).
pub(super) fn origin_pose(
    place: &Place,
    key: &str,
    o: &super::raw::RawOrigin,
) -> Result<crate::math::Isometry3, SceneError> {
    let p = super::checks::norm_at_most(
        place,
        &format!("{key}.position"),
        o.position.unwrap_or([0.0; 3]),
        super::checks::range::POSITION,
        "m",
    )?;
    let r = match o.orientation {
        Some(q) => {
            unit_quaternion(place, q).map_err(|e| super::checks::rekey(e, &format!("{key}.orientation")))?
        }
        None => UnitQuaternion::identity(),
    };
    Ok(crate::math::Isometry3::from_parts(crate::math::Translation3::from(crate::math::Vector3::from(p)), r))
}
