//! Hertz point contact as a force model ([`crate::contact::capability`]).

use super::contacts::HertzModel;
use crate::contact::ModelKind;
use crate::contact::body_mesh::BodyMesh;
use crate::contact::capability::{Capability, ForceModel, Model, Poses};
use crate::contact::errors::ContactError;
use crate::contact::memory::ContactMemory;
use crate::contact::pair_contact::{
    Derivatives, PairContact, PairDerivatives, PairMatrix, SharedDerivatives,
};
use crate::contact::surface::ContactSurface;
use crate::math::{Isometry3, Point3};
use std::sync::Arc;

impl Model for HertzModel {
    fn kind(&self) -> ModelKind {
        ModelKind::Hertz
    }

    fn capability(&self) -> Capability<'_> {
        Capability::Force(self)
    }

    fn candidate_pairs(&self, poses: &Poses) -> Vec<(usize, usize)> {
        HertzModel::candidate_pairs(self, poses)
    }

    fn present(&self, _i: usize, _t: f64) -> bool {
        true
    }

    /// The penetration δ: the negated signed distance.
    fn penetration(&self, (a, b): (usize, usize), poses: &Poses) -> Result<Option<f64>, ContactError> {
        Ok(HertzModel::gap(self, a, b, (&poses[a].0, &poses[b].0)).map(|g| (-g).max(0.0)))
    }

    fn has_surfaces(&self) -> bool {
        false
    }

    /// None: point contact.
    fn surface(&self, _pair: (usize, usize), _poses: &Poses) -> Result<Option<ContactSurface>, ContactError> {
        Ok(None)
    }

    fn contact_points(&self, (a, b): (usize, usize), poses: &Poses) -> Result<Vec<Point3>, ContactError> {
        Ok(self.contact(a, b, poses).transpose()?.flatten().map(|c| c.point).into_iter().collect())
    }

    /// None: Hertz bodies are support functions, not meshes.
    fn body_mesh(&self, _i: usize) -> Option<BodyMesh<'_>> {
        None
    }

    fn counters(&self) -> Option<(String, bool)> {
        let c = self.stats.counts();
        let line = format!(
            "narrow phase: {} queries, {} flagged best estimates, {} failed",
            c.queries, c.best_estimates, c.errors
        );
        Some((line, c.best_estimates + c.errors > 0))
    }
}

impl ForceModel for HertzModel {
    fn evaluate(
        &self,
        (a, b): (usize, usize),
        poses: &Poses,
        refs: (&Point3, &Point3),
        derivatives: Derivatives,
    ) -> Result<Option<(PairContact, Option<SharedDerivatives>)>, ContactError> {
        let Some(c) = self.contact(a, b, poses).transpose()?.flatten() else { return Ok(None) };
        let contact = PairContact {
            a,
            b,
            wrench: c.wrench,
            area: None,
            faces: None,
            dissipation_power: c.dissipation_power,
            energy: Some(c.energy),
            elastic: None,
            centre: Some((c.point, -c.normal)),
        };
        // Damping and friction stay explicit (no velocity Jacobian); the stiffness is in closed
        // form (stiffness.rs).
        let n_geo = self.law(a, b).map_or(1.5, |law| law.n_geo);
        let derivatives = (derivatives != Derivatives::None).then(|| {
            Arc::new(PairDerivatives {
                velocity: PairMatrix::zeros(),
                pose: (derivatives == Derivatives::VelocityAndPose)
                    .then(|| super::stiffness::hertz_stiffness(&c, n_geo, refs)),
            })
        });
        Ok(Some((contact, derivatives)))
    }

    /// Hertz contacts carry their energy; a pair without one stores none.
    fn energy(&self, _c: &PairContact, _poses: &Poses) -> Result<f64, ContactError> {
        Ok(0.0)
    }

    fn has_events(&self) -> bool {
        true
    }

    fn gap(&self, (a, b): (usize, usize), poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        HertzModel::gap(self, a, b, poses)
    }

    fn remembers_steps(&self) -> bool {
        true
    }

    fn accept_step(&self, poses: &Poses) {
        HertzModel::accept_step(self, poses);
    }

    fn memory(&self) -> ContactMemory {
        ContactMemory(HertzModel::memory(self))
    }

    fn restore_memory(&self, memory: &ContactMemory) {
        self.set_memory(memory.0.clone());
    }
}
