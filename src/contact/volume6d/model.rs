//! The 6D model as the world holds it: every body's geometry and friction, the solver's
//! settings, and each touching pair's contact (intersection moments, frame and patch).

use super::body::{Piece, Volume6dPairError, Volume6dShape, Volume6dShapeError, combined, pair_pieces};
use super::patch::{Patch, patch};
use super::points::contact_points;
use super::settings::Volume6dFormulation;
use crate::contact::{ContactBody, PairFilter};
use crate::geometry::polytope::IntersectionMoments;
use crate::math::{Isometry3, Point3, Twist, Vector3};
use std::collections::BTreeMap;

pub use crate::geometry::polytope::overlap::overlap_depth;

/// The solver's settings: the scene's `[model]` keys of `kind = "volume6d"`.
pub type Volume6dSettings = super::settings::Volume6dSpec;

/// A body's geometry could not be built for the 6D model.
#[derive(Debug, thiserror::Error)]
#[error("body `{body}`: {source}")]
pub struct Volume6dSetupError {
    pub body: String,
    #[source]
    pub source: Volume6dShapeError,
}

/// One touching pair's contact at the start of a step.
#[derive(Clone, Copy, Debug)]
pub struct PairGeometry {
    pub moments: IntersectionMoments,
    /// The contact frame at the footprint's centroid and the patch ellipse; the normal
    /// points from `b` into `a`.
    pub patch: Patch,
    /// The pair's friction coefficient.
    pub friction: f64,
}

/// The last step's impulses, for warm starts: state of one run (a `simulate` run owns one; each
/// `contact` repetition starts from an empty one).
#[derive(Clone, Debug, Default)]
pub struct WarmStarts {
    /// `6d`: each pair's impulse (world frame: force, torque about the world origin).
    pub pairs: BTreeMap<(usize, usize), [Vector3; 2]>,
    /// `points`: each pair's impulses at its points (world frame), in the points' order.
    pub points: BTreeMap<(usize, usize), Vec<Vector3>>,
}

/// The 6D model.
#[derive(Debug)]
pub struct Volume6dModel {
    pub shapes: Vec<Volume6dShape>,
    pub friction: Vec<f64>,
    /// The pairs the scene lets touch.
    pub filter: PairFilter,
    /// Each body's bounding radius about its origin (broad phase).
    pub bounds: Vec<f64>,
    pub settings: Volume6dSettings,
}

impl Volume6dModel {
    /// Every body's geometry from `bodies`, with `settings`.
    pub fn new(
        bodies: &[ContactBody],
        filter: &PairFilter,
        settings: Volume6dSettings,
    ) -> Result<Volume6dModel, Volume6dSetupError> {
        let mut shapes = Vec::with_capacity(bodies.len());
        for b in bodies {
            let shape = Volume6dShape::new(b.shape_or_placeholder(), b.contact.resolution)
                .map_err(|source| Volume6dSetupError { body: b.name.to_string(), source })?;
            shapes.push(shape);
        }
        Ok(Volume6dModel {
            bounds: shapes.iter().map(Volume6dShape::bounding_radius).collect(),
            shapes,
            friction: bodies.iter().map(|b| b.contact.friction).collect(),
            filter: filter.clone(),
            settings,
        })
    }

    /// Pairs that may touch: a body that moves, bounding spheres that overlap; in order.
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        let n = self.shapes.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let both_half_spaces = matches!(
                    (&self.shapes[a], &self.shapes[b]),
                    (Volume6dShape::HalfSpace, Volume6dShape::HalfSpace)
                );
                if both_half_spaces || !self.filter.allows(a, b) {
                    continue;
                }
                let apart = (poses[a].0.translation.vector - poses[b].0.translation.vector).norm();
                if apart <= self.bounds[a] + self.bounds[b] {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The candidate pairs that overlap at `poses` (whose geometry can be evaluated), in order.
    pub fn touching_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        let overlaps = |(a, b): (usize, usize)| {
            let pieces = pair_pieces((&self.shapes[a], &poses[a].0), (&self.shapes[b], &poses[b].0));
            pieces
                .ok()
                .and_then(|p| combined(&p))
                .is_some_and(|m| patch(&m, self.settings.patch_scale).is_some())
        };
        self.candidate_pairs(poses).into_iter().filter(|&p| overlaps(p)).collect()
    }

    /// The depth of pair (a, b)'s overlap V/|G| (m; [`overlap_depth`]): 0 when apart; `None`
    /// where its geometry cannot be evaluated or the depth is not defined.
    pub fn penetration(&self, (a, b): (usize, usize), poses: &[(Isometry3, Twist)]) -> Option<f64> {
        let pieces = pair_pieces((&self.shapes[a], &poses[a].0), (&self.shapes[b], &poses[b].0)).ok()?;
        combined(&pieces).map_or(Some(0.0), |m| overlap_depth(m.volume, m.gradient.norm()))
    }

    /// The contact of pair (a, b) at `poses` and, under `points`, its point contacts (each part
    /// pair clipped once for both); `None` where they do not overlap (or overlap with no normal:
    /// one inside the other).
    pub fn contact(
        &self,
        (a, b): (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Option<(PairGeometry, Vec<Point3>)>, Volume6dPairError> {
        let pieces = pair_pieces((&self.shapes[a], &poses[a].0), (&self.shapes[b], &poses[b].0))?;
        let Some(moments) = combined(&pieces) else { return Ok(None) };
        let Some(patch) = patch(&moments, self.settings.patch_scale) else { return Ok(None) };
        let friction = crate::contact::combined_friction(self.friction[a], self.friction[b]);
        let points = match self.settings.formulation {
            Volume6dFormulation::SixD => Vec::new(),
            Volume6dFormulation::Points => points_of(&pieces, &patch, self.settings.patch_scale),
        };
        Ok(Some((PairGeometry { moments, patch, friction }, points)))
    }
}

/// The point contacts of the `points` formulation ([`contact_points`]) from a pair's pieces:
/// one piece with the pair's patch; a compound's part pair by part pair, each with its own
/// patch's normal to tell which side faces the other body.
fn points_of(pieces: &[Piece], pair_patch: &Patch, patch_scale: f64) -> Vec<Point3> {
    if let [piece] = pieces {
        return contact_points(piece.faces.as_ref(), pair_patch);
    }
    let mut out = Vec::new();
    for piece in pieces {
        let Some(part_patch) = patch(&piece.moments, patch_scale) else { continue };
        out.extend(contact_points(piece.faces.as_ref(), &part_patch));
    }
    out
}
