//! `[[joint]]`, `[[actuator]]`, `[[coupler]]` and `[[exclude]]` tables → the mechanism specs,
//! checked against the bodies and each other. Every error names the table (and its line).

use super::checks::{
    finite, finite_n, invalid, non_negative, norm_at_most, not_allowed, positive, range, rekey,
};
use super::orientation::unit_quaternion;
use super::raw::{RawActuator, RawActuatorKind, RawCoupler, RawExclude, RawJoint};
use super::{
    ActuatorKind, ActuatorSpec, BodySpec, CouplerSpec, ExcludeSpec, JointSpec, JointType, Place, SceneError,
    Schedule,
};
use crate::dynamics::coordinates::articulation::DEFAULT_FRICTION_SPEED;
use crate::math::{Isometry3, UnitQuaternion, Vector3, compact};

/// The name that means the world frame in a joint's `parent`.
pub(super) const WORLD: &str = "world";

/// Below this norm an axis is zero.
const ZERO_AXIS: f64 = 1e-12;

/// How far a coupled joint's given position may be from `ratio · q_follows + offset`.
const COUPLING_TOLERANCE: f64 = 1e-9;

/// The body keys that set an initial pose or velocity: not allowed on a joint's child.
pub(super) const POSE_KEYS: [&str; 5] =
    ["position", "orientation", "angle", "linear_velocity", "angular_velocity"];

/// What the validator needs of a body beyond its spec: its place and which of [`POSE_KEYS`]
/// it gives.
pub(super) struct BodyFacts<'a> {
    pub spec: &'a BodySpec,
    pub place: &'a Place,
    pub pose_keys: Vec<&'static str>,
}

/// The validated mechanism of a scene.
#[derive(Default)]
pub(super) struct Mechanism {
    pub joints: Vec<JointSpec>,
    pub actuators: Vec<ActuatorSpec>,
    pub couplers: Vec<CouplerSpec>,
    pub excludes: Vec<ExcludeSpec>,
    pub warnings: Vec<String>,
}

/// The tables as read, each with its place.
pub(super) struct RawMechanism {
    /// The robots' joints, actuators, couplers and exclusions, already specs (placed first).
    pub imported: super::robot::ImportedRobot,
    pub joints: Vec<(RawJoint, Place)>,
    pub actuators: Vec<(RawActuator, Place)>,
    pub couplers: Vec<(RawCoupler, Place)>,
    pub excludes: Vec<(RawExclude, Place)>,
}

/// Validates the mechanism tables against `bodies`.
pub(super) fn mechanism(raw: RawMechanism, bodies: &[BodyFacts]) -> Result<Mechanism, SceneError> {
    let mut out = Mechanism::default();
    let imported = raw.imported;
    let mut joint_places: Vec<Place> = Vec::new();
    let mut given = Vec::with_capacity(raw.joints.len());
    for (joint, place) in imported.joints {
        unique_joint(&out.joints, &joint.name, &place)?;
        given.push((false, false));
        joint_places.push(place);
        out.joints.push(joint);
    }
    if !raw.joints.is_empty()
        && let Some(b) = bodies.iter().find(|b| b.spec.name == WORLD)
    {
        return Err(invalid(
            b.place,
            "name",
            format!("= \"{WORLD}\" is the name of the world frame in a joint's `parent`"),
            "give the body another name".into(),
        ));
    }
    for (raw_joint, place) in raw.joints {
        given.push((raw_joint.position.is_some(), raw_joint.velocity.is_some()));
        let joint = joint_spec(raw_joint, &place, bodies)?;
        unique_joint(&out.joints, &joint.name, &place)?;
        joint_places.push(place);
        out.joints.push(joint);
    }
    tree(&out.joints, &joint_places, bodies)?;
    for (actuator, place) in imported.actuators {
        if !out.joints.iter().any(|j| j.name == actuator.joint && j.joint_type.is_single_dof()) {
            return Err(invalid(
                &place,
                "joint",
                format!("= \"{}\" is not a revolute or prismatic joint of the robot", actuator.joint),
                "fix the robot file's actuator".into(),
            ));
        }
        out.actuators.push(actuator);
    }
    for (coupler, place) in imported.couplers {
        for name in [&coupler.joint, &coupler.follows] {
            if !out.joints.iter().any(|j| &j.name == name && j.joint_type.is_single_dof()) {
                return Err(invalid(
                    &place,
                    "joint",
                    format!("\"{name}\" is not a revolute or prismatic joint of the robot"),
                    "fix the robot file's mimic or equality".into(),
                ));
            }
        }
        out.couplers.push(coupler);
    }
    out.excludes.extend(imported.excludes);
    out.warnings.extend(imported.warnings);
    for (raw_actuator, place) in raw.actuators {
        let mut actuator = actuator_spec(raw_actuator, &place, &out.joints)?;
        if let Some((_, file)) = imported.effort_limits.iter().find(|(j, _)| *j == actuator.joint) {
            match actuator.effort_limit {
                None => actuator.effort_limit = Some(*file),
                Some(given) if given > *file => out.warnings.push(format!(
                    "actuator `{}`: effort_limit {} exceeds the robot file's {} for joint `{}`",
                    actuator.name,
                    compact(given),
                    compact(*file),
                    actuator.joint
                )),
                Some(_) => {}
            }
        }
        if out.actuators.iter().any(|a| a.name == actuator.name) {
            return Err(invalid(
                &place,
                "name",
                format!("\"{}\" is used by more than one [[actuator]]", actuator.name),
                "give every actuator a unique `name`".into(),
            ));
        }
        let joint = out.joints.iter().find(|j| j.name == actuator.joint).expect("checked");
        if let (ActuatorKind::Position { target, .. }, Some((lo, hi))) = (&actuator.kind, joint.limits)
            && let Some(v) = target.values().into_iter().find(|v| *v < lo || *v > hi)
        {
            out.warnings.push(format!(
                "actuator `{}`: target {} is outside joint `{}`'s limits [{}, {}]",
                actuator.name,
                compact(v),
                joint.name,
                compact(lo),
                compact(hi)
            ));
        }
        out.actuators.push(actuator);
    }
    for (raw_coupler, place) in raw.couplers {
        let coupler = coupler_spec(raw_coupler, &place, &out.joints, &out.couplers, &out.actuators)?;
        out.couplers.push(coupler);
    }
    // The followers' coordinates follow their leaders'.
    for c in &out.couplers {
        let k = out.joints.iter().position(|j| j.name == c.joint).expect("checked");
        let lead = out.joints.iter().find(|j| j.name == c.follows).expect("checked");
        let (q, v) = (c.ratio * lead.position[0] + c.offset, c.ratio * lead.velocity[0]);
        let joint = &out.joints[k];
        for (key, given, value, lead_value, offset, want) in [
            ("position", given[k].0, joint.position[0], lead.position[0], c.offset, q),
            ("velocity", given[k].1, joint.velocity[0], lead.velocity[0], 0.0, v),
        ] {
            if given && (value - want).abs() > COUPLING_TOLERANCE * want.abs().max(1.0) {
                return Err(invalid(
                    &joint_places[k],
                    key,
                    format!(
                        "= {} disagrees with the coupler: joint `{}` follows joint `{}`, whose {key} {} gives {} · {} + {} = {}",
                        compact(value),
                        joint.name,
                        lead.name,
                        compact(lead_value),
                        compact(c.ratio),
                        compact(lead_value),
                        compact(offset),
                        compact(want)
                    ),
                    format!(
                        "remove `{key}` from joint `{}` (it follows joint `{}`), or make them agree",
                        joint.name, lead.name
                    ),
                ));
            }
        }
        let joint = &mut out.joints[k];
        joint.position[0] = q;
        joint.velocity[0] = v;
    }
    // Every joint starts within its limits (a follower where its leader puts it).
    for (k, joint) in out.joints.iter().enumerate() {
        let (Some((lo, hi)), Some(&q)) = (joint.limits, joint.position.first()) else { continue };
        if (lo..=hi).contains(&q) {
            continue;
        }
        let why = match out.couplers.iter().find(|c| c.joint == joint.name) {
            Some(c) => format!(", where the coupler to joint `{}` puts it,", c.follows),
            None => String::new(),
        };
        return Err(invalid(
            &joint_places[k],
            "position",
            format!("= {}{why} is outside the joint's limits [{}, {}]", compact(q), compact(lo), compact(hi)),
            "start the joint within its limits, or widen them".into(),
        ));
    }
    for (raw_exclude, place) in raw.excludes {
        out.excludes.push(exclude_spec(raw_exclude, &place, bodies)?);
    }
    Ok(out)
}

/// An error unless no joint of `joints` is called `name`.
fn unique_joint(joints: &[JointSpec], name: &str, place: &Place) -> Result<(), SceneError> {
    if joints.iter().any(|j| j.name == name) {
        return Err(invalid(
            place,
            "name",
            format!("\"{name}\" is used by more than one joint"),
            "give every joint a unique `name` (a robot's joints are named ROBOT/JOINT)".into(),
        ));
    }
    Ok(())
}

/// "the bodies are `a`, `b`" when there are few, for a fix.
fn listed(what: &str, names: &[&str]) -> String {
    const FEW: usize = 8;
    match names.len() {
        0 => format!("there are no {what}"),
        n if n <= FEW => {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("the {what} are {}", names.join(", "))
        }
        n => format!("there are {n} {what}; check the spelling (names are case-sensitive)"),
    }
}

/// The body called `name`, or an error for `key` naming the bodies there are.
fn body<'a>(
    place: &Place,
    key: &str,
    name: &str,
    bodies: &'a [BodyFacts<'a>],
) -> Result<&'a BodyFacts<'a>, SceneError> {
    bodies.iter().find(|b| b.spec.name == name).ok_or_else(|| {
        let names: Vec<&str> = bodies.iter().map(|b| b.spec.name.as_str()).collect();
        let world = if key == "parent" { format!(" (or \"{WORLD}\")") } else { String::new() };
        invalid(
            place,
            key,
            format!("= \"{name}\" is not a body"),
            format!("name a [[body]]{world}: {}", listed("bodies", &names)),
        )
    })
}

/// The joint called `name`, or an error for `key` naming the joints there are.
fn joint<'a>(
    place: &Place,
    key: &str,
    name: &str,
    joints: &'a [JointSpec],
) -> Result<&'a JointSpec, SceneError> {
    joints.iter().find(|j| j.name == name).ok_or_else(|| {
        let names: Vec<&str> = joints.iter().map(|j| j.name.as_str()).collect();
        invalid(
            place,
            key,
            format!("= \"{name}\" is not a joint"),
            format!("name a [[joint]]: {}", listed("joints", &names)),
        )
    })
}

fn non_empty(place: &Place, what: &str, name: &str) -> Result<(), SceneError> {
    if name.trim().is_empty() {
        return Err(invalid(
            place,
            "name",
            "is empty".into(),
            format!("give the {what} a non-empty, unique name"),
        ));
    }
    Ok(())
}

/// A number, or a list of numbers, from a TOML value; `None` for anything else.
fn numbers(value: &toml::Value) -> Option<(bool, Vec<f64>)> {
    let number = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    match value {
        toml::Value::Array(items) => {
            items.iter().map(number).collect::<Option<Vec<f64>>>().map(|v| (true, v))
        }
        other => number(other).map(|x| (false, vec![x])),
    }
}

/// `value` as the shape `joint_type` asks for: a number (1-dof) or a list of `len` numbers.
fn coordinates(
    place: &Place,
    key: &str,
    value: &toml::Value,
    joint_type: JointType,
    len: usize,
    what: &str,
) -> Result<Vec<f64>, SceneError> {
    let wrong = || {
        invalid(
            place,
            key,
            format!("= {value} does not fit a {} joint", joint_type.key()),
            format!("give {what}"),
        )
    };
    let (list, v) = numbers(value).ok_or_else(wrong)?;
    if list == joint_type.is_single_dof() || v.len() != len {
        return Err(wrong());
    }
    for x in &v {
        finite(place, key, *x)?;
    }
    Ok(v)
}

/// A unit quaternion [w, x, y, z] checked like a body's `orientation`, reported under `key`.
fn quaternion(place: &Place, key: &str, q: [f64; 4]) -> Result<UnitQuaternion, SceneError> {
    unit_quaternion(place, q).map_err(|e| rekey(e, key))
}

fn joint_spec(raw: RawJoint, place: &Place, bodies: &[BodyFacts]) -> Result<JointSpec, SceneError> {
    non_empty(place, "joint", &raw.name)?;
    let jt = raw.joint_type;
    let kind = jt.key();
    let parent = match raw.parent.as_str() {
        WORLD => None,
        name => Some(body(place, "parent", name, bodies)?.spec.name.clone()),
    };
    if raw.child == WORLD {
        return Err(invalid(
            place,
            "child",
            format!("= \"{WORLD}\": the world is not a body and cannot move"),
            "name the [[body]] this joint moves; the world can only be a `parent`".into(),
        ));
    }
    let child = body(place, "child", &raw.child, bodies)?.spec.name.clone();
    if parent.as_deref() == Some(child.as_str()) {
        return Err(invalid(
            place,
            "child",
            format!("= \"{child}\" is also the joint's parent"),
            "a joint connects two different bodies: change `parent` or `child`".into(),
        ));
    }
    let origin = match &raw.origin {
        None => Isometry3::identity(),
        Some(o) => super::orientation::origin_pose(place, "origin", o)?,
    };
    let single = jt.is_single_dof();
    let only_single = |key: &str| {
        not_allowed(place, key, &format!("a {kind} joint has none; only revolute and prismatic joints do"))
    };
    let axis = match (raw.axis, single) {
        (Some(_), false) => return Err(only_single("axis")),
        (None, true) => {
            return Err(invalid(
                place,
                "axis",
                format!("is missing: a {kind} joint moves along an axis"),
                "add `axis = [x, y, z]` in the joint frame, e.g. [0, 0, 1]".into(),
            ));
        }
        (None, false) => Vector3::zeros(),
        (Some(a), true) => {
            let a = Vector3::from(finite_n(place, "axis", a)?);
            let big = a.amax();
            let norm = if big > 0.0 { big * (a / big).norm() } else { 0.0 };
            if norm < ZERO_AXIS {
                return Err(invalid(
                    place,
                    "axis",
                    format!("= [{}, {}, {}] is zero", a.x, a.y, a.z),
                    "give a nonzero direction in the joint frame, e.g. [0, 0, 1]".into(),
                ));
            }
            (a / big).normalize()
        }
    };
    if jt == JointType::Fixed {
        for (key, given) in [("position", raw.position.is_some()), ("velocity", raw.velocity.is_some())] {
            if given {
                return Err(not_allowed(place, key, "a fixed joint has no coordinate"));
            }
        }
    }
    let (pos_range, speed, unit, speed_unit) = match jt {
        JointType::Revolute => ((-range::ANGLE, range::ANGLE), range::RATE, "rad", "rad/s"),
        _ => ((-range::POSITION, range::POSITION), range::SPEED, "m", "m/s"),
    };
    let position = match (jt, &raw.position) {
        (JointType::Fixed, _) => Vec::new(),
        (JointType::Revolute | JointType::Prismatic, None) => vec![0.0],
        (JointType::Revolute | JointType::Prismatic, Some(v)) => {
            let q = coordinates(place, "position", v, jt, 1, &format!("one number ({unit})"))?[0];
            vec![super::checks::signed_within(place, "position", q, pos_range, unit)?]
        }
        (JointType::Ball, None) => vec![1.0, 0.0, 0.0, 0.0],
        (JointType::Ball, Some(v)) => {
            let q = coordinates(place, "position", v, jt, 4, "a unit quaternion [w, x, y, z]")?;
            let q = quaternion(place, "position", [q[0], q[1], q[2], q[3]])?;
            vec![q.w, q.i, q.j, q.k]
        }
        (JointType::Free, None) => vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        (JointType::Free, Some(v)) => {
            let p = coordinates(
                place,
                "position",
                v,
                jt,
                7,
                "7 numbers [x, y, z, w, qx, qy, qz] (m; a unit quaternion)",
            )?;
            let x = norm_at_most(place, "position", [p[0], p[1], p[2]], range::POSITION, "m")?;
            let q = quaternion(place, "position", [p[3], p[4], p[5], p[6]])?;
            vec![x[0], x[1], x[2], q.w, q.i, q.j, q.k]
        }
    };
    let velocity = match (jt, &raw.velocity) {
        (JointType::Fixed, _) => Vec::new(),
        (_, None) => vec![0.0; jt.velocity_len()],
        (JointType::Revolute | JointType::Prismatic, Some(v)) => {
            let w = coordinates(place, "velocity", v, jt, 1, &format!("one number ({speed_unit})"))?[0];
            vec![super::checks::signed_within(place, "velocity", w, (-speed, speed), speed_unit)?]
        }
        (JointType::Ball, Some(v)) => {
            let w = coordinates(place, "velocity", v, jt, 3, "[wx, wy, wz] (rad/s, child frame)")?;
            norm_at_most(place, "velocity", [w[0], w[1], w[2]], range::RATE, "rad/s")?.to_vec()
        }
        (JointType::Free, Some(v)) => {
            let w = coordinates(place, "velocity", v, jt, 6, "[vx, vy, vz, wx, wy, wz] (m/s, rad/s)")?;
            let l = norm_at_most(place, "velocity", [w[0], w[1], w[2]], range::SPEED, "m/s")?;
            let a = norm_at_most(place, "velocity", [w[3], w[4], w[5]], range::RATE, "rad/s")?;
            [l, a].concat()
        }
    };
    let limits = match (raw.limits, single) {
        (Some(_), false) => return Err(only_single("limits")),
        (None, _) => None,
        (Some(l), true) => {
            let [lo, hi] = finite_n(place, "limits", l)?;
            if lo > hi {
                return Err(invalid(
                    place,
                    "limits",
                    format!("= [{}, {}] has its lower end above its upper end", compact(lo), compact(hi)),
                    "give [lo, hi] with lo ≤ hi".into(),
                ));
            }
            Some((lo, hi))
        }
    };
    if jt == JointType::Fixed {
        for (key, given) in [("damping", raw.damping.is_some()), ("armature", raw.armature.is_some())] {
            if given {
                return Err(not_allowed(place, key, "a fixed joint has no coordinate"));
            }
        }
    }
    if !single {
        for (key, given) in [
            ("stiffness", raw.stiffness.is_some()),
            ("spring_reference", raw.spring_reference.is_some()),
            ("friction", raw.friction.is_some()),
            ("friction_speed", raw.friction_speed.is_some()),
        ] {
            if given {
                return Err(only_single(key));
            }
        }
    }
    Ok(JointSpec {
        name: raw.name,
        joint_type: jt,
        parent,
        child,
        origin,
        axis,
        position,
        velocity,
        limits,
        damping: non_negative(place, "damping", raw.damping.unwrap_or(0.0))?,
        armature: non_negative(place, "armature", raw.armature.unwrap_or(0.0))?,
        stiffness: non_negative(place, "stiffness", raw.stiffness.unwrap_or(0.0))?,
        spring_reference: finite(place, "spring_reference", raw.spring_reference.unwrap_or(0.0))?,
        friction: non_negative(place, "friction", raw.friction.unwrap_or(0.0))?,
        friction_speed: match raw.friction_speed {
            Some(s) => positive(place, "friction_speed", s, "m/s or rad/s")?,
            None => DEFAULT_FRICTION_SPEED,
        },
    })
}

/// The joints form a forest hanging from the world and from bodies that are not children: each
/// body the child of at most one joint, no loops, children that can move and are placed by their
/// joint, parents that are not kinematic.
fn tree(joints: &[JointSpec], places: &[Place], bodies: &[BodyFacts]) -> Result<(), SceneError> {
    let parent_joint = |child: &str| joints.iter().position(|j| j.child == child);
    let facts = |name: &str| bodies.iter().find(|b| b.spec.name == name).expect("checked");
    for (k, j) in joints.iter().enumerate() {
        let place = &places[k];
        if let Some(first) = parent_joint(&j.child).filter(|&f| f != k) {
            return Err(invalid(
                place,
                "child",
                format!("= \"{}\" is already the child of joint `{}`", j.child, joints[first].name),
                "each body is the child of at most one joint: give this joint another child".into(),
            ));
        }
    }
    for (k, j) in joints.iter().enumerate() {
        let place = &places[k];
        // Up from the parent: reaching the child again closes a loop.
        let mut at = j.parent.clone();
        let mut path = vec![j.name.clone()];
        for _ in 0..=joints.len() {
            let Some(name) = at else { break };
            if name == j.child {
                return Err(invalid(
                    place,
                    "parent",
                    format!(
                        "= \"{}\" closes a loop: the joints {} lead from body `{}` back to itself",
                        j.parent.as_deref().unwrap_or(WORLD),
                        path.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                        j.child
                    ),
                    "joints form a tree: give one of these joints another parent (closed loops are not supported)".into(),
                ));
            }
            at = match parent_joint(&name) {
                Some(p) => {
                    path.push(joints[p].name.clone());
                    joints[p].parent.clone()
                }
                None => None,
            };
        }
        let child = facts(&j.child);
        let follows = |what: &str| {
            invalid(
                child.place,
                what,
                format!(
                    "is not allowed: body `{}` is the child of joint `{}`: its pose follows the joint",
                    j.child, j.name
                ),
                format!("give joint `{}`'s `origin` and `position` instead", j.name),
            )
        };
        if child.spec.fixed {
            return Err(invalid(
                child.place,
                "fixed",
                format!("is true, but body `{}` is the child of joint `{}`, which moves it", j.child, j.name),
                format!(
                    "remove `fixed`, or make joint `{}` type = \"fixed\" (it then holds the body to its parent)",
                    j.name
                ),
            ));
        }
        if child.spec.kinematic.is_some() {
            return Err(invalid(
                child.place,
                "kinematic",
                format!(
                    "is given, but body `{}` is the child of joint `{}`, which moves it",
                    j.child, j.name
                ),
                "remove `kinematic` (drive the joint with an [[actuator]] instead)".into(),
            ));
        }
        if let Some(key) = child.pose_keys.first() {
            return Err(follows(key));
        }
        if let Some(parent) = &j.parent
            && facts(parent).spec.kinematic.is_some()
        {
            return Err(invalid(
                place,
                "parent",
                format!("= \"{parent}\" is a kinematic body: not supported yet"),
                "a mechanism hangs from the world, a fixed body or a free body".into(),
            ));
        }
    }
    Ok(())
}

/// A schedule from `constant = v` or `points = [[t, v], ...]` (at most one; neither: 0).
fn schedule(
    place: &Place,
    (key, constant): (&str, Option<f64>),
    (points_key, points): (&str, Option<Vec<Vec<f64>>>),
) -> Result<Schedule, SceneError> {
    match (constant, points) {
        (Some(_), Some(_)) => Err(invalid(
            place,
            points_key,
            format!("is given together with `{key}`"),
            format!("give either a constant `{key}` or a schedule `{points_key}` = [[t, value], ...]"),
        )),
        (Some(v), None) => Ok(Schedule::Constant(finite(place, key, v)?)),
        (None, None) => Ok(Schedule::Constant(0.0)),
        (None, Some(points)) => {
            if points.is_empty() {
                return Err(invalid(
                    place,
                    points_key,
                    "is empty".into(),
                    format!("give at least one point [t, value], or a constant `{key}`"),
                ));
            }
            let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len());
            for (k, p) in points.iter().enumerate() {
                let [t, v] = p[..] else {
                    return Err(invalid(
                        place,
                        points_key,
                        format!("point {} has {} numbers", k + 1, p.len()),
                        "give each point as [t, value]".into(),
                    ));
                };
                let [t, v] = finite_n(place, points_key, [t, v])?;
                if t < 0.0 || out.last().is_some_and(|&(t0, _)| t <= t0) {
                    return Err(invalid(
                        place,
                        points_key,
                        format!(
                            "point {} has t = {}: times must be ≥ 0 and strictly increasing",
                            k + 1,
                            compact(t)
                        ),
                        "sort the points by time, each time once".into(),
                    ));
                }
                out.push((t, v));
            }
            Ok(Schedule::Points(out))
        }
    }
}

fn actuator_spec(raw: RawActuator, place: &Place, joints: &[JointSpec]) -> Result<ActuatorSpec, SceneError> {
    non_empty(place, "actuator", &raw.name)?;
    let j = joint(place, "joint", &raw.joint, joints)?;
    if !j.joint_type.is_single_dof() {
        return Err(invalid(
            place,
            "joint",
            format!("= \"{}\" is a {} joint", j.name, j.joint_type.key()),
            "actuators drive revolute and prismatic joints".into(),
        ));
    }
    let (kind, keys) = match raw.kind {
        RawActuatorKind::Motor => ("motor", "gear, effort or efforts"),
        RawActuatorKind::Position => {
            ("position", "kp, kd, target or targets, target_velocity or target_velocities")
        }
        RawActuatorKind::Velocity => ("velocity", "kd, target or targets"),
    };
    let given = [
        ("kp", raw.kp.is_some(), [false, true, false]),
        ("kd", raw.kd.is_some(), [false, true, true]),
        ("target", raw.target.is_some(), [false, true, true]),
        ("targets", raw.targets.is_some(), [false, true, true]),
        ("target_velocity", raw.target_velocity.is_some(), [false, true, false]),
        ("target_velocities", raw.target_velocities.is_some(), [false, true, false]),
        ("gear", raw.gear.is_some(), [true, false, false]),
        ("effort", raw.effort.is_some(), [true, false, false]),
        ("efforts", raw.efforts.is_some(), [true, false, false]),
    ];
    let column = raw.kind as usize;
    if let Some((key, ..)) = given.iter().find(|(_, g, allowed)| *g && !allowed[column]) {
        return Err(not_allowed(
            place,
            key,
            &format!("a kind = \"{kind}\" actuator takes {keys} (and effort_limit)"),
        ));
    }
    let required = |key: &str, v: Option<f64>, why: &str| {
        v.ok_or_else(|| invalid(place, key, format!("is missing: {why}"), format!("add `{key}`")))
    };
    let kind = match raw.kind {
        RawActuatorKind::Motor => {
            let gear = finite(place, "gear", raw.gear.unwrap_or(1.0))?;
            if gear == 0.0 {
                return Err(invalid(
                    place,
                    "gear",
                    "is 0: the motor would do nothing".into(),
                    "give a nonzero gear ratio (default 1)".into(),
                ));
            }
            ActuatorKind::Motor {
                gear,
                effort: schedule(place, ("effort", raw.effort), ("efforts", raw.efforts))?,
            }
        }
        RawActuatorKind::Position => ActuatorKind::Position {
            kp: positive(place, "kp", required("kp", raw.kp, "a position actuator needs a stiffness")?, "")?,
            kd: non_negative(place, "kd", raw.kd.unwrap_or(0.0))?,
            target: schedule(place, ("target", raw.target), ("targets", raw.targets))?,
            target_velocity: schedule(
                place,
                ("target_velocity", raw.target_velocity),
                ("target_velocities", raw.target_velocities),
            )?,
        },
        RawActuatorKind::Velocity => ActuatorKind::Velocity {
            kd: positive(place, "kd", required("kd", raw.kd, "a velocity actuator needs a gain")?, "")?,
            target: schedule(place, ("target", raw.target), ("targets", raw.targets))?,
        },
    };
    let effort_limit =
        raw.effort_limit.map(|e| positive(place, "effort_limit", e, "N or N·m")).transpose()?;
    Ok(ActuatorSpec { name: raw.name, joint: raw.joint, kind, effort_limit })
}

fn coupler_spec(
    raw: RawCoupler,
    place: &Place,
    joints: &[JointSpec],
    couplers: &[CouplerSpec],
    actuators: &[ActuatorSpec],
) -> Result<CouplerSpec, SceneError> {
    let follower = joint(place, "joint", &raw.joint, joints)?;
    let leader = joint(place, "follows", &raw.follows, joints)?;
    for (key, j) in [("joint", follower), ("follows", leader)] {
        if !j.joint_type.is_single_dof() {
            return Err(invalid(
                place,
                key,
                format!("= \"{}\" is a {} joint", j.name, j.joint_type.key()),
                "couplers tie revolute or prismatic joints".into(),
            ));
        }
    }
    if follower.name == leader.name {
        return Err(invalid(
            place,
            "follows",
            format!("= \"{}\" is the coupled joint itself", leader.name),
            "name another joint for `follows`".into(),
        ));
    }
    if follower.joint_type != leader.joint_type {
        return Err(invalid(
            place,
            "follows",
            format!(
                "= \"{}\" is a {} joint, but joint `{}` is {}",
                leader.name,
                leader.joint_type.key(),
                follower.name,
                follower.joint_type.key()
            ),
            "couple two revolute or two prismatic joints".into(),
        ));
    }
    if couplers.iter().any(|c| c.joint == follower.name) {
        return Err(invalid(
            place,
            "joint",
            format!("= \"{}\" is already coupled by another [[coupler]]", follower.name),
            "couple each joint at most once".into(),
        ));
    }
    // A chain either way round: the leader follows another, or this follower leads another.
    if let Some(c) = couplers.iter().find(|c| c.joint == leader.name) {
        return Err(invalid(
            place,
            "follows",
            format!("= \"{}\" itself follows joint `{}`: a chain of couplers", leader.name, c.follows),
            format!("make joint `{}` follow `{}` directly (multiply the ratios)", follower.name, c.follows),
        ));
    }
    if let Some(c) = couplers.iter().find(|c| c.follows == follower.name) {
        return Err(invalid(
            place,
            "joint",
            format!("= \"{}\" leads joint `{}` already: a chain of couplers", follower.name, c.joint),
            format!("make joint `{}` follow `{}` directly (multiply the ratios)", c.joint, leader.name),
        ));
    }
    if let Some(a) = actuators.iter().find(|a| a.joint == follower.name) {
        return Err(invalid(
            place,
            "joint",
            format!(
                "= \"{}\" is driven by actuator `{}`, but a coupled joint follows its leader",
                follower.name, a.name
            ),
            format!(
                "move actuator `{}` to joint `{}`: the leader's actuators drive both",
                a.name, leader.name
            ),
        ));
    }
    let ratio = finite(place, "ratio", raw.ratio.unwrap_or(1.0))?;
    if ratio == 0.0 {
        return Err(invalid(
            place,
            "ratio",
            "is 0: the joint would not follow at all".into(),
            "give a nonzero ratio, or a fixed joint if it should not move".into(),
        ));
    }
    Ok(CouplerSpec {
        joint: raw.joint,
        follows: raw.follows,
        ratio,
        offset: finite(place, "offset", raw.offset.unwrap_or(0.0))?,
    })
}

fn exclude_spec(raw: RawExclude, place: &Place, bodies: &[BodyFacts]) -> Result<ExcludeSpec, SceneError> {
    body(place, "a", &raw.a, bodies)?;
    body(place, "b", &raw.b, bodies)?;
    if raw.a == raw.b {
        return Err(invalid(
            place,
            "b",
            format!("= \"{}\" is the same body as `a`", raw.b),
            "name two different bodies (a body never touches itself)".into(),
        ));
    }
    Ok(ExcludeSpec { a: raw.a, b: raw.b })
}
