//! `[[robot]]`: a robot file's model turned into the scene's own specs — a body per link, a
//! joint per joint, actuators, couplers and exclusions — named `ROBOT/NAME`, so that everything
//! after the scene treats them as hand-written ones.
//!
//! Massless links on fixed joints merge into their parent (their shapes move with them). A link
//! with several collision shapes keeps the first on itself and hangs each other on a massless
//! body `LINK/SHAPE` welded to it by a fixed joint; so does a shape off the link frame under the
//! impulse models (they take shapes at their body frames). A URDF robot's links touch each other
//! only with `self_collision = true` (as in Gazebo and PyBullet); an MJCF file's bodies do unless
//! MuJoCo's filters (in the model's exclusions) or `self_collision = false` say otherwise; never
//! a link's shapes those of its own link, its parent or its children.

use super::import::{JointType, RobotFormat, RobotModel, read_robot};
use super::mechanism::InertiaSpec;
use super::orientation::origin_pose;
use super::raw::{RawContact, RawRobot};
use super::validate_contact::{contact_spec, model_contact};
use super::{
    ActuatorSpec, BodySpec, ContactSpec, CouplerSpec, ExcludeSpec, JointSpec, ModelKind, Place, SceneError,
};
use crate::dynamics::coordinates::articulation::DEFAULT_FRICTION_SPEED;
use crate::geometry::Shape;
use crate::math::{Isometry3, Matrix3, Point3, Twist, Vector3};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Without `resolution`, a link's shape is meshed with edges of its bounding radius over this.
const AUTO_RESOLUTION_DIVISOR: f64 = 10.0;

/// A robot's specs, each body and joint with the place its errors name.
#[derive(Default)]
pub(super) struct ImportedRobot {
    pub bodies: Vec<(BodySpec, Place)>,
    pub joints: Vec<(JointSpec, Place)>,
    pub actuators: Vec<(ActuatorSpec, Place)>,
    pub couplers: Vec<(CouplerSpec, Place)>,
    pub excludes: Vec<ExcludeSpec>,
    /// The file's effort limit (N or N·m) of each joint that has one, by scene name: a
    /// hand-written actuator on the joint takes it as its own unless it gives one.
    pub effort_limits: Vec<(String, f64)>,
    pub warnings: Vec<String>,
}

/// What the scene says about placing and dressing the robot (validated `[[robot]]` keys).
pub(super) struct RobotSettings<'a> {
    pub raw: &'a RawRobot,
    pub place: &'a Place,
    /// The base frame in the world.
    pub base: Isometry3,
    pub model: ModelKind,
}

/// A collision shape in its body's frame, with the file's friction and a label for its name.
type PlacedShape = (Shape, Isometry3, Option<f64>, String);

/// Where a link ends up: the body it is part of (itself, or the parent it merged into) and its
/// frame in that body's frame.
#[derive(Clone)]
struct Home {
    body: usize,
    frame: Isometry3,
}

/// Reads `[[robot]]` `raw`'s file (paths relative to `base_dir`) and translates it.
pub(super) fn import(
    raw: &RawRobot,
    place: &Place,
    base_dir: &Path,
    model: ModelKind,
) -> Result<ImportedRobot, SceneError> {
    if raw.name.is_empty() || raw.name.contains('/') {
        return Err(SceneError::Invalid {
            place: place.clone(),
            key: "name".into(),
            problem: format!("= \"{}\" cannot prefix the robot's names", raw.name),
            fix: "give a non-empty name without `/`".into(),
        });
    }
    let base = match &raw.base {
        None => Isometry3::identity(),
        Some(o) => origin_pose(place, "base", o)?,
    };
    let dirs: Vec<PathBuf> = raw.package_paths.iter().map(|p| base_dir.join(p)).collect();
    let robot = read_robot(&base_dir.join(&raw.file), &dirs)
        .map_err(|e| SceneError::Robot { place: place.clone(), source: Box::new(e) })?;
    if let Some(positions) = &raw.positions {
        for key in positions.keys() {
            let bare = key.strip_prefix(&format!("{}/", raw.name)).unwrap_or(key);
            let scalar = robot.joints.iter().any(|j| j.name == bare && j.joint_type.is_single_dof());
            if !scalar {
                return Err(SceneError::Invalid {
                    place: place.clone(),
                    key: format!("positions.\"{key}\""),
                    problem: "names no revolute or prismatic joint of the robot".into(),
                    fix: format!(
                        "name one of its joints (`contactlab inspect {}` lists them)",
                        raw.file.display()
                    ),
                });
            }
        }
    }
    translate(&robot, &RobotSettings { raw, place, base, model })
}

/// The specs of `robot` as `settings` place it.
pub(super) fn translate(robot: &RobotModel, settings: &RobotSettings) -> Result<ImportedRobot, SceneError> {
    let raw = settings.raw;
    let joint_friction = raw.joint_friction.unwrap_or(true);
    let prefix = |name: &str| format!("{}/{name}", raw.name);
    let mut out = ImportedRobot::default();
    let index: BTreeMap<&str, usize> =
        robot.links.iter().enumerate().map(|(i, l)| (l.name.as_str(), i)).collect();
    let joint_of: BTreeMap<usize, usize> = robot
        .joints
        .iter()
        .enumerate()
        .filter_map(|(j, joint)| Some((*index.get(joint.child.as_str())?, j)))
        .collect();
    // Each link's home, parents first (the model orders them so).
    let mut home: Vec<Home> = Vec::with_capacity(robot.links.len());
    for (i, link) in robot.links.iter().enumerate() {
        let merged = joint_of.get(&i).map(|&j| &robot.joints[j]).and_then(|joint| {
            let parent = index.get(joint.parent.as_deref()?)?;
            (joint.joint_type == JointType::Fixed && link.mass == 0.0)
                .then(|| Home { body: home[*parent].body, frame: home[*parent].frame * joint.origin })
        });
        home.push(merged.unwrap_or(Home { body: i, frame: Isometry3::identity() }));
    }
    // Each body's shapes (in its frame) and the file's friction of each.
    let mut shapes: Vec<Vec<PlacedShape>> = vec![Vec::new(); robot.links.len()];
    for (i, link) in robot.links.iter().enumerate() {
        for (k, g) in link.collisions.iter().enumerate() {
            let label = g.name.clone().unwrap_or_else(|| format!("{}_collision{k}", link.name));
            shapes[home[i].body].push((g.shape.clone(), home[i].frame * g.pose, g.friction, label));
        }
        if home[i].body != i && (link.inertia != Matrix3::zeros()) {
            out.warnings.push(format!(
                "robot `{}`: link `{}` has no mass but an inertia; merged into its parent without it",
                raw.name, link.name
            ));
        }
    }
    // The bodies, with each link's group of shaped bodies for the exclusions.
    let mut groups: Vec<Vec<String>> = vec![Vec::new(); robot.links.len()];
    let offsets_allowed = !settings.model.is_constraint();
    for (i, link) in robot.links.iter().enumerate() {
        if home[i].body != i {
            continue;
        }
        let name = prefix(&link.name);
        let place =
            Place::section(format!("[[robot]] {}: link `{}` (line {})", raw.name, link.name, link.line));
        let mut own = shapes[i].iter();
        let first =
            own.clone().next().filter(|(_, pose, _, _)| offsets_allowed || *pose == Isometry3::identity());
        if first.is_some() {
            own.next();
        }
        let contact = link_contact(settings, &link.name, first.map(|s| (&s.0, s.2)), &place)?;
        out.bodies.push((
            body_spec(
                &name,
                link.mass,
                link.center_of_mass,
                link.inertia,
                first.map(|s| (s.0.clone(), s.1)),
                contact,
            ),
            place.clone(),
        ));
        if first.is_some() {
            groups[i].push(name.clone());
        }
        for (shape, pose, friction, label) in own {
            let part = format!("{name}/{label}");
            let contact = link_contact(settings, &link.name, Some((shape, *friction)), &place)?;
            out.bodies.push((
                body_spec(
                    &part,
                    0.0,
                    Point3::origin(),
                    Matrix3::zeros(),
                    Some((shape.clone(), Isometry3::identity())),
                    contact,
                ),
                place.clone(),
            ));
            out.joints.push((
                fixed_joint(&format!("{part}/weld"), Some(name.clone()), &part, *pose),
                place.clone(),
            ));
            groups[i].push(part);
        }
    }
    // The file's world geometry (MJCF floors, walls): fixed bodies at the base, rigid unless
    // `link_contact` says otherwise for `world`.
    let mut world_group = Vec::new();
    for (k, g) in robot.world_collisions.iter().enumerate() {
        let label = g.name.clone().unwrap_or_else(|| format!("world_collision{k}"));
        let name = prefix(&format!("world/{label}"));
        let place = Place::section(format!("[[robot]] {}: world geometry `{label}`", raw.name));
        let own = raw.link_contact.as_ref().and_then(|m| m.get(&prefix("world")).or_else(|| m.get("world")));
        let contact = match own {
            Some(_) => link_contact(settings, "world", Some((&g.shape, g.friction)), &place)?,
            None => {
                let rigid = RawContact {
                    compliance: Some(crate::contact::Compliance::Rigid),
                    friction: g.friction.or(raw.contact.as_ref().and_then(|c| c.friction)),
                    resolution: auto_resolution(&g.shape),
                    ..RawContact::default()
                };
                contact_spec(Some(rigid), &g.shape, &place)?
            }
        };
        let mut spec = body_spec(
            &name,
            0.0,
            Point3::origin(),
            Matrix3::zeros(),
            Some((g.shape.clone(), Isometry3::identity())),
            contact,
        );
        (spec.fixed, spec.pose, spec.mass, spec.inertia, spec.center_of_mass) =
            (true, settings.base * g.pose, None, None, None);
        out.bodies.push((spec, place));
        world_group.push(name);
    }
    // The joints: each link's, then the shapes' welds (pushed above) follow their links.
    let mut joints = Vec::new();
    for (i, link) in robot.links.iter().enumerate() {
        if home[i].body != i {
            continue;
        }
        let place =
            Place::section(format!("[[robot]] {}: link `{}` (line {})", raw.name, link.name, link.line));
        let Some(&j) = joint_of.get(&i) else {
            // A root: welded to the world at the base, or free there.
            let fixed = raw.fixed_base.unwrap_or(true);
            let name = prefix(&format!("{}_base", link.name));
            let spec = if fixed {
                fixed_joint(&name, None, &prefix(&link.name), settings.base)
            } else {
                let (p, r) = (settings.base.translation.vector, settings.base.rotation);
                JointSpec {
                    position: vec![p.x, p.y, p.z, r.w, r.i, r.j, r.k],
                    velocity: vec![0.0; 6],
                    joint_type: JointType::Free,
                    ..fixed_joint(&name, None, &prefix(&link.name), Isometry3::identity())
                }
            };
            joints.push((spec, place));
            continue;
        };
        let joint = &robot.joints[j];
        if let Some(limit) = joint.effort_limit {
            out.effort_limits.push((prefix(&joint.name), limit));
        }
        let place =
            Place::section(format!("[[robot]] {}: joint `{}` (line {})", raw.name, joint.name, joint.line));
        let (parent, origin) = match joint.parent.as_deref().and_then(|p| index.get(p)) {
            Some(&p) => (Some(prefix(&robot.links[home[p].body].name)), home[p].frame * joint.origin),
            None => (None, settings.base * joint.origin),
        };
        let t = joint.joint_type;
        let position = match t {
            JointType::Fixed => vec![],
            JointType::Revolute | JointType::Prismatic => {
                match initial_position(settings, robot, &joint.name)? {
                    Some(q) => vec![q],
                    None => vec![file_position(joint, &raw.name, &mut out.warnings)],
                }
            }
            JointType::Ball => vec![1.0, 0.0, 0.0, 0.0],
            JointType::Free => vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        };
        joints.push((
            JointSpec {
                name: prefix(&joint.name),
                joint_type: t,
                parent,
                child: prefix(&link.name),
                origin,
                axis: if t.is_single_dof() { joint.axis } else { Vector3::zeros() },
                velocity: vec![0.0; t.velocity_len()],
                position,
                limits: joint.limits,
                damping: joint.damping,
                armature: joint.armature,
                stiffness: joint.stiffness,
                spring_reference: joint.spring_reference,
                friction: if joint_friction && t.is_single_dof() { joint.friction } else { 0.0 },
                friction_speed: DEFAULT_FRICTION_SPEED,
            },
            place,
        ));
    }
    // Ball and free joints take no Coulomb friction: one line for all of them.
    let unsimulated: Vec<String> = robot
        .joints
        .iter()
        .filter(|j| joint_friction && j.friction != 0.0 && !j.joint_type.is_single_dof())
        .filter(|j| j.joint_type != JointType::Fixed)
        .map(|j| format!("`{}` {}", j.name, j.friction))
        .collect();
    if !unsimulated.is_empty() {
        out.warnings.push(format!(
            "robot `{}`: Coulomb friction of ball or free joint(s) {} is not simulated (only revolute and prismatic joints take friction)",
            raw.name,
            unsimulated.join(", ")
        ));
    }
    // Links' joints before the welds, parents before children (the model's order).
    joints.append(&mut out.joints);
    out.joints = joints;
    for a in &robot.actuators {
        let place =
            Place::section(format!("[[robot]] {}: actuator `{}` (line {})", raw.name, a.name, a.line));
        // A motor's limit clamps its command, before the gear; the file's is on the joint.
        let effort_limit = match &a.kind {
            super::ActuatorKind::Motor { gear, .. } if *gear != 0.0 => a.effort_limit.map(|l| l / gear.abs()),
            _ => a.effort_limit,
        };
        let spec = ActuatorSpec {
            name: prefix(&a.name),
            joint: prefix(&a.joint),
            kind: a.kind.clone(),
            effort_limit,
        };
        out.actuators.push((spec, place));
    }
    for c in &robot.couplers {
        let place = Place::section(format!(
            "[[robot]] {}: coupler of joint `{}` (line {})",
            raw.name, c.joint, c.line
        ));
        let spec = CouplerSpec {
            joint: prefix(&c.joint),
            follows: prefix(&c.follows),
            ratio: c.ratio,
            offset: c.offset,
        };
        out.couplers.push((spec, place));
    }
    // Exclusions: a link's shapes among themselves and with its parent's, and the file's pairs;
    // without self-collision, every pair of the robot's links.
    let bodies: Vec<usize> = (0..robot.links.len()).filter(|&i| home[i].body == i).collect();
    // (An MJCF file is a whole MuJoCo world whose own filters are in `excludes`: its bodies
    // collide by default; a URDF's links by default do not.)
    let self_collision = raw.self_collision.unwrap_or(robot.format == RobotFormat::Mjcf);
    let mut pairs: Vec<(usize, usize)> = if self_collision {
        bodies.iter().map(|&i| (i, i)).collect()
    } else {
        bodies.iter().enumerate().flat_map(|(k, &i)| bodies[k..].iter().map(move |&j| (i, j))).collect()
    };
    for joint in &robot.joints {
        if let (Some(p), Some(c)) =
            (joint.parent.as_deref().and_then(|p| index.get(p)), index.get(joint.child.as_str()))
        {
            pairs.push((home[*p].body, home[*c].body));
        }
    }
    // (The world's group sits after the links'.)
    let world = robot.links.len();
    groups.push(world_group);
    let slot =
        |name: &str| if name == "world" { Some(world) } else { index.get(name).map(|&i| home[i].body) };
    for (a, b) in &robot.excludes {
        if let (Some(a), Some(b)) = (slot(a), slot(b)) {
            pairs.push((a, b));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (a, b) in pairs {
        for (x, ga) in groups[a].iter().enumerate() {
            for (y, gb) in groups[b].iter().enumerate() {
                if (a == b && y <= x) || ga == gb {
                    continue;
                }
                let key = if ga < gb { (ga.clone(), gb.clone()) } else { (gb.clone(), ga.clone()) };
                if seen.insert(key.clone()) {
                    out.excludes.push(ExcludeSpec { a: key.0, b: key.1 });
                }
            }
        }
    }
    for note in robot.notes.iter().chain(&robot.warnings) {
        out.warnings.push(format!("robot `{}`: {note}", raw.name));
    }
    Ok(out)
}

/// A link's body: its mass properties as the file gives them, placed by its joint.
fn body_spec(
    name: &str,
    mass: f64,
    center_of_mass: Point3,
    inertia: Matrix3,
    shape: Option<(Shape, Isometry3)>,
    contact: ContactSpec,
) -> BodySpec {
    let (shape, shape_pose) = match shape {
        Some((s, pose)) => (Some(s), pose),
        None => (None, Isometry3::identity()),
    };
    BodySpec {
        name: name.into(),
        fixed: false,
        mass: Some(mass),
        density: None,
        inertia: Some(InertiaSpec::AboutCenterOfMass(inertia)),
        center_of_mass: Some(center_of_mass),
        pose: Isometry3::identity(),
        twist: Twist::default(),
        shape,
        shape_pose,
        contact,
        force: Vector3::zeros(),
        torque: Vector3::zeros(),
        kinematic: None,
        appear_time: 0.0,
        moment_of_inertia: None,
    }
}

fn fixed_joint(name: &str, parent: Option<String>, child: &str, origin: Isometry3) -> JointSpec {
    JointSpec {
        name: name.into(),
        joint_type: JointType::Fixed,
        parent,
        child: child.into(),
        origin,
        axis: Vector3::zeros(),
        position: vec![],
        velocity: vec![],
        limits: None,
        damping: 0.0,
        armature: 0.0,
        stiffness: 0.0,
        spring_reference: 0.0,
        friction: 0.0,
        friction_speed: DEFAULT_FRICTION_SPEED,
    }
}

/// A link's contact properties: its `link_contact` entry over the file's friction over the
/// robot's `contact`; a link without a shape touches nothing and takes the defaults.
fn link_contact(
    settings: &RobotSettings,
    link: &str,
    shape: Option<(&Shape, Option<f64>)>,
    place: &Place,
) -> Result<ContactSpec, SceneError> {
    let Some((shape, file_friction)) = shape else { return Ok(ContactSpec::default()) };
    let raw = settings.raw;
    let own = raw
        .link_contact
        .as_ref()
        .and_then(|m| m.get(&format!("{}/{link}", raw.name)).or_else(|| m.get(link)));
    let base = raw.contact.clone().unwrap_or_default();
    let merged = match own {
        Some(o) => o.clone().over(base),
        None => base,
    };
    // (A robot's meshes are sized to each shape unless the scene says.)
    let auto_resolution = auto_resolution(shape);
    let merged = RawContact {
        friction: own.and_then(|o| o.friction).or(file_friction).or(merged.friction),
        resolution: merged.resolution.or(auto_resolution),
        ..merged
    };
    model_contact(Some(merged), settings.model, shape, place)
}

/// The file's initial coordinate of a scalar joint, moved to the nearer limit (with a warning)
/// when the limits leave it out: files often start at 0 where a joint cannot go (the Allegro
/// hand's thumb rotation, limits [0.263, 1.396]), which the scene would refuse as a start.
fn file_position(joint: &super::import::RobotJoint, robot: &str, warnings: &mut Vec<String>) -> f64 {
    let q = joint.position;
    match joint.limits {
        Some((lo, hi)) if !(lo..=hi).contains(&q) => {
            let (side, limit) = if q < lo { ("lower", lo) } else { ("upper", hi) };
            warnings.push(format!(
                "robot `{robot}`: joint `{}` starts at its {side} limit {limit}: the file's initial coordinate {q} lies outside its limits [{lo}, {hi}] (set `positions` to start it elsewhere)",
                joint.name
            ));
            limit
        }
        _ => q,
    }
}

/// The mesh resolution of a robot's shape the scene gives none for: a tenth of its bounding
/// radius, and for a mesh file at most a quarter of its thinnest bounding-box extent (a thin
/// link would otherwise leave no lattice point inside).
fn auto_resolution(shape: &Shape) -> Option<f64> {
    let radius = shape.bounding_radius()? / AUTO_RESOLUTION_DIVISOR;
    let vertices = match shape {
        Shape::Mesh { data: crate::geometry::MeshData::Surface(s), .. } => &s.vertices,
        Shape::Mesh { data: crate::geometry::MeshData::Tets { mesh, .. }, .. } => &mesh.vertices,
        _ => return Some(radius),
    };
    let thinnest = (0..3)
        .map(|k| {
            let (lo, hi) = vertices
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p[k]), hi.max(p[k])));
            hi - lo
        })
        .fold(f64::INFINITY, f64::min);
    Some(if thinnest.is_finite() && thinnest > 0.0 { radius.min(thinnest / 4.0) } else { radius })
}

/// A scalar joint's initial coordinate if the scene gives it: the scene's `positions`, else the
/// keyframe's; `None`: the file's (`file_position`).
fn initial_position(
    settings: &RobotSettings,
    robot: &RobotModel,
    joint: &str,
) -> Result<Option<f64>, SceneError> {
    let raw = settings.raw;
    let prefixed = format!("{}/{joint}", raw.name);
    if let Some(value) = raw.positions.as_ref().and_then(|p| p.get(&prefixed).or_else(|| p.get(joint))) {
        return value
            .as_float()
            .or_else(|| value.as_integer().map(|i| i as f64))
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(|| SceneError::Invalid {
                place: settings.place.clone(),
                key: format!("positions.\"{prefixed}\""),
                problem: format!("= {value} is not a finite number"),
                fix: "give the joint's initial coordinate in rad (revolute) or m (prismatic)".into(),
            });
    }
    if let Some(name) = &raw.keyframe {
        let key = robot.keyframes.iter().find(|k| &k.name == name).ok_or_else(|| SceneError::Invalid {
            place: settings.place.clone(),
            key: "keyframe".into(),
            problem: format!("= \"{name}\" is not a keyframe of the file"),
            fix: format!(
                "name one of: {}",
                if robot.keyframes.is_empty() {
                    "(the file has none)".to_string()
                } else {
                    robot.keyframes.iter().map(|k| format!("\"{}\"", k.name)).collect::<Vec<_>>().join(", ")
                }
            ),
        })?;
        if let Some((_, q)) = key.positions.iter().find(|(j, _)| j == joint)
            && let Some(&q) = q.first()
        {
            return Ok(Some(q));
        }
    }
    Ok(None)
}
