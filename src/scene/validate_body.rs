//! One `[[body]]` table → [`BodySpec`].

use super::checks::{finite, finite_n, norm_at_most, not_allowed, positive_n, range, signed_within, within};
use super::orientation::unit_quaternion;
use super::raw::{RawBody, RawKinematic};
use super::shape::parse_body_shape;
use super::validate_contact::model_contact;
use super::{BodySpec, ContactSpec, InertiaSpec, Keyframe, Kinematic, Place, SceneError};
use crate::geometry::Shape;
use crate::math::{Isometry3, Matrix3, Point3, Twist, UnitQuaternion, Vector3};
use nalgebra::Translation3;
use std::path::Path;

/// Validates one body. `place` names the body (and its line); `shape_place` is the shape table's
/// (the body's own without a shape).
pub(super) fn body_spec(
    raw: RawBody,
    place: &Place,
    shape_place: &Place,
    base_dir: &Path,
    (model, planar): (super::ModelKind, bool),
) -> Result<BodySpec, SceneError> {
    let invalid = |key: &str, problem: String, fix: &str| SceneError::Invalid {
        place: place.clone(),
        key: key.into(),
        problem,
        fix: fix.into(),
    };
    if raw.name.trim().is_empty() {
        return Err(invalid("name", "is empty".into(), "give the body a non-empty, unique name"));
    }
    if raw.shape.is_none() {
        shapeless(&raw, place, planar)?;
    }
    let fixed = raw.fixed.unwrap_or(false);
    if raw.mass.is_some() && raw.density.is_some() {
        return Err(not_allowed(place, "density", "`mass` is given too, and a body has one or the other"));
    }
    let mass = raw.mass.map(|m| within(place, "mass", m, range::MASS, "kg")).transpose()?;
    let density = raw.density.map(|d| within(place, "density", d, range::DENSITY, "kg/m³")).transpose()?;
    if !fixed && raw.kinematic.is_none() && mass.is_none() && density.is_none() {
        return Err(invalid(
            "mass",
            "is missing: a body that can move needs a mass".into(),
            "add `mass` (kg) or `density` (kg/m³), or set fixed = true",
        ));
    }
    let center_of_mass = raw
        .center_of_mass
        .map(|c| norm_at_most(place, "center_of_mass", c, range::POSITION, "m").map(Point3::from))
        .transpose()?;
    let inertia = match raw.inertia.as_deref() {
        None => None,
        Some(i) => {
            let tensor = inertia_tensor(place, i)?;
            Some(match center_of_mass {
                Some(_) => InertiaSpec::AboutCenterOfMass(tensor),
                None => InertiaSpec::AboutOrigin(tensor),
            })
        }
    };
    let planar_only = |key: &str, what: &str| {
        invalid(
            key,
            format!("is a key of planar scenes ({what})"),
            "set planar = true and kind = \"peg\" in [model], or remove it",
        )
    };
    let moment_of_inertia = match raw.moment_of_inertia {
        Some(_) if !planar => return Err(planar_only("moment_of_inertia", "use `inertia` in 3D")),
        Some(j) => Some(within(place, "moment_of_inertia", j, range::MOMENT_OF_INERTIA, "kg·m²")?),
        None => None,
    };
    if planar {
        if raw.inertia.is_some() {
            return Err(not_allowed(
                place,
                "inertia",
                "a planar body turns about y only; give `moment_of_inertia`",
            ));
        }
        if raw.orientation.is_some() {
            return Err(not_allowed(place, "orientation", "a planar body's rotation is its `angle` (rad)"));
        }
        if raw.center_of_mass.is_some() {
            return Err(not_allowed(
                place,
                "center_of_mass",
                "a planar body's centre of mass is its shape's centroid",
            ));
        }
        if let Some(key) = ["position", "orientation"]
            .into_iter()
            .find(|k| raw.shape.as_ref().is_some_and(|s| s.get_ref().contains_key(*k)))
        {
            return Err(not_allowed(
                shape_place,
                &format!("shape.{key}"),
                "a planar body's shape is given in its body frame",
            ));
        }
        if density.is_some() {
            return Err(not_allowed(
                place,
                "density",
                "a planar body has an area, not a volume; give `mass` (kg)",
            ));
        }
    }
    let appear_time = match raw.appear_time {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(invalid(
                "appear_time",
                format!("must be a time ≥ 0 s, got {t}"),
                "give the entry time in s",
            ));
        }
        Some(t) if t > 0.0 && (fixed || raw.kinematic.is_some()) => {
            return Err(invalid(
                "appear_time",
                "is given for a body that does not move freely".into(),
                "remove it: fixed and kinematic bodies are there from the start",
            ));
        }
        Some(t) => t,
        None => 0.0,
    };

    let position = norm_at_most(place, "position", raw.position.unwrap_or([0.0; 3]), range::POSITION, "m")?;
    let rotation = match raw.angle {
        Some(_) if !planar => return Err(planar_only("angle", "use `orientation` in 3D")),
        // Counter-clockwise in the x–z view (x right, z up): a rotation about −y.
        Some(angle) => UnitQuaternion::from_axis_angle(
            &-Vector3::y_axis(),
            signed_within(place, "angle", angle, (-range::ANGLE, range::ANGLE), "rad")?,
        ),
        None => unit_quaternion(place, raw.orientation.unwrap_or([1.0, 0.0, 0.0, 0.0]))?,
    };
    let pose = Isometry3::from_parts(Translation3::from(Vector3::from(position)), rotation);
    let linear =
        norm_at_most(place, "linear_velocity", raw.linear_velocity.unwrap_or([0.0; 3]), range::SPEED, "m/s")?;
    let angular = norm_at_most(
        place,
        "angular_velocity",
        raw.angular_velocity.unwrap_or([0.0; 3]),
        range::RATE,
        "rad/s",
    )?;
    let twist = Twist { linear: linear.into(), angular: angular.into() };
    if fixed && twist != Twist::default() {
        let key = if twist.linear == Vector3::zeros() { "angular_velocity" } else { "linear_velocity" };
        return Err(invalid(
            key,
            "is not zero, but the body is fixed and never moves".into(),
            "remove the velocity or set fixed = false",
        ));
    }

    let (shape, shape_pose, contact) = match &raw.shape {
        Some(table) => {
            let (shape, shape_pose) = parse_body_shape(table.get_ref(), shape_place, base_dir)?;
            if matches!(shape, Shape::HalfSpace) && !fixed {
                return Err(invalid(
                    "fixed",
                    "is false, but the shape is a half space and a half space cannot move".into(),
                    "set fixed = true",
                ));
            }
            let contact = model_contact(raw.contact, model, &shape, place)?;
            (Some(shape), shape_pose, contact)
        }
        // `contact` refused above: the body touches nothing.
        None => (None, Isometry3::identity(), ContactSpec::default()),
    };
    let force = norm_at_most(place, "force", raw.force.unwrap_or([0.0; 3]), range::FORCE, "N")?.into();
    let torque = norm_at_most(place, "torque", raw.torque.unwrap_or([0.0; 3]), range::FORCE, "N·m")?.into();
    let kinematic = raw.kinematic.map(|k| kinematic_spec(k, place, &pose)).transpose()?;
    if kinematic.is_some() {
        if fixed {
            return Err(invalid(
                "kinematic",
                "is given for a fixed body".into(),
                "remove `fixed` or `kinematic`",
            ));
        }
        if twist != Twist::default() {
            return Err(invalid(
                "linear_velocity",
                "is given for a kinematic body".into(),
                "put the velocity in the `kinematic` table",
            ));
        }
    }
    Ok(BodySpec {
        force,
        torque,
        kinematic,
        name: raw.name,
        fixed,
        mass,
        density,
        inertia,
        center_of_mass,
        pose,
        twist,
        shape,
        shape_pose,
        contact,
        appear_time,
        moment_of_inertia,
    })
}

/// A body without a shape touches nothing and has no volume: it moves (a free body or a joint's
/// child — fixed or driven it would do nothing), its mass properties are given (`mass` and
/// `inertia`, planar: `moment_of_inertia`; the centre of mass defaults to the body origin), and
/// it has no `contact` table.
fn shapeless(raw: &RawBody, place: &Place, planar: bool) -> Result<(), SceneError> {
    let invalid = |key: &str, problem: &str, fix: &str| {
        Err(SceneError::Invalid {
            place: place.clone(),
            key: key.into(),
            problem: problem.into(),
            fix: fix.into(),
        })
    };
    let (inertia, give) = if planar {
        ("moment_of_inertia", "give `mass` (kg) and `moment_of_inertia` (kg·m²), or a `shape`")
    } else {
        ("inertia", "give `mass` (kg) and `inertia` ([Ixx, Iyy, Izz], kg·m²), or a `shape`")
    };
    if raw.fixed == Some(true) {
        return invalid(
            "fixed",
            "is true for a body without a `shape`: it would neither move nor touch anything",
            "give the body a `shape`, or remove it (a joint hangs from the world with parent = \"world\" and its `origin`)",
        );
    }
    if raw.kinematic.is_some() {
        return invalid(
            "kinematic",
            "is given for a body without a `shape`: driven and touching nothing, it would do nothing",
            "give the body a `shape`, or remove it",
        );
    }
    if raw.contact.is_some() {
        return invalid(
            "contact",
            "is given for a body without a `shape`, which touches nothing",
            "remove `contact`, or give the body a `shape`",
        );
    }
    if raw.density.is_some() {
        return invalid("density", "is given for a body without a `shape`, which has no volume", give);
    }
    if raw.mass.is_none() {
        return invalid("mass", "is missing: a body without a `shape` needs its mass given", give);
    }
    let has_inertia = if planar { raw.moment_of_inertia.is_some() } else { raw.inertia.is_some() };
    if !has_inertia {
        return invalid(inertia, "is missing: a body without a `shape` needs its inertia given", give);
    }
    Ok(())
}

/// `kinematic = { linear_velocity, angular_velocity }` or `{ keyframes = [...] }`.
fn kinematic_spec(raw: RawKinematic, place: &Place, pose: &Isometry3) -> Result<Kinematic, SceneError> {
    let invalid = |key: &str, problem: String, fix: &str| SceneError::Invalid {
        place: place.clone(),
        key: format!("kinematic.{key}"),
        problem,
        fix: fix.into(),
    };
    let velocities = raw.linear_velocity.is_some() || raw.angular_velocity.is_some();
    match raw.keyframes {
        Some(_) if velocities => Err(invalid(
            "keyframes",
            "is given together with a velocity".into(),
            "give either constant velocities or keyframes",
        )),
        Some(frames) => {
            if frames.is_empty() {
                return Err(invalid(
                    "keyframes",
                    "is empty".into(),
                    "give at least one keyframe { t, position, orientation }",
                ));
            }
            let mut out = Vec::with_capacity(frames.len());
            for (i, f) in frames.into_iter().enumerate() {
                let t = finite(place, "kinematic.keyframes.t", f.t)?;
                if t < 0.0 || out.last().is_some_and(|k: &Keyframe| t <= k.t) {
                    return Err(invalid(
                        "keyframes",
                        format!("keyframe {} has t = {t}: times must be ≥ 0 and strictly increasing", i + 1),
                        "sort the keyframes by time",
                    ));
                }
                let position = finite_n(
                    place,
                    "kinematic.keyframes.position",
                    f.position.unwrap_or(pose.translation.vector.into()),
                )?;
                let rotation = match f.orientation {
                    Some(q) => unit_quaternion(place, q)?,
                    None => pose.rotation,
                };
                out.push(Keyframe {
                    t,
                    pose: Isometry3::from_parts(Translation3::from(Vector3::from(position)), rotation),
                });
            }
            Ok(Kinematic::Keyframes(out))
        }
        None => {
            let linear =
                finite_n(place, "kinematic.linear_velocity", raw.linear_velocity.unwrap_or([0.0; 3]))?;
            let angular =
                finite_n(place, "kinematic.angular_velocity", raw.angular_velocity.unwrap_or([0.0; 3]))?;
            Ok(Kinematic::Constant(Twist { linear: linear.into(), angular: angular.into() }))
        }
    }
}

/// `inertia = [Ixx, Iyy, Izz]` (principal moments: the diagonal) or `[Ixx, Iyy, Izz, Ixy, Ixz,
/// Iyz]` (the symmetric tensor's entries): finite, positive definite and physically possible
/// (each principal moment at most the sum of the other two, which holds for every mass
/// distribution; relative tolerance 1e-9).
fn inertia_tensor(place: &Place, i: &[f64]) -> Result<Matrix3, SceneError> {
    let invalid = |problem: String, fix: &str| SceneError::Invalid {
        place: place.clone(),
        key: "inertia".into(),
        problem,
        fix: fix.into(),
    };
    let (tensor, moments) = match *i {
        [ixx, iyy, izz] => {
            let m = positive_n(place, "inertia", [ixx, iyy, izz], "kg·m²")?;
            (Matrix3::from_diagonal(&m.into()), m)
        }
        [ixx, iyy, izz, ixy, ixz, iyz] => {
            finite_n(place, "inertia", [ixx, iyy, izz, ixy, ixz, iyz])?;
            let t = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
            let e = t.symmetric_eigen().eigenvalues;
            if e.min() <= 0.0 {
                return Err(invalid(
                    format!(
                        "{i:?} is not positive definite: its principal moments are [{}, {}, {}]",
                        e[0], e[1], e[2]
                    ),
                    "give a positive-definite tensor [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (the tensor's entries, kg·m²), or remove `inertia` to compute it from the shape",
                ));
            }
            (t, [e[0], e[1], e[2]])
        }
        _ => {
            return Err(invalid(
                format!("has {} numbers", i.len()),
                "give 3 principal moments [Ixx, Iyy, Izz] or the 6 entries of the tensor [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (kg·m²)",
            ));
        }
    };
    for k in 0..3 {
        let (a, b, c) = (moments[k], moments[(k + 1) % 3], moments[(k + 2) % 3]);
        if a > (b + c) * (1.0 + 1e-9) {
            let what = if i.len() == 3 { "moments" } else { "principal moments" };
            return Err(invalid(
                format!("{i:?} is not a possible inertia: {a} exceeds the sum of the other two {what}"),
                &format!(
                    "give a tensor whose principal moments are each at most the sum of the other two{}, or remove `inertia` to compute it from the shape",
                    if i.len() == 3 { " (3 values are the principal moments)" } else { "" }
                ),
            ));
        }
    }
    Ok(tensor)
}
