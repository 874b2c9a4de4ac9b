//! Small dense math: nalgebra `f64` types, planes, wrenches and twists, a 6×6 solve; and the
//! counted parallel sections the layers above run their work in.

mod compact;
mod disjoint_sets;
mod lu6;
pub mod parallel;
mod plane;
mod types;
mod wrench;

pub use compact::compact;
pub use disjoint_sets::DisjointSets;
pub use lu6::solve6;
pub use plane::Plane;
pub use types::{Isometry3, Matrix3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
pub use wrench::{Twist, Wrench};
