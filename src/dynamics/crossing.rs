//! Crossings within a step: a free body whose bounding sphere would move, in one step, further
//! towards a half space than [`STEP_REACH`] of its radius while reaching its surface is stepped
//! in sub-steps that each move it at most that far, so a fast body meets the surface as a slow
//! one does (a 1e3 m/s ball bounces as a 10 m/s one) instead of passing through it. Two bodies
//! ([`World::body_pairs`]) likewise: their bounding spheres may close by at most
//! [`PAIR_REACH`] of the smaller radius per sub-step.

use crate::dynamics::body::Motion;
use crate::dynamics::world::World;
use crate::math::Vector3;

/// The farthest a sub-step moves a body towards a half space or another body, as a fraction of
/// its (the smaller) bounding radius (1 ms steps of 10 m/s move a 0.1 m ball this far).
pub const STEP_REACH: f64 = 0.1;

/// The farthest a sub-step closes two bodies, as a fraction of the smaller bounding radius:
/// looser than [`STEP_REACH`], since a body passes through another only by moving further
/// than the smaller one is wide, and bounding spheres overstate how near a body is to a long
/// thin one (a wall's sphere reaches far beyond its faces).
pub const PAIR_REACH: f64 = 0.5;

/// The most sub-steps a step is cut into: beyond, the step's end checks report the crossing.
pub const MAX_SUBSTEPS: u32 = 1000;

/// How many sub-steps the step of `dt` from (`t`, `y`) needs (1: none): the most any free body
/// needs against any half space or any body it may touch, from the velocities and gravity at
/// the step's start.
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
    if !world.body_pairs.is_empty() {
        needed = needed.max(pair_substeps(world, t, y, dt));
    }
    needed.min(MAX_SUBSTEPS as f64) as u32
}

/// [`substeps`] for the body pairs (of bodies present at `t`: PEG's `appear_time`). Two free bodies fall together, so only their relative
/// velocity closes them; a free body and a fixed or kinematic one close by gravity too. A
/// first pass over the bodies skips the pairs when no two can close by [`PAIR_REACH`] of the
/// smallest radius (a scene at rest or falling: no pair is visited).
fn pair_substeps(world: &World, t: f64, y: &[f64], dt: f64) -> f64 {
    let fall = 0.5 * world.gravity.norm() * dt * dt;
    let (mut fastest, mut smallest) = (0.0f64, f64::INFINITY);
    for (i, body) in world.bodies.iter().enumerate() {
        let Some(radius) = world.extents[i] else { continue };
        let motion = match (&body.motion, world.coords.free(i)) {
            (Motion::Free, Some(block)) => block.velocity(y).norm() * dt + fall,
            (Motion::Kinematic(k), _) => k.at(t).1.linear.norm() * dt,
            _ => 0.0,
        };
        fastest = fastest.max(motion);
        smallest = smallest.min(radius);
    }
    if 2.0 * fastest <= PAIR_REACH * smallest {
        return 1.0;
    }
    let mut needed = 1.0f64;
    for &(a, b) in &world.body_pairs {
        let (Some((ca, va)), Some((cb, vb))) = (world.bound_centre(a, t, y), world.bound_centre(b, t, y))
        else {
            continue;
        };
        let (Some(ra), Some(rb)) = (world.extents[a], world.extents[b]) else { continue };
        if !(world.model.present(a, t) && world.model.present(b, t)) {
            continue;
        }
        let both_free = world.coords.is_free(a) && world.coords.is_free(b);
        let approach = (va - vb).norm() * dt + if both_free { 0.0 } else { fall };
        let reach = PAIR_REACH * ra.min(rb);
        if approach <= reach {
            continue;
        }
        let gap = (ca - cb).norm() - ra - rb;
        if gap < approach {
            needed = needed.max((approach / reach).ceil());
        }
    }
    needed
}
