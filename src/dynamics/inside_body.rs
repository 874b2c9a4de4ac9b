//! A body wholly inside another (not a half space: [`World::through_half_space`]): its bounding
//! sphere within the other's simple inner solid ([`crate::geometry::Interior`]). Contact can no
//! longer push it out, so the run would go on in silence; it stops with an error instead.

use crate::dynamics::error::DynamicsError;
use crate::dynamics::world::World;

/// The first pair of [`World::inside_pairs`] with the inner body wholly inside the outer at
/// (`t`, `y`), as an error naming both, the time and the fix. Each pair costs a distance test
/// unless the inner bounding sphere lies within the outer's.
pub fn inside_body(world: &World, t: f64, y: &[f64]) -> Result<(), DynamicsError> {
    for &(inner, outer) in &world.inside_pairs {
        let (Some((c_inner, _)), Some((c_outer, _))) =
            (world.bound_centre(inner, t, y), world.bound_centre(outer, t, y))
        else {
            continue;
        };
        let (Some(r_inner), Some(r_outer)) = (world.extents[inner], world.extents[outer]) else { continue };
        if (c_inner - c_outer).norm() + r_inner > r_outer {
            continue;
        }
        let Some(interior) = &world.interiors[outer] else { continue };
        if !(world.model.present(inner, t) && world.model.present(outer, t)) {
            continue;
        }
        let Some(frame) = world.shape_frame(outer, t, y) else { continue };
        let local = frame.inverse_transform_point(&c_inner.into()).coords;
        if interior.contains_ball(&local, r_inner) {
            return Err(DynamicsError::InsideBody {
                t,
                body: world.bodies[inner].name.clone(),
                other: world.bodies[outer].name.clone(),
                radius: r_inner,
            });
        }
    }
    Ok(())
}
