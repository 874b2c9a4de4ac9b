//! The world: bodies, their contact geometry and the loads on them, turning a state into state
//! derivatives (force-based contact models).
//!
//! The state vector's layout is [`Coordinates`]'s: a block per free body, then the energy
//! dissipated by contact and the work of applied loads and kinematic bodies (for the energy
//! balance).

use super::body::{Motion, RigidBody};
use super::coordinates::Coordinates;
use super::coordinates::articulation::JointKind;
use super::error::DynamicsError;
use super::mechanism::{Limits, Mechanism};
use crate::contact::model::{Capability, ContactModel, Derivatives, PairContact, PairDerivatives};
use crate::geometry::Interior;
use crate::math::{Isometry3, Matrix3, Point3, Quaternion, Twist, Vector3, parallel};
use smallvec::SmallVec;
use std::sync::Arc;

/// Speeds (m/s) and rates of turn (rad/s) beyond which a run has blown up: ten times what a
/// scene may start with (docs/scene.md, "Ranges").
pub const MAX_SPEED: f64 = 1e6;
pub const MAX_RATE: f64 = 1e7;

/// The bodies, the contact model and the loads.
pub struct World {
    pub bodies: Vec<RigidBody>,
    pub model: ContactModel,
    pub gravity: Vector3,
    /// Where each body's coordinates sit in the state.
    pub coords: Coordinates,
    /// The links of every mechanism, in joint coordinates (bodies whose motion is
    /// [`Motion::Link`]).
    pub mechanism: Option<Mechanism>,
    /// Each body's contact shape in its body frame, when some shape is offset (`None`: every
    /// shape at its body frame). The contact models see the shapes' frames.
    pub shape_poses: Option<Vec<Isometry3>>,
    /// Each body's bounding radius about its centre of mass, where known (a half space's
    /// `None`), and which bodies are half spaces: a body wholly below a half space's surface
    /// has passed through it ([`World::through_half_space`]).
    pub extents: Vec<Option<f64>>,
    pub half_spaces: Vec<usize>,
    /// The pairs (a < b) of bounded bodies that may touch, one of them at least free and none a
    /// mechanism's link: the pairs whose crossing within a step is cut
    /// ([`crate::dynamics::crossing`]) and which must not end one wholly inside the other
    /// ([`crate::dynamics::inside_body`]).
    pub body_pairs: Vec<(usize, usize)>,
    /// Each body's simple inner solid in its shape frame, where it has one.
    pub interiors: Vec<Option<Interior>>,
    /// The (inner, outer) orders of the body pairs where the inner body's bounding sphere is
    /// small enough to fit within the outer's interior: the pairs
    /// [`crate::dynamics::inside_body`] checks.
    pub inside_pairs: Vec<(usize, usize)>,
    /// When a run must stop (`[sim] max_wall_time`) and its limit (s): checked after every
    /// fixed step and every adaptive evaluation, between outputs as well as at them.
    pub deadline: Option<(std::time::Instant, f64)>,
}

impl World {
    pub fn new(bodies: Vec<RigidBody>, model: ContactModel, gravity: Vector3) -> World {
        World::with_mechanism(bodies, model, gravity, None)
    }

    /// A world whose link bodies move with `mechanism`.
    pub fn with_mechanism(
        bodies: Vec<RigidBody>,
        model: ContactModel,
        gravity: Vector3,
        mut mechanism: Option<Mechanism>,
    ) -> World {
        let len = mechanism.as_ref().map_or(0, |m| m.len());
        let coords = Coordinates::new(bodies.iter().map(|b| b.is_free()), len);
        if let Some(m) = &mut mechanism {
            m.place(coords.mechanism_at());
        }
        let n = bodies.len();
        World {
            bodies,
            model,
            gravity,
            coords,
            mechanism,
            shape_poses: None,
            extents: vec![None; n],
            half_spaces: Vec::new(),
            body_pairs: Vec::new(),
            interiors: vec![None; n],
            inside_pairs: Vec::new(),
            deadline: None,
        }
    }

    /// The poses and twists the contact models take: each body's shape frame (its body frame
    /// unless the shape is offset) and its twist there.
    pub fn model_poses<'p>(
        &self,
        poses: &'p [(Isometry3, Twist)],
    ) -> std::borrow::Cow<'p, [(Isometry3, Twist)]> {
        let Some(offsets) = &self.shape_poses else { return std::borrow::Cow::Borrowed(poses) };
        std::borrow::Cow::Owned(
            poses
                .iter()
                .zip(offsets)
                .map(|((pose, twist), offset)| {
                    let arm = pose.rotation * offset.translation.vector;
                    let linear = twist.linear + twist.angular.cross(&arm);
                    (pose * offset, Twist { linear, angular: twist.angular })
                })
                .collect(),
        )
    }

    /// The initial state.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.coords.dim()];
        for block in self.coords.free_blocks() {
            let b = &self.bodies[block.body];
            block.set_pose_and_twist(&mut y, &b.com, &b.initial_pose, &b.initial_twist);
        }
        if let Some(m) = &self.mechanism {
            m.set_initial(&mut y);
        }
        y
    }

    /// The pose of every body frame and its twist (linear velocity of the body-frame origin).
    pub fn poses(&self, t: f64, y: &[f64]) -> Vec<(Isometry3, Twist)> {
        self.pose_iter(t, y).collect()
    }

    /// [`World::poses`], one body after another.
    fn pose_iter(&self, t: f64, y: &[f64]) -> impl Iterator<Item = (Isometry3, Twist)> {
        let kin = self.mechanism.as_ref().map(|m| m.kinematics(y));
        self.bodies.iter().enumerate().map(move |(i, b)| match (&b.motion, self.coords.free(i)) {
            (Motion::Free, Some(block)) => block.pose_and_twist(y, &b.com),
            (Motion::Kinematic(k), _) => k.at(t),
            (Motion::Link(k), _) => match (&self.mechanism, &kin) {
                (Some(m), Some(kin)) => m.pose_and_twist(kin, *k),
                _ => (b.initial_pose, Twist::default()),
            },
            _ => (b.initial_pose, Twist::default()),
        })
    }

    /// The contact of every touching pair, in pair order.
    pub fn contacts(&self, t: f64, y: &[f64]) -> Result<Vec<PairContact>, DynamicsError> {
        Ok(self.loads(t, y, Derivatives::None)?.contacts)
    }

    /// The loads on every body at a state: generalized forces (force, torque about the centre
    /// of mass; world frame) and the rate of dissipation; with `derivatives`, also each contact
    /// pair's derivatives of the generalized forces (about the centres of mass).
    pub fn loads(&self, t: f64, y: &[f64], derivatives: Derivatives) -> Result<Loads, DynamicsError> {
        self.loads_with_known_derivatives(t, y, derivatives, |_| None)
    }

    /// [`World::loads`], taking the derivatives of the pairs in `known` from there instead of
    /// computing them (the implicit integrator reuses a pair's derivatives for a few steps).
    pub fn loads_with_known_derivatives(
        &self,
        t: f64,
        y: &[f64],
        derivatives: Derivatives,
        known: impl Fn((usize, usize)) -> Option<Arc<PairDerivatives>> + Sync,
    ) -> Result<Loads, DynamicsError> {
        let mut loads = Loads::default();
        self.loads_into(t, y, derivatives, known, &mut loads)?;
        Ok(loads)
    }

    /// [`World::loads_with_known_derivatives`] into `loads`, whose vectors are reused (a step's
    /// Newton iterations evaluate the loads again and again).
    pub fn loads_into(
        &self,
        t: f64,
        y: &[f64],
        derivatives: Derivatives,
        known: impl Fn((usize, usize)) -> Option<Arc<PairDerivatives>> + Sync,
        loads: &mut Loads,
    ) -> Result<(), DynamicsError> {
        if let Some(bad) = self.non_finite_bodies(y) {
            return Err(DynamicsError::NonFinite { t, bodies: bad });
        }
        let Some(forces) = self.model.forces() else {
            // Impulse models move the bodies by their own step: no contact forces here.
            self.applied_loads_into(loads);
            loads.external_power = self.applied_power(y);
            return Ok(());
        };
        // Small scenes' poses stay on the stack: no heap allocation per query.
        let poses: SmallVec<[(Isometry3, Twist); 8]> = self.pose_iter(t, y).collect();
        // Small scenes' temporaries stay on the stack: no heap allocation per query.
        let coms: SmallVec<[Point3; 8]> =
            self.bodies.iter().zip(&poses).map(|(b, (p, _))| p * b.com).collect();
        let shape_poses = self.model_poses(&poses);
        let poses = &shape_poses[..];
        let active = self.model.candidate_pairs(poses);
        let eval = |&(a, b): &(usize, usize)| {
            let refs = (&coms[a], &coms[b]);
            // A pair whose derivatives are known is evaluated without them.
            if derivatives != Derivatives::None
                && let Some(known) = known((a, b))
            {
                let result = forces.evaluate((a, b), poses, refs, Derivatives::None)?;
                return Ok(result.map(|(c, _)| (c, Some(known))));
            }
            forces.evaluate((a, b), poses, refs, derivatives)
        };
        let eval = |pair: &(usize, usize)| {
            eval(pair).map_err(|source| DynamicsError::Contact {
                t,
                a: self.bodies[pair.0].name.clone(),
                b: self.bodies[pair.1].name.clone(),
                source: Box::new(source),
            })
        };
        let results: SmallVec<[_; 4]> = if active.len() > 1 {
            SmallVec::from_vec(parallel::map(&active, eval))
        } else {
            active.iter().map(eval).collect()
        };
        self.applied_loads_into(loads);
        loads.external_power = self.applied_power(y);
        for r in results {
            let Some((c, d)) = r? else { continue };
            // A contact that came out non-finite (an overflow in the model) stops the run here,
            // before it reaches the state.
            let w = c.wrench;
            if !(w.force.iter().chain(w.torque.iter()).all(|x| x.is_finite())
                && c.dissipation_power.is_finite())
            {
                let names = format!("{}, {}", self.bodies[c.a].name, self.bodies[c.b].name);
                return Err(DynamicsError::NonFinite { t, bodies: names });
            }
            if let Some(d) = d {
                loads.derivatives.push((c.a, c.b, d));
            }
            // A kinematic body does work on the others at minus the power of the wrench on it.
            for (body, sign) in [(c.a, 1.0), (c.b, -1.0)] {
                if matches!(self.bodies[body].motion, Motion::Kinematic(_)) {
                    let (pose, twist) = &poses[body];
                    let origin_velocity = twist.linear - twist.angular.cross(&pose.translation.vector);
                    let power = c.wrench.force.dot(&origin_velocity) + c.wrench.torque.dot(&twist.angular);
                    loads.external_power -= sign * power;
                }
            }
            loads.add_contact(c, &coms);
        }
        Ok(())
    }

    /// The power of the applied loads (each free body's force and torque) at state `y` (W).
    pub fn applied_power(&self, y: &[f64]) -> f64 {
        let mut power = 0.0;
        for block in self.coords.free_blocks() {
            let b = &self.bodies[block.body];
            power += b.force.dot(&block.velocity(y)) + b.torque.dot(&block.angular_velocity(y));
        }
        power
    }

    /// `loads` set to gravity and the applied loads, before contact.
    fn applied_loads_into(&self, loads: &mut Loads) {
        loads.force.clear();
        loads.force.extend(self.bodies.iter().map(|b| b.force + self.gravity * b.mass));
        loads.torque.clear();
        loads.torque.extend(self.bodies.iter().map(|b| b.torque));
        loads.dissipation = 0.0;
        loads.external_power = 0.0;
        loads.contacts.clear();
        loads.derivatives.clear();
    }

    /// The earliest time in (t0, t1) where a Hertz contact starts or ends — where a pair's
    /// signed distance changes sign — found by bisection on the step's dense output `interp`;
    /// the time returned is just past the crossing, so the contact's state there is the new one.
    pub fn locate_contact_event(
        &self,
        t0: f64,
        y0: &[f64],
        t1: f64,
        y1: &[f64],
        interp: &dyn Fn(f64, &mut [f64]),
    ) -> Option<f64> {
        if !self.model.has_events() {
            return None;
        }
        let gap = |t: f64, y: &[f64], a: usize, b: usize| -> Option<f64> {
            self.model.gap((a, b), (&self.pose_of(a, t, y), &self.pose_of(b, t, y)))
        };
        let (p0, p1) = (self.poses(t0, y0), self.poses(t1, y1));
        let mut pairs = self.model.candidate_pairs(&self.model_poses(&p0));
        pairs.extend(self.model.candidate_pairs(&self.model_poses(&p1)));
        pairs.sort_unstable();
        pairs.dedup();
        let mut earliest: Option<f64> = None;
        let mut y = vec![0.0; y0.len()];
        for (a, b) in pairs {
            let (Some(g0), Some(g1)) = (gap(t0, y0, a, b), gap(t1, y1, a, b)) else { continue };
            if (g0 < 0.0) == (g1 < 0.0) {
                continue;
            }
            // Bisection keeping g(lo) on the old side and g(hi) on the new side.
            let (mut lo, mut hi) = (t0, earliest.map_or(t1, |e| e.min(t1)));
            if hi < t1 {
                interp(hi, &mut y);
                match gap(hi, &y, a, b) {
                    Some(g) if (g < 0.0) == (g0 < 0.0) => continue,
                    None => continue,
                    _ => {}
                }
            }
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                interp(mid, &mut y);
                match gap(mid, &y, a, b) {
                    Some(g) if (g < 0.0) == (g0 < 0.0) => lo = mid,
                    _ => hi = mid,
                }
            }
            earliest = Some(earliest.map_or(hi, |e| e.min(hi)));
        }
        earliest
    }

    /// The pose of body `i` at a state (see [`World::poses`]).
    fn pose_of(&self, i: usize, t: f64, y: &[f64]) -> Isometry3 {
        let b = &self.bodies[i];
        let offset = self.shape_poses.as_ref().map_or(Isometry3::identity(), |o| o[i]);
        let pose = match (&b.motion, self.coords.free(i), &self.mechanism) {
            (Motion::Free, Some(block), _) => block.pose(y, &b.com),
            (Motion::Kinematic(k), _, _) => k.at(t).0,
            (Motion::Link(k), _, Some(m)) => m.kinematics(y).pose[*k],
            _ => b.initial_pose,
        };
        pose * offset
    }

    /// After an accepted step: updates the contact model's memory (Hertz: which contacts are
    /// active, each with its damping fixed at impact).
    pub fn accept_step(&self, t: f64, y: &[f64]) {
        if self.model.remembers_steps() {
            self.model.accept_step(&self.model_poses(&self.poses(t, y)));
        }
    }

    /// y' = f(t, y).
    pub fn derivative(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), DynamicsError> {
        let loads = self.loads(t, y, Derivatives::None)?;
        for block in self.coords.free_blocks() {
            let (i, b) = (block.body, &self.bodies[block.body]);
            let q = block.quaternion(y);
            let w = block.angular_velocity(y);
            let inertia = self.world_inertia(i, y);
            let alpha = inertia.try_inverse().unwrap_or_else(Matrix3::zeros)
                * (loads.torque[i] - w.cross(&(inertia * w)));
            let qdot = Quaternion::from_imag(w) * q * 0.5;
            let a = loads.force[i] / b.mass;
            // The rate of a block is laid out as the block: (ẋ, q̇, v̇, ω̇).
            block.set_com(dy, &block.velocity(y));
            block.set_quaternion(dy, &qdot);
            block.set_velocity(dy, &a);
            block.set_angular_velocity(dy, &alpha);
        }
        let (mut dissipation, mut external_power) = (loads.dissipation, loads.external_power);
        if let Some(m) = &self.mechanism {
            let (damping, work) = self.mechanism_rate(m, t, y, &loads, dy)?;
            dissipation += damping;
            external_power += work;
        }
        self.coords.set_dissipation_rate(dy, dissipation);
        self.coords.set_external_power(dy, external_power);
        Ok(())
    }

    /// The mechanism's part of y' = f(t, y) (its block of `dy`), with the power its joint
    /// damping dissipates and the work rate of its actuators and applied loads.
    fn mechanism_rate(
        &self,
        m: &Mechanism,
        t: f64,
        y: &[f64],
        loads: &Loads,
        dy: &mut [f64],
    ) -> Result<(f64, f64), DynamicsError> {
        let (q, v) = (m.q(y), m.v(y));
        let kin = m.kinematics(y);
        let forces = m.joint_forces(t, q, v, Limits::Penalty);
        // Gravity is the articulation's own (as a base acceleration): the links' loads without it.
        let without_gravity: Vec<Vector3> =
            loads.force.iter().zip(&self.bodies).map(|(f, b)| f - self.gravity * b.mass).collect();
        let external = m.link_forces(&kin, &without_gravity, &loads.torque);
        let a = m
            .accelerations(&kin, v, &forces.tau, &self.gravity, &external)
            .map_err(|e| DynamicsError::Setup(format!("mechanism at t = {t}: {e}")))?;
        let a_at = m.q(y).len();
        let (dq, dv) = m.q_v_mut(dy);
        for (k, joint) in m.articulation.joints.iter().enumerate() {
            let (qa, va) = m.articulation.offsets(k);
            let (nq, nv) = (joint.kind.nq(), joint.kind.nv());
            joint.kind.rate(&q[qa..qa + nq], &v[va..va + nv], &mut dq[qa..qa + nq]);
        }
        debug_assert_eq!(a_at, dq.len());
        dv.copy_from_slice(&a);
        m.set_energy_rates(dy, forces.damping_power, forces.actuator_power);
        Ok((forces.damping_power, forces.actuator_power + self.link_applied_power(m, &kin)))
    }

    /// The power of the applied forces and torques on the links.
    fn link_applied_power(&self, m: &Mechanism, kin: &super::coordinates::articulation::Kinematics) -> f64 {
        let mut power = 0.0;
        for (k, link) in m.articulation.links.iter().enumerate() {
            let b = &self.bodies[link.body];
            if b.force != Vector3::zeros() || b.torque != Vector3::zeros() {
                let (pose, twist) = m.pose_and_twist(kin, k);
                let com_velocity = twist.linear + twist.angular.cross(&(pose.rotation * link.com.coords));
                power += b.force.dot(&com_velocity) + b.torque.dot(&twist.angular);
            }
        }
        power
    }

    /// The inertia tensor of body `i` about its centre of mass, world axes (a body that is not
    /// free: at its initial pose).
    pub fn world_inertia(&self, i: usize, y: &[f64]) -> Matrix3 {
        let inertia = &self.bodies[i].inertia;
        match self.coords.free(i) {
            Some(block) => block.world_inertia(y, inertia),
            None => {
                let r = self.bodies[i].initial_pose.rotation.to_rotation_matrix();
                r.matrix() * inertia * r.matrix().transpose()
            }
        }
    }

    /// Renormalises the quaternions of a state.
    pub fn normalize(&self, y: &mut [f64]) {
        for block in self.coords.free_blocks() {
            block.normalize(y);
        }
        if let Some(m) = &self.mechanism {
            m.normalize(y);
        }
    }

    /// A moving body wholly inside a half space (its bounding sphere below the surface), as an
    /// error: the contact can no longer push it out, so the run would go on in silence.
    pub fn through_half_space(&self, t: f64, y: &[f64]) -> Result<(), DynamicsError> {
        if self.half_spaces.is_empty() {
            return Ok(());
        }
        // (Runs every step: free bodies' centres are read from the state, links' from one
        // forward kinematics pass.)
        let kin = self.mechanism.as_ref().map(|m| m.kinematics(y));
        for &h in &self.half_spaces {
            let frame = self.half_space_frame(h, t);
            let normal = frame.rotation * Vector3::z();
            for (i, body) in self.bodies.iter().enumerate() {
                let Some(radius) = self.extents[i] else { continue };
                let com = match (&body.motion, self.coords.free(i), &self.mechanism, &kin) {
                    (Motion::Free, Some(block), _, _) => Point3::from(block.com(y)),
                    (Motion::Link(k), _, Some(m), Some(kin)) => m.com(kin, *k),
                    _ => continue,
                };
                let height = normal.dot(&(com - frame.translation.vector).coords);
                if height < -radius {
                    return Err(DynamicsError::ThroughHalfSpace {
                        t,
                        body: body.name.clone(),
                        half_space: self.bodies[h].name.clone(),
                        depth: -height - radius,
                    });
                }
            }
        }
        Ok(())
    }

    /// The frame of half space `h` (a fixed or kinematic body) at time `t`: its surface is the
    /// frame's z = 0, its solid below.
    pub fn half_space_frame(&self, h: usize, t: f64) -> Isometry3 {
        let mut frame = self.pose_at(h, t);
        if let Some(offsets) = &self.shape_poses {
            frame *= offsets[h];
        }
        frame
    }

    /// [`DynamicsError::WallTime`] at `t` once the run's deadline has passed.
    pub fn past_deadline(&self, t: f64) -> Result<(), DynamicsError> {
        match self.deadline {
            Some((deadline, limit)) if std::time::Instant::now() > deadline => {
                Err(DynamicsError::WallTime { t, limit })
            }
            _ => Ok(()),
        }
    }

    /// The centre of body `i`'s bounding sphere and its velocity at (`t`, `y`); `None` for a
    /// mechanism's link.
    pub fn bound_centre(&self, i: usize, t: f64, y: &[f64]) -> Option<(Vector3, Vector3)> {
        let com = &self.bodies[i].com;
        match (&self.bodies[i].motion, self.coords.free(i)) {
            (Motion::Free, Some(block)) => Some((block.com(y), block.velocity(y))),
            (Motion::Kinematic(k), _) => {
                let (pose, twist) = k.at(t);
                let arm = pose.rotation * com.coords;
                Some((pose.translation.vector + arm, twist.linear + twist.angular.cross(&arm)))
            }
            (Motion::Fixed, _) => Some(((self.bodies[i].initial_pose * com).coords, Vector3::zeros())),
            _ => None,
        }
    }

    /// The frame of body `i`'s shape at (`t`, `y`); `None` for a mechanism's link.
    pub fn shape_frame(&self, i: usize, t: f64, y: &[f64]) -> Option<Isometry3> {
        let pose = match (&self.bodies[i].motion, self.coords.free(i)) {
            (Motion::Free, Some(block)) => block.pose(y, &self.bodies[i].com),
            (Motion::Kinematic(_) | Motion::Fixed, _) => self.pose_at(i, t),
            _ => return None,
        };
        Some(match &self.shape_poses {
            Some(offsets) => pose * offsets[i],
            None => pose,
        })
    }

    /// The pose of a body that has no coordinates (fixed or kinematic) at time `t`.
    fn pose_at(&self, i: usize, t: f64) -> Isometry3 {
        match &self.bodies[i].motion {
            Motion::Kinematic(k) => k.at(t).0,
            _ => self.bodies[i].initial_pose,
        }
    }

    /// Names of the free bodies whose state is not finite, if any.
    pub fn non_finite_bodies(&self, y: &[f64]) -> Option<String> {
        let mut bad: Vec<&str> = self
            .coords
            .free_blocks()
            .iter()
            .filter(|block| !block.is_finite(y))
            .map(|block| self.bodies[block.body].name.as_str())
            .collect();
        // A mechanism's coordinates are shared by its links: all of them are named.
        if let Some(m) = &self.mechanism
            && !m.q(y).iter().chain(m.v(y)).all(|x| x.is_finite())
        {
            bad.extend(m.articulation.links.iter().map(|l| self.bodies[l.body].name.as_str()));
        }
        let bad = bad.join(", ");
        (!bad.is_empty()).then_some(bad)
    }

    /// The first free body moving faster than [`MAX_SPEED`] or turning faster than
    /// [`MAX_RATE`], as an error: no scene the simulator accepts gets there unless it blew up.
    pub fn implausible_motion(&self, t: f64, y: &[f64]) -> Result<(), DynamicsError> {
        for block in self.coords.free_blocks() {
            let i = block.body;
            let v = block.velocity(y).norm();
            let w = block.angular_velocity(y).norm();
            for (speed, limit, unit) in [(v, MAX_SPEED, "m/s"), (w, MAX_RATE, "rad/s")] {
                if speed > limit {
                    let body = self.bodies[i].name.clone();
                    return Err(DynamicsError::Implausible { t, body, speed, unit, limit });
                }
            }
        }
        if let Some(m) = &self.mechanism {
            // Each joint's own rates (no kinematics: this runs every step): a link moving
            // faster than the limits has a joint that does.
            for (k, joint) in m.articulation.joints.iter().enumerate() {
                let (_, va) = m.articulation.offsets(k);
                let v = &m.v(y)[va..va + joint.kind.nv()];
                let (linear, angular) = match joint.kind {
                    JointKind::Prismatic(_) => (v[0].abs(), 0.0),
                    JointKind::Free => (
                        v[3..6].iter().map(|x| x * x).sum::<f64>().sqrt(),
                        v[0..3].iter().map(|x| x * x).sum::<f64>().sqrt(),
                    ),
                    _ => (0.0, v.iter().map(|x| x * x).sum::<f64>().sqrt()),
                };
                for (speed, limit, unit) in [(linear, MAX_SPEED, "m/s"), (angular, MAX_RATE, "rad/s")] {
                    if speed > limit || speed.is_nan() {
                        let body = self.bodies[m.articulation.links[k].body].name.clone();
                        return Err(DynamicsError::Implausible { t, body, speed, unit, limit });
                    }
                }
            }
        }
        Ok(())
    }

    /// The energies at a state.
    pub fn energies(&self, t: f64, y: &[f64]) -> Result<Energies, DynamicsError> {
        let contacts = self.contacts(t, y)?;
        self.energies_with(t, y, &contacts)
    }

    /// The energies at a state whose touching pairs are already known.
    pub fn energies_with(
        &self,
        t: f64,
        y: &[f64],
        contacts: &[PairContact],
    ) -> Result<Energies, DynamicsError> {
        let poses = self.poses(t, y);
        let (kinetic, gravity) = self.motion_energies(y);
        let energy = |c: &PairContact| self.pair_energy(t, &poses, c);
        let parts: Vec<Result<f64, DynamicsError>> = parallel::map(contacts, energy);
        let mut elastic = 0.0;
        for p in parts {
            elastic += p?;
        }
        let dissipated = self.coords.dissipated(y);
        Ok(Energies::new(kinetic, gravity, elastic, dissipated))
    }

    /// The exact elastic energy of touching pair `c` at `poses` (time `t`, for messages).
    pub fn pair_energy(
        &self,
        t: f64,
        poses: &[(Isometry3, Twist)],
        c: &PairContact,
    ) -> Result<f64, DynamicsError> {
        self.model.energy(c, &self.model_poses(poses)).map_err(|source| DynamicsError::Contact {
            t,
            a: self.bodies[c.a].name.clone(),
            b: self.bodies[c.b].name.clone(),
            source: Box::new(source),
        })
    }

    /// The kinetic and gravitational energy of the free bodies at a state (J): cheap, no contact.
    pub fn motion_energies(&self, y: &[f64]) -> (f64, f64) {
        let (mut kinetic, mut gravity) = (0.0, 0.0);
        for block in self.coords.free_blocks() {
            let (i, b) = (block.body, &self.bodies[block.body]);
            let (com, v, w) = (block.com(y), block.velocity(y), block.angular_velocity(y));
            let inertia = self.world_inertia(i, y);
            kinetic += 0.5 * b.mass * v.norm_squared() + 0.5 * w.dot(&(inertia * w));
            gravity -= b.mass * self.gravity.dot(&com);
        }
        if let Some(m) = &self.mechanism {
            // The joint springs' energy counts with gravity's as potential energy of the motion.
            let kin = m.kinematics(y);
            kinetic += m.articulation.kinetic_energy(&kin, m.v(y));
            gravity += m.articulation.potential_energy(&kin, &self.gravity) + m.spring_energy(m.q(y));
        }
        (kinetic, gravity)
    }

    /// The free body with the most kinetic energy at a state, for messages.
    pub fn most_energetic_body(&self, y: &[f64]) -> Option<&str> {
        let energy = |i: usize| {
            let block = self.coords.free(i)?;
            let (v, w) = (block.velocity(y), block.angular_velocity(y));
            let e =
                0.5 * self.bodies[i].mass * v.norm_squared() + 0.5 * w.dot(&(self.world_inertia(i, y) * w));
            Some(if e.is_nan() { f64::INFINITY } else { e })
        };
        (0..self.bodies.len())
            .filter_map(|i| energy(i).map(|e| (e, i)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i)| self.bodies[i].name.as_str())
    }

    /// Names of the bodies in contact at a state, for messages.
    pub fn bodies_in_contact(&self, t: f64, y: &[f64]) -> String {
        let pairs: Vec<(usize, usize)> = match self.model.capability() {
            Capability::Force(_) => {
                self.contacts(t, y).map(|c| c.iter().map(|c| (c.a, c.b)).collect()).unwrap_or_default()
            }
            // Impulse models have no contact forces to list: the pairs that overlap.
            Capability::Impulse(m) => m.overlapping_pairs(&self.model_poses(&self.poses(t, y)), t),
        };
        if pairs.is_empty() {
            return "none".into();
        }
        let mut names: Vec<&str> = pairs
            .iter()
            .flat_map(|&(a, b)| [self.bodies[a].name.as_str(), self.bodies[b].name.as_str()])
            .collect();
        names.sort_unstable();
        names.dedup();
        names.join(", ")
    }
}

/// The loads on the bodies at a state (see [`World::loads`]).
#[derive(Clone, Debug, Default)]
pub struct Loads {
    /// Net force on each body (N, world frame).
    pub force: Vec<Vector3>,
    /// Net torque on each body about its centre of mass (N·m, world frame).
    pub torque: Vec<Vector3>,
    /// Rate at which contact dissipates energy (W, ≥ 0).
    pub dissipation: f64,
    /// Power of the applied loads and kinematic bodies on the free bodies (W).
    pub external_power: f64,
    /// The touching pairs.
    pub contacts: Vec<PairContact>,
    /// (a, b, derivatives) of each touching pair, when asked for.
    pub derivatives: Vec<(usize, usize, Arc<PairDerivatives>)>,
}

impl Loads {
    /// Adds a touching pair's wrench (on `a`, torque about the world origin; `b` gets the
    /// opposite) with torques moved to the centres of mass `coms`.
    fn add_contact(&mut self, c: PairContact, coms: &[Point3]) {
        let w = c.wrench;
        self.force[c.a] += w.force;
        self.torque[c.a] += w.torque_about(&coms[c.a]);
        self.force[c.b] -= w.force;
        self.torque[c.b] -= w.torque_about(&coms[c.b]);
        self.dissipation -= c.dissipation_power;
        self.contacts.push(c);
    }
}

/// Energies of the world (J). `total` = kinetic + gravity + elastic + dissipated: constant
/// unless applied loads or kinematic bodies do work.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Energies {
    pub kinetic: f64,
    pub gravity: f64,
    pub elastic: f64,
    pub dissipated: f64,
    pub total: f64,
}

impl Energies {
    /// The energies with their total.
    pub fn new(kinetic: f64, gravity: f64, elastic: f64, dissipated: f64) -> Energies {
        Energies { kinetic, gravity, elastic, dissipated, total: kinetic + gravity + elastic + dissipated }
    }
}
