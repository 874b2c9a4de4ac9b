//! The 6D model as an impulse model ([`crate::contact::capability`]).

use super::model::Volume6dModel;
use crate::contact::ModelKind;
use crate::contact::body_mesh::BodyMesh;
use crate::contact::capability::{Capability, ImpulseModel, ImpulseSolver, Model, Poses};
use crate::contact::errors::ContactError;
use crate::contact::surface::ContactSurface;
use crate::math::Point3;

impl Model for Volume6dModel {
    fn kind(&self) -> ModelKind {
        ModelKind::Volume6d
    }

    fn capability(&self) -> Capability<'_> {
        Capability::Impulse(self)
    }

    fn candidate_pairs(&self, poses: &Poses) -> Vec<(usize, usize)> {
        Volume6dModel::candidate_pairs(self, poses)
    }

    fn present(&self, _i: usize, _t: f64) -> bool {
        true
    }

    /// The intersection volume over its gradient's norm, V/|G|.
    fn penetration(&self, pair: (usize, usize), poses: &Poses) -> Result<Option<f64>, ContactError> {
        Ok(Volume6dModel::penetration(self, pair, poses))
    }

    fn has_surfaces(&self) -> bool {
        false
    }

    /// None: a patch, not a surface.
    fn surface(&self, _pair: (usize, usize), _poses: &Poses) -> Result<Option<ContactSurface>, ContactError> {
        Ok(None)
    }

    /// The patch centre.
    fn contact_points(&self, pair: (usize, usize), poses: &Poses) -> Result<Vec<Point3>, ContactError> {
        Ok(self.contact(pair, poses)?.map(|(g, _)| g.patch.origin).into_iter().collect())
    }

    fn body_mesh(&self, _i: usize) -> Option<BodyMesh<'_>> {
        None
    }

    fn counters(&self) -> Option<(String, bool)> {
        None
    }
}

impl ImpulseModel for Volume6dModel {
    fn solver(&self) -> ImpulseSolver<'_> {
        ImpulseSolver::BlockGaussSeidel(self)
    }

    /// Positions are corrected by pseudo-velocities, which the bodies do not keep.
    fn correction_speed(&self) -> f64 {
        0.0
    }

    fn time_stepping_advice(&self) -> &'static str {
        "the contact solve did not converge: raise [model] iterations, or use a smaller dt"
    }

    fn overlapping_pairs(&self, poses: &Poses, _t: f64) -> Vec<(usize, usize)> {
        self.touching_pairs(poses)
    }
}
