//! The MJCF reader on dm_control's models, on hand-written models with hand-computed frames and
//! inertias, on broken files (each with the error it must give), and on mutated copies of the
//! dm_control files (it must never panic or hang).

mod common;

use common::Rng;
use contactlab::geometry::Shape;
use contactlab::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use contactlab::scene::import::{ImportError, JointType, RobotJoint, RobotLink, RobotModel, read_mjcf};
use contactlab::scene::{ActuatorKind, Schedule};
use std::f64::consts::PI;
use std::path::{Path, PathBuf};

fn suite(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("robots/dm_control/suite").join(format!("{name}.xml"))
}

/// A fresh folder for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-mjcf-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn link<'m>(m: &'m RobotModel, name: &str) -> &'m RobotLink {
    m.links.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("no link {name}"))
}

fn joint<'m>(m: &'m RobotModel, name: &str) -> &'m RobotJoint {
    m.joints.iter().find(|j| j.name == name).unwrap_or_else(|| panic!("no joint {name}"))
}

fn assert_close(what: &str, a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b} (|diff| {:e} > {tol:e})", (a - b).abs());
}

fn assert_matrix(what: &str, a: &Matrix3, b: &Matrix3, tol: f64) {
    let d = (a - b).abs().max();
    assert!(d <= tol, "{what}: {a} vs {b} (max |diff| {d:e})");
}

fn assert_pose(what: &str, a: &Isometry3, b: &Isometry3, tol: f64) {
    let dt = (a.translation.vector - b.translation.vector).abs().max();
    let dr = (a.rotation.to_rotation_matrix().into_inner() - b.rotation.to_rotation_matrix().into_inner())
        .abs()
        .max();
    assert!(dt <= tol && dr <= tol, "{what}: {a} vs {b} (translation {dt:e}, rotation {dr:e})");
}

fn t(x: f64, y: f64, z: f64) -> Isometry3 {
    Isometry3::from_parts(Translation3::new(x, y, z), UnitQuaternion::identity())
}

fn rot(axis: Vector3, angle: f64) -> Isometry3 {
    Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle),
    )
}

/// MuJoCo's capsule of mass m, radius r and cylinder height h about its centre: (transverse,
/// axial) moments (the cylinder plus two hemispheres shifted along the axis).
fn capsule_moments(m: f64, r: f64, h: f64) -> (f64, f64) {
    let sphere = m * 4.0 * r / (4.0 * r + 3.0 * h);
    let cylinder = m - sphere;
    let transverse = cylinder * (3.0 * r * r + h * h) / 12.0
        + 0.4 * sphere * r * r
        + sphere * h * (3.0 * r + 2.0 * h) / 8.0;
    (transverse, cylinder * r * r / 2.0 + 0.4 * sphere * r * r)
}

fn capsule_volume(r: f64, h: f64) -> f64 {
    PI * r * r * h + 4.0 / 3.0 * PI * r.powi(3)
}

fn error_text(path: &Path) -> String {
    match read_mjcf(path) {
        Ok(_) => panic!("{} read without error", path.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn pendulum_pole_mass_and_joint_are_mujocos() {
    let m = read_mjcf(&suite("pendulum")).unwrap();
    assert_eq!((m.name.as_str(), m.links.len(), m.joints.len(), m.actuators.len()), ("pendulum", 1, 1, 1));
    // The base cylinder and the pole capsule have mass="0": only the sphere (mass 1, radius
    // 0.05 at z = 0.5) counts, 2/5 m r² about its centre.
    let pole = link(&m, "pole");
    assert_close("mass", pole.mass, 1.0, 1e-15);
    assert!((pole.center_of_mass - Point3::new(0.0, 0.0, 0.5)).norm() < 1e-15);
    assert_matrix("inertia", &pole.inertia, &Matrix3::from_diagonal_element(0.4 * 0.05 * 0.05), 1e-15);
    let hinge = joint(&m, "hinge");
    assert_eq!(
        (hinge.joint_type, hinge.parent.as_deref(), hinge.child.as_str()),
        (JointType::Revolute, None, "pole")
    );
    assert_pose("hinge origin", &hinge.origin, &t(0.0, 0.0, 0.6), 1e-15);
    assert_eq!((hinge.axis, hinge.limits, hinge.damping), (Vector3::y(), None, 0.1));
    let motor = &m.actuators[0];
    assert_eq!((motor.name.as_str(), motor.joint.as_str()), ("torque", "hinge"));
    assert_eq!(motor.kind, ActuatorKind::Motor { gear: 1.0, effort: Schedule::Constant(0.0) });
    assert_eq!(motor.effort_limit, Some(1.0));
    // Geoms: the cylinder's fromto runs along −y, so its z axis does; the capsule's length is
    // the cylinder part of its 0.5 m segment.
    let base = pole.collisions.iter().find(|g| g.name.as_deref() == Some("base")).unwrap();
    assert_eq!(base.shape, Shape::Cylinder { radius: 0.021, length: 0.06 });
    assert!((base.pose.rotation * Vector3::z() - Vector3::new(0.0, -1.0, 0.0)).norm() < 1e-15);
    let capsule = pole.collisions.iter().find(|g| g.name.as_deref() == Some("pole")).unwrap();
    assert_eq!(capsule.shape, Shape::Capsule { radius: 0.02, length: 0.5 });
    assert!((capsule.pose.translation.vector - Vector3::new(0.0, 0.0, 0.25)).norm() < 1e-15);
    // The floor plane is the world's half space; <option> is noted (contact is off in it).
    assert_eq!(m.world_collisions.len(), 1);
    assert_eq!(m.world_collisions[0].shape, Shape::HalfSpace);
    assert!(m.notes.iter().any(|n| n.contains("<option>") && n.contains("contact=disable")), "{:?}", m.notes);
}

#[test]
fn acrobot_links_take_capsule_inertia_about_their_centre() {
    let m = read_mjcf(&suite("acrobot")).unwrap();
    assert_eq!((m.links.len(), m.joints.len(), m.actuators.len()), (2, 2, 1));
    // Each arm: a capsule from z = 0 to 1 of mass 1 (the default class) and a massless
    // decoration; centre of mass halfway up.
    for (name, r) in [("upper_arm", 0.05), ("lower_arm", 0.049)] {
        let l = link(&m, name);
        let (it, ia) = capsule_moments(1.0, r, 1.0);
        assert_close(name, l.mass, 1.0, 1e-15);
        assert!((l.center_of_mass - Point3::new(0.0, 0.0, 0.5)).norm() < 1e-15);
        assert_matrix(name, &l.inertia, &Matrix3::from_diagonal(&Vector3::new(it, it, ia)), 1e-12);
    }
    let (shoulder, elbow) = (joint(&m, "shoulder"), joint(&m, "elbow"));
    assert_pose("shoulder", &shoulder.origin, &t(0.0, 0.0, 2.0), 1e-15);
    assert_pose("elbow", &elbow.origin, &t(0.0, 0.0, 1.0), 1e-15);
    assert_eq!(elbow.parent.as_deref(), Some("upper_arm"));
    assert_eq!((shoulder.damping, elbow.damping, elbow.axis), (0.05, 0.05, Vector3::y()));
    assert_eq!(m.actuators[0].kind, ActuatorKind::Motor { gear: 2.0, effort: Schedule::Constant(0.0) });
    assert_eq!(m.actuators[0].effort_limit, Some(2.0));
}

#[test]
fn cartpole_finger_and_manipulator_load_with_their_joints_and_exclusions() {
    let cartpole = read_mjcf(&suite("cartpole")).unwrap();
    assert_eq!((cartpole.links.len(), cartpole.joints.len(), cartpole.actuators.len()), (2, 2, 1));
    let slider = joint(&cartpole, "slider");
    assert_eq!(
        (slider.joint_type, slider.limits, slider.axis),
        (JointType::Prismatic, Some((-1.8, 1.8)), Vector3::x())
    );
    // The pole takes its joint and geom from class "pole" through childclass.
    assert_eq!(joint(&cartpole, "hinge_1").damping, 2e-6);
    assert_close("pole mass", link(&cartpole, "pole_1").mass, 0.1, 1e-15);
    assert_eq!(cartpole.world_collisions.len(), 3);

    let finger = read_mjcf(&suite("finger")).unwrap();
    assert_eq!((finger.links.len(), finger.joints.len(), finger.actuators.len()), (3, 3, 2));
    // The spinner: two capsules at x = ±0.02 and a decoration cylinder along y, density 1000.
    let hinge = joint(&finger, "hinge");
    assert_eq!(
        (hinge.joint_type, hinge.parent.as_deref(), hinge.child.as_str()),
        (JointType::Revolute, None, "spinner")
    );
    assert_eq!((hinge.axis, hinge.limits, hinge.damping, hinge.friction), (-Vector3::y(), None, 0.5, 0.1));
    assert_pose("hinge origin", &hinge.origin, &t(0.2, 0.0, 0.4), 1e-15);
    let (r, h) = (0.04, 0.18);
    let m_cap = 1000.0 * capsule_volume(r, h);
    let (it, ia) = capsule_moments(m_cap, r, h);
    let (rc, hc) = (0.02, 0.09);
    let m_cyl = 1000.0 * PI * rc * rc * hc;
    let (ct, ca) = (m_cyl * (3.0 * rc * rc + hc * hc) / 12.0, m_cyl * rc * rc / 2.0);
    let d2 = 0.02 * 0.02;
    let expected = Matrix3::from_diagonal(&Vector3::new(
        2.0 * it + ct,
        2.0 * (it + m_cap * d2) + ca,
        2.0 * (ia + m_cap * d2) + ct,
    ));
    let spinner = link(&finger, "spinner");
    assert_close("spinner mass", spinner.mass, 2.0 * m_cap + m_cyl, 1e-12);
    assert!(spinner.center_of_mass.coords.norm() < 1e-15);
    assert_matrix("spinner inertia", &spinner.inertia, &expected, 1e-12);
    // ref="-90": the coordinate keeps MuJoCo's meaning, so the joint frame is turned by +90°.
    let proximal = joint(&finger, "proximal");
    assert_close("ref", proximal.position, -PI / 2.0, 1e-15);
    let limit = 110.0 / 180.0 * PI;
    assert_eq!(proximal.limits, Some((-limit, limit)));
    assert_pose(
        "proximal origin",
        &proximal.origin,
        &(t(-0.2, 0.0, 0.4) * rot(-Vector3::y(), PI / 2.0)),
        1e-15,
    );
    // The distal capsule has contype = conaffinity = 0: not a collision.
    assert_eq!(link(&finger, "distal").collisions.len(), 1);
    assert!(finger.notes.iter().any(|n| n.contains("1 visual-only geoms")), "{:?}", finger.notes);

    let manipulator = read_mjcf(&suite("manipulator")).unwrap();
    // 16 bodies and the 4 massless links between the ball's and the peg's three joints; 14
    // joints and 6 welds; the grasp motor drives a tendon and is skipped with a note.
    assert_eq!((manipulator.links.len(), manipulator.joints.len(), manipulator.actuators.len()), (20, 20, 4));
    assert_eq!(joint(&manipulator, "ball_z").parent.as_deref(), Some("ball/ball_x"));
    assert_eq!(joint(&manipulator, "ball_y").child, "ball");
    assert_eq!(link(&manipulator, "ball/ball_z").mass, 0.0);
    assert_eq!(joint(&manipulator, "slot/weld").joint_type, JointType::Fixed);
    assert!(
        manipulator.notes.iter().any(|n| n.contains("tendons") && n.contains("'grasp'")),
        "{:?}",
        manipulator.notes
    );
    // The slot and the cup are welded to the world: MuJoCo never collides them with it or each
    // other. The ghost targets have no collision geoms at all.
    let pairs: Vec<(&str, &str)> =
        manipulator.excludes.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(pairs, vec![("world", "slot"), ("world", "cup"), ("slot", "cup")]);
    assert!(link(&manipulator, "target_peg").collisions.is_empty());
}

/// A 3-link arm with body frames turned by euler, axisangle and xyaxes, joint anchors off the
/// body origins, explicit full and rotated inertias, a geom's inertia, nested default classes
/// through childclass, and a joint with a ref.
const ARM: &str = r#"
<mujoco model="arm3">
  <default>
    <joint damping="0.5"/>
    <default class="arm">
      <joint type="hinge" axis="0 1 0" range="-90 90" armature="0.02"/>
      <geom type="box" size="0.05 0.05 0.2"/>
      <default class="wrist">
        <joint damping="0.25" ref="30"/>
      </default>
    </default>
  </default>
  <worldbody>
    <body name="l1" pos="0 0 1" euler="30 0 0" childclass="arm">
      <joint name="j1" pos="0 0 0.1" axis="0 0 1"/>
      <inertial pos="0.1 0.2 0.3" mass="2" fullinertia="0.5 0.6 0.7 0.01 0.02 0.03"/>
      <body name="l2" pos="0 0 0.4" axisangle="1 1 0 45">
        <joint name="j2" pos="0.05 0 0"/>
        <inertial pos="0 0 0.2" quat="1 0 0 1" mass="1" diaginertia="0.1 0.2 0.25"/>
        <body name="l3" pos="0 0 0.4" xyaxes="0 1 0 -1 0 0">
          <joint name="j3" class="wrist" pos="0 0.02 0"/>
          <geom pos="0 0 0.2" mass="3"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"#;

#[test]
fn rotated_arm_joint_frames_and_inertias_are_hand_computed() {
    let dir = temp_dir("arm");
    let m = read_mjcf(&write(&dir, "arm.xml", ARM)).unwrap();
    let deg = PI / 180.0;
    let (j1, j2, j3) = (joint(&m, "j1"), joint(&m, "j2"), joint(&m, "j3"));
    // j1: body pose (euler xyz: 30° about x), then the anchor (0, 0, 0.1) in the body frame.
    assert_pose(
        "j1",
        &j1.origin,
        &(t(0.0, 0.0, 1.0) * rot(Vector3::x(), 30.0 * deg) * t(0.0, 0.0, 0.1)),
        1e-12,
    );
    assert_eq!(
        (j1.axis, j1.limits, j1.damping, j1.armature),
        (Vector3::z(), Some((-PI / 2.0, PI / 2.0)), 0.5, 0.02)
    );
    // l1's link frame sits at j1's anchor: its body frame is 0.1 below in it.
    let l1 = link(&m, "l1");
    assert_close("l1 mass", l1.mass, 2.0, 0.0);
    assert!((l1.center_of_mass - Point3::new(0.1, 0.2, 0.2)).norm() < 1e-12);
    assert_matrix("l1", &l1.inertia, &Matrix3::new(0.5, 0.01, 0.02, 0.01, 0.6, 0.03, 0.02, 0.03, 0.7), 1e-12);
    // j2: in l1's link frame, back to l1's body frame, the body pose (45° about (1, 1, 0)),
    // the anchor.
    let j2_expected = t(0.0, 0.0, -0.1)
        * t(0.0, 0.0, 0.4)
        * rot(Vector3::new(1.0, 1.0, 0.0), 45.0 * deg)
        * t(0.05, 0.0, 0.0);
    assert_pose("j2", &j2.origin, &j2_expected, 1e-12);
    assert_eq!(j2.axis, Vector3::y());
    // l2's inertial turned 90° about z: diag(0.1, 0.2, 0.25) → diag(0.2, 0.1, 0.25).
    let l2 = link(&m, "l2");
    assert!((l2.center_of_mass - Point3::new(-0.05, 0.0, 0.2)).norm() < 1e-12);
    assert_matrix("l2", &l2.inertia, &Matrix3::from_diagonal(&Vector3::new(0.2, 0.1, 0.25)), 1e-12);
    // j3 (class wrist, nested in arm): xyaxes x = y0, y = −x0 is 90° about z; ref 30° turns
    // the joint frame back by 30° about the axis so that q = ref is the file's pose.
    let j3_expected = t(-0.05, 0.0, 0.0)
        * t(0.0, 0.0, 0.4)
        * rot(Vector3::z(), 90.0 * deg)
        * t(0.0, 0.02, 0.0)
        * rot(Vector3::y(), -30.0 * deg);
    assert_pose("j3", &j3.origin, &j3_expected, 1e-12);
    assert_close("j3 position", j3.position, 30.0 * deg, 1e-15);
    assert_eq!((j3.damping, j3.armature, j3.limits), (0.25, 0.02, Some((-PI / 2.0, PI / 2.0))));
    // l3: the class's box (0.1 × 0.1 × 0.4 m, mass 3) at z = 0.2 of the body, 0.02 off the
    // anchor in y.
    let l3 = link(&m, "l3");
    assert!((l3.center_of_mass - Point3::new(0.0, -0.02, 0.2)).norm() < 1e-12);
    let (side, end) = (3.0 / 12.0 * (0.01 + 0.16), 3.0 / 12.0 * 0.02);
    assert_matrix("l3", &l3.inertia, &Matrix3::from_diagonal(&Vector3::new(side, side, end)), 1e-12);
    assert_eq!(l3.collisions[0].shape, Shape::Box { size: [0.1, 0.1, 0.4] });
    assert!((l3.collisions[0].pose.translation.vector - Vector3::new(0.0, -0.02, 0.2)).norm() < 1e-12);
}

/// contype/conaffinity, explicit excludes, several joints in a body, a free body, keyframes,
/// couplers and the actuator kinds.
const MIXED: &str = r#"
<mujoco model="mixed">
  <compiler angle="radian"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="a" pos="0 0 1">
      <joint name="ja" axis="1 0 0"/>
      <geom type="sphere" size="0.1" contype="2" conaffinity="2"/>
      <body name="b" pos="0 0 0.5">
        <joint name="jb" axis="1 0 0"/>
        <geom type="sphere" size="0.1"/>
      </body>
    </body>
    <body name="c" pos="1 0 1">
      <joint name="cx" type="slide" axis="1 0 0" ref="0.5"/>
      <joint name="cy" type="slide" axis="0 1 0"/>
      <geom type="sphere" size="0.1" contype="4" conaffinity="1"/>
    </body>
    <body name="box" pos="0 2 1" quat="0 0 0 1">
      <freejoint name="free"/>
      <geom type="box" size="0.1 0.2 0.3"/>
    </body>
  </worldbody>
  <contact>
    <exclude body1="b" body2="box"/>
  </contact>
  <equality>
    <joint joint1="jb" joint2="ja" polycoef="0.1 2 0 0 0"/>
  </equality>
  <actuator>
    <position name="p" joint="ja" kp="100" kv="10"/>
    <velocity name="v" joint="cy" kv="3" gear="2"/>
    <general name="g" joint="cx" gainprm="7" biastype="affine" biasprm="0 -7 -1" forcerange="-5 5"/>
    <motor name="m" joint="jb" gear="3" ctrlrange="-2 2" forcerange="-4 4"/>
  </actuator>
  <keyframe>
    <key name="home" qpos="0.1 0.2 0.6 0.7 1 3 2 0 0 0 1" qvel="1 2 3 4 1 0 0 0 0 1"/>
  </keyframe>
</mujoco>
"#;

#[test]
fn masks_couplers_keyframes_and_actuators_map_to_ours() {
    let dir = temp_dir("mixed");
    let m = read_mjcf(&write(&dir, "mixed.xml", MIXED)).unwrap();
    // a (2/2) never meets b, c or the box (1/1, 4/1, 1/1): (2 & 1) = (1 & 2) = (4 & 2) = 0. a and
    // b are joined by jb anyway; c (4/1) and b, box, floor (1/1) do meet through b's contype.
    let pairs: Vec<(&str, &str)> = m.excludes.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(pairs, vec![("b", "box"), ("world", "a"), ("a", "c"), ("a", "box")]);
    // Two slides in c: a massless link c/cx between them; cx's ref shifts its joint frame.
    assert_eq!(joint(&m, "cy").parent.as_deref(), Some("c/cx"));
    assert_pose("cx", &joint(&m, "cx").origin, &t(0.5, 0.0, 1.0), 1e-15);
    assert_eq!(joint(&m, "cx").position, 0.5);
    // The free body's origin is its pose in the file; its keyframe is relative to it.
    let free = joint(&m, "free");
    assert_eq!((free.joint_type, free.parent.as_deref()), (JointType::Free, None));
    assert_pose(
        "free",
        &free.origin,
        &Isometry3::from_parts(
            Translation3::new(0.0, 2.0, 1.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), PI),
        ),
        1e-15,
    );
    let key = &m.keyframes[0];
    let q = |name: &str| key.positions.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!((q("ja"), q("jb"), q("cx"), q("cy")), (vec![0.1], vec![0.2], vec![0.6], vec![0.7]));
    // World (1, 3, 2) with the box turned 180° about z at (0, 2, 1): (−1, −1, 1) in its origin.
    let fq = q("free");
    for (k, e) in [-1.0, -1.0, 1.0].iter().enumerate() {
        assert_close("free q", fq[k], *e, 1e-15);
    }
    let fv = &key.velocities.iter().find(|(n, _)| n == "free").unwrap().1;
    assert!((fv[0] + 1.0).abs() < 1e-15 && fv[1].abs() < 1e-15 && (fv[5] - 1.0).abs() < 1e-15, "{fv:?}");
    // jb − jb0 = 0.1 + 2 (ja − ja0) with both references 0.
    let c = &m.couplers[0];
    assert_eq!((c.joint.as_str(), c.follows.as_str(), c.ratio, c.offset), ("jb", "ja", 2.0, 0.1));
    let kind = |name: &str| m.actuators.iter().find(|a| a.name == name).unwrap();
    let zero = Schedule::Constant(0.0);
    assert_eq!(
        kind("p").kind,
        ActuatorKind::Position { kp: 100.0, kd: 10.0, target: zero.clone(), target_velocity: zero.clone() }
    );
    // Through a gear of 2 the joint sees 2² times the servo's gain.
    assert_eq!(kind("v").kind, ActuatorKind::Velocity { kd: 12.0, target: zero.clone() });
    assert_eq!(
        kind("g").kind,
        ActuatorKind::Position { kp: 7.0, kd: 1.0, target: zero.clone(), target_velocity: zero.clone() }
    );
    assert_eq!(kind("g").effort_limit, Some(5.0));
    // The motor: ctrl ±2 × gear 3 = 6, force ±4 × gear 3 = 12: the smaller.
    assert_eq!(kind("m").kind, ActuatorKind::Motor { gear: 3.0, effort: zero });
    assert_eq!(kind("m").effort_limit, Some(6.0));
}

#[test]
fn mesh_geoms_are_scaled_convex_hulls() {
    let dir = temp_dir("mesh");
    let stl = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("robots/example-robot-data/robots/allegro_hand_description/meshes/link_3.0.STL");
    std::fs::copy(&stl, dir.join("tip.stl")).unwrap();
    let xml = r#"<mujoco><compiler meshdir="."/>
      <asset><mesh name="tip" file="tip.stl" scale="2 2 2" inertia="convex"/></asset>
      <worldbody><body name="b"><geom type="mesh" mesh="tip" density="1000"/></body></worldbody></mujoco>"#;
    let m = read_mjcf(&write(&dir, "mesh.xml", xml)).unwrap();
    let b = link(&m, "b");
    let Shape::Convex { points, .. } = &b.collisions[0].shape else { panic!("{:?}", b.collisions[0].shape) };
    let raw = contactlab::geometry::mesh_io::read_points(&dir.join("tip.stl")).unwrap();
    assert_eq!(points.len(), raw.len());
    assert!((points[0].coords - raw[0].coords * 2.0).norm() < 1e-15);
    let hull =
        contactlab::geometry::mass_properties::MassProperties::of_shape(&b.collisions[0].shape).unwrap();
    assert_close("mass", b.mass, 1000.0 * hull.volume, 1e-12 * b.mass);
}

#[test]
fn deep_body_chains_load_and_deeper_ones_are_refused() {
    let dir = temp_dir("deep");
    let chain = |n: usize| {
        let open: String = (0..n)
            .map(|k| format!("<body name=\"b{k}\" pos=\"0 0 0.1\"><joint/><geom size=\"0.01\"/>"))
            .collect();
        format!("<mujoco><worldbody>{open}{}</worldbody></mujoco>", "</body>".repeat(n))
    };
    let m = read_mjcf(&write(&dir, "ok.xml", &chain(150))).unwrap();
    assert_eq!(m.links.len(), 150);
    let text = error_text(&write(&dir, "deep.xml", &chain(400)));
    assert!(text.contains("nested more than"), "{text}");
}

/// Each broken file, the words its error must contain.
#[test]
fn broken_files_give_errors_that_say_what_and_where() {
    let dir = temp_dir("broken");
    let wrap = |body: &str| format!("<mujoco>\n<worldbody>\n{body}\n</worldbody>\n</mujoco>\n");
    let pendulum = std::fs::read_to_string(suite("pendulum")).unwrap();
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("unclosed.xml", wrap("<body name=\"a\">\n<geom size=\"1\"/>"), vec!["unclosed.xml", "not well-formed XML", "line"]),
        ("truncated.xml", pendulum[..pendulum.len() / 2].to_string(), vec!["truncated.xml line", "not well-formed XML"]),
        ("empty.xml", String::new(), vec!["empty.xml", "not well-formed XML"]),
        ("urdf.xml", "<robot name=\"r\"/>".into(), vec!["<robot>", "not an MJCF file"]),
        ("joint_type.xml", wrap("<body name=\"a\">\n<joint name=\"j\" type=\"spiral\"/>\n</body>"), vec!["joint_type.xml line 4", "<joint 'j'> `type`", "\"spiral\" is not known", "free, ball, slide, hinge"]),
        ("nan.xml", wrap("<body name=\"a\" pos=\"0 nan 1\"/>"), vec!["line 3", "<body 'a'> `pos`", "`nan` is not a finite number"]),
        ("garbage.xml", wrap("<body name=\"a\"><geom size=\"0.1x\"/></body>"), vec!["`size`", "`0.1x` is not a number"]),
        ("mass.xml", wrap("<body name=\"a\"><joint/><geom name=\"g\" size=\"0.1\" mass=\"-1\"/></body>"), vec!["<geom 'g'> `mass`", "negative"]),
        ("inertial.xml", wrap("<body name=\"a\"><joint/><inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 3\"/></body>"), vec!["<inertial>", "A + B ≥ C", "balanceinertia"]),
        ("class.xml", wrap("<body name=\"a\"><joint class=\"nope\"/></body>"), vec!["`class`", "'nope'", "no <default> defines"]),
        ("mesh.xml", format!("<mujoco><asset><mesh name=\"m\" file=\"gone.stl\"/></asset>{}</mujoco>", "<worldbody><body name=\"a\"><geom type=\"mesh\" mesh=\"m\"/></body></worldbody>"), vec!["<mesh 'm'>", "gone.stl", "not found", "looked in"]),
        ("include.xml", "<mujoco>\n<include file=\"nowhere.xml\"/>\n</mujoco>".into(), vec!["include.xml line 2", "nowhere.xml", "not found"]),
        ("cycle_a.xml", "<mujoco>\n<include file=\"cycle_b.xml\"/>\n</mujoco>".into(), vec!["cycle_b.xml line 2", "cycle", "cycle_a.xml → ", "cycle_b.xml → ", "remove the include"]),
        ("general.xml", format!("{}<actuator><general name=\"g\" joint=\"j\" gaintype=\"affine\" gainprm=\"1 0 -1\"/></actuator></mujoco>", wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/></body>").trim_end().trim_end_matches("</mujoco>")), vec!["<general 'g'> `gaintype`", "not supported", "use <motor>"]),
        ("bias.xml", format!("{}<actuator><general name=\"g\" joint=\"j\" biastype=\"affine\" biasprm=\"1 -2 0\"/></actuator></mujoco>", wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/></body>").trim_end().trim_end_matches("</mujoco>")), vec!["`biasprm`", "neither a motor"]),
        ("site.xml", format!("{}<actuator><motor name=\"s\" site=\"x\"/></actuator></mujoco>", wrap("<body name=\"a\"><joint/><geom size=\"1\"/></body>").trim_end().trim_end_matches("</mujoco>")), vec!["<motor 's'> `site`", "site transmission is not supported"]),
        ("actuator_joint.xml", format!("{}<actuator><motor name=\"t\" joint=\"nope\"/></actuator></mujoco>", wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/></body>").trim_end().trim_end_matches("</mujoco>")), vec!["`joint`", "joint 'nope'", "does not define"]),
        ("equality.xml", format!("{}<equality><joint joint1=\"j\" joint2=\"k\" polycoef=\"0 1 0.5 0 0\"/></equality></mujoco>", wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/><body name=\"b\"><joint name=\"k\"/><geom size=\"1\"/></body></body>").trim_end().trim_end_matches("</mujoco>")), vec!["`polycoef`", "nonlinear"]),
        ("key.xml", format!("{}<keyframe><key qpos=\"1 2\"/></keyframe></mujoco>", wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/></body>").trim_end().trim_end_matches("</mujoco>")), vec!["`qpos`", "has 2 numbers", "take 1", "hinge 'j' 1"]),
        ("free.xml", wrap("<body name=\"a\"><joint/><geom size=\"1\"/><body name=\"b\"><freejoint/><geom size=\"1\"/></body></body>"), vec!["<freejoint>", "not a child of <worldbody>"]),
        ("plane.xml", wrap("<body name=\"a\"><joint/><geom type=\"plane\" size=\"1 1 1\"/></body>"), vec!["plane", "moves"]),
        ("autolimits.xml", format!("<mujoco><compiler autolimits=\"false\"/>{}", wrap("<body name=\"a\"><joint name=\"j\" range=\"0 1\"/><geom size=\"1\"/></body>").trim_start_matches("<mujoco>")), vec!["<joint 'j'> `range`", "limited"]),
        ("fromto.xml", wrap("<body name=\"a\"><geom type=\"sphere\" size=\"1\" fromto=\"0 0 0 0 0 1\"/></body>"), vec!["`fromto`", "sphere"]),
        ("duplicate.xml", wrap("<body name=\"a\"><geom size=\"1\"/></body><body name=\"a\"><geom size=\"1\"/></body>"), vec!["body 'a' is defined twice"]),
        ("unknown.xml", wrap("<body name=\"a\"><gom size=\"1\"/></body>"), vec!["<gom>", "not an element a body can hold"]),
    ];
    write(&dir, "cycle_b.xml", "<mujoco>\n<include file=\"cycle_a.xml\"/>\n</mujoco>");
    for (name, text, expected) in &cases {
        let message = error_text(&write(&dir, name, text));
        for e in expected {
            assert!(message.contains(e), "{name}: expected `{e}` in:\n{message}");
        }
    }
    // A tendon's actuator is skipped with a note (tendons are not supported), not an error.
    let tendon = format!(
        "{}<tendon><fixed name=\"t\"><joint joint=\"j\" coef=\"1\"/></fixed></tendon><actuator><motor name=\"tm\" tendon=\"t\"/></actuator></mujoco>",
        wrap("<body name=\"a\"><joint name=\"j\"/><geom size=\"1\"/></body>")
            .trim_end()
            .trim_end_matches("</mujoco>")
    );
    let m = read_mjcf(&write(&dir, "tendon.xml", &tendon)).unwrap();
    assert!(m.actuators.is_empty() && m.notes.iter().any(|n| n.contains("'tm'")), "{:?}", m.notes);
    // A misspelt attribute is a warning naming it.
    let m = read_mjcf(&write(
        &dir,
        "typo.xml",
        &wrap("<body name=\"a\"><joint dampnig=\"1\"/><geom size=\"1\"/></body>"),
    ))
    .unwrap();
    assert!(m.warnings.iter().any(|w| w.contains("`dampnig`")), "{:?}", m.warnings);
    // The read error for a file that is not there.
    assert!(matches!(read_mjcf(&dir.join("absent.xml")), Err(ImportError::Read { .. })));
}

/// One random edit of an MJCF text: mostly values and attributes (which keep it well-formed
/// and reach the reader's checks), sometimes lines, tags and truncation.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const VALUES: [&str; 16] = [
        "nan",
        "inf",
        "-1",
        "0",
        "1e308",
        "-0",
        "",
        "abc",
        "3 4 5 6 7 8 9",
        "1e31",
        "0 0 0 0",
        "true",
        "free",
        "world",
        "mesh",
        "general",
    ];
    const NUMBERS: [&str; 9] = ["-2", "0", "0.5", "1e-20", "1e20", "90", "-90", "1e-300", "7"];
    const SNIPPETS: [&str; 12] = [
        "<include file=\"self.xml\"/>",
        "<body>",
        "</body>",
        "<joint type=\"free\"/>",
        "<freejoint/>",
        "<geom type=\"mesh\" mesh=\"x\"/>",
        "<default class=\"x\"><joint/></default>",
        "<frame euler=\"0 90 0\"><body><joint/><geom size=\"1\"/></body></frame>",
        "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>",
        "<position joint=\"hinge\" kp=\"1\"/>",
        "<key qpos=\"0\"/>",
        "<exclude body1=\"world\" body2=\"pole\"/>",
    ];
    // The byte spans of the quoted values (the quotes excluded).
    let quotes: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
    let values: Vec<(usize, usize)> = quotes.chunks_exact(2).map(|q| (q[0] + 1, q[1])).collect();
    let splice = |(a, b): (usize, usize), with: &str| format!("{}{with}{}", &text[..a], &text[b..]);
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let n = lines.len().max(1);
    match rng.below(12) {
        0 => {
            let (start, len) = (rng.below(text.len()), 1 + rng.below(20));
            return text
                .chars()
                .enumerate()
                .filter(|(k, _)| *k < start || *k >= start + len)
                .map(|(_, c)| c)
                .collect();
        }
        1 => {
            let k = rng.below(n);
            let line = lines.get(k).cloned().unwrap_or_default();
            lines.insert(k, line);
        }
        2..=4 if !values.is_empty() => {
            return splice(values[rng.below(values.len())], VALUES[rng.below(VALUES.len())]);
        }
        5 if !values.is_empty() => {
            let (a, b) = values[rng.below(values.len())];
            let mut tokens: Vec<&str> = text[a..b].split_whitespace().collect();
            if !tokens.is_empty() {
                let k = rng.below(tokens.len());
                tokens[k] = NUMBERS[rng.below(NUMBERS.len())];
            }
            return splice((a, b), &tokens.join(" "));
        }
        6 if !values.is_empty() => {
            // Remove one attribute: back from its value over `="` and its name.
            let (a, b) = values[rng.below(values.len())];
            let name_start = text[..a - 2].rfind(|c: char| c.is_whitespace()).map_or(a - 2, |i| i + 1);
            return splice((name_start, b + 1), "");
        }
        7 => return text.chars().take(rng.below(text.chars().count())).collect(),
        8 => {
            let (a, b) = (rng.below(n), rng.below(n));
            if a < lines.len() && b < lines.len() {
                lines.swap(a, b);
            }
        }
        9 | 10 => {
            let k = rng.below(n);
            lines.insert(k.min(lines.len()), SNIPPETS[rng.below(SNIPPETS.len())].to_owned());
        }
        _ => {
            const TAGS: [&str; 8] =
                ["body", "joint", "geom", "site", "inertial", "frame", "motor", "default"];
            let (from, to) = (TAGS[rng.below(TAGS.len())], TAGS[rng.below(TAGS.len())]);
            return text.replacen(&format!("<{from} "), &format!("<{to} "), 1 + rng.below(3));
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_dm_control_files_never_panic_or_hang() {
    let dir = temp_dir("fuzz");
    std::fs::create_dir_all(dir.join("common")).unwrap();
    for common in ["materials.xml", "skybox.xml", "visual.xml"] {
        std::fs::copy(
            suite("pendulum").with_file_name("common").join(common),
            dir.join("common").join(common),
        )
        .unwrap();
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut errors) = (0, 0);
    let started = std::time::Instant::now();
    for name in ["pendulum", "acrobot", "cartpole", "finger", "manipulator"] {
        let original = std::fs::read_to_string(suite(name)).unwrap();
        for variant in 0..100 {
            let mut text = original.clone();
            for _ in 0..1 + rng.below(3) {
                text = mutate(&text, &mut rng);
            }
            let path = write(&dir, "self.xml", &text);
            let t0 = std::time::Instant::now();
            let result = std::panic::catch_unwind(|| read_mjcf(&path).map_err(|e| e.to_string()));
            match result {
                Ok(Ok(_)) => ok += 1,
                Ok(Err(e)) => {
                    errors += 1;
                    assert!(!e.is_empty());
                }
                Err(_) => panic!("{name} variant {variant} panicked; its text:\n{text}"),
            }
            assert!(t0.elapsed().as_secs_f64() < 2.0, "{name} variant {variant} took {:?}", t0.elapsed());
        }
    }
    // Both outcomes occur (the mutations are neither all harmless nor all fatal).
    assert!(ok > 20 && errors > 20, "{ok} read, {errors} refused");
    assert!(started.elapsed().as_secs_f64() < 30.0);
}
