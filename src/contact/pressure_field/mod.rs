//! Pressure field contact (Elandt et al. 2019): per-body pressure fields on tet meshes, the
//! equal-pressure contact surface, Hunt–Crossley dissipation, regularized Coulomb friction, one
//! net wrench per pair, and the elastic potential energy.
//!
//! Use [`PfBody::new`] once per body, then [`evaluate_pair`] (wrench), [`contact_surface`]
//! (the polygons, for output) and [`pair_energy`] per query.

mod body;
mod chunked;
mod energy;
mod error;
mod pair;
mod setup;
mod surface;
mod traction;

pub use body::{Compliance, CompliantMesh, ContactProperties, PfBody, PfGeometry, RigidMesh};
pub use error::PressureFieldError;
pub use pair::BodyState;
pub use setup::{BodyBuildError, PressureFieldModel, contact_properties};
pub use surface::{ContactPolygon, ContactSurface};

use crate::math::{Point3, Vector3, Wrench};
use nalgebra::{Matrix6, SMatrix};
use pair::PairFrame;
use rayon::prelude::*;
use traction::{Accumulator, Kinetics};

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
}

/// The net contact wrench on body `a` from body `b` (world frame, torque about the world
/// origin), with the contact area and polygon count. Body `b` receives the opposite wrench.
pub fn evaluate_pair(
    a: BodyState,
    b: BodyState,
    options: &QueryOptions,
) -> Result<PairWrench, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    let acc = accumulate(&pair, &kinetics(&pair, options, false));
    Ok(pair_wrench(&pair, &acc))
}

/// The derivative of the generalized contact forces of a pair with respect to the bodies'
/// velocities, for implicit integration. Each body's velocity is (linear velocity of its
/// reference point, angular velocity), world frame; its generalized force is (force, torque
/// about its reference point). Order: `a` then `b`.
pub type VelocityJacobian = SMatrix<f64, 12, 12>;

/// [`evaluate_pair`] and the [`VelocityJacobian`] about the reference points `ref_a`, `ref_b`
/// (world frame; e.g. the centres of mass).
pub fn evaluate_pair_with_jacobian(
    a: BodyState,
    b: BodyState,
    ref_a: &Point3,
    ref_b: &Point3,
    options: &QueryOptions,
) -> Result<(PairWrench, VelocityJacobian), PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    let acc = accumulate(&pair, &kinetics(&pair, options, true));
    let (ref_p, ref_s) = if pair.swapped { (ref_b, ref_a) } else { (ref_a, ref_b) };
    let jp = velocity_jacobian(&pair, &acc.jacobian, ref_p, ref_s);
    // Reorder (primary, secondary) blocks to (a, b).
    let jac = if pair.swapped {
        let mut j = VelocityJacobian::zeros();
        for (ri, rj) in [(0, 6), (6, 0)] {
            for (ci, cj) in [(0, 6), (6, 0)] {
                j.fixed_view_mut::<6, 6>(ri, ci).copy_from(&jp.fixed_view::<6, 6>(rj, cj));
            }
        }
        j
    } else {
        jp
    };
    Ok((pair_wrench(&pair, &acc), jac))
}

/// Integrates every polygon of a pair in its primary frame.
fn accumulate(pair: &PairFrame, kin: &Kinetics) -> Accumulator {
    let (tasks, work) = pair.tasks();
    let run = |task: &(u32, u32)| {
        let mut acc = Accumulator::default();
        pair.run_task(*task, &mut |c| {
            if let Some((poly, p0, n)) = pair.polygon(c) {
                traction::integrate_polygon(poly.points(), &p0, &n, kin, &mut acc);
            }
        });
        acc
    };
    // Tasks and their order do not depend on the thread count, and partial sums are added in
    // task order, so the result is bit-identical with or without threads.
    let parts: Vec<Accumulator> = if work >= PARALLEL_WORK {
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

/// The wrench on `a` in the world frame from the primary-frame sums.
fn pair_wrench(pair: &PairFrame, acc: &Accumulator) -> PairWrench {
    let on_primary = Wrench { force: acc.force, torque: acc.torque }.transformed(&pair.primary.pose);
    let wrench = if pair.swapped { -on_primary } else { on_primary };
    PairWrench { wrench, area: acc.area, faces: acc.polygons, dissipation_power: acc.dissipation_power }
}

/// Chain rule from ∂(primary-frame wrench about its origin)/∂(u, w) to the generalized forces
/// and velocities of both bodies about their reference points (world frame):
/// ∂Q/∂V = C·J·B, with (u, w) = B·V and Q = C·(F', τ').
fn velocity_jacobian(pair: &PairFrame, j: &Matrix6<f64>, ref_p: &Point3, ref_s: &Point3) -> VelocityJacobian {
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
    c * j * b
}

/// The contact surface of a pair in the world frame, normals from `b` into `a`.
pub fn contact_surface(a: BodyState, b: BodyState) -> Result<ContactSurface, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    let candidates = pair.candidates(false);
    let pose = pair.primary.pose;
    let flip = if pair.swapped { -1.0 } else { 1.0 };
    let mut polygons = Vec::new();
    for c in candidates {
        if let Some((poly, p0, n)) = pair.polygon(c) {
            let normal = pose.rotation * n * flip;
            let mut vertices: Vec<_> = poly.points().iter().map(|x| pose * x).collect();
            // Round-off can leave −1e−9 Pa on the surface, where p0 = 0.
            let mut pressure: Vec<f64> = poly.points().iter().map(|x| p0.value(x).max(0.0)).collect();
            // Counter-clockwise about the reported normal.
            let area: Vector3 = (1..vertices.len() - 1)
                .map(|k| (vertices[k] - vertices[0]).cross(&(vertices[k + 1] - vertices[0])))
                .sum();
            if area.dot(&normal) < 0.0 {
                vertices.reverse();
                pressure.reverse();
            }
            polygons.push(ContactPolygon { vertices, pressure, normal });
        }
    }
    Ok(ContactSurface { polygons })
}

/// The pair's elastic potential energy U = ∫ min(p_a, p_b) dV over the overlap (J).
pub fn pair_energy(a: BodyState, b: BodyState) -> Result<f64, PressureFieldError> {
    let pair = PairFrame::new(a, b)?;
    Ok(energy::pair_energy(&pair))
}

/// The relative velocity and effective dissipation and friction of a pair, in the primary's
/// frame.
fn kinetics(pair: &PairFrame, options: &QueryOptions, jacobian: bool) -> Kinetics {
    let (p, s) = (&pair.primary, &pair.secondary);
    let rinv = p.pose.rotation.inverse();
    let wp = rinv * p.twist.angular;
    let ws = rinv * s.twist.angular;
    let d = rinv * (p.pose.translation.vector - s.pose.translation.vector);
    let u = rinv * p.twist.linear - rinv * s.twist.linear - ws.cross(&d);
    // Series combination: the softer body carries more of the deformation, so its
    // dissipation weighs more; a rigid body contributes none.
    let dissipation = match pair.secondary_modulus {
        None => p.body.dissipation,
        Some(es) => {
            let ep = p.body.modulus.unwrap_or(0.0);
            (p.body.dissipation * es + s.body.dissipation * ep) / (ep + es)
        }
    };
    let (mp, ms) = (p.body.friction, s.body.friction);
    let friction = if mp + ms > 0.0 { 2.0 * mp * ms / (mp + ms) } else { 0.0 };
    Kinetics { u, w: wp - ws, dissipation, friction, stiction_speed: options.stiction_speed, jacobian }
}

#[cfg(test)]
mod tests;
