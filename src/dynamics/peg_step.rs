//! Complementarity time stepping for the PEG model (`kind = "peg"`, `integrator =
//! "time_stepping"`): a Stewart–Trinkle / Anitescu–Potra step whose contact rows come from the
//! model's constraint sets, solved as an LCP by our Lemke method per contact-connected island.
//!
//! A step from state (x, ν):
//! 1. ν_f = ν + h·M⁻¹·(gravity, applied loads, −ω × Iω) for every free body present;
//! 2. each pair's contact tolerance ε and constraint sets at the current poses and one explicit
//!    step ahead (`contact::peg`);
//! 3. per island, z = (impulses, slacks, friction) with w = N·z + q ≥ 0 ⟂ z ≥ 0, where a row
//!    with Jacobian W and constant ψ/h meets the impulse columns G through N = Wᵀ·M⁻¹·G (plus
//!    the selection entries of slacks and friction), q = Wᵀ·ν_f + ψ/h:
//!    - a unilateral contact: 0 ≤ p ⟂ ψ/h + Gᵀν ≥ 0;
//!    - an inter-contact set with primary r and others s_1…s_K: slack rows
//!      (G_r − G_k)ᵀν + (ψ_r − ψ_k)/h + Σ_{l≤k} c_l ≥ 0 ⟂ c_k, which make
//!      m = ψ_r⁺ + Σ c_l the largest end-of-step gap of the set, and the force row
//!      0 ≤ p_r ⟂ m ≥ 0 (the "LNC" form of the formulation note, §3.4);
//!    - friction at every contact with a force: 0 ≤ β ⟂ Dᵀν + λ ≥ 0, 0 ≤ λ ⟂ μ·p − Σβ ≥ 0;
//! 4. when Lemke fails, the ladder of `solve_island` (regularise, drop the sets to their
//!    primaries, drop friction), each rung counted;
//! 5. ν⁺ = ν_f + M⁻¹·Σ G·z, then x ⊕ h·ν⁺ (quaternions renormalised).
//!
//! Energy: as booked by `impulse_step::advance` — what (kinetic + gravity) a step loses beyond
//! the applied loads' work is dissipated; a step that gains (the ψ/h stabilisation pushing an
//! overlap out) is not hidden: the run's energy watch sees it.

use super::error::DynamicsError;
use super::impulse_step::{StepStart, advance};
use super::lcp::{LcpFailure, LemkeOptions, solve_lemke};
use super::solver_report::SolverReport;
use super::world::World;
use crate::contact::model::PairContact;
use crate::contact::peg::contact::{ConstraintSet, Contact};
use crate::contact::peg::model::PegModel;
use crate::math::{
    DisjointSets, Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3, Wrench, parallel,
};
use nalgebra::{DMatrix, DVector, Vector6};
use smallvec::SmallVec;

/// A row's or an impulse's velocity map: (body, [linear; angular] block) for each body it
/// touches.
type Jacobian = SmallVec<[(usize, Vector6<f64>); 2]>;

/// Each body's state for the step: centre of mass, ν_f (free bodies present; the prescribed
/// velocity for the others) and M⁻¹ of the bodies the impulses move (`None`: fixed, kinematic
/// or not yet present; planar bodies only move in x, z and turn about y).
type Bodies = StepStart;

/// One LCP unknown: its impulse's velocity map (empty for slacks) and, for output, where the
/// impulse acts on each body and along which direction.
struct Unknown {
    column: Jacobian,
    /// (point on body 1, point on body 2, direction into body 2), for impulses.
    acts: Option<(usize, usize, Point3, Point3, Vector3)>,
}

/// One LCP row: its velocity map, constant and selection entries (unknown index, coefficient).
struct Row {
    jacobian: Jacobian,
    constant: f64,
    select: SmallVec<[(usize, f64); 4]>,
}

/// An island's problem.
#[derive(Default)]
struct Problem {
    unknowns: Vec<Unknown>,
    rows: Vec<Row>,
    /// Rows of normal impulses (regularised first).
    force_rows: Vec<usize>,
}

/// How an island's solve ended.
struct IslandSolution {
    z: DVector<f64>,
    problem: Problem,
    pivots: usize,
    residual: f64,
    fallbacks: u32,
}

/// Advances `y` from `t` by `dt`; `contacts` receives each touching pair's mean wrench over the
/// step (impulse / dt).
pub fn step(
    world: &World,
    model: &PegModel,
    t: f64,
    y: &mut [f64],
    dt: f64,
    contacts: &mut Vec<PairContact>,
) -> Result<SolverReport, DynamicsError> {
    let poses = world.poses(t, y);
    let n = world.bodies.len();
    let planar = model.settings.planar;
    let present: Vec<bool> = (0..world.bodies.len()).map(|i| model.present(i, t)).collect();
    let mut bodies: Bodies =
        StepStart::new(world, &poses, y, dt, |i| present[i]).with_mechanism(world, t, y, dt)?;
    // Poses one explicit step ahead with the current velocities (contact identification).
    let mut next: Vec<Isometry3> = poses.iter().map(|(p, _)| *p).collect();
    // Links move as their joints do: predicted with their twists.
    if let Some(response) = &bodies.mechanism {
        for &i in &response.bodies {
            let (pose, twist) = &poses[i];
            next[i] = Isometry3::from_parts(
                Translation3::from(pose.translation.vector + dt * twist.linear),
                UnitQuaternion::from_scaled_axis(dt * twist.angular) * pose.rotation,
            );
        }
    }
    for (i, free) in bodies.inverse_mass.iter_mut().enumerate() {
        let Some(inverse) = free else { continue };
        let (pose, twist) = &poses[i];
        next[i] = Isometry3::from_parts(
            Translation3::from(pose.translation.vector + dt * twist.linear),
            UnitQuaternion::from_scaled_axis(dt * twist.angular) * pose.rotation,
        );
        if planar {
            // x, z and the turn about y only.
            let v = &mut bodies.velocity[i];
            v[1] = 0.0;
            v[3] = 0.0;
            v[5] = 0.0;
            inverse.angular = Matrix3::zeros();
            inverse.angular[(1, 1)] = 1.0 / world.world_inertia(i, y)[(1, 1)];
        }
    }
    // Constraint sets of the pairs that may touch.
    let g = world.gravity.norm();
    let mut sets = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if !(present[a] && present[b]) {
                continue;
            }
            let eps = model.tolerance((a, b), (&poses[a].1, &poses[b].1), dt, g);
            let now = (&poses[a].0, &poses[b].0);
            if model.may_touch((a, b), now, eps) || model.may_touch((a, b), (&next[a], &next[b]), eps) {
                model.constraint_sets((a, b), now, (&next[a], &next[b]), eps, &mut sets);
            }
        }
    }
    // Islands: sets joined through the free bodies they move, in order of first appearance.
    let mut groups = DisjointSets::new(n);
    for s in &sets {
        let (a, b) = s.bodies();
        if bodies.moves(a) && bodies.moves(b) {
            groups.join(a, b);
        }
    }
    // A mechanism's links move together: one island.
    if let Some(response) = &bodies.mechanism {
        for pair in response.bodies.windows(2) {
            groups.join(pair[0], pair[1]);
        }
    }
    let mut islands: Vec<(usize, Vec<&ConstraintSet>)> = Vec::new();
    for s in &sets {
        let (a, b) = s.bodies();
        let free = if bodies.moves(a) { a } else { b };
        if !bodies.moves(free) {
            continue;
        }
        let r = groups.root(free);
        match islands.iter_mut().find(|(k, _)| *k == r) {
            Some((_, list)) => list.push(s),
            None => islands.push((r, vec![s])),
        }
    }
    let solve = |(_, sets): &(usize, Vec<&ConstraintSet>)| solve_island(sets, &bodies, model, (dt, t));
    let solved: Vec<Result<IslandSolution, DynamicsError>> = parallel::map(&islands, solve);
    // New velocities and each pair's impulse.
    let mut velocity = bodies.velocity.clone();
    let mut report = SolverReport::default();
    let mut impulses: std::collections::BTreeMap<(usize, usize), (Vector3, Vector3)> = Default::default();
    for s in solved {
        let s = s?;
        report.sweeps += s.pivots;
        report.residual = report.residual.max(s.residual);
        report.unknowns += s.z.len();
        report.fallbacks += s.fallbacks;
        apply_impulses(&s.problem, &s.z, &bodies, &mut velocity);
        for (k, u) in s.problem.unknowns.iter().enumerate() {
            let z = s.z[k];
            if z == 0.0 {
                continue;
            }
            if let Some((b1, b2, p1, p2, d)) = u.acts {
                // On the pair's first body: −d at p₁ when that is body 1, +d at p₂ otherwise.
                let (point, force) = if b1 < b2 { (p1, -d * z) } else { (p2, d * z) };
                let e = impulses.entry((b1.min(b2), b1.max(b2))).or_default();
                e.0 += force;
                e.1 += point.coords.cross(&force);
            }
        }
    }
    // The move, and the energy it books.
    // The mechanism's joint velocities from the impulses on its links.
    let joints = bodies.mechanism.as_ref().map(|response| {
        let mut on_link = vec![Vector6::zeros(); response.bodies.len()];
        for (&(a, b), (force, torque)) in &impulses {
            for (body, sign) in [(a, 1.0), (b, -1.0)] {
                if let Some(k) = response.link_of(body) {
                    let about_com = torque - bodies.com[body].coords.cross(force);
                    on_link[k] +=
                        Vector6::new(force.x, force.y, force.z, about_com.x, about_com.y, about_com.z) * sign;
                }
            }
        }
        let m = world.mechanism.as_ref().expect("a response is a mechanism's");
        let u = response.hold_limits(m, m.q(y), response.after(&response.free_motion, &on_link), dt);
        let none = DVector::zeros(u.len());
        (u, none, t + dt)
    });
    advance(world, y, dt, &velocity, None, |i| bodies.inverse_mass[i].is_some(), joints.as_ref());
    contacts.clear();
    for ((a, b), (force, torque)) in impulses {
        contacts.push(PairContact::from_impulse(a, b, Wrench { force, torque }, dt, (None, None)));
    }
    if let Some(bodies) = world.non_finite_bodies(y) {
        return Err(DynamicsError::NonFinite { t: t + dt, bodies });
    }
    report.overlap = Some(total_overlap(world, model, t + dt, y));
    Ok(report)
}

/// The overlap (area or volume) summed over every pair of bodies present at `t`, exactly.
pub fn total_overlap(world: &World, model: &PegModel, t: f64, y: &[f64]) -> f64 {
    model.overlaps(&world.poses(t, y), t).iter().fold(0.0, |sum, (_, v)| sum + v)
}

/// The velocity map of an impulse along `d` at a contact: −[d; r1 × d] on body 1, +[d; r2 × d]
/// on body 2 (r from each centre of mass).
fn jacobian(c: &Contact, d: &Vector3, bodies: &Bodies) -> Jacobian {
    let block = |body: usize, p: &Point3, sign: f64| {
        let r = p - bodies.com[body];
        let t = r.cross(d);
        (body, Vector6::new(d.x, d.y, d.z, t.x, t.y, t.z) * sign)
    };
    let mut j = Jacobian::new();
    j.push(block(c.body1, &c.point, -1.0));
    j.push(block(c.body2, &c.point2(), 1.0));
    j
}

fn difference(a: &Jacobian, b: &Jacobian) -> Jacobian {
    let mut out = a.clone();
    for (body, v) in b {
        match out.iter_mut().find(|(k, _)| k == body) {
            Some((_, w)) => *w -= v,
            None => out.push((*body, -v)),
        }
    }
    out
}

/// `count` friction directions in the plane normal to `n`, in opposite pairs (`planar`: n in the
/// x–z plane and two directions, ±(y × n)).
fn tangents(n: &Vector3, count: usize, planar: bool) -> Vec<Vector3> {
    let axis = if planar {
        Vector3::y()
    } else if n.x.abs() <= n.y.abs() && n.x.abs() <= n.z.abs() {
        Vector3::x()
    } else if n.y.abs() <= n.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let t1 = axis.cross(n).normalize();
    let t2 = n.cross(&t1);
    (0..count)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / count as f64;
            t1 * a.cos() + t2 * a.sin()
        })
        .collect()
}

/// What an island's problem holds: one rung of the fall-back ladder.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Rung {
    /// The sets as built (`false`: every set reduced to its primary as a unilateral contact).
    members: bool,
    friction: bool,
}

/// The ladder: the sets as built, then their primaries, then without friction.
const LADDER: [Rung; 3] = [
    Rung { members: true, friction: true },
    Rung { members: false, friction: true },
    Rung { members: false, friction: false },
];

/// The end-of-step gap of contact `c` when the bodies move at `velocity`.
fn end_gap(c: &Contact, velocity: &[Vector6<f64>], dt: f64, bodies: &Bodies) -> f64 {
    let j = jacobian(c, &c.normal, bodies);
    c.gap + dt * j.iter().map(|(b, v)| v.dot(&velocity[*b])).sum::<f64>()
}

/// What a set contributes to this step's rows: the member that carries its force and the other
/// members kept beside it (unilateral sets: member 0 alone). Chosen once per island, for every
/// rung of the ladder.
struct SetChoice {
    primary: usize,
    others: SmallVec<[usize; 4]>,
}

/// Each set's choice at `velocity`. The primary is the member with the largest end-of-step gap
/// among those that may carry the force (ties: the more applicable, then the first); the others
/// are the remaining members, less those `LEVER_MIN` leaves out.
fn choose(sets: &[&ConstraintSet], velocity: &[Vector6<f64>], dt: f64, bodies: &Bodies) -> Vec<SetChoice> {
    sets.iter()
        .map(|set| match set {
            ConstraintSet::Unilateral(_) => SetChoice { primary: 0, others: SmallVec::new() },
            ConstraintSet::Inter { members, force } => {
                let gaps: SmallVec<[f64; 4]> =
                    members.iter().map(|c| end_gap(c, velocity, dt, bodies)).collect();
                let primary = (0..members.len())
                    .filter(|&k| force[k])
                    .max_by(|&k, &l| {
                        gaps[k]
                            .total_cmp(&gaps[l])
                            .then(members[k].applicability.total_cmp(&members[l].applicability))
                            .then(l.cmp(&k))
                    })
                    .unwrap_or(0);
                let g_r = jacobian(&members[primary], &members[primary].normal, bodies);
                let liftable = |k: usize| {
                    let c = &members[k];
                    gaps[k] >= 0.0 || coupling(&jacobian(c, &c.normal, bodies), &g_r, bodies) >= LEVER_MIN
                };
                let others = (0..members.len()).filter(|&k| k != primary && liftable(k)).collect();
                SetChoice { primary, others }
            }
        })
        .collect()
}

/// What a set's rows (its primary and the `others` kept) add to its gaps so that an overlap
/// present at the start of the step (the set's largest gap ψ_max < 0) is pushed out by at most
/// `reach` = `correction_speed`·dt (m): max(0, −ψ_max − reach). Zero for a set that holds at
/// the start, so PEG's guarantee — no new overlap — is untouched. Without it ψ/h would push an
/// overlap out in one step at any speed, and the bodies would keep that speed: a deep member of
/// a large-ε set could throw bodies apart at metres per second.
fn correction_limit(primary: &Contact, others: &[Contact], reach: f64) -> f64 {
    let largest = others.iter().map(|c| c.gap).fold(primary.gap, f64::max);
    (-largest - reach).max(0.0)
}

/// The least cosine, in the metric of M⁻¹, between a set's primary and a member that would
/// close this step (its gap at ν_f < 0) for the member to stay in the set. The set holds when
/// its largest end-of-step gap reaches 0, and only the primary carries force: lifting a member
/// nearly perpendicular to it takes a large impulse, which leaves the primary's contact
/// separating faster than it approached — energy added (the planar pour gained 0.27 J so at
/// h = 0.01). Without that member the set holds through the primary's own gap, an inelastic
/// stop; a member that holds at ν_f (gap ≥ 0) needs no lifting and stays.
const LEVER_MIN: f64 = 0.5;

/// G_sᵀ·M⁻¹·G_r over √(G_sᵀ·M⁻¹·G_s · G_rᵀ·M⁻¹·G_r): how much an impulse along `g_r` moves
/// the contact of `g_s` (1: along it, 0: not at all).
fn coupling(g_s: &Jacobian, g_r: &Jacobian, bodies: &Bodies) -> f64 {
    let dot = |x: &Jacobian, y: &Jacobian| -> f64 {
        let mut sum = 0.0;
        for (b, gx) in x {
            for (c, gy) in y {
                for (moved, dv) in bodies.moved(*c, gy) {
                    if moved == *b {
                        sum += gx.dot(&dv);
                    }
                }
            }
        }
        sum
    };
    let scale = (dot(g_s, g_s) * dot(g_r, g_r)).sqrt();
    if scale > 0.0 { dot(g_s, g_r) / scale } else { 0.0 }
}

/// Builds an island's LCP at `rung`, each set's rows as `choices` says.
fn build(
    sets: &[&ConstraintSet],
    choices: &[SetChoice],
    bodies: &Bodies,
    model: &PegModel,
    dt: f64,
    rung: Rung,
) -> Problem {
    let mut p = Problem::default();
    for (set, choice) in sets.iter().zip(choices) {
        // The force-carrying contact and the others of its set.
        let (primary, others): (Contact, Vec<Contact>) = match set {
            ConstraintSet::Unilateral(c) => (*c, Vec::new()),
            ConstraintSet::Inter { members, .. } if rung.members => {
                (members[choice.primary], choice.others.iter().map(|&k| members[k]).collect())
            }
            ConstraintSet::Inter { members, .. } => (members[choice.primary], Vec::new()),
        };
        let g_r = jacobian(&primary, &primary.normal, bodies);
        let p_index = p.unknowns.len();
        p.unknowns.push(Unknown {
            column: g_r.clone(),
            acts: Some((primary.body1, primary.body2, primary.point, primary.point2(), primary.normal)),
        });
        let slacks: Vec<usize> = (0..others.len()).map(|k| p_index + 1 + k).collect();
        for _ in &others {
            p.unknowns.push(Unknown { column: Jacobian::new(), acts: None });
        }
        p.force_rows.push(p.rows.len());
        p.rows.push(Row {
            jacobian: g_r.clone(),
            constant: (primary.gap
                + correction_limit(&primary, &others, model.settings.correction_speed * dt))
                / dt,
            select: slacks.iter().map(|&s| (s, 1.0)).collect(),
        });
        for (k, s) in others.iter().enumerate() {
            let g_s = jacobian(s, &s.normal, bodies);
            p.rows.push(Row {
                jacobian: difference(&g_r, &g_s),
                constant: (primary.gap - s.gap) / dt,
                select: slacks[..=k].iter().map(|&s| (s, 1.0)).collect(),
            });
        }
        let mu =
            crate::contact::combined_friction(model.friction[primary.body1], model.friction[primary.body2]);
        if mu > 0.0 && rung.friction {
            let directions =
                tangents(&primary.normal, model.settings.friction_directions, model.settings.planar);
            let first = p.unknowns.len();
            let lambda = first + directions.len();
            for d in &directions {
                let column = jacobian(&primary, d, bodies);
                p.rows.push(Row {
                    jacobian: column.clone(),
                    constant: 0.0,
                    select: [(lambda, 1.0)].into_iter().collect(),
                });
                p.unknowns.push(Unknown {
                    column,
                    acts: Some((primary.body1, primary.body2, primary.point, primary.point2(), *d)),
                });
            }
            p.unknowns.push(Unknown { column: Jacobian::new(), acts: None });
            let mut select: SmallVec<[(usize, f64); 4]> = (first..lambda).map(|k| (k, -1.0)).collect();
            select.push((p_index, mu));
            p.rows.push(Row { jacobian: Jacobian::new(), constant: 0.0, select });
        }
    }
    p
}

/// N and q of a problem (M⁻¹ only of the bodies the impulses move).
fn matrices(p: &Problem, bodies: &Bodies) -> (DMatrix<f64>, DVector<f64>) {
    let size = p.unknowns.len();
    debug_assert_eq!(size, p.rows.len());
    let moved: Vec<Jacobian> =
        p.unknowns.iter().map(|u| u.column.iter().flat_map(|(b, j)| bodies.moved(*b, j)).collect()).collect();
    let mut n = DMatrix::zeros(size, size);
    let mut q = DVector::zeros(size);
    for (r, row) in p.rows.iter().enumerate() {
        q[r] = row.constant + row.jacobian.iter().map(|(b, w)| w.dot(&bodies.velocity[*b])).sum::<f64>();
        if !row.jacobian.is_empty() {
            for (c, column) in moved.iter().enumerate() {
                let mut sum = 0.0;
                for (b, w) in &row.jacobian {
                    for (bc, m) in column {
                        if b == bc {
                            sum += w.dot(m);
                        }
                    }
                }
                n[(r, c)] = sum;
            }
        }
        for &(c, value) in &row.select {
            n[(r, c)] += value;
        }
    }
    (n, q)
}

/// ν⁺ = ν_f + M⁻¹·Σ G·z over a problem's unknowns, into `velocity`.
fn apply_impulses(problem: &Problem, z: &DVector<f64>, bodies: &Bodies, velocity: &mut [Vector6<f64>]) {
    for (k, u) in problem.unknowns.iter().enumerate() {
        if z[k] == 0.0 {
            continue;
        }
        for (body, j) in &u.column {
            for (moved, dv) in bodies.moved(*body, j) {
                velocity[moved] += dv * z[k];
            }
        }
    }
}

/// Solves one island, falling back down a ladder when Lemke fails: (1) the problem as built;
/// (2) with 1e-9 and then 1e-6 of the largest normal-row diagonal added to the normal rows;
/// (3) every set reduced to its primary contact, then regularised as in (2); (4) the same
/// without friction, regularised by 1e-6 (positive definite: Lemke solves it). Each rung past
/// the first counts one fallback; a failure of the last is an error.
fn solve_island(
    sets: &[&ConstraintSet],
    bodies: &Bodies,
    model: &PegModel,
    (dt, t): (f64, f64),
) -> Result<IslandSolution, DynamicsError> {
    let options = LemkeOptions::default();
    let mut pivots = 0;
    let mut fallbacks = 0;
    let mut last: Option<LcpFailure> = None;
    let choices = choose(sets, &bodies.velocity, dt, bodies);
    for rung in LADDER {
        let problem = build(sets, &choices, bodies, model, dt, rung);
        let (n, q) = matrices(&problem, bodies);
        let scale = problem.force_rows.iter().map(|&r| n[(r, r)].abs()).fold(0.0, f64::max).max(1e-300);
        let shifts: &[f64] = if rung.members || rung.friction { &[0.0, 1e-9, 1e-6] } else { &[1e-6] };
        for &shift in shifts {
            let mut n = n.clone();
            for &r in &problem.force_rows {
                n[(r, r)] += shift * scale;
            }
            match solve_lemke(&n, &q, &options) {
                Ok(s) => {
                    return Ok(IslandSolution {
                        z: s.z,
                        problem,
                        pivots: pivots + s.pivots,
                        residual: s.residual,
                        fallbacks,
                    });
                }
                Err(e) => {
                    pivots += match &e {
                        LcpFailure::RayTermination { pivots }
                        | LcpFailure::PivotCap { pivots }
                        | LcpFailure::ResidualTooLarge { pivots, .. } => *pivots,
                        LcpFailure::Malformed(_) => 0,
                    };
                    last = Some(e);
                    fallbacks += 1;
                }
            }
        }
    }
    // A non-finite problem comes from the bodies, not from the step.
    let fix = match &last {
        Some(LcpFailure::Malformed(_)) => {
            "a number of the problem is not finite: check the bodies' mass, inertia or moment_of_inertia, and their loads (their ranges: docs/scene.md)"
        }
        _ => "use a smaller dt",
    };
    Err(DynamicsError::Setup(format!(
        "t = {} s: the PEG contact problem could not be solved even without friction ({}); {fix}",
        crate::math::compact(t),
        last.map_or_else(String::new, |e| e.to_string())
    )))
}
