//! The Allegro hand (example-robot-data's allegro_right_hand.urdf) through `[[robot]]`: it loads
//! as 16 revolute joints, and under PD targets its fingers close on a ball and hold it against
//! gravity once the stand under the ball drops away, under `pressure_field` and `hertz`
//! (examples/allegro_grasp.toml and allegro_grasp_hertz.toml, run whole: about 1 s and 0.5 s).

use contactlab::app::simulation::{SimulateArgs, run};
use contactlab::scene::{JointType, Scene, load_scene};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

/// Where the ball starts (on the stand, 2 mm below the palm).
const BALL_START: [f64; 3] = [0.03, 0.0, 0.247];

/// The finger a link of the hand belongs to: links 0-3 the index finger, 4-7 the middle one,
/// 8-11 the ring finger, 12-15 the thumb (each with its `_tip`); the palm is none.
fn finger_of(body: &str) -> Option<usize> {
    let link = body.strip_prefix("hand/link_")?;
    let number: usize = link.split('.').next()?.parse().ok()?;
    Some(number / 4)
}

#[test]
fn the_hand_loads_with_16_revolute_joints_and_its_thumb_within_its_limits() {
    let scene = load_scene(&example("allegro_grasp.toml")).unwrap_or_else(|e| panic!("{e}"));
    let of_type = |t: JointType| scene.joints.iter().filter(|j| j.joint_type == t).collect::<Vec<_>>();
    let revolute = of_type(JointType::Revolute);
    assert_eq!(revolute.len(), 16, "{:?}", revolute.iter().map(|j| &j.name).collect::<Vec<_>>());
    assert!(revolute.iter().all(|j| j.name.starts_with("hand/joint_") && j.limits.is_some()));
    // The palm's weld to the world and the four fingertips' fixed joints (the tips have mass:
    // bodies of their own).
    assert_eq!(of_type(JointType::Fixed).len(), 5);
    assert_eq!(scene.joints.len(), 21);
    let links: Vec<_> = scene.bodies.iter().filter(|b| b.name.starts_with("hand/")).collect();
    assert_eq!(links.len(), 21, "palm, 16 links and 4 tips");
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("robots/example-robot-data/robots/allegro_hand_description/urdf/allegro_right_hand.urdf"),
    )
    .unwrap();
    let file_mass: f64 = file
        .split("<mass value=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap())
        .sum();
    let mass: f64 = links.iter().map(|b| b.mass.unwrap_or(0.0)).sum();
    assert!((mass - file_mass).abs() < 1e-12, "{mass} vs {file_mass}");
    assert_eq!(scene.actuators.len(), 16, "a servo per joint");
    // The file starts every joint at 0, below the thumb's joint_12.0 limits [0.263, 1.396]:
    // the scene starts it at the lower limit and says so.
    let thumb = scene.joints.iter().find(|j| j.name == "hand/joint_12.0").unwrap();
    assert_eq!(thumb.limits, Some((0.263, 1.396)));
    assert_eq!(thumb.position, [0.263]);
    assert!(
        scene.warnings.iter().any(|w| w.contains("`joint_12.0` starts at its lower limit 0.263")),
        "{:#?}",
        scene.warnings
    );
    // A position the scene gives is kept as it is (and checked against the limits).
    let text = std::fs::read_to_string(example("allegro_grasp.toml")).unwrap().replace(
        "package_paths = [\"../robots\"]",
        "package_paths = [\"../robots\"]\npositions = { \"joint_12.0\" = 0.5 }",
    );
    let scene = contactlab::scene::parse_scene(&text, &example("")).unwrap_or_else(|e| panic!("{e}"));
    let thumb = scene.joints.iter().find(|j| j.name == "hand/joint_12.0").unwrap();
    assert_eq!(thumb.position, [0.5]);
    assert!(!scene.warnings.iter().any(|w| w.contains("starts at its lower limit")));
}

/// The ball's pose and the fingers touching it at the end of `scene`'s run, in a fresh folder.
fn grasp(scene: &Scene, name: &str) -> ([f64; 3], BTreeSet<usize>, BTreeSet<String>) {
    let out = std::env::temp_dir().join(format!("contactlab-allegro-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&out).ok();
    // Ok: the run reached its end, and the energy balance held at every output (the run's
    // own watch stops it otherwise).
    let summary = run(scene, &SimulateArgs::new(&out)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    let stats = &summary.stats;
    assert!((stats.t_end - scene.sim.duration).abs() < 1e-9, "{name}: ended at {}", stats.t_end);
    assert!(stats.max_energy_excess.is_finite(), "{name}");
    let index = |body: &str| scene.bodies.iter().position(|b| b.name == body).unwrap();
    let ball = summary.final_state[index("ball")].0.translation.vector;
    // The stand has dropped 10 cm, out of reach.
    let stand = summary.final_state[index("stand")].0.translation.vector;
    assert!((stand.z - 0.057).abs() < 1e-9, "{name}: the stand at {stand:?}");
    // The pairs touching the ball at the last output time.
    let text = std::fs::read_to_string(out.join("contacts.csv")).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let last = rows.last().expect("contacts at the end")[0];
    let mut fingers = BTreeSet::new();
    let mut links = BTreeSet::new();
    for row in rows.iter().filter(|r| r[0] == last) {
        let (a, b) = (row[1].trim_matches('"'), row[2].trim_matches('"'));
        let other = match (a, b) {
            ("ball", other) | (other, "ball") => other,
            _ => continue,
        };
        assert_ne!(other, "stand", "{name}: the stand still touches the ball");
        let force: Vec<f64> = row[3..6].iter().map(|x| x.parse().unwrap()).collect();
        if force.iter().map(|f| f * f).sum::<f64>().sqrt() > 0.05 {
            fingers.extend(finger_of(other));
            links.insert(other.to_string());
        }
    }
    let (rtf, _) = summary.real_time_factors();
    let moved = ((ball.x - BALL_START[0]).powi(2)
        + (ball.y - BALL_START[1]).powi(2)
        + (ball.z - BALL_START[2]).powi(2))
    .sqrt();
    eprintln!(
        "{name}: ball moved {:.2} mm; {} fingers, {} links touch it ({links:?}); {} steps, real-time factor {rtf:.2}",
        moved * 1e3,
        fingers.len(),
        links.len(),
        stats.steps
    );
    std::fs::remove_dir_all(&out).ok();
    ([ball.x, ball.y, ball.z], fingers, links)
}

fn check_the_hand_holds_the_ball(file: &str, name: &str) {
    let scene = load_scene(&example(file)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.sim.duration, 2.0, "closed by 1 s, the stand gone at 1.5 s, held to 2 s");
    let (ball, fingers, links) = grasp(&scene, name);
    // Held where the hand closed on it: within 1 cm of its start (it would be 0.1 m lower, with
    // the stand's top, were it resting on the stand; free fall for the last 0.5 s would take it
    // 1.2 m down).
    let moved = ball.iter().zip(BALL_START).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
    assert!(moved < 0.01, "{name}: the ball moved {moved} m to {ball:?}");
    assert!(links.len() >= 3, "{name}: links touching the ball {links:?}");
    assert!(fingers.len() >= 3, "{name}: fingers touching the ball {fingers:?} ({links:?})");
    assert!(fingers.contains(&3), "{name}: the thumb opposes the fingers ({links:?})");
}

#[test]
fn the_hand_holds_the_ball_under_pressure_field() {
    check_the_hand_holds_the_ball("allegro_grasp.toml", "pressure_field");
}

#[test]
fn the_hand_holds_the_ball_under_hertz() {
    check_the_hand_holds_the_ball("allegro_grasp_hertz.toml", "hertz");
}
