//! A scene's bodies made ready for contact queries: meshes, fields and the pairs to evaluate.

use crate::contact::pressure_field::{self, BodyState, ContactProperties, PfBody, PressureFieldError};
use crate::scene::{BodySpec, Compliance, Scene};

/// The indices of the two bodies of a pair, `a < b` in scene order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairIndex {
    pub a: usize,
    pub b: usize,
}

/// The pressure field bodies of a scene.
pub struct ContactWorld {
    pub bodies: Vec<PfBody>,
}

/// A body failed to build: which one, and why.
#[derive(Debug, thiserror::Error)]
#[error("body `{name}`: {source}")]
pub struct BodyBuildError {
    pub name: String,
    #[source]
    pub source: PressureFieldError,
}

/// The pressure field model's view of a body's contact table.
pub fn contact_properties(spec: &BodySpec) -> ContactProperties {
    let c = &spec.contact;
    let compliance = match c.compliance {
        Compliance::Rigid => pressure_field::Compliance::Rigid { resolution: c.resolution },
        Compliance::Compliant => pressure_field::Compliance::Compliant {
            modulus: c.hydroelastic_modulus.unwrap_or(f64::NAN),
            resolution: c.resolution,
            slab_thickness: c.slab_thickness,
        },
    };
    ContactProperties { compliance, dissipation: c.dissipation, friction: c.friction }
}

impl ContactWorld {
    /// Meshes every body (progress on stderr when `progress` is set).
    pub fn build(scene: &Scene, progress: bool) -> Result<ContactWorld, BodyBuildError> {
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for spec in &scene.bodies {
            if progress {
                eprintln!("contactlab: meshing body `{}` ({})", spec.name, spec.shape.kind());
            }
            if let crate::geometry::Shape::Mesh { file, notes, .. } = &spec.shape {
                for note in notes {
                    eprintln!("contactlab: body `{}`, {}: {note}", spec.name, file.display());
                }
            }
            let (body, notes) = PfBody::build(&spec.shape, &contact_properties(spec))
                .map_err(|source| BodyBuildError { name: spec.name.clone(), source })?;
            for note in notes {
                eprintln!("contactlab: body `{}`: {note}", spec.name);
            }
            bodies.push(body);
        }
        Ok(ContactWorld { bodies })
    }

    /// The pairs that can touch: not both fixed, not both rigid, and with overlapping world
    /// bounds at the given states.
    pub fn candidate_pairs(&self, scene: &Scene, states: &[BodyState]) -> Vec<PairIndex> {
        let mut pairs = Vec::new();
        for a in 0..self.bodies.len() {
            for b in a + 1..self.bodies.len() {
                if scene.bodies[a].fixed && scene.bodies[b].fixed {
                    continue;
                }
                if !self.bodies[a].is_compliant() && !self.bodies[b].is_compliant() {
                    continue;
                }
                let ba = self.bodies[a].world_bounds(&states[a].pose);
                let bb = self.bodies[b].world_bounds(&states[b].pose);
                if let (Some((la, ha)), Some((lb, hb))) = (ba, bb)
                    && (0..3).any(|k| la[k] > hb[k] || lb[k] > ha[k])
                {
                    continue;
                }
                pairs.push(PairIndex { a, b });
            }
        }
        pairs
    }

    /// The state of every body as given in the scene.
    pub fn initial_states<'a>(&'a self, scene: &Scene) -> Vec<BodyState<'a>> {
        self.bodies
            .iter()
            .zip(&scene.bodies)
            .map(|(body, spec)| BodyState { body, pose: spec.pose, twist: spec.twist })
            .collect()
    }
}
