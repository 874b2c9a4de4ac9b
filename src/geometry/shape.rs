use crate::math::Point3;
use std::path::PathBuf;

/// A body's shape, in its body frame. Cylinders and capsules have their axis along z and are
/// centred on the origin; boxes are centred on the origin; a half space is `z ≤ 0`.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Sphere {
        radius: f64,
    },
    Box {
        size: [f64; 3],
    },
    /// `length` is the length of the flat-ended cylinder along z.
    Cylinder {
        radius: f64,
        length: f64,
    },
    /// `length` is the length of the cylindrical part (the segment between the two
    /// hemisphere centres); the total length is `length + 2 radius`.
    Capsule {
        radius: f64,
        length: f64,
    },
    Ellipsoid {
        radii: [f64; 3],
    },
    /// The solid `z ≤ 0` of the body frame.
    HalfSpace,
    /// The convex hull of the vertices of an OBJ/STL file (vertices in the body frame).
    Convex {
        file: PathBuf,
        points: Vec<Point3>,
    },
}

impl Shape {
    /// A short lower-case name for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Capsule { .. } => "capsule",
            Shape::Ellipsoid { .. } => "ellipsoid",
            Shape::HalfSpace => "halfspace",
            Shape::Convex { .. } => "convex",
        }
    }
}
