//! Scene keys for articulated mechanisms ([[joint]], [[actuator]], [[coupler]], [[exclude]]) and
//! the body keys they need (centre of mass, full inertia, shape pose): a valid arm parsed to the
//! written values, and one test per kind of bad input checking that the message names the key,
//! the table and its line.

use contactlab::math::{Matrix3, Point3, Vector3};
use contactlab::scene::{
    ActuatorKind, CouplerSpec, ExcludeSpec, InertiaSpec, JointType, Scene, SceneError, Schedule, parse_scene,
};
use std::path::Path;

const ARM: &str = r#"
[model]
kind = "hertz"

[sim]
duration = 1.0

[[body]]
name = "floor"
fixed = true
shape = { type = "halfspace" }

[[joint]]
name = "shoulder"
type = "revolute"
parent = "world"
child = "upper_arm"
origin = { position = [0, 0, 1], orientation = [1, 0, 0, 0] }
axis = [0, 2, 0]
position = 0.3
velocity = -0.5
limits = [-1.5, 1.5]
damping = 0.1
armature = 0.01
stiffness = 2.0
spring_reference = 0.2

[[body]]
name = "upper_arm"
mass = 1.2
center_of_mass = [0.0, 0.0, -0.15]
inertia = [0.01, 0.01, 0.002]
shape = { type = "capsule", radius = 0.04, length = 0.3, position = [0, 0, -0.15], orientation = [1, 0, 0, 0] }

[[body]]
name = "forearm"
mass = 0.8
inertia = [0.02, 0.02, 0.003, 0.001, 0.0, 0.0]
shape = { type = "box", size = [0.05, 0.05, 0.3] }

[[joint]]
name = "elbow"
type = "prismatic"
parent = "upper_arm"
child = "forearm"
origin = { position = [0, 0, -0.3] }
axis = [0, 0, -3]
limits = [0.0, 0.2]

[[body]]
name = "hand"
mass = 0.2
shape = { type = "sphere", radius = 0.03 }

[[joint]]
name = "wrist"
type = "ball"
parent = "forearm"
child = "hand"
position = [0, 1, 0, 0]
velocity = [0, 0, 1]
damping = 0.01

[[body]]
name = "finger_left"
mass = 0.01
shape = { type = "box", size = [0.01, 0.01, 0.04] }

[[body]]
name = "finger_right"
mass = 0.01
shape = { type = "box", size = [0.01, 0.01, 0.04] }

[[joint]]
name = "finger_left"
type = "prismatic"
parent = "hand"
child = "finger_left"
axis = [1, 0, 0]
position = 0.01
velocity = 0.002
limits = [0, 0.05]

[[joint]]
name = "finger_right"
type = "prismatic"
parent = "hand"
child = "finger_right"
axis = [-1, 0, 0]
limits = [0, 0.05]

[[joint]]
name = "glue"
type = "fixed"
parent = "floor"
child = "cube"

[[body]]
name = "cube"
mass = 0.1
shape = { type = "box", size = [0.1, 0.1, 0.1] }

[[body]]
name = "puck"
mass = 0.1
shape = { type = "cylinder", radius = 0.05, length = 0.02 }

[[joint]]
name = "float"
type = "free"
parent = "world"
child = "puck"
position = [1, 2, 3, 0, 0, 0, 1]
velocity = [0.1, 0, 0, 0, 0, 2]

[[actuator]]
name = "shoulder_pd"
joint = "shoulder"
kind = "position"
kp = 200.0
kd = 5.0
targets = [[0.0, 0.3], [1.0, 0.8], [2.0, 2.0]]
target_velocity = 0.1
effort_limit = 50.0

[[actuator]]
name = "elbow_motor"
joint = "elbow"
kind = "motor"
gear = 2.0
efforts = [[0.5, 1.0]]

[[actuator]]
name = "grip"
joint = "finger_left"
kind = "velocity"
kd = 3.0
target = -0.01

[[coupler]]
joint = "finger_right"
follows = "finger_left"
ratio = 2.0
offset = 0.005

[[exclude]]
a = "upper_arm"
b = "forearm"
"#;

fn parse(text: &str) -> Result<Scene, SceneError> {
    parse_scene(text, Path::new("."))
}

/// The error message of a scene that must fail.
fn message(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("scene should have been rejected:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(msg: &str, parts: &[&str]) {
    if std::env::var_os("SHOW_MESSAGES").is_some() {
        eprintln!("{msg}");
    }
    for p in parts {
        assert!(msg.contains(p), "message does not mention {p:?}:\n{msg}");
    }
}

/// The arm with `from` replaced by `to` (which must occur).
fn arm_with(from: &str, to: &str) -> String {
    assert!(ARM.contains(from), "the arm has no {from:?}");
    ARM.replacen(from, to, 1)
}

/// The arm with `extra` appended (more tables).
fn arm_plus(extra: &str) -> String {
    format!("{ARM}\n{extra}\n")
}

/// The error of the modified arm: it names each of `parts` and a line.
fn rejects(text: &str, parts: &[&str]) {
    let msg = message(text);
    assert_mentions(&msg, parts);
    assert!(msg.contains("(line "), "no line number:\n{msg}");
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_arm_parses_to_the_written_values() {
    let scene = parse(ARM).unwrap();
    assert!(
        scene.warnings.iter().any(|w| w.contains("shoulder_pd") && w.contains("limits")),
        "{:?}",
        scene.warnings
    );
    assert_eq!(scene.joints.len(), 7);

    let shoulder = scene.joint("shoulder").unwrap();
    assert_eq!(shoulder.joint_type, JointType::Revolute);
    assert_eq!(shoulder.joint_type.key(), "revolute");
    assert_eq!(shoulder.parent, None);
    assert_eq!(shoulder.child, "upper_arm");
    assert_eq!(shoulder.origin.translation.vector, Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(shoulder.origin.rotation.angle(), 0.0);
    assert_eq!(shoulder.axis, Vector3::new(0.0, 1.0, 0.0));
    assert_eq!(shoulder.position, vec![0.3]);
    assert_eq!(shoulder.velocity, vec![-0.5]);
    assert_eq!(shoulder.limits, Some((-1.5, 1.5)));
    assert_eq!(
        (shoulder.damping, shoulder.armature, shoulder.stiffness, shoulder.spring_reference),
        (0.1, 0.01, 2.0, 0.2)
    );

    let elbow = scene.joint("elbow").unwrap();
    assert_eq!(elbow.parent.as_deref(), Some("upper_arm"));
    assert_eq!(elbow.axis, Vector3::new(0.0, 0.0, -1.0));
    assert_eq!(elbow.origin.translation.vector, Vector3::new(0.0, 0.0, -0.3));
    assert_eq!((elbow.position.clone(), elbow.velocity.clone()), (vec![0.0], vec![0.0]));
    assert_eq!((elbow.damping, elbow.armature, elbow.stiffness), (0.0, 0.0, 0.0));

    let wrist = scene.joint("wrist").unwrap();
    assert_eq!(wrist.joint_type, JointType::Ball);
    assert_eq!(wrist.axis, Vector3::zeros());
    assert_eq!(wrist.position, vec![0.0, 1.0, 0.0, 0.0]);
    assert_eq!(wrist.velocity, vec![0.0, 0.0, 1.0]);
    assert_eq!(wrist.limits, None);

    let glue = scene.joint("glue").unwrap();
    assert_eq!(glue.joint_type, JointType::Fixed);
    assert!(glue.position.is_empty() && glue.velocity.is_empty());
    assert_eq!(glue.parent.as_deref(), Some("floor"));

    let float = scene.joint("float").unwrap();
    assert_eq!(float.position, vec![1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(float.velocity, vec![0.1, 0.0, 0.0, 0.0, 0.0, 2.0]);

    // The follower starts where its leader puts it: 2 · 0.01 + 0.005, moving at 2 · 0.002.
    let right = scene.joint("finger_right").unwrap();
    assert!(close(right.position[0], 0.025) && close(right.velocity[0], 0.004), "{right:?}");
    assert_eq!(
        scene.couplers,
        vec![CouplerSpec {
            joint: "finger_right".into(),
            follows: "finger_left".into(),
            ratio: 2.0,
            offset: 0.005
        }]
    );
    assert_eq!(scene.excludes, vec![ExcludeSpec { a: "upper_arm".into(), b: "forearm".into() }]);

    assert_eq!(scene.actuators.len(), 3);
    let pd = &scene.actuators[0];
    assert_eq!(
        (pd.name.as_str(), pd.joint.as_str(), pd.effort_limit),
        ("shoulder_pd", "shoulder", Some(50.0))
    );
    let ActuatorKind::Position { kp, kd, target, target_velocity } = &pd.kind else { panic!("{pd:?}") };
    assert_eq!((*kp, *kd), (200.0, 5.0));
    assert_eq!(target_velocity, &Schedule::Constant(0.1));
    for (t, want, rate) in [
        (-1.0, 0.3, 0.0),
        (0.0, 0.3, 0.5),
        (0.5, 0.55, 0.5),
        (1.0, 0.8, 1.2),
        (1.5, 1.4, 1.2),
        (2.0, 2.0, 0.0),
        (9.0, 2.0, 0.0),
    ] {
        assert!(close(target.at(t), want), "target at {t}: {}", target.at(t));
        assert!(close(target.rate(t), rate), "rate at {t}: {}", target.rate(t));
    }
    let ActuatorKind::Motor { gear, effort } = &scene.actuators[1].kind else { panic!() };
    assert_eq!((*gear, effort.at(0.0), effort.at(3.0), effort.rate(0.7)), (2.0, 1.0, 1.0, 0.0));
    assert_eq!(scene.actuators[1].effort_limit, None);
    assert_eq!(
        scene.actuators[2].kind,
        ActuatorKind::Velocity { kd: 3.0, target: Schedule::Constant(-0.01) }
    );

    let upper = scene.body("upper_arm").unwrap();
    assert_eq!(upper.center_of_mass, Some(Point3::new(0.0, 0.0, -0.15)));
    assert_eq!(
        upper.inertia,
        Some(InertiaSpec::AboutCenterOfMass(Matrix3::from_diagonal(&Vector3::new(0.01, 0.01, 0.002))))
    );
    assert_eq!(upper.shape_pose.translation.vector, Vector3::new(0.0, 0.0, -0.15));
    let (mass, com, inertia) = upper.mass_properties().unwrap();
    assert_eq!((mass, com), (1.2, Point3::new(0.0, 0.0, -0.15)));
    assert_eq!(inertia[(2, 2)], 0.002);
    let forearm = scene.body("forearm").unwrap();
    let mut full = Matrix3::from_diagonal(&Vector3::new(0.02, 0.02, 0.003));
    full[(0, 1)] = 0.001;
    full[(1, 0)] = 0.001;
    assert_eq!(forearm.inertia, Some(InertiaSpec::AboutOrigin(full)));
    assert_eq!(forearm.center_of_mass, None);
}

#[test]
fn a_shape_pose_places_the_centroid_and_a_centre_of_mass_without_inertia_keeps_the_shapes() {
    let scene = parse(ARM).unwrap();
    // The capsule's centroid is where its `position` puts it.
    let mut upper = scene.body("upper_arm").unwrap().clone();
    upper.center_of_mass = None;
    upper.inertia = None;
    let (_, com, central) = upper.mass_properties().unwrap();
    assert!((com - Point3::new(0.0, 0.0, -0.15)).norm() < 1e-15);
    // Given a centre of mass, the shape's central inertia is taken about it as it is.
    upper.center_of_mass = Some(Point3::new(0.0, 0.0, -0.1));
    let (_, com, inertia) = upper.mass_properties().unwrap();
    assert_eq!((com, inertia), (Point3::new(0.0, 0.0, -0.1), central));
    // A quarter turn about x lays the capsule's axis along y.
    let text = arm_with(
        "orientation = [1, 0, 0, 0] }\n\n[[body]]\nname = \"forearm\"",
        "orientation = [0.7071067811865476, 0.7071067811865476, 0, 0] }\n\n[[body]]\nname = \"forearm\"",
    );
    let mut upper = parse(&text).unwrap().body("upper_arm").unwrap().clone();
    upper.inertia = None;
    let (_, _, turned) = upper.mass_properties().unwrap();
    assert!(
        (turned[(1, 1)] - central[(2, 2)]).abs() < 1e-12 && (turned[(2, 2)] - central[(1, 1)]).abs() < 1e-12
    );
}

#[test]
fn scenes_without_mechanisms_have_none() {
    let scene =
        parse("[[body]]\nname = \"b\"\nmass = 1\nshape = { type = \"box\", size = [1, 1, 1] }\n").unwrap();
    assert!(scene.joints.is_empty() && scene.actuators.is_empty() && scene.couplers.is_empty());
    assert!(scene.excludes.is_empty() && scene.warnings.is_empty());
    assert_eq!(scene.bodies[0].center_of_mass, None);
    assert_eq!(scene.bodies[0].inertia, None);
}

#[test]
fn unknown_keys_are_rejected_with_the_table_named() {
    rejects(
        &arm_with("spring_reference = 0.2", "spring_reference = 0.2\nstifness = 1"),
        &["stifness", "[[joint]] shoulder"],
    );
    rejects(
        &arm_with("effort_limit = 50.0", "effort_limit = 50.0\nlimit = 1"),
        &["limit", "[[actuator]] shoulder_pd"],
    );
    rejects(&arm_with("offset = 0.005", "offset = 0.005\nscale = 1"), &["scale", "[[coupler]] finger_right"]);
    rejects(
        &arm_with("b = \"forearm\"", "b = \"forearm\"\nc = \"hand\""),
        &["`c`", "[[exclude]] upper_arm–forearm"],
    );
    rejects(
        &arm_with("origin = { position = [0, 0, 1], orientation", "origin = { pos = [0, 0, 1], orientation"),
        &["pos", "[[joint]] shoulder"],
    );
    rejects(
        &arm_with("type = \"revolute\"", "type = \"hinge\""),
        &["hinge", "revolute", "[[joint]] shoulder"],
    );
    rejects(&arm_with("kind = \"position\"", "kind = \"pd\""), &["pd", "[[actuator]] shoulder_pd"]);
}

#[test]
fn names_are_non_empty_and_unique() {
    rejects(
        &arm_with("name = \"elbow\"", "name = \"shoulder\""),
        &["`name`", "shoulder", "[[joint]]", "unique"],
    );
    rejects(&arm_with("name = \"elbow\"", "name = \" \""), &["`name`", "is empty", "[[joint]] #2"]);
    rejects(
        &arm_with("name = \"grip\"", "name = \"shoulder_pd\""),
        &["`name`", "shoulder_pd", "[[actuator]]"],
    );
    rejects(&arm_with("name = \"grip\"", "name = \"\""), &["`name`", "is empty", "[[actuator]] #3"]);
}

#[test]
fn references_name_existing_bodies_and_joints() {
    rejects(
        &arm_with("child = \"upper_arm\"", "child = \"upperarm\""),
        &["`child`", "upperarm", "[[joint]] shoulder", "`upper_arm`"],
    );
    rejects(
        &arm_with("parent = \"upper_arm\"", "parent = \"arm\""),
        &["`parent`", "arm", "[[joint]] elbow", "world"],
    );
    rejects(
        &arm_with("joint = \"shoulder\"", "joint = \"shoulder2\""),
        &["`joint`", "shoulder2", "[[actuator]] shoulder_pd", "`elbow`"],
    );
    rejects(
        &arm_with("follows = \"finger_left\"", "follows = \"thumb\""),
        &["`follows`", "thumb", "[[coupler]] finger_right"],
    );
    rejects(
        &arm_with("joint = \"finger_right\"", "joint = \"pinky\""),
        &["`joint`", "pinky", "[[coupler]] pinky"],
    );
    rejects(&arm_with("a = \"upper_arm\"", "a = \"upper\""), &["`a`", "upper", "[[exclude]]"]);
    rejects(&arm_with("b = \"forearm\"", "b = \"fore\""), &["`b`", "fore", "[[exclude]]"]);
    rejects(
        &arm_with("child = \"upper_arm\"", "child = \"world\""),
        &["`child`", "world", "[[joint]] shoulder"],
    );
}

#[test]
fn a_body_named_world_is_refused_when_there_are_joints() {
    rejects(&arm_with("name = \"floor\"", "name = \"world\""), &["`name`", "world", "body 'world'"]);
}

#[test]
fn the_joints_form_a_tree() {
    // Child and parent the same body.
    rejects(
        &arm_with("parent = \"upper_arm\"", "parent = \"forearm\""),
        &["`child`", "forearm", "parent", "[[joint]] elbow"],
    );
    // A body that is the child of two joints.
    rejects(
        &arm_with("child = \"cube\"", "child = \"hand\""),
        &["`child`", "hand", "wrist", "[[joint]] glue"],
    );
    // A loop: the shoulder hangs from the hand, which hangs from the forearm, from the upper arm.
    rejects(
        &arm_with("parent = \"world\"\nchild = \"upper_arm\"", "parent = \"hand\"\nchild = \"upper_arm\""),
        &["`parent`", "loop", "[[joint]]", "upper_arm"],
    );
}

#[test]
fn a_child_is_placed_by_its_joint() {
    for key in [
        "position = [0, 0, 1]",
        "orientation = [1, 0, 0, 0]",
        "linear_velocity = [1, 0, 0]",
        "angular_velocity = [0, 0, 1]",
    ] {
        let text = arm_with("name = \"hand\"\nmass = 0.2", &format!("name = \"hand\"\nmass = 0.2\n{key}"));
        let k = key.split(' ').next().unwrap();
        rejects(&text, &[&format!("`{k}`"), "body 'hand'", "joint `wrist`", "origin"]);
    }
    rejects(
        &arm_with("name = \"hand\"\nmass = 0.2", "name = \"hand\"\nfixed = true"),
        &["`fixed`", "body 'hand'", "wrist"],
    );
    rejects(
        &arm_with(
            "name = \"hand\"\nmass = 0.2",
            "name = \"hand\"\nmass = 0.2\nkinematic = { linear_velocity = [1, 0, 0] }",
        ),
        &["`kinematic`", "body 'hand'", "wrist"],
    );
    // A child that can move needs a mass, as any moving body does.
    rejects(&arm_with("name = \"hand\"\nmass = 0.2", "name = \"hand\""), &["`mass`", "body 'hand'"]);
}

#[test]
fn a_mechanism_does_not_hang_from_a_kinematic_body() {
    let text = arm_with("parent = \"floor\"", "parent = \"cart\"").replace(
        "[[body]]\nname = \"cube\"",
        "[[body]]\nname = \"cart\"\nkinematic = { linear_velocity = [1, 0, 0] }\nshape = { type = \"box\", size = [1, 1, 1] }\n\n[[body]]\nname = \"cube\"",
    );
    rejects(&text, &["`parent`", "cart", "kinematic", "not supported yet", "[[joint]] glue"]);
}

#[test]
fn joint_numbers_are_checked() {
    rejects(&arm_with("axis = [0, 2, 0]", "axis = [0, 0, 0]"), &["`axis`", "zero", "[[joint]] shoulder"]);
    rejects(&arm_with("axis = [0, 2, 0]", "axis = [0, 1e-13, 0]"), &["`axis`", "zero"]);
    rejects(&arm_with("axis = [0, 2, 0]", "axis = [0, nan, 0]"), &["`axis`", "finite"]);
    rejects(&arm_with("axis = [0, 2, 0]\n", ""), &["`axis`", "missing", "[[joint]] shoulder"]);
    rejects(
        &arm_with("position = [0, 1, 0, 0]", "position = [0, 1, 0, 0]\naxis = [1, 0, 0]"),
        &["`axis`", "ball", "[[joint]] wrist"],
    );
    rejects(&arm_with("limits = [-1.5, 1.5]", "limits = [1.5, -1.5]"), &["`limits`", "[[joint]] shoulder"]);
    rejects(&arm_with("limits = [-1.5, 1.5]", "limits = [-inf, 1.5]"), &["`limits`", "finite"]);
    rejects(
        &arm_with("limits = [-1.5, 1.5]", "limits = [0.5, 1.5]"),
        &["`position`", "0.3", "limits", "[[joint]] shoulder"],
    );
    rejects(&arm_with("damping = 0.1", "damping = -0.1"), &["`damping`", "[[joint]] shoulder"]);
    rejects(&arm_with("armature = 0.01", "armature = -1"), &["`armature`", "[[joint]] shoulder"]);
    rejects(&arm_with("stiffness = 2.0", "stiffness = -2.0"), &["`stiffness`", "[[joint]] shoulder"]);
    rejects(&arm_with("spring_reference = 0.2", "spring_reference = nan"), &["`spring_reference`", "finite"]);
    rejects(
        &arm_with("damping = 0.01", "damping = 0.01\nstiffness = 1"),
        &["`stiffness`", "ball", "[[joint]] wrist"],
    );
    rejects(
        &arm_with("damping = 0.01", "damping = 0.01\nlimits = [0, 1]"),
        &["`limits`", "ball", "[[joint]] wrist"],
    );
    rejects(
        &arm_with("child = \"cube\"", "child = \"cube\"\ndamping = 1"),
        &["`damping`", "fixed", "[[joint]] glue"],
    );
    rejects(
        &arm_with("child = \"cube\"", "child = \"cube\"\nposition = 1"),
        &["`position`", "fixed", "[[joint]] glue"],
    );
    rejects(
        &arm_with("child = \"cube\"", "child = \"cube\"\nvelocity = 1"),
        &["`velocity`", "fixed", "[[joint]] glue"],
    );
    rejects(
        &arm_with("origin = { position = [0, 0, -0.3] }", "origin = { orientation = [1, 1, 0, 0] }"),
        &["`origin.orientation`", "[[joint]] elbow"],
    );
    rejects(
        &arm_with("origin = { position = [0, 0, -0.3] }", "origin = { position = [0, 0] }"),
        &["position", "exactly 3", "[[joint]] elbow"],
    );
}

#[test]
fn initial_coordinates_fit_the_joint_type() {
    rejects(
        &arm_with("position = 0.3", "position = [0.3]"),
        &["`position`", "revolute", "[[joint]] shoulder"],
    );
    rejects(&arm_with("position = 0.3", "position = nan"), &["`position`", "finite"]);
    rejects(&arm_with("velocity = -0.5", "velocity = \"fast\""), &["`velocity`", "[[joint]] shoulder"]);
    rejects(
        &arm_with("position = [0, 1, 0, 0]", "position = [0, 2, 0, 0]"),
        &["`position`", "unit quaternion", "[[joint]] wrist"],
    );
    rejects(&arm_with("position = [0, 1, 0, 0]", "position = 1"), &["`position`", "ball", "[[joint]] wrist"]);
    rejects(
        &arm_with("velocity = [0, 0, 1]", "velocity = [0, 1]"),
        &["`velocity`", "ball", "[[joint]] wrist"],
    );
    rejects(
        &arm_with("position = [1, 2, 3, 0, 0, 0, 1]", "position = [1, 2, 3]"),
        &["`position`", "free", "[[joint]] float"],
    );
    rejects(
        &arm_with("position = [1, 2, 3, 0, 0, 0, 1]", "position = [1, 2, 3, 0, 0, 0, 3]"),
        &["`position`", "unit quaternion", "[[joint]] float"],
    );
    rejects(
        &arm_with("velocity = [0.1, 0, 0, 0, 0, 2]", "velocity = [0.1, 0, 0]"),
        &["`velocity`", "free", "[[joint]] float"],
    );
    // A ball's quaternion is normalised like a body's orientation.
    let scene = parse(&arm_with("position = [0, 1, 0, 0]", "position = [0, 1.0000001, 0, 0]")).unwrap();
    assert_eq!(scene.joint("wrist").unwrap().position, vec![0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn actuator_keys_are_checked() {
    rejects(
        &arm_with("joint = \"elbow\"", "joint = \"wrist\""),
        &["`joint`", "wrist", "ball", "[[actuator]] elbow_motor"],
    );
    rejects(&arm_with("kp = 200.0\n", ""), &["`kp`", "missing", "[[actuator]] shoulder_pd"]);
    rejects(&arm_with("kp = 200.0", "kp = 0"), &["`kp`", "greater than 0", "[[actuator]] shoulder_pd"]);
    rejects(&arm_with("kp = 200.0", "kp = -200.0"), &["`kp`", "[[actuator]] shoulder_pd"]);
    rejects(&arm_with("kd = 5.0", "kd = -5.0"), &["`kd`", "[[actuator]] shoulder_pd"]);
    rejects(&arm_with("kd = 3.0\n", ""), &["`kd`", "missing", "[[actuator]] grip"]);
    rejects(&arm_with("kd = 3.0", "kd = 0.0"), &["`kd`", "[[actuator]] grip"]);
    rejects(&arm_with("gear = 2.0", "gear = 0"), &["`gear`", "[[actuator]] elbow_motor"]);
    rejects(
        &arm_with("effort_limit = 50.0", "effort_limit = 0"),
        &["`effort_limit`", "[[actuator]] shoulder_pd"],
    );
    rejects(
        &arm_with("effort_limit = 50.0", "effort_limit = -5"),
        &["`effort_limit`", "[[actuator]] shoulder_pd"],
    );
    rejects(&arm_with("gear = 2.0", "gear = 2.0\nkp = 1"), &["`kp`", "motor", "[[actuator]] elbow_motor"]);
    rejects(
        &arm_with("kd = 3.0", "kd = 3.0\ntarget_velocity = 1"),
        &["`target_velocity`", "velocity", "[[actuator]] grip"],
    );
    rejects(
        &arm_with("kd = 5.0", "kd = 5.0\neffort = 1"),
        &["`effort`", "position", "[[actuator]] shoulder_pd"],
    );
    rejects(
        &arm_with("efforts = [[0.5, 1.0]]", "efforts = [[0.5, 1.0]]\neffort = 2"),
        &["`efforts`", "effort", "[[actuator]] elbow_motor"],
    );
    rejects(&arm_with("target = -0.01", "target = nan"), &["`target`", "finite", "[[actuator]] grip"]);
}

#[test]
fn schedules_are_checked() {
    let pd = |targets: &str| arm_with("targets = [[0.0, 0.3], [1.0, 0.8], [2.0, 2.0]]", targets);
    rejects(
        &pd("targets = [[0.0, 0.3], [1.0, 0.8]]\ntarget = 1"),
        &["`targets`", "target", "[[actuator]] shoulder_pd"],
    );
    rejects(&pd("targets = []"), &["`targets`", "empty", "[[actuator]] shoulder_pd"]);
    rejects(
        &pd("targets = [[0.0, 0.3], [0.0, 0.8]]"),
        &["`targets`", "strictly increasing", "[[actuator]] shoulder_pd"],
    );
    rejects(&pd("targets = [[1.0, 0.3], [0.5, 0.8]]"), &["`targets`", "strictly increasing"]);
    rejects(&pd("targets = [[-1.0, 0.3]]"), &["`targets`", "t = -1"]);
    rejects(&pd("targets = [[0.0, 0.3, 1.0]]"), &["`targets`", "3 numbers", "[t, value]"]);
    rejects(&pd("targets = [[0.0, inf]]"), &["`targets`", "finite"]);
    rejects(
        &arm_with("efforts = [[0.5, 1.0]]", "efforts = [[0.5, 1.0], [0.2, 1.0]]"),
        &["`efforts`", "[[actuator]] elbow_motor"],
    );
    let scene = parse(&pd("targets = [[0.5, 1.0]]")).unwrap();
    let ActuatorKind::Position { target, .. } = &scene.actuators[0].kind else { panic!() };
    assert_eq!((target.at(0.0), target.at(0.5), target.at(7.0), target.rate(0.5)), (1.0, 1.0, 1.0, 0.0));
}

#[test]
fn a_target_outside_the_limits_is_a_warning() {
    let actuators = |scene: &Scene| -> Vec<String> {
        scene.warnings.iter().filter(|w| w.starts_with("actuator")).cloned().collect()
    };
    let scene = parse(&arm_with("targets = [[0.0, 0.3], [1.0, 0.8], [2.0, 2.0]]", "target = 2")).unwrap();
    assert_eq!(
        actuators(&scene),
        vec!["actuator `shoulder_pd`: target 2 is outside joint `shoulder`'s limits [-1.5, 1.5]"]
    );
    let scene = parse(&arm_with("targets = [[0.0, 0.3], [1.0, 0.8], [2.0, 2.0]]", "target = 1")).unwrap();
    assert!(actuators(&scene).is_empty(), "{:?}", scene.warnings);
}

#[test]
fn couplers_are_checked() {
    let coupler = |joint: &str, follows: &str, more: &str| {
        arm_with(
            "joint = \"finger_right\"\nfollows = \"finger_left\"",
            &format!("joint = \"{joint}\"\nfollows = \"{follows}\"{more}"),
        )
    };
    rejects(
        &coupler("finger_right", "shoulder", ""),
        &["`follows`", "revolute", "prismatic", "[[coupler]] finger_right"],
    );
    rejects(&coupler("finger_right", "wrist", ""), &["`follows`", "ball", "[[coupler]]"]);
    rejects(&coupler("finger_right", "finger_right", ""), &["`follows`", "finger_right", "[[coupler]]"]);
    rejects(&arm_with("ratio = 2.0", "ratio = 0"), &["`ratio`", "[[coupler]] finger_right"]);
    rejects(&arm_with("ratio = 2.0", "ratio = inf"), &["`ratio`", "finite"]);
    rejects(&arm_with("offset = 0.005", "offset = nan"), &["`offset`", "finite"]);
    // Coupled twice, and chains either way round.
    rejects(
        &arm_plus("[[coupler]]\njoint = \"finger_right\"\nfollows = \"elbow\""),
        &["`joint`", "finger_right", "already coupled", "[[coupler]] finger_right"],
    );
    rejects(
        &arm_plus("[[coupler]]\njoint = \"elbow\"\nfollows = \"finger_right\""),
        &["`follows`", "finger_right", "chain", "[[coupler]] elbow"],
    );
    rejects(
        &arm_plus("[[coupler]]\njoint = \"finger_left\"\nfollows = \"elbow\""),
        &["`joint`", "finger_left", "chain", "[[coupler]] finger_left"],
    );
    // The follower has no actuator of its own.
    rejects(
        &coupler("finger_left", "finger_right", ""),
        &["`joint`", "finger_left", "grip", "[[coupler]] finger_left"],
    );
    // A follower's given position must agree with its leader's.
    let text = arm_with("axis = [-1, 0, 0]", "axis = [-1, 0, 0]\nposition = 0.03");
    rejects(&text, &["`position`", "finger_right", "finger_left", "0.025", "[[joint]] finger_right"]);
    let text = arm_with("axis = [-1, 0, 0]", "axis = [-1, 0, 0]\nposition = 0.025");
    assert!(parse(&text).is_ok());
    // And the limits must hold it.
    rejects(
        &arm_with("offset = 0.005", "offset = 0.1"),
        &["`position`", "limits", "finger_left", "[[joint]] finger_right"],
    );
}

#[test]
fn excludes_are_checked() {
    rejects(&arm_with("b = \"forearm\"", "b = \"upper_arm\""), &["`b`", "upper_arm", "[[exclude]]"]);
}

#[test]
fn inertia_takes_three_or_six_values() {
    let body = |inertia: &str| {
        format!(
            "[[body]]\nname = \"b\"\nmass = 1\ninertia = {inertia}\nshape = {{ type = \"box\", size = [1, 1, 1] }}\n"
        )
    };
    assert_mentions(
        &message(&body("[1, 1, 3]")),
        &["`inertia`", "body 'b'", "sum of the other two", "(line "],
    );
    assert_mentions(&message(&body("[1, 1, 0]")), &["`inertia`", "greater than 0"]);
    assert_mentions(&message(&body("[1, 1, 1, 0]")), &["`inertia`", "4 numbers", "6"]);
    assert_mentions(&message(&body("[1, 1, 1, 2, 0, 0]")), &["`inertia`", "positive definite", "body 'b'"]);
    assert_mentions(&message(&body("[1, 1, 1, 0, 0, nan]")), &["`inertia`", "finite"]);
    // Principal moments 0.5, 1.5, 4: 4 > 0.5 + 1.5.
    assert_mentions(
        &message(&body("[1, 1, 4, 0.5, 0, 0]")),
        &["`inertia`", "principal moments", "sum of the other two"],
    );
    let scene = parse(&body("[1, 1, 1, 0.5, 0, 0]")).unwrap();
    assert!(
        matches!(scene.bodies[0].inertia, Some(InertiaSpec::AboutOrigin(m)) if m[(0, 1)] == 0.5 && m[(1, 0)] == 0.5)
    );
    let scene =
        parse(&body("[1, 1, 1]").replace("mass = 1", "mass = 1\ncenter_of_mass = [0, 0, 0.1]")).unwrap();
    assert!(matches!(scene.bodies[0].inertia, Some(InertiaSpec::AboutCenterOfMass(_))));
}

#[test]
fn shape_poses_are_checked() {
    let body = |shape: &str| format!("[[body]]\nname = \"b\"\nmass = 1\nshape = {shape}\n");
    let ok = parse(&body("{ type = \"box\", size = [1, 1, 1], position = [0, 0, 0.2] }")).unwrap();
    assert_eq!(ok.bodies[0].shape_pose.translation.vector, Vector3::new(0.0, 0.0, 0.2));
    assert!(ok.warnings.is_empty(), "{:?}", ok.warnings);
    // The impulse models do not take offset shapes yet.
    assert_mentions(
        &message(&format!(
            "[model]\nkind = \"volume6d\"\n{}",
            body("{ type = \"box\", size = [1, 1, 1], position = [0, 0, 0.2] }")
        )),
        &["`shape.position`", "not supported yet"],
    );
    assert_mentions(
        &message(&body("{ type = \"sphere\", radius = 0.1, orientation = [2, 0, 0, 0] }")),
        &["`shape.orientation`", "unit quaternion", "body 'b'"],
    );
    assert_mentions(
        &message(&body("{ type = \"sphere\", radius = 0.1, position = [0, 0] }")),
        &["`shape.position`", "exactly 3"],
    );
    assert_mentions(
        &message(&body("{ type = \"sphere\", radius = 0.1, position = [0, 0, 1e7] }")),
        &["`shape.position`", "magnitude"],
    );
    let floor =
        "[[body]]\nname = \"f\"\nfixed = true\nshape = { type = \"halfspace\", position = [0, 0, 1] }\n";
    assert_mentions(&message(floor), &["`shape.position`", "halfspace", "body 'f'"]);
    // Identity poses keep the scene as it was: no warning.
    let plain = parse(&body(
        "{ type = \"box\", size = [1, 1, 1], position = [0, 0, 0], orientation = [1, 0, 0, 0] }",
    ))
    .unwrap();
    assert!(plain.warnings.is_empty());
}

#[test]
fn mechanism_tables_may_come_before_the_bodies() {
    let text = "[[joint]]\nname = \"j\"\ntype = \"revolute\"\nparent = \"world\"\nchild = \"b\"\naxis = [0, 0, 1]\n\n\
                [[exclude]]\na = \"b\"\nb = \"c\"\n\n\
                [[body]]\nname = \"b\"\nmass = 1\nshape = { type = \"box\", size = [1, 1, 1] }\n\n\
                [[body]]\nname = \"c\"\nfixed = true\nshape = { type = \"box\", size = [1, 1, 1] }\n\n\
                [model]\nkind = \"hertz\"\n";
    let scene = parse(text).unwrap();
    assert_eq!(scene.joints[0].axis, Vector3::z());
    assert_eq!(scene.excludes.len(), 1);
    // An error in the first table points at its line.
    let msg = message(&text.replace("axis = [0, 0, 1]", "axis = [0, 0, 0]"));
    assert_mentions(&msg, &["[[joint]] j (line 1,", "`axis`"]);
}
