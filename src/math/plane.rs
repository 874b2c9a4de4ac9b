use super::types::{Isometry3, Point3, Vector3};

/// The plane `normal · x = offset`; `normal` need not be unit length unless a method says so.
/// The *inside* of a plane is where `signed(x) = normal · x − offset ≤ 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub normal: Vector3,
    pub offset: f64,
}

impl Plane {
    pub fn new(normal: Vector3, offset: f64) -> Self {
        Self { normal, offset }
    }

    /// The plane through `point` with the given normal.
    pub fn through(point: &Point3, normal: Vector3) -> Self {
        Self { normal, offset: normal.dot(&point.coords) }
    }

    /// `normal · x − offset`: negative inside, positive outside (scaled by |normal|).
    #[inline]
    pub fn signed(&self, x: &Point3) -> f64 {
        self.normal.dot(&x.coords) - self.offset
    }

    /// The same plane expressed in another frame: if `x_new = pose * x_old`.
    #[inline]
    pub fn transformed(&self, pose: &Isometry3) -> Self {
        let n = pose.rotation * self.normal;
        Self { normal: n, offset: self.offset + n.dot(&pose.translation.vector) }
    }
}
