//! The PEG model as the world holds it: every body's geometry and friction, the settings, the
//! pairs that may touch, each pair's contact tolerance ε and constraint sets, and the exact
//! overlap of a pair (the paper's accuracy metric).

use super::contact::ConstraintSet;
use super::planar::{Planar, overlap_area, planar_sets};
use super::shape::{PegShape, PegShapeError};
use super::spatial::{PlacedPolygon, pieces};
use crate::contact::{ContactBody, PairFilter};
use crate::geometry::polytope::overlap::{OverlapShape, overlap_depth, pair_moments};
use crate::math::{Isometry3, Twist, Vector3};

/// The settings: the scene's `[model]` keys of `kind = "peg"`.
pub type PegSettings = super::settings::PegSpec;

/// A body's geometry could not be built for the PEG model.
#[derive(Debug, thiserror::Error)]
#[error("body `{body}`: {source}")]
pub struct PegSetupError {
    pub body: String,
    #[source]
    pub source: PegShapeError,
}

/// The PEG model.
#[derive(Debug)]
pub struct PegModel {
    pub shapes: Vec<PegShape>,
    /// 3D scenes: each body as the exact intersection code takes it (overlap volume).
    solids: Vec<Option<OverlapShape>>,
    pub friction: Vec<f64>,
    /// The pairs the scene lets touch.
    pub filter: PairFilter,
    /// The time (s) from which each body takes part (`appear_time`).
    pub appear: Vec<f64>,
    /// Each body's bounding radius about its origin (∞: a half space).
    pub bounds: Vec<f64>,
    pub settings: PegSettings,
}

impl PegModel {
    /// Every body's geometry from `bodies`, with `settings`.
    /// `appear`: the time each body takes part from (`appear_time`), or empty for all at 0.
    pub fn new(
        bodies: &[ContactBody],
        filter: &PairFilter,
        settings: PegSettings,
        appear: Vec<f64>,
    ) -> Result<PegModel, PegSetupError> {
        let mut shapes = Vec::with_capacity(bodies.len());
        let mut solids = Vec::with_capacity(bodies.len());
        for b in bodies {
            let error = |source| PegSetupError { body: b.name.to_string(), source };
            let shape = b.shape_or_placeholder();
            shapes.push(PegShape::new(shape, b.contact.resolution, settings.planar).map_err(error)?);
            solids.push(if settings.planar {
                None
            } else {
                Some(as_simulated(
                    OverlapShape::new(shape, b.contact.resolution).map_err(|e| error(e.into()))?,
                ))
            });
        }
        Ok(PegModel {
            bounds: shapes.iter().map(PegShape::bounding_radius).collect(),
            shapes,
            solids,
            friction: bodies.iter().map(|b| b.contact.friction).collect(),
            filter: filter.clone(),
            appear: if appear.is_empty() { vec![0.0; bodies.len()] } else { appear },
            settings,
        })
    }

    /// The contact tolerance ε of pair (a, b) for a step of `dt` under gravity `g` (m/s²):
    /// `contact_tolerance` when given, else max(2·h·|v_rel| + ½·g·h², 10⁻³·L), |v_rel| bounded
    /// by the origins' relative speed plus each body's spin times its bounding radius, L the
    /// smaller body's size (twice its bounding radius).
    pub fn tolerance(&self, (a, b): (usize, usize), twists: (&Twist, &Twist), dt: f64, g: f64) -> f64 {
        if let Some(eps) = self.settings.contact_tolerance {
            return eps;
        }
        let spin = |i: usize, t: &Twist| {
            if self.bounds[i].is_finite() { t.angular.norm() * self.bounds[i] } else { 0.0 }
        };
        let v_rel = (twists.0.linear - twists.1.linear).norm() + spin(a, twists.0) + spin(b, twists.1);
        let size = 2.0 * self.bounds[a].min(self.bounds[b]);
        (2.0 * dt * v_rel + 0.5 * g * dt * dt).max(1e-3 * size)
    }

    /// Whether bodies a and b at `poses` may be within `eps` of each other (bounding spheres;
    /// a half space: the other's sphere against its plane).
    pub fn may_touch(&self, (a, b): (usize, usize), poses: (&Isometry3, &Isometry3), eps: f64) -> bool {
        if !self.filter.allows(a, b) {
            return false;
        }
        match (&self.shapes[a], &self.shapes[b]) {
            (PegShape::HalfSpace, PegShape::HalfSpace) => false,
            (PegShape::HalfSpace, _) => below(poses.0, poses.1, self.bounds[b] + eps),
            (_, PegShape::HalfSpace) => below(poses.1, poses.0, self.bounds[a] + eps),
            _ => {
                (poses.0.translation.vector - poses.1.translation.vector).norm()
                    <= self.bounds[a] + self.bounds[b] + eps
            }
        }
    }

    /// Appends the constraint sets of pair (a, b) from its features within `eps`, at `now` and
    /// one explicit step ahead (`next`).
    pub fn constraint_sets(
        &self,
        (a, b): (usize, usize),
        now: (&Isometry3, &Isometry3),
        next: (&Isometry3, &Isometry3),
        eps: f64,
        out: &mut Vec<ConstraintSet>,
    ) {
        let formulation = self.settings.formulation;
        if self.settings.planar {
            let (pa, pa_next) = (planar(&self.shapes[a], now.0), planar(&self.shapes[a], next.0));
            let (pb, pb_next) = (planar(&self.shapes[b], now.1), planar(&self.shapes[b], next.1));
            planar_sets((a, &pa, &pa_next), (b, &pb, &pb_next), eps, formulation, out);
            return;
        }
        let (parts_a, parts_b) = (pieces(&self.shapes[a], now.0), pieces(&self.shapes[b], now.1));
        let (next_a, next_b) = (pieces(&self.shapes[a], next.0), pieces(&self.shapes[b], next.1));
        for (k, (pose_a, shape_a)) in parts_a.iter().enumerate() {
            for (l, (pose_b, shape_b)) in parts_b.iter().enumerate() {
                super::solid::solid_sets(
                    (a, shape_a, pose_a, &next_a[k].0),
                    (b, shape_b, pose_b, &next_b[l].0),
                    eps,
                    formulation,
                    out,
                );
            }
        }
    }

    /// The pairs that may touch at `poses` (bounding spheres, no tolerance), in order.
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        let n = poses.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| self.may_touch((a, b), (&poses[a].0, &poses[b].0), 0.0))
            .collect()
    }

    /// Whether body `i` takes part at time `t` (from its `appear_time` on).
    pub fn present(&self, i: usize, t: f64) -> bool {
        t >= self.appear[i]
    }

    /// Each pair of bodies present at `t` that may touch at `poses`, with its overlap (area or
    /// volume), exactly.
    pub fn overlaps(&self, poses: &[(Isometry3, Twist)], t: f64) -> Vec<((usize, usize), f64)> {
        self.candidate_pairs(poses)
            .into_iter()
            .filter(|&(a, b)| self.present(a, t) && self.present(b, t))
            .map(|(a, b)| ((a, b), self.overlap((a, b), (&poses[a].0, &poses[b].0))))
            .collect()
    }

    /// The area (planar, m²) or volume (m³) where bodies a and b overlap at `poses`, exactly.
    pub fn overlap(&self, (a, b): (usize, usize), poses: (&Isometry3, &Isometry3)) -> f64 {
        if self.settings.planar {
            return overlap_area(&planar(&self.shapes[a], poses.0), &planar(&self.shapes[b], poses.1));
        }
        let (Some(sa), Some(sb)) = (&self.solids[a], &self.solids[b]) else { return 0.0 };
        pair_moments((sa, poses.0), (sb, poses.1)).ok().flatten().map_or(0.0, |m| m.volume)
    }

    /// The depth of bodies a and b's overlap V/|G| (m; 0 when apart), for 3D scenes; `None`
    /// for planar ones or where the overlap cannot be evaluated.
    pub fn penetration(&self, (a, b): (usize, usize), poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        if self.settings.planar {
            return None;
        }
        let (Some(sa), Some(sb)) = (&self.solids[a], &self.solids[b]) else { return Some(0.0) };
        let moments = pair_moments((sa, poses.0), (sb, poses.1)).ok()?;
        moments.map_or(Some(0.0), |m| overlap_depth(m.volume, m.gradient.norm()))
    }
}

/// Whether a sphere of `radius` about `other`'s origin reaches below the plane of half space
/// `plane` (its body frame's z = 0).
fn below(plane: &Isometry3, other: &Isometry3, radius: f64) -> bool {
    let n = plane.rotation * Vector3::z();
    n.dot(&(other.translation.vector - plane.translation.vector)) <= radius
}

/// The solid PEG simulates: a sphere is its tessellation (PEG needs `resolution` for it), so
/// the overlap is measured on the polytope that moves, not on the exact ball.
fn as_simulated(shape: OverlapShape) -> OverlapShape {
    match shape {
        OverlapShape::Sphere { hull: Some(p), .. } => OverlapShape::Convex(p),
        OverlapShape::Compound(parts) => {
            OverlapShape::Compound(parts.into_iter().map(|(pose, s)| (pose, as_simulated(s))).collect())
        }
        other => other,
    }
}

/// A planar body's piece at its pose.
fn planar(shape: &PegShape, pose: &Isometry3) -> Planar {
    match shape {
        PegShape::Polygon(v) => Planar::Polygon(PlacedPolygon::new(v, pose)),
        PegShape::HalfSpace => {
            let n = pose.rotation * Vector3::z();
            let o = pose.translation.vector;
            Planar::HalfPlane { origin: [o.x, o.z], normal: [n.x, n.z] }
        }
        // Scene validation admits polygons, boxes (as polygons) and half spaces in the plane.
        other => unreachable!("a planar PEG body is a polygon or a half space, not {other:?}"),
    }
}
