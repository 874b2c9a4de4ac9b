//! Fixed-step semi-implicit (symplectic) Euler for rigid bodies: velocities first, then
//! positions with the new velocities. First order, but it keeps the energy of oscillations
//! bounded instead of drifting, and costs one force evaluation per step.

use super::error::DynamicsError;
use super::world::World;
use crate::math::{Quaternion, UnitQuaternion, Vector3};

/// Advances `y` from `t` by `dt`; `dy` is scratch of the state's size.
pub fn step(world: &World, t: f64, y: &mut [f64], dt: f64, dy: &mut [f64]) -> Result<(), DynamicsError> {
    world.derivative(t, y, dy)?;
    for o in world.layout.offset.iter().flatten().copied() {
        for k in 7..13 {
            y[o + k] += dt * dy[o + k];
        }
        for k in 0..3 {
            y[o + k] += dt * y[o + 7 + k];
        }
        // Rotate by the new angular velocity (world frame): q ← exp(ω·dt) ⊗ q.
        let w = Vector3::new(y[o + 10], y[o + 11], y[o + 12]);
        let q = UnitQuaternion::new_normalize(Quaternion::new(y[o + 3], y[o + 4], y[o + 5], y[o + 6]));
        let q = (UnitQuaternion::from_scaled_axis(w * dt) * q).into_inner();
        y[o + 3..o + 7].copy_from_slice(&[q.w, q.i, q.j, q.k]);
    }
    let d = world.layout.dissipated();
    y[d] += dt * dy[d];
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(())
}
