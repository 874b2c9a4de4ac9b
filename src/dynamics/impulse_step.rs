//! What the impulse-based steps (`time_stepping` for volume6d, `peg_step`) share: each body's
//! velocity without contact at the start of a step, and the move at its end with the energy it
//! books.

use super::coordinates::InverseMass;
use super::error::DynamicsError;
use super::mechanism_response::MechanismResponse;
use super::world::World;
use crate::math::{Isometry3, Point3, Twist, Vector3};
use nalgebra::{DVector, Vector6};
use smallvec::SmallVec;

/// Each body at the start of a step.
pub(super) struct StepStart {
    /// Centre of mass (world).
    pub com: Vec<Point3>,
    /// (centre-of-mass linear, angular) velocity, world: for the bodies that move, V* = V +
    /// dt·M⁻¹·(gravity, applied loads, −ω × Iω) (the velocity without contact); for the others
    /// their prescribed motion.
    pub velocity: Vec<Vector6<f64>>,
    /// The bodies that move: (1/m, I⁻¹ in the world frame).
    pub inverse_mass: Vec<Option<InverseMass>>,
    /// The mechanism's links, moved by impulses through their joints (their `velocity`: the
    /// one without contact).
    pub mechanism: Option<MechanismResponse>,
}

impl StepStart {
    /// The bodies at `poses` (state `y`); the free bodies for which `moves(i)` holds are the ones
    /// impulses move.
    pub fn new(
        world: &World,
        poses: &[(Isometry3, Twist)],
        y: &[f64],
        dt: f64,
        moves: impl Fn(usize) -> bool,
    ) -> StepStart {
        let n = world.bodies.len();
        let mut out = StepStart {
            com: vec![Point3::origin(); n],
            velocity: vec![Vector6::zeros(); n],
            inverse_mass: vec![None; n],
            mechanism: None,
        };
        for (i, body) in world.bodies.iter().enumerate() {
            let (pose, twist) = &poses[i];
            let r = pose.rotation * body.com.coords;
            out.com[i] = Point3::from(pose.translation.vector + r);
            let mut v = twist.linear + twist.angular.cross(&r);
            let mut w = twist.angular;
            if world.coords.is_free(i) && moves(i) {
                let inertia = world.world_inertia(i, y);
                let inverse = InverseMass::new(body.mass, &inertia);
                v += dt * (world.gravity + body.force / body.mass);
                w += dt * (inverse.angular * (body.torque - w.cross(&(inertia * w))));
                out.inverse_mass[i] = Some(inverse);
            }
            out.velocity[i] = Vector6::new(v.x, v.y, v.z, w.x, w.y, w.z);
        }
        out
    }

    /// With the world's mechanism at state `y` (time `t`): its links' velocities without
    /// contact, and their response to impulses.
    pub fn with_mechanism(
        mut self,
        world: &World,
        t: f64,
        y: &[f64],
        dt: f64,
    ) -> Result<Self, DynamicsError> {
        if let Some(m) = &world.mechanism {
            let response = MechanismResponse::new(world, m, t, y, dt)?;
            for (k, &body) in response.bodies.iter().enumerate() {
                self.velocity[body] = response.velocity(k);
            }
            self.mechanism = Some(response);
        }
        Ok(self)
    }

    /// Whether impulses move body `i` (a free body or a link).
    pub fn moves(&self, i: usize) -> bool {
        self.inverse_mass[i].is_some() || self.mechanism.as_ref().is_some_and(|r| r.link_of(i).is_some())
    }

    /// How a unit impulse `j` (force; torque about the centre of mass; world) on body `i`
    /// changes the bodies' velocities: its own for a free body, every link's for a link.
    pub fn moved(&self, i: usize, j: &Vector6<f64>) -> SmallVec<[(usize, Vector6<f64>); 2]> {
        if let Some(m) = &self.inverse_mass[i] {
            return smallvec::smallvec![(i, m.times(j))];
        }
        match self.mechanism.as_ref().and_then(|r| r.link_of(i).map(|k| (r, k))) {
            Some((r, k)) => {
                r.bodies.iter().enumerate().map(|(l, &body)| (body, r.coupling(l, k) * j)).collect()
            }
            None => SmallVec::new(),
        }
    }
}

/// Moves every body that `moves` with its new `velocity` (centre of mass, angular; world) over
/// `dt` — positions also by `pseudo`, a position correction that leaves velocities alone — and
/// books the step's energy: what (kinetic + gravity) the impulses took beyond the applied loads'
/// work is dissipated when positive, less the gravity energy the correction gave back (the
/// extra fall an overlap had allowed); a step that gains is left for the energy watch to see.
pub(super) fn advance(
    world: &World,
    y: &mut [f64],
    dt: f64,
    velocity: &[Vector6<f64>],
    pseudo: Option<&[Vector6<f64>]>,
    moves: impl Fn(usize) -> bool,
    joints: Option<&(DVector<f64>, DVector<f64>, f64)>,
) {
    let (kinetic, gravity) = world.motion_energies(y);
    let before = kinetic + gravity;
    let (mut applied_work, mut correction_energy) = (0.0, 0.0);
    for (i, body) in world.bodies.iter().enumerate() {
        let Some(block) = world.coords.free(i) else { continue };
        if !moves(i) {
            continue;
        }
        let v = velocity[i];
        let (lin, ang) = (Vector3::new(v[0], v[1], v[2]), Vector3::new(v[3], v[4], v[5]));
        let p = pseudo.map_or_else(Vector6::zeros, |p| p[i]);
        let (move_lin, move_ang) =
            (lin + Vector3::new(p[0], p[1], p[2]), ang + Vector3::new(p[3], p[4], p[5]));
        applied_work += dt * (body.force.dot(&lin) + body.torque.dot(&ang));
        correction_energy -= body.mass * world.gravity.dot(&(Vector3::new(p[0], p[1], p[2]) * dt));
        // The state holds the centre of mass and its velocity.
        let (com, q) = block.advanced_pose(y, &move_lin, &move_ang, dt);
        block.set_com(y, &com);
        block.set_velocity(y, &lin);
        block.set_angular_velocity(y, &ang);
        block.set_quaternion(y, &q);
    }
    // The mechanism: its new independent velocities and their position correction; its
    // actuators' work at the end of the step (their gains act there).
    if let (Some(m), Some((u, shift, t_end))) = (&world.mechanism, joints) {
        m.advance(y, u, shift, dt);
        let forces = m.joint_forces(*t_end, m.q(y), m.v(y), super::mechanism::Limits::Constraints);
        applied_work += dt * forces.actuator_power;
        // (The joint damping's loss is in the step's booked loss too.)
        m.add_energies(y, dt * forces.damping_power, dt * forces.actuator_power);
    }
    let (kinetic, gravity) = world.motion_energies(y);
    let lost = before + applied_work - (kinetic + gravity - correction_energy);
    world.coords.add_dissipated(y, lost.max(0.0) - correction_energy);
    world.coords.add_work(y, applied_work);
}
