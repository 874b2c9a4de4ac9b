//! Fixed-step semi-implicit Euler for rigid bodies: new velocities first, then positions with
//! the new velocities (symplectic for the elastic forces, which keeps oscillation energy
//! bounded instead of drifting — when the step resolves the contact's vibration; see
//! `docs/simulation.md` for when to prefer `implicit_euler`).
//!
//! The velocity-dependent contact forces — Hunt–Crossley dissipation and regularized friction —
//! are taken implicitly: one linearized backward-Euler solve with their velocity Jacobian,
//! (M − dt·∂Q/∂v)·Δv = dt·(Q − ω×Iω). Taken explicitly they would need steps below
//! ~m/(d·k) and ~m·v_s/(μ·N), often microseconds; implicitly they are stable at any step.
//! Bodies coupled by contact are solved together, each connected group on its own.

use super::error::DynamicsError;
use super::group_solve::{Groups, Weights, gyroscopic, set_velocity_and_advance};
use super::world::{Loads, World};
use crate::contact::model::Derivatives;

/// The loads a step from state `y` at `t` needs: forces with their velocity Jacobians.
pub fn start_loads(world: &World, t: f64, y: &[f64]) -> Result<Loads, DynamicsError> {
    world.loads(t, y, Derivatives::Velocity)
}

/// Advances `y` from `t` by `dt`, with the loads at its start already evaluated
/// ([`start_loads`]; the run reuses those of the previous step's outputs).
pub fn step(world: &World, t: f64, y: &mut [f64], dt: f64, loads: &Loads) -> Result<(), DynamicsError> {
    let groups = Groups::new(world, loads);
    let weights = Weights { damping: dt, stiffness: 0.0 };
    let dv = groups.solve(world, (t, y), loads, weights, |k| {
        let i = groups.free[k];
        (loads.force[i] * dt, (loads.torque[i] - gyroscopic(world, i, y)) * dt)
    })?;
    let start = y.to_vec();
    for (k, &i) in groups.free.iter().enumerate() {
        set_velocity_and_advance(world, i, &start, dv[k], dt, y);
    }
    world.coords.add_dissipated(y, dt * loads.dissipation);
    // The applied loads' work at the end velocities, with which the positions moved: F·Δx,
    // which the step's kinetic energy change never exceeds. At the start velocities it fell
    // short by dt²·F²/m a step, an energy gain that grew until the energy watch stopped a
    // body pushed long enough.
    let external = loads.external_power - world.applied_power(&start) + world.applied_power(y);
    world.coords.add_work(y, dt * external);
    world.accept_step(t + dt, y);
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(())
}
