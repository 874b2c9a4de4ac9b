//! Deep overlaps at the start under a model that measures distances (Hertz): a pair that
//! overlaps by more than [`DEEP_FRACTION`] of the smaller body's bounding radius is refused.
//! Hertz's law holds for overlaps small beside the bodies' curvature; far beyond it the force
//! is so stiff that an adaptive step crawls (1 ms per quarter hour) instead of failing.

use crate::dynamics::error::DynamicsError;
use crate::dynamics::world::World;

/// The deepest starting overlap allowed, as a fraction of the smaller bounding radius.
pub const DEEP_FRACTION: f64 = 0.1;

/// The first pair at state `y` (t = 0) overlapping deeper than [`DEEP_FRACTION`] of the smaller
/// body's bounding radius, as an error naming both bodies, the depth, the limit and the fix.
pub fn deep_start_overlap(world: &World, y: &[f64]) -> Result<(), DynamicsError> {
    if world.model.forces().is_none() {
        return Ok(());
    }
    let body_poses = world.poses(0.0, y);
    let poses = world.model_poses(&body_poses);
    for (a, b) in world.model.candidate_pairs(&poses) {
        let Some(gap) = world.model.gap((a, b), (&poses[a].0, &poses[b].0)) else { continue };
        let radius = match (world.extents[a], world.extents[b]) {
            (Some(ra), Some(rb)) => ra.min(rb),
            (Some(r), None) | (None, Some(r)) => r,
            (None, None) => continue,
        };
        let limit = DEEP_FRACTION * radius;
        if -gap > limit {
            return Err(DynamicsError::DeepStartOverlap {
                a: world.bodies[a].name.clone(),
                b: world.bodies[b].name.clone(),
                depth: -gap,
                limit,
            });
        }
    }
    Ok(())
}
