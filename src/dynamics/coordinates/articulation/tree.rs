//! A forest of links on joints in joint coordinates: topology, forward kinematics and
//! Jacobians. Link k is the child of joint k; a joint's parent link comes before it, so one
//! pass in order visits parents first and one in reverse visits children first.

use super::joint::JointKind;
use super::spatial::{RigidInertia, Transform, lower, stack, upper};
use crate::math::{Isometry3, Matrix3, Point3, Vector3};
use nalgebra::{DMatrix, Vector6};

/// No parent (the world) / no parent degree of freedom.
pub const NONE: usize = usize::MAX;

/// A joint and its passive properties.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub name: String,
    pub kind: JointKind,
    /// The parent link ([`NONE`]: the world).
    pub parent: usize,
    /// The joint frame in the parent link's frame (the world's for a root).
    pub origin: Isometry3,
    /// Viscous damping on every velocity component (N·s/m or N·m·s/rad).
    pub damping: f64,
    /// Reflected rotor inertia added to the mass matrix's diagonal (kg or kg·m²).
    pub armature: f64,
    /// A spring to `spring_reference` (scalar joints).
    pub stiffness: f64,
    pub spring_reference: f64,
    /// Regularized Coulomb friction of a scalar joint (N or N·m): −F·v/√(v² + s²), with s the
    /// `friction_speed` (m/s or rad/s) below which it acts as viscous damping F/s.
    pub friction: f64,
    pub friction_speed: f64,
    /// Lower and upper limits of a scalar joint's coordinate.
    pub limits: Option<(f64, f64)>,
}

/// The default `friction_speed` of a joint (m/s or rad/s).
pub const DEFAULT_FRICTION_SPEED: f64 = 1e-3;

impl Joint {
    /// A joint with no damping, armature, spring, friction or limits.
    pub fn new(name: impl Into<String>, kind: JointKind, parent: usize, origin: Isometry3) -> Joint {
        Joint {
            name: name.into(),
            kind,
            parent,
            origin,
            damping: 0.0,
            armature: 0.0,
            stiffness: 0.0,
            spring_reference: 0.0,
            friction: 0.0,
            friction_speed: DEFAULT_FRICTION_SPEED,
            limits: None,
        }
    }
}

/// A link: the world body it is, and its mass properties in its own frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The body's index in the world.
    pub body: usize,
    pub mass: f64,
    /// Centre of mass in the link frame.
    pub com: Point3,
    /// Rotational inertia about the centre of mass, link axes.
    pub inertia: Matrix3,
}

/// The links and joints of every mechanism of a world, with their coordinates' offsets.
#[derive(Clone, Debug)]
pub struct Articulation {
    pub joints: Vec<Joint>,
    pub links: Vec<Link>,
    /// Each link's spatial inertia about its frame's origin.
    pub(super) inertia: Vec<RigidInertia>,
    /// Each joint's first position and velocity coordinate.
    pub(super) q_at: Vec<usize>,
    pub(super) v_at: Vec<usize>,
    /// Each degree of freedom's parent degree of freedom ([`NONE`] at a root), the tree's
    /// sparsity pattern in the mass matrix.
    pub(super) dof_parent: Vec<usize>,
    nq: usize,
    nv: usize,
}

/// Where each link is and how it moves, at some coordinates.
#[derive(Clone, Debug, Default)]
pub struct Kinematics {
    /// Each link's frame in the world.
    pub pose: Vec<Isometry3>,
    /// X_{link←parent} (the world for a root).
    pub up: Vec<Transform>,
    /// Each link's twist [ω; v] in its own frame.
    pub velocity: Vec<Vector6<f64>>,
}

impl Articulation {
    /// The articulation of `links`, link k the child of `joints[k]`. Panics unless each joint's
    /// parent comes before it (the scene orders them).
    pub fn new(joints: Vec<Joint>, links: Vec<Link>) -> Articulation {
        assert_eq!(joints.len(), links.len());
        let (mut q_at, mut v_at, mut dof_parent) = (Vec::new(), Vec::new(), Vec::new());
        let (mut nq, mut nv) = (0, 0);
        // The last degree of freedom of each link's path from the root.
        let mut last_dof = vec![NONE; joints.len()];
        for (k, joint) in joints.iter().enumerate() {
            assert!(joint.parent == NONE || joint.parent < k, "joint `{}` before its parent", joint.name);
            q_at.push(nq);
            v_at.push(nv);
            let mut above = if joint.parent == NONE { NONE } else { last_dof[joint.parent] };
            for d in 0..joint.kind.nv() {
                dof_parent.push(above);
                above = nv + d;
            }
            last_dof[k] = above;
            nq += joint.kind.nq();
            nv += joint.kind.nv();
        }
        let inertia = links.iter().map(|l| RigidInertia::new(l.mass, &l.com, &l.inertia)).collect();
        Articulation { joints, links, inertia, q_at, v_at, dof_parent, nq, nv }
    }

    /// The number of position coordinates.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// The number of velocity coordinates.
    pub fn nv(&self) -> usize {
        self.nv
    }

    /// Joint k's position coordinates within `q`.
    pub fn joint_q<'q>(&self, k: usize, q: &'q [f64]) -> &'q [f64] {
        &q[self.q_at[k]..self.q_at[k] + self.joints[k].kind.nq()]
    }

    /// Joint k's velocity coordinates within `v`.
    pub fn joint_v<'v>(&self, k: usize, v: &'v [f64]) -> &'v [f64] {
        &v[self.v_at[k]..self.v_at[k] + self.joints[k].kind.nv()]
    }

    /// Joint k's first position and velocity coordinate.
    pub fn offsets(&self, k: usize) -> (usize, usize) {
        (self.q_at[k], self.v_at[k])
    }

    /// The neutral coordinates of every joint.
    pub fn neutral(&self) -> Vec<f64> {
        self.joints.iter().flat_map(|j| j.kind.neutral()).collect()
    }

    /// Each link's pose and twist at coordinates `q`, velocities `v`.
    pub fn kinematics(&self, q: &[f64], v: &[f64]) -> Kinematics {
        let mut kin = Kinematics { pose: Vec::new(), up: Vec::new(), velocity: Vec::new() };
        self.kinematics_into(q, v, &mut kin);
        kin
    }

    /// [`Articulation::kinematics`] into `kin`, reusing its storage.
    pub fn kinematics_into(&self, q: &[f64], v: &[f64], kin: &mut Kinematics) {
        let n = self.joints.len();
        kin.pose.clear();
        kin.up.clear();
        kin.velocity.clear();
        kin.pose.reserve(n);
        kin.up.reserve(n);
        kin.velocity.reserve(n);
        for (k, joint) in self.joints.iter().enumerate() {
            let local = joint.origin * joint.kind.transform(self.joint_q(k, q));
            let up = Transform::of_pose(&local);
            let relative = joint.kind.motion(self.joint_v(k, v));
            let (pose, velocity) = if joint.parent == NONE {
                (local, relative)
            } else {
                (kin.pose[joint.parent] * local, up.motion(&kin.velocity[joint.parent]) + relative)
            };
            kin.pose.push(pose);
            kin.up.push(up);
            kin.velocity.push(velocity);
        }
    }

    /// Applies `visit(dof, column)` to each degree of freedom that moves link `link`, with the
    /// twist [ω; v] (world frame, v of the world origin's point) a unit of it gives the link.
    fn columns(&self, kin: &Kinematics, link: usize, mut visit: impl FnMut(usize, Vector6<f64>)) {
        let mut k = link;
        while k != NONE {
            let joint = &self.joints[k];
            let pose = &kin.pose[k];
            for d in 0..joint.kind.nv() {
                let s = joint.kind.subspace(d);
                let w = pose.rotation * upper(&s);
                let at_origin = pose.rotation * lower(&s);
                // The velocity of the world-origin point of the link's motion.
                let v = at_origin - w.cross(&pose.translation.vector);
                visit(self.v_at[k] + d, stack(&w, &v));
            }
            k = joint.parent;
        }
    }

    /// The Jacobian of a point fixed in link `link` (at `point`, world frame): rows the point's
    /// velocity (3) then the link's angular velocity (3), world frame; a column per velocity
    /// coordinate.
    pub fn point_jacobian(&self, kin: &Kinematics, link: usize, point: &Point3) -> DMatrix<f64> {
        let mut j = DMatrix::zeros(6, self.nv);
        self.columns(kin, link, |dof, twist| {
            let (w, v) = (upper(&twist), lower(&twist));
            let at_point = v + w.cross(&point.coords);
            for r in 0..3 {
                j[(r, dof)] = at_point[r];
                j[(r + 3, dof)] = w[r];
            }
        });
        j
    }

    /// Adds Jᵀ·(force, torque about `point`) to `tau`: the generalized forces of a wrench on
    /// link `link` (world frame).
    pub fn add_wrench(
        &self,
        kin: &Kinematics,
        link: usize,
        point: &Point3,
        force: &Vector3,
        torque: &Vector3,
        tau: &mut [f64],
    ) {
        // Power of the wrench per unit of each coordinate, with the torque moved to the origin.
        let torque_at_origin = torque + point.coords.cross(force);
        self.columns(kin, link, |dof, twist| {
            tau[dof] += force.dot(&lower(&twist)) + torque_at_origin.dot(&upper(&twist));
        });
    }

    /// The world position of each link's centre of mass.
    pub fn coms(&self, kin: &Kinematics) -> Vec<Point3> {
        self.links.iter().zip(&kin.pose).map(|(l, p)| p * l.com).collect()
    }
}
