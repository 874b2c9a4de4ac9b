//! A free body's block of the state: its centre of mass (3), orientation quaternion w, x, y, z
//! (4), centre-of-mass velocity (3) and angular velocity in the world frame (3). The block is
//! read and written through these accessors only; no solver indexes the numbers itself.

use crate::math::{Isometry3, Matrix3, Point3, Quaternion, Translation3, Twist, UnitQuaternion, Vector3};
use nalgebra::Vector6;

/// Where one free body's numbers sit in the state vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeBlock {
    /// The body's index in the world.
    pub body: usize,
    offset: usize,
}

#[inline(always)]
fn vector(y: &[f64], at: usize) -> Vector3 {
    Vector3::new(y[at], y[at + 1], y[at + 2])
}

#[inline(always)]
fn set_vector(y: &mut [f64], at: usize, v: &Vector3) {
    y[at..at + 3].copy_from_slice(v.as_slice());
}

impl FreeBlock {
    /// Numbers per free body.
    pub const LEN: usize = 13;
    const ORIENTATION: usize = 3;
    const VELOCITY: usize = 7;
    const ANGULAR_VELOCITY: usize = 10;

    pub(super) fn new(body: usize, offset: usize) -> FreeBlock {
        FreeBlock { body, offset }
    }

    /// The block's numbers.
    pub fn values<'y>(&self, y: &'y [f64]) -> &'y [f64] {
        &y[self.offset..self.offset + Self::LEN]
    }

    /// Centre of mass (world).
    #[inline(always)]
    pub fn com(&self, y: &[f64]) -> Vector3 {
        vector(y, self.offset)
    }

    /// The orientation as stored (unit up to the integrator's drift).
    #[inline(always)]
    pub fn quaternion(&self, y: &[f64]) -> Quaternion {
        let o = self.offset + Self::ORIENTATION;
        Quaternion::new(y[o], y[o + 1], y[o + 2], y[o + 3])
    }

    /// The orientation, normalised.
    #[inline(always)]
    pub fn orientation(&self, y: &[f64]) -> UnitQuaternion {
        UnitQuaternion::new_normalize(self.quaternion(y))
    }

    /// Velocity of the centre of mass (world).
    #[inline(always)]
    pub fn velocity(&self, y: &[f64]) -> Vector3 {
        vector(y, self.offset + Self::VELOCITY)
    }

    /// Angular velocity (world).
    #[inline(always)]
    pub fn angular_velocity(&self, y: &[f64]) -> Vector3 {
        vector(y, self.offset + Self::ANGULAR_VELOCITY)
    }

    #[inline(always)]
    pub fn set_com(&self, y: &mut [f64], com: &Vector3) {
        set_vector(y, self.offset, com);
    }

    #[inline(always)]
    pub fn set_quaternion(&self, y: &mut [f64], q: &Quaternion) {
        let o = self.offset + Self::ORIENTATION;
        y[o..o + 4].copy_from_slice(&[q.w, q.i, q.j, q.k]);
    }

    #[inline(always)]
    pub fn set_velocity(&self, y: &mut [f64], v: &Vector3) {
        set_vector(y, self.offset + Self::VELOCITY, v);
    }

    #[inline(always)]
    pub fn set_angular_velocity(&self, y: &mut [f64], w: &Vector3) {
        set_vector(y, self.offset + Self::ANGULAR_VELOCITY, w);
    }

    /// The pose of the body frame and its twist (linear velocity of the body-frame origin), for
    /// a body whose centre of mass sits at `com_local` in its frame.
    #[inline(always)]
    pub fn pose_and_twist(&self, y: &[f64], com_local: &Point3) -> (Isometry3, Twist) {
        let q = self.orientation(y);
        let (v, w) = (self.velocity(y), self.angular_velocity(y));
        let r = q * com_local.coords;
        let pose = Isometry3::from_parts(Translation3::from(self.com(y) - r), q);
        (pose, Twist { linear: v - w.cross(&r), angular: w })
    }

    /// The pose of the body frame (see [`FreeBlock::pose_and_twist`]).
    #[inline(always)]
    pub fn pose(&self, y: &[f64], com_local: &Point3) -> Isometry3 {
        let q = self.orientation(y);
        Isometry3::from_parts(Translation3::from(self.com(y) - q * com_local.coords), q)
    }

    /// Writes the body at `pose` moving with `twist` (of the body-frame origin, world frame).
    pub fn set_pose_and_twist(&self, y: &mut [f64], com_local: &Point3, pose: &Isometry3, twist: &Twist) {
        let r = pose.rotation * com_local.coords;
        self.set_com(y, &(pose.translation.vector + r));
        self.set_quaternion(y, pose.rotation.quaternion());
        self.set_velocity(y, &(twist.linear + twist.angular.cross(&r)));
        self.set_angular_velocity(y, &twist.angular);
    }

    /// The inertia tensor about the centre of mass in world axes, from the body-frame one.
    #[inline(always)]
    pub fn world_inertia(&self, y: &[f64], body_inertia: &Matrix3) -> Matrix3 {
        let r = self.orientation(y).to_rotation_matrix();
        r.matrix() * body_inertia * r.matrix().transpose()
    }

    /// The pose a step of `dt` reaches from state `from` moving at centre-of-mass velocity `v`
    /// and angular velocity `w` (world): x + dt·v and exp(ω·dt) ⊗ q (the stored quaternion
    /// normalised first). Returns (centre of mass, orientation) for [`FreeBlock::set_com`] and
    /// [`FreeBlock::set_quaternion`].
    #[inline(always)]
    pub fn advanced_pose(&self, from: &[f64], v: &Vector3, w: &Vector3, dt: f64) -> (Vector3, Quaternion) {
        let com = self.com(from) + v * dt;
        let q = (UnitQuaternion::from_scaled_axis(w * dt) * self.orientation(from)).into_inner();
        (com, q)
    }

    /// Scales the stored quaternion back to unit length (when finite and non-zero).
    pub fn normalize(&self, y: &mut [f64]) {
        let o = self.offset + Self::ORIENTATION;
        let n = (y[o..o + 4].iter().map(|x| x * x).sum::<f64>()).sqrt();
        if n > 0.0 && n.is_finite() {
            y[o..o + 4].iter_mut().for_each(|x| *x /= n);
        }
    }

    /// Whether every number of the block is finite.
    #[inline(always)]
    pub fn is_finite(&self, y: &[f64]) -> bool {
        self.values(y).iter().all(|x| x.is_finite())
    }
}

/// A free body's inverse mass matrix M⁻¹ = diag(1/m, I⁻¹) (world inertia about the centre of
/// mass), for the velocity change an impulse makes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InverseMass {
    /// 1/m (1/kg).
    pub linear: f64,
    /// I⁻¹ in the world frame (zero for a singular inertia).
    pub angular: Matrix3,
}

impl InverseMass {
    /// From the mass and the world inertia about the centre of mass.
    pub fn new(mass: f64, world_inertia: &Matrix3) -> InverseMass {
        InverseMass {
            linear: 1.0 / mass,
            angular: world_inertia.try_inverse().unwrap_or_else(Matrix3::zeros),
        }
    }

    /// M⁻¹·j for a generalized force (or impulse) j = (force, torque about the centre of mass).
    pub fn times(&self, j: &Vector6<f64>) -> Vector6<f64> {
        let lin = self.linear * Vector3::new(j[0], j[1], j[2]);
        let ang = self.angular * Vector3::new(j[3], j[4], j[5]);
        Vector6::new(lin.x, lin.y, lin.z, ang.x, ang.y, ang.z)
    }
}
