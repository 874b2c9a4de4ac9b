//! Crossings within a step: a free body whose bounding sphere would move, in one step, further
//! towards a half space than [`STEP_REACH`] of its radius while reaching its surface is stepped
//! in sub-steps that each move it at most that far, so a fast body meets the surface as a slow
//! one does (a 1e3 m/s ball bounces as a 10 m/s one) instead of passing through it.

use crate::dynamics::world::World;
use crate::math::Vector3;

/// The farthest a sub-step moves a body towards a half space, as a fraction of its bounding
/// radius (1 ms steps of 10 m/s move a 0.1 m ball this far).
pub const STEP_REACH: f64 = 0.1;

/// The most sub-steps a step is cut into: beyond, the step's end check reports the crossing.
pub const MAX_SUBSTEPS: u32 = 1000;

/// How many sub-steps the step of `dt` from (`t`, `y`) needs (1: none): the most any free body
/// needs against any half space, from its velocity and gravity at the step's start.
pub fn substeps(world: &World, t: f64, y: &[f64], dt: f64) -> u32 {
    let mut needed = 1.0f64;
    for &h in &world.half_spaces {
        let frame = world.half_space_frame(h, t);
        let normal = frame.rotation * Vector3::z();
        let fall = -normal.dot(&world.gravity) * 0.5 * dt * dt;
        for block in world.coords.free_blocks() {
            let Some(radius) = world.extents[block.body] else { continue };
            let approach = -normal.dot(&block.velocity(y)) * dt + fall;
            let reach = STEP_REACH * radius;
            if approach <= reach {
                continue;
            }
            let gap = normal.dot(&(block.com(y) - frame.translation.vector)) - radius;
            if gap < approach {
                needed = needed.max((approach / reach).ceil());
            }
        }
    }
    needed.min(MAX_SUBSTEPS as f64) as u32
}
