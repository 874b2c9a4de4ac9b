//! Rigid bodies: mass properties and how each body moves (free, fixed or kinematic).

use crate::math::{Isometry3, Matrix3, Point3, Translation3, Twist, UnitQuaternion, Vector3};

/// A prescribed motion.
#[derive(Clone, Debug, PartialEq)]
pub enum KinematicMotion {
    /// Constant twist (world frame, linear velocity of the body-frame origin) from a pose at t = 0.
    Constant { start: Isometry3, twist: Twist },
    /// Poses at strictly increasing times: positions interpolated linearly, orientations by
    /// slerp; held before the first and after the last.
    Keyframes(Vec<(f64, Isometry3)>),
}

impl KinematicMotion {
    /// The pose of the body frame and its twist (linear velocity of the body-frame origin) at t.
    pub fn at(&self, t: f64) -> (Isometry3, Twist) {
        match self {
            KinematicMotion::Constant { start, twist } => {
                let rotation = UnitQuaternion::from_scaled_axis(twist.angular * t) * start.rotation;
                let translation = start.translation.vector + twist.linear * t;
                (Isometry3::from_parts(Translation3::from(translation), rotation), *twist)
            }
            KinematicMotion::Keyframes(frames) => {
                let (first, last) = (&frames[0], &frames[frames.len() - 1]);
                if t <= first.0 || frames.len() == 1 {
                    return (first.1, Twist::default());
                }
                if t >= last.0 {
                    return (last.1, Twist::default());
                }
                let k = frames.partition_point(|f| f.0 <= t).clamp(1, frames.len() - 1);
                let ((t0, p0), (t1, p1)) = (&frames[k - 1], &frames[k]);
                let s = (t - t0) / (t1 - t0);
                let translation = p0.translation.vector.lerp(&p1.translation.vector, s);
                let rotation = p0.rotation.slerp(&p1.rotation, s);
                let linear = (p1.translation.vector - p0.translation.vector) / (t1 - t0);
                let delta = p1.rotation * p0.rotation.inverse();
                let angular = delta.scaled_axis() / (t1 - t0);
                (Isometry3::from_parts(Translation3::from(translation), rotation), Twist { linear, angular })
            }
        }
    }
}

/// How a body moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// Moved by forces.
    Free,
    /// Never moves.
    Fixed,
    /// Follows a prescribed motion whatever the forces.
    Kinematic(KinematicMotion),
    /// Link k of the world's mechanism: moves with its joint coordinates.
    Link(usize),
}

/// A rigid body of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidBody {
    pub name: String,
    pub motion: Motion,
    /// Mass (kg); meaningful for free bodies.
    pub mass: f64,
    /// Centre of mass in the body frame.
    pub com: Point3,
    /// Inertia tensor about the centre of mass, body axes (kg·m²).
    pub inertia: Matrix3,
    /// Constant applied force at the centre of mass (N, world frame).
    pub force: Vector3,
    /// Constant applied torque (N·m, world frame).
    pub torque: Vector3,
    /// Pose of the body frame and twist (linear velocity of the body-frame origin) at t = 0.
    pub initial_pose: Isometry3,
    pub initial_twist: Twist,
}

impl RigidBody {
    pub fn is_free(&self) -> bool {
        matches!(self.motion, Motion::Free)
    }
}
