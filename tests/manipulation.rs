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
