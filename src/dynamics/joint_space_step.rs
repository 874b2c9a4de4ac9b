//! The fixed-step schemes of a world with mechanisms, in every velocity at once — each free
//! body's (6: centre-of-mass velocity, angular velocity) and the mechanism's independent joint
//! velocities u — solved densely (scenes with mechanisms are a robot and a few objects).
//!
//! Backward Euler (`implicit`): Newton's method on
//!   free bodies:  M·ΔV − dt·(Q(X⁺, V⁺) − ω×Iω) = 0,
//!   mechanism:    Gᵀ·[H·Δv − dt·(τ_joints(q⁺, v⁺) + Σ Jᵀ·w_contact(q⁺, v⁺) − b)] = 0,
//! with H and the bias b (gravity, Coriolis, centrifugal) at the step's start, q⁺ = q ⊕ dt·v⁺,
//! and Newton's matrix the masses plus dt·(damping + kd) + dt²·(stiffness + kp) on the joints
//! and −dt·Ĝᵀ·D·Ĝ − dt²·Ĝᵀ·K·Ĝ for the contacts (Ĝ: each body's centre-of-mass Jacobian), so
//! stiff servos and stiff contact are stable at any step. Semi-implicit Euler takes the contacts
//! at the step's start with their velocity derivatives (one solve) and the joint terms as
//! backward Euler does.
//!
//! Joint limits are one-sided constraints on the new velocity: a joint that would cross its limit
//! in the step stops on it (q⁺ = limit; no bounce, no energy added), released when the
//! constraint would pull.

use super::error::DynamicsError;
use super::group_solve::gyroscopic_with;
use super::implicit_euler::StepReport;
use super::mechanism::{JointForces, Limits, Mechanism};
use super::world::{Loads, World};
use crate::contact::model::{Derivatives, PairContact};
use crate::math::{Matrix3, Vector3};
use nalgebra::{DMatrix, DVector};

/// The velocity changes of the last two smooth steps (Newton's first guess).
#[derive(Clone, Debug, Default)]
pub struct JointGuess {
    last: Option<DVector<f64>>,
    before: Option<DVector<f64>>,
}

/// Which scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointScheme {
    Implicit,
    SemiImplicit,
}

/// Newton iterations per step at most (a step short of the tolerance is kept and counted: the
/// energy watch catches one that goes wrong). More than the free bodies' scheme allows: each
/// back-off of the line search takes one, and a finger striking a stiff box backs off a few
/// times before Newton takes hold.
const JOINT_NEWTON_ITERATIONS: usize = 40;

/// Newton's tolerance on a velocity update: 1 µm/s or 10 µrad/s, plus 1e-6 of the velocity.
const LINEAR_TOLERANCE: f64 = 1e-6;
const ANGULAR_TOLERANCE: f64 = 1e-5;

/// Advances `y` from `t` by `dt`. `start_loads`: semi-implicit Euler's loads at the start (with
/// their velocity derivatives). `contacts` receives the contacts the step applied.
pub fn step(
    world: &World,
    (t, dt): (f64, f64),
    y: &mut [f64],
    scheme: JointScheme,
    start_loads: Option<&Loads>,
    contacts: &mut Vec<PairContact>,
    guess: &mut JointGuess,
) -> Result<StepReport, DynamicsError> {
    let m = world.mechanism.as_ref().expect("a world with a mechanism");
    let start = y.to_vec();
    let free = world.coords.free_bodies();
    let nf = 6 * free.len();
    let n = nf + m.independent();
    // Free bodies at the start: mass, world inertia, gyroscopic term.
    let inertia: Vec<(f64, Matrix3)> =
        free.iter().map(|&i| (world.bodies[i].mass, world.world_inertia(i, &start))).collect();
    let gyro: Vec<Vector3> = free
        .iter()
        .zip(&inertia)
        .map(|(&i, (_, inertia))| gyroscopic_with(inertia, world, i, &start))
        .collect();
    // The mechanism at the start: mass matrix and bias.
    let (q0, v0) = (m.q(&start).to_vec(), m.v(&start).to_vec());
    let kin0 = m.kinematics(&start);
    let mass = m.reduce_matrix(m.articulation.mass_matrix(&kin0));
    // (Semi-implicit Euler's bias is the start's; backward Euler's the iterate's.)
    let start_bias = (scheme == JointScheme::SemiImplicit)
        .then(|| m.articulation.inverse_dynamics(&kin0, &v0, None, &world.gravity, None));
    let limits = m.limited_dofs();
    // Held limits: (independent column, required u value, whether it is a lower limit).
    let mut active: Vec<(usize, f64, bool)> = Vec::new();
    // The first iterate: the last smooth steps' velocity changes extrapolated linearly (exact
    // in steady motion and along a ramp: Newton then ends at its first evaluation), else none.
    let mut u = match (&guess.last, &guess.before) {
        (Some(l), Some(b)) if l.len() == n && b.len() == n && scheme == JointScheme::Implicit => l * 2.0 - b,
        (Some(l), _) if l.len() == n && scheme == JointScheme::Implicit => l.clone(),
        _ => DVector::zeros(n),
    };
    let mut report = StepReport::default();
    let mut joints = JointForces::default();
    let (mut dissipation, mut external_power) = (0.0, 0.0);
    // The line search: the last full update's start and direction, its residual norm, and the
    // fraction of it taken (a stiff impact's first update overshoots).
    let (mut from, mut direction) = (DVector::zeros(n), DVector::zeros(n));
    let (mut last_norm, mut fraction): (Option<f64>, f64) = (None, 1.0);
    let scale: Vec<f64> = (0..n)
        .map(|i| {
            if i < nf {
                if i % 6 < 3 { inertia[i / 6].0 } else { inertia[i / 6].1[(i % 6 - 3, i % 6 - 3)] }
            } else {
                mass[(i - nf, i - nf)]
            }
        })
        .collect();
    for _ in 0..JOINT_NEWTON_ITERATIONS {
        apply(world, m, (&start, &q0, &v0), &u, dt, y);
        let evaluated;
        let loads = match (scheme, start_loads) {
            (JointScheme::SemiImplicit, Some(loads)) => loads,
            _ => {
                let derivatives = match scheme {
                    JointScheme::Implicit => Derivatives::VelocityAndPose,
                    JointScheme::SemiImplicit => Derivatives::Velocity,
                };
                let at = if scheme == JointScheme::Implicit { (t + dt, &y[..]) } else { (t, &start[..]) };
                evaluated = world.loads(at.0, at.1, derivatives)?;
                &evaluated
            }
        };
        report.evaluations += 1;
        // The contacts act at the iterate (backward Euler) or at the start.
        let kin = if scheme == JointScheme::Implicit { m.kinematics(y) } else { kin0.clone() };
        let (q1, v1) = (m.q(y), m.v(y));
        m.joint_forces_into(t + dt, q1, v1, Limits::Constraints, &mut joints);
        // Residual.
        let mut r = DVector::zeros(n);
        for (k, &i) in free.iter().enumerate() {
            let (mk, ik) = &inertia[k];
            let (dv, dw) = (u.fixed_rows::<3>(6 * k).into_owned(), u.fixed_rows::<3>(6 * k + 3).into_owned());
            let rl = dv * *mk - loads.force[i] * dt;
            let ra = ik * dw - (loads.torque[i] - gyro[k]) * dt;
            r.fixed_rows_mut::<3>(6 * k).copy_from(&rl);
            r.fixed_rows_mut::<3>(6 * k + 3).copy_from(&ra);
        }
        // Backward Euler: gravity and the velocity terms at the iterate too (it then only
        // removes energy); semi-implicit Euler: at the start.
        let bias = match &start_bias {
            None => m.articulation.inverse_dynamics(&kin, v1, None, &world.gravity, None),
            Some(bias) => bias.clone(),
        };
        let mut tau: Vec<f64> = joints.tau.iter().zip(bias.iter()).map(|(a, b)| a - b).collect();
        for (k, link) in m.articulation.links.iter().enumerate() {
            let i = link.body;
            let force = loads.force[i] - world.gravity * world.bodies[i].mass;
            // (A link with no load but gravity, which the bias holds, adds nothing.)
            if force == Vector3::zeros() && loads.torque[i] == Vector3::zeros() {
                continue;
            }
            let com = m.com(&kin, k);
            m.articulation.add_wrench(&kin, k, &com, &force, &loads.torque[i], &mut tau);
        }
        let reduced = m.reduce(&tau);
        for i in 0..m.independent() {
            let momentum: f64 = (0..m.independent()).map(|j| mass[(i, j)] * u[nf + j]).sum();
            r[nf + i] = momentum - reduced[i] * dt;
        }
        // The residual in the metric of the masses: no descent along the last update → back off
        // (not with a limit held: its impulse is in the residual).
        let norm: f64 = r.iter().zip(&scale).map(|(r, s)| if *s > 0.0 { r * r / s } else { 0.0 }).sum();
        if let Some(previous) = last_norm
            && active.is_empty()
            && norm > previous
            && fraction > 1.0 / 64.0
        {
            fraction *= 0.5;
            u = &from + &direction * fraction;
            continue;
        }
        // Newton's matrix.
        let mut a = DMatrix::zeros(n, n);
        for (k, (mk, ik)) in inertia.iter().enumerate() {
            a.fixed_view_mut::<3, 3>(6 * k, 6 * k).copy_from(&(Matrix3::identity() * *mk));
            a.fixed_view_mut::<3, 3>(6 * k + 3, 6 * k + 3).copy_from(ik);
        }
        a.view_mut((nf, nf), (m.independent(), m.independent())).copy_from(&mass);
        // Gᵀ·(dt·D + dt²·K)·G for the joints' diagonal damping D and stiffness K.
        for (dof, (d, k)) in joints.damping.iter().zip(&joints.stiffness).enumerate() {
            let (col, ratio) = (nf + m.column(dof), m.ratio(dof));
            a[(col, col)] += ratio * ratio * (dt * d + dt * dt * k);
        }
        let stiffness_weight = if scheme == JointScheme::Implicit { dt * dt } else { 0.0 };
        let map = |body: usize| body_map(world, m, &kin, body, n);
        for (pa, pb, d) in &loads.derivatives {
            let g = stack_maps(&map(*pa), &map(*pb));
            let mut c = d.velocity * dt;
            if let Some(k) = &d.pose {
                c += k * stiffness_weight;
            }
            let c = DMatrix::from_column_slice(12, 12, c.as_slice());
            a -= g.transpose() * c * &g;
        }
        dissipation = loads.dissipation;
        external_power = loads.external_power;
        contacts.clone_from(&loads.contacts);
        // The update, with the active limits as constraints on the new velocities.
        let delta = if limits.is_empty() {
            // Without contact terms Newton's matrix is the masses plus positive diagonals:
            // symmetric positive definite, for Cholesky.
            let cholesky = if loads.derivatives.is_empty() { a.clone().cholesky() } else { None };
            match cholesky {
                Some(c) => c.solve(&(-&r)),
                None => a.lu().solve(&(-&r)).ok_or_else(singular_step)?,
            }
        } else {
            let mut rounds = 0;
            loop {
                rounds += 1;
                let delta = solve_with_limits(&a, &r, &active, nf, &u)?;
                // A limit the update would cross joins; one that pulls leaves.
                let v_new: Vec<f64> = m.expand((&u + &delta.0).rows(nf, m.independent()).as_slice());
                let v_new: Vec<f64> = v_new.iter().zip(&v0).map(|(d, v)| v + d).collect();
                let mut changed = false;
                for (dof, bound, lower) in limits {
                    let target = (bound - q0[m.q_of_dof(*dof)]) / dt;
                    let crosses =
                        if *lower { v_new[*dof] < target - 1e-12 } else { v_new[*dof] > target + 1e-12 };
                    let col = m.column(*dof);
                    if crosses && !active.iter().any(|(c, _, _)| *c == col) {
                        active.push((col, target / m.ratio(*dof) - v0[*dof] / m.ratio(*dof), *lower));
                        changed = true;
                    }
                }
                let before = active.len();
                let lambdas = &delta.1;
                let mut keep = Vec::new();
                for (k, entry) in active.iter().enumerate() {
                    // (The entry's own side: a joint's lower and upper limits share a column.)
                    let lower = entry.2;
                    let pulls = if k < lambdas.len() {
                        if lower { lambdas[k] < 0.0 } else { lambdas[k] > 0.0 }
                    } else {
                        false
                    };
                    if !pulls {
                        keep.push(*entry);
                    }
                }
                if keep.len() != before {
                    active = keep;
                    changed = true;
                }
                // (Each joint has two limits: a few rounds settle every set there can be.)
                if !changed || rounds > 2 * limits.len() + 2 {
                    break delta.0;
                }
            }
        };
        from.copy_from(&u);
        direction.copy_from(&delta);
        (last_norm, fraction) = (Some(norm), 1.0);
        u += &delta;
        if within_tolerance(world, m, (&start, &v0), &u, &delta, nf) || scheme == JointScheme::SemiImplicit {
            report.converged = true;
            break;
        }
    }
    apply(world, m, (&start, &q0, &v0), &u, dt, y);
    if report.converged && report.evaluations <= 2 && active.is_empty() {
        guess.before = guess.last.replace(u);
    } else {
        *guess = JointGuess::default();
    }
    let coords = &world.coords;
    m.joint_forces_into(t + dt, m.q(y), m.v(y), Limits::Constraints, &mut joints);
    coords.set_dissipated(y, coords.dissipated(&start) + dt * (dissipation + joints.damping_power));
    coords.set_work(y, coords.work(&start) + dt * (external_power + joints.actuator_power));
    m.add_energies(y, dt * joints.damping_power, dt * joints.actuator_power);
    world.accept_step(t + dt, y);
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(report)
}

/// Solves A·δ = −R with `active` limits (independent column, required u value) as equality
/// constraints on u + δ; returns δ and the constraints' multipliers.
fn solve_with_limits(
    a: &DMatrix<f64>,
    r: &DVector<f64>,
    active: &[(usize, f64, bool)],
    nf: usize,
    u: &DVector<f64>,
) -> Result<(DVector<f64>, Vec<f64>), DynamicsError> {
    let n = a.nrows();
    let c = active.len();
    let mut big = DMatrix::zeros(n + c, n + c);
    big.view_mut((0, 0), (n, n)).copy_from(a);
    let mut rhs = DVector::zeros(n + c);
    rhs.rows_mut(0, n).copy_from(&(-r));
    for (k, (col, value, _)) in active.iter().enumerate() {
        big[(nf + col, n + k)] = 1.0;
        big[(n + k, nf + col)] = 1.0;
        rhs[n + k] = value - u[nf + col];
    }
    let x = big.lu().solve(&rhs).ok_or_else(singular_step)?;
    let delta = x.rows(0, n).into_owned();
    // Multipliers of A·δ + R = Eᵀ·λ' are −x: the force the limit applies, positive pushing up.
    let lambdas = (0..c).map(|k| -x[n + k]).collect();
    Ok((delta, lambdas))
}

fn singular_step() -> DynamicsError {
    DynamicsError::Setup(
        "the joint-space step's matrix is singular: give every moving link mass and inertia".into(),
    )
}

/// Sets the velocities u (changes from the start) and the poses they reach in dt.
fn apply(
    world: &World,
    m: &Mechanism,
    (start, q0, v0): (&[f64], &[f64], &[f64]),
    u: &DVector<f64>,
    dt: f64,
    y: &mut [f64],
) {
    for (k, &i) in world.coords.free_bodies().iter().enumerate() {
        let dv = (u.fixed_rows::<3>(6 * k).into_owned(), u.fixed_rows::<3>(6 * k + 3).into_owned());
        super::group_solve::set_velocity_and_advance(world, i, start, dv, dt, y);
    }
    let nf = 6 * world.coords.free_bodies().len();
    let dv = m.expand(u.rows(nf, m.independent()).as_slice());
    let (q, v) = m.q_v_mut(y);
    for (vi, (v0, d)) in v.iter_mut().zip(v0.iter().zip(&dv)) {
        *vi = v0 + d;
    }
    for (k, joint) in m.articulation.joints.iter().enumerate() {
        let (qa, va) = m.articulation.offsets(k);
        let (nq, nv) = (joint.kind.nq(), joint.kind.nv());
        joint.kind.advance(&q0[qa..qa + nq], &v[va..va + nv], dt, &mut q[qa..qa + nq]);
    }
    m.hold_couplers(q, v);
}

/// The 6×n map from all velocities to body `body`'s centre-of-mass velocity and angular
/// velocity (zero for a body that does not move).
fn body_map(
    world: &World,
    m: &Mechanism,
    kin: &super::coordinates::articulation::Kinematics,
    body: usize,
    n: usize,
) -> DMatrix<f64> {
    let mut g = DMatrix::zeros(6, n);
    let slots = world.coords.free_slots();
    if slots[body] != super::coordinates::NOT_FREE {
        let at = 6 * slots[body];
        for r in 0..6 {
            g[(r, at + r)] = 1.0;
        }
    } else if let Some(k) = m.link(body) {
        let nf = 6 * world.coords.free_bodies().len();
        let j = m.articulation.point_jacobian(kin, k, &m.com(kin, k));
        let reduced = m.reduce_columns(&j);
        g.view_mut((0, nf), (6, m.independent())).copy_from(&reduced);
    }
    g
}

fn stack_maps(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    let mut g = DMatrix::zeros(12, a.ncols());
    g.rows_mut(0, 6).copy_from(a);
    g.rows_mut(6, 6).copy_from(b);
    g
}

/// Whether the last update is within Newton's tolerance.
fn within_tolerance(
    world: &World,
    m: &Mechanism,
    (start, v0): (&[f64], &[f64]),
    u: &DVector<f64>,
    delta: &DVector<f64>,
    nf: usize,
) -> bool {
    for (k, block) in world.coords.free_blocks().iter().enumerate() {
        let v = block.velocity(start) + u.fixed_rows::<3>(6 * k);
        let w = block.angular_velocity(start) + u.fixed_rows::<3>(6 * k + 3);
        if delta.fixed_rows::<3>(6 * k).norm() > LINEAR_TOLERANCE + 1e-6 * v.norm()
            || delta.fixed_rows::<3>(6 * k + 3).norm() > ANGULAR_TOLERANCE + 1e-6 * w.norm()
        {
            return false;
        }
    }
    v0.iter().enumerate().all(|(dof, v0)| {
        let (col, ratio) = (nf + m.column(dof), m.ratio(dof));
        (ratio * delta[col]).abs() <= ANGULAR_TOLERANCE + 1e-6 * (ratio * u[col] + v0).abs()
    })
}
