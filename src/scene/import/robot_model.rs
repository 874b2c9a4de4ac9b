//! A robot as its file describes it, in our terms and units (m, kg, rad, N): a tree of links with
//! inertia and collision geometry, the joints between them, actuators, couplers, contact
//! exclusions and named poses, with notes of what the reader skipped. Names are the file's own
//! (the scene prefixes them).

use crate::geometry::Shape;
use crate::math::{Isometry3, Matrix3, Point3, Vector3};
use std::path::PathBuf;

/// Which kind of file it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RobotFormat {
    Urdf,
    Mjcf,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RobotModel {
    /// The robot's name in the file (`<robot name>`, `<mujoco model>`).
    pub name: String,
    pub format: RobotFormat,
    /// The file read (the root file for MJCF includes).
    pub file: PathBuf,
    /// Every link, parents before children. The root link(s) are the children of no joint; a
    /// link named `world` in a URDF is the world and not listed (its joints' `parent` is `None`).
    pub links: Vec<RobotLink>,
    /// One per non-root link, parents' joints before children's.
    pub joints: Vec<RobotJoint>,
    /// Collision geometry fixed to the world itself, in the world frame (MJCF geoms directly in
    /// `<worldbody>`: floors as half spaces, walls, rails). In `excludes` the world is `world`.
    pub world_collisions: Vec<Geometry>,
    pub actuators: Vec<RobotActuator>,
    pub couplers: Vec<RobotCoupler>,
    /// Pairs of links that never touch (MJCF `<contact><exclude>`, pairs whose
    /// `contype`/`conaffinity` never match, and MuJoCo's weld-group and parent filters).
    pub excludes: Vec<(String, String)>,
    /// Named initial states (MJCF `<keyframe><key>`).
    pub keyframes: Vec<Keyframe>,
    /// One line per kind of thing skipped (visual geometry, sensors, transmissions, …), for
    /// `inspect` and the scene's warnings.
    pub notes: Vec<String>,
    /// Things read but probably not meant (e.g. a missing visual mesh).
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RobotLink {
    pub name: String,
    /// kg, ≥ 0 (0: a massless link, merged into its parent when on a fixed joint).
    pub mass: f64,
    /// The centre of mass in the link frame.
    pub center_of_mass: Point3,
    /// The inertia tensor about the centre of mass, link-frame axes (symmetric).
    pub inertia: Matrix3,
    /// Collision geometry, each placed in the link frame (none: the link touches nothing).
    pub collisions: Vec<Geometry>,
    /// Where in the file the link is (for errors after reading).
    pub line: u32,
}

/// One collision shape of a link.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// The geometry's name in the file, if it has one.
    pub name: Option<String>,
    /// Meshes are loaded (`Shape::Mesh` for closed surfaces; `Shape::Convex` where the file asks
    /// for a convex hull, as MJCF mesh geoms do); scale applied.
    pub shape: Shape,
    /// The shape's frame in the link frame (cylinders and capsules along z, as ours are).
    pub pose: Isometry3,
    /// Coulomb friction from the file (MJCF `friction`'s first value), if given.
    pub friction: Option<f64>,
}

/// The joint types of robot files, in ours: URDF continuous → revolute without limits,
/// floating → free, MJCF hinge → revolute, slide → prismatic.
pub use super::super::mechanism::JointType;

#[derive(Clone, Debug, PartialEq)]
pub struct RobotJoint {
    pub name: String,
    pub joint_type: JointType,
    /// The parent link; `None`: the world.
    pub parent: Option<String>,
    pub child: String,
    /// The joint frame in the parent link's frame; the child's link frame is the joint frame
    /// moved by the joint coordinate (URDF's convention; MJCF bodies are converted to it).
    pub origin: Isometry3,
    /// Revolute / prismatic: the unit axis in the joint frame; zero otherwise.
    pub axis: Vector3,
    /// Revolute / prismatic: (lo, hi) when limited.
    pub limits: Option<(f64, f64)>,
    pub damping: f64,
    /// Coulomb joint friction (URDF `dynamics friction`, MJCF `frictionloss`), N or N·m.
    pub friction: f64,
    pub armature: f64,
    pub stiffness: f64,
    pub spring_reference: f64,
    /// The initial coordinate, revolute / prismatic only. MJCF: the joint's `ref`, since the
    /// reader keeps MuJoCo's coordinates (at q = ref the body is where the file draws it).
    pub position: f64,
    /// URDF `limit effort` / MJCF joint `actuatorfrcrange`: a bound on any actuator's effort.
    pub effort_limit: Option<f64>,
    pub line: u32,
}

/// An actuator from the file (MJCF `<actuator>`; URDF has none — transmissions are skipped).
#[derive(Clone, Debug, PartialEq)]
pub struct RobotActuator {
    pub name: String,
    pub joint: String,
    pub kind: super::super::mechanism::ActuatorKind,
    /// Symmetric clamp on the effort on the joint (MJCF: |gear|·`forcerange` and, for a motor,
    /// |gear·gain|·`ctrlrange`, the smaller).
    pub effort_limit: Option<f64>,
    pub line: u32,
}

/// q_joint = ratio·q_follows + offset (URDF `mimic`, MJCF `<equality><joint>` with polycoef
/// [offset, ratio, 0, 0, 0]).
#[derive(Clone, Debug, PartialEq)]
pub struct RobotCoupler {
    pub joint: String,
    pub follows: String,
    pub ratio: f64,
    pub offset: f64,
    pub line: u32,
}

/// A named initial state: joint name → coordinates (1 for revolute / prismatic, 4 ball, 7 free;
/// a free joint's relative to its origin).
#[derive(Clone, Debug, PartialEq)]
pub struct Keyframe {
    pub name: String,
    pub positions: Vec<(String, Vec<f64>)>,
    pub velocities: Vec<(String, Vec<f64>)>,
}
