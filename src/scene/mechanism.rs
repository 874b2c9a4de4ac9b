//! Articulated mechanisms as a scene describes them: joints (`[[joint]]`), actuators
//! (`[[actuator]]`), couplers (`[[coupler]]`), contact exclusions (`[[exclude]]`), and a body's
//! inertia as given. Validated values only; the dynamics is built from them elsewhere.

pub use crate::dynamics::mechanism::{ActuatorKind, Schedule};
use crate::math::{Isometry3, Matrix3, Vector3};
use serde::Deserialize;

/// The kind of a joint (`type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JointType {
    /// No relative motion.
    Fixed,
    /// A rotation about `axis` (one coordinate, rad).
    Revolute,
    /// A translation along `axis` (one coordinate, m).
    Prismatic,
    /// Any rotation about the joint origin (a unit quaternion).
    Ball,
    /// Any pose (a floating base: position and unit quaternion).
    Free,
}

impl JointType {
    /// The spelling in a scene file.
    pub fn key(self) -> &'static str {
        match self {
            JointType::Fixed => "fixed",
            JointType::Revolute => "revolute",
            JointType::Prismatic => "prismatic",
            JointType::Ball => "ball",
            JointType::Free => "free",
        }
    }

    /// Revolute and prismatic joints: one coordinate along an axis.
    pub fn is_single_dof(self) -> bool {
        matches!(self, JointType::Revolute | JointType::Prismatic)
    }

    /// The length of [`JointSpec::position`]: 0, 1, 4 (ball: [w, x, y, z]) or 7 (free).
    pub fn position_len(self) -> usize {
        match self {
            JointType::Fixed => 0,
            JointType::Revolute | JointType::Prismatic => 1,
            JointType::Ball => 4,
            JointType::Free => 7,
        }
    }

    /// The length of [`JointSpec::velocity`] (the degrees of freedom): 0, 1, 3 or 6.
    pub fn velocity_len(self) -> usize {
        match self {
            JointType::Fixed => 0,
            JointType::Revolute | JointType::Prismatic => 1,
            JointType::Ball => 3,
            JointType::Free => 6,
        }
    }
}

/// One `[[joint]]`, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct JointSpec {
    /// Unique among joints, non-empty.
    pub name: String,
    pub joint_type: JointType,
    /// The parent body; `None`: the world.
    pub parent: Option<String>,
    /// The child body (the child of no other joint).
    pub child: String,
    /// The joint frame in the parent's body frame (the world frame for the world). The child's
    /// body frame coincides with the joint frame at the zero coordinate.
    pub origin: Isometry3,
    /// Revolute / prismatic: the unit axis in the joint frame; zero for the other types.
    pub axis: Vector3,
    /// Initial coordinates: `[]` fixed, `[q]` revolute / prismatic, [w, x, y, z] ball (normalised),
    /// [x, y, z, w, qx, qy, qz] free (the quaternion normalised). A coupled joint's is
    /// `ratio · q_follows + offset`.
    pub position: Vec<f64>,
    /// Initial velocities: `[]` fixed, `[v]` revolute / prismatic, [wx, wy, wz] ball (child frame),
    /// [vx, vy, vz, wx, wy, wz] free (linear: of the child origin in the parent frame; angular:
    /// child frame). A coupled joint's is `ratio · v_follows`.
    pub velocity: Vec<f64>,
    /// Revolute / prismatic: `(lo, hi)`, lo ≤ hi, finite.
    pub limits: Option<(f64, f64)>,
    /// Viscous damping (N·s/m or N·m·s/rad), ≥ 0, on every velocity component. Default 0.
    pub damping: f64,
    /// Armature (reflected rotor inertia, kg·m² or kg), ≥ 0. Default 0.
    pub armature: f64,
    /// Revolute / prismatic: spring stiffness (N/m or N·m/rad), ≥ 0. Default 0.
    pub stiffness: f64,
    /// Revolute / prismatic: the spring's rest coordinate. Default 0.
    pub spring_reference: f64,
    /// Revolute / prismatic: Coulomb friction (N or N·m), ≥ 0, regularized below
    /// `friction_speed`. Default 0.
    pub friction: f64,
    /// The speed (m/s or rad/s, > 0) below which friction acts as viscous damping
    /// `friction / friction_speed`. Default 1e-3.
    pub friction_speed: f64,
}

/// One `[[actuator]]`, validated: it drives a revolute or prismatic joint.
#[derive(Clone, Debug, PartialEq)]
pub struct ActuatorSpec {
    /// Unique among actuators, non-empty.
    pub name: String,
    /// The joint it drives (revolute or prismatic, not a coupled follower).
    pub joint: String,
    pub kind: ActuatorKind,
    /// A symmetric clamp (> 0) on the actuator's effort; `None`: unlimited.
    pub effort_limit: Option<f64>,
}

/// One `[[coupler]]`: `q_joint = ratio · q_follows + offset` (both revolute or both prismatic).
#[derive(Clone, Debug, PartialEq)]
pub struct CouplerSpec {
    /// The follower (coupled at most once, no actuator).
    pub joint: String,
    /// The leader (not itself a follower).
    pub follows: String,
    /// Finite, nonzero. Default 1.
    pub ratio: f64,
    /// Default 0.
    pub offset: f64,
}

/// One `[[exclude]]`: bodies `a` and `b` never touch.
#[derive(Clone, Debug, PartialEq)]
pub struct ExcludeSpec {
    pub a: String,
    pub b: String,
}

/// A body's inertia tensor (kg·m², body-frame axes) as the scene gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum InertiaSpec {
    /// About the body-frame origin (`inertia` without `center_of_mass`); the centre of mass is
    /// the shape's centroid.
    AboutOrigin(Matrix3),
    /// About the centre of mass (`inertia` with `center_of_mass`).
    AboutCenterOfMass(Matrix3),
}

impl InertiaSpec {
    /// The tensor as given.
    pub fn tensor(&self) -> &Matrix3 {
        match self {
            InertiaSpec::AboutOrigin(m) | InertiaSpec::AboutCenterOfMass(m) => m,
        }
    }
}
