//! Spatial vectors in body coordinates (Featherstone's algebra): a motion is [ω; v] with v the
//! velocity of the point at the frame's origin, a force is [n; f] with n the moment about it.

use crate::math::{Isometry3, Matrix3, Point3, Vector3};
#[cfg(test)]
use nalgebra::Matrix6;
use nalgebra::Vector6;

/// The cross-product matrix: skew(a)·b = a × b.
#[inline]
pub fn skew(a: &Vector3) -> Matrix3 {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

/// The angular part of a spatial vector.
#[inline]
pub fn upper(m: &Vector6<f64>) -> Vector3 {
    Vector3::new(m[0], m[1], m[2])
}

/// The linear part of a spatial vector.
#[inline]
pub fn lower(m: &Vector6<f64>) -> Vector3 {
    Vector3::new(m[3], m[4], m[5])
}

/// [a; b].
#[inline]
pub fn stack(a: &Vector3, b: &Vector3) -> Vector6<f64> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

/// X_{C←P} in compact form: `e` turns P's axes into C's, `r` is C's origin in P. The same map
/// as `motion_transform`'s matrix at a fraction of its products.
#[derive(Clone, Copy, Debug)]
pub struct Transform {
    pub e: Matrix3,
    pub r: Vector3,
}

impl Transform {
    /// The transform of frame C whose pose in P is `pose`.
    #[inline]
    pub fn of_pose(pose: &Isometry3) -> Transform {
        Transform {
            e: pose.rotation.to_rotation_matrix().into_inner().transpose(),
            r: pose.translation.vector,
        }
    }

    /// X·m: a motion from P to C.
    #[inline]
    pub fn motion(&self, m: &Vector6<f64>) -> Vector6<f64> {
        let (w, v) = (upper(m), lower(m));
        stack(&(self.e * w), &(self.e * (v - self.r.cross(&w))))
    }

    /// Xᵀ·f: a force from C to P.
    #[inline]
    pub fn force_up(&self, f: &Vector6<f64>) -> Vector6<f64> {
        let (n, g) = (self.e.tr_mul(&upper(f)), self.e.tr_mul(&lower(f)));
        stack(&(n + self.r.cross(&g)), &g)
    }

    /// Xᵀ·I·X: an inertia from C's frame to P's. With h̃ = Eᵀ·h turned into P's axes, the
    /// rotational inertia moves to P's origin as Eᵀ·i·E − h̃×r× − r×h̃× − m·r×r×, where
    /// a×b× = b·aᵀ − (a·b)·1.
    pub fn inertia_up(&self, inertia: &RigidInertia) -> RigidInertia {
        let turned = self.e.tr_mul(&inertia.h);
        let (r, m) = (&self.r, inertia.mass);
        let mut i = self.e.tr_mul(&(inertia.i * self.e));
        let diagonal = 2.0 * turned.dot(r) + m * r.dot(r);
        for a in 0..3 {
            for b in 0..3 {
                i[(a, b)] -= r[a] * turned[b] + turned[a] * r[b] + m * r[a] * r[b];
            }
            i[(a, a)] += diagonal;
        }
        RigidInertia { mass: m, h: turned + r * m, i }
    }
}

/// A rigid body's spatial inertia about a frame's origin, compactly: the mass, its first
/// moment h = m·c, and the rotational inertia about the origin (the matrix [[i, h×], [−h×, m]]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidInertia {
    pub mass: f64,
    pub h: Vector3,
    pub i: Matrix3,
}

impl RigidInertia {
    /// A body of `mass` with its centre of mass at `com` and rotational inertia `inertia` about
    /// it (all in that frame).
    pub fn new(mass: f64, com: &Point3, inertia: &Matrix3) -> RigidInertia {
        let c = skew(&com.coords);
        RigidInertia { mass, h: com.coords * mass, i: inertia - c * c * mass }
    }

    /// I·m: the momentum of a motion.
    #[inline]
    pub fn times(&self, m: &Vector6<f64>) -> Vector6<f64> {
        let (w, v) = (upper(m), lower(m));
        stack(&(self.i * w + self.h.cross(&v)), &(v * self.mass - self.h.cross(&w)))
    }

    /// The inertia of two bodies together.
    #[inline]
    pub fn add(&mut self, other: &RigidInertia) {
        self.mass += other.mass;
        self.h += other.h;
        self.i += other.i;
    }
}

/// (v×)·m: motion `m` carried along at velocity `v`.
#[inline]
pub fn cross_motion_times(v: &Vector6<f64>, m: &Vector6<f64>) -> Vector6<f64> {
    let (w, u) = (upper(v), lower(v));
    let (mw, mv) = (upper(m), lower(m));
    stack(&w.cross(&mw), &(w.cross(&mv) + u.cross(&mw)))
}

#[cfg(test)]
/// X_{C←P}: motion vectors from frame P to frame C, where `pose` is C's pose in P.
/// Its transpose maps forces from C to P.
pub fn motion_transform(pose: &Isometry3) -> Matrix6<f64> {
    let e = pose.rotation.to_rotation_matrix().into_inner().transpose();
    let r = pose.translation.vector;
    let mut x = Matrix6::zeros();
    x.fixed_view_mut::<3, 3>(0, 0).copy_from(&e);
    x.fixed_view_mut::<3, 3>(3, 3).copy_from(&e);
    x.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-e * skew(&r)));
    x
}

#[cfg(test)]
/// v× for motions: (v×)·m is the rate of change of m carried along at velocity v.
pub fn cross_motion(v: &Vector6<f64>) -> Matrix6<f64> {
    let (w, u) = (skew(&upper(v)), skew(&lower(v)));
    let mut x = Matrix6::zeros();
    x.fixed_view_mut::<3, 3>(0, 0).copy_from(&w);
    x.fixed_view_mut::<3, 3>(3, 3).copy_from(&w);
    x.fixed_view_mut::<3, 3>(3, 0).copy_from(&u);
    x
}

/// v×* for forces: −(v×)ᵀ.
pub fn cross_force(v: &Vector6<f64>, f: &Vector6<f64>) -> Vector6<f64> {
    let (w, u) = (upper(v), lower(v));
    let (n, g) = (upper(f), lower(f));
    stack(&(w.cross(&n) + u.cross(&g)), &w.cross(&g))
}

#[cfg(test)]
/// The spatial inertia about a frame's origin of a body of `mass` with its centre of mass at
/// `com` and rotational inertia `inertia` about it (all in that frame).
pub fn spatial_inertia(mass: f64, com: &Point3, inertia: &Matrix3) -> Matrix6<f64> {
    let c = skew(&com.coords);
    let mut m = Matrix6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&(inertia - mass * c * c));
    m.fixed_view_mut::<3, 3>(0, 3).copy_from(&(mass * c));
    m.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-mass * c));
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(&(Matrix3::identity() * mass));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Translation3, UnitQuaternion};

    #[test]
    fn a_transform_moves_velocities_and_conserves_power() {
        let pose = Isometry3::from_parts(
            Translation3::new(0.3, -0.2, 0.5),
            UnitQuaternion::from_euler_angles(0.4, -0.7, 1.1),
        );
        let x = motion_transform(&pose);
        let m = Vector6::new(0.1, 0.2, -0.3, 1.0, -2.0, 0.5);
        // The child-frame velocity of the child origin, by hand.
        let (w, v) = (upper(&m), lower(&m));
        let at_child = v + w.cross(&pose.translation.vector);
        let expected = stack(&(pose.rotation.inverse() * w), &(pose.rotation.inverse() * at_child));
        assert!((x * m - expected).norm() < 1e-14);
        // Power is frame-independent: (Xᵀf)·m = f·(X m).
        let f = Vector6::new(0.7, -0.1, 0.2, 3.0, 1.0, -1.0);
        assert!(((x.transpose() * f).dot(&m) - f.dot(&(x * m))).abs() < 1e-14);
        assert!((cross_force(&m, &f) + cross_motion(&m).transpose() * f).norm() < 1e-14);
    }

    #[test]
    fn the_compact_forms_equal_the_matrices() {
        let pose = Isometry3::from_parts(
            Translation3::new(0.3, -0.2, 0.5),
            UnitQuaternion::from_euler_angles(0.4, -0.7, 1.1),
        );
        let (x, t) = (motion_transform(&pose), Transform::of_pose(&pose));
        let m = Vector6::new(0.1, 0.2, -0.3, 1.0, -2.0, 0.5);
        let f = Vector6::new(0.7, -0.1, 0.2, 3.0, 1.0, -1.0);
        assert!((t.motion(&m) - x * m).norm() < 1e-14);
        assert!((t.force_up(&f) - x.transpose() * f).norm() < 1e-14);
        assert!((cross_motion_times(&f, &m) - cross_motion(&f) * m).norm() < 1e-14);
        let inertia = Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.2, 0.03, -0.02, 0.03, 0.25);
        let com = Point3::new(0.1, -0.3, 0.2);
        let (dense, compact) = (spatial_inertia(1.7, &com, &inertia), RigidInertia::new(1.7, &com, &inertia));
        assert!((compact.times(&m) - dense * m).norm() < 1e-14);
        let up = t.inertia_up(&compact);
        assert!((up.times(&m) - x.transpose() * dense * x * m).norm() < 1e-13);
    }
}
