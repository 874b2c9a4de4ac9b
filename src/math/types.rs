//! The nalgebra `f64` types every layer uses, under short names.

/// A point in 3D (m).
pub type Point3 = nalgebra::Point3<f64>;
/// A vector in 3D.
pub type Vector3 = nalgebra::Vector3<f64>;
/// A rigid transform (rotation + translation).
pub type Isometry3 = nalgebra::Isometry3<f64>;
/// A unit quaternion.
pub type UnitQuaternion = nalgebra::UnitQuaternion<f64>;
/// A translation.
pub type Translation3 = nalgebra::Translation3<f64>;
/// A quaternion (not necessarily unit).
pub type Quaternion = nalgebra::Quaternion<f64>;
/// A 3×3 matrix.
pub type Matrix3 = nalgebra::Matrix3<f64>;
