//! Recursive Newton–Euler: the generalized forces that give accelerations `a` at coordinates
//! `q`, velocities `v`, under gravity and external link forces (inverse dynamics); with a = 0,
//! the bias forces (Coriolis, centrifugal, gravity, external) that forward dynamics subtracts.

use super::spatial::{cross_force, cross_motion_times, stack};
use super::tree::{Articulation, Kinematics, NONE};
use crate::math::Vector3;
use nalgebra::{DVector, Vector6};

impl Articulation {
    /// τ = M(q)·a + b(q, v) − Jᵀ·f_ext: `external[k]` is a force [n; f] on link k in its own
    /// frame (moment about its origin). Joint springs, damping and armature are not included
    /// (armature's term is added by the caller as `armature·a`).
    pub fn inverse_dynamics(
        &self,
        kin: &Kinematics,
        v: &[f64],
        a: Option<&[f64]>,
        gravity: &Vector3,
        external: Option<&[Vector6<f64>]>,
    ) -> DVector<f64> {
        let n = self.joints.len();
        let base = stack(&Vector3::zeros(), &(-gravity));
        let mut acc: Vec<Vector6<f64>> = Vec::with_capacity(n);
        let mut force: Vec<Vector6<f64>> = Vec::with_capacity(n);
        for (k, joint) in self.joints.iter().enumerate() {
            let vj = joint.kind.motion(self.joint_v(k, v));
            let mut ak = kin.up[k].motion(if joint.parent == NONE { &base } else { &acc[joint.parent] });
            if let Some(a) = a {
                ak += joint.kind.motion(self.joint_v(k, a));
            }
            // S is constant in the child's frame: the joint's acceleration term is v × S·q̇.
            ak += cross_motion_times(&kin.velocity[k], &vj);
            let vk = kin.velocity[k];
            let mut fk = self.inertia[k].times(&ak) + cross_force(&vk, &self.inertia[k].times(&vk));
            if let Some(ext) = external {
                fk -= ext[k];
            }
            acc.push(ak);
            force.push(fk);
        }
        let mut tau = DVector::zeros(self.nv());
        for k in (0..n).rev() {
            let joint = &self.joints[k];
            let at = self.v_at[k];
            for d in 0..joint.kind.nv() {
                tau[at + d] = joint.kind.subspace(d).dot(&force[k]);
            }
            if joint.parent != NONE {
                let up = kin.up[k].force_up(&force[k]);
                force[joint.parent] += up;
            }
        }
        tau
    }
}
