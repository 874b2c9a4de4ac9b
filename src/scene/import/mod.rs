//! Robot files brought into a scene: URDF (`urdf.rs`) and MJCF (`mjcf/`) read into one
//! [`RobotModel`], which `scene::robot` turns into the same body, joint, actuator and coupler
//! specs a hand-written scene has. Readers never touch the dynamics.

mod error;
mod mjcf;
mod robot_model;

pub use error::ImportError;
pub use mjcf::read_mjcf;
pub use robot_model::{
    Geometry, JointType, Keyframe, RobotActuator, RobotCoupler, RobotFormat, RobotJoint, RobotLink,
    RobotModel,
};
