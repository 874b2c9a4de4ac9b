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
use super::group_solve::{BodyInertia, Groups, Weights, gyroscopic_with, set_velocity_and_advance};
use super::world::{Loads, World};
use crate::contact::model::{Derivatives, PairContact, PairDerivatives};
use crate::math::Vector3;
use nalgebra::Matrix6;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Newton iterations per step at most; a step that has not converged by then is kept (and
/// counted): the energy watch of the run catches one that goes wrong.
pub const MAX_NEWTON_ITERATIONS: usize = 12;

/// Steps a pair's derivatives are reused for before they are evaluated again. They only shape
/// Newton's matrix (the residual holds the exact forces), so recent ones converge to the same
/// solution. An evaluation with derivatives costs about five force-only ones, so they are
/// reused for as long as a resting or sliding contact's Newton iterations stay as few.
pub const DERIVATIVE_REUSE_STEPS: u32 = 32;

/// Steps after which a pair's derivatives are forgotten altogether. Until then, expired ones
/// (older than [`DERIVATIVE_REUSE_STEPS`]) serve a step's first evaluation and are refreshed at
/// its second: most steps of a resting or sliding contact end at the first evaluation (the
/// predictor is within Newton's tolerance) and never use the matrix, so an evaluation with
/// derivatives there (five to seven force-only ones) was wasted.
const FORGET_AFTER_STEPS: u32 = 4 * DERIVATIVE_REUSE_STEPS;

/// Newton iterations within a step after which the derivatives are taken fresh at every
/// iterate, unless the step converges fast with the ones it has (below): a step that needs a
/// third iteration may have derivatives that no longer fit (a rolling cylinder's patch crosses
/// its mesh every step), and Newton with fresh ones converges quadratically where stale ones
/// converge only linearly. Resting scenes converge in one or two iterations and never get here.
const FRESH_DERIVATIVES_AFTER: usize = 2;

/// The convergence rate θ (the last update's size over the one before) up to which a step
/// keeps the derivatives it has past [`FRESH_DERIVATIVES_AFTER`]: each further force-only
/// iterate shrinks the error θ-fold, and an evaluation with derivatives costs five to seven
/// force-only ones, so a step that converges this fast (an impact, θ ≈ 0.02–0.2 with the last
/// step's derivatives) keeps them.
const SLOW_THETA: f64 = 0.25;

/// How many times the residual grows in a full step along a direction from earlier derivatives
/// for the step to go back and take fresh ones where it started (rather than back off along it):
/// a bounce's lift-off grows it about ninefold; a rolling contact's milder misses do better
/// backing off (going back at any growth left 13 of the rolling cylinder's 500 steps short of
/// the tolerance, against 9).
const RETRY_GROWTH: f64 = 4.0;

/// The smallest convergence factor η a first update is trusted with.
const MIN_ETA: f64 = 1e-3;

/// The derivatives of each touching pair, kept across steps, with their age in steps; and
/// Newton's last measured convergence factor η.
#[derive(Clone, Debug)]
pub struct DerivativeCache {
    pairs: BTreeMap<(usize, usize), (Arc<PairDerivatives>, u32)>,
    eta: f64,
    /// The last step's velocity change of each free body.
    last_change: Option<Vec<BodyVelocity>>,
    /// The change of the step before, when that step was smooth too.
    change_before: Option<Vec<BodyVelocity>>,
    /// A step's working vectors, kept so that steps do not allocate them afresh.
    buffers: StepBuffers,
}

/// The working vectors of a step (their contents do not outlive it).
#[derive(Clone, Debug, Default)]
struct StepBuffers {
    start: Vec<f64>,
    gyro: Vec<Vector3>,
    inertia: Vec<BodyInertia>,
    dv: Vec<BodyVelocity>,
    residual: Vec<BodyVelocity>,
    /// The last full Newton step's start and direction.
    from: Vec<BodyVelocity>,
    direction: Vec<BodyVelocity>,
    /// Each free body's secant correction of Newton's matrix since its derivatives were last
    /// taken ([`broyden_update`]).
    corrections: Vec<Matrix6<f64>>,
    /// The loads at the current iterate.
    loads: Loads,
}

impl Default for DerivativeCache {
    fn default() -> Self {
        // No rate measured yet: a first update must itself be within the tolerance.
        DerivativeCache {
            pairs: BTreeMap::new(),
            eta: 1.0,
            last_change: None,
            change_before: None,
            buffers: StepBuffers::default(),
        }
    }
}

impl DerivativeCache {
    /// At the start of a step: ages every entry and forgets those of pairs long out of touch.
    /// Entries past [`DERIVATIVE_REUSE_STEPS`] still serve a step's first evaluation (see
    /// [`DerivativeCache::drop_expired`]).
    fn age(&mut self) {
        self.pairs.retain(|_, (_, age)| {
            *age += 1;
            *age < FORGET_AFTER_STEPS
        });
    }

    /// Forgets the entries past [`DERIVATIVE_REUSE_STEPS`]: the pairs' next evaluation takes
    /// fresh derivatives.
    fn drop_expired(&mut self) {
        self.pairs.retain(|_, (_, age)| *age < DERIVATIVE_REUSE_STEPS);
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

/// Advances `y` from `t` by `dt`, reusing and refreshing the pairs' derivatives in `cache`.
/// `contacts` receives the contacts the step applied: those of Newton's last accepted iterate,
/// within its tolerance of the new state.
pub fn step(
    world: &World,
    t: f64,
    y: &mut [f64],
    dt: f64,
    cache: &mut DerivativeCache,
    contacts: &mut Vec<PairContact>,
) -> Result<StepReport, DynamicsError> {
    cache.age();
    let mut buffers = std::mem::take(&mut cache.buffers);
    let StepBuffers { start, gyro, inertia, dv, residual, from, direction, corrections, loads } =
        &mut buffers;
    corrections.clear();
    corrections.resize(world.coords.free_blocks().len(), Matrix6::zeros());
    start.clear();
    start.extend_from_slice(y);
    let start = &start[..];
    let free = world.coords.free_bodies();
    // Each free body's world inertia at the step's start and its inverse: every iteration's
    // residual and tolerance tests use them (the start state does not change within the step).
    inertia.clear();
    inertia.extend(free.iter().map(|&i| {
        let inertia = world.world_inertia(i, start);
        (world.bodies[i].mass, inertia, inertia.try_inverse())
    }));
    gyro.clear();
    gyro.extend(
        free.iter()
            .zip(inertia.iter())
            .map(|(&i, (_, inertia, _))| gyroscopic_with(inertia, world, i, start)),
    );
    // ΔV of the current iterate, per free body: first the previous step's when that step was
    // smooth (the accelerations carried over: exact in free flight and in steady contact),
    // else none (the explicit prediction: after an impact, carrying its velocity change over
    // would start Newton deep in the contact).
    dv.clear();
    match (&cache.last_change, &cache.change_before) {
        // Two smooth steps: the velocity change extrapolated linearly.
        (Some(last), Some(before)) if last.len() == free.len() && before.len() == free.len() => {
            dv.extend(last.iter().zip(before).map(|(l, b)| (l.0 * 2.0 - b.0, l.1 * 2.0 - b.1)))
        }
        (Some(last), _) if last.len() == free.len() => dv.extend_from_slice(last),
        _ => dv.resize(free.len(), (Vector3::zeros(), Vector3::zeros())),
    }
    let mut report = StepReport::default();
    let (mut dissipation, mut external_power) = (0.0, 0.0);
    // The last full Newton step (its start `from` and `direction`) and its residual norm, for
    // the line search: regularized friction is a steep sigmoid in the slip velocity, on which a
    // full Newton step from far away can overshoot into a cycle.
    let mut last_norm: Option<f64> = None;
    let mut fraction = 1.0;
    // Whether the last full step's direction came from derivatives taken at its start.
    let mut direction_fresh = false;
    // Whether this step has gone back once for fresh derivatives (once at most: each return
    // costs an iteration, and a rolling contact's derivatives go stale every iterate).
    let mut retried = false;
    // The size of the last full update relative to the tolerance, and the convergence factor η
    // to trust for the first update (kept from earlier steps, nudged towards 1).
    let mut previous_ratio: Option<f64> = None;
    // The rate θ measured from this step's last two full updates.
    let mut theta: Option<f64> = None;
    let first_eta = cache.eta.max(MIN_ETA).powf(0.8);
    for iteration in 0..MAX_NEWTON_ITERATIONS {
        for (k, &i) in free.iter().enumerate() {
            set_velocity_and_advance(world, i, start, dv[k], dt, y);
        }
        if iteration >= FRESH_DERIVATIVES_AFTER && theta.is_none_or(|theta| theta > SLOW_THETA) {
            cache.pairs.clear();
        } else if iteration == 1 {
            cache.drop_expired();
        }
        let fresh = cache.pairs.is_empty();
        let known = |pair: (usize, usize)| cache.pairs.get(&pair).map(|(d, _)| Arc::clone(d));
        world.loads_into(t + dt, y, Derivatives::VelocityAndPose, known, loads)?;
        let loads = &*loads;
        report.evaluations += 1;
        for (a, b, d) in &loads.derivatives {
            cache.pairs.entry((*a, *b)).or_insert((Arc::clone(d), 0));
        }
        // R = M·ΔV − dt·(Q − ω×Iω), per free body.
        residual.clear();
        residual.extend(free.iter().enumerate().map(|(k, &i)| {
            let (m, inertia, _) = &inertia[k];
            (dv[k].0 * *m - loads.force[i] * dt, inertia * dv[k].1 - (loads.torque[i] - gyro[k]) * dt)
        }));
        let norm = residual_norm(inertia, residual);
        if let Some(previous) = last_norm
            && norm > previous * RETRY_GROWTH
            && fraction == 1.0
            && !direction_fresh
            && !retried
        {
            // Not a descent, along a direction from earlier derivatives: back to where it
            // started, for a direction from derivatives taken there (a bounce's lift-off
            // otherwise backed off six times, each with fresh derivatives, along the stale one).
            dv.clone_from(from);
            cache.pairs.clear();
            retried = true;
            last_norm = None;
            previous_ratio = None;
            theta = None;
            continue;
        }
        if let Some(previous) = last_norm
            && norm > previous * (1.0 - 1e-4 * fraction)
            && fraction > MIN_STEP_FRACTION
        {
            // Not a descent: back off along the same direction.
            fraction *= 0.5;
            previous_ratio = None;
            theta = None;
            for k in 0..free.len() {
                dv[k] = (from[k].0 + direction[k].0 * fraction, from[k].1 + direction[k].1 * fraction);
            }
            continue;
        }
        if fresh {
            corrections.iter_mut().for_each(|c| *c = Matrix6::zeros());
        } else if last_norm.is_some() && fraction == 1.0 {
            // A full step along `direction` led here: its secant corrects the matrix.
            broyden_update(corrections, inertia, direction, residual);
        }
        dissipation = loads.dissipation;
        external_power = loads.external_power;
        contacts.clone_from(&loads.contacts);
        // The iterate already solves the step to within Newton's tolerance: M⁻¹·R bounds the
        // update Newton would take (its matrix only adds contact stiffness and damping to M).
        if within_tolerance(world, (start, dv), inertia, residual) {
            report.converged = true;
            break;
        }
        let weights = Weights { damping: dt, stiffness: dt * dt };
        let rhs = |k: usize| (-residual[k].0, -residual[k].1);
        let groups = || Groups::new(world, loads).with_inertia(inertia);
        let delta = match groups().with_corrections(corrections).solve(world, (t, start), loads, weights, rhs)
        {
            // The secant corrections made the matrix singular: the derivatives alone.
            Err(_) if corrections.iter().any(|c| *c != Matrix6::zeros()) => {
                corrections.iter_mut().for_each(|c| *c = Matrix6::zeros());
                groups().solve(world, (t, start), loads, weights, rhs)?
            }
            result => result?,
        };
        // Newton's error after this update is about η·|δ|, η = θ/(1 − θ) with θ the rate at
        // which updates shrink: measured from two full updates of this step, else carried
        // over from earlier steps (as Hairer & Wanner's RADAU5 does), so that a step whose
        // first update is small needs no second evaluation.
        let ratio = update_ratio(world, (start, dv), |k| delta[k]);
        let eta = match previous_ratio {
            Some(r0) if r0 > 0.0 => {
                let rate = ratio / r0;
                theta = Some(rate);
                let eta = if rate < 1.0 { rate / (1.0 - rate) } else { f64::INFINITY };
                cache.eta = eta;
                eta
            }
            _ => first_eta,
        };
        let converged = ratio <= 1.0 || eta * ratio <= 1.0;
        previous_ratio = Some(ratio);
        from.clone_from(dv);
        direction.clone_from(&delta);
        direction_fresh = fresh;
        last_norm = Some(norm);
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
        // Stale derivatives may be why: take fresh ones next step, and trust no rate.
        cache.pairs.clear();
        cache.eta = 1.0;
    }
    for (k, &i) in free.iter().enumerate() {
        set_velocity_and_advance(world, i, start, dv[k], dt, y);
    }
    let smooth = report.converged && report.evaluations <= 2;
    // The last two smooth steps' changes, in vectors recycled from step to step.
    let recycled = cache.change_before.take();
    if smooth {
        cache.change_before = cache.last_change.take();
        let mut change = recycled.unwrap_or_default();
        change.clone_from(dv);
        cache.last_change = Some(change);
    } else {
        cache.last_change = None;
    }
    let coords = &world.coords;
    coords.set_dissipated(y, coords.dissipated(start) + dt * dissipation);
    coords.set_work(y, coords.work(start) + dt * external_power);
    cache.buffers = buffers;
    world.accept_step(t + dt, y);
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(report)
}

/// Broyden's update of Newton's matrix A after a full step s that solved A·s = −R₀ and led to
/// the residual R: A ← A + R·sᵀ/(sᵀs), which makes A map s to the residual's actual change
/// R − R₀ (the secant condition). Applied body by body to the diagonal blocks (exact for a
/// body alone, as on the ground): the derivatives taken at an earlier iterate or step miss how
/// fast an impact's stiffness grows, and corrected this way Newton converges superlinearly
/// instead of at the stale derivatives' rate.
fn broyden_update(
    corrections: &mut [Matrix6<f64>],
    inertia: &[BodyInertia],
    step: &[BodyVelocity],
    residual: &[BodyVelocity],
) {
    for (((c, (mass, inertia, _)), (sl, sa)), (rl, ra)) in
        corrections.iter_mut().zip(inertia).zip(step).zip(residual)
    {
        // In the metric of the mass matrix (w = M·s): spin and travel weigh by their energy.
        let w = (sl * *mass, inertia * sa);
        let w = nalgebra::Vector6::new(w.0.x, w.0.y, w.0.z, w.1.x, w.1.y, w.1.z);
        let r = nalgebra::Vector6::new(rl.x, rl.y, rl.z, ra.x, ra.y, ra.z);
        let ws = w.dot(&nalgebra::Vector6::new(sl.x, sl.y, sl.z, sa.x, sa.y, sa.z));
        if ws > 0.0 && ws.is_finite() {
            *c += r * w.transpose() / ws;
        }
    }
}

/// The smallest fraction of a Newton step the line search tries.
const MIN_STEP_FRACTION: f64 = 1.0 / 64.0;

/// √(Σ Rᵀ·M⁻¹·R): the residual in the metric of the mass matrix, comparable across
/// bodies of any mass and size (`inertia`: each free body's mass, world inertia and its inverse).
fn residual_norm(inertia: &[BodyInertia], residual: &[BodyVelocity]) -> f64 {
    let mut sum = 0.0;
    for ((mass, _, inverse), (r, q)) in inertia.iter().zip(residual) {
        sum += r.norm_squared() / mass;
        if let Some(inverse) = inverse {
            sum += q.dot(&(inverse * q));
        }
    }
    sum.sqrt()
}

/// The largest velocity update `delta(k)` of any free body k relative to Newton's tolerance
/// (≤ 1: within), at the velocities of `start` plus `dv`.
fn update_ratio(
    world: &World,
    (start, dv): (&[f64], &[BodyVelocity]),
    delta: impl Fn(usize) -> BodyVelocity,
) -> f64 {
    world.coords.free_blocks().iter().enumerate().fold(0.0, |worst: f64, (k, block)| {
        let v = block.velocity(start) + dv[k].0;
        let w = block.angular_velocity(start) + dv[k].1;
        let (dl, da) = delta(k);
        let linear = dl.norm() / (LINEAR_TOLERANCE + 1e-6 * v.norm());
        let angular = da.norm() / (ANGULAR_TOLERANCE + 1e-6 * w.norm());
        worst.max(linear).max(angular)
    })
}

/// Whether M⁻¹·R, body by body, is within Newton's tolerance on the update.
fn within_tolerance(
    world: &World,
    velocities: (&[f64], &[BodyVelocity]),
    inertia: &[BodyInertia],
    residual: &[BodyVelocity],
) -> bool {
    let scaled = |k: usize| {
        let ((mass, _, inverse), (r, q)) = (&inertia[k], &residual[k]);
        let angular = inverse.map_or(Vector3::repeat(f64::INFINITY), |inv| inv * q);
        (r / *mass, angular)
    };
    update_ratio(world, velocities, scaled) <= 1.0
}

/// Newton's tolerance on the velocity update: 1 µm/s (plus 1e-6 of the speed).
const LINEAR_TOLERANCE: f64 = 1e-6;
/// And on the angular velocity update: 10 µrad/s (plus 1e-6 of the rate).
const ANGULAR_TOLERANCE: f64 = 1e-5;
