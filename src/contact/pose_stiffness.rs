//! The contact stiffness ∂Q/∂X of a pair by finite differences of its wrench: the generic path
//! for models without an analytic stiffness. Q = (force on a, torque on a about its reference
//! point, the same for b), world frame; X_i = (δr_i: the reference point moves, δθ_i: the body
//! turns about its reference point, world frame), with the generalized velocities (velocity of
//! the reference point, angular velocity) held fixed.

use super::model::PairMatrix;
use crate::math::{Isometry3, Point3, Translation3, Twist, UnitQuaternion, Vector3, Wrench};

/// Step of the differences (m, and rad): far below any penetration that carries load, far
/// above round-off of the wrench.
const STEP: f64 = 1e-9;

/// Generalized forces of a pair's wrench (on a, torque about the world origin) about `refs`.
fn generalized(w: &Wrench, refs: (&Point3, &Point3)) -> [f64; 12] {
    let ta = w.torque - refs.0.coords.cross(&w.force);
    let tb = -w.torque + refs.1.coords.cross(&w.force);
    let mut q = [0.0; 12];
    q[0..3].copy_from_slice(w.force.as_slice());
    q[3..6].copy_from_slice(ta.as_slice());
    q[6..9].copy_from_slice((-w.force).as_slice());
    q[9..12].copy_from_slice(tb.as_slice());
    q
}

/// The pose and twist of a body moved by (δr, δθ) about its reference point `c`, with the
/// reference point's velocity and the angular velocity unchanged.
fn perturbed(
    (pose, twist): (Isometry3, Twist),
    c: &Point3,
    dr: Vector3,
    dtheta: Vector3,
) -> (Isometry3, Twist) {
    let turn = UnitQuaternion::from_scaled_axis(dtheta);
    let origin = Point3::from(pose.translation.vector);
    let v_ref = twist.velocity_at(&origin, c);
    let new_c = c + dr;
    let new_origin = new_c + turn * (origin - c);
    let pose = Isometry3::from_parts(Translation3::from(new_origin.coords), turn * pose.rotation);
    let linear = v_ref + twist.angular.cross(&(new_origin - new_c));
    (pose, Twist { linear, angular: twist.angular })
}

/// ∂Q/∂X by forward differences: `wrench(poses)` evaluates the pair's wrench (zero when apart);
/// columns of bodies that do not move (`movable[k]` false) are left zero.
pub fn finite_difference_stiffness<E>(
    poses: [(Isometry3, Twist); 2],
    refs: (&Point3, &Point3),
    movable: [bool; 2],
    base: &Wrench,
    wrench: impl Fn([(Isometry3, Twist); 2]) -> Result<Wrench, E>,
) -> Result<PairMatrix, E> {
    let q0 = generalized(base, refs);
    let mut k = PairMatrix::zeros();
    let centres = [*refs.0, *refs.1];
    for side in 0..2 {
        if !movable[side] {
            continue;
        }
        for col in 0..6 {
            let mut d = Vector3::zeros();
            d[col % 3] = STEP;
            let (dr, dtheta) = if col < 3 { (d, Vector3::zeros()) } else { (Vector3::zeros(), d) };
            let mut moved = poses;
            moved[side] = perturbed(poses[side], &centres[side], dr, dtheta);
            let mut new_refs = centres;
            new_refs[side] += dr;
            let q = generalized(&wrench(moved)?, (&new_refs[0], &new_refs[1]));
            for row in 0..12 {
                k[(row, 6 * side + col)] = (q[row] - q0[row]) / STEP;
            }
        }
    }
    Ok(k)
}
