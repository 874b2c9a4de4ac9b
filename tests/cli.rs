//! End-to-end tests of the `contactlab` binary: the command-line contract in DESIGN.md, the JSON
//! report, the files written by `--vtk`/`--png`, and the messages for bad scene files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The closed-form normal force of the example: (π/3)·E·d²·(3 − 2d/R), E = 1e5, d = 0.01, R = 0.1.
const SPHERE_ON_GROUND_FORCE: f64 = 29.3215;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

/// A fresh, empty folder for one test (unique per process and call).
fn temp_dir(test: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("contactlab-cli-{}-{test}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

fn contactlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_contactlab")).args(args).output().expect("run contactlab")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `contactlab contact SCENE --json ...`, asserts success and parses the one JSON object.
fn contact_json(scene: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["contact", scene.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = contactlab(&args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "contactlab {args:?} failed: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    let mut stream = serde_json::Deserializer::from_str(&stdout).into_iter::<Value>();
    let value = stream.next().expect("one JSON value on stdout").expect("valid JSON on stdout");
    assert!(stream.next().is_none(), "more than one JSON value on stdout: {stdout}");
    assert!(value.is_object(), "stdout is not a JSON object: {stdout}");
    value
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    assert_eq!(a.len(), 3, "not 3 components: {v}");
    [0, 1, 2].map(|k| a[k].as_f64().unwrap_or_else(|| panic!("not a number: {v}")))
}

fn norm(v: [f64; 3]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The example scene's bodies, reused by the bad-input scenes.
const BALL: &str = r#"
[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.09]
"#;
const BALL_SHAPE: &str = r#"shape = { type = "sphere", radius = 0.1 }
"#;
const BALL_CONTACT: &str = r#"contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.01 }
"#;
const GROUND: &str = r#"
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"#;

fn ball_with(lines: &str) -> String {
    format!("{BALL}{lines}")
}

/// Writes `scene` into a fresh folder (with `extra` files), runs `contact --json` on it and
/// asserts a clean failure: non-zero exit, nothing on stdout, no panic, and every one of `needles`
/// in the message on stderr. Returns stderr.
fn assert_rejected_with(test: &str, scene: &str, extra: &[(&str, &[u8])], needles: &[&str]) -> String {
    let dir = temp_dir(test);
    let path = dir.join("scene.toml");
    std::fs::write(&path, scene).unwrap();
    for (name, bytes) in extra {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    assert_fails(&["contact", path.to_str().unwrap(), "--json"], needles)
}

fn assert_rejected(test: &str, scene: &str, needles: &[&str]) -> String {
    assert_rejected_with(test, scene, &[], needles)
}

fn assert_fails(args: &[&str], needles: &[&str]) -> String {
    let out = contactlab(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "contactlab {args:?} succeeded; stdout: {stdout}");
    assert!(!stderr.contains("panicked"), "contactlab {args:?} panicked: {stderr}");
    assert!(stdout.trim().is_empty(), "a failed run printed on stdout: {stdout}");
    for needle in needles {
        assert!(
            stderr.to_lowercase().contains(&needle.to_lowercase()),
            "stderr of {args:?} does not mention {needle:?}: {stderr}"
        );
    }
    stderr
}

// ---------------------------------------------------------------------------------------------
// The JSON report

#[test]
fn sphere_on_ground_json_report_matches_contract_and_closed_form() {
    let report = contact_json(&example("sphere_on_ground.toml"), &[]);
    let obj = report.as_object().unwrap();
    for key in ["model", "pairs", "micros_per_query"] {
        assert!(obj.contains_key(key), "missing key {key}: {report}");
    }
    assert_eq!(report["model"], "pressure_field");
    // A number (JSON has no NaN or infinity), and the query really was timed: a meshed
    // sphere's contact takes microseconds, never zero.
    let us = report["micros_per_query"].as_f64().expect("micros_per_query is a number");
    assert!(us > 0.0, "micros_per_query = {us}");

    let pairs = report["pairs"].as_array().expect("pairs is an array");
    assert_eq!(pairs.len(), 1, "one contacting pair expected: {report}");
    let pair = &pairs[0];
    for key in ["a", "b", "force", "torque", "area", "energy", "faces"] {
        assert!(pair.get(key).is_some(), "pair lacks key {key}: {pair}");
    }
    assert_eq!(pair["a"], "ball");
    assert_eq!(pair["b"], "ground");
    let force = vec3(&pair["force"]);
    let torque = vec3(&pair["torque"]);
    let rel = (force[2] - SPHERE_ON_GROUND_FORCE) / SPHERE_ON_GROUND_FORCE;
    assert!(rel.abs() < 0.01, "force z {} is {:+.3}% off the closed form", force[2], rel * 100.0);
    // Axisymmetric about the world z axis through the origin: no side force, no torque.
    assert!(force[0].abs() < 1e-9 * force[2] && force[1].abs() < 1e-9 * force[2], "force {force:?}");
    assert!(norm(torque) < 1e-9 * force[2], "torque {torque:?}");
    // The patch is (close to) the disk where the sphere cuts z = 0: π(R² − (R − d)²).
    let area = pair["area"].as_f64().unwrap();
    let disk = std::f64::consts::PI * (0.1f64.powi(2) - 0.09f64.powi(2));
    assert!((area - disk).abs() < 0.05 * disk, "area {area} vs disk {disk}");
    let energy = pair["energy"].as_f64().expect("energy is a number for pressure_field");
    assert!(energy > 0.0, "energy {energy}");
    let faces = pair["faces"].as_u64().expect("faces is an integer");
    assert!(faces > 0);
}

#[test]
fn repeat_gives_the_same_pairs() {
    let once = contact_json(&example("sphere_on_ground.toml"), &[]);
    let five = contact_json(&example("sphere_on_ground.toml"), &["--repeat", "5"]);
    assert_eq!(once["pairs"], five["pairs"], "--repeat changed the result");
    // The repeated queries are timed too (a duration over a count is never negative: > 0 is
    // the check that they ran).
    let us = five["micros_per_query"].as_f64().expect("micros_per_query is a number");
    assert!(us > 0.0, "micros_per_query = {us}");
}

#[test]
fn repeat_zero_is_rejected() {
    let scene = example("sphere_on_ground.toml");
    assert_fails(&["contact", scene.to_str().unwrap(), "--json", "--repeat", "0"], &["--repeat"]);
}

#[test]
fn human_readable_report_names_the_pair() {
    let scene = example("sphere_on_ground.toml");
    let out = contactlab(&["contact", scene.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("ball") && stdout.contains("ground"), "{stdout}");
    assert!(stdout.contains("pressure_field"), "{stdout}");
}

// ---------------------------------------------------------------------------------------------
// Files

#[test]
fn vtk_writes_contact_surface_and_body_files() {
    let dir = temp_dir("vtk");
    let out_dir = dir.join("vtk-out");
    let scene = example("sphere_on_ground.toml");
    contact_json(&scene, &["--vtk", out_dir.to_str().unwrap()]);
    let files: Vec<PathBuf> =
        std::fs::read_dir(&out_dir).expect("--vtk folder exists").map(|e| e.unwrap().path()).collect();
    let named = |prefix: &str| {
        files.iter().filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix)).count()
    };
    assert!(named("contact_") >= 1, "no contact surface file in {files:?}");
    assert!(named("body_") >= 1, "no body file in {files:?}");
    for f in &files {
        assert!(f.extension().is_some_and(|e| e == "vtk"), "unexpected file {f:?}");
        let bytes = std::fs::read(f).unwrap();
        assert!(bytes.starts_with(b"# vtk DataFile"), "{f:?} is not a legacy VTK file");
        assert!(bytes.len() > 200, "{f:?} is nearly empty ({} bytes)", bytes.len());
    }
}

#[test]
fn png_writes_an_image() {
    let dir = temp_dir("png");
    let file = dir.join("patch.png");
    contact_json(&example("sphere_on_ground.toml"), &["--png", file.to_str().unwrap()]);
    let bytes = std::fs::read(&file).expect("--png file exists");
    assert!(bytes.starts_with(&[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n']), "no PNG signature");
    assert!(bytes.len() > 1000, "PNG is only {} bytes", bytes.len());
}

// ---------------------------------------------------------------------------------------------
// Symmetry: the pair's order follows the file's order, and the report is on body `a`.

/// The two `[[body]]` tables of `scene`, swapped.
fn swap_bodies(scene: &str) -> String {
    let parts: Vec<&str> = scene.split("[[body]]").collect();
    assert_eq!(parts.len(), 3, "expected two bodies");
    format!("{}[[body]]{}\n[[body]]{}", parts[0], parts[2].trim_end(), parts[1])
}

fn assert_opposite(name: &str, x: [f64; 3], y: [f64; 3], scale: f64) {
    for k in 0..3 {
        assert!(
            (x[k] + y[k]).abs() <= 1e-9 * scale,
            "{name}[{k}]: {} and {} are not opposite ({x:?} vs {y:?})",
            x[k],
            y[k]
        );
    }
}

fn check_swap_negates(test: &str, scene: &str) {
    let dir = temp_dir(test);
    let (p1, p2) = (dir.join("ab.toml"), dir.join("ba.toml"));
    std::fs::write(&p1, scene).unwrap();
    std::fs::write(&p2, swap_bodies(scene)).unwrap();
    let (r1, r2) = (contact_json(&p1, &[]), contact_json(&p2, &[]));
    let (q1, q2) = (&r1["pairs"][0], &r2["pairs"][0]);
    assert_eq!((&q1["a"], &q1["b"]), (&q2["b"], &q2["a"]), "pair names not swapped");
    let (f1, f2) = (vec3(&q1["force"]), vec3(&q2["force"]));
    let (t1, t2) = (vec3(&q1["torque"]), vec3(&q2["torque"]));
    assert!(norm(f1) > 1.0, "no contact force: {r1}");
    assert_opposite("force", f1, f2, norm(f1));
    // Torques about the origin may vanish by symmetry; scale them by a lever of 1 m.
    assert_opposite("torque", t1, t2, norm(t1).max(norm(f1) * 1e-3));
    let (a1, a2) = (q1["area"].as_f64().unwrap(), q2["area"].as_f64().unwrap());
    assert!((a1 - a2).abs() <= 1e-9 * a1, "area {a1} vs {a2}");
}

#[test]
fn swapping_bodies_negates_the_wrench_sphere_on_ground() {
    let scene = std::fs::read_to_string(example("sphere_on_ground.toml")).unwrap();
    check_swap_negates("swap-ground", &scene);
}

#[test]
fn swapping_bodies_negates_the_wrench_two_soft_spheres() {
    // Off-axis, so the torque about the origin is not zero.
    let scene = r#"
[[body]]
name = "lower"
fixed = true
position = [0.02, -0.01, 0.03]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.02 }

[[body]]
name = "upper"
mass = 1.0
position = [0.05, 0.0, 0.21]
orientation = [0.9238795325112867, 0.0, 0.3826834323650898, 0.0]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 2e5, resolution = 0.02 }
"#;
    check_swap_negates("swap-spheres", scene);
}

// ---------------------------------------------------------------------------------------------
// Bad inputs: a clear message on stderr, a non-zero exit, never a panic.

#[test]
fn missing_scene_file() {
    let dir = temp_dir("missing");
    let path = dir.join("no_such_scene.toml");
    assert_fails(&["contact", path.to_str().unwrap(), "--json"], &["no_such_scene.toml"]);
}

#[test]
fn toml_syntax_error() {
    let scene = format!("{BALL}shape = {{ type = \"sphere\", radius = 0.1 \n{GROUND}");
    assert_rejected("syntax", &scene, &["TOML", "line"]);
}

#[test]
fn unknown_body_key_lists_the_valid_ones() {
    let scene = format!("{}colour = \"red\"\n{GROUND}", ball_with(&format!("{BALL_SHAPE}{BALL_CONTACT}")));
    assert_rejected(
        "unknown-key",
        &scene,
        &["colour", "mass", "position", "orientation", "shape", "contact"],
    );
}

#[test]
fn misspelled_shape_field() {
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"sphere\", raduis = 0.1 }}\n{BALL_CONTACT}"))
    );
    assert_rejected("shape-field", &scene, &["raduis", "radius"]);
}

#[test]
fn nan_radius() {
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"sphere\", radius = nan }}\n{BALL_CONTACT}"))
    );
    assert_rejected("nan-radius", &scene, &["radius", "finite"]);
}

#[test]
fn infinite_modulus() {
    let contact = "contact = { compliance = \"compliant\", hydroelastic_modulus = inf, resolution = 0.01 }\n";
    let scene = format!("{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{contact}")));
    assert_rejected("inf-modulus", &scene, &["hydroelastic_modulus", "finite"]);
}

#[test]
fn negative_resolution() {
    let contact =
        "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = -0.01 }\n";
    let scene = format!("{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{contact}")));
    assert_rejected("neg-resolution", &scene, &["resolution", "greater than 0"]);
}

#[test]
fn zero_resolution() {
    let contact = "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = 0.0 }\n";
    let scene = format!("{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{contact}")));
    assert_rejected("zero-resolution", &scene, &["resolution", "greater than 0"]);
}

#[test]
fn non_unit_quaternion() {
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("orientation = [1.0, 0.1, 0.0, 0.0]\n{BALL_SHAPE}{BALL_CONTACT}"))
    );
    assert_rejected("quaternion", &scene, &["orientation", "unit quaternion"]);
}

#[test]
fn convex_with_missing_file() {
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"convex\", file = \"no_such_hull.obj\" }}\n{BALL_CONTACT}"))
    );
    assert_rejected("convex-missing", &scene, &["no_such_hull.obj", "shape.file"]);
}

#[test]
fn convex_with_garbage_file() {
    // Bytes that are neither UTF-8 nor any mesh format (a fixed pseudo-random sequence).
    let mut garbage = Vec::with_capacity(512);
    let mut x: u32 = 0x9e37_79b9;
    for _ in 0..512 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        garbage.push((x >> 24) as u8 | 0x80);
    }
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"convex\", file = \"hull.obj\" }}\n{BALL_CONTACT}"))
    );
    assert_rejected_with("convex-garbage", &scene, &[("hull.obj", &garbage)], &["hull.obj", "shape.file"]);
}

#[test]
fn convex_with_text_that_is_not_a_mesh() {
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"convex\", file = \"hull.obj\" }}\n{BALL_CONTACT}"))
    );
    let junk: &[u8] = b"this is not a mesh\nv 1 2\nf x y z\n";
    assert_rejected_with("convex-text", &scene, &[("hull.obj", junk)], &["hull.obj"]);
}

#[test]
fn two_moving_rigid_bodies() {
    let other = r#"
[[body]]
name = "brick"
mass = 1.0
position = [0.0, 0.0, 0.25]
shape = { type = "box", size = [0.1, 0.1, 0.1] }
contact = { compliance = "rigid" }
"#;
    let scene = format!("{}{other}", ball_with(BALL_SHAPE));
    assert_rejected("rigid-rigid", &scene, &["ball", "brick", "rigid", "compliant"]);
}

#[test]
fn compliant_body_without_modulus() {
    let contact = "contact = { compliance = \"compliant\", resolution = 0.01 }\n";
    let scene = format!("{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{contact}")));
    assert_rejected("no-modulus", &scene, &["hydroelastic_modulus", "ball"]);
}

#[test]
fn peg_runs_under_simulate_with_its_overlap_and_fallback_columns_and_late_bodies() {
    // A planar box resting on a floor, and a second box that enters at 0.05 s.
    let scene = "[model]\nkind = \"peg\"\nplanar = true\n[sim]\nduration = 0.1\ndt = 0.01\n\
        [[body]]\nname = \"floor\"\nfixed = true\nposition = [0, 0, -0.2]\nshape = { type = \"box\", size = [2, 1, 0.4] }\n\
        [[body]]\nname = \"box\"\nmass = 1.0\nposition = [0, 0, 0.05]\nshape = { type = \"box\", size = [0.1, 1, 0.1] }\n\
        [[body]]\nname = \"late\"\nmass = 1.0\nposition = [0.5, 0, 0.5]\nangle = 0.3\nappear_time = 0.05\n\
        shape = { type = \"polygon\", vertices = [[0, 0], [0.1, 0], [0, 0.1]] }\n";
    let dir = temp_dir("peg");
    let path = dir.join("scene.toml");
    std::fs::write(&path, scene).unwrap();
    let out_dir = dir.join("out");
    let out =
        contactlab(&["simulate", path.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let solver = std::fs::read_to_string(out_dir.join("solver.csv")).unwrap();
    let lines: Vec<&str> = solver.lines().collect();
    assert_eq!(lines[0], "t,iterations,residual,unknowns,overlap,fallbacks");
    assert_eq!(lines.len(), 11, "one row per step");
    let last: Vec<f64> = lines[10].split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!((last[3], last[4], last[5]), (2.0, 0.0, 0.0), "{}", lines[10]);
    let trajectory = std::fs::read_to_string(out_dir.join("trajectory.csv")).unwrap();
    let late: Vec<f64> = trajectory
        .lines()
        .filter(|l| l.contains(",late,"))
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(late.first(), Some(&0.05), "no rows before the appear time");
    // `contact` reports one step from rest: the box held up by m·g.
    let report = contact_json(&path, &[]);
    let pair = &report["pairs"][0];
    assert_eq!((pair["a"].as_str(), pair["b"].as_str()), (Some("floor"), Some("box")));
    assert!((pair["force"][2].as_f64().unwrap() + 9.81).abs() < 1e-9, "{pair}");
}

#[test]
fn volume6d_runs_under_simulate_and_writes_its_solver_table() {
    let scene =
        format!("[model]\nkind = \"volume6d\"\n[sim]\nduration = 0.3\n{}{GROUND}", ball_with(BALL_SHAPE));
    let dir = temp_dir("volume6d");
    let path = dir.join("scene.toml");
    std::fs::write(&path, &scene).unwrap();
    // `contact` reports the mean wrench of one step from rest and the intersection: the ball
    // (1 kg, R 0.1) overlaps the ground by 1 cm.
    let report = contact_json(&path, &[]);
    let pair = &report["pairs"][0];
    assert_eq!(report["model"], "volume6d");
    let volume = pair["volume"].as_f64().unwrap();
    let cap = std::f64::consts::PI * 0.01 * 0.01 * (0.1 - 0.01 / 3.0);
    assert!((volume - cap).abs() < 1e-12 * cap, "{volume} against {cap}");
    // The ball is `a` (first in the file): held up against one step of gravity, m·g, by an
    // impulse along the normal from the ground into it.
    assert_eq!(pair["a"], "ball");
    assert!((pair["force"][2].as_f64().unwrap() - 9.81).abs() < 1e-9, "{pair}");
    assert_eq!(pair["normal"][2].as_f64().unwrap(), 1.0);
    let out_dir = dir.join("out");
    let out =
        contactlab(&["simulate", path.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("time_stepping"), "{}", text(&out.stdout));
    let solver = std::fs::read_to_string(out_dir.join("solver.csv")).unwrap();
    let lines: Vec<&str> = solver.lines().collect();
    assert_eq!(lines[0], "t,iterations,residual,unknowns");
    assert_eq!(lines.len(), 301, "one row per 1 ms step");
    // Once the ball rests: one pair (6 unknowns), converged below the tolerance.
    let last: Vec<f64> = lines[300].split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(last[3], 6.0);
    assert!(last[2] < 1e-10 && last[1] >= 1.0, "{}", lines[300]);
}

#[test]
fn unknown_model_kind() {
    let scene =
        format!("[model]\nkind = \"magic\"\n{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{BALL_CONTACT}")));
    assert_rejected("magic-model", &scene, &["magic", "pressure_field"]);
}

#[test]
fn duplicate_body_names() {
    let ball = ball_with(&format!("{BALL_SHAPE}{BALL_CONTACT}"));
    let scene = format!("{ball}{ball}");
    assert_rejected("duplicate", &scene, &["ball", "unique"]);
}

#[test]
fn empty_scene() {
    assert_rejected("empty", "", &["no bodies"]);
    assert_rejected("model-only", "[model]\nkind = \"pressure_field\"\n", &["no bodies"]);
}

#[test]
fn unknown_contact_key() {
    let contact = "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = 0.01, stiffness = 3 }\n";
    let scene = format!("{}{GROUND}", ball_with(&format!("{BALL_SHAPE}{contact}")));
    assert_rejected("contact-key", &scene, &["stiffness", "hydroelastic_modulus"]);
}

#[test]
fn png_into_a_missing_folder_fails_cleanly() {
    let dir = temp_dir("png-missing-folder");
    let png = dir.join("no_such_folder").join("patch.png");
    let scene = example("sphere_on_ground.toml");
    assert_fails(
        &["contact", scene.to_str().unwrap(), "--json", "--png", png.to_str().unwrap()],
        &["patch.png"],
    );
}

#[test]
fn vtk_into_a_file_fails_cleanly() {
    let dir = temp_dir("vtk-into-file");
    let file = dir.join("taken");
    std::fs::write(&file, b"not a folder").unwrap();
    let scene = example("sphere_on_ground.toml");
    assert_fails(
        &["contact", scene.to_str().unwrap(), "--json", "--vtk", file.to_str().unwrap()],
        &["taken"],
    );
}

#[test]
fn each_cause_is_printed_once() {
    // `error: {e:#}` prints the chain of sources; a message that also embeds its source repeats it.
    let dir = temp_dir("cause-once");
    let path = dir.join("no_such_scene.toml");
    let missing_scene = assert_fails(&["contact", path.to_str().unwrap(), "--json"], &[]);
    let scene = format!(
        "{}{GROUND}",
        ball_with(&format!("shape = {{ type = \"convex\", file = \"no_such_hull.obj\" }}\n{BALL_CONTACT}"))
    );
    let missing_hull = assert_rejected("cause-once-hull", &scene, &[]);
    let png = dir.join("no_such_folder").join("patch.png");
    let example = example("sphere_on_ground.toml");
    let bad_png =
        assert_fails(&["contact", example.to_str().unwrap(), "--json", "--png", png.to_str().unwrap()], &[]);
    let cause = "No such file or directory";
    let repeated: Vec<&str> = [&missing_scene, &missing_hull, &bad_png]
        .iter()
        .filter_map(|stderr| stderr.lines().next())
        .filter(|line| line.matches(cause).count() > 1)
        .collect();
    assert!(repeated.is_empty(), "{cause:?} printed more than once in:\n{}", repeated.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Determinism: bit-identical output with or without threads (DESIGN.md).

#[test]
fn one_thread_and_many_threads_give_identical_pairs() {
    let benches = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/scenes");
    for scene in [example("sphere_on_ground.toml"), benches.join("sphere_sphere_0.01.toml")] {
        check_thread_independent(&scene);
    }
}

fn check_thread_independent(scene: &Path) {
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
            .args(["contact", scene.to_str().unwrap(), "--json"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("run contactlab");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        report["pairs"].to_string()
    };
    let one = run("1");
    assert!(one.contains("force"), "no contacting pair in {scene:?}: {one}");
    assert_eq!(one, run("2"), "{scene:?}: 1 vs 2 threads");
    assert_eq!(one, run("4"), "{scene:?}: 1 vs 4 threads");
}

/// `contact --repeat N` under volume6d times N cold steps from rest: the reported wrench does not
/// depend on N, under `6d` and under the `points` baseline (whose warm starts once leaked from
/// one repetition into the next).
#[test]
fn volume6d_contact_reports_the_same_wrench_whatever_the_repeat_count() {
    let dir = temp_dir("volume6d_repeat");
    let text = std::fs::read_to_string(example("volume6d_sliding_octagon.toml")).unwrap();
    for formulation in ["6d", "points"] {
        let scene = dir.join(format!("{formulation}.toml"));
        let text = text
            .replace(
                "kind = \"volume6d\"",
                &format!("kind = \"volume6d\"\nformulation = \"{formulation}\"\niterations = 3"),
            )
            .replace("position = [0.0, 0.0, 0.025]", "position = [0.0, 0.0, 0.0249]")
            .replace("meshes/", &format!("{}/", example("meshes").display()));
        std::fs::write(&scene, text).unwrap();
        let force = |repeat: &str| {
            let report = contact_json(&scene, &["--repeat", repeat]);
            vec3(&report["pairs"][0]["force"])
        };
        let once = force("1");
        assert!(once[2].abs() > 1.0, "{formulation}: {once:?}");
        assert_eq!(once, force("5"), "{formulation}");
    }
}

/// `inspect --json` on a robot file: its links, joints with type and limits, actuators and notes.
#[test]
fn inspect_json_lists_a_robot_files_tree() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("robots/dm_control/suite/finger.xml");
    let out = contactlab(&["inspect", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["kind"], "mjcf");
    let joints = v["joints"].as_array().unwrap();
    let names: Vec<&str> = joints.iter().map(|j| j["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["proximal", "distal", "hinge"]);
    assert!(joints.iter().all(|j| j["type"] == "revolute"));
    assert!(joints[0]["limits"].as_array().is_some() && joints[2]["limits"].is_null());
    assert_eq!(v["actuators"].as_array().unwrap().len(), 2);
    assert!(v["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("sensor")));
    // A file that is not a robot: a message and a non-zero exit.
    let bad = contactlab(&["inspect", "README.md"]);
    assert!(!bad.status.success() && text(&bad.stderr).contains("not a robot file"), "{}", text(&bad.stderr));
}
