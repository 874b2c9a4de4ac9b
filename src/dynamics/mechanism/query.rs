//! Questions a user asks of a mechanism at a state (the Python package's joint-space API): joint
//! and actuator names, the mass matrix, bias, gravity and inverse-dynamics forces, point
//! Jacobians and every link's pose. Full coordinates: couplers are not applied (a follower is a
//! coordinate like any other).

use super::Mechanism;
use crate::math::{Isometry3, Point3, Vector3};
use nalgebra::{DMatrix, DVector};

impl Mechanism {
    /// The joints with coordinates (every joint but the fixed ones), in the articulation's order
    /// — that of q and v: `(joint index, name)`.
    pub fn moving_joints(&self) -> impl Iterator<Item = (usize, &str)> {
        self.articulation
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.kind.nq() > 0)
            .map(|(k, j)| (k, &*j.name))
    }

    /// The index of the joint called `name`.
    pub fn joint_named(&self, name: &str) -> Option<usize> {
        self.articulation.joints.iter().position(|j| j.name == name)
    }

    /// The index of the actuator called `name`.
    pub fn actuator_named(&self, name: &str) -> Option<usize> {
        self.actuators.iter().position(|a| a.name == name)
    }

    /// M(q) at state `y` (nv × nv, armature included).
    pub fn mass_matrix_at(&self, y: &[f64]) -> DMatrix<f64> {
        self.articulation.mass_matrix(&self.kinematics(y))
    }

    /// The bias forces b(q, v) at state `y` under `gravity`: Coriolis, centrifugal and gravity
    /// terms (the generalized forces that hold every acceleration at zero; joint springs,
    /// damping and actuators not included).
    pub fn bias_forces_at(&self, y: &[f64], gravity: &Vector3) -> DVector<f64> {
        self.inverse_dynamics_at(y, None, gravity)
    }

    /// The gravity forces g(q) at state `y`: the bias forces at v = 0.
    pub fn gravity_forces_at(&self, y: &[f64], gravity: &Vector3) -> DVector<f64> {
        let zero = vec![0.0; self.articulation.nv()];
        let kin = self.articulation.kinematics(self.q(y), &zero);
        self.articulation.inverse_dynamics(&kin, &zero, None, gravity, None)
    }

    /// τ = M(q)·a + b(q, v) at state `y` (armature included; `None`: a = 0, the bias forces).
    /// `a` has nv entries.
    pub fn inverse_dynamics_at(&self, y: &[f64], a: Option<&[f64]>, gravity: &Vector3) -> DVector<f64> {
        let kin = self.kinematics(y);
        let mut tau = self.articulation.inverse_dynamics(&kin, self.v(y), a, gravity, None);
        if let Some(a) = a {
            for (k, joint) in self.articulation.joints.iter().enumerate() {
                let at = self.articulation.offsets(k).1;
                for d in at..at + joint.kind.nv() {
                    tau[d] += joint.armature * a[d];
                }
            }
        }
        tau
    }

    /// The Jacobian at state `y` of the point `point` (world frame) fixed in world body `body`'s
    /// link: 6 × nv, rows the point's velocity (3) then the link's angular velocity (3), world
    /// frame. `None` when the body is not a link.
    pub fn point_jacobian_at(&self, y: &[f64], body: usize, point: &Point3) -> Option<DMatrix<f64>> {
        let link = self.link(body)?;
        Some(self.articulation.point_jacobian(&self.kinematics(y), link, point))
    }

    /// Every link's body frame in the world at state `y`: `(world body, pose)`, links in order.
    pub fn link_poses(&self, y: &[f64]) -> Vec<(usize, Isometry3)> {
        let kin = self.kinematics(y);
        self.articulation.links.iter().zip(&kin.pose).map(|(link, pose)| (link.body, *pose)).collect()
    }
}
