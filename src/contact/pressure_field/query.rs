//! The pressure field's pair queries: the net wrench of two bodies (with its velocity Jacobian
//! and pose stiffness when asked for), the contact surface, the penetration depth and the
//! elastic energy.

use super::candidate_cache::CandidateCache;
use super::error::PressureFieldError;
use super::pair::{BodyState, PairFrame, PairKind};
use super::plane_cache::PlaneCache;
use super::plane_quadrature::{PlaneQuadrature, RulePoints};
use super::polygon_rule::BasisCache;
use super::sphere_plane::SpherePlane;
use super::traction::{Accumulator, Kinetics};
use super::{energy, polygon_rule, traction};
use crate::contact::surface::{ContactPolygon, ContactSurface};
use crate::math::parallel::Section;
use crate::math::{Matrix3, Point3, Twist, Vector3, Wrench};
use nalgebra::SMatrix;
use rayon::prelude::*;

/// Default stiction speed v_s (m/s) of the regularized friction: below about this slip speed
/// friction falls off linearly to zero.
pub const DEFAULT_STICTION_SPEED: f64 = 1e-4;

/// Estimated primitives below which a pair query stays on one thread: threads cost a few
/// microseconds to wake, more than small queries take.
const PARALLEL_WORK: u64 = 1500;

/// Query settings.
#[derive(Clone, Copy, Debug)]
pub struct QueryOptions {
    /// Stiction speed v_s (m/s) of the regularized Coulomb friction, > 0.
    pub stiction_speed: f64,
}

impl Default for QueryOptions {
    fn default() -> Self {
        Self { stiction_speed: DEFAULT_STICTION_SPEED }
    }
}

/// The result of one pair query. Reported on body `a`, torque about the world origin.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairWrench {
    pub wrench: Wrench,
    /// Contact surface area (m²).
    pub area: f64,
    /// Number of contact polygons.
    pub faces: usize,
    /// Power of the dissipative tractions on the relative motion (W, ≤ 0): minus the rate at
    /// which dissipation and friction remove mechanical energy.
    pub dissipation_power: f64,
    /// The elastic part of `wrench` (the static pressure alone: −∇U), same frame and point.
    pub elastic: Wrench,
}

/// The net contact wrench on body `a` from body `b` (world frame, torque about the world
/// origin), with the contact area and polygon count. Body `b` receives the opposite wrench.
pub fn evaluate_pair(
    a: BodyState,
    b: BodyState,
    options: &QueryOptions,
) -> Result<PairWrench, PressureFieldError> {
    evaluate_pair_kept(a, b, options, None, None)
}

/// [`evaluate_pair`] with the pair's [`PlaneCache`] and [`CandidateCache`] (a simulation keeps
/// one of each per pair): the same result, sooner for a body on a half space or held by
/// another.
pub fn evaluate_pair_kept(
    a: BodyState,
    b: BodyState,
    options: &QueryOptions,
    cache: Option<&PlaneCache>,
    candidates: Option<&CandidateCache>,
) -> Result<PairWrench, PressureFieldError> {
    let pair = PairFrame::new(a, b)?.with_plane_cache(cache).with_candidate_cache(candidates);
    let kin = kinetics(&pair, options, false, false);
    let acc = accumulate(&pair, &kin);
    Ok(pair_wrench(&pair, &acc, kin.is_static()))
}

/// The derivative of the generalized contact forces of a pair with respect to the bodies'
/// velocities, for implicit integration. Each body's velocity is (linear velocity of its
/// reference point, angular velocity), world frame; its generalized force is (force, torque
/// about its reference point). Order: `a` then `b`.
pub type VelocityJacobian = SMatrix<f64, 12, 12>;

/// The derivative of the generalized contact forces of a pair with respect to the bodies'
/// poses (the contact stiffness), with the generalized velocities held fixed: columns
/// (δr, δθ) of each body — its reference point moves by δr, it turns by δθ about that point —
/// world frame; rows and order as [`VelocityJacobian`].
pub type PoseStiffness = SMatrix<f64, 12, 12>;

/// A pair's velocity Jacobian and, when asked for, its pose stiffness.
pub type PairDerivatives = (VelocityJacobian, Option<PoseStiffness>);

/// [`evaluate_pair`] and the [`VelocityJacobian`] about the reference points `ref_a`, `ref_b`
/// (world frame; e.g. the centres of mass).
pub fn evaluate_pair_with_jacobian(
    a: BodyState,
    b: BodyState,
    ref_a: &Point3,
    ref_b: &Point3,
    options: &QueryOptions,
) -> Result<(PairWrench, VelocityJacobian), PressureFieldError> {
    let (w, derivatives) = evaluate_pair_with_derivatives(a, b, (ref_a, ref_b), options, false)?;
    Ok((w, derivatives.map_or_else(VelocityJacobian::zeros, |(j, _)| j)))
}

/// [`evaluate_pair`], the [`VelocityJacobian`] and, with `stiffness`, the [`PoseStiffness`],
/// about the reference points `refs` (world frame; e.g. the centres of mass), from one pass
/// over the contact surface. No derivatives (`None`) for a pair that does not touch: they are
/// zero, and most candidate pairs of a scene do not touch at most steps.
pub fn evaluate_pair_with_derivatives(
    a: BodyState,
    b: BodyState,
    refs: (&Point3, &Point3),
    options: &QueryOptions,
    stiffness: bool,
) -> Result<(PairWrench, Option<PairDerivatives>), PressureFieldError> {
    evaluate_pair_with_derivatives_kept(a, b, refs, options, (stiffness, None, None))
}

/// [`evaluate_pair_with_derivatives`] with the pair's [`PlaneCache`] and [`CandidateCache`]
/// (see [`evaluate_pair_kept`]).
pub fn evaluate_pair_with_derivatives_kept(
    a: BodyState,
    b: BodyState,
    refs: (&Point3, &Point3),
    options: &QueryOptions,
    (stiffness, cache, candidates): (bool, Option<&PlaneCache>, Option<&CandidateCache>),
) -> Result<(PairWrench, Option<PairDerivatives>), PressureFieldError> {
    let pair = PairFrame::new(a, b)?.with_plane_cache(cache).with_candidate_cache(candidates);
    let kin = kinetics(&pair, options, true, stiffness);
    let acc = accumulate(&pair, &kin);
    let wrench = pair_wrench(&pair, &acc, kin.is_static());
    if acc.polygons == 0 {
        return Ok((wrench, None));
    }
    let (ref_p, ref_s) = if pair.swapped { (refs.1, refs.0) } else { refs };
    let chain = WorldChain::new(&pair, ref_p, ref_s);
    let jacobian = chain.c * acc.jacobian * chain.b;
    let k = stiffness.then(|| {
        let on_primary = if pair.swapped { -wrench.wrench } else { wrench.wrench };
        reorder(&pose_stiffness(&chain, &pair, &kin, &acc, &on_primary), pair.swapped)
    });
    Ok((wrench, Some((reorder(&jacobian, pair.swapped), k))))
}

/// Reorders (primary, secondary) blocks to (a, b).
fn reorder(m: &SMatrix<f64, 12, 12>, swapped: bool) -> SMatrix<f64, 12, 12> {
    if !swapped {
        return *m;
    }
    let mut out = SMatrix::<f64, 12, 12>::zeros();
    for (ri, rj) in [(0, 6), (6, 0)] {
        for (ci, cj) in [(0, 6), (6, 0)] {
            out.fixed_view_mut::<6, 6>(ri, ci).copy_from(&m.fixed_view::<6, 6>(rj, cj));
        }
    }
    out
}

/// Integrates every polygon of a pair in its primary frame.
fn accumulate(pair: &PairFrame, kin: &Kinetics) -> Accumulator {
    // A sphere on a rigid half space: its analytic field's disc, exactly.
    if let Some(sphere) = SpherePlane::new(pair) {
        return sphere.accumulate(kin);
    }
    let (tasks, work) = pair.tasks();
    // Decided once per query: no velocity-dependent terms, closed-form polygon integrals.
    let fixed = kin.is_static();
    let run = |task: &(u32, u32)| {
        let mut acc = Accumulator::default();
        // Polygons of one plane: integrated in its coordinates.
        if let (PairKind::MeshRigidHalfSpace(_), false) = (pair.kind, fixed) {
            let mut points = RulePoints::new();
            let mut plane = PlaneQuadrature::new(&pair.secondary_plane(), kin, &mut points);
            pair.run_task(*task, &mut |c| {
                pair.with_polygon(c, true, |poly, p0, _, _| plane.add(poly, p0, kin, &mut acc));
            });
            plane.finish(kin, &mut acc);
            return acc;
        }
        let mut bases = BasisCache::default();
        pair.run_task(*task, &mut |c| {
            // Static queries need no quadrature: one polygon per cell.
            pair.with_polygon(c, !fixed, |poly, p0, n, secondary| {
                if fixed {
                    traction::static_polygon(poly, p0, n, &mut acc);
                } else {
                    traction::integrate_polygon(poly, p0, n, secondary, kin, (&mut acc, &mut bases));
                }
            });
        });
        acc
    };
    if let [task] = tasks[..] {
        return run(&task);
    }
    // Tasks and their order do not depend on the thread count, and partial sums are added in
    // task order, so the result is bit-identical with or without threads.
    let parts: Vec<Accumulator> = if work >= PARALLEL_WORK {
        let _section = Section::enter();
        tasks.par_iter().map(run).collect()
    } else {
        tasks.iter().map(run).collect()
    };
    let mut acc = Accumulator::default();
    for p in parts {
        acc += p;
    }
    acc
}

/// The wrench on `a` in the world frame from the primary-frame sums; `static_query`: the sums
/// hold no velocity-dependent terms ([`Kinetics::is_static`]), so the elastic part is the whole
/// (one transform spared).
fn pair_wrench(pair: &PairFrame, acc: &Accumulator, static_query: bool) -> PairWrench {
    let on_a = |force: Vector3, torque: Vector3| {
        let on_primary = Wrench { force, torque }.transformed(&pair.primary.pose);
        if pair.swapped { -on_primary } else { on_primary }
    };
    let wrench = on_a(acc.force, acc.torque);
    let elastic = if static_query { wrench } else { on_a(acc.elastic_force, acc.elastic_torque) };
    PairWrench {
        wrench,
        area: acc.area,
        faces: acc.polygons,
        dissipation_power: acc.dissipation_power,
        elastic,
    }
}

/// The maps between the primary-frame sums and the bodies' generalized coordinates (primary
/// then secondary; world frame, about the reference points): the relative twist (u, w) = B·V,
/// and the generalized forces Q = C·(F', τ') of the primary-frame wrench about its origin.
struct WorldChain {
    b: SMatrix<f64, 6, 12>,
    c: SMatrix<f64, 12, 6>,
    /// The primary's rotation, and its origin relative to its reference point; the secondary's
    /// reference point relative to the primary's.
    rotation: Matrix3,
    origin_from_ref: Vector3,
    refs_apart: Vector3,
}

impl WorldChain {
    fn new(pair: &PairFrame, ref_p: &Point3, ref_s: &Point3) -> WorldChain {
        let r = *pair.primary.pose.rotation.to_rotation_matrix().matrix();
        let rt = r.transpose();
        let origin = Point3::from(pair.primary.pose.translation.vector);
        let rp = (origin - ref_p).cross_matrix();
        let rs = (origin - ref_s).cross_matrix();
        let mut b = SMatrix::<f64, 6, 12>::zeros();
        b.fixed_view_mut::<3, 3>(0, 0).copy_from(&rt);
        b.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-rt * rp));
        b.fixed_view_mut::<3, 3>(0, 6).copy_from(&(-rt));
        b.fixed_view_mut::<3, 3>(0, 9).copy_from(&(rt * rs));
        b.fixed_view_mut::<3, 3>(3, 3).copy_from(&rt);
        b.fixed_view_mut::<3, 3>(3, 9).copy_from(&(-rt));
        let mut c = SMatrix::<f64, 12, 6>::zeros();
        c.fixed_view_mut::<3, 3>(0, 0).copy_from(&r);
        c.fixed_view_mut::<3, 3>(3, 0).copy_from(&(rp * r));
        c.fixed_view_mut::<3, 3>(3, 3).copy_from(&r);
        c.fixed_view_mut::<3, 3>(6, 0).copy_from(&(-r));
        c.fixed_view_mut::<3, 3>(9, 0).copy_from(&(-rs * r));
        c.fixed_view_mut::<3, 3>(9, 3).copy_from(&(-r));
        WorldChain { b, c, rotation: r, origin_from_ref: origin - ref_p, refs_apart: ref_s - ref_p }
    }
}

/// The pose stiffness K = ∂Q/∂X (primary, secondary order) of a pair, from the primary-frame
/// stiffness H (secondary displaced, (u, w) fixed) and velocity Jacobian J:
/// K = −C·H·B + C·J·L + K_C. The secondary's displacement relative to the primary is −B·δX
/// (the same map as the relative twist); L is how (u, w) change when the bodies move with their
/// world velocities held fixed; K_C is how C changes as the primary turns and the reference
/// points move. `wrench` is the primary's (world frame, torque about the world origin).
fn pose_stiffness(
    chain: &WorldChain,
    pair: &PairFrame,
    kin: &Kinetics,
    acc: &Accumulator,
    wrench: &Wrench,
) -> PoseStiffness {
    let r = chain.rotation;
    let rt = r.transpose();
    let cross = |v: &Vector3| v.cross_matrix();
    // δv(x) = ω_S × (δr_S − δr_P) − δθ_P × v(x) + Ω × (δr_P + δθ_P × (x − c_P)) − ω_P × δr_P,
    // world frame, with Ω = ω_P − ω_S and v the relative velocity of the primary: affine in x.
    let omega_s = pair.secondary.twist.angular;
    let omega = r * kin.w;
    let u_world = r * kin.u;
    let mut l = SMatrix::<f64, 6, 12>::zeros();
    l.fixed_view_mut::<3, 3>(0, 0).copy_from(&(-rt * cross(&omega_s)));
    l.fixed_view_mut::<3, 3>(0, 6).copy_from(&(rt * cross(&omega_s)));
    let turn = cross(&u_world) - cross(&omega) * cross(&chain.origin_from_ref);
    l.fixed_view_mut::<3, 3>(0, 3).copy_from(&(rt * turn));
    l.fixed_view_mut::<3, 3>(3, 3).copy_from(&(rt * cross(&omega)));
    let mut k = -chain.c * acc.stiffness * chain.b + chain.c * acc.jacobian * l;
    // K_C: the primary's force and torque about its reference point turn with it; the
    // secondary's torque about its own reference point also sees the points' separation.
    let force = wrench.force;
    let torque_p = wrench.torque
        - (Point3::from(pair.primary.pose.translation.vector) - chain.origin_from_ref).coords.cross(&force);
    let (f, tp) = (cross(&force), cross(&torque_p));
    let mut add = |row: usize, col: usize, m: &Matrix3| {
        let mut v = k.fixed_view_mut::<3, 3>(row, col);
        v += m;
    };
    add(0, 3, &-f);
    add(3, 3, &-tp);
    add(6, 3, &f);
    add(9, 3, &(tp - cross(&chain.refs_apart) * f));
    add(9, 6, &-f);
    add(9, 0, &f);
    k
}

/// The contact surface of a pair in the world frame, normals from `b` into `a`.
pub fn contact_surface(a: BodyState, b: BodyState) -> Result<ContactSurface, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    let pose = pair.primary.pose;
    let flip = if pair.swapped { -1.0 } else { 1.0 };
    let mut polygons = Vec::new();
    let mut add = |poly: &[Point3], pressure: Vec<f64>, n: &Vector3| {
        let normal = pose.rotation * n * flip;
        let mut vertices: Vec<_> = poly.iter().map(|x| pose * x).collect();
        let mut pressure = pressure;
        // Counter-clockwise about the reported normal.
        let area: Vector3 = (1..vertices.len() - 1)
            .map(|k| (vertices[k] - vertices[0]).cross(&(vertices[k + 1] - vertices[0])))
            .sum();
        if area.dot(&normal) < 0.0 {
            vertices.reverse();
            pressure.reverse();
        }
        polygons.push(ContactPolygon { vertices, pressure, normal });
    };
    if let Some(sphere) = SpherePlane::new(&pair) {
        let (disc, n) = sphere.polygons();
        for (poly, pressure) in disc {
            add(&poly, pressure, &n);
        }
        return Ok(ContactSurface { polygons });
    }
    for c in pair.candidates(false) {
        pair.with_polygon(c, true, |poly, p0, n, _| {
            // Round-off can leave −1e−9 Pa on the surface, where p0 = 0.
            add(poly, poly.iter().map(|x| p0.value(x).max(0.0)).collect(), n);
        });
    }
    Ok(ContactSurface { polygons })
}

/// The pair's penetration depth (m): the largest p₀·(1/|∇p_a| + 1/|∇p_b|) over the contact
/// surface's vertices — the depth of the surface in each body where its pressure grows linearly
/// with depth, summed (exact for half spaces and for the cone meshes' fields along their
/// gradients; a rigid body's share is zero, the surface being its boundary). 0 when the pair
/// does not touch. A region of constant pressure (a field's core) adds nothing.
pub fn pair_penetration(a: BodyState, b: BodyState) -> Result<f64, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    if let Some(sphere) = SpherePlane::new(&pair) {
        return Ok(sphere.penetration());
    }
    let depth_per_pascal = |g: &Vector3| {
        let n = g.norm();
        if n > 0.0 { 1.0 / n } else { 0.0 }
    };
    let mut deepest = 0.0f64;
    for c in pair.candidates(false) {
        pair.with_polygon(c, false, |poly, p0, _, secondary| {
            let per_pascal = depth_per_pascal(&p0.gradient) + secondary.map_or(0.0, depth_per_pascal);
            for x in poly {
                deepest = deepest.max(p0.value(x).max(0.0) * per_pascal);
            }
        });
    }
    Ok(deepest)
}

/// The pair's elastic potential energy U = ∫ min(p_a, p_b) dV over the overlap (J).
pub fn pair_energy(a: BodyState, b: BodyState) -> Result<f64, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    if let Some(sphere) = SpherePlane::new(&pair) {
        return Ok(sphere.energy());
    }
    Ok(energy::pair_energy(&pair))
}

/// The relative velocity and effective dissipation and friction of a pair, in the primary's
/// frame.
fn kinetics(pair: &PairFrame, options: &QueryOptions, jacobian: bool, stiffness: bool) -> Kinetics {
    let (p, s) = (&pair.primary, &pair.secondary);
    // The relative velocity in the primary's frame (none to rotate for bodies at rest).
    let (u, w) = if p.twist == Twist::default() && s.twist == Twist::default() {
        (Vector3::zeros(), Vector3::zeros())
    } else {
        let rinv = p.pose.rotation.inverse();
        let wp = rinv * p.twist.angular;
        let ws = rinv * s.twist.angular;
        let d = rinv * (p.pose.translation.vector - s.pose.translation.vector);
        (rinv * p.twist.linear - rinv * s.twist.linear - ws.cross(&d), wp - ws)
    };
    // Series combination: the softer body carries more of the deformation, so its
    // dissipation weighs more; a rigid body contributes none.
    let dissipation = match pair.secondary_modulus {
        None => p.body.dissipation,
        Some(es) => {
            let ep = p.body.modulus.unwrap_or(0.0);
            (p.body.dissipation * es + s.body.dissipation * ep) / (ep + es)
        }
    };
    let friction = crate::contact::combined_friction(p.body.friction, s.body.friction);
    Kinetics {
        u,
        w,
        dissipation,
        friction,
        stiction_speed: options.stiction_speed,
        reference: polygon_rule::pair_reference(match pair.kind {
            PairKind::MeshMesh(..) => Some(&pair.p_from_s.rotation),
            _ => None,
        }),
        jacobian,
        stiffness,
    }
}
