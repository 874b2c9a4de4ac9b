//! Mechanisms in joint coordinates: kinematic trees of links on joints, with their mass matrix
//! (composite rigid bodies), bias forces and inverse dynamics (recursive Newton–Euler), the
//! tree-sparse factorisation of the mass matrix, and point Jacobians.

mod crba;
mod factor;
mod joint;
mod rnea;
pub mod spatial;
mod tree;

pub use factor::{SingularMass, TreeFactor};
pub use joint::{JointKind, quaternion};
pub use tree::{Articulation, DEFAULT_FRICTION_SPEED, Joint, Kinematics, Link, NONE};

use crate::math::Vector3;
use nalgebra::{DVector, Vector6};

impl Articulation {
    /// Forward dynamics: the accelerations under generalized forces `tau` (joint springs,
    /// damping and actuators already in it), gravity and external link forces.
    pub fn accelerations(
        &self,
        kin: &Kinematics,
        v: &[f64],
        tau: &[f64],
        gravity: &Vector3,
        external: Option<&[Vector6<f64>]>,
    ) -> Result<DVector<f64>, SingularMass> {
        let bias = self.inverse_dynamics(kin, v, None, gravity, external);
        let mut a = DVector::from_column_slice(tau) - bias;
        self.factor(kin)?.solve(a.as_mut_slice());
        Ok(a)
    }

    /// The mass matrix's tree-sparse factors.
    pub fn factor(&self, kin: &Kinematics) -> Result<TreeFactor, SingularMass> {
        TreeFactor::new(self.mass_matrix(kin), &self.dof_parent)
    }

    /// Kinetic energy ½·vᵀ·M·v (armature included).
    pub fn kinetic_energy(&self, kin: &Kinematics, v: &[f64]) -> f64 {
        let mut energy = 0.0;
        for (k, joint) in self.joints.iter().enumerate() {
            let twist = kin.velocity[k];
            energy += 0.5 * twist.dot(&self.inertia[k].times(&twist));
            energy += 0.5 * joint.armature * self.joint_v(k, v).iter().map(|x| x * x).sum::<f64>();
        }
        energy
    }

    /// Gravitational potential energy −Σ m·g·c (zero at the world origin).
    pub fn potential_energy(&self, kin: &Kinematics, gravity: &Vector3) -> f64 {
        self.coms(kin).iter().zip(&self.links).map(|(c, l)| -l.mass * gravity.dot(&c.coords)).sum()
    }
}

#[cfg(test)]
mod tests;
