//! The elastic energy U between exact evaluations in fixed-step runs.
//!
//! An exact U (tet clipping) costs several contact queries, too much for every output row. The
//! elastic forces are −∇U, so between exact evaluations each pair's U is advanced by their
//! work: over a step each body moves with its end velocity V (its centre of mass translating,
//! turning about it), and the work is the trapezoid ½·(Q(start) + Q(end))·V·dt of the pair's
//! elastic generalized forces Q (force, torque about each body's centre of mass at that state)
//! — second order in dt, exact for linear springs. (Torques about a fixed point would not do:
//! with the start state's torque and the end state's velocities, a body that turns while it
//! moves gains a first-order error ω·((c_start − c_end) × F).) Where the power P is monotone
//! over a step the trapezoid is off by at most |P(end) − P(start)|·dt/2; these bounds are
//! summed. A pair's U is computed exactly again at an output when the pair has just come
//! into contact, when the error estimates summed since its last exact value exceed
//! [`RETRACK_FRACTION`] of that value (an impact: the force is far from linear over a step),
//! and for every pair every `exact_energy_dt`. A pair out of contact has U = 0. The largest
//! correction an exact value made is kept for the run's report.
//!
//! Pairs whose model gives the energy with the wrench (closed form, as Hertz's) are not tracked.

use super::error::DynamicsError;
use super::world::{Energies, World};
use crate::contact::model::PairContact;
use crate::math::{Isometry3, Point3, Twist, Vector3, parallel};
use std::collections::BTreeMap;

/// The share of a pair's exact U that the estimated error of the work tracked since may reach
/// before U is computed exactly again: at an impact, where the force is far from linear over a
/// step, the tracked U must stay within a few parts in 10⁵ of the exact one.
pub const RETRACK_FRACTION: f64 = 5e-4;

/// One tracked pair.
#[derive(Clone, Copy, Debug)]
struct TrackedPair {
    /// U (J).
    energy: f64,
    /// U at its last exact value (J); `None` before the first.
    exact: Option<f64>,
    /// The estimated error of the work tracked since (J).
    error: f64,
    /// The elastic generalized forces on `a` and `b` at the last state.
    forces: PairForces,
    /// Whether the pair touched at the last step (the others are dropped after it).
    touching: bool,
}

/// The generalized forces of a pair's elastic wrench: (force, torque about the centre of mass)
/// on `a` and on `b`, world frame.
type PairForces = [(Vector3, Vector3); 2];

/// The tracked pairs, in pair order.
#[derive(Clone, Debug, Default)]
pub struct ElasticTracker {
    pairs: BTreeMap<(usize, usize), TrackedPair>,
    /// The largest |exact − tracked| seen when a pair's U was computed exactly again (J).
    pub largest_correction: f64,
}

impl ElasticTracker {
    /// Advances over a step of `dt` ending at a state with the bodies' `poses` (and twists) and
    /// the contacts there.
    pub fn advance(
        &mut self,
        world: &World,
        poses: &[(Isometry3, Twist)],
        contacts: &[PairContact],
        dt: f64,
    ) {
        // Each body's centre of mass and its velocity.
        let com = |i: usize| {
            let (pose, twist) = &poses[i];
            let r = pose.rotation * world.bodies[i].com.coords;
            (pose.translation.vector + r, twist.linear + twist.angular.cross(&r), twist.angular)
        };
        // Updated in place (a map built afresh would allocate every step).
        for pair in self.pairs.values_mut() {
            pair.touching = false;
        }
        for c in contacts.iter().filter(|c| is_tracked(c)) {
            let Some(wrench) = c.elastic else { continue };
            let (ca, va, wa) = com(c.a);
            let (cb, vb, wb) = com(c.b);
            let forces: PairForces = [
                (wrench.force, wrench.torque_about(&Point3::from(ca))),
                (-wrench.force, -wrench.torque_about(&Point3::from(cb))),
            ];
            let power =
                |q: &PairForces| q[0].0.dot(&va) + q[0].1.dot(&wa) + q[1].0.dot(&vb) + q[1].1.dot(&wb);
            let pair = self.pairs.entry((c.a, c.b)).or_insert(TrackedPair {
                energy: 0.0,
                exact: None,
                error: 0.0,
                forces: [(Vector3::zeros(), Vector3::zeros()); 2],
                touching: false,
            });
            let (before, after) = (power(&pair.forces), power(&forces));
            let work = 0.5 * (before + after) * dt;
            // The trapezoid is off by at most half the change of the power over the step
            // times dt where the power is monotone over it.
            pair.error += (after - before).abs() * dt / 2.0;
            pair.energy -= work;
            pair.forces = forces;
            pair.touching = true;
        }
        self.pairs.retain(|_, pair| pair.touching);
    }

    /// Computes U exactly again for the pairs that need it ([`ElasticTracker`]; all of them
    /// with `all`), with `exact` giving a touching pair's U at the current state (pairs in
    /// parallel: each is several contact queries).
    pub fn correct(
        &mut self,
        contacts: &[PairContact],
        all: bool,
        exact: impl Fn(&PairContact) -> Result<f64, DynamicsError> + Sync,
    ) -> Result<(), DynamicsError> {
        let due: Vec<&PairContact> = contacts
            .iter()
            .filter(|c| is_tracked(c))
            .filter(|c| {
                self.pairs.get(&(c.a, c.b)).is_some_and(|pair| {
                    all || match pair.exact {
                        None => true,
                        Some(u) => pair.error > RETRACK_FRACTION * u.abs(),
                    }
                })
            })
            .collect();
        let values: Vec<Result<f64, DynamicsError>> = parallel::map(&due, |c| exact(c));
        for (c, u) in due.iter().zip(values) {
            let u = u?;
            let Some(pair) = self.pairs.get_mut(&(c.a, c.b)) else { continue };
            if pair.exact.is_some() {
                self.largest_correction = self.largest_correction.max((u - pair.energy).abs());
            }
            *pair = TrackedPair { energy: u, exact: Some(u), error: 0.0, ..*pair };
        }
        Ok(())
    }

    /// U of the tracked pairs now (J).
    pub fn value(&self) -> f64 {
        self.pairs.values().map(|p| p.energy).sum()
    }
}

/// Whether a pair's elastic energy is tracked (its model gives none with the wrench).
pub fn is_tracked(c: &PairContact) -> bool {
    c.energy.is_none() && c.elastic.is_some()
}

/// The energies at state `y` whose kinetic and gravitational energy are known
/// ([`World::motion_energies`]), with the elastic energy of the tracked pairs given and that of
/// the others taken from their contacts.
pub fn tracked_energies(
    world: &World,
    y: &[f64],
    (kinetic, gravity): (f64, f64),
    contacts: &[PairContact],
    tracked: f64,
) -> Energies {
    let elastic = closed_form_energy(contacts) + tracked;
    Energies::new(kinetic, gravity, elastic, world.coords.dissipated(y))
}

/// The elastic energy of the pairs that give it with their wrench (J).
pub fn closed_form_energy(contacts: &[PairContact]) -> f64 {
    contacts.iter().filter_map(|c| c.energy).sum()
}
