//! `[[measure]]`: a body's pose drift relative to another (or the world) since a time, in
//! `measures.csv` and the run's summary, against free-flight closed forms.

use contactlab::app::simulation::{SimulateArgs, run};
use contactlab::scene::parse_scene;
use std::path::{Path, PathBuf};

fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-measures-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Two balls side by side in free flight, one spinning about z at `SPIN` rad/s.
const SPIN: f64 = 2.0;

fn scene_text(measures: &str) -> String {
    format!(
        r#"
[model]
kind = "hertz"

[sim]
duration = 1.0
integrator = "dopri5"
rtol = 1e-10
output_dt = 0.01

[[body]]
name = "left"
mass = 1.0
position = [0.0, 0.0, 10.0]
shape = {{ type = "sphere", radius = 0.1 }}
contact = {{ material = "Steel" }}

[[body]]
name = "right"
mass = 1.0
position = [1.0, 0.0, 10.0]
angular_velocity = [0.0, 0.0, {SPIN}]
shape = {{ type = "sphere", radius = 0.1 }}
contact = {{ material = "Steel" }}
{measures}
"#
    )
}

#[test]
fn drifts_equal_free_flight_closed_forms() {
    let text = scene_text(
        r#"
[[measure]]
name = "fall"
a = "world"
b = "left"
from = 0.5

[[measure]]
name = "pair"
a = "left"
b = "right"
"#,
    );
    let scene = parse_scene(&text, Path::new(".")).unwrap_or_else(|e| panic!("{e}"));
    let dir = out_dir("closed");
    let summary = run(&scene, &SimulateArgs::new(&dir)).expect("runs");
    let fall = summary.measures.iter().find(|m| m.name == "fall").unwrap();
    // z drops ½·g·(1² − 0.5²) between 0.5 s and 1 s; nothing else moves or turns.
    let expected = -0.5 * 9.81 * (1.0 - 0.25);
    assert!((fall.translation[2] - expected).abs() < 1e-8, "{:?}", fall.translation);
    assert!(fall.translation[0].abs() < 1e-12 && fall.rotation.abs() < 1e-12);
    // Side by side, falling together: the right ball only turns, by SPIN·1 s about z.
    let pair = summary.measures.iter().find(|m| m.name == "pair").unwrap();
    assert!(pair.distance() < 1e-9, "{:?}", pair.translation);
    assert!((pair.rotation - SPIN).abs() < 1e-8, "{}", pair.rotation);
    assert!(summary.line().contains("measure fall:"), "{}", summary.line());
    // The file: one row per measure and output from its start.
    let csv = std::fs::read_to_string(dir.join("measures.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("t,measure,dx,dy,dz,translation,rotation"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.iter().filter(|r| r[1] == "fall").count(), 51);
    assert_eq!(rows.iter().filter(|r| r[1] == "pair").count(), 101);
    let first_fall = rows.iter().find(|r| r[1] == "fall").unwrap();
    assert_eq!((first_fall[0], first_fall[5]), ("0.5", "0"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scene_without_measures_writes_no_file_and_mistakes_are_named() {
    let dir = out_dir("none");
    let scene = parse_scene(&scene_text(""), Path::new(".")).unwrap();
    run(&scene, &SimulateArgs::new(&dir)).expect("runs");
    assert!(!dir.join("measures.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
    for (measure, key) in [
        ("name = \"m\"\na = \"left\"\nb = \"lft\"", "`b`"),
        ("name = \"m\"\na = \"nowhere\"\nb = \"left\"", "`a`"),
        ("name = \"m\"\na = \"left\"\nb = \"left\"", "`b`"),
        ("name = \"m\"\na = \"world\"\nb = \"left\"\nfrom = 1.0", "`from`"),
        ("name = \"m\"\na = \"world\"\nb = \"left\"\nfrom = -1.0", "`from`"),
        ("name = \"\"\na = \"world\"\nb = \"left\"", "`name`"),
        ("name = \"m\"\na = \"world\"\nb = \"left\"\nform = 0.1", "form"),
    ] {
        let text = scene_text(&format!("[[measure]]\n{measure}\n"));
        let e = parse_scene(&text, Path::new(".")).unwrap_err().to_string();
        assert!(e.contains(key) && e.contains("measure"), "{measure}: {e}");
    }
    let twice = scene_text(
        "[[measure]]\nname = \"m\"\na = \"world\"\nb = \"left\"\n[[measure]]\nname = \"m\"\na = \"world\"\nb = \"right\"\n",
    );
    let e = parse_scene(&twice, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("more than one"), "{e}");
}
