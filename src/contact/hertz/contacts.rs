//! The Hertz point-contact model of a world: per-pair force laws, the broad phase, and the
//! contact memory the model needs (the damping coefficient is fixed from the impact speed when a
//! contact starts, and kept for that contact's life).

use super::force_law::ContactLaw;
use super::pair::{HertzBody, HertzContact, HertzPairError, hertz_pair};
use super::{MprStats, MprTolerances, broad_phase, signed_distance};
use crate::math::{Isometry3, Twist};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Hertz bodies, the laws of the pairs that can touch, and the active contacts' damping.
#[derive(Debug)]
pub struct HertzModel {
    pub bodies: Vec<HertzBody>,
    laws: BTreeMap<(usize, usize), ContactLaw>,
    /// d (s/m) of each active contact, keyed by (a, b) with a < b.
    damping: Mutex<BTreeMap<(usize, usize), f64>>,
    /// Narrow-phase counters: queries, flagged best estimates, errors.
    pub stats: MprStats,
}

impl HertzModel {
    pub fn new(bodies: Vec<HertzBody>, laws: BTreeMap<(usize, usize), ContactLaw>) -> Self {
        Self { bodies, laws, damping: Mutex::new(BTreeMap::new()), stats: MprStats::default() }
    }

    /// The contact memory: the damping of each active contact, keyed by (a, b) with a < b.
    pub fn memory(&self) -> BTreeMap<(usize, usize), f64> {
        self.damping.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Replaces the contact memory (a state saved with [`HertzModel::memory`]).
    pub fn set_memory(&self, memory: BTreeMap<(usize, usize), f64>) {
        if let Ok(mut m) = self.damping.lock() {
            *m = memory;
        }
    }

    /// The law of pair (a, b), a < b, if that pair can touch.
    pub fn law(&self, a: usize, b: usize) -> Option<&ContactLaw> {
        self.laws.get(&(a, b))
    }

    /// The damping fixed when the contact of (a, b) started, if it is active.
    pub fn damping(&self, a: usize, b: usize) -> Option<f64> {
        self.damping.lock().ok().and_then(|m| m.get(&(a, b)).copied())
    }

    /// The contact of pair (a, b), a < b, with the bodies at `poses` (indexed by body) and the
    /// damping its memory holds: `None` where the pair has no law, `Ok(None)` where it is apart.
    pub fn contact(
        &self,
        a: usize,
        b: usize,
        poses: &[(Isometry3, Twist)],
    ) -> Option<Result<Option<HertzContact>, HertzPairError>> {
        let law = self.law(a, b)?;
        Some(hertz_pair(
            (&self.bodies[a], &poses[a].0, &poses[a].1),
            (&self.bodies[b], &poses[b].0, &poses[b].1),
            law,
            self.damping(a, b),
            &self.stats,
        ))
    }

    /// The pairs with a law whose bounding boxes overlap at `poses` (sweep and prune), sorted.
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        let boxes: Vec<_> = self.bodies.iter().zip(poses).map(|(b, (p, _))| b.shape.aabb(p)).collect();
        let mut pairs: Vec<(usize, usize)> = broad_phase(&boxes)
            .into_iter()
            .map(|(a, b)| (a.min(b), a.max(b)))
            .filter(|&(a, b)| self.law(a, b).is_some())
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// The signed distance of pair (a, b) at `poses` (negative when penetrating), if the narrow
    /// phase answers.
    pub fn gap(&self, a: usize, b: usize, poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        let tol = MprTolerances::default();
        signed_distance(&self.bodies[a].shape, poses.0, &self.bodies[b].shape, poses.1, &tol)
            .ok()
            .map(|c| c.distance)
    }

    /// After an accepted step at `poses`: updates the contact memory from the contacts there.
    pub fn accept_step(&self, poses: &[(Isometry3, Twist)]) {
        let contacts: Vec<(usize, usize, HertzContact)> = self
            .candidate_pairs(poses)
            .into_iter()
            .filter_map(|(a, b)| {
                let c = self.contact(a, b, poses)?.ok()??;
                Some((a, b, c))
            })
            .collect();
        self.update(&contacts);
    }

    /// After an accepted step: contacts that started take d from their penetration rate now
    /// (the impact speed; cor counts as 0 below v_small), contacts that ended are forgotten.
    pub fn update(&self, contacts: &[(usize, usize, HertzContact)]) {
        let Ok(mut memory) = self.damping.lock() else { return };
        let active: BTreeMap<(usize, usize), f64> = contacts
            .iter()
            .filter_map(|(a, b, c)| {
                let law = self.laws.get(&(*a, *b))?;
                let d = memory
                    .get(&(*a, *b))
                    .copied()
                    .unwrap_or_else(|| law.damping_at_impact(c.penetration_rate.abs()));
                Some(((*a, *b), d))
            })
            .collect();
        *memory = active;
    }
}
