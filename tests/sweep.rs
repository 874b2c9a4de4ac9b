//! Parameter sweeps (`contactlab sweep`): runs against closed forms, the summary's rows, failed
//! runs as rows, resuming, the same results with any number of jobs; and the penetration depth
//! each model reports, against the overlap it was placed at.

use contactlab::app::ProgressMode;
use contactlab::scene::parse_scene;
use contactlab::sweep::{Plan, RunRecord, RunStatus, SweepOptions, grid, run_sweep};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn temp_dir(test: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("contactlab-sweep-{}-{test}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A ball falling freely for 0.1 s (the ground is far below) under the default implicit Euler.
const FREE_FALL: &str = r#"
[model]
kind = "pressure_field"
[sim]
duration = 0.1
gravity = [0.0, 0.0, -9.81]
[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 1.0]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.05 }
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"#;

fn sweep(scene: &Path, out: &Path, sets: &[&str], jobs: usize) -> Vec<RunRecord> {
    let sets: Vec<_> = sets.iter().map(|s| grid::parse_set(s).unwrap()).collect();
    let plan = Plan::new(&sets, &[], None, 0).unwrap();
    run_sweep(scene, &plan, &SweepOptions { out: out.into(), jobs, progress: ProgressMode::Off }).unwrap()
}

/// The summary without its wall_time and host columns (the ones that differ between repeats).
fn summary_without_times(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let skip = |name| header.iter().position(|h| *h == name).unwrap();
    let (wall, host) = (skip("wall_time"), skip("host"));
    text.lines()
        .map(|l| l.split(',').enumerate().filter(|(i, _)| *i != wall && *i != host).map(|(_, c)| c).collect())
        .collect()
}

#[test]
fn swept_drop_heights_and_steps_fall_as_backward_euler_says() {
    let dir = temp_dir("free-fall");
    let scene = dir.join("fall.toml");
    std::fs::write(&scene, FREE_FALL).unwrap();
    let out = dir.join("out");
    let records = sweep(&scene, &out, &["body.ball.position.2=1,2", "sim.dt=1e-3,5e-4"], 2);
    assert_eq!(records.len(), 4);
    for (r, (z0, dt)) in records.iter().zip([(1.0, 1e-3), (1.0, 5e-4), (2.0, 1e-3), (2.0, 5e-4_f64)]) {
        assert_eq!(r.status, RunStatus::Ok, "{}", r.message);
        assert_eq!(r.values, [z0.to_string(), if dt == 1e-3 { "0.001" } else { "0.0005" }.to_string()]);
        // Backward Euler: v_k = −g·k·dt, z_N = z0 − g·dt²·N(N+1)/2.
        let n: f64 = (0.1_f64 / dt).round();
        let z = z0 - 9.81 * dt * dt * n * (n + 1.0) / 2.0;
        let ball = &r.bodies[0];
        assert_eq!(ball.body, "ball");
        assert!((ball.position[2] - z).abs() < 1e-9, "z0 {z0}, dt {dt}: {} vs {z}", ball.position[2]);
        assert_eq!(r.max_contact_force, Some(0.0));
        assert_eq!(r.max_penetration, None, "no pair touched");
        assert!(out.join(format!("runs/{:04}/trajectory.csv", r.run)).exists());
        assert!(out.join(format!("runs/{:04}/scene.toml", r.run)).exists());
    }
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 5);
    assert!(summary.starts_with("run,body.ball.position.2,sim.dt,status,t_end,ball.x,"), "{summary}");
}

#[test]
fn any_number_of_jobs_gives_the_same_summary_and_a_rerun_only_runs_what_is_missing() {
    let dir = temp_dir("jobs");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sphere_drop.toml");
    let sets = ["sim.duration=0.1", "body.b0.contact.dissipation=0,1", "body.b0.position.2=0.05,0.06"];
    let one = sweep(&scene, &dir.join("one"), &sets, 1);
    let two = sweep(&scene, &dir.join("two"), &sets, 2);
    assert!(one.iter().all(|r| r.status == RunStatus::Ok && r.max_contact_force.unwrap() > 0.0));
    assert_eq!(summary_without_times(&dir.join("one")), summary_without_times(&dir.join("two")));
    for name in ["trajectory.csv", "energy.csv", "contacts.csv"] {
        let read = |d: &str| std::fs::read(dir.join(d).join("runs/0003").join(name)).unwrap();
        assert_eq!(read("one"), read("two"), "{name}");
    }
    // A run is what `simulate` writes for its scene (there on a writer thread of its own).
    let run_dir = dir.join("one/runs/0003");
    let text = std::fs::read_to_string(run_dir.join("scene.toml")).unwrap();
    let scene_3 = parse_scene(&text, scene.parent().unwrap()).unwrap();
    let alone = dir.join("alone");
    contactlab::app::simulation::run(&scene_3, &contactlab::app::simulation::SimulateArgs::new(&alone))
        .unwrap();
    for name in ["trajectory.csv", "energy.csv", "contacts.csv"] {
        assert_eq!(
            std::fs::read(run_dir.join(name)).unwrap(),
            std::fs::read(alone.join(name)).unwrap(),
            "{name}"
        );
    }
    // Resuming: run 2's record is gone (as if the sweep was killed during it).
    std::fs::remove_file(dir.join("two/runs/0002/result.json")).unwrap();
    let again = sweep(&scene, &dir.join("two"), &sets, 2);
    for (a, b) in two.iter().zip(&again) {
        if a.run == 2 {
            assert_eq!(RunRecord { wall_time: 0.0, ..a.clone() }, RunRecord { wall_time: 0.0, ..b.clone() });
        } else {
            assert_eq!(a, b, "a finished run is read back, not run again");
        }
    }
    // Another sweep into the same folder is refused.
    let other: Vec<_> = ["sim.duration=0.1", "body.b0.contact.dissipation=0,2"]
        .iter()
        .map(|s| grid::parse_set(s).unwrap())
        .collect();
    let plan = Plan::new(&other, &[], None, 0).unwrap();
    let e = run_sweep(
        &scene,
        &plan,
        &SweepOptions { out: dir.join("two"), jobs: 1, progress: ProgressMode::Off },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("different sweep") && e.contains("another --out"), "{e}");
}

#[test]
fn a_failed_run_is_a_row_and_the_command_exits_with_1() {
    let dir = temp_dir("failed");
    let scene = dir.join("fall.toml");
    std::fs::write(&scene, FREE_FALL).unwrap();
    let out = dir.join("out");
    let result = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args([
            "sweep",
            scene.to_str().unwrap(),
            "--set",
            "sim.dt=1e-3,-1",
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("1 of 2 runs failed"), "{stderr}");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = summary.lines().collect();
    assert!(rows[1].contains(",ok,"), "{summary}");
    assert!(rows[2].contains(",failed,") && rows[2].contains("dt"), "{summary}");
    // A key naming no body stops the sweep before any run, naming the bodies there are.
    let result = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args([
            "sweep",
            scene.to_str().unwrap(),
            "--set",
            "body.bal.mass=1,2",
            "--out",
            dir.join("o2").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr.contains("no body named `bal`") && stderr.contains("ball, ground"), "{stderr}");
}

/// Each model's penetration depth of a ball placed 1 cm into the ground (or into a twin ball).
#[test]
fn penetration_is_the_depth_the_bodies_overlap() {
    let ball = |name: &str, z: f64, contact: &str| {
        format!(
            "[[body]]\nname = \"{name}\"\nmass = 1.0\nposition = [0.0, 0.0, {z}]\nshape = {{ type = \"sphere\", radius = 0.1 }}\ncontact = {contact}\n"
        )
    };
    let compliant = "{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.005 }";
    let ground = |contact: &str| {
        format!(
            "[[body]]\nname = \"ground\"\nfixed = true\nshape = {{ type = \"halfspace\" }}\ncontact = {contact}\n"
        )
    };
    let cases = [
        ("pressure_field", ball("a", 0.09, compliant) + &ground("{ compliance = \"rigid\" }"), 0.01, 1e-4),
        (
            "pressure_field",
            ball("a", 0.09, compliant)
                + &ground("{ compliance = \"compliant\", hydroelastic_modulus = 1e6, slab_thickness = 0.1 }"),
            0.01,
            1e-4,
        ),
        ("pressure_field", ball("a", 0.0, compliant) + &ball("b", 0.19, compliant), 0.01, 1e-4),
        (
            "hertz",
            ball("a", 0.09, "{ material = \"Steel\" }")
                + "[[body]]\nname = \"table\"\nfixed = true\nposition = [0.0, 0.0, -0.1]\n"
                + "shape = { type = \"box\", size = [2.0, 2.0, 0.2] }\ncontact = { material = \"Steel\" }\n",
            0.01,
            1e-6,
        ),
    ];
    for (kind, bodies, depth, tolerance) in cases {
        let text = format!("[model]\nkind = \"{kind}\"\n{bodies}");
        let scene = parse_scene(&text, Path::new(".")).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let model = contactlab::scene::contact_model(&scene, false).unwrap();
        let poses: Vec<_> = scene.bodies.iter().map(|b| (b.pose, b.twist)).collect();
        let d = model.penetration((0, 1), &poses).unwrap().unwrap();
        assert!((d - depth).abs() < tolerance, "{kind}: {d} vs {depth}\n{text}");
        // Apart: none.
        let mut apart = poses.clone();
        let away = (poses[0].0.translation.vector.z - poses[1].0.translation.vector.z).signum();
        apart[0].0.translation.vector.z += 0.02 * away;
        assert_eq!(model.penetration((0, 1), &apart).unwrap(), Some(0.0), "{kind}");
    }
}

/// A sweep folder whose sweep.json does not read back, or an --out that is a file, is an error
/// naming the file and the fix (not a bare parser or OS message); a run whose result.json is cut
/// is run again.
#[test]
fn broken_sweep_folders_say_which_file_and_what_to_do() {
    let dir = temp_dir("broken");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sphere_drop.toml");
    let sets: Vec<_> = ["sim.duration=0.01"].iter().map(|s| grid::parse_set(s).unwrap()).collect();
    let plan = Plan::new(&sets, &[], None, 0).unwrap();
    let options = |out: PathBuf| SweepOptions { out, jobs: 1, progress: ProgressMode::Off };
    let out = dir.join("corrupt");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("sweep.json"), "not json").unwrap();
    let e = run_sweep(&scene, &plan, &options(out.clone())).unwrap_err().to_string();
    assert!(e.contains("sweep.json") && e.contains("delete it"), "{e}");
    // A run whose record is cut is run again (it did not finish).
    let out = dir.join("cut");
    run_sweep(&scene, &plan, &options(out.clone())).unwrap();
    std::fs::write(out.join("runs/0000/result.json"), "{\"status\": ").unwrap();
    let again = run_sweep(&scene, &plan, &options(out.clone())).unwrap();
    assert_eq!(again[0].status, RunStatus::Ok);
    let file = dir.join("a_file");
    std::fs::write(&file, "").unwrap();
    let e = run_sweep(&scene, &plan, &options(file)).unwrap_err().to_string();
    assert!(e.contains("a_file") && e.contains("another --out"), "{e}");
}
