use crate::contact::ContactSpec;
use crate::geometry::Shape;
use crate::math::{Isometry3, Twist, Vector3};

/// One body of a scene, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec {
    /// Unique, non-empty.
    pub name: String,
    /// Fixed bodies never move.
    pub fixed: bool,
    /// Mass (kg); at most one of `mass` and `density` is set.
    pub mass: Option<f64>,
    /// Density (kg/m³); the mass then follows from the shape's volume.
    pub density: Option<f64>,
    /// Principal moments of inertia (kg·m²) about the body-frame axes through the body-frame
    /// origin, i.e. the diagonal of the body-frame inertia tensor. `None`: computed from the shape.
    pub inertia: Option<[f64; 3]>,
    /// Body frame in the world (`position`, `orientation`); the rotation is normalised.
    pub pose: Isometry3,
    /// Initial velocity (`linear_velocity`, `angular_velocity`), both in the world frame.
    pub twist: Twist,
    pub shape: Shape,
    pub contact: ContactSpec,
    /// Constant applied force (N, world frame) at the centre of mass. Default 0.
    pub force: Vector3,
    /// Constant applied torque (N·m, world frame). Default 0.
    pub torque: Vector3,
    /// A prescribed motion: the body follows it whatever the forces (`None`: free or fixed).
    pub kinematic: Option<Kinematic>,
    /// PEG model: the time (s, ≥ 0) from which the body takes part; before it the body is not
    /// simulated, touches nothing and has no output rows. Default 0.
    pub appear_time: f64,
    /// Planar scenes: the moment of inertia about y through the centroid (kg·m²); `None`:
    /// that of a uniform lamina of the body's mass.
    pub moment_of_inertia: Option<f64>,
}

/// A prescribed motion of a kinematic body.
#[derive(Clone, Debug, PartialEq)]
pub enum Kinematic {
    /// Constant velocity from the initial pose: linear (of the body-frame origin) and angular,
    /// both in the world frame.
    Constant(Twist),
    /// Piecewise-linear positions and spherically interpolated orientations between keyframes
    /// (strictly increasing times); the pose holds before the first and after the last.
    Keyframes(Vec<Keyframe>),
}

/// A pose at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyframe {
    pub t: f64,
    pub pose: Isometry3,
}
