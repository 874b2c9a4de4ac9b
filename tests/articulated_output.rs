//! `joints.csv`: written by `simulate` (the library entry point the command line calls) for a
//! scene with joints, a row per joint coordinate at every output time; scenes without joints
//! write no such file.

use contactlab::app::simulation::{SimulateArgs, run};
use contactlab::scene::load_scene;
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("contactlab-articulated-output-{name}-{}", std::process::id()))
}

/// The pendulum simulated for `duration` s with outputs every `output_dt` s, into a fresh folder.
fn simulate(scene: &Path, name: &str, duration: f64, output_dt: f64) -> PathBuf {
    let mut scene = load_scene(scene).expect("the example loads");
    scene.sim.duration = duration;
    scene.sim.output_dt = Some(output_dt);
    let out = out_dir(name);
    std::fs::remove_dir_all(&out).ok();
    run(&scene, &SimulateArgs::new(&out)).expect("the run completes");
    out
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

#[test]
fn the_pendulum_writes_a_joint_row_per_output_time() {
    let out = simulate(&examples().join("pendulum.toml"), "pendulum", 0.05, 0.01);
    let text = std::fs::read_to_string(out.join("joints.csv")).expect("joints.csv written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t,joint,position,velocity,actuator_effort,constraint_effort"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // One joint: a row per output time, at the trajectory's times.
    let trajectory = std::fs::read_to_string(out.join("trajectory.csv")).expect("trajectory.csv written");
    let times: Vec<&str> = trajectory.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(times.len(), 6, "t = 0, 0.01, …, 0.05");
    assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), times);
    for row in &rows {
        assert_eq!(row.len(), 6, "{row:?}");
        assert_eq!(row[1], "pivot");
        for field in &row[2..] {
            let x: f64 = field.parse().unwrap_or_else(|_| panic!("{field} is not a number"));
            assert!(x.is_finite(), "{row:?}");
        }
        // No actuator, no limits.
        assert_eq!((row[4], row[5]), ("0", "0"), "{row:?}");
    }
    // Released from 90°, written as the scene gives it.
    assert_eq!(rows[0][2], "1.5707963267948966");
    let position: f64 = rows[0][2].parse().unwrap();
    assert_eq!(position, std::f64::consts::FRAC_PI_2);
    assert_eq!(rows[0][3], "0", "released from rest");
    // Falling from 90° towards the bottom: the angle decreases, its rate is negative.
    let last: Vec<f64> = rows[5][2..4].iter().map(|x| x.parse().unwrap()).collect();
    assert!(last[0] < position && last[1] < 0.0, "{last:?}");
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn a_scene_without_joints_writes_no_joints_csv() {
    let out = simulate(&examples().join("sphere_on_ground.toml"), "no-joints", 0.002, 0.001);
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .expect("the outputs exist")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["contacts.csv", "energy.csv", "trajectory.csv"]);
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn the_viewer_reads_a_run_with_joints() {
    // energy.csv has two more columns for scenes with joints; the viewer page takes them.
    let scene = examples().join("pendulum.toml");
    let dir = simulate(&scene, "view", 0.05, 0.01);
    let loaded = load_scene(&scene).unwrap();
    contactlab::commands::view::run(&loaded, &dir, "pendulum").expect("the viewer page");
    let html = std::fs::read_to_string(dir.join("view.html")).unwrap();
    assert!(html.contains("bob"));
}
