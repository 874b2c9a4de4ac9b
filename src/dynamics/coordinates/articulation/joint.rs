//! Joints: how a child's frame moves in its joint frame with the joint's coordinates q and
//! velocities v. A revolute joint turns about its axis by q (rad), a prismatic one slides
//! along it by q (m); a ball joint's q is a unit quaternion [w, x, y, z] and its v the child's
//! angular velocity in the child's frame; a free joint's q is the child origin's position in
//! the joint frame then its orientation [x, y, z, w, qx, qy, qz], and its v the child's twist
//! in the child's frame [ω; v]. Velocities are body-frame, so every joint's motion subspace S is
//! constant in the child's frame.

use super::spatial::stack;
use crate::math::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};
use nalgebra::{Unit, Vector6};

/// A joint's type, with its axis (unit, in the joint frame) where it has one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    Fixed,
    Revolute(Unit<Vector3>),
    Prismatic(Unit<Vector3>),
    Ball,
    Free,
}

impl JointKind {
    /// The number of position coordinates.
    pub fn nq(&self) -> usize {
        match self {
            JointKind::Fixed => 0,
            JointKind::Revolute(_) | JointKind::Prismatic(_) => 1,
            JointKind::Ball => 4,
            JointKind::Free => 7,
        }
    }

    /// The number of velocity coordinates (degrees of freedom).
    pub fn nv(&self) -> usize {
        match self {
            JointKind::Fixed => 0,
            JointKind::Revolute(_) | JointKind::Prismatic(_) => 1,
            JointKind::Ball => 3,
            JointKind::Free => 6,
        }
    }

    /// The neutral coordinates (zero angle or travel, identity orientation).
    pub fn neutral(&self) -> Vec<f64> {
        match self {
            JointKind::Fixed => vec![],
            JointKind::Revolute(_) | JointKind::Prismatic(_) => vec![0.0],
            JointKind::Ball => vec![1.0, 0.0, 0.0, 0.0],
            JointKind::Free => vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        }
    }

    /// The child's frame in the joint frame at coordinates `q` (quaternions normalised).
    pub fn transform(&self, q: &[f64]) -> Isometry3 {
        match self {
            JointKind::Fixed => Isometry3::identity(),
            JointKind::Revolute(axis) => {
                Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_axis_angle(axis, q[0]))
            }
            JointKind::Prismatic(axis) => Isometry3::from_parts(
                Translation3::from(axis.into_inner() * q[0]),
                UnitQuaternion::identity(),
            ),
            JointKind::Ball => Isometry3::from_parts(Translation3::identity(), quaternion(&q[0..4])),
            JointKind::Free => {
                Isometry3::from_parts(Translation3::new(q[0], q[1], q[2]), quaternion(&q[3..7]))
            }
        }
    }

    /// Column `k` of the motion subspace S (child frame): the child's twist per unit of `v[k]`.
    pub fn subspace(&self, k: usize) -> Vector6<f64> {
        let mut s = Vector6::zeros();
        match self {
            JointKind::Fixed => unreachable!("a fixed joint has no degrees of freedom"),
            JointKind::Revolute(axis) => return stack(axis, &Vector3::zeros()),
            JointKind::Prismatic(axis) => return stack(&Vector3::zeros(), axis),
            JointKind::Ball | JointKind::Free => s[k] = 1.0,
        }
        s
    }

    /// S·v: the child's twist relative to the joint frame, in the child's frame.
    pub fn motion(&self, v: &[f64]) -> Vector6<f64> {
        match self {
            JointKind::Fixed => Vector6::zeros(),
            JointKind::Revolute(_) | JointKind::Prismatic(_) => self.subspace(0) * v[0],
            JointKind::Ball => Vector6::new(v[0], v[1], v[2], 0.0, 0.0, 0.0),
            JointKind::Free => Vector6::from_column_slice(&v[0..6]),
        }
    }

    /// The coordinates' rate dq/dt at velocities `v` (for the adaptive integrators).
    pub fn rate(&self, q: &[f64], v: &[f64], dq: &mut [f64]) {
        match self {
            JointKind::Fixed => {}
            JointKind::Revolute(_) | JointKind::Prismatic(_) => dq[0] = v[0],
            JointKind::Ball => quaternion_rate(&q[0..4], &Vector3::new(v[0], v[1], v[2]), &mut dq[0..4]),
            JointKind::Free => {
                let linear = quaternion(&q[3..7]) * Vector3::new(v[3], v[4], v[5]);
                dq[0..3].copy_from_slice(linear.as_slice());
                quaternion_rate(&q[3..7], &Vector3::new(v[0], v[1], v[2]), &mut dq[3..7]);
            }
        }
    }

    /// q ⊕ dt·v (the fixed-step schemes): angles and travel add; orientations turn by the
    /// body-frame rotation vector dt·ω; a free joint's origin moves by dt·v turned to the joint
    /// frame at the new orientation (the order semi-implicit Euler uses for a free body).
    pub fn advance(&self, q: &[f64], v: &[f64], dt: f64, out: &mut [f64]) {
        match self {
            JointKind::Fixed => {}
            JointKind::Revolute(_) | JointKind::Prismatic(_) => out[0] = q[0] + dt * v[0],
            JointKind::Ball => {
                let turned = quaternion(&q[0..4])
                    * UnitQuaternion::from_scaled_axis(Vector3::new(v[0], v[1], v[2]) * dt);
                set_quaternion(&turned, &mut out[0..4]);
            }
            JointKind::Free => {
                let turned = quaternion(&q[3..7])
                    * UnitQuaternion::from_scaled_axis(Vector3::new(v[0], v[1], v[2]) * dt);
                let moved = Vector3::new(q[0], q[1], q[2]) + turned * Vector3::new(v[3], v[4], v[5]) * dt;
                out[0..3].copy_from_slice(moved.as_slice());
                set_quaternion(&turned, &mut out[3..7]);
            }
        }
    }

    /// Whether the joint has one degree of freedom with a scalar coordinate.
    pub fn is_scalar(&self) -> bool {
        matches!(self, JointKind::Revolute(_) | JointKind::Prismatic(_))
    }

    /// The name a scene gives the type.
    pub fn key(&self) -> &'static str {
        match self {
            JointKind::Fixed => "fixed",
            JointKind::Revolute(_) => "revolute",
            JointKind::Prismatic(_) => "prismatic",
            JointKind::Ball => "ball",
            JointKind::Free => "free",
        }
    }
}

/// The unit quaternion of stored coordinates [w, x, y, z] (normalised: integrators drift).
pub fn quaternion(q: &[f64]) -> UnitQuaternion {
    UnitQuaternion::new_normalize(Quaternion::new(q[0], q[1], q[2], q[3]))
}

fn set_quaternion(q: &UnitQuaternion, out: &mut [f64]) {
    out.copy_from_slice(&[q.w, q.i, q.j, q.k]);
}

/// d/dt of a quaternion turning at body-frame rate ω: ½·q⊗(0, ω).
fn quaternion_rate(q: &[f64], omega: &Vector3, out: &mut [f64]) {
    let q = Quaternion::new(q[0], q[1], q[2], q[3]);
    let rate = q * Quaternion::new(0.0, omega.x, omega.y, omega.z) * 0.5;
    out.copy_from_slice(&[rate.w, rate.i, rate.j, rate.k]);
}
