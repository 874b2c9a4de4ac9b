//! Robot files brought into a scene: URDF (`urdf/`) and MJCF (`mjcf.rs`) read into one
//! [`RobotModel`], which `scene::robot` turns into the same body, joint, actuator and coupler
//! specs a hand-written scene has. Readers never touch the dynamics.

mod error;
mod robot_model;
mod urdf;

pub use error::ImportError;
pub use robot_model::{
    Geometry, JointType, Keyframe, RobotActuator, RobotCoupler, RobotFormat, RobotJoint, RobotLink,
    RobotModel,
};
pub use urdf::read_urdf;
