//! End-to-end tests of `contactlab simulate`: output files and headers, the summary line, PNG
//! and VTK outputs, and a failing run that keeps its outputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-sim-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

fn contactlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_contactlab")).args(args).output().expect("run contactlab")
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).to_string_lossy().into_owned()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn simulate_writes_the_three_csv_files_and_a_summary() {
    let out = temp_dir("csv");
    let run = contactlab(&[
        "simulate",
        &example("spinning_puck.toml"),
        "--out",
        out.to_str().unwrap(),
        "--png",
        "--vtk",
    ]);
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{stderr}");
    assert!(stdout.contains("steps") && stdout.contains("real-time factor"), "summary: {stdout}");
    let trajectory = lines(&out.join("trajectory.csv"));
    assert_eq!(trajectory[0], "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
    let energy = lines(&out.join("energy.csv"));
    assert_eq!(energy[0], "t,kinetic,gravity,elastic,dissipated,total");
    let contacts = lines(&out.join("contacts.csv"));
    assert_eq!(contacts[0], "t,a,b,fx,fy,fz,tx,ty,tz,area,normal_force,slip_speed");
    // Two bodies per output time, one pair in contact, energies every output time.
    assert_eq!(trajectory.len() - 1, 2 * (energy.len() - 1));
    assert!(contacts.len() > 100);
    // The puck ends at rest: its last angular velocity is small, and dissipated energy grew to
    // about the initial spin energy ½·I·ω² = ½·(½·0.5·0.05²)·40² = 0.5 J.
    let last: Vec<f64> = trajectory.last().unwrap().split(',').filter_map(|x| x.parse().ok()).collect();
    assert!(last[last.len() - 1].abs() < 0.1, "still spinning: {last:?}");
    let e: Vec<f64> = energy.last().unwrap().split(',').map(|x| x.parse().unwrap()).collect();
    assert!((e[4] - 0.5).abs() < 0.05, "dissipated {} J", e[4]);
    for png in ["energy.png", "contact_force.png"] {
        let bytes = std::fs::read(out.join(png)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{png}");
    }
    assert!(out.join("vtk/bodies.pvd").exists() && out.join("vtk/contacts.pvd").exists());
}

#[test]
fn a_blow_up_stops_with_the_time_and_bodies_and_keeps_the_outputs() {
    let dir = temp_dir("blowup");
    // A light, very stiff ball pressed into the ground and stepped by the explicit scheme with a
    // step far too long for its contact: it blows up, and the run must stop there, naming the
    // time and the body.
    let scene = dir.join("overflow.toml");
    std::fs::write(
        &scene,
        r#"[sim]
duration = 1.0
dt = 0.01
integrator = "semi_implicit_euler"
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
[[body]]
name = "ball"
mass = 0.001
position = [0.0, 0.0, 0.09]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e13, resolution = 0.05 }
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let run = contactlab(&["simulate", scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "the run should fail");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("t = ") && stderr.contains("ball"), "message: {stderr}");
    assert!(lines(&out.join("trajectory.csv")).len() > 1, "outputs up to the failure are kept");
}

#[test]
fn unknown_integrator_lists_the_valid_ones() {
    let dir = temp_dir("integrator");
    let scene = dir.join("s.toml");
    std::fs::write(
        &scene,
        "[sim]\nintegrator = \"rk4\"\n[[body]]\nname = \"b\"\nmass = 1.0\nshape = { type = \"sphere\", radius = 0.1 }\n",
    )
    .unwrap();
    let run = contactlab(&["simulate", scene.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("semi_implicit_euler") && stderr.contains("radau5"), "{stderr}");
}

#[test]
fn symplectic_euler_with_a_step_too_large_for_the_stiffness_stops_on_the_energy_balance() {
    let dir = temp_dir("energy");
    // A stiff compliant box (E = 1e9) dropped 1 cm: 1 ms steps do not resolve its contact
    // vibration, so the symplectic scheme pumps energy into it; the run must stop and say so.
    let scene = dir.join("stiff_box.toml");
    std::fs::write(
        &scene,
        r#"[sim]
duration = 1.0
integrator = "semi_implicit_euler"
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid", friction = 0.5 }
[[body]]
name = "box"
mass = 1.0
position = [0.0, 0.0, 0.06]
shape = { type = "box", size = [0.1, 0.1, 0.1] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e9, dissipation = 1.0, friction = 0.5, resolution = 0.1 }
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let run = contactlab(&["simulate", scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "the run should fail: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in ["energy balance", "t = ", "box", "implicit_euler", "smaller dt"] {
        assert!(stderr.contains(needle), "message lacks `{needle}`: {stderr}");
    }
    // The outputs up to the stop are complete rows of finite numbers.
    let trajectory = lines(&out.join("trajectory.csv"));
    let energy = lines(&out.join("energy.csv"));
    assert!(trajectory.len() > 10 && energy.len() > 5, "outputs kept");
    for row in &trajectory[1..] {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 15, "row {row}");
        assert!(
            fields.iter().filter(|f| f.parse::<f64>().is_ok()).all(|f| f.parse::<f64>().unwrap().is_finite())
        );
    }
    assert_eq!(energy.len() - 1, (trajectory.len() - 1) / 2, "one energy row per output time");
    for row in &energy[1..] {
        assert!(row.split(',').all(|f| f.parse::<f64>().is_ok_and(f64::is_finite)), "row {row}");
    }
}

/// A scene with one sphere over the ground and the given `[sim]` lines.
fn sphere_scene(dir: &Path, sim: &str) -> String {
    let path = dir.join("scene.toml");
    let text = format!(
        "[sim]\n{sim}\n[[body]]\nname = \"ground\"\nfixed = true\nshape = {{ type = \"halfspace\" }}\n\
         [[body]]\nname = \"ball\"\nmass = 1.0\nposition = [0, 0, 0.2]\nshape = {{ type = \"sphere\", radius = 0.05 }}\n\
         contact = {{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.02 }}\n"
    );
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn runs_that_would_never_end_or_overshoot_are_rejected_at_load() {
    let dir = temp_dir("budgets");
    let out = dir.join("out");
    for (sim, expected) in [
        (
            "duration = 0.05\ndt = 0.5",
            "[sim] dt = 0.5 s is longer than duration = 0.05 s (the run would simulate 0.5 s); use dt ≤ duration",
        ),
        (
            "duration = 0.05\ndt = 1e300\nintegrator = \"dopri5\"",
            "[sim] dt = 1e300 s (the first adaptive step) is longer than duration = 0.05 s",
        ),
        (
            "duration = 0.05\ndt = 0.5\nintegrator = \"radau5\"",
            "[sim] dt = 0.5 s (the first adaptive step) is longer than duration = 0.05 s",
        ),
        (
            "duration = 0.05\ndt = 1e-300",
            "[sim] duration / dt = 5e298 steps, more than the 1e9 a run may take",
        ),
        ("duration = 1e300", "[sim] duration / dt = 1e303 steps, more than the 1e9 a run may take"),
        (
            "duration = 1e300\nintegrator = \"dopri5\"",
            "[sim] duration / output_dt = 1e303 output rows, more than the 1e9 a run may take",
        ),
    ] {
        let scene = sphere_scene(&dir, sim);
        let start = std::time::Instant::now();
        let run = contactlab(&["simulate", &scene, "--out", out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{sim}: should fail");
        assert!(stderr.contains(expected), "{sim}: {stderr}");
        assert!(start.elapsed().as_secs_f64() < 20.0, "{sim}: took {:?}", start.elapsed());
    }
}

#[test]
fn max_wall_time_stops_a_run_and_keeps_its_outputs() {
    let dir = temp_dir("wall");
    let out = dir.join("out");
    let scene = sphere_scene(&dir, "duration = 1000\nmax_wall_time = 0.2");
    let start = std::time::Instant::now();
    let run = contactlab(&["simulate", &scene, "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "a run cut short must not report success");
    assert!(stderr.contains("it reached [sim] max_wall_time = 0.2 s"), "{stderr}");
    assert!(start.elapsed().as_secs_f64() < 20.0);
    // Complete rows up to the stop, all finite.
    let energy = lines(&out.join("energy.csv"));
    assert!(energy.len() > 10);
    let last: Vec<f64> = energy.last().unwrap().split(',').map(|x| x.parse().unwrap()).collect();
    assert!(last.iter().all(|x| x.is_finite()) && last[0] > 0.0 && last[0] < 1000.0, "{last:?}");
    assert!(stderr.contains(&format!("simulation stopped at t = {} s", last[0])), "{stderr}");
}

#[test]
fn quiet_prints_nothing_on_stderr_and_a_log_gets_whole_lines() {
    let dir = temp_dir("quiet");
    let scene = sphere_scene(&dir, "duration = 0.05");
    let out = dir.join("out");
    let quiet = contactlab(&["simulate", &scene, "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(quiet.status.success());
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    // Without a terminal, progress comes as whole lines (no carriage-return redraws).
    let log = contactlab(&["simulate", &scene, "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&log.stderr);
    assert!(log.status.success() && !stderr.contains('\r'), "{stderr:?}");
    assert!(stderr.contains("contactlab: meshing body `ball`"), "{stderr}");
}

#[test]
fn a_killed_run_keeps_what_it_computed() {
    let dir = temp_dir("killed");
    let scene = sphere_scene(&dir, "duration = 1000");
    let out = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["simulate", &scene, "--out", out.to_str().unwrap(), "--quiet"])
        .spawn()
        .expect("start contactlab");
    std::thread::sleep(std::time::Duration::from_millis(2500));
    child.kill().expect("kill the run");
    let _ = child.wait();
    // The CSVs are flushed every second: rows computed more than a second ago are on disk.
    let energy = lines(&out.join("energy.csv"));
    assert!(energy.len() > 10, "only {} lines survived the kill", energy.len());
}

#[test]
fn no_output_writes_the_first_and_last_rows_of_the_same_run() {
    // Every integrator (a constraint model's too), a duration that is not a whole number of
    // steps and one that n·output_dt misses by a rounding (3 × 0.3 < 0.9): the last rows are
    // the full run's, byte for byte, and nothing is written between.
    let dir = temp_dir("no-output");
    let drop = std::fs::read_to_string(example("box_drop.toml")).unwrap();
    let with = |integrator: &str, sim: &str| {
        drop.replace("integrator = \"implicit_euler\"", &format!("integrator = \"{integrator}\"\n{sim}"))
    };
    let scenes = [
        ("implicit", with("implicit_euler", "").replace("duration = 1.0", "duration = 0.5005")),
        (
            "semi",
            with("semi_implicit_euler", "")
                .replace("dt = 1e-3", "dt = 1e-4")
                .replace("duration = 1.0", "duration = 0.3"),
        ),
        ("dopri5", with("dopri5", "output_dt = 0.3").replace("duration = 1.0", "duration = 0.9")),
        ("radau5", with("radau5", "").replace("duration = 1.0", "duration = 0.5")),
        ("volume6d", std::fs::read_to_string(example("volume6d_stack.toml")).unwrap()),
    ];
    for (name, text) in scenes {
        let scene = dir.join(format!("{name}.toml"));
        std::fs::write(&scene, &text).unwrap();
        let (full, bare) = (dir.join(format!("{name}-full")), dir.join(format!("{name}-bare")));
        let run =
            contactlab(&["simulate", scene.to_str().unwrap(), "--out", full.to_str().unwrap(), "--quiet"]);
        assert!(run.status.success(), "{name}: {}", String::from_utf8_lossy(&run.stderr));
        let run = contactlab(&[
            "simulate",
            scene.to_str().unwrap(),
            "--out",
            bare.to_str().unwrap(),
            "--quiet",
            "--no-output",
        ]);
        assert!(run.status.success(), "{name}: {}", String::from_utf8_lossy(&run.stderr));
        let (a, b) = (lines(&full.join("energy.csv")), lines(&bare.join("energy.csv")));
        assert_eq!((b.len(), &b[1], b.last()), (3, &a[1], a.last()), "{name}: energy rows");
        let end: f64 = b[2].split(',').next().unwrap().parse().unwrap();
        assert!(end > 0.29, "{name}: the last row at t = {end}");
        let (a, b) = (lines(&full.join("trajectory.csv")), lines(&bare.join("trajectory.csv")));
        let bodies = (b.len() - 1) / 2;
        assert!(bodies >= 2 && b.len() == 1 + 2 * bodies, "{name}: {} rows", b.len());
        assert_eq!(a[..1 + bodies], b[..1 + bodies], "{name}: first rows");
        assert_eq!(a[a.len() - bodies..], b[b.len() - bodies..], "{name}: last rows");
        let (a, b) = (lines(&full.join("contacts.csv")), lines(&bare.join("contacts.csv")));
        let last_t =
            |rows: &[String]| rows.iter().rev().take_while(|r| r.starts_with(&format!("{end},"))).count();
        assert_eq!(a[a.len() - last_t(&a)..], b[b.len() - last_t(&b)..], "{name}: last contact rows");
        if full.join("solver.csv").exists() {
            assert_eq!(lines(&bare.join("solver.csv")).len(), 1, "{name}: solver.csv keeps its header only");
        }
    }
}
