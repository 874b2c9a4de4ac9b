//! Robot files brought into a scene: URDF (`urdf/`) and MJCF (`mjcf/`) read into one
//! [`RobotModel`], which `scene::robot` turns into the same body, joint, actuator and coupler
//! specs a hand-written scene has. Readers never touch the dynamics.

mod error;
mod mjcf;
mod robot_model;
mod urdf;

pub use error::ImportError;
pub use mjcf::read_mjcf;
pub use robot_model::{
    Geometry, JointType, Keyframe, RobotActuator, RobotCoupler, RobotFormat, RobotJoint, RobotLink,
    RobotModel,
};
pub use urdf::read_urdf;

use std::path::{Path, PathBuf};

/// Reads a robot file by its extension: `.urdf`, or `.xml` / `.mjcf` (MJCF). `package_paths`:
/// where a URDF's `package://NAME/…` resolves (after them, `CONTACTLAB_PACKAGE_PATH`).
pub fn read_robot(path: &Path, package_paths: &[PathBuf]) -> Result<RobotModel, ImportError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "urdf" => read_urdf(path, package_paths),
        "xml" | "mjcf" => read_mjcf(path),
        _ => Err(ImportError::Invalid {
            path: path.to_path_buf(),
            line: 1,
            element: "robot".into(),
            attribute: String::new(),
            problem: format!("the extension `.{ext}` is not a robot file contactlab reads"),
            fix: "give a URDF file (.urdf) or an MJCF file (.xml)".into(),
        }),
    }
}
