//! PEG as an impulse model ([`crate::contact::capability`]).

use super::model::PegModel;
use crate::contact::ModelKind;
use crate::contact::body_mesh::BodyMesh;
use crate::contact::capability::{Capability, ImpulseModel, ImpulseSolver, Model, Poses};
use crate::contact::errors::ContactError;
use crate::contact::surface::ContactSurface;
use crate::math::Point3;

impl Model for PegModel {
    fn kind(&self) -> ModelKind {
        ModelKind::Peg
    }

    fn capability(&self) -> Capability<'_> {
        Capability::Impulse(self)
    }

    fn candidate_pairs(&self, poses: &Poses) -> Vec<(usize, usize)> {
        PegModel::candidate_pairs(self, poses)
    }

    fn present(&self, i: usize, t: f64) -> bool {
        PegModel::present(self, i, t)
    }

    /// V/|G| in 3D; none for planar scenes.
    fn penetration(&self, (a, b): (usize, usize), poses: &Poses) -> Result<Option<f64>, ContactError> {
        Ok(PegModel::penetration(self, (a, b), (&poses[a].0, &poses[b].0)))
    }

    fn has_surfaces(&self) -> bool {
        false
    }

    fn surface(&self, _pair: (usize, usize), _poses: &Poses) -> Result<Option<ContactSurface>, ContactError> {
        Ok(None)
    }

    /// None: its contacts are constraint sets, not one place.
    fn contact_points(&self, _pair: (usize, usize), _poses: &Poses) -> Result<Vec<Point3>, ContactError> {
        Ok(Vec::new())
    }

    fn body_mesh(&self, _i: usize) -> Option<BodyMesh<'_>> {
        None
    }

    fn counters(&self) -> Option<(String, bool)> {
        None
    }
}

impl ImpulseModel for PegModel {
    fn solver(&self) -> ImpulseSolver<'_> {
        ImpulseSolver::Lcp(self)
    }

    fn correction_speed(&self) -> f64 {
        self.settings.correction_speed
    }

    fn time_stepping_advice(&self) -> &'static str {
        "use a smaller dt or a smaller [model] contact_tolerance, and start the bodies apart"
    }

    fn overlapping_pairs(&self, poses: &Poses, t: f64) -> Vec<(usize, usize)> {
        self.overlaps(poses, t).into_iter().filter(|(_, v)| *v > 0.0).map(|(pair, _)| pair).collect()
    }
}
