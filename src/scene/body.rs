use super::InertiaSpec;
use crate::contact::ContactSpec;
use crate::geometry::mass_properties::MassProperties;
use crate::geometry::{GeometryError, Shape};
use crate::math::{Isometry3, Matrix3, Point3, Twist, Vector3};

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
    /// The inertia tensor (kg·m², body-frame axes) as given: `inertia = [Ixx, Iyy, Izz]` (the
    /// diagonal) or `[Ixx, Iyy, Izz, Ixy, Ixz, Iyz]` (the full tensor), about the body-frame
    /// origin without `center_of_mass`, about the centre of mass with it. `None`: from the shape.
    pub inertia: Option<InertiaSpec>,
    /// The centre of mass in the body frame (`center_of_mass`); `None`: the shape's centroid.
    pub center_of_mass: Option<Point3>,
    /// Body frame in the world (`position`, `orientation`); the rotation is normalised.
    pub pose: Isometry3,
    /// Initial velocity (`linear_velocity`, `angular_velocity`), both in the world frame.
    pub twist: Twist,
    /// `None`: the body has no shape and touches nothing (a link with only mass properties:
    /// `mass` and `inertia`, or planar `moment_of_inertia`, are then given).
    pub shape: Option<Shape>,
    /// The shape's pose in the body frame (`shape.position`, `shape.orientation`); identity by
    /// default and without a shape.
    pub shape_pose: Isometry3,
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

impl BodySpec {
    /// The mass, centre of mass (body frame) and inertia about it (body-frame axes) of a body that
    /// moves freely, from its keys and its shape:
    ///
    /// - the mass is `mass`, or `density` times the shape's volume;
    /// - the centre of mass is `center_of_mass`, else the shape's centroid (placed by
    ///   `shape_pose`);
    /// - the inertia: [`InertiaSpec::AboutOrigin`] moved to that centre of mass;
    ///   [`InertiaSpec::AboutCenterOfMass`] as given; without `inertia`, the shape's own
    ///   central inertia for the mass (rotated by `shape_pose`) — also when `center_of_mass` is
    ///   given, taken about that point as it is;
    /// - a planar body's `moment_of_inertia` scales the lamina's tensor to it.
    ///
    /// A body without a shape has its mass and inertia given (validated); its centre of mass
    /// defaults to the body-frame origin, and a planar one's tensor is `moment_of_inertia` on
    /// every axis (only the one about y acts).
    pub fn mass_properties(&self) -> Result<(f64, Point3, Matrix3), GeometryError> {
        let props = match &self.shape {
            Some(shape) => {
                let mut props = MassProperties::of_shape(shape)?;
                if self.shape_pose != Isometry3::identity() {
                    let r = self.shape_pose.rotation.to_rotation_matrix().into_inner();
                    props.centroid = self.shape_pose * props.centroid;
                    props.unit_inertia = r * props.unit_inertia * r.transpose();
                }
                Some(props)
            }
            None => None,
        };
        let mass = match (self.density, &props) {
            (Some(density), Some(props)) => density * props.volume,
            _ => self.mass.unwrap_or(0.0),
        };
        let com =
            self.center_of_mass.unwrap_or_else(|| props.as_ref().map_or(Point3::origin(), |p| p.centroid));
        let mut inertia = match &self.inertia {
            // Given about the body-frame origin: move it to the centre of mass.
            Some(InertiaSpec::AboutOrigin(i)) => {
                let c = com.coords;
                i - mass * (Matrix3::identity() * c.norm_squared() - c * c.transpose())
            }
            Some(InertiaSpec::AboutCenterOfMass(i)) => *i,
            None => props.as_ref().map_or(Matrix3::zeros(), |p| p.inertia_for_mass(mass)),
        };
        // A planar body's J about y through the centroid: the lamina's tensor scaled to it.
        if let Some(j) = self.moment_of_inertia {
            inertia = match &props {
                Some(props) => {
                    let lamina = props.inertia_for_mass(mass);
                    lamina * (j / lamina[(1, 1)])
                }
                None => Matrix3::identity() * j,
            };
        }
        Ok((mass, com, inertia))
    }
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
