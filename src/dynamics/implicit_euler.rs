//! Fixed-step backward Euler for the contact forces, solved by Newton's method: stable at any
//! contact stiffness (the default scheme of the pressure field model).
//!
//! Unknowns: every free body's new velocity V⁺ (centre-of-mass velocity, angular velocity). The
//! new pose is the old one moved by dt at V⁺ (X⁺ = X ⊕ dt·V⁺), and
//!   R(V⁺) = M·(V⁺ − V) − dt·(Q(X⁺, V⁺) − ω×Iω) = 0,
//! with gravity, applied loads and the gyroscopic term as in semi-implicit Euler. Each Newton
//! iteration evaluates the contacts at the iterate with their velocity Jacobian D = ∂Q/∂V and
//! stiffness K = ∂Q/∂X and solves (M − dt·D − dt²·K)·δ = −R per contact-connected group. The
//! first iterate is the explicit predictor X ⊕ dt·V, so a contact that starts in a step is felt
//! in that step. Backward Euler damps vibration faster than the step resolves (as Drake's
//! discrete solvers do) and never adds energy; free flight is integrated as by semi-implicit
//! Euler.

use super::error::DynamicsError;
use super::group_solve::{Groups, Weights, gyroscopic, set_velocity_and_advance};
use super::world::World;
use crate::contact::model::{Derivatives, PairMatrix};
use crate::math::Vector3;
use std::collections::BTreeMap;

/// Newton iterations per step at most; a step that has not converged by then is kept (and
/// counted): the energy watch of the run catches one that goes wrong.
pub const MAX_NEWTON_ITERATIONS: usize = 12;

/// Steps a pair's contact stiffness is reused for before it is computed again. The stiffness
/// only shapes Newton's matrix (the residual holds the exact forces), so a recent one converges
/// to the same solution; computing it costs six contact queries per pair (finite differences).
pub const STIFFNESS_REUSE_STEPS: u32 = 8;

/// The contact stiffness of each touching pair, kept across steps, with its age in steps.
#[derive(Clone, Debug, Default)]
pub struct StiffnessCache {
    pairs: BTreeMap<(usize, usize), (PairMatrix, u32)>,
}

impl StiffnessCache {
    /// At the start of a step: ages every entry and forgets those too old.
    fn age(&mut self) {
        self.pairs.retain(|_, (_, age)| {
            *age += 1;
            *age < STIFFNESS_REUSE_STEPS
        });
    }

    fn known(&self) -> BTreeMap<(usize, usize), PairMatrix> {
        self.pairs.iter().map(|(&p, (k, _))| (p, *k)).collect()
    }
}

/// A free body's (linear, angular) velocity, or a change of it, or a residual.
type BodyVelocity = (Vector3, Vector3);

/// What one step took.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepReport {
    /// Contact evaluations (Newton iterations).
    pub evaluations: u64,
    /// Whether Newton met its tolerance.
    pub converged: bool,
}

/// Advances `y` from `t` by `dt`, reusing and refreshing the pairs' stiffness in `cache`.
pub fn step(
    world: &World,
    t: f64,
    y: &mut [f64],
    dt: f64,
    cache: &mut StiffnessCache,
) -> Result<StepReport, DynamicsError> {
    cache.age();
    let start = y.to_vec();
    let free: Vec<usize> = (0..world.bodies.len()).filter(|&i| world.layout.offset[i].is_some()).collect();
    let gyro: Vec<Vector3> = free.iter().map(|&i| gyroscopic(world, i, &start)).collect();
    // ΔV of the current iterate, per free body.
    let mut dv = vec![(Vector3::zeros(), Vector3::zeros()); free.len()];
    let mut report = StepReport::default();
    let (mut dissipation, mut external_power) = (0.0, 0.0);
    // The last full Newton step (its start and direction) and its residual norm, for the line
    // search: regularized friction is a steep sigmoid in the slip velocity, on which a full
    // Newton step from far away can overshoot into a cycle.
    let mut last: Option<(Vec<BodyVelocity>, Vec<BodyVelocity>, f64)> = None;
    let mut fraction = 1.0;
    for _ in 0..MAX_NEWTON_ITERATIONS {
        for (k, &i) in free.iter().enumerate() {
            set_velocity_and_advance(world, i, &start, dv[k], dt, y);
        }
        let loads =
            world.loads_with_known_stiffness(t + dt, y, Derivatives::VelocityAndPose, &cache.known())?;
        report.evaluations += 1;
        for (a, b, d) in &loads.derivatives {
            if let Some(k) = d.pose {
                cache.pairs.entry((*a, *b)).or_insert((k, 0));
            }
        }
        // R = M·ΔV − dt·(Q − ω×Iω), per free body.
        let residual: Vec<BodyVelocity> = free
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let (m, inertia) = (world.bodies[i].mass, world.world_inertia(i, &start));
                (dv[k].0 * m - loads.force[i] * dt, inertia * dv[k].1 - (loads.torque[i] - gyro[k]) * dt)
            })
            .collect();
        let norm = residual_norm(world, &free, &start, &residual);
        if let Some((from, direction, previous)) = &last
            && norm > previous * (1.0 - 1e-4 * fraction)
            && fraction > MIN_STEP_FRACTION
        {
            // Not a descent: back off along the same direction.
            fraction *= 0.5;
            for k in 0..free.len() {
                dv[k] = (from[k].0 + direction[k].0 * fraction, from[k].1 + direction[k].1 * fraction);
            }
            continue;
        }
        dissipation = loads.dissipation;
        external_power = loads.external_power;
        let groups = Groups::new(world, &loads);
        let weights = Weights { damping: dt, stiffness: dt * dt };
        let delta =
            groups.solve(world, (t, &start), &loads, weights, |k| (-residual[k].0, -residual[k].1))?;
        let mut converged = true;
        for (k, &i) in free.iter().enumerate() {
            let o = world.layout.offset[i].unwrap_or(0);
            let v = Vector3::new(start[o + 7], start[o + 8], start[o + 9]) + dv[k].0;
            let w = Vector3::new(start[o + 10], start[o + 11], start[o + 12]) + dv[k].1;
            let (dl, da) = delta[k];
            converged &= dl.norm() <= LINEAR_TOLERANCE + 1e-6 * v.norm()
                && da.norm() <= ANGULAR_TOLERANCE + 1e-6 * w.norm();
        }
        last = Some((dv.clone(), delta.clone(), norm));
        fraction = 1.0;
        for k in 0..free.len() {
            dv[k].0 += delta[k].0;
            dv[k].1 += delta[k].1;
        }
        // (No shortcut for free flight at the prediction: the solve's extra travel can start a
        // contact, and skipping it there lets a resting body hop. A contact-free evaluation is
        // only a bounds test.)
        if converged {
            report.converged = true;
            break;
        }
    }
    if !report.converged {
        // A stale stiffness may be why: take fresh ones next step.
        cache.pairs.clear();
    }
    for (k, &i) in free.iter().enumerate() {
        set_velocity_and_advance(world, i, &start, dv[k], dt, y);
    }
    let d = world.layout.dissipated();
    y[d] = start[d] + dt * dissipation;
    let w = world.layout.work();
    y[w] = start[w] + dt * external_power;
    world.accept_step(t + dt, y);
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(report)
}

/// The smallest fraction of a Newton step the line search tries.
const MIN_STEP_FRACTION: f64 = 1.0 / 64.0;

/// √(Σ Rᵀ·M⁻¹·R): the residual in the metric of the mass matrix, comparable across
/// bodies of any mass and size.
fn residual_norm(world: &World, free: &[usize], y: &[f64], residual: &[BodyVelocity]) -> f64 {
    let mut sum = 0.0;
    for (k, &i) in free.iter().enumerate() {
        let (r, q) = residual[k];
        sum += r.norm_squared() / world.bodies[i].mass;
        if let Some(inverse) = world.world_inertia(i, y).try_inverse() {
            sum += q.dot(&(inverse * q));
        }
    }
    sum.sqrt()
}

/// Newton's tolerance on the velocity update: 1 µm/s (plus 1e-6 of the speed).
const LINEAR_TOLERANCE: f64 = 1e-6;
/// And on the angular velocity update: 10 µrad/s (plus 1e-6 of the rate).
const ANGULAR_TOLERANCE: f64 = 1e-5;
