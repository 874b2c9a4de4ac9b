//! Velocity-level time stepping for the 6D model (`integrator = "time_stepping"`): each step
//! finds one 6D impulse per touching pair by projected block Gauss–Seidel (Bouchard et al.
//! 2015), then moves the bodies with the new velocities.
//!
//! A step from state (x, V):
//! 1. V* = V + dt·M⁻¹·(gravity, applied loads, −ω × Iω): the velocities without contact;
//! 2. each touching pair's frame (u, w, n) at its footprint's centroid c and patch ellipse, its
//!    Jacobian J (the relative spatial velocity of a w.r.t. b in that frame) and its block
//!    S = Σ J·M⁻¹·Jᵀ of the Schur complement;
//! 3. sweeps over the pairs: each pair's rigid-joint impulse with the others held, projected
//!    ([`crate::contact::volume6d::projection::project`]); warm-started from the last step's
//!    impulses; until a sweep changes the impulses by less than `tolerance` (2-norm) or after
//!    `iterations` sweeps;
//! 4. a position correction that removes a share of each pair's penetration depth V/|G| beyond
//!    `slop` through separate pseudo-velocities (normal impulses ≥ 0) that move the bodies in
//!    this step only — velocities, and so the kinetic energy, are not changed by it;
//! 5. x ⊕ dt·(V⁺ + pseudo-velocity), V⁺ = V* + M⁻¹·Jᵀ·λ.
//!
//! Energy: the contact impulses never add kinetic energy to a step's motion; what a step loses,
//! (kinetic + gravity) at its start plus the applied loads' work minus that at its end (with the
//! bodies where they would be without the position correction), is counted as dissipated when
//! positive; the gravity energy the correction returns (the extra fall the overlap allowed) is
//! taken back from it. A step that gains energy (a failing solve) is not hidden: the run's
//! energy watch sees it.

use super::coordinates::InverseMass;
use super::error::DynamicsError;
use super::impulse_step::{StepStart, advance};
use super::mechanism_response::MechanismResponse;
use super::solver_report::SolverReport;
use super::world::World;
use crate::contact::model::PairContact;
use crate::contact::volume6d::body::Volume6dPairError;
use crate::contact::volume6d::model::{PairGeometry, Volume6dModel, Volume6dSettings, WarmStarts};
use crate::contact::volume6d::projection::{Ellipse, project};
use crate::contact::volume6d::settings::Volume6dFormulation;
use crate::math::{Matrix3, Point3, Vector3, Wrench, parallel};
use nalgebra::{Matrix6, SMatrix, SVector, Vector6};
use smallvec::SmallVec;

/// The over-relaxation of every sweep after the first: each pair's fixed-joint step is taken
/// this many times over before its projection. A chain of contacts (a stack) passes its
/// corrections along in about a quarter of the sweeps; a lone contact, solved exactly by the
/// first sweep, is untouched.
const OVER_RELAXATION: f64 = 1.5;

/// The penetration depth (V/|G|) the position correction leaves (m): the volume a contact needs
/// to have a patch.
const SLOP: f64 = 5e-5;

/// The share of the excess depth the position correction removes per step.
const CORRECTION: f64 = 0.2;

/// One touching pair in a step.
struct Constraint {
    a: usize,
    b: usize,
    geometry: PairGeometry,
    /// Contact frame: columns u, w, n.
    frame: Matrix3,
    /// The six rows (force, then torque, at the patch centre).
    rows: Rows<6>,
    /// `6d`: the factorized block (the `points` solve does not use it).
    s_lu: Option<nalgebra::LU<f64, nalgebra::U6, nalgebra::U6>>,
    /// The pair's impulse at the patch centre (frame coordinates: force, torque).
    lambda: Vector6<f64>,
    /// `points` formulation: the pair's point contacts (empty under `6d`).
    points: Vec<PointRow>,
}

/// One point contact of the `points` formulation: the rows (u, w, n) of the relative velocity
/// at the point, in the pair's frame.
struct PointRow {
    /// The point's offset from the patch centre (frame coordinates).
    offset: Vector3,
    rows: Rows<3>,
    lambda: Vector3,
}

/// The first N rows (u, w, n, then the torques) of a pair's relative spatial velocity at a
/// point, in the pair's frame: J of each body the impulses move (`reads`: free bodies and
/// links), how an impulse on the rows moves each body (`moves`: M⁻¹·Jᵀ for a free body; for a
/// mechanism, every link, through the joints), the relative velocity of the bodies they do not
/// move (kinematic), and the block S = J·(velocity change per unit impulse).
struct Rows<const N: usize> {
    reads: SmallVec<[(usize, SMatrix<f64, N, 6>); 2]>,
    moves: SmallVec<[(usize, SMatrix<f64, 6, N>); 2]>,
    driven: SVector<f64, N>,
    s: SMatrix<f64, N, N>,
}

impl<const N: usize> Rows<N> {
    /// The rows of pair `(a, b)` (a's velocity relative to b's) at `at`, frame `frame`.
    fn new(
        frame: &Matrix3,
        at: &Point3,
        (a, b): (usize, usize),
        bodies: &Bodies,
        velocity: &[Vector6<f64>],
    ) -> Self {
        let mut rows = Rows {
            reads: SmallVec::new(),
            moves: SmallVec::new(),
            driven: SVector::zeros(),
            s: SMatrix::zeros(),
        };
        let mut links: SmallVec<[(usize, SMatrix<f64, N, 6>); 2]> = SmallVec::new();
        for (body, sign) in [(a, 1.0), (b, -1.0)] {
            let j: SMatrix<f64, N, 6> =
                jacobian(frame, &(at - bodies.com[body]), sign).fixed_rows::<N>(0).into();
            let link = bodies.mechanism.as_ref().and_then(|r| r.link_of(body));
            match (bodies.inverse_mass[body], link) {
                (Some(m), _) => {
                    let w = block_diag(m.linear, &m.angular) * j.transpose();
                    rows.s += j * w;
                    rows.reads.push((body, j));
                    rows.moves.push((body, w));
                }
                (None, Some(k)) => {
                    rows.reads.push((body, j));
                    links.push((k, j));
                }
                (None, None) => rows.driven += j * velocity[body],
            }
        }
        if let Some(response) = bodies.mechanism.as_ref().filter(|_| !links.is_empty()) {
            // An impulse on a link moves every link of the mechanism.
            for (k, &body) in response.bodies.iter().enumerate() {
                let mut w = SMatrix::<f64, 6, N>::zeros();
                for (i, j) in &links {
                    w += response.coupling(k, *i) * j.transpose();
                }
                for (i, j) in &links {
                    if *i == k {
                        rows.s += j * w;
                    }
                }
                rows.moves.push((body, w));
            }
        }
        rows
    }

    /// The wrench (force, torque about its centre of mass; world) that impulse `lambda` on
    /// these rows puts on `body`.
    fn wrench_on(&self, body: usize, lambda: &SVector<f64, N>) -> Vector6<f64> {
        self.reads.iter().filter(|(b, _)| *b == body).map(|(_, j)| j.transpose() * lambda).sum()
    }

    /// The rows' velocity at the bodies' `velocity`.
    fn error(&self, velocity: &[Vector6<f64>]) -> SVector<f64, N> {
        let mut e = self.driven;
        for (body, j) in &self.reads {
            e += j * velocity[*body];
        }
        e
    }

    /// Applies impulse `delta` on these rows to the bodies' `velocity`.
    fn apply(&self, velocity: &mut [Vector6<f64>], delta: &SVector<f64, N>) {
        for (body, w) in &self.moves {
            velocity[*body] += w * delta;
        }
    }
}

/// Each body's centre of mass and inverse mass and inertia (`None`: not moved by impulses),
/// and the mechanism's response to impulses on its links.
struct Bodies {
    com: Vec<Point3>,
    inverse_mass: Vec<Option<InverseMass>>,
    mechanism: Option<MechanismResponse>,
}

/// Advances `y` from `t` by `dt`; `contacts` receives each touching pair's mean wrench over the
/// step (impulse / dt).
pub fn step(
    world: &World,
    model: &Volume6dModel,
    t: f64,
    y: &mut [f64],
    dt: f64,
    warm: &mut WarmStarts,
    contacts: &mut Vec<PairContact>,
) -> Result<SolverReport, DynamicsError> {
    let settings = &model.settings;
    let poses = world.poses(t, y);
    // Centre of mass, V* and M⁻¹ of each body (free bodies; others: their prescribed motion).
    let StepStart { com, velocity, inverse_mass, mechanism } =
        StepStart::new(world, &poses, y, dt, |_| true).with_mechanism(world, t, y, dt)?;
    let mut velocity = velocity;
    let bodies = Bodies { com, inverse_mass, mechanism };
    let n = world.bodies.len();
    // The touching pairs: each pair's geometry and blocks on its own (in parallel, collected in
    // order: the same result with any number of threads).
    let build = |&(a, b): &(usize, usize)| -> Result<Option<Constraint>, DynamicsError> {
        let contact = model.contact((a, b), &poses).map_err(|e| pair_error(world, t, (a, b), e))?;
        let Some((geometry, at)) = contact else { return Ok(None) };
        let p = &geometry.patch;
        let frame = Matrix3::from_columns(&[p.u, p.w, p.normal]);
        let rows = Rows::<6>::new(&frame, &p.origin, (a, b), &bodies, &velocity);
        let points = at
            .iter()
            .map(|x| PointRow {
                offset: frame.transpose() * (x - p.origin),
                rows: Rows::new(&frame, x, (a, b), &bodies, &velocity),
                lambda: Vector3::zeros(),
            })
            .collect();
        let s_lu = (settings.formulation == Volume6dFormulation::SixD).then(|| rows.s.lu());
        Ok(Some(Constraint { a, b, geometry, frame, rows, s_lu, lambda: Vector6::zeros(), points }))
    };
    let candidates = model.candidate_pairs(&poses);
    let (mut built, mut constraints) =
        BUFFERS.with_borrow_mut(|b| (std::mem::take(&mut b.built), std::mem::take(&mut b.constraints)));
    built.clear();
    constraints.clear();
    parallel::map_into(&candidates, build, &mut built);
    for c in built.drain(..) {
        constraints.extend(c?);
    }
    // Warm start.
    if settings.warm_start {
        for c in &mut constraints {
            let rt = c.frame.transpose();
            match settings.formulation {
                Volume6dFormulation::SixD => {
                    if let Some([force, torque]) = warm.pairs.get(&(c.a, c.b)) {
                        let origin = c.geometry.patch.origin;
                        let f = rt * force;
                        let tau = rt * (torque - origin.coords.cross(force));
                        c.lambda = Vector6::new(f.x, f.y, f.z, tau.x, tau.y, tau.z);
                        c.rows.apply(&mut velocity, &c.lambda);
                    }
                }
                Volume6dFormulation::Points => {
                    // The same number of points: the same vertices, in the same order.
                    let last = warm.points.get(&(c.a, c.b)).filter(|l| l.len() == c.points.len());
                    for (r, force) in c.points.iter_mut().zip(last.into_iter().flatten()) {
                        r.lambda = rt * force;
                        r.rows.apply(&mut velocity, &r.lambda);
                    }
                }
            }
        }
    }
    let report = match settings.formulation {
        Volume6dFormulation::SixD => sweep_pairs(&mut constraints, &mut velocity, settings),
        Volume6dFormulation::Points => sweep_points(&mut constraints, &mut velocity, settings),
    };
    // Position correction by pseudo-velocities along the normals.
    let mut pseudo = vec![Vector6::<f64>::zeros(); n];
    let bias: Vec<f64> = constraints
        .iter()
        .map(|c| {
            let depth = c.geometry.moments.volume / c.geometry.moments.gradient.norm().max(1e-300);
            CORRECTION * (depth - SLOP).max(0.0) / dt
        })
        .collect();
    let mut correction_normal: Vec<f64> = Vec::new();
    if bias.iter().any(|&b| b > 0.0) {
        let normal = &mut correction_normal;
        normal.resize(constraints.len(), 0.0);
        for _ in 0..settings.iterations.max(1) {
            let mut change = 0.0_f64;
            for (k, c) in constraints.iter().enumerate() {
                let s_nn = c.rows.s[(2, 2)];
                if s_nn <= 0.0 {
                    continue;
                }
                let mut v_n = -bias[k];
                for (body, j) in &c.rows.reads {
                    v_n += (j.row(2) * pseudo[*body])[0];
                }
                let new = (normal[k] - v_n / s_nn).max(0.0);
                let delta = new - normal[k];
                for (body, w) in &c.rows.moves {
                    pseudo[*body] += w.column(2) * delta;
                }
                normal[k] = new;
                change = change.max(delta.abs());
            }
            if change < settings.tolerance {
                break;
            }
        }
    }
    // The mechanism's joint velocities from the impulses on its links, and its correction.
    let joints = bodies.mechanism.as_ref().map(|response| {
        let (mut impulse, mut shift) =
            (vec![Vector6::zeros(); response.bodies.len()], vec![Vector6::zeros(); response.bodies.len()]);
        for (k, c) in constraints.iter().enumerate() {
            let normal =
                Vector6::new(0.0, 0.0, correction_normal.get(k).copied().unwrap_or(0.0), 0.0, 0.0, 0.0);
            for (link, &body) in response.bodies.iter().enumerate() {
                impulse[link] += c.rows.wrench_on(body, &c.lambda);
                shift[link] += c.rows.wrench_on(body, &normal);
            }
        }
        let m = world.mechanism.as_ref().expect("a response is a mechanism's");
        let u = response.hold_limits(m, m.q(y), response.after(&response.free_motion, &impulse), dt);
        let zero = nalgebra::DVector::zeros(u.len());
        let pseudo = response.after(&zero, &shift);
        (u, pseudo, t + dt)
    });
    // The move, and the energy it books (impulse_step::advance).
    advance(world, y, dt, &velocity, Some(&pseudo), |_| true, joints.as_ref());
    // Outputs and warm starts: each pair's impulse in the world frame.
    warm.pairs.clear();
    warm.points.clear();
    contacts.clear();
    for c in &constraints {
        let origin = c.geometry.patch.origin;
        let force = c.frame * Vector3::new(c.lambda[0], c.lambda[1], c.lambda[2]);
        let torque =
            c.frame * Vector3::new(c.lambda[3], c.lambda[4], c.lambda[5]) + origin.coords.cross(&force);
        if settings.warm_start {
            match settings.formulation {
                Volume6dFormulation::SixD => {
                    warm.pairs.insert((c.a, c.b), [force, torque]);
                }
                Volume6dFormulation::Points => {
                    warm.points.insert((c.a, c.b), c.points.iter().map(|r| c.frame * r.lambda).collect());
                }
            }
        }
        if c.lambda == Vector6::zeros() {
            continue;
        }
        let area = Some(c.geometry.moments.gradient.norm());
        let centre = Some((origin, c.geometry.patch.normal));
        contacts.push(PairContact::from_impulse(c.a, c.b, Wrench { force, torque }, dt, (area, centre)));
    }
    constraints.clear();
    BUFFERS.with_borrow_mut(|b| (b.built, b.constraints) = (built, constraints));
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    Ok(report)
}

/// A step's per-pair buffers, kept between steps for their capacity (empty between steps): a
/// 64-box pile's hundred-odd constraints of about 1.3 kB each are above glibc's mmap and trim
/// thresholds, and allocating them afresh every step (page faults, copies into new pages) took
/// half of each step.
#[derive(Default)]
struct Buffers {
    built: Vec<Result<Option<Constraint>, DynamicsError>>,
    constraints: Vec<Constraint>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// Projected block Gauss–Seidel over the pairs (`6d`): each pair's fixed-joint impulse with the
/// others held, over-relaxed after the first sweep, then projected.
fn sweep_pairs(
    constraints: &mut [Constraint],
    velocity: &mut [Vector6<f64>],
    settings: &Volume6dSettings,
) -> SolverReport {
    sweep_until(settings, 6 * constraints.len(), |sweep| {
        let mut change = 0.0;
        for c in constraints.iter_mut() {
            let e = c.rows.error(velocity);
            let Some(step) = c.s_lu.as_ref().and_then(|lu| lu.solve(&e)) else { continue };
            let fixed = c.lambda - step * if sweep == 1 { 1.0 } else { OVER_RELAXATION };
            let patch = &c.geometry.patch;
            let ellipse = Ellipse { a: patch.semi_axes.0, b: patch.semi_axes.1 };
            let others = e - c.rows.s * c.lambda;
            let (new, _) =
                project(&c.rows.s, &others, &fixed, ellipse, c.geometry.friction, settings.spin_limit);
            let delta = new - c.lambda;
            c.rows.apply(velocity, &delta);
            change += delta.norm_squared();
            c.lambda = new;
        }
        change
    })
}

/// Sweeps (`sweep(k)` runs sweep k and returns the squared 2-norm of its update) until an
/// update's norm is below `tolerance` or after `iterations`.
fn sweep_until(
    settings: &Volume6dSettings,
    unknowns: usize,
    mut sweep: impl FnMut(usize) -> f64,
) -> SolverReport {
    let mut report = SolverReport { unknowns, ..SolverReport::default() };
    for k in 1..=settings.iterations.max(1) {
        report.sweeps = k;
        report.residual = sweep(k).sqrt();
        if report.residual < settings.tolerance {
            break;
        }
    }
    report
}

/// Projected Gauss–Seidel point by point (`points`), with the same over-relaxation and
/// stopping rule; each pair's impulse at its patch centre is then the sum of its points'.
fn sweep_points(
    constraints: &mut [Constraint],
    velocity: &mut [Vector6<f64>],
    settings: &Volume6dSettings,
) -> SolverReport {
    let unknowns = 3 * constraints.iter().map(|c| c.points.len()).sum::<usize>();
    let report = sweep_until(settings, unknowns, |sweep| {
        let mut change = 0.0;
        for c in constraints.iter_mut() {
            let mu = c.geometry.friction;
            for r in &mut c.points {
                let e = r.rows.error(velocity);
                let relax = if sweep == 1 { 1.0 } else { OVER_RELAXATION };
                let new = point_update(&r.rows.s, &e, &r.lambda, mu, relax);
                let delta = new - r.lambda;
                r.rows.apply(velocity, &delta);
                change += delta.norm_squared();
                r.lambda = new;
            }
        }
        change
    });
    for c in constraints.iter_mut() {
        let (mut force, mut torque) = (Vector3::zeros(), Vector3::zeros());
        for r in &c.points {
            force += r.lambda;
            torque += r.offset.cross(&r.lambda);
        }
        c.lambda = Vector6::new(force.x, force.y, force.z, torque.x, torque.y, torque.z);
    }
    report
}

/// One point's projected Gauss–Seidel update from impulse `lambda` with velocity error `e`:
/// the normal impulse first (clamped to ≥ 0), then the tangential pair with the new normal held
/// (clamped to the disc |f_t| ≤ μ·f_n), each step over-relaxed by `relax`.
fn point_update(s: &Matrix3, e: &Vector3, lambda: &Vector3, mu: f64, relax: f64) -> Vector3 {
    if s[(2, 2)] <= 0.0 {
        return *lambda;
    }
    let normal = (lambda.z - relax * e.z / s[(2, 2)]).max(0.0);
    let dn = normal - lambda.z;
    // A scalar step along −e_t (1/the tangent block's largest eigenvalue): at the fixed point a
    // sliding point's friction then opposes its slip, as Coulomb's law says; a step by the
    // block's inverse would not (the disc projection is not in the block's metric), and a
    // sliding octagon would drift sideways.
    let (a, b, c) = (s[(0, 0)], s[(0, 1)], s[(1, 1)]);
    let largest = 0.5 * (a + c) + (0.25 * (a - c) * (a - c) + b * b).sqrt();
    let e_t = nalgebra::Vector2::new(e.x + s[(0, 2)] * dn, e.y + s[(1, 2)] * dn);
    let mut t = nalgebra::Vector2::new(lambda.x, lambda.y) - e_t * (relax / largest);
    let limit = mu * normal;
    if t.norm() > limit {
        t *= limit / t.norm();
    }
    Vector3::new(t.x, t.y, normal)
}

/// A pair's geometry error as a step's error.
fn pair_error(world: &World, t: f64, (a, b): (usize, usize), e: Volume6dPairError) -> DynamicsError {
    DynamicsError::Contact {
        t,
        a: world.bodies[a].name.clone(),
        b: world.bodies[b].name.clone(),
        source: Box::new(crate::contact::model::ContactError::Volume6d(e)),
    }
}

/// J of one body: its (com velocity, angular velocity) to the relative spatial velocity at the
/// contact point (`arm` = point − centre of mass) in the contact frame, times `sign` (+1 for
/// body a, −1 for b).
fn jacobian(frame: &Matrix3, arm: &Vector3, sign: f64) -> Matrix6<f64> {
    let rt = frame.transpose();
    let mut j = Matrix6::zeros();
    j.fixed_view_mut::<3, 3>(0, 0).copy_from(&rt);
    j.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-rt * arm.cross_matrix()));
    j.fixed_view_mut::<3, 3>(3, 3).copy_from(&rt);
    j * sign
}

fn block_diag(m_inv: f64, i_inv: &Matrix3) -> Matrix6<f64> {
    let mut out = Matrix6::zeros();
    for k in 0..3 {
        out[(k, k)] = m_inv;
    }
    out.fixed_view_mut::<3, 3>(3, 3).copy_from(i_inv);
    out
}
