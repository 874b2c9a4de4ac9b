//! The contacts a page shows, recomputed by the contact query from each frame's poses: the
//! pressure field's surfaces (polygons with per-vertex pressure), the other models' markers.

use super::error::ViewError;
use super::numbers::Quantum;
use super::outputs::BodyState;
use crate::app::{PageMarker, PagePatch};
use crate::contact::surface::ContactSurface;
use crate::dynamics::world::World;
use crate::math::{Isometry3, Point3, Quaternion, Translation3, Twist, UnitQuaternion, Vector3};
use std::collections::HashMap;

/// One frame's contacts at full precision.
#[derive(Default)]
pub struct FrameContacts {
    pub surfaces: Vec<((usize, usize), ContactSurface)>,
    pub markers: Vec<((usize, usize), Point3)>,
}

impl FrameContacts {
    /// The contacts at a frame where body `i` has state `row[i]` (`None`: absent, touching
    /// nothing): every candidate pair of present bodies.
    pub fn at(world: &World, t: f64, row: &[Option<BodyState>]) -> Result<FrameContacts, ViewError> {
        let poses: Vec<(Isometry3, Twist)> = row
            .iter()
            .zip(&world.bodies)
            .map(|(s, body)| s.as_ref().map_or((body.initial_pose, Twist::default()), pose_and_twist))
            .collect();
        let mut out = FrameContacts::default();
        for (a, b) in world.model.candidate_pairs(&poses) {
            if row[a].is_none() || row[b].is_none() {
                continue;
            }
            let failed = |source| ViewError::Contact { t, source };
            if let Some(surface) = world.model.surface((a, b), &poses).map_err(failed)?
                && !surface.polygons.is_empty()
            {
                out.surfaces.push(((a, b), surface));
            }
            for point in world.model.contact_points((a, b), &poses).map_err(failed)? {
                out.markers.push(((a, b), point));
            }
        }
        Ok(out)
    }

    pub fn polygons(&self) -> usize {
        self.surfaces.iter().map(|(_, s)| s.polygons.len()).sum()
    }

    /// The largest pressure on the frame's surfaces (Pa).
    pub fn pressure_max(&self) -> f64 {
        self.surfaces
            .iter()
            .flat_map(|(_, s)| &s.polygons)
            .flat_map(|p| p.pressure.iter().copied())
            .fold(0.0, f64::max)
    }

    /// The frame's patches for the page: vertices shared between polygons once, positions in
    /// `quantum` units, pressures in thousandths of `pressure_max`.
    pub fn patches(&self, quantum: Quantum, pressure_max: f64) -> Vec<PagePatch> {
        self.surfaces.iter().map(|&((a, b), ref s)| patch(a, b, s, quantum, pressure_max)).collect()
    }

    pub fn page_markers(&self, quantum: Quantum) -> Vec<PageMarker> {
        self.markers.iter().map(|&((a, b), p)| PageMarker { a, b, point: quantum.point(&p) }).collect()
    }
}

fn patch(a: usize, b: usize, surface: &ContactSurface, quantum: Quantum, pressure_max: f64) -> PagePatch {
    let mut out = PagePatch { a, b, polygons: Vec::new(), vertices: Vec::new(), pressure: Vec::new() };
    let mut index: HashMap<[i64; 3], u32> = HashMap::new();
    let per_mille = if pressure_max > 0.0 { 1000.0 / pressure_max } else { 0.0 };
    let mut corners = Vec::new();
    for polygon in &surface.polygons {
        corners.clear();
        for (v, p) in polygon.vertices.iter().zip(&polygon.pressure) {
            let key = quantum.int_point(v);
            let k = *index.entry(key).or_insert_with(|| {
                out.vertices.extend(key);
                out.pressure.push((p * per_mille).round().clamp(0.0, 1000.0) as u16);
                (out.pressure.len() - 1) as u32
            });
            // Corners that rounding merged are one corner.
            if corners.last() != Some(&k) {
                corners.push(k);
            }
        }
        if corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        if corners.len() >= 3 {
            out.polygons.push(corners.len() as u32);
            out.polygons.extend(&corners);
        }
    }
    out
}

pub fn pose_and_twist(s: &BodyState) -> (Isometry3, Twist) {
    let [x, y, z, qw, qx, qy, qz] = s.pose;
    let rotation = UnitQuaternion::new_normalize(Quaternion::new(qw, qx, qy, qz));
    let [vx, vy, vz, wx, wy, wz] = s.twist;
    (
        Isometry3::from_parts(Translation3::new(x, y, z), rotation),
        Twist { linear: Vector3::new(vx, vy, vz), angular: Vector3::new(wx, wy, wz) },
    )
}
