//! The URDF reader on real files (Drake's pendulum and acrobot, example-robot-data's Panda,
//! Allegro hand and double pendulum), on a dozen broken files, and on mutated copies of the real
//! ones (no panic, no hang). Expected numbers are taken from the files' text, not retyped.

mod common;

use common::Rng;
use contactlab::geometry::Shape;
use contactlab::math::{Matrix3, Point3, Vector3};
use contactlab::scene::import::{ImportError, JointType, RobotFormat, RobotModel, read_urdf};
use nalgebra::Rotation3;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn repo(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The folder that holds the `example-robot-data` package: the files name their meshes
/// `package://example-robot-data/robots/NAME/meshes/...`, found as DIR/example-robot-data/...
fn package_dir() -> PathBuf {
    repo("robots")
}

const ERD: &str = "robots/example-robot-data/robots";

fn temp_dir(test: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("contactlab-urdf-{}-{test}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The numbers of the first `attribute="..."` after `anchor` in `text`.
fn file_numbers(text: &str, anchor: &str, attribute: &str) -> Vec<f64> {
    let from = text.find(anchor).unwrap_or_else(|| panic!("`{anchor}` is in the file"));
    let key = format!("{attribute}=\"");
    let start =
        from + text[from..].find(&key).unwrap_or_else(|| panic!("{attribute} after {anchor}")) + key.len();
    let end = start + text[start..].find('"').unwrap();
    text[start..end].split_whitespace().map(|s| s.parse().unwrap()).collect()
}

fn file_number(text: &str, anchor: &str, attribute: &str) -> f64 {
    file_numbers(text, anchor, attribute)[0]
}

fn vec3(v: Vec<f64>) -> Vector3 {
    Vector3::new(v[0], v[1], v[2])
}

fn link<'a>(model: &'a RobotModel, name: &str) -> &'a contactlab::scene::import::RobotLink {
    model.links.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("link {name}"))
}

fn joint<'a>(model: &'a RobotModel, name: &str) -> &'a contactlab::scene::import::RobotJoint {
    model.joints.iter().find(|j| j.name == name).unwrap_or_else(|| panic!("joint {name}"))
}

/// Every joint's parent comes before its child in `links`, and joints follow the links' order.
fn assert_parents_first(model: &RobotModel) {
    let at = |name: &str| model.links.iter().position(|l| l.name == name).unwrap();
    for j in &model.joints {
        if let Some(parent) = &j.parent {
            assert!(at(parent) < at(&j.child), "{} before {}", parent, j.child);
        }
    }
    let children: Vec<usize> = model.joints.iter().map(|j| at(&j.child)).collect();
    assert!(children.windows(2).all(|w| w[0] < w[1]), "joints in the links' order");
}

fn has_note(model: &RobotModel, start: &str) -> bool {
    model.notes.iter().any(|n| n.starts_with(start))
}

// ---------------------------------------------------------------------------------------------
// Real files.

#[test]
fn pendulum_links_joints_and_point_masses_as_in_the_file() {
    let path = repo("robots/drake/Pendulum.urdf");
    let text = std::fs::read_to_string(&path).unwrap();
    let model = read_urdf(&path, &[]).expect("Pendulum.urdf reads");
    assert_eq!(model.name, "Pendulum");
    assert_eq!(model.format, RobotFormat::Urdf);
    let names: Vec<&str> = model.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["base", "arm", "arm_com"], "world is not a link");
    for name in ["base", "arm", "arm_com"] {
        let anchor = format!("<link name=\"{name}\">");
        let l = link(&model, name);
        assert_eq!(l.mass, file_number(&text, &anchor, "mass value"));
        assert!(l.mass > 0.0);
        assert_eq!(l.center_of_mass, Point3::from(vec3(file_numbers(&text, &anchor, "xyz"))));
        assert_eq!(l.inertia, Matrix3::zeros(), "a point mass is read, not rejected");
    }
    assert!(link(&model, "base").collisions.is_empty(), "base has visual geometry only");
    let arm = &link(&model, "arm").collisions;
    assert_eq!(arm.len(), 1);
    assert_eq!(arm[0].shape, Shape::Cylinder { radius: 0.01, length: 0.75 });
    assert_eq!(arm[0].pose.translation.vector, Vector3::new(0.0, 0.0, -0.375));
    assert_eq!(link(&model, "arm_com").collisions[0].shape, Shape::Sphere { radius: 0.025 });

    let weld = joint(&model, "base_weld");
    assert_eq!(
        (weld.joint_type, weld.parent.as_deref(), weld.child.as_str()),
        (JointType::Fixed, None, "base")
    );
    assert_eq!(weld.origin.translation.vector, vec3(file_numbers(&text, "<joint name=\"base_weld\"", "xyz")));
    assert_eq!(weld.axis, Vector3::zeros());
    let theta = joint(&model, "theta");
    assert_eq!(theta.joint_type, JointType::Revolute, "continuous");
    assert_eq!((theta.parent.as_deref(), theta.child.as_str()), (Some("base"), "arm"));
    assert_eq!(theta.axis, vec3(file_numbers(&text, "<joint name=\"theta\"", "xyz")));
    assert_eq!(theta.origin, contactlab::math::Isometry3::identity());
    assert_eq!(theta.limits, None, "continuous: no limits");
    assert_eq!(theta.damping, file_number(&text, "<joint name=\"theta\"", "damping"));
    assert_eq!(theta.line, 59);
    assert_eq!(link(&model, "arm").line, 39);
    let arm_weld = joint(&model, "arm_weld");
    assert_eq!((arm_weld.parent.as_deref(), arm_weld.child.as_str()), (Some("arm"), "arm_com"));
    assert_parents_first(&model);

    for note in [
        "<material> skipped (3 elements)",
        "<transmission> skipped (1 element): contactlab has no transmissions; drive joints with [[actuator]]",
        "<gazebo> skipped (4 elements)",
        "visual geometry skipped (3 elements)",
        "link 'world' contents skipped",
    ] {
        assert!(has_note(&model, note), "note {note:?} in {:#?}", model.notes);
    }
    assert!(model.warnings.is_empty(), "{:#?}", model.warnings);
    assert!(model.actuators.is_empty() && model.couplers.is_empty());
}

#[test]
fn acrobot_masses_inertias_and_joint_frames() {
    let path = repo("robots/drake/Acrobot.urdf");
    let text = std::fs::read_to_string(&path).unwrap();
    let model = read_urdf(&path, &[]).expect("Acrobot.urdf reads");
    let names: Vec<&str> = model.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["base_link", "upper_link", "lower_link"]);
    assert_eq!(link(&model, "base_link").mass, 0.0, "no <inertial>: massless");
    for name in ["upper_link", "lower_link"] {
        let anchor = format!("<link name=\"{name}\">");
        let l = link(&model, name);
        assert_eq!(l.mass, file_number(&text, &anchor, "mass value"));
        let i = |a: &str| file_number(&text, &anchor, a);
        assert_eq!(l.inertia, Matrix3::new(i("ixx"), 0.0, 0.0, 0.0, i("iyy"), 0.0, 0.0, 0.0, i("izz")));
        assert_eq!(l.center_of_mass, Point3::from(vec3(file_numbers(&text, &anchor, "xyz"))));
        assert_eq!(l.collisions[0].name.as_deref(), Some(format!("{name}_collision").as_str()));
    }
    assert_eq!(link(&model, "base_link").collisions[0].shape, Shape::Box { size: [0.2; 3] });
    assert_eq!(link(&model, "lower_link").collisions[0].shape, Shape::Cylinder { radius: 0.05, length: 2.1 });
    for name in ["shoulder", "elbow"] {
        let anchor = format!("<joint name=\"{name}\"");
        let j = joint(&model, name);
        assert_eq!(j.joint_type, JointType::Revolute);
        assert_eq!(j.origin.translation.vector, vec3(file_numbers(&text, &anchor, "xyz")));
        assert_eq!(j.origin.rotation, contactlab::math::UnitQuaternion::identity());
        // The second xyz after the joint's name is its axis.
        let after = &text[text.find(&anchor).unwrap() + anchor.len()..];
        let axis_at = after.find("<axis").unwrap();
        assert_eq!(j.axis, vec3(file_numbers(&after[axis_at..], "<axis", "xyz")));
        assert_eq!(j.damping, 0.1);
    }
    assert_eq!(joint(&model, "base_weld").parent, None, "an undeclared `world` parent is the world");
    assert_eq!(joint(&model, "elbow").parent.as_deref(), Some("upper_link"));
    assert!(has_note(&model, "<transmission> skipped (1 element)"));
    assert!(has_note(&model, "<frame> skipped (1 element)"));
    assert_parents_first(&model);
}

#[test]
fn inertial_and_joint_rotations_follow_the_rpy_convention() {
    let dir = temp_dir("rpy");
    let path = dir.join("r.urdf");
    std::fs::write(
        &path,
        r#"<robot name="r">
  <link name="a">
    <inertial>
      <origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 1.1"/>
      <mass value="2"/>
      <inertia ixx="1" iyy="2" izz="2.5" ixy="0.1" ixz="-0.2" iyz="0.05"/>
    </inertial>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <origin xyz="1 2 3" rpy="0.3 -0.2 1.1"/>
    <axis xyz="0 3 4"/>
    <limit lower="-1" upper="2" effort="5" velocity="1"/>
  </joint>
</robot>"#,
    )
    .unwrap();
    let model = read_urdf(&path, &[]).unwrap();
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), 1.1)
        * Rotation3::from_axis_angle(&Vector3::y_axis(), -0.2)
        * Rotation3::from_axis_angle(&Vector3::x_axis(), 0.3);
    let local = Matrix3::new(1.0, 0.1, -0.2, 0.1, 2.0, 0.05, -0.2, 0.05, 2.5);
    let expected = r.matrix() * local * r.matrix().transpose();
    let a = link(&model, "a");
    assert!((a.inertia - expected).amax() < 1e-14, "I_link = R·I·Rᵀ");
    assert_eq!(a.inertia, a.inertia.transpose());
    assert_eq!(a.center_of_mass, Point3::new(0.1, 0.2, 0.3));
    let j = joint(&model, "j");
    assert!((j.origin.rotation.to_rotation_matrix().matrix() - r.matrix()).amax() < 1e-14);
    assert!((j.axis - Vector3::new(0.0, 0.6, 0.8)).norm() < 1e-15, "axis normalised");
    assert_eq!((j.limits, j.effort_limit), (Some((-1.0, 2.0)), Some(5.0)));
    assert_eq!(link(&model, "b").mass, 0.0);
}

#[test]
fn panda_collision_joints_coupler_masses_and_missing_visual_meshes() {
    let path = repo(&format!("{ERD}/panda_description/urdf/panda_collision.urdf"));
    let text = std::fs::read_to_string(&path).unwrap();
    let model = read_urdf(&path, &[package_dir()]).expect("panda_collision.urdf reads");
    let count = |t: JointType| model.joints.iter().filter(|j| j.joint_type == t).count();
    assert_eq!((count(JointType::Revolute), count(JointType::Prismatic), count(JointType::Fixed)), (7, 2, 3));
    assert_eq!(model.links.len(), 13);
    assert_eq!(model.links[0].name, "panda_link0", "the root first");
    assert_eq!(model.couplers.len(), 1);
    let c = &model.couplers[0];
    assert_eq!(
        (c.joint.as_str(), c.follows.as_str(), c.ratio, c.offset),
        ("panda_finger_joint2", "panda_finger_joint1", 1.0, 0.0)
    );

    let file_mass: f64 =
        text.match_indices("<mass value=\"").map(|(at, key)| file_number(&text[at..], key, "value")).sum();
    let mass: f64 = model.links.iter().map(|l| l.mass).sum();
    assert!((mass - file_mass).abs() < 1e-12, "{mass} vs the file's {file_mass}");

    let j4 = joint(&model, "panda_joint4");
    assert_eq!(j4.limits, Some((-3.0718, -0.0698)));
    assert_eq!(j4.effort_limit, Some(87.0));
    assert_eq!(j4.damping, 0.003);
    let finger = joint(&model, "panda_finger_joint2");
    assert_eq!((finger.axis, finger.limits), (Vector3::new(0.0, -1.0, 0.0), Some((0.0, 0.04))));

    let shapes: Vec<&Shape> =
        model.links.iter().flat_map(|l| l.collisions.iter().map(|g| &g.shape)).collect();
    let kinds = |k: &str| shapes.iter().filter(|s| s.kind() == k).count();
    assert_eq!((kinds("cylinder"), kinds("sphere"), shapes.len()), (13, 26, 39));

    // Every visual mesh (a .dae not shipped here) is a warning, never an error.
    let visual_meshes = text.matches("meshes/visual/").count();
    assert_eq!(visual_meshes, 11);
    let missing: Vec<&String> = model.warnings.iter().filter(|w| w.contains(".dae")).collect();
    assert_eq!(missing.len(), visual_meshes, "{:#?}", model.warnings);
    assert!(missing[0].contains("looked in") && missing[0].contains("visual geometry is not used"));
    assert!(has_note(&model, "visual geometry skipped (11 elements)"));
    assert!(has_note(&model, "<joint>/<safety_controller> skipped (7 elements)"));
    assert_parents_first(&model);
}

#[test]
fn panda_collision_meshes_load_as_meshes() {
    let path = repo(&format!("{ERD}/panda_description/urdf/panda.urdf"));
    let text = std::fs::read_to_string(&path).unwrap();
    let model = read_urdf(&path, &[package_dir()]).expect("panda.urdf reads");
    let meshes: Vec<(&str, &Shape)> = model
        .links
        .iter()
        .flat_map(|l| l.collisions.iter().map(move |g| (l.name.as_str(), &g.shape)))
        .collect();
    let collision_meshes = text.matches("meshes/collision/").count();
    let loaded: Vec<_> = meshes.iter().filter(|(_, s)| matches!(s, Shape::Mesh { .. })).collect();
    assert_eq!(loaded.len(), collision_meshes, "every collision mesh a Shape::Mesh");
    for (_, shape) in loaded {
        let Shape::Mesh { file, data, .. } = shape else { unreachable!() };
        assert!(file.is_file());
        assert!(data.surface().triangles.len() >= 12);
    }
    assert_eq!(model.couplers.len(), 1);
    assert!(!model.warnings.iter().any(|w| w.contains("collision")), "{:#?}", model.warnings);
    // A package path may also be the package's own folder.
    let again = read_urdf(&path, &[repo("robots/example-robot-data")]).expect("found in the package folder");
    assert_eq!(again.links, model.links);
}

#[test]
fn allegro_hand_sixteen_revolute_joints() {
    let path = repo(&format!("{ERD}/allegro_hand_description/urdf/allegro_right_hand.urdf"));
    let text = std::fs::read_to_string(&path).unwrap();
    let model = read_urdf(&path, &[package_dir()]).expect("allegro_right_hand.urdf reads");
    let revolute: Vec<_> = model.joints.iter().filter(|j| j.joint_type == JointType::Revolute).collect();
    assert_eq!(revolute.len(), 16);
    assert!(revolute.iter().all(|j| j.limits.is_some() && j.effort_limit == Some(15.0)));
    assert_eq!(model.joints.len(), 20, "4 fixed fingertips");
    assert_eq!(model.links[0].name, "palm_link");
    // Its collision geometry is boxes and fingertip spheres; its visual STL meshes are all there.
    let shapes: Vec<&Shape> =
        model.links.iter().flat_map(|l| l.collisions.iter().map(|g| &g.shape)).collect();
    assert_eq!(shapes.len(), text.matches("<collision>").count());
    assert!(shapes.iter().all(|s| matches!(s, Shape::Box { .. } | Shape::Sphere { .. })));
    assert!(
        !model.warnings.iter().any(|w| w.contains("visual")),
        "visual meshes found: {:#?}",
        model.warnings
    );
    // Some of its finger inertias are positive definite but no rigid body's: warnings.
    assert!(model.warnings.iter().all(|w| w.contains("triangle inequality")), "{:#?}", model.warnings);
    assert!(model.warnings.iter().any(|w| w.contains("link 'link_3.0'/inertial/inertia")));
    let j = joint(&model, "joint_0.0");
    assert_eq!((j.damping, j.friction), (3.0, 10.0));
    let l = link(&model, "link_1.0");
    assert_eq!(l.inertia[(0, 1)], file_number(&text, "<link name=\"link_1.0\">", "ixy"));
    assert_parents_first(&model);
}

#[test]
fn double_pendulum_stl_collision_meshes_load() {
    let path = repo(&format!("{ERD}/double_pendulum_description/urdf/double_pendulum.urdf"));
    let model = read_urdf(&path, &[package_dir()]).expect("double_pendulum.urdf reads");
    let shapes: Vec<&Shape> =
        model.links.iter().flat_map(|l| l.collisions.iter().map(|g| &g.shape)).collect();
    assert_eq!(shapes.len(), 3);
    for shape in shapes {
        match shape {
            Shape::Mesh { file, .. } | Shape::Convex { file, .. } => assert!(file.is_file()),
            other => panic!("a mesh, not {other:?}"),
        }
    }
    // An open display mesh becomes its convex hull, and says so.
    let hulls = model
        .links
        .iter()
        .flat_map(|l| &l.collisions)
        .filter(|g| matches!(g.shape, Shape::Convex { .. }))
        .count();
    assert_eq!(model.warnings.iter().filter(|w| w.contains("convex hull")).count(), hulls);
}

#[test]
fn mesh_scale_and_relative_and_file_paths() {
    let dir = temp_dir("scale");
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    let stl = repo(&format!("{ERD}/panda_description/meshes/collision/finger.stl"));
    std::fs::copy(&stl, dir.join("meshes/finger.stl")).unwrap();
    let path = dir.join("s.urdf");
    std::fs::write(
        &path,
        format!(
            r#"<robot name="s"><link name="a">
  <collision><geometry><mesh filename="meshes/finger.stl" scale="2 2 2"/></geometry></collision>
  <collision><geometry><mesh filename="file://{}"/></geometry></collision>
  <collision><geometry><mesh filename="meshes/finger.stl" scale="1 -1 1"/></geometry></collision>
</link></robot>"#,
            stl.display()
        ),
    )
    .unwrap();
    let model = read_urdf(&path, &[]).unwrap();
    let radius = |k: usize| model.links[0].collisions[k].shape.bounding_radius().unwrap();
    assert!((radius(0) - 2.0 * radius(1)).abs() < 1e-12, "scale applied to the vertices");
    assert!(
        matches!(model.links[0].collisions[2].shape, Shape::Mesh { .. }),
        "a mirrored mesh is still a solid"
    );
    assert!((radius(2) - radius(1)).abs() < 1e-12);
}

/// `CONTACTLAB_PACKAGE_PATH` is read: checked in a child process of this test binary (setting
/// the variable here would race with the other tests).
#[test]
fn package_path_from_the_environment() {
    if std::env::var_os("URDF_TEST_CHILD").is_some() {
        let path = repo(&format!("{ERD}/panda_description/urdf/panda.urdf"));
        let model =
            read_urdf(&path, &[PathBuf::from("/nonexistent")]).expect("found through the environment");
        assert_eq!(
            model.links.iter().flat_map(|l| &l.collisions).filter(|g| g.shape.kind() == "mesh").count(),
            9
        );
        return;
    }
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "package_path_from_the_environment", "--test-threads=1"])
        .env("URDF_TEST_CHILD", "1")
        .env("CONTACTLAB_PACKAGE_PATH", format!("/also/nonexistent:{}", package_dir().display()))
        .status()
        .unwrap();
    assert!(status.success());
}

// ---------------------------------------------------------------------------------------------
// Broken files: each the right error, naming the element and attribute.

/// A two-link robot with `joint` between them, and `extra` inside link b.
fn two_links(joint: &str, extra: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<robot name="broken">
  <link name="a"/>
  <link name="b">{extra}</link>
  {joint}
</robot>
"#
    )
}

const GOOD_JOINT: &str = r#"<joint name="elbow" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>"#;

/// Reads `text` as a URDF file (the error boxed: it is large).
fn read_text(name: &str, text: &str) -> Result<RobotModel, Box<ImportError>> {
    let dir = temp_dir(name);
    let path = dir.join(format!("{name}.urdf"));
    std::fs::write(&path, text).unwrap();
    read_urdf(&path, &[dir.join("pkgs")]).map_err(Box::new)
}

#[test]
fn broken_files_give_errors_that_name_the_element_and_attribute() {
    enum Kind {
        Syntax,
        Invalid,
        Missing,
    }
    let inertial = |mass: &str, inertia: &str| {
        format!(r#"<inertial><mass value="{mass}"/><inertia {inertia}/></inertial>"#)
    };
    let ok_inertia = r#"ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0""#;
    let cases: Vec<(&str, String, Kind, Vec<&str>)> = vec![
        ("unclosed", two_links(GOOD_JOINT, "<collision>"), Kind::Syntax, vec!["line 4"]),
        ("truncated", two_links(GOOD_JOINT, "")[..120].to_owned(), Kind::Syntax, vec!["not well-formed"]),
        (
            "joint_type",
            two_links(&GOOD_JOINT.replace("revolute", "hinge"), ""),
            Kind::Invalid,
            vec!["joint 'elbow'", "`type`", "hinge", "revolute, continuous"],
        ),
        (
            "planar",
            two_links(&GOOD_JOINT.replace("revolute", "planar"), ""),
            Kind::Invalid,
            vec!["joint 'elbow'", "`type`", "not supported", "two prismatic joints"],
        ),
        (
            "missing_link",
            two_links(&GOOD_JOINT.replace(r#"child link="b""#, r#"child link="c""#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/child", "`link`", "'c'"],
        ),
        (
            "loop",
            two_links(
                &format!(
                    "{GOOD_JOINT}<joint name=\"back\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>"
                ),
                "",
            ),
            Kind::Invalid,
            vec!["joint '", "`child`", "loop", "'elbow'", "'back'"],
        ),
        (
            "two_parents",
            format!(
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n{}\n{}</robot>",
                GOOD_JOINT,
                GOOD_JOINT.replace("elbow", "wrist").replace(r#"parent link="a""#, r#"parent link="c""#)
            ),
            Kind::Invalid,
            vec!["joint 'wrist'/child", "`link`", "already the child of joint 'elbow'", "line 2"],
        ),
        (
            "missing_mesh",
            two_links(
                GOOD_JOINT,
                r#"<collision><geometry><mesh filename="package://gone/meshes/x.stl"/></geometry></collision>"#,
            ),
            Kind::Missing,
            vec!["link 'b'/collision/geometry/mesh", "package://gone/meshes/x.stl", "pkgs/gone/meshes/x.stl"],
        ),
        (
            "nan_origin",
            two_links(&GOOD_JOINT.replace("<parent", r#"<origin xyz="0 nan 0"/><parent"#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/origin", "`xyz`", "`nan` is not a finite number"],
        ),
        (
            "garbage_rpy",
            two_links(&GOOD_JOINT.replace("<parent", r#"<origin rpy="0 0 1.5.2"/><parent"#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/origin", "`rpy`", "`1.5.2` is not a number"],
        ),
        (
            "negative_mass",
            two_links(GOOD_JOINT, &inertial("-1", ok_inertia)),
            Kind::Invalid,
            vec!["link 'b'/inertial/mass", "`value`", "negative"],
        ),
        (
            "zero_axis",
            two_links(&GOOD_JOINT.replace("<parent", r#"<axis xyz="0 0 0"/><parent"#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/axis", "`xyz`", "no direction"],
        ),
        (
            "limits",
            two_links(&GOOD_JOINT.replace(r#"lower="-1" upper="1""#, r#"lower="1" upper="-1""#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/limit", "`lower`", "above upper"],
        ),
        (
            "not_psd",
            two_links(GOOD_JOINT, &inertial("1", r#"ixx="1" iyy="1" izz="1" ixy="2" ixz="0" iyz="0""#)),
            Kind::Invalid,
            vec!["link 'b'/inertial/inertia", "positive semidefinite", "ixy"],
        ),
        (
            "two_roots",
            "<robot name=\"r\"><link name=\"a\"/>\n<link name=\"b\"/></robot>".into(),
            Kind::Invalid,
            vec!["line 2", "link 'b'", "second root", "'a'"],
        ),
        (
            "mimic",
            two_links(&GOOD_JOINT.replace("<parent", r#"<mimic joint="nope"/><parent"#), ""),
            Kind::Invalid,
            vec!["joint 'elbow'/mimic", "`joint`", "'nope'"],
        ),
        (
            "duplicate",
            format!(
                "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"b\"/>{GOOD_JOINT}</robot>"
            ),
            Kind::Invalid,
            vec!["link 'b'", "`name`", "already"],
        ),
        ("not_urdf", "<mujoco model=\"m\"/>".into(), Kind::Invalid, vec!["<mujoco>", "not a URDF", "MJCF"]),
        ("empty", String::new(), Kind::Syntax, vec!["not well-formed"]),
        ("binary", "<robot name=\"\u{0}\"/>".into(), Kind::Syntax, vec!["line 1"]),
    ];
    for (name, text, kind, needles) in cases {
        let result = std::panic::catch_unwind(|| read_text(name, &text));
        let err = match result {
            Ok(Err(e)) => e,
            Ok(Ok(_)) => panic!("{name}: read without error"),
            Err(_) => panic!("{name}: panicked"),
        };
        let right_kind = matches!(
            (&kind, &*err),
            (Kind::Syntax, ImportError::Syntax { .. })
                | (Kind::Invalid, ImportError::Invalid { .. })
                | (Kind::Missing, ImportError::Missing { .. })
        );
        let message = err.to_string();
        assert!(right_kind, "{name}: wrong variant: {message}");
        for needle in needles {
            assert!(message.contains(needle), "{name}: {needle:?} not in: {message}");
        }
    }
}

#[test]
fn several_top_links_hanging_from_the_world() {
    let text = r#"<robot name="w">
  <link name="arm"/><link name="box"/><link name="world"/>
  <joint name="float" type="floating"><parent link="world"/><child link="box"/><axis xyz="0 0 0"/></joint>
  <joint name="weld" type="fixed"><parent link="world"/><child link="arm"/><origin xyz="0 0 1" rpy="0 0 0"/></joint>
</robot>"#;
    let model = read_text("world", text).unwrap();
    let names: Vec<&str> = model.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["arm", "box"], "file order, world not listed");
    let float = joint(&model, "float");
    assert_eq!(
        (float.joint_type, float.parent.as_deref(), float.axis),
        (JointType::Free, None, Vector3::zeros())
    );
    assert_eq!(joint(&model, "weld").origin.translation.vector, Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(model.joints[0].name, "weld", "joints in their children's order");

    let loose = text.replace("<link name=\"world\"/>", "<link name=\"world\"/><link name=\"loose\"/>");
    let err = read_text("loose", &loose).unwrap_err().to_string();
    assert!(err.contains("link 'loose'") && err.contains("hang from \"world\""), "{err}");
}

#[test]
fn an_inertia_no_body_has_is_a_warning() {
    let inertial =
        r#"<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/></inertial>"#;
    let model = read_text("triangle", &two_links(GOOD_JOINT, inertial)).expect("positive definite: read");
    assert_eq!(link(&model, "b").inertia, Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 3.0)));
    assert_eq!(model.warnings.len(), 1);
    assert!(
        model.warnings[0].contains("link 'b'/inertial/inertia")
            && model.warnings[0].contains("triangle inequality")
    );
}

#[test]
fn lines_point_at_the_element() {
    let text = two_links(&GOOD_JOINT.replace("<parent", "\n\n<axis xyz=\"0 0 0\"/><parent"), "");
    let Err(err) = read_text("lines", &text) else { panic!("an axis error") };
    let ImportError::Invalid { line, element, attribute, .. } = *err else { panic!("an axis error") };
    assert_eq!((line, element.as_str(), attribute.as_str()), (7, "joint 'elbow'/axis", "xyz"));
}

#[test]
fn unknown_elements_are_noted_not_errors() {
    let text = r#"<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="a"><collision><geometry><drake:capsule radius="0.1" length="0.5"/></geometry></collision>
    <contact><lateral_friction value="1"/></contact></link>
  <link name="b"><collision><geometry><capsule radius="0.1" length="0.2"/></geometry></collision></link>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/>
    <limit effort="3" velocity="1"/><calibration rising="0"/><mimic joint="k"/></joint>
  <link name="c"/>
  <joint name="k" type="prismatic"><parent link="a"/><child link="c"/><limit upper="0.5" effort="0" velocity="1"/></joint>
  <drake:collision_filter_group name="g"/><drake:collision_filter_group name="h"/>
  <transmission name="t1"/><transmission name="t2"/>
</robot>"#;
    let model = read_text("unknown", text).unwrap();
    assert_eq!(model.links[0].collisions[0].shape, Shape::Capsule { radius: 0.1, length: 0.5 });
    assert_eq!(link(&model, "b").collisions[0].shape, Shape::Capsule { radius: 0.1, length: 0.2 });
    let j = joint(&model, "j");
    assert_eq!((j.limits, j.effort_limit), (None, Some(3.0)), "continuous: effort kept, no range");
    let k = joint(&model, "k");
    assert_eq!((k.limits, k.effort_limit), (Some((0.0, 0.5)), None), "lower defaults to 0; effort 0: none");
    assert_eq!(model.couplers[0].follows, "k");
    for note in [
        "<drake:collision_filter_group> skipped (2 elements)",
        "<transmission> skipped (2 elements): contactlab has no transmissions; drive joints with [[actuator]]",
        "<link>/<contact> skipped (1 element)",
        "<joint>/<calibration> skipped (1 element)",
    ] {
        assert!(has_note(&model, note), "{note:?} in {:#?}", model.notes);
    }
}

// ---------------------------------------------------------------------------------------------
// Mutated real files: never a panic, never slow.

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match rng.below(4) {
        0 => out.truncate(rng.below(bytes.len())),
        1 => {
            for _ in 0..1 + rng.below(8) {
                if !out.is_empty() {
                    let at = rng.below(out.len());
                    out.remove(at);
                }
            }
        }
        2 => {
            // Digits to letters (and a few signs): numbers turn into garbage, nan, inf, e.
            let letters = b"abeinfNI-+.x";
            for _ in 0..1 + rng.below(6) {
                let digits: Vec<usize> = (0..out.len()).filter(|&k| out[k].is_ascii_digit()).collect();
                if let Some(&at) = digits.get(rng.below(digits.len())) {
                    out[at] = letters[rng.below(letters.len())];
                }
            }
        }
        _ => {
            let specials = b"<>\"/=&! 0-";
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(out.len());
                out[at] = specials[rng.below(specials.len())];
            }
        }
    }
    out
}

#[test]
fn mutated_files_never_panic_or_hang() {
    let files = [
        ("robots/drake/Pendulum.urdf", 80),
        ("robots/drake/Acrobot.urdf", 80),
        ("robots/example-robot-data/robots/panda_description/urdf/panda_collision.urdf", 80),
        ("robots/example-robot-data/robots/panda_description/urdf/panda.urdf", 30),
        ("robots/example-robot-data/robots/allegro_hand_description/urdf/allegro_right_hand.urdf", 60),
        ("robots/example-robot-data/robots/double_pendulum_description/urdf/double_pendulum_simple.urdf", 40),
    ];
    let dir = temp_dir("fuzz");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut read, mut refused) = (0, 0);
    for (file, variants) in files {
        let bytes = std::fs::read(repo(file)).unwrap();
        for k in 0..variants {
            let path = dir.join(format!("v{k}.urdf"));
            std::fs::write(&path, mutate(&mut rng, &bytes)).unwrap();
            let start = Instant::now();
            let result = std::panic::catch_unwind(|| read_urdf(&path, &[package_dir()]).map_err(Box::new));
            let elapsed = start.elapsed();
            match result {
                Ok(Ok(_)) => read += 1,
                Ok(Err(e)) => {
                    assert!(!e.to_string().is_empty());
                    refused += 1;
                }
                Err(_) => panic!(
                    "{file} variant {k} panicked: {}",
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                ),
            }
            assert!(elapsed < Duration::from_secs(2), "{file} variant {k} took {elapsed:?}");
        }
    }
    eprintln!("mutated files: {read} read, {refused} refused");
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
}
