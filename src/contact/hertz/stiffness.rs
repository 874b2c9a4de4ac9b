//! The contact stiffness ∂Q/∂X of a Hertz pair (rows: force on a, torque on a about its
//! reference point, the same for b; columns: (δr, δθ) of a then b, the reference points moving
//! with their bodies, velocities held fixed), in closed form.
//!
//! At fixed velocities the whole response (normal force, friction, rolling resistance) scales
//! with f_n ∝ δ^n, so it changes by n/δ·δδ with the penetration δ, which changes by e_n·(δx_a −
//! δx_b) at the contact point (e_n out of a). The contact point, the midpoint of the witness
//! points, moves with the mean of the bodies' displacements there. The normal is held fixed:
//! it turns with the bodies only through the surfaces' curvature, which changes the force by
//! O(f_n/R) per unit displacement against the O(n·f_n/δ) kept here (δ/R ≲ 1e-3 for contacts
//! that carry load).

use super::pair::HertzContact;
use crate::contact::pair_contact::PairMatrix;
use crate::math::{Matrix3, Point3};
use nalgebra::Matrix3x6;

/// ∂Q/∂X of a touching pair with exponent `n_geo`, about the reference points `refs`.
pub fn hertz_stiffness(contact: &HertzContact, n_geo: f64, refs: (&Point3, &Point3)) -> PairMatrix {
    let mut k = PairMatrix::zeros();
    let delta = contact.penetration;
    if delta <= 0.0 {
        return k;
    }
    let (p, normal) = (contact.point, contact.normal);
    let force_a = contact.wrench.force;
    // Rolling resistance on a: the torque beyond the force's moment about the contact point.
    let rolling_a = contact.wrench.torque - p.coords.cross(&force_a);
    let g = n_geo / delta;
    // The displacement at p of each body: δx_i(p) = [I, −[p − c_i]×]·(δr_i, δθ_i).
    let at_point = |c: &Point3| {
        let mut m = Matrix3x6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&Matrix3::identity());
        m.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-(p - c).cross_matrix()));
        m
    };
    let (ca, cb) = refs;
    let (xa, xb) = (at_point(ca), at_point(cb));
    // δδ as a row over the 12 columns.
    let mut d_delta = nalgebra::SMatrix::<f64, 1, 12>::zeros();
    d_delta.fixed_view_mut::<1, 6>(0, 0).copy_from(&(normal.transpose() * xa));
    d_delta.fixed_view_mut::<1, 6>(0, 6).copy_from(&(-normal.transpose() * xb));
    // δp = (δx_a(p) + δx_b(p))/2.
    let mut dp = nalgebra::SMatrix::<f64, 3, 12>::zeros();
    dp.fixed_view_mut::<3, 6>(0, 0).copy_from(&(xa * 0.5));
    dp.fixed_view_mut::<3, 6>(0, 6).copy_from(&(xb * 0.5));
    for (side, sign, c) in [(0usize, 1.0, ca), (1, -1.0, cb)] {
        let force = force_a * sign;
        let rolling = rolling_a * sign;
        let row = 6 * side;
        // Force rows: the response scales with f_n.
        let df = force * d_delta * g;
        // Torque about the body's reference point: (p − c) × F + τ_r, with p and c moving.
        let arm = (p - c).cross_matrix();
        let mut dt = arm * df + rolling * d_delta * g - force.cross_matrix() * dp;
        // δc = δr of this body: −δr × F = F × δr.
        let mut fc = dt.fixed_view_mut::<3, 3>(0, row);
        fc += force.cross_matrix();
        k.fixed_view_mut::<3, 12>(row, 0).copy_from(&df);
        k.fixed_view_mut::<3, 12>(row + 3, 0).copy_from(&dt);
    }
    k
}
