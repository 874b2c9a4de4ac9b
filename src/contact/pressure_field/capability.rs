//! The pressure field as a force model ([`crate::contact::capability`]).

use super::body::PfGeometry;
use super::setup::PressureFieldModel;
use crate::contact::ModelKind;
use crate::contact::body_mesh::BodyMesh;
use crate::contact::capability::{Capability, ForceModel, Model, Poses};
use crate::contact::errors::ContactError;
use crate::contact::memory::ContactMemory;
use crate::contact::pair_contact::{Derivatives, PairContact, PairDerivatives, SharedDerivatives};
use crate::contact::surface::ContactSurface;
use crate::math::{Isometry3, Point3};
use std::sync::Arc;

impl Model for PressureFieldModel {
    fn kind(&self) -> ModelKind {
        ModelKind::PressureField
    }

    fn capability(&self) -> Capability<'_> {
        Capability::Force(self)
    }

    fn candidate_pairs(&self, poses: &Poses) -> Vec<(usize, usize)> {
        PressureFieldModel::candidate_pairs(self, poses)
    }

    fn present(&self, _i: usize, _t: f64) -> bool {
        true
    }

    fn penetration(&self, pair: (usize, usize), poses: &Poses) -> Result<Option<f64>, ContactError> {
        Ok(Some(PressureFieldModel::penetration(self, pair, poses)?))
    }

    fn has_surfaces(&self) -> bool {
        true
    }

    fn surface(&self, pair: (usize, usize), poses: &Poses) -> Result<Option<ContactSurface>, ContactError> {
        Ok(Some(PressureFieldModel::surface(self, pair, poses)?))
    }

    /// None: the pressure field has surfaces.
    fn contact_points(&self, _pair: (usize, usize), _poses: &Poses) -> Result<Vec<Point3>, ContactError> {
        Ok(Vec::new())
    }

    fn body_mesh(&self, i: usize) -> Option<BodyMesh<'_>> {
        let body = &self.bodies[i];
        match &body.geometry {
            PfGeometry::CompliantMesh(c) => Some(BodyMesh::Tets {
                vertices: &c.mesh.vertices,
                tets: &c.mesh.tets,
                extent: &c.extent,
                modulus: body.modulus.unwrap_or(0.0),
            }),
            PfGeometry::RigidMesh(r) => {
                Some(BodyMesh::Triangles { vertices: &r.mesh.vertices, triangles: &r.mesh.triangles })
            }
            _ => None,
        }
    }

    fn counters(&self) -> Option<(String, bool)> {
        None
    }
}

impl ForceModel for PressureFieldModel {
    fn evaluate(
        &self,
        (a, b): (usize, usize),
        poses: &Poses,
        refs: (&Point3, &Point3),
        derivatives: Derivatives,
    ) -> Result<Option<(PairContact, Option<SharedDerivatives>)>, ContactError> {
        let refs = (derivatives != Derivatives::None).then_some(refs);
        let stiffness = derivatives == Derivatives::VelocityAndPose;
        let (r, j) = PressureFieldModel::evaluate(self, (a, b), poses, refs, stiffness)?;
        if r.faces == 0 {
            return Ok(None);
        }
        let contact = PairContact {
            a,
            b,
            wrench: r.wrench,
            area: Some(r.area),
            faces: Some(r.faces),
            dissipation_power: r.dissipation_power,
            energy: None,
            elastic: Some(r.elastic),
            // (At output times from the surface: ContactSurface::centre_of_pressure.)
            centre: None,
        };
        Ok(Some((contact, j.map(|d| Arc::new(PairDerivatives { velocity: d.0, pose: d.1 })))))
    }

    /// Exact, by tet clipping.
    fn energy(&self, c: &PairContact, poses: &Poses) -> Result<f64, ContactError> {
        Ok(PressureFieldModel::energy(self, (c.a, c.b), poses)?)
    }

    fn has_events(&self) -> bool {
        false
    }

    fn gap(&self, _pair: (usize, usize), _poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        None
    }

    fn remembers_steps(&self) -> bool {
        false
    }

    fn accept_step(&self, _poses: &Poses) {}

    fn memory(&self) -> ContactMemory {
        ContactMemory::default()
    }

    fn restore_memory(&self, _memory: &ContactMemory) {}
}
