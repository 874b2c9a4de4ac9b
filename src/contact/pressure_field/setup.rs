//! The pressure field model of a set of bodies: every body meshed with its field, the query
//! options and the pairs that can touch.

use super::body::{Compliance, ContactProperties, PfBody};
use super::broad_phase::PairIndex;
use super::candidate_cache::CandidateCache;
use super::error::PressureFieldError;
use super::pair::BodyState;
use super::plane_cache::PlaneCache;
use super::query::{
    PairDerivatives, PairWrench, QueryOptions, contact_surface, evaluate_pair_kept,
    evaluate_pair_with_derivatives_kept, pair_energy, pair_penetration,
};
use crate::contact::surface::ContactSurface;
use crate::contact::{self, ContactBody, ContactSpec, PairFilter};
use crate::math::{Isometry3, Point3, Twist};

/// A body failed to build: which one, and why.
#[derive(Debug, thiserror::Error)]
#[error("body `{name}`: {source}")]
pub struct BodyBuildError {
    pub name: String,
    #[source]
    pub source: PressureFieldError,
}

/// The pressure field bodies and the pairs that can touch.
pub struct PressureFieldModel {
    pub bodies: Vec<PfBody>,
    pub options: QueryOptions,
    /// Pairs (a < b) that can touch: not both fixed, not both rigid; ascending.
    pairs: PairIndex,
    /// Each pair's cells near a half space's plane, kept from its last query.
    kept: Vec<PlaneCache>,
    /// Each pair's candidate primitive pairs of two meshes, kept from its last query.
    kept_candidates: Vec<CandidateCache>,
}

/// The pressure field model's view of a body's contact table.
pub fn contact_properties(c: &ContactSpec) -> ContactProperties {
    let compliance = match c.compliance {
        contact::Compliance::Rigid => Compliance::Rigid { resolution: c.resolution },
        contact::Compliance::Compliant => Compliance::Compliant {
            modulus: c.hydroelastic_modulus.unwrap_or(f64::NAN),
            resolution: c.resolution,
            slab_thickness: c.slab_thickness,
        },
    };
    ContactProperties { compliance, dissipation: c.dissipation, friction: c.friction }
}

impl PressureFieldModel {
    /// Meshes every body of `specs` (progress on stderr when `progress` is set); `options` hold
    /// for every query.
    pub fn new(
        specs: &[ContactBody],
        filter: &PairFilter,
        options: QueryOptions,
        progress: bool,
    ) -> Result<PressureFieldModel, BodyBuildError> {
        let mut bodies = Vec::with_capacity(specs.len());
        for spec in specs {
            let Some(shape) = spec.shape else {
                // In no pair (the filter): nothing to mesh.
                bodies.push(PfBody::nothing());
                continue;
            };
            if progress {
                eprintln!("contactlab: meshing body `{}` ({})", spec.name, shape.kind());
            }
            if let crate::geometry::Shape::Mesh { file, notes, .. } = shape {
                for note in notes {
                    eprintln!("contactlab: body `{}`, {}: {note}", spec.name, file.display());
                }
            }
            let (body, notes) = PfBody::build(shape, &contact_properties(spec.contact))
                .map_err(|source| BodyBuildError { name: spec.name.to_string(), source })?;
            for note in notes {
                eprintln!("contactlab: body `{}`: {note}", spec.name);
            }
            bodies.push(body);
        }
        let mut pairs = Vec::new();
        for a in 0..bodies.len() {
            for b in a + 1..bodies.len() {
                let both_rigid = !bodies[a].is_compliant() && !bodies[b].is_compliant();
                if filter.allows(a, b) && !both_rigid {
                    pairs.push((a, b));
                }
            }
        }
        let kept = vec![PlaneCache::default(); pairs.len()];
        let kept_candidates = vec![CandidateCache::default(); pairs.len()];
        let pairs = PairIndex::new(&bodies, pairs);
        Ok(PressureFieldModel { bodies, options, pairs, kept, kept_candidates })
    }

    /// The pairs that can touch whose world bounds overlap at `poses`, in pair order (a half
    /// space: the bodies whose bounds reach below its surface; swept along x from 32 pairs).
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        self.pairs.candidates(&self.bodies, poses)
    }

    fn state(&self, i: usize, poses: &[(Isometry3, Twist)]) -> BodyState<'_> {
        BodyState { body: &self.bodies[i], pose: poses[i].0, twist: poses[i].1 }
    }

    /// The wrench of pair (a, b); with `refs` its velocity Jacobian about those points, and
    /// with `stiffness` also its pose stiffness.
    pub fn evaluate(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
        refs: Option<(&Point3, &Point3)>,
        stiffness: bool,
    ) -> Result<(PairWrench, Option<Box<PairDerivatives>>), PressureFieldError> {
        let (sa, sb) = (self.state(a, poses), self.state(b, poses));
        let k = self.pairs.pairs().binary_search(&(a.min(b), a.max(b))).ok();
        let (kept, candidates) = (k.map(|k| &self.kept[k]), k.map(|k| &self.kept_candidates[k]));
        match refs {
            Some(refs) => {
                let (w, derivatives) = evaluate_pair_with_derivatives_kept(
                    sa,
                    sb,
                    refs,
                    &self.options,
                    (stiffness, kept, candidates),
                )?;
                // Boxed: the matrices are large, and most queries carry none.
                Ok((w, derivatives.map(Box::new)))
            }
            None => Ok((evaluate_pair_kept(sa, sb, &self.options, kept, candidates)?, None)),
        }
    }

    /// The elastic energy of pair (a, b) (exact, by tet clipping).
    pub fn energy(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<f64, PressureFieldError> {
        pair_energy(self.state(a, poses), self.state(b, poses))
    }

    /// The penetration depth of pair (a, b) (m; [`pair_penetration`]).
    pub fn penetration(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<f64, PressureFieldError> {
        pair_penetration(self.state(a, poses), self.state(b, poses))
    }

    /// The contact surface of pair (a, b), for output.
    pub fn surface(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<ContactSurface, PressureFieldError> {
        contact_surface(self.state(a, poses), self.state(b, poses))
    }
}
