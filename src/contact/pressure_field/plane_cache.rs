//! The cells near a half space's plane, kept between the queries of a pair.
//!
//! A compliant body resting on (or sliding over) a rigid half space meets the plane in nearly
//! the same cells step after step; finding them anew costs a traversal of its hierarchy (a
//! sixth of a resting sphere's step). The cells whose boxes come within a margin of the plane
//! are kept, and reused while the plane, seen from the body, stays within that margin: every
//! cell the plane cuts is then among them. They are visited in the hierarchy's order, and the
//! extra ones have no section, so a query gives bit for bit what a fresh traversal gives.

use crate::geometry::bvh::Bvh;
use crate::math::{Plane, Point3};
use std::sync::Mutex;

/// The margin, as a share of the radius of the body's bounding sphere.
const MARGIN: f64 = 0.01;

/// Hierarchies of fewer cells are traversed afresh: their traversal is a few box tests (a
/// box's 12 tets are one scan), and keeping cost boxes_16 3% more instructions.
const MIN_CELLS: u32 = 64;

/// A pair's kept cells (empty until its first query).
#[derive(Debug, Default)]
pub struct PlaneCache(Mutex<Option<Neighbourhood>>);

impl Clone for PlaneCache {
    /// An empty cache: what is kept is only ever a shortcut.
    fn clone(&self) -> Self {
        PlaneCache::default()
    }
}

/// The cells within `margin` of `plane`, in the hierarchy's order.
#[derive(Debug)]
struct Neighbourhood {
    plane: Plane,
    crossing_only: bool,
    margin: f64,
    primitives: Vec<u32>,
    /// How many times the cells were found anew (for the tests).
    rebuilds: usize,
}

impl Neighbourhood {
    /// Whether every point of the sphere (`centre`, `radius`) is at most `margin` farther from
    /// or nearer to `plane` than from this neighbourhood's plane: then a cell that `plane`
    /// cuts comes within the margin of the kept one.
    fn covers(&self, plane: &Plane, crossing_only: bool, (centre, radius): (Point3, f64)) -> bool {
        // n·x − o changes by Δn·(x − c) + (Δn·c − Δo) over the sphere |x − c| ≤ r.
        let dn = plane.normal - self.plane.normal;
        let shift = dn.dot(&centre.coords) - (plane.offset - self.plane.offset);
        self.crossing_only == crossing_only && dn.norm() * radius + shift.abs() <= self.margin
    }
}

impl PlaneCache {
    /// Calls `visit` with what `bvh.plane_from(plane, crossing_only, 0, visit)` visits and
    /// possibly a few cells more that the plane does not cut, in the same order.
    pub fn visit(&self, bvh: &Bvh, plane: &Plane, crossing_only: bool, visit: &mut impl FnMut(u32)) {
        if bvh.size(0) < MIN_CELLS {
            return bvh.plane_from(plane, crossing_only, 0, visit);
        }
        let (Some(sphere), Ok(mut kept)) = (bvh.bounding_sphere(), self.0.try_lock()) else {
            // (Busy: another thread queries the same pair, as an output pass may.)
            return bvh.plane_from(plane, crossing_only, 0, visit);
        };
        if !kept.as_ref().is_some_and(|n| n.covers(plane, crossing_only, sphere)) {
            let margin = MARGIN * sphere.1;
            let (mut primitives, rebuilds) =
                kept.take().map_or((Vec::new(), 0), |n| (n.primitives, n.rebuilds));
            primitives.clear();
            bvh.slab_from(plane, crossing_only, margin, 0, &mut |i| primitives.push(i));
            *kept = Some(Neighbourhood {
                plane: *plane,
                crossing_only,
                margin,
                primitives,
                rebuilds: rebuilds + 1,
            });
        }
        if let Some(n) = kept.as_ref() {
            n.primitives.iter().for_each(|&i| visit(i));
        }
    }

    /// How many times the kept cells were found anew (0 before the first query that kept any).
    #[cfg(test)]
    pub fn rebuilds(&self) -> usize {
        self.0.lock().ok().and_then(|n| n.as_ref().map(|n| n.rebuilds)).unwrap_or(0)
    }
}
