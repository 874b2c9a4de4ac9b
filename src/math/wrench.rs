use super::types::{Isometry3, Point3, Vector3};
use std::ops::{Add, AddAssign, Neg};

/// A force and a torque about a stated point (the point is implied by context; contactlab
/// reports torques about the world origin unless a field says otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Wrench {
    pub force: Vector3,
    pub torque: Vector3,
}

impl Wrench {
    pub fn zero() -> Self {
        Self::default()
    }

    /// The wrench of a force `force` applied at `point`, torque about the origin.
    #[inline]
    pub fn at_point(point: &Point3, force: Vector3) -> Self {
        Self { force, torque: point.coords.cross(&force) }
    }

    /// Re-express a wrench given in frame F (torque about F's origin) in the parent frame of
    /// `pose` = X_WF (torque about the parent's origin).
    pub fn transformed(&self, pose: &Isometry3) -> Self {
        let force = pose.rotation * self.force;
        let torque = pose.rotation * self.torque + pose.translation.vector.cross(&force);
        Self { force, torque }
    }

    /// The torque about `point` instead of about the origin.
    pub fn torque_about(&self, point: &Point3) -> Vector3 {
        self.torque - point.coords.cross(&self.force)
    }
}

impl Add for Wrench {
    type Output = Wrench;
    fn add(self, o: Wrench) -> Wrench {
        Wrench { force: self.force + o.force, torque: self.torque + o.torque }
    }
}

impl AddAssign for Wrench {
    fn add_assign(&mut self, o: Wrench) {
        self.force += o.force;
        self.torque += o.torque;
    }
}

impl Neg for Wrench {
    type Output = Wrench;
    fn neg(self) -> Wrench {
        Wrench { force: -self.force, torque: -self.torque }
    }
}

/// A rigid body's velocity: linear velocity of the body-frame origin and angular velocity,
/// both in the world frame.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Twist {
    pub linear: Vector3,
    pub angular: Vector3,
}

impl Twist {
    /// Velocity of the material point currently at world point `x` of a body whose origin is at
    /// `origin`.
    #[inline]
    pub fn velocity_at(&self, origin: &Point3, x: &Point3) -> Vector3 {
        self.linear + self.angular.cross(&(x - origin))
    }
}
