//! The Minkowski difference `A − B` of two posed shapes, seen through its support function.

use super::convex_shape::ConvexShape;
use crate::math::{Isometry3, Matrix3, Point3, Vector3};

/// A shape at a pose, with the rotation as a matrix because support queries rotate twice.
pub(crate) struct Posed<'a> {
    pub shape: &'a ConvexShape,
    rot: Matrix3,
    pos: Vector3,
}

impl<'a> Posed<'a> {
    pub fn new(shape: &'a ConvexShape, pose: &Isometry3) -> Self {
        Self { shape, rot: pose.rotation.to_rotation_matrix().into_inner(), pos: pose.translation.vector }
    }

    pub fn to_world(&self, p: &Point3) -> Point3 {
        Point3::from(self.rot * p.coords + self.pos)
    }

    /// World point of the core farthest along world direction `d`.
    pub fn core_support(&self, d: &Vector3) -> Point3 {
        self.to_world(&self.shape.core_support(&(self.rot.transpose() * d)))
    }

    /// World point of the whole shape farthest along world direction `d`.
    pub fn support(&self, d: &Vector3) -> Point3 {
        self.to_world(&self.shape.support(&(self.rot.transpose() * d)))
    }

    pub fn interior_point(&self) -> Point3 {
        self.to_world(&self.shape.interior_point())
    }
}

/// A support point of `A − B` with the points of `A` and `B` it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vertex {
    pub w: Vector3,
    pub a: Point3,
    pub b: Point3,
}

/// `A − B`, either of the cores (margins dropped) or of the whole shapes.
pub(crate) struct Difference<'a> {
    pub a: &'a Posed<'a>,
    pub b: &'a Posed<'a>,
    pub with_margins: bool,
}

impl Difference<'_> {
    /// The support point of `A − B` along `d`: `s_A(d) − s_B(−d)`.
    pub fn support(&self, d: &Vector3) -> Vertex {
        let (a, b) = if self.with_margins {
            (self.a.support(d), self.b.support(&-d))
        } else {
            (self.a.core_support(d), self.b.core_support(&-d))
        };
        Vertex { w: a - b, a, b }
    }

    /// An interior point of `A − B` (the difference of the shapes' interior points).
    pub fn interior(&self) -> Vertex {
        let a = self.a.interior_point();
        let b = self.b.interior_point();
        Vertex { w: a - b, a, b }
    }
}

/// `true` unless `x > y`; NaN on either side counts as "not above", so degenerate or
/// poisoned values take the safe branch.
pub(crate) fn not_above(x: f64, y: f64) -> bool {
    !matches!(x.partial_cmp(&y), Some(std::cmp::Ordering::Greater))
}
