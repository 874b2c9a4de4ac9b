//! The seeds' grasps on mechanisms (examples/pencil_gripper*.toml, ruler_pinch.toml), run as a
//! user runs them: the default integrator and step, the `[[measure]]` drifts of the summary.

use contactlab::app::simulation::{SimulateArgs, Summary, run};
use contactlab::scene::parse_scene;
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

/// Runs example `name` with `[model] kind` set to `model` into a temporary folder.
fn run_example(name: &str, model: &str) -> Summary {
    let path = example(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen("kind = \"pressure_field\"", &format!("kind = \"{model}\""), 1);
    let scene = parse_scene(&text, path.parent().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let dir =
        std::env::temp_dir().join(format!("contactlab-manipulation-{name}-{model}-{}", std::process::id()));
    let summary =
        run(&scene, &SimulateArgs::new(&dir)).unwrap_or_else(|e| panic!("{name} under {model}: {e:#}"));
    let _ = std::fs::remove_dir_all(&dir);
    summary
}

/// The measure's drift at the end (m, rad) and its largest rotation on the way (rad).
fn drift(summary: &Summary, name: &str) -> (f64, f64, f64) {
    let m = summary.measures.iter().find(|m| m.name == name).expect("the measure");
    (m.distance(), m.rotation, m.largest.1)
}

#[test]
fn a_firm_grip_holds_the_pencil_and_a_loose_one_lets_it_pivot_without_falling() {
    let firm = run_example("pencil_gripper.toml", "pressure_field");
    let (_, turned, _) = drift(&firm, "pivot");
    eprintln!("firm grip: the pencil turned {:.3}°", turned.to_degrees());
    assert!(turned.to_degrees() < 1.0, "{}", turned.to_degrees());
    let loose = run_example("pencil_gripper_loose.toml", "pressure_field");
    let (moved, turned, _) = drift(&loose, "pivot");
    eprintln!("loose grip: the pencil turned {:.1}°, its centre moved {moved:.4} m", turned.to_degrees());
    assert!(turned.to_degrees() > 30.0, "{}", turned.to_degrees());
    // It pivots about the pads (5 cm from its centre): its centre stays within that reach.
    assert!(moved < 0.1, "{moved}");
}

#[test]
fn the_ruler_sags_less_under_the_area_models_than_under_point_contact() {
    // The largest sag over the run: under point contact the ruler swings about the pinch.
    let sag = |model: &str| drift(&run_example("ruler_pinch.toml", model), "sag").2.to_degrees();
    let (pressure, volume, hertz) = (sag("pressure_field"), sag("volume6d"), sag("hertz"));
    eprintln!("ruler's largest sag: pressure_field {pressure:.3}°, volume6d {volume:.3}°, hertz {hertz:.3}°");
    assert!(volume < hertz && pressure < hertz, "{pressure} {volume} {hertz}");
    assert!(pressure < 1.0 && volume < 1.0 && hertz > 30.0, "{pressure} {volume} {hertz}");
}

/// Drake's gripper benchmark (examples/gripper_shake.toml), shortened to two of its ten shaking
/// periods: the 94 g cylinder stays in the 10 N grip. Regularized friction creeps at about
/// stiction_speed·(load/reach), the reach 2·μ·10 N = 20 N. The shaking's load (up to
/// m·A·ω² = 2.2 N) cancels over a period, the weight (0.92 N) does not: on average the cylinder
/// creeps down at stiction_speed·0.046, 0.14 µm/s at the example's 3e-6 m/s and 4.6 µm/s at the
/// default 1e-4 m/s. Over the 1 s of shaking the bound is 2 µm at 3e-6 m/s (creep plus the
/// pads' elastic settling, measured 0.7 µm) and 2-20 µm at the default (a lost grip slips by
/// centimetres: the gripper moves 0.3 m), so the test also sees the example's choice.
#[test]
fn the_gripper_holds_the_cylinder_while_shaken() {
    let path = example("gripper_shake.toml");
    let text = std::fs::read_to_string(&path).unwrap().replacen("duration = 5.3", "duration = 1.3", 1);
    let slip = |text: &str, tag: &str| {
        let scene = parse_scene(text, path.parent().unwrap()).unwrap();
        let dir = std::env::temp_dir()
            .join(format!("contactlab-manipulation-gripper-{tag}-{}", std::process::id()));
        let summary = run(&scene, &SimulateArgs::new(&dir)).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let slip = summary.measures.iter().find(|m| m.name == "slip").expect("the measure").clone();
        eprintln!(
            "{tag}: shaken 1 s, the cylinder moved {:.3e} m ({:.3e} m vertically) and turned {:.2e}°",
            slip.distance(),
            slip.translation[2],
            slip.rotation.to_degrees()
        );
        slip
    };
    let held = slip(&text, "stiction_speed 3e-6");
    assert!(held.distance() < 2e-6, "{}", held.distance());
    assert!(held.rotation.to_degrees() < 0.01, "{}", held.rotation);
    let default = text.replacen("\nstiction_speed = 3e-6", "\nstiction_speed = 1e-4", 1);
    let crept = slip(&default, "stiction_speed 1e-4");
    assert!(crept.translation[2] < -2e-6 && crept.distance() < 2e-5, "{:?}", crept.translation);
}
