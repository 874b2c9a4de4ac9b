//! Robot files through `[[robot]]` as a user writes it: the files' mechanisms against closed
//! forms, then whole robots loading and moving under each model.

mod common;

use common::joint_samples;
use contactlab::dynamics::simulate::{Flow, Integrator, Schedule, run};
use contactlab::dynamics::world::World;
use contactlab::scene::{build_world, parse_scene};
use std::f64::consts::PI;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn world_of(text: &str, dir: &Path) -> World {
    let scene = parse_scene(text, dir).unwrap_or_else(|e| panic!("scene loads: {e}"));
    build_world(&scene, false).expect("world builds")
}

/// A scene of one robot `file` (relative to the repository) with `extra` keys in its table.
fn robot_scene(file: &str, extra: &str) -> String {
    format!(
        "[sim]\nduration = 1.0\n\n[[robot]]\nname = \"r\"\nfile = \"{}\"\npackage_paths = [\"{}\"]\n{extra}\n",
        root().join(file).display(),
        root().join("robots").display()
    )
}

fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    PI / (2.0 * a)
}

fn state_at(world: &World, q: &[f64], v: &[f64]) -> Vec<f64> {
    let m = world.mechanism.as_ref().unwrap();
    let mut y = world.initial_state();
    let (yq, yv) = m.q_v_mut(&mut y);
    yq.copy_from_slice(q);
    yv.copy_from_slice(v);
    y
}

/// Drake's Pendulum.urdf: two 0.5 kg point masses 0.5 m below a y axis, 1 m above the ground.
#[test]
fn drakes_pendulum_has_the_closed_form_mass_gravity_and_period() {
    let w = world_of(&robot_scene("robots/drake/Pendulum.urdf", ""), &root());
    let m = w.mechanism.as_ref().unwrap();
    let (mass, l, g) = (1.0, 0.5, 9.81);
    for theta in [0.0, 0.3, -1.2, 2.5] {
        let y = state_at(&w, &[theta], &[0.0]);
        let inertia = m.mass_matrix_at(&y)[(0, 0)];
        let torque = m.gravity_forces_at(&y, &w.gravity)[0];
        assert!((inertia - mass * l * l).abs() < 1e-9, "M = {inertia}");
        assert!((torque - mass * g * l * theta.sin()).abs() < 1e-9, "g = {torque} at {theta}");
    }
    // The period, undamped (the file's damping set to 0 in a copy), released from 90°.
    let dir = std::env::temp_dir().join(format!("contactlab-robots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("robots/drake/Pendulum.urdf")).unwrap();
    std::fs::write(dir.join("Pendulum.urdf"), text.replace("damping=\"0.1\"", "damping=\"0\"")).unwrap();
    let scene = format!(
        "[sim]\nduration = 4.5\n\n[[robot]]\nname = \"r\"\nfile = \"{}\"\npositions = {{ theta = {} }}\n",
        dir.join("Pendulum.urdf").display(),
        PI / 2.0
    );
    let period = radau_period(&world_of(&scene, &dir), 0.0);
    let expected = 4.0 * (mass * l * l / (mass * g * l)).sqrt() * elliptic_k((PI / 4.0).sin());
    eprintln!("Pendulum.urdf period {period}, closed form {expected}");
    assert!(((period - expected) / expected).abs() < 1e-5, "{period} vs {expected}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drake's Acrobot.urdf against Spong's two-link closed form with the file's own parameters.
#[test]
fn drakes_acrobot_has_the_two_link_closed_form() {
    let w = world_of(&robot_scene("robots/drake/Acrobot.urdf", ""), &root());
    // Link 1: m1 = 1 kg, centre 0.5 m down, Iyy 0.083 about it; the elbow 1 m down; link 2:
    // m2 = 1 kg, centre 1 m below the elbow, Iyy 0.33.
    two_link_closed_form(&w, [1.0, 0.5, 0.083, 1.0, 1.0, 1.0, 0.33], 1.0);
}

/// Panda (collision spheres and cylinders, package paths, visual meshes absent): its moving
/// joints, the finger coupler, the file's total mass; under PD at its home pose it holds.
#[test]
fn panda_holds_its_home_pose_under_pd_at_the_default_integrator() {
    let home = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785];
    let mut text = robot_scene(
        "robots/example-robot-data/robots/panda_description/urdf/panda_collision.urdf",
        "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e7 }\n",
    );
    text.push_str("positions = { ");
    text.push_str(
        &(1..=7).map(|k| format!("\"r/panda_joint{k}\" = {}", home[k - 1])).collect::<Vec<_>>().join(", "),
    );
    text.push_str(" }\n");
    for k in 1..=7 {
        text.push_str(&format!(
            "\n[[actuator]]\nname = \"pd{k}\"\njoint = \"r/panda_joint{k}\"\nkind = \"position\"\nkp = 2000.0\nkd = 50.0\ntarget = {}\n",
            home[k - 1]
        ));
    }
    let scene = parse_scene(&text, &root()).unwrap_or_else(|e| panic!("{e}"));
    let moving: Vec<_> = scene.joints.iter().filter(|j| j.joint_type.velocity_len() > 0).collect();
    assert_eq!(moving.len(), 9, "7 arm joints and 2 fingers");
    assert_eq!(scene.couplers.len(), 1, "the finger mimic");
    let file = std::fs::read_to_string(
        root().join("robots/example-robot-data/robots/panda_description/urdf/panda_collision.urdf"),
    )
    .unwrap();
    let file_mass: f64 = file
        .split("<mass value=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap())
        .sum();
    let total: f64 = scene.bodies.iter().map(|b| b.mass.unwrap_or(0.0)).sum();
    assert!((total - file_mass).abs() < 1e-12, "{total} vs {file_mass}");
    let w = build_world(&scene, false).expect("world builds");
    let (integrator, _) = contactlab::scene::integrator_choice(&scene).expect("default integrator");
    let s = joint_samples(&w, &integrator, 2.0, 0.01);
    let drift = s
        .iter()
        .flat_map(|(_, q, _)| q[..7].iter().zip(&home).map(|(a, b)| (a - b).abs()).collect::<Vec<_>>())
        .fold(0.0, f64::max);
    eprintln!("Panda's largest drift from home under PD over 2 s: {drift:.3e} rad");
    // The servos hold against gravity with the steady-state error τ_g / kp (≤ 1e-2 rad for
    // Panda's shoulder at kp = 2000); the drift is measured against the first settled pose.
    let settled = &s[s.len() / 2].1;
    let late_drift = s[s.len() / 2..]
        .iter()
        .flat_map(|(_, q, _)| q[..7].iter().zip(settled).map(|(a, b)| (a - b).abs()).collect::<Vec<_>>())
        .fold(0.0, f64::max);
    assert!(drift < 2e-2, "{drift}");
    assert!(late_drift < 1e-3, "{late_drift}");
}

#[test]
fn robot_mistakes_name_the_table_and_the_fix() {
    let cases = [
        (robot_scene("robots/drake/Missing.urdf", ""), "cannot read robot file"),
        (
            robot_scene("robots/drake/Pendulum.urdf", "positions = { elbow = 1.0 }"),
            "names no revolute or prismatic joint",
        ),
        (robot_scene("robots/drake/Pendulum.urdf", "keyframe = \"home\""), "is not a keyframe"),
        (
            robot_scene("robots/drake/Pendulum.urdf", "positions = { theta = \"a\" }"),
            "is not a finite number",
        ),
        (robot_scene("robots/README.md", ""), "is not a robot file"),
    ];
    for (text, expected) in cases {
        let e = parse_scene(&text, &root()).expect_err("refused").to_string();
        assert!(e.contains("[[robot]] r") && e.contains(expected), "{e}");
    }
    let text = robot_scene("robots/drake/Pendulum.urdf", "")
        + "\n[[body]]\nname = \"r/arm\"\nmass = 1.0\ninertia = [1, 1, 1]\n";
    let e = parse_scene(&text, &root()).expect_err("a clash").to_string();
    assert!(e.contains("r/arm"), "{e}");
}

/// A link's mass, centre-of-mass height along its z and inertia about y, as the file gives them.
fn link_params(robot: &contactlab::scene::import::RobotModel, name: &str) -> (f64, f64, f64) {
    let l = robot.links.iter().find(|l| l.name == name).expect("the link");
    (l.mass, l.center_of_mass.z, l.inertia[(1, 1)])
}

/// dm_control's pendulum.xml: the pole upright at q = 0 (a 1 kg ball 0.5 m up); M, gravity
/// torque and the period about the hanging pose against the closed form.
#[test]
fn dm_controls_pendulum_has_the_closed_form_mass_gravity_and_period() {
    let file = root().join("robots/dm_control/suite/pendulum.xml");
    let robot = contactlab::scene::import::read_mjcf(&file).expect("reads");
    let (mass, l, i_c) = link_params(&robot, "pole");
    let w = world_of(&robot_scene("robots/dm_control/suite/pendulum.xml", ""), &root());
    let m = w.mechanism.as_ref().unwrap();
    let g = 9.81;
    assert!((w.gravity.z + g).abs() < 1e-12, "the scene's gravity");
    for theta in [0.0, 0.3, -1.2, 2.5] {
        let y = state_at(&w, &[theta], &[0.0]);
        let inertia = m.mass_matrix_at(&y)[(0, 0)];
        let torque = m.gravity_forces_at(&y, &w.gravity)[0];
        assert!((inertia - (i_c + mass * l * l)).abs() < 1e-9, "M = {inertia}");
        assert!((torque + mass * g * l * theta.sin()).abs() < 1e-9, "g = {torque} at {theta}");
    }
    // Undamped (a copy with the file's damping set to 0), 90° from hanging.
    let dir = std::env::temp_dir().join(format!("contactlab-mjcf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(dir.join("pendulum.xml"), text.replace("damping=\"0.1\"", "damping=\"0\"")).unwrap();
    std::fs::create_dir_all(dir.join("common")).unwrap();
    for f in ["skybox.xml", "visual.xml", "materials.xml"] {
        std::fs::copy(root().join("robots/dm_control/suite/common").join(f), dir.join("common").join(f))
            .unwrap();
    }
    let scene = format!(
        "[sim]\nduration = 4.5\n\n[[robot]]\nname = \"r\"\nfile = \"{}\"\npositions = {{ hinge = {} }}\n",
        dir.join("pendulum.xml").display(),
        PI / 2.0
    );
    let period = radau_period(&world_of(&scene, &dir), PI);
    let expected = 4.0 * ((i_c + mass * l * l) / (mass * g * l)).sqrt() * elliptic_k((PI / 4.0).sin());
    eprintln!("pendulum.xml period {period}, closed form {expected}");
    assert!(((period - expected) / expected).abs() < 1e-5, "{period} vs {expected}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// dm_control's acrobot.xml (both links upright at q = 0) against the two-link closed form with
/// the file's own masses, centres and inertias.
#[test]
fn dm_controls_acrobot_has_the_two_link_closed_form() {
    let file = root().join("robots/dm_control/suite/acrobot.xml");
    let robot = contactlab::scene::import::read_mjcf(&file).expect("reads");
    let (m1, lc1, i1) = link_params(&robot, "upper_arm");
    let (m2, lc2, i2) = link_params(&robot, "lower_arm");
    let l1 = robot.joints.iter().find(|j| j.name == "elbow").unwrap().origin.translation.vector.z;
    let w = world_of(&robot_scene("robots/dm_control/suite/acrobot.xml", ""), &root());
    two_link_closed_form(&w, [m1, lc1, i1, l1, m2, lc2, i2], -1.0);
}

/// dm_control's finger.xml (examples/finger_spin.toml): the PD-driven finger turns the hinged
/// spinner by contact, and nothing else moves it.
#[test]
fn dm_controls_finger_turns_the_spinner_by_contact() {
    let dir = root().join("examples");
    let text = std::fs::read_to_string(dir.join("finger_spin.toml")).unwrap();
    let scene = parse_scene(&text, &dir).unwrap_or_else(|e| panic!("{e}"));
    let w = build_world(&scene, false).expect("world builds");
    let m = w.mechanism.as_ref().unwrap();
    let hinge = m.joint_named("finger/hinge").expect("the spinner's hinge");
    let at = m.articulation.offsets(hinge).0;
    let (integrator, _) = contactlab::scene::integrator_choice(&scene).expect("default integrator");
    let s = joint_samples(&w, &integrator, 1.4, 0.01);
    let turned = s.iter().map(|(_, q, _)| q[at].abs()).fold(0.0, f64::max);
    let first_move = s.iter().find(|(_, q, _)| q[at].abs() > 1e-9).map(|(t, _, _)| *t);
    eprintln!("spinner turned {turned:.3} rad, first at {first_move:?} s");
    assert!(turned > 0.2, "{turned}");
    // Still until the finger reaches it (the servo's sweep starts at 0.3 s).
    assert!(first_move.is_some_and(|t| t > 0.5), "{first_move:?}");
}

/// Spong's two-link arm about parallel y axes: M(q) and the bias forces of `w` at four states
/// equal the closed form with [m1, lc1, i1, l1, m2, lc2, i2] (1e-12). `hanging`: +1 when the
/// links hang down at q = 0 (gravity torques m·g·l·sin q), −1 when they stand up.
fn two_link_closed_form(w: &World, [m1, lc1, i1, l1, m2, lc2, i2]: [f64; 7], hanging: f64) {
    let (m, g) = (w.mechanism.as_ref().unwrap(), 9.81);
    for (q1, q2, v1, v2) in
        [(0.0, 0.0, 0.0, 0.0), (0.4, -1.1, 0.7, -2.0), (2.0, 0.9, -1.5, 0.3), (-2.8, 3.0, 2.2, 1.1)]
    {
        let y = state_at(w, &[q1, q2], &[v1, v2]);
        let mass = m.mass_matrix_at(&y);
        let c2 = f64::cos(q2);
        let m12 = i2 + m2 * (lc2 * lc2 + l1 * lc2 * c2);
        let expected = [
            [i1 + i2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * c2), m12],
            [m12, i2 + m2 * lc2 * lc2],
        ];
        for r in 0..2 {
            for c in 0..2 {
                let e = expected[r][c];
                assert!(
                    (mass[(r, c)] - e).abs() < 1e-12 * e.abs().max(1.0),
                    "M[{r}{c}] {} vs {e}",
                    mass[(r, c)]
                );
            }
        }
        let h = m2 * l1 * lc2 * f64::sin(q2);
        let bias = m.bias_forces_at(&y, &w.gravity);
        let gravity2 = hanging * m2 * lc2 * g * f64::sin(q1 + q2);
        let b1 =
            -2.0 * h * v1 * v2 - h * v2 * v2 + hanging * (m1 * lc1 + m2 * l1) * g * f64::sin(q1) + gravity2;
        let b2 = h * v1 * v1 + gravity2;
        assert!((bias[0] - b1).abs() < 1e-12 * b1.abs().max(1.0), "b1 {} vs {b1}", bias[0]);
        assert!((bias[1] - b2).abs() < 1e-12 * b2.abs().max(1.0), "b2 {} vs {b2}", bias[1]);
    }
}

/// Panda from `panda.urdf` (its STL collision meshes, compliant links) under PD at its home pose,
/// its fingers resting on a rigid table: the contact holds and the arm does not drift.
#[test]
fn panda_with_its_meshes_rests_its_fingers_on_a_table() {
    let home = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785];
    let mut text = robot_scene(
        "robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
        "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e7 }\n",
    );
    text.push_str("positions = { ");
    text.push_str(
        &(1..=7).map(|k| format!("panda_joint{k} = {}", home[k - 1])).collect::<Vec<_>>().join(", "),
    );
    text.push_str(" }\n\n[[body]]\nname = \"table\"\nfixed = true\nposition = [0.307, 0.0, 0.462]\n");
    text.push_str("shape = { type = \"box\", size = [0.3, 0.3, 0.05] }\ncontact = { compliance = \"rigid\", friction = 0.5 }\n");
    for k in 1..=7 {
        text.push_str(&format!(
            "\n[[actuator]]\nname = \"pd{k}\"\njoint = \"r/panda_joint{k}\"\nkind = \"position\"\nkp = 2000.0\nkd = 50.0\ntarget = {}\n",
            home[k - 1]
        ));
    }
    let scene = parse_scene(&text, &root()).unwrap_or_else(|e| panic!("{e}"));
    let meshes = scene
        .bodies
        .iter()
        .filter(|b| matches!(b.shape, Some(contactlab::geometry::Shape::Mesh { .. })))
        .count();
    assert!(meshes >= 8, "the links' STL meshes: {meshes}");
    let w = build_world(&scene, false).expect("world builds");
    let (integrator, _) = contactlab::scene::integrator_choice(&scene).expect("default integrator");
    let s = joint_samples(&w, &integrator, 2.0, 0.01);
    let (t, q, v) = s.last().unwrap();
    let mut y = state_at(&w, q, v);
    w.mechanism.as_ref().unwrap().q_v_mut(&mut y).0.copy_from_slice(q);
    let table = scene.bodies.iter().position(|b| b.name == "table").unwrap();
    let touching =
        w.contacts(*t, &y).expect("contacts").iter().filter(|c| c.a == table || c.b == table).count();
    let settled = &s[s.len() / 2].1;
    let late_drift = s[s.len() / 2..]
        .iter()
        .flat_map(|(_, q, _)| q[..7].iter().zip(settled).map(|(a, b)| (a - b).abs()).collect::<Vec<_>>())
        .fold(0.0, f64::max);
    eprintln!(
        "Panda on the table: {touching} contacts at the end, drift over the last second {late_drift:.2e} rad"
    );
    assert!(touching >= 2, "both fingers on the table: {touching}");
    assert!(late_drift < 1e-3, "{late_drift}");
}

/// A joint that carries no mass (a URDF leaf link without <inertial>) is refused at load, by name.
#[test]
fn a_joint_that_moves_no_mass_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("contactlab-massless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("zm.urdf"),
        r#"<robot name="zm">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/><limit lower="-1" upper="1"/></joint>
</robot>"#,
    )
    .unwrap();
    let scene = parse_scene("[[robot]]\nname = \"r\"\nfile = \"zm.urdf\"\n", &dir).expect("the file reads");
    let e = build_world(&scene, false).err().expect("refused").to_string();
    assert!(e.contains("joint `r/j`") && e.contains("<inertial>"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every dm_control file and every shared URDF loads through `[[robot]]` and runs 20 ms at the
/// default integrator (world geometry and links meshed at the automatic resolution).
#[test]
fn every_shared_robot_file_loads_and_runs() {
    let files = [
        "robots/dm_control/suite/pendulum.xml",
        "robots/dm_control/suite/acrobot.xml",
        "robots/dm_control/suite/cartpole.xml",
        "robots/dm_control/suite/finger.xml",
        "robots/dm_control/suite/manipulator.xml",
        "robots/drake/Pendulum.urdf",
        "robots/drake/Acrobot.urdf",
        "robots/example-robot-data/robots/double_pendulum_description/urdf/double_pendulum.urdf",
    ];
    for file in files {
        let text =
            robot_scene(file, "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e6 }\n");
        let scene = parse_scene(&text, &root()).unwrap_or_else(|e| panic!("{file}: {e}"));
        let w = build_world(&scene, false).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (integrator, _) = contactlab::scene::integrator_choice(&scene).expect("default integrator");
        run(&w, &integrator, &Schedule::new(0.02, 0.01), |_| Ok(Flow::Continue))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

/// The period of a one-joint pendulum under radau5 (rtol 1e-10) over 4.5 s: the time between its
/// first two downward crossings of `centre`, each interpolated linearly between 2 ms samples.
fn radau_period(w: &World, centre: f64) -> f64 {
    let tolerances = contactlab::dynamics::ode::Tolerances { rtol: 1e-10, atol: 1e-12 };
    let s = joint_samples(w, &Integrator::Radau5 { tolerances, initial_step: None }, 4.5, 2e-3);
    let crossings: Vec<f64> = s
        .windows(2)
        .filter(|p| p[0].1[0] > centre && p[1].1[0] <= centre)
        .map(|p| {
            let (q0, q1) = (p[0].1[0] - centre, p[1].1[0] - centre);
            p[0].0 + (p[1].0 - p[0].0) * q0 / (q0 - q1)
        })
        .collect();
    crossings[1] - crossings[0]
}

/// A file's joint Coulomb friction (URDF `<dynamics friction>`, MJCF `frictionloss`) reaches the
/// joints; `joint_friction = false` leaves it out and keeps the damping.
#[test]
fn joint_friction_from_the_file_is_simulated_unless_the_scene_drops_it() {
    let allegro = "robots/example-robot-data/robots/allegro_hand_description/urdf/allegro_right_hand.urdf";
    for (file, joint, friction, damping) in
        [(allegro, "r/joint_0.0", 10.0, 3.0), ("robots/dm_control/suite/finger.xml", "r/hinge", 0.1, 0.5)]
    {
        for (extra, expected) in [("", friction), ("joint_friction = false", 0.0)] {
            let scene = parse_scene(&robot_scene(file, extra), &root()).unwrap_or_else(|e| panic!("{e}"));
            let j = scene.joints.iter().find(|j| j.name == joint).expect("the joint");
            assert_eq!((j.friction, j.damping), (expected, damping), "{file} {extra}");
            let w = build_world(&scene, false).expect("world builds");
            let m = w.mechanism.as_ref().unwrap();
            let k = m.joint_named(joint).unwrap();
            assert_eq!(m.articulation.joints[k].friction, expected);
        }
    }
}

/// A URDF `<limit effort>` caps a hand-written actuator on the joint that gives none; one that
/// gives more is kept with a warning.
#[test]
fn a_hand_written_actuator_takes_the_files_effort_limit() {
    let panda = "robots/example-robot-data/robots/panda_description/urdf/panda_collision.urdf";
    let actuator = |limit: &str| {
        format!(
            "{}\n[[actuator]]\nname = \"servo\"\njoint = \"r/panda_joint1\"\nkind = \"position\"\nkp = 100.0\ntarget = 0.0\n{limit}\n",
            robot_scene(panda, "")
        )
    };
    for (limit, expected, warns) in
        [("", 87.0, false), ("effort_limit = 10.0", 10.0, false), ("effort_limit = 500.0", 500.0, true)]
    {
        let scene = parse_scene(&actuator(limit), &root()).unwrap_or_else(|e| panic!("{e}"));
        let a = scene.actuators.iter().find(|a| a.name == "servo").unwrap();
        assert_eq!(a.effort_limit, Some(expected), "{limit}");
        let warned = scene.warnings.iter().any(|w| w.contains("exceeds the robot file's 87"));
        assert_eq!(warned, warns, "{limit}: {:?}", scene.warnings);
    }
}
