//! The energy balance of a run: kinetic + gravity + elastic + dissipated must not exceed the
//! initial total plus the work of applied loads and kinematic bodies by more than a tolerance.
//! A run that breaks it has gone wrong (a step too large for the contact stiffness, a Newton
//! iteration that failed): it stops with a message instead of reporting success.
//!
//! The tolerance is [`RELATIVE_TOLERANCE`] of the scene's energy scale: the initial kinetic and
//! elastic energy, plus for every free body its gravity energy above the lowest fixed or
//! kinematic body frame (the ground) plus the work of lifting it by its radius of gyration, and
//! the work of its applied force over that radius (and of its applied torque over a radian).
//! Under PEG, each free body's m·v² is added for v = `correction_speed` (an overlap's push-out
//! leaves a body with up to that speed).
//! The full balance (with the exact elastic energy) is checked at output times, where the
//! outputs compute the energies anyway; every fixed step checks its necessary part,
//! kinetic + gravity ≤ initial + work + tolerance, which costs no contact query.

use super::error::DynamicsError;
use super::integrator::Integrator;
use super::world::{Energies, World};

/// Fraction of the scene's energy scale by which the total may exceed its budget.
pub const RELATIVE_TOLERANCE: f64 = 0.1;

/// The budget of a run.
#[derive(Clone, Copy, Debug)]
pub struct EnergyWatch {
    initial_total: f64,
    /// Allowed excess (J).
    pub tolerance: f64,
    /// The part of `tolerance` due to the applied loads (J).
    loads_allowance: f64,
}

impl EnergyWatch {
    /// The budget from the initial state `y0` and its energies.
    pub fn new(world: &World, y0: &[f64], initial: &Energies) -> EnergyWatch {
        let g = world.gravity.norm();
        let up = if g > 0.0 { -world.gravity / g } else { crate::math::Vector3::zeros() };
        // Heights are measured from the lowest fixed or kinematic body frame (the ground).
        let floor = world
            .bodies
            .iter()
            .enumerate()
            .filter(|(i, _)| !world.coords.is_free(*i))
            .map(|(_, b)| b.initial_pose.translation.vector.dot(&up))
            .fold(f64::INFINITY, f64::min);
        let mut scale = initial.kinetic.abs() + initial.elastic.abs();
        // A model that pushes an overlap out at up to v (PEG) leaves the body with that speed:
        // each free body may gain up to about ½·m·v² per push (twice that is allowed).
        let correction_speed = world.model.correction_speed();
        let mut correction = 0.0;
        for (i, b) in world.bodies.iter().enumerate() {
            let Some(block) = world.coords.free(i) else { continue };
            if b.mass <= 0.0 {
                continue;
            }
            let gyration = (world.world_inertia(i, y0).trace() / (2.0 * b.mass)).max(0.0).sqrt();
            let com = block.com(y0);
            let height = if floor.is_finite() { (com.dot(&up) - floor).max(0.0) } else { 0.0 };
            scale += b.mass * g * (gyration + height) + b.force.norm() * gyration + b.torque.norm();
            correction += b.mass * correction_speed * correction_speed;
        }
        if let Some(m) = &world.mechanism {
            scale += mechanism_scale(world, m, y0);
        }
        EnergyWatch {
            initial_total: initial.total,
            tolerance: RELATIVE_TOLERANCE * scale + correction + 1e-12,
            loads_allowance: RELATIVE_TOLERANCE * loads_scale(world, y0),
        }
    }

    /// Widens the budget for applied loads that changed during a run (control inputs, now in
    /// the bodies' `force` and `torque`): the allowance for loads becomes that of the largest
    /// loads seen, as if the scene had given them. State `y` for the bodies' inertia.
    pub fn allow_loads(&mut self, world: &World, y: &[f64]) {
        let allowance = RELATIVE_TOLERANCE * loads_scale(world, y);
        if allowance > self.loads_allowance {
            self.tolerance += allowance - self.loads_allowance;
            self.loads_allowance = allowance;
        }
    }

    /// The budget of a run that goes on from a state `y` set by hand (with its energies): the
    /// balance starts again there, the external work done before it (in `y`) counted.
    pub fn restart(world: &World, y: &[f64], energies: &Energies) -> EnergyWatch {
        let mut watch = EnergyWatch::new(world, y, energies);
        watch.initial_total = energies.total - world.coords.work(y);
        watch
    }

    /// Checks `energy` — the total, or a part of it that cannot exceed the total — at time `t`
    /// against the initial total plus `work`; returns its excess over that (J).
    pub fn check(
        &self,
        world: &World,
        t: f64,
        y: &[f64],
        energy: f64,
        work: f64,
        integrator: &Integrator,
    ) -> Result<f64, DynamicsError> {
        let excess = energy - self.initial_total - work;
        if excess <= self.tolerance {
            return Ok(excess);
        }
        let advice = integrator.energy_growth_advice(&world.model);
        Err(DynamicsError::EnergyGrowth {
            t,
            bodies: match (world.bodies_in_contact(t, y).as_str(), world.most_energetic_body(y)) {
                ("none", Some(fastest)) => format!("none; the most energetic body: {fastest}"),
                (names, _) => names.to_string(),
            },
            excess: if excess.is_finite() { excess } else { f64::INFINITY },
            tolerance: self.tolerance,
            advice,
        })
    }
}

/// The applied loads' part of a scene's energy scale (see the module's doc): each free body's
/// applied force times its radius of gyration plus its applied torque times a radian (J).
fn loads_scale(world: &World, y: &[f64]) -> f64 {
    let mut scale = 0.0;
    for (i, b) in world.bodies.iter().enumerate() {
        if !world.coords.is_free(i) || b.mass <= 0.0 {
            continue;
        }
        let gyration = (world.world_inertia(i, y).trace() / (2.0 * b.mass)).max(0.0).sqrt();
        scale += b.force.norm() * gyration + b.torque.norm();
    }
    scale
}

/// A mechanism's share of the scale: each link's weight times how far it can fall (its centre's
/// distance from its root joint, plus its radius of gyration), and the joint springs' energy.
fn mechanism_scale(world: &World, m: &super::mechanism::Mechanism, y: &[f64]) -> f64 {
    let kin = m.kinematics(y);
    let a = &m.articulation;
    let g = world.gravity.norm();
    let mut scale = m.spring_energy(m.q(y));
    for (k, link) in a.links.iter().enumerate() {
        let mut root = k;
        while a.joints[root].parent != super::coordinates::articulation::NONE {
            root = a.joints[root].parent;
        }
        let reach = (m.com(&kin, k) - kin.pose[root].translation.vector).coords.norm();
        let gyration =
            if link.mass > 0.0 { (link.inertia.trace() / (2.0 * link.mass)).max(0.0).sqrt() } else { 0.0 };
        scale += link.mass * g * (reach + gyration);
    }
    scale
}
