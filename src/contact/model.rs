//! The contact model a world runs under: one value, built from a scene in one place
//! (`scene::contact_model`), that the world and the commands ask for contacts without
//! branching on which model it is. A new model is a folder under `contact/` and one arm in
//! each `match` of this file.

use super::ModelKind;
use super::hertz::HertzModel;
use super::hertz::pair::HertzPairError;
pub use super::pair_contact::{Derivatives, PairContact, PairDerivatives, PairMatrix, SharedDerivatives};
use super::peg::model::PegModel;
use super::pressure_field::{
    BodyBuildError, ContactSurface, PfGeometry, PressureFieldError, PressureFieldModel,
};
use super::volume6d::model::Volume6dModel;
use crate::math::{Isometry3, Point3, Twist};
use std::sync::Arc;

/// How a model advances the bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepping {
    /// "state → wrenches (+ energy)": the world's integrators move the bodies.
    Force,
    /// "state → impulses": the model's own velocity-level step (`time_stepping`) moves them.
    Velocity,
}

/// A contact query failed.
#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    #[error(transparent)]
    PressureField(#[from] PressureFieldError),
    #[error(transparent)]
    Hertz(#[from] HertzPairError),
    #[error(transparent)]
    Volume6d(#[from] super::volume6d::body::Volume6dPairError),
}

/// A scene's contact model could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ModelSetupError {
    #[error(transparent)]
    PressureField(#[from] BodyBuildError),
    #[error("{0:#}")]
    Hertz(anyhow::Error),
    #[error(transparent)]
    Volume6d(#[from] super::volume6d::model::Volume6dSetupError),
    #[error(transparent)]
    Peg(#[from] super::peg::model::PegSetupError),
}

/// A body's mesh as a model holds it, for drawing.
pub enum BodyMesh<'a> {
    /// A compliant tet mesh (body frame) with its extent ε and hydroelastic modulus.
    Tets { vertices: &'a [Point3], tets: &'a [[u32; 4]], extent: &'a [f64], modulus: f64 },
    /// A rigid surface mesh (body frame).
    Triangles { vertices: &'a [Point3], triangles: &'a [[u32; 3]] },
}

/// What a model remembers between steps (Hertz: the damping of each active contact, fixed
/// at impact, keyed by pair); empty for models without memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactMemory(pub std::collections::BTreeMap<(usize, usize), f64>);

/// The contact models that run.
pub enum ContactModel {
    PressureField(PressureFieldModel),
    Hertz(HertzModel),
    Volume6d(Volume6dModel),
    Peg(PegModel),
}

impl ContactModel {
    pub fn kind(&self) -> ModelKind {
        match self {
            ContactModel::PressureField(_) => ModelKind::PressureField,
            ContactModel::Hertz(_) => ModelKind::Hertz,
            ContactModel::Volume6d(_) => ModelKind::Volume6d,
            ContactModel::Peg(_) => ModelKind::Peg,
        }
    }

    pub fn stepping(&self) -> Stepping {
        match self {
            ContactModel::Volume6d(_) | ContactModel::Peg(_) => Stepping::Velocity,
            _ => Stepping::Force,
        }
    }

    /// The speed (m/s) at which a velocity-level model may push an existing overlap out; the
    /// bodies keep it, so the energy watch allows it (PEG's `correction_speed`; 0 for models
    /// that correct positions without changing velocities, or not at all).
    pub fn correction_speed(&self) -> f64 {
        match self {
            ContactModel::Peg(m) => m.settings.correction_speed,
            _ => 0.0,
        }
    }

    /// What to change when a velocity-level step breaks the energy balance.
    pub fn time_stepping_advice(&self) -> &'static str {
        match self {
            ContactModel::Peg(_) => {
                "use a smaller dt or a smaller [model] contact_tolerance, and start the bodies apart"
            }
            _ => "the contact solve did not converge: raise [model] iterations, or use a smaller dt",
        }
    }

    /// Whether contacts start and end at sharp events worth locating in time (point contact).
    pub fn has_events(&self) -> bool {
        matches!(self, ContactModel::Hertz(_))
    }

    /// The pairs that may touch at `poses` (broad phase), sorted.
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        match self {
            ContactModel::PressureField(m) => m.candidate_pairs(poses),
            ContactModel::Hertz(m) => m.candidate_pairs(poses),
            ContactModel::Volume6d(m) => m.candidate_pairs(poses),
            ContactModel::Peg(m) => m.candidate_pairs(poses),
        }
    }

    /// The contact of pair (a, b) at `poses`, `None` where it does not touch; with derivatives
    /// about the reference points `refs` (world frame) when asked for.
    pub fn evaluate(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
        refs: (&Point3, &Point3),
        derivatives: Derivatives,
    ) -> Result<Option<(PairContact, Option<SharedDerivatives>)>, ContactError> {
        match self {
            ContactModel::PressureField(m) => {
                let refs = (derivatives != Derivatives::None).then_some(refs);
                let stiffness = derivatives == Derivatives::VelocityAndPose;
                let (r, j) = m.evaluate((a, b), poses, refs, stiffness)?;
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
                };
                Ok(Some((contact, j.map(|d| Arc::new(PairDerivatives { velocity: d.0, pose: d.1 })))))
            }
            ContactModel::Hertz(m) => {
                let Some(c) = m.contact(a, b, poses).transpose()?.flatten() else { return Ok(None) };
                let contact = PairContact {
                    a,
                    b,
                    wrench: c.wrench,
                    area: None,
                    faces: None,
                    dissipation_power: c.dissipation_power,
                    energy: Some(c.energy),
                    elastic: None,
                };
                // Damping and friction stay explicit (no velocity Jacobian); the stiffness is
                // in closed form (contact/hertz/stiffness.rs).
                let n_geo = m.law(a, b).map_or(1.5, |law| law.n_geo);
                let derivatives = (derivatives != Derivatives::None).then(|| {
                    Arc::new(PairDerivatives {
                        velocity: PairMatrix::zeros(),
                        pose: (derivatives == Derivatives::VelocityAndPose)
                            .then(|| super::hertz::stiffness::hertz_stiffness(&c, n_geo, refs)),
                    })
                });
                Ok(Some((contact, derivatives)))
            }
            // Impulses, not forces: the time-stepping integrator asks the model directly.
            ContactModel::Volume6d(_) | ContactModel::Peg(_) => Ok(None),
        }
    }

    /// The elastic energy of a touching pair at `poses` (J).
    pub fn energy(&self, c: &PairContact, poses: &[(Isometry3, Twist)]) -> Result<f64, ContactError> {
        if let Some(e) = c.energy {
            return Ok(e);
        }
        match self {
            ContactModel::PressureField(m) => Ok(m.energy((c.a, c.b), poses)?),
            ContactModel::Hertz(_) | ContactModel::Volume6d(_) | ContactModel::Peg(_) => Ok(0.0),
        }
    }

    /// The signed distance of pair (a, b), for models with events.
    pub fn gap(&self, (a, b): (usize, usize), poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        match self {
            ContactModel::PressureField(_) | ContactModel::Volume6d(_) | ContactModel::Peg(_) => None,
            ContactModel::Hertz(m) => m.gap(a, b, poses),
        }
    }

    /// Whether [`ContactModel::accept_step`] does anything (only Hertz remembers its contacts):
    /// the world skips computing the poses for it otherwise.
    pub fn remembers_steps(&self) -> bool {
        matches!(self, ContactModel::Hertz(_))
    }

    /// After an accepted step: updates the model's contact memory, if it has one.
    pub fn accept_step(&self, poses: &[(Isometry3, Twist)]) {
        if let ContactModel::Hertz(m) = self {
            m.accept_step(poses);
        }
    }

    /// How deep bodies a and b overlap at `poses` (m), in each model's own measure: the pressure
    /// field's [`crate::contact::pressure_field::pair_penetration`], Hertz's penetration δ (the
    /// negated signed distance), the intersection volume over its gradient's norm V/|G| for
    /// `volume6d` and 3D `peg`; `None` for planar `peg` scenes. 0 when apart.
    pub fn penetration(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Option<f64>, ContactError> {
        Ok(match self {
            ContactModel::PressureField(m) => Some(m.penetration((a, b), poses)?),
            ContactModel::Hertz(m) => m.gap(a, b, (&poses[a].0, &poses[b].0)).map(|g| (-g).max(0.0)),
            ContactModel::Volume6d(m) => m.penetration((a, b), poses),
            ContactModel::Peg(m) => m.penetration((a, b), (&poses[a].0, &poses[b].0)),
        })
    }

    /// The model's contact memory (what [`ContactModel::accept_step`] updates), to save a run's
    /// state and resume it later with [`ContactModel::restore_memory`].
    pub fn memory(&self) -> ContactMemory {
        match self {
            ContactModel::Hertz(m) => ContactMemory(m.memory()),
            _ => ContactMemory::default(),
        }
    }

    /// Puts back a contact memory saved with [`ContactModel::memory`].
    pub fn restore_memory(&self, memory: &ContactMemory) {
        if let ContactModel::Hertz(m) = self {
            m.set_memory(memory.0.clone());
        }
    }

    /// The contact surface of pair (a, b), for models with one.
    pub fn surface(
        &self,
        pair: (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Option<ContactSurface>, ContactError> {
        match self {
            ContactModel::PressureField(m) => Ok(Some(m.surface(pair, poses)?)),
            ContactModel::Hertz(_) | ContactModel::Volume6d(_) | ContactModel::Peg(_) => Ok(None),
        }
    }

    /// Where pair (a, b) touches at `poses`, for models without contact surfaces (the viewer's
    /// markers): Hertz's contact point, the 6D model's patch centre; none for the pressure field
    /// (it has surfaces) and PEG (its contacts are constraint sets, not one place).
    pub fn contact_points(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Vec<Point3>, ContactError> {
        match self {
            ContactModel::Hertz(m) => {
                Ok(m.contact(a, b, poses).transpose()?.flatten().map(|c| c.point).into_iter().collect())
            }
            ContactModel::Volume6d(m) => {
                Ok(m.contact((a, b), poses)?.map(|(g, _)| g.patch.origin).into_iter().collect())
            }
            ContactModel::PressureField(_) | ContactModel::Peg(_) => Ok(Vec::new()),
        }
    }

    /// Body `i`'s mesh, for models that mesh bodies.
    pub fn body_mesh(&self, i: usize) -> Option<BodyMesh<'_>> {
        let ContactModel::PressureField(m) = self else { return None };
        let body = &m.bodies[i];
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

    /// Whether the model has contact surfaces to draw.
    pub fn has_surfaces(&self) -> bool {
        matches!(self, ContactModel::PressureField(_))
    }

    /// A line about the model's own counters (narrow phase), and whether it reports trouble.
    pub fn counters(&self) -> Option<(String, bool)> {
        let ContactModel::Hertz(m) = self else { return None };
        let c = m.stats.counts();
        let line = format!(
            "narrow phase: {} queries, {} flagged best estimates, {} failed",
            c.queries, c.best_estimates, c.errors
        );
        Some((line, c.best_estimates + c.errors > 0))
    }
}
