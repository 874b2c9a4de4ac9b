//! Every input gets an answer: numbers beyond what the simulator can represent meaningfully are
//! rejected at load with the valid range, and runs that used to hang answer within 20 s.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Instant;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-robust-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Runs `simulate` on `scene` (TOML text); returns the output and the wall time (s).
fn simulate(dir: &std::path::Path, name: &str, scene: &str) -> (Output, f64) {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, scene).unwrap();
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["simulate", path.to_str().unwrap(), "--out", dir.join(name).to_str().unwrap()])
        .output()
        .expect("run contactlab");
    (out, start.elapsed().as_secs_f64())
}

/// A sphere over rigid ground, with `model` (lines of `[model]`, empty for the default),
/// `sim` and `ball` lines added; the ball's `contact` table.
fn sphere(model: &str, sim: &str, ball: &str, contact: &str) -> String {
    let model = if model.is_empty() { String::new() } else { format!("[model]\n{model}\n") };
    let ground = if contact.contains("material") { "contact = { material = \"Steel\" }" } else { "" };
    format!(
        "{model}[sim]\nduration = 0.2\n{sim}\n[[body]]\nname = \"ground\"\nfixed = true\n\
         shape = {{ type = \"halfspace\" }}\n{ground}\n[[body]]\nname = \"ball\"\n{ball}\n\
         shape = {{ type = \"sphere\", radius = 0.05 }}\ncontact = {{ {contact} }}\n"
    )
}

const COMPLIANT: &str = "compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.02";

#[test]
fn meaningless_magnitudes_are_rejected_at_load_with_the_valid_range() {
    let dir = temp_dir("ranges");
    let at = "position = [0, 0, 0.2]";
    let cases = [
        (
            "mass",
            sphere("", "", &format!("mass = 1e-300\n{at}"), COMPLIANT),
            "`mass` = 1e-300 kg is outside the range the simulator handles, 1e-9 … 1e9 kg",
        ),
        (
            "velocity",
            sphere("", "", &format!("mass = 1\n{at}\nlinear_velocity = [0, 0, -1e300]"), COMPLIANT),
            "`linear_velocity` has magnitude 1e300 m/s, more than the 1e5 m/s",
        ),
        (
            "modulus",
            sphere("", "", &format!("mass = 1\n{at}"), &COMPLIANT.replace("1e6", "1e300")),
            "`contact.hydroelastic_modulus` = 1e300 Pa is outside the range",
        ),
        (
            "gravity",
            sphere("", "gravity = [0, 0, -1e300]", &format!("mass = 1\n{at}"), COMPLIANT),
            "`gravity` has magnitude 1e300 m/s², more than the 1e5 m/s²",
        ),
        (
            "reduction",
            sphere(
                "kind = \"hertz\"\nelastic_contact_reduction_factor = 1e300",
                "",
                &format!("mass = 1\n{at}"),
                "material = \"Steel\"",
            ),
            "`elastic_contact_reduction_factor` = 1e300 is outside the range the simulator handles",
        ),
        (
            "resolution",
            sphere("", "", &format!("mass = 1\n{at}"), &COMPLIANT.replace("0.02", "1e-300")),
            "`contact.resolution` = 1e-300 m is outside the range",
        ),
        (
            "negative mass",
            sphere("", "", &format!("mass = -1e300\n{at}"), COMPLIANT),
            "`mass` must be greater than 0 (kg), got -1e300; give a positive `mass`",
        ),
        (
            "radius",
            sphere("", "", &format!("mass = 1\n{at}"), COMPLIANT).replace("radius = 0.05", "radius = 1e300"),
            "`shape.radius` = 1e300 m is outside the range",
        ),
        (
            "stiction speed",
            sphere(
                "kind = \"pressure_field\"\nstiction_speed = 1e-300",
                "",
                &format!("mass = 1\n{at}"),
                COMPLIANT,
            ),
            "`stiction_speed` = 1e-300 m/s is outside the range the simulator handles, 1e-9 … 1e2 m/s",
        ),
        (
            "adaptive dt",
            sphere(
                "kind = \"hertz\"",
                "integrator = \"dopri5\"\ndt = 1e-14",
                &format!("mass = 1\n{at}"),
                "material = \"Steel\"",
            ),
            "[sim] dt = 1e-14 s (the first adaptive step) is below the smallest step an adaptive run takes",
        ),
    ];
    for (name, scene, expected) in cases {
        let (out, _) = simulate(&dir, name, &scene);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: should be rejected");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        let out_of_range = expected.contains("outside") || expected.contains("more than");
        assert!(!out_of_range || stderr.contains("(check the units: SI throughout)"), "{name}: {stderr}");
        assert!(stderr.len() < 400, "{name}: a long message: {stderr}");
    }
}

/// Runs that used to hang (Hertz under dopri5 on light bodies, a deep initial overlap, radau5
/// on a fast puck) now answer within 20 s: they finish with finite outputs, or stop with a
/// message that names the time and the bodies.
#[test]
fn runs_that_used_to_hang_answer_quickly() {
    let dir = temp_dir("hangs");
    let hertz = |ball: &str| {
        sphere("kind = \"hertz\"", "integrator = \"dopri5\"", ball, "material = \"Steel\"").replace(
            "shape = { type = \"halfspace\" }",
            "position = [0, 0, -0.05]\nshape = { type = \"box\", size = [0.4, 0.4, 0.1] }",
        )
    };
    let puck = "[sim]\nduration = 0.2\nintegrator = \"radau5\"\n[[body]]\nname = \"ground\"\nfixed = true\n\
                shape = { type = \"halfspace\" }\ncontact = { compliance = \"rigid\", friction = 0.5 }\n[[body]]\n\
                name = \"puck\"\nmass = 0.5\nposition = [0, 0, 0.01]\nangular_velocity = [0, 0, 1000]\n\
                shape = { type = \"cylinder\", radius = 0.05, length = 0.02 }\ncontact = { compliance = \"compliant\", \
                hydroelastic_modulus = 1e6, resolution = 0.01, dissipation = 5.0, friction = 0.5 }\n";
    for (name, scene) in [
        ("light_1e-6", hertz("mass = 1e-6\nposition = [0, 0, 0.06]")),
        ("light_1e-3", hertz("mass = 1e-3\nposition = [0, 0, 0.06]")),
        ("overlap", hertz("mass = 1\nposition = [0, 0, 0.01]")),
        ("puck", puck.to_string()),
    ] {
        let (out, seconds) = simulate(&dir, name, &scene);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(seconds < 20.0, "{name}: took {seconds:.1} s");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        if out.status.success() {
            let energy = std::fs::read_to_string(dir.join(name).join("energy.csv")).unwrap();
            assert!(
                energy
                    .lines()
                    .skip(1)
                    .all(|l| l.split(',').all(|x| x.parse::<f64>().is_ok_and(f64::is_finite)))
            );
        } else {
            assert!(stderr.contains("t = ") && stderr.contains("ball"), "{name}: {stderr}");
        }
        if name == "overlap" {
            assert!(!out.status.success() && stderr.contains("already overlap by 4.000e-2 m"), "{stderr}");
        }
    }
}

#[test]
fn vectors_must_have_exactly_their_number_of_components() {
    let dir = temp_dir("vectors");
    for (name, ball, expected) in [
        ("position4", "mass = 1\nposition = [0, 0, 0.2, 5]", "`position`: expected exactly 3 numbers, got 4"),
        ("position2", "mass = 1\nposition = [0, 0.2]", "`position`: expected exactly 3 numbers, got 2"),
        (
            "orientation10",
            "mass = 1\norientation = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
            "expected exactly 4 numbers, got 10",
        ),
    ] {
        let (out, _) = simulate(&dir, name, &sphere("", "", ball, COMPLIANT));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: accepted");
        assert!(stderr.contains(expected) && stderr.contains("line "), "{name}: {stderr}");
    }
}

#[test]
fn mesh_files_and_pair_tables_get_messages_that_name_the_problem() {
    let dir = temp_dir("messages");
    // A mesh whose coordinates are far beyond any sensible size (a unit mix-up).
    let mut obj = String::new();
    for v in [[0.0, 0.0, 0.0], [1e300, 0.0, 0.0], [0.0, 1e300, 0.0], [0.0, 0.0, 1e300]] {
        obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
    }
    obj += "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    std::fs::write(dir.join("huge.obj"), obj).unwrap();
    for kind in ["convex", "mesh"] {
        let scene = sphere("", "", "mass = 1\nposition = [0, 0, 0.2]", COMPLIANT).replace(
            "{ type = \"sphere\", radius = 0.05 }",
            &format!("{{ type = \"{kind}\", file = \"huge.obj\" }}"),
        );
        let (out, _) = simulate(&dir, kind, &scene);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{kind}: accepted");
        assert!(stderr.contains("vertex 2 at (1e300, 0e0, 0e0) lies beyond the 1e6 m"), "{kind}: {stderr}");
        assert!(stderr.contains("fix the file") && !stderr.contains("check the path"), "{kind}: {stderr}");
    }
    // A `[[model.pair]]` without `b`: the message says which pair.
    let scene = sphere(
        "kind = \"hertz\"\n[[model.pair]]\na = \"Steel\"\nb = \"Steel\"\nrestitution = 0.7\nsliding_friction = 0.5\nrolling_resistance = 0.001\n[[model.pair]]\na = \"Steel\"",
        "",
        "mass = 1\nposition = [0, 0, 0.2]",
        "material = \"Steel\"",
    );
    let (out, _) = simulate(&dir, "pair", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[[model.pair]] #2 (line ") && stderr.contains("missing field `b`"), "{stderr}");
}

#[test]
fn field_refuses_models_without_pressure_fields() {
    let dir = temp_dir("field");
    for kind in ["volume6d", "peg", "hertz"] {
        let scene = sphere(
            &format!("kind = \"{kind}\""),
            "",
            "mass = 1\nposition = [0, 0, 0.2]",
            "material = \"Steel\"",
        );
        let path = dir.join(format!("{kind}.toml"));
        std::fs::write(&path, scene).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
            .args([
                "field",
                path.to_str().unwrap(),
                "--body",
                "ball",
                "--out",
                dir.join("f.vtk").to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{kind}: accepted");
        assert!(stderr.contains(&format!("this scene's model is `{kind}`")), "{kind}: {stderr}");
    }
}

#[test]
fn a_surface_that_crosses_itself_is_rejected_with_the_crossing_triangles() {
    let dir = temp_dir("crossing");
    // Two octahedra that overlap, written as one closed (but self-intersecting) surface.
    let mut obj = String::new();
    for c in [[0.0, 0.0, 0.0], [0.03, 0.01, 0.005]] {
        for p in [
            [0.05, 0.0, 0.0],
            [-0.05, 0.0, 0.0],
            [0.0, 0.05, 0.0],
            [0.0, -0.05, 0.0],
            [0.0, 0.0, 0.05],
            [0.0, 0.0, -0.05],
        ] {
            obj += &format!("v {} {} {}\n", c[0] + p[0], c[1] + p[1], c[2] + p[2]);
        }
    }
    for offset in [0, 6] {
        for t in [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]] {
            obj += &format!("f {} {} {}\n", t[0] + offset + 1, t[1] + offset + 1, t[2] + offset + 1);
        }
    }
    std::fs::write(dir.join("crossing.obj"), obj).unwrap();
    let scene = sphere("", "", "mass = 1\nposition = [0, 0, 0.2]", COMPLIANT)
        .replace("{ type = \"sphere\", radius = 0.05 }", "{ type = \"mesh\", file = \"crossing.obj\" }");
    let (out, _) = simulate(&dir, "crossing", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a self-intersecting surface was used");
    assert!(
        stderr.contains("it crosses itself: triangles ") && stderr.contains(" intersect near "),
        "{stderr}"
    );
}

#[test]
fn a_body_that_reaches_an_implausible_speed_stops_the_run() {
    let dir = temp_dir("speed");
    // The largest load on the lightest body the ranges allow: 1e21 m/s².
    let scene = sphere("", "", "mass = 1e-9\nposition = [0, 0, 0.2]\nforce = [1e12, 0, 0]", COMPLIANT);
    let (out, seconds) = simulate(&dir, "speed", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && seconds < 20.0, "{stderr}");
    assert!(
        stderr.contains("a body moves implausibly fast at t = ") && stderr.contains("`ball`"),
        "{stderr}"
    );
    let energy = std::fs::read_to_string(dir.join("speed").join("energy.csv")).unwrap();
    assert!(energy.lines().skip(1).all(|l| l.split(',').all(|x| x.parse::<f64>().is_ok_and(f64::is_finite))));
}

/// A fixed-step run rounds `duration` and `output_dt` to whole steps of `dt`: said on stderr with
/// what the run does instead, never silently; whole multiples pass without a word.
#[test]
fn times_rounded_to_whole_steps_are_said() {
    let dir = temp_dir("rounding");
    let ball = "mass = 1\nposition = [0, 0, 0.2]";
    // 0.2 s / 3 ms = 66.7 steps: 67 of them; 4.8 ms / 3 ms = 1.6: a row every 2 steps.
    let scene = sphere("", "dt = 0.003\noutput_dt = 0.0048", ball, COMPLIANT);
    let (out, _) = simulate(&dir, "rounded", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "[sim] duration = 0.2 s is not a whole number of steps of dt = 0.003 s: the run takes 67 steps and ends at t = 0.201 s"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("[sim] output_dt = 0.0048 s is not a whole number of steps of dt = 0.003 s: a row every 2 steps (0.006 s)"),
        "{stderr}"
    );
    let energy = std::fs::read_to_string(dir.join("rounded").join("energy.csv")).unwrap();
    let times: Vec<f64> =
        energy.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    assert!((times[1] - 0.006).abs() < 1e-12 && (times.last().unwrap() - 0.201).abs() < 1e-12, "{times:?}");
    // An output_dt beyond the duration: rows at the ends, no note of it (the duration's only).
    let scene = sphere("", "dt = 0.003\noutput_dt = 1", ball, COMPLIANT);
    let (out, _) = simulate(&dir, "beyond", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.matches("whole number").count() == 1, "{stderr}");
    // Whole multiples (0.2 s = 100 steps of 2 ms, rows every 2 steps): no note.
    let scene = sphere("", "dt = 0.002\noutput_dt = 0.004", ball, COMPLIANT);
    let (out, _) = simulate(&dir, "whole", &scene);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("whole number"), "{stderr}");
}

#[test]
fn contact_vtk_at_a_file_says_to_give_a_folder() {
    let dir = temp_dir("vtk_file");
    let file = dir.join("a_file");
    std::fs::write(&file, "").unwrap();
    let scene = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sphere_on_ground.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["contact", scene.to_str().unwrap(), "--vtk", file.to_str().unwrap()])
        .output()
        .expect("run contactlab");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("give --vtk a folder"), "{stderr}");
}
