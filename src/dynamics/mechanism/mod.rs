//! The world's mechanisms: an articulation in joint coordinates with its actuators and
//! couplers, and its block of the state — every joint's coordinates q (the articulation's
//! order), then every joint's velocities v. Links are bodies of the world: their poses and
//! twists follow from q and v by forward kinematics.
//!
//! A coupled joint (a follower) has coordinates in the state like any other, kept at
//! ratio·q_leader + offset: the dynamics run in the independent velocities u, v = G·u, with
//! G's column of a leader carrying the follower's ratio.

mod actuator;
mod kinematics_cache;
mod query;

pub use actuator::{Actuator, ActuatorKind, Coupler, Effort, Schedule};

use kinematics_cache::KinematicsCache;

use super::coordinates::articulation::{Articulation, Kinematics, NONE, SingularMass, TreeFactor};
use crate::math::{Isometry3, Point3, Twist, Vector3};
use nalgebra::{DMatrix, DVector, Vector6};
use std::sync::Arc;

/// An articulation with its actuators, couplers and place in the state.
#[derive(Clone, Debug)]
pub struct Mechanism {
    pub articulation: Articulation,
    pub actuators: Vec<Actuator>,
    pub couplers: Vec<Coupler>,
    /// Each velocity coordinate's independent coordinate and factor (v = G·u).
    reduction: Vec<(usize, f64)>,
    independent: usize,
    /// Each world body's link ([`NONE`]: not a link).
    link_of_body: Vec<usize>,
    /// The coordinates at t = 0.
    initial_q: Vec<f64>,
    initial_v: Vec<f64>,
    /// Where q starts in the state (v follows it).
    q_at: usize,
    /// Each joint's limit penalty (stiffness, damping) for the adaptive integrators.
    limit_penalty: Vec<(f64, f64)>,
    /// Scalar joints' limits, followers' aside (see [`Mechanism::limited_dofs`]).
    limited: Vec<(usize, f64, bool)>,
    kinematics: KinematicsCache,
}

/// How joint limits act in [`Mechanism::joint_forces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// Not as forces: the fixed-step schemes hold them as constraints on the step.
    Constraints,
    /// As a stiff, critically damped spring past the limit (the adaptive integrators).
    Penalty,
}

/// The natural frequency (rad/s) of the limit penalty on the joint's own inertia: a joint
/// reaching its limit at v rad/s (or m/s) goes past it by about v/LIMIT_FREQUENCY.
pub const LIMIT_FREQUENCY: f64 = 1e4;

/// The depth past a limit (rad or m) over which its penalty's damping grows to critical.
pub const LIMIT_RAMP: f64 = 1e-5;

/// The joint-space forces of springs, damping, limits' stiffness aside, and actuators at a
/// state, with the derivatives an implicit step needs (per velocity coordinate).
#[derive(Clone, Debug, Default)]
pub struct JointForces {
    pub tau: Vec<f64>,
    /// −∂τ/∂q and −∂τ/∂v, diagonal.
    pub stiffness: Vec<f64>,
    pub damping: Vec<f64>,
    /// The actuators' power and the joint damping's (≥ 0: dissipated).
    pub actuator_power: f64,
    pub damping_power: f64,
    /// Each actuator's effort on its joint.
    pub efforts: Vec<f64>,
}

impl Mechanism {
    /// `bodies`: the number of world bodies, of which link k is `articulation.links[k].body`.
    pub fn new(
        articulation: Articulation,
        actuators: Vec<Actuator>,
        couplers: Vec<Coupler>,
        (initial_q, initial_v): (Vec<f64>, Vec<f64>),
        bodies: usize,
    ) -> Mechanism {
        let mut link_of_body = vec![NONE; bodies];
        for (k, link) in articulation.links.iter().enumerate() {
            link_of_body[link.body] = k;
        }
        // Independent coordinates in order; a follower's maps to its leader's.
        let nv = articulation.nv();
        let mut column = vec![NONE; nv];
        let mut independent = 0;
        let follower_of = |dof: usize| couplers.iter().find(|c| articulation.offsets(c.follower).1 == dof);
        for (dof, c) in column.iter_mut().enumerate() {
            if follower_of(dof).is_none() {
                *c = independent;
                independent += 1;
            }
        }
        let reduction = (0..nv)
            .map(|dof| match follower_of(dof) {
                Some(c) => (column[articulation.offsets(c.leader).1], c.ratio),
                None => (column[dof], 1.0),
            })
            .collect();
        let mut mechanism = Mechanism {
            articulation,
            actuators,
            couplers,
            reduction,
            independent,
            link_of_body,
            initial_q,
            initial_v,
            q_at: 0,
            limit_penalty: Vec::new(),
            limited: Vec::new(),
            kinematics: KinematicsCache::default(),
        };
        let (mut q, mut v) = (mechanism.initial_q.clone(), mechanism.initial_v.clone());
        mechanism.hold_couplers(&mut q, &mut v);
        // The penalty's stiffness and damping from each joint's inertia at the start.
        let kin = mechanism.articulation.kinematics(&q, &v);
        let mass = mechanism.articulation.mass_matrix(&kin);
        mechanism.limit_penalty = (0..mechanism.articulation.joints.len())
            .map(|k| {
                if !mechanism.articulation.joints[k].kind.is_scalar() {
                    return (0.0, 0.0);
                }
                let dof = mechanism.articulation.offsets(k).1;
                let (inertia, w) = (mass[(dof, dof)], LIMIT_FREQUENCY);
                (inertia * w * w, 2.0 * inertia * w)
            })
            .collect();
        (mechanism.initial_q, mechanism.initial_v) = (q, v);
        for (k, joint) in mechanism.articulation.joints.iter().enumerate() {
            if let Some((lo, hi)) = joint.limits
                && !mechanism.is_follower(k)
            {
                let dof = mechanism.articulation.offsets(k).1;
                mechanism.limited.push((dof, lo, true));
                mechanism.limited.push((dof, hi, false));
            }
        }
        mechanism
    }

    /// Numbers of the state: q, v, then the energy joint damping has dissipated and the work
    /// the actuators have done.
    pub fn len(&self) -> usize {
        self.articulation.nq() + self.articulation.nv() + 2
    }

    /// The energy dissipated by joint damping (and limit penalties) so far (J); also counted
    /// in the world's dissipated energy.
    pub fn joint_damping(&self, y: &[f64]) -> f64 {
        y[self.q_at + self.len() - 2]
    }

    /// The work done by the actuators so far (J); also counted in the world's external work.
    pub fn actuator_work(&self, y: &[f64]) -> f64 {
        y[self.q_at + self.len() - 1]
    }

    /// Adds a step's joint damping loss and actuator work (or sets their rates in a derivative).
    pub fn add_energies(&self, y: &mut [f64], damping: f64, work: f64) {
        let at = self.q_at + self.len() - 2;
        y[at] += damping;
        y[at + 1] += work;
    }

    /// Sets the rates of joint damping loss and actuator work in a state derivative.
    pub fn set_energy_rates(&self, dy: &mut [f64], damping: f64, work: f64) {
        let at = self.q_at + self.len() - 2;
        dy[at] = damping;
        dy[at + 1] = work;
    }

    /// Whether it has no coordinates (only fixed joints).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Places its block at `offset` in the state.
    pub fn place(&mut self, offset: usize) {
        self.q_at = offset;
    }

    /// The number of independent velocities.
    pub fn independent(&self) -> usize {
        self.independent
    }

    /// The link body `body` is, if it is one.
    pub fn link(&self, body: usize) -> Option<usize> {
        self.link_of_body.get(body).copied().filter(|&k| k != NONE)
    }

    pub fn q<'y>(&self, y: &'y [f64]) -> &'y [f64] {
        &y[self.q_at..self.q_at + self.articulation.nq()]
    }

    pub fn v<'y>(&self, y: &'y [f64]) -> &'y [f64] {
        let at = self.q_at + self.articulation.nq();
        &y[at..at + self.articulation.nv()]
    }

    /// q and v, writable.
    pub fn q_v_mut<'y>(&self, y: &'y mut [f64]) -> (&'y mut [f64], &'y mut [f64]) {
        let block = &mut y[self.q_at..self.q_at + self.len() - 2];
        block.split_at_mut(self.articulation.nq())
    }

    /// Writes the initial coordinates into a state.
    pub fn set_initial(&self, y: &mut [f64]) {
        let (q, v) = self.q_v_mut(y);
        q.copy_from_slice(&self.initial_q);
        v.copy_from_slice(&self.initial_v);
    }

    /// The kinematics at the initial coordinates.
    pub fn initial_kinematics(&self) -> Kinematics {
        self.articulation.kinematics(&self.initial_q, &self.initial_v)
    }

    /// Scalar joints' limits, followers' aside: (velocity coordinate, bound, whether it is the
    /// lower one).
    pub fn limited_dofs(&self) -> &[(usize, f64, bool)] {
        &self.limited
    }

    /// The kinematics at a state.
    pub fn kinematics(&self, y: &[f64]) -> Arc<Kinematics> {
        let (q, v) = (self.q(y), self.v(y));
        self.kinematics.get(q, v, |kin| self.articulation.kinematics_into(q, v, kin))
    }

    /// Link k's pose and twist (world frame; linear: of the link frame's origin).
    pub fn pose_and_twist(&self, kin: &Kinematics, k: usize) -> (Isometry3, Twist) {
        let pose = kin.pose[k];
        let twist = kin.velocity[k];
        let angular = pose.rotation * Vector3::new(twist[0], twist[1], twist[2]);
        let linear = pose.rotation * Vector3::new(twist[3], twist[4], twist[5]);
        (pose, Twist { linear, angular })
    }

    /// Sets every follower's coordinate and velocity from its leader's.
    pub fn hold_couplers(&self, q: &mut [f64], v: &mut [f64]) {
        for c in &self.couplers {
            let (fq, fv) = self.articulation.offsets(c.follower);
            let (lq, lv) = self.articulation.offsets(c.leader);
            q[fq] = c.ratio * q[lq] + c.offset;
            v[fv] = c.ratio * v[lv];
        }
    }

    /// Gᵀ·x: full generalized forces to independent ones.
    pub fn reduce(&self, x: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.independent);
        for (dof, &(col, ratio)) in self.reduction.iter().enumerate() {
            out[col] += ratio * x[dof];
        }
        out
    }

    /// G·u: independent velocities to full ones.
    pub fn expand(&self, u: &[f64]) -> Vec<f64> {
        self.reduction.iter().map(|&(col, ratio)| ratio * u[col]).collect()
    }

    /// Gᵀ·A·G.
    pub fn reduce_matrix(&self, a: DMatrix<f64>) -> DMatrix<f64> {
        if self.couplers.is_empty() {
            return a;
        }
        let n = self.independent;
        let mut out = DMatrix::zeros(n, n);
        for (i, &(ci, ri)) in self.reduction.iter().enumerate() {
            for (j, &(cj, rj)) in self.reduction.iter().enumerate() {
                out[(ci, cj)] += ri * rj * a[(i, j)];
            }
        }
        out
    }

    /// The joint forces at time `t` and coordinates `q`, velocities `v` (full).
    pub fn joint_forces(&self, t: f64, q: &[f64], v: &[f64], limits: Limits) -> JointForces {
        let mut f = JointForces::default();
        self.joint_forces_into(t, q, v, limits, &mut f);
        f
    }

    /// [`Mechanism::joint_forces`] into `f`, reusing its storage.
    pub fn joint_forces_into(&self, t: f64, q: &[f64], v: &[f64], limits: Limits, f: &mut JointForces) {
        let nv = self.articulation.nv();
        for x in [&mut f.tau, &mut f.stiffness, &mut f.damping] {
            x.clear();
            x.resize(nv, 0.0);
        }
        f.efforts.clear();
        (f.actuator_power, f.damping_power) = (0.0, 0.0);
        for (k, joint) in self.articulation.joints.iter().enumerate() {
            let (qa, va) = self.articulation.offsets(k);
            for d in 0..joint.kind.nv() {
                f.tau[va + d] -= joint.damping * v[va + d];
                f.damping[va + d] += joint.damping;
                f.damping_power += joint.damping * v[va + d] * v[va + d];
            }
            if joint.kind.is_scalar() && joint.friction > 0.0 {
                let (fr, s, w) = (joint.friction, joint.friction_speed, v[va]);
                let root = (w * w + s * s).sqrt();
                f.tau[va] -= fr * w / root;
                f.damping[va] += fr * s * s / (root * root * root);
                f.damping_power += fr * w * w / root;
            }
            if joint.kind.is_scalar() && joint.stiffness > 0.0 {
                f.tau[va] -= joint.stiffness * (q[qa] - joint.spring_reference);
                f.stiffness[va] += joint.stiffness;
            }
            if limits == Limits::Penalty && joint.limits.is_some() {
                let effort = self.limit_effort(k, q[qa], v[va]);
                if effort != 0.0 {
                    f.tau[va] += effort;
                    f.damping_power += self.limit_damping(k, q[qa]) * v[va] * v[va];
                }
            }
        }
        for actuator in &self.actuators {
            let (qa, va) = self.articulation.offsets(actuator.joint);
            let e = actuator.effort(t, q[qa], v[va]);
            f.tau[va] += e.effort;
            f.stiffness[va] += e.stiffness;
            f.damping[va] += e.damping;
            f.actuator_power += e.effort * v[va];
            f.efforts.push(e.effort);
        }
    }

    /// The joint springs' energy, with the limit penalties'.
    pub fn spring_energy(&self, q: &[f64]) -> f64 {
        let mut energy = 0.0;
        for (k, joint) in self.articulation.joints.iter().enumerate() {
            if joint.kind.is_scalar() {
                let q = q[self.articulation.offsets(k).0];
                let x = q - joint.spring_reference;
                energy += 0.5 * joint.stiffness * x * x;
                let past = self.past_limit(k, q);
                energy += 0.5 * self.limit_penalty[k].0 * past * past;
            }
        }
        energy
    }

    /// How far scalar joint k's coordinate `q` is past a limit (signed: below the lower one
    /// negative; 0 within them).
    fn past_limit(&self, k: usize, q: f64) -> f64 {
        match self.articulation.joints[k].limits {
            Some((lo, _)) if q < lo => q - lo,
            Some((_, hi)) if q > hi => q - hi,
            _ => 0.0,
        }
    }

    /// The mass matrix in independent velocities, factorised (along the tree when nothing is
    /// coupled).
    pub fn factor(&self, kin: &Kinematics) -> Result<MassFactor, SingularMass> {
        if self.couplers.is_empty() {
            return Ok(MassFactor::Tree(self.articulation.factor(kin)?));
        }
        let m = self.reduce_matrix(self.articulation.mass_matrix(kin));
        m.cholesky().map(MassFactor::Dense).ok_or(SingularMass { dof: 0 })
    }

    /// Each link's external force [n; f] in its own frame from world-frame forces and torques
    /// about the centres of mass (indexed by body).
    pub fn link_forces(&self, kin: &Kinematics, force: &[Vector3], torque: &[Vector3]) -> Vec<Vector6<f64>> {
        let a = &self.articulation;
        a.links
            .iter()
            .zip(&kin.pose)
            .map(|(link, pose)| {
                let (f, n) = (force[link.body], torque[link.body]);
                // Moment about the link origin, then into link axes.
                let lever = pose.rotation * link.com.coords;
                let n0 = n + lever.cross(&f);
                let (fb, nb) = (pose.rotation.inverse() * f, pose.rotation.inverse() * n0);
                Vector6::new(nb.x, nb.y, nb.z, fb.x, fb.y, fb.z)
            })
            .collect()
    }

    /// The accelerations (full) under joint forces `tau`, gravity and link forces `external`.
    pub fn accelerations(
        &self,
        kin: &Kinematics,
        v: &[f64],
        tau: &[f64],
        gravity: &Vector3,
        external: &[Vector6<f64>],
    ) -> Result<Vec<f64>, SingularMass> {
        let bias = self.articulation.inverse_dynamics(kin, v, None, gravity, Some(external));
        let rhs: Vec<f64> = tau.iter().zip(bias.iter()).map(|(t, b)| t - b).collect();
        let mut u = self.reduce(&rhs);
        self.factor(kin)?.solve(u.as_mut_slice());
        Ok(self.expand(u.as_slice()))
    }

    /// The world centre of mass of link k.
    pub fn com(&self, kin: &Kinematics, k: usize) -> Point3 {
        kin.pose[k] * self.articulation.links[k].com
    }
}

/// The factors of the mass matrix in independent velocities.
#[derive(Clone, Debug)]
pub enum MassFactor {
    Tree(TreeFactor),
    Dense(nalgebra::Cholesky<f64, nalgebra::Dyn>),
}

impl MassFactor {
    pub fn solve(&self, b: &mut [f64]) {
        match self {
            MassFactor::Tree(f) => f.solve(b),
            MassFactor::Dense(c) => {
                let x = c.solve(&DVector::from_column_slice(b));
                b.copy_from_slice(x.as_slice());
            }
        }
    }
}

impl Mechanism {
    /// Renormalises the quaternions of ball and free joints.
    pub fn normalize(&self, y: &mut [f64]) {
        use super::coordinates::articulation::JointKind;
        let (q, _) = self.q_v_mut(y);
        for (k, joint) in self.articulation.joints.iter().enumerate() {
            let at = self.articulation.offsets(k).0
                + match joint.kind {
                    JointKind::Ball => 0,
                    JointKind::Free => 3,
                    _ => continue,
                };
            let norm = q[at..at + 4].iter().map(|x| x * x).sum::<f64>().sqrt();
            q[at..at + 4].iter_mut().for_each(|x| *x /= norm);
        }
    }
}

impl Mechanism {
    /// The independent velocity a velocity coordinate follows.
    pub fn column(&self, dof: usize) -> usize {
        self.reduction[dof].0
    }

    /// The factor of a velocity coordinate on its independent one.
    pub fn ratio(&self, dof: usize) -> f64 {
        self.reduction[dof].1
    }

    /// Whether joint k follows another.
    pub fn is_follower(&self, k: usize) -> bool {
        self.couplers.iter().any(|c| c.follower == k)
    }

    /// The position coordinate of a scalar joint's velocity coordinate.
    pub fn q_of_dof(&self, dof: usize) -> usize {
        let k = (0..self.articulation.joints.len())
            .rfind(|&k| self.articulation.offsets(k).1 <= dof)
            .expect("a velocity coordinate of some joint");
        let (qa, va) = self.articulation.offsets(k);
        qa + (dof - va)
    }

    /// J·G: a Jacobian's columns in independent velocities.
    pub fn reduce_columns(&self, j: &DMatrix<f64>) -> DMatrix<f64> {
        let mut out = DMatrix::zeros(j.nrows(), self.independent);
        for (dof, &(col, ratio)) in self.reduction.iter().enumerate() {
            for r in 0..j.nrows() {
                out[(r, col)] += ratio * j[(r, dof)];
            }
        }
        out
    }
}

/// One row of `joints.csv`: a scalar coordinate of a joint.
#[derive(Clone, Debug, PartialEq)]
pub struct JointRow {
    /// The joint's name; a ball or free joint's k-th component is `NAME[k]`.
    pub name: String,
    pub position: f64,
    /// The velocity component (a ball or free joint's position has one more component than
    /// its velocity: the last position row has velocity 0).
    pub velocity: f64,
    /// The actuators' summed effort on it (N or N·m).
    pub actuator_effort: f64,
    /// The limits' effort on it (N or N·m; the penalty's under the adaptive integrators).
    pub constraint_effort: f64,
}

impl Mechanism {
    /// A row per scalar coordinate, joints in the articulation's order (free roots made for
    /// free bodies that joints hang from included; fixed joints have no rows). Velocities are
    /// the mechanism's: ball and free joints' body-frame ([ω; v] for free).
    pub fn joint_rows(&self, t: f64, y: &[f64]) -> Vec<JointRow> {
        let (q, v) = (self.q(y), self.v(y));
        let forces = self.joint_forces(t, q, v, Limits::Penalty);
        let mut rows = Vec::new();
        for (k, joint) in self.articulation.joints.iter().enumerate() {
            let (qa, va) = self.articulation.offsets(k);
            let (nq, nv) = (joint.kind.nq(), joint.kind.nv());
            for c in 0..nq {
                let name = if nq == 1 { joint.name.clone() } else { format!("{}[{c}]", joint.name) };
                let velocity = if c < nv { v[va + c] } else { 0.0 };
                // (Folded from +0: an empty sum of f64 is −0.)
                let actuator_effort = self
                    .actuators
                    .iter()
                    .zip(&forces.efforts)
                    .filter(|(a, _)| a.joint == k && c == 0)
                    .fold(0.0, |sum, (_, e)| sum + e);
                let constraint_effort =
                    if c == 0 && nv == 1 { self.limit_effort(k, q[qa], v[va]) } else { 0.0 };
                rows.push(JointRow {
                    name,
                    position: q[qa + c],
                    velocity,
                    actuator_effort,
                    constraint_effort,
                });
            }
        }
        rows
    }

    /// The limit's penalty effort on scalar joint k at (q, v) (0 within its limits).
    pub fn limit_effort(&self, k: usize, q: f64, v: f64) -> f64 {
        let past = self.past_limit(k, q);
        if past == 0.0 || self.is_follower(k) {
            return 0.0;
        }
        -self.limit_penalty[k].0 * past - self.limit_damping(k, q) * v
    }

    /// The limit penalty's damping at coordinate `q`: full from [`LIMIT_RAMP`] past the limit,
    /// growing from 0 at it (a force continuous in q, which the adaptive integrators need).
    fn limit_damping(&self, k: usize, q: f64) -> f64 {
        self.limit_penalty[k].1 * (self.past_limit(k, q).abs() / LIMIT_RAMP).min(1.0)
    }
}

impl Mechanism {
    /// The independent velocities of full velocities `v` (a follower's are its leader's times
    /// the ratio).
    pub fn independent_velocities(&self, v: &[f64]) -> DVector<f64> {
        let mut u = DVector::zeros(self.independent);
        for (dof, &(col, _)) in self.reduction.iter().enumerate() {
            if !self.couplers.iter().any(|c| self.articulation.offsets(c.follower).1 == dof) {
                u[col] = v[dof];
            }
        }
        u
    }

    /// Sets the velocities to `G·u` and moves the coordinates by dt·(G·u + G·pseudo).
    pub fn advance(&self, y: &mut [f64], u: &DVector<f64>, pseudo: &DVector<f64>, dt: f64) {
        let (v_new, moved) = (self.expand(u.as_slice()), self.expand((u + pseudo).as_slice()));
        let q0 = self.q(y).to_vec();
        let (q, v) = self.q_v_mut(y);
        v.copy_from_slice(&v_new);
        for (k, joint) in self.articulation.joints.iter().enumerate() {
            let (qa, va) = self.articulation.offsets(k);
            let (nq, nv) = (joint.kind.nq(), joint.kind.nv());
            joint.kind.advance(&q0[qa..qa + nq], &moved[va..va + nv], dt, &mut q[qa..qa + nq]);
        }
        self.hold_couplers(q, v);
    }
}
