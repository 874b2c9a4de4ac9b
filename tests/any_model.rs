//! One scene, any model: `[model.KIND]` and `contact.KIND` sub-tables hold each model's own keys,
//! read when that model runs and checked (then ignored) when another does.

use contactlab::contact::ModelKind;
use contactlab::scene::{Scene, parse_scene};
use std::path::Path;

/// A compliant ball over a rigid floor with keys for all four models; `kind` chooses.
fn scene(kind: &str, extra_model: &str, extra_ball: &str) -> String {
    format!(
        r#"
[model]
kind = "{kind}"
{extra_model}

[model.pressure_field]
stiction_speed = 1e-3

[model.hertz]
max_contact_damping = 500.0

[model.volume6d]
formulation = "points"
iterations = 50

[model.peg]
formulation = "standard"

[sim]
duration = 0.1

[[body]]
name = "floor"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ friction = 0.5, material = "Steel" }}

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.2]
shape = {{ type = "sphere", radius = 0.05 }}

[body.contact]
friction = 0.5
{extra_ball}

[body.contact.pressure_field]
compliance = "compliant"
hydroelastic_modulus = 1e7
resolution = 0.01
friction = 0.8

[body.contact.hertz]
material = "Steel"
friction = 0.3
"#
    )
}

fn parse(text: &str) -> Result<Scene, String> {
    parse_scene(text, Path::new(".")).map_err(|e| e.to_string())
}

#[test]
fn each_model_reads_its_own_sub_tables_over_the_shared_keys() {
    for (kind, model) in [
        ("pressure_field", ModelKind::PressureField),
        ("hertz", ModelKind::Hertz),
        ("volume6d", ModelKind::Volume6d),
        ("peg", ModelKind::Peg),
    ] {
        let s = parse(&scene(kind, "", "")).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(s.model, model);
        let ball = s.body("ball").unwrap();
        let friction = match model {
            ModelKind::PressureField => 0.8,
            ModelKind::Hertz => 0.3,
            _ => 0.5,
        };
        assert_eq!(ball.contact.friction, friction, "{kind}");
        let compliant = model == ModelKind::PressureField;
        assert_eq!(ball.contact.compliance == contactlab::scene::Compliance::Compliant, compliant, "{kind}");
        assert_eq!(ball.contact.material.is_some(), model == ModelKind::Hertz, "{kind}");
        match model {
            ModelKind::PressureField => assert_eq!(s.model_settings.stiction_speed, 1e-3),
            ModelKind::Hertz => assert_eq!(s.model_settings.max_contact_damping, 500.0),
            ModelKind::Volume6d => assert_eq!(s.model_settings.volume6d.iterations, 50),
            ModelKind::Peg => {
                assert_eq!(s.model_settings.peg.formulation, contactlab::scene::PegFormulation::Standard)
            }
        }
    }
}

#[test]
fn the_top_level_keys_still_hold_and_a_sub_table_wins_over_them() {
    let s = parse(&scene("hertz", "max_contact_damping = 100.0", "")).unwrap();
    assert_eq!(s.model_settings.max_contact_damping, 500.0);
    let s = parse(&scene("pressure_field", "max_contact_damping = 100.0", "")).unwrap();
    assert_eq!(s.model_settings.max_contact_damping, 100.0);
}

#[test]
fn a_misspelt_key_is_an_error_under_every_model_and_names_its_table() {
    for kind in ["pressure_field", "hertz", "volume6d", "peg"] {
        // Misspelt in another model's sub-table.
        let text = scene(kind, "", "").replace("max_contact_damping = 500.0", "max_contact_dampng = 500.0");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("max_contact_dampng"), "{kind}: {e}");
        let text = scene(kind, "", "").replace("material = \"Steel\"\nfriction = 0.3", "materal = \"Steel\"");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("materal"), "{kind}: {e}");
        // A bad value in an inactive sub-table is caught whichever model runs.
        let text = scene(kind, "", "").replace("iterations = 50", "iterations = 0");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("[model.volume6d]") && e.contains("iterations"), "{kind}: {e}");
        let text = scene(kind, "", "").replace("friction = 0.3", "friction = -0.3");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("contact.hertz.friction"), "{kind}: {e}");
        // A key of another model in a sub-table.
        let text = scene(kind, "", "").replace("[model.peg]\n", "[model.peg]\npatch_scale = 2.0\n");
        let e = parse(&text).unwrap_err();
        assert!(e.contains("[model.peg]") && e.contains("patch_scale"), "{kind}: {e}");
    }
}

#[test]
fn sub_tables_hold_no_kind_and_no_other_models_keys() {
    let e = parse(&scene("hertz", "", "").replace("[model.hertz]\n", "[model.hertz]\nkind = \"peg\"\n"))
        .unwrap_err();
    assert!(e.contains("[model.hertz]") && e.contains("kind"), "{e}");
    let e = parse(&scene("hertz", "", "").replace(
        "[body.contact.hertz]\n",
        "[body.contact.hertz.peg]\nfriction = 1.0\n[body.contact.hertz]\n",
    ))
    .unwrap_err();
    assert!(e.contains("contact.hertz"), "{e}");
    let no_kind = "[model]\nstiction_speed = 1e-3\n[[body]]\nname = \"b\"\nmass = 1.0\nshape = { type = \"sphere\", radius = 0.1 }\n";
    let e = parse(no_kind).unwrap_err();
    assert!(e.contains("kind") && e.contains("missing"), "{e}");
}

/// A box dropped 5 cm onto a large fixed box (a floor every model takes), with a measure.
const SLIDE: &str = r#"
[model]
kind = "pressure_field"

[sim]
duration = 0.3

[[body]]
name = "floor"
fixed = true
position = [0.0, 0.0, -0.5]
shape = { type = "box", size = [4.0, 4.0, 1.0] }
contact = { friction = 0.5, material = "DryWood" }

[[body]]
name = "box"
mass = 1.0
position = [0.0, 0.0, 0.1]
shape = { type = "box", size = [0.1, 0.1, 0.1] }

[body.contact]
friction = 0.5

[body.contact.pressure_field]
compliance = "compliant"
hydroelastic_modulus = 1e7
resolution = 0.02

[body.contact.hertz]
material = "DryWood"

[[measure]]
name = "slide"
a = "world"
b = "box"
"#;

fn compare_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-compare-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn compare_writes_one_row_per_model_with_the_same_columns() {
    let dir = compare_dir("rows");
    let scene = dir.join("slide.toml");
    std::fs::write(&scene, SLIDE).unwrap();
    let out = dir.join("out");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["compare", scene.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(status.status.success(), "{stderr}");
    let table = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0].join(","),
        "model,status,wall_time,real_time_factor,max_penetration,max_contact_force,energy_excess,steps,slide_translation,slide_rotation,slide_largest_translation,slide_largest_rotation,message"
    );
    assert_eq!(rows.len(), 5, "{table}");
    for (row, model) in rows[1..].iter().zip(["pressure_field", "hertz", "volume6d", "peg"]) {
        assert_eq!(row.len(), rows[0].len(), "{table}");
        assert_eq!((row[0], row[1]), (model, "ok"), "{table}");
        // It falls 5 cm and rests (each model's own penetration aside).
        let drop: f64 = row[8].parse().unwrap();
        assert!((drop - 0.05).abs() < 1e-3, "{model}: fell {drop} m");
        assert!(
            out.join(model).join("view.html").is_file() && out.join(model).join("trajectory.csv").is_file()
        );
    }
    assert!(out.join("box_position.png").is_file() && out.join("box_rotation.png").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_reports_a_model_that_fails_and_refuses_bad_arguments() {
    let dir = compare_dir("fails");
    let scene = dir.join("slide.toml");
    // A half space: hertz refuses it; the others run.
    let text = SLIDE.replace(
        "position = [0.0, 0.0, -0.5]\nshape = { type = \"box\", size = [4.0, 4.0, 1.0] }",
        "shape = { type = \"halfspace\" }",
    );
    std::fs::write(&scene, text).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
            .args(["compare", scene.to_str().unwrap(), "--quiet"])
            .args(args)
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let out = dir.join("out");
    let (ok, stderr) = run(&["--out", out.to_str().unwrap(), "--models", "hertz,pressure_field"]);
    assert!(!ok && stderr.contains("1 of 2 models failed") && stderr.contains("hertz"), "{stderr}");
    let table = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    assert!(table.lines().nth(1).unwrap().starts_with("hertz,failed,"), "{table}");
    assert!(table.lines().nth(2).unwrap().starts_with("pressure_field,ok,"), "{table}");
    for (args, expect) in [
        (&["--models", "herz"][..], "not a contact model"),
        (&["--models", "peg,peg"][..], "twice"),
        (&["--bodies", "bx"][..], "no body `bx`"),
        (&["--jobs", "0"][..], "--jobs 0"),
    ] {
        let (ok, stderr) = run(&[&["--out", out.to_str().unwrap()][..], args].concat());
        assert!(!ok && stderr.contains(expect), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ball launched sliding (0.5 m/s, no spin) on a box floor with μ = 0.1.
const SLIDING_BALL: &str = r#"
[model]
kind = "pressure_field"

[[model.hertz.pair]]
a = "Steel"
b = "Steel"
restitution = 0.5
sliding_friction = 0.1
rolling_resistance = 0.0

[sim]
duration = 0.1
output_dt = 0.01

[[body]]
name = "floor"
fixed = true
position = [0.0, 0.0, -0.5]
shape = { type = "box", size = [4.0, 4.0, 1.0] }
contact = { friction = 0.1, material = "Steel" }

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.05]
linear_velocity = [0.5, 0.0, 0.0]
shape = { type = "sphere", radius = 0.05 }

[body.contact]
friction = 0.1
material = "Steel"
resolution = 0.01

[body.contact.pressure_field]
compliance = "compliant"
hydroelastic_modulus = 1e8
dissipation = 20.0
"#;

#[test]
fn contacts_csv_gives_the_normal_force_and_the_slip_speed_at_the_contact() {
    // Sliding friction μ·m·g slows the centre by μ·g and spins the ball up by (5/2)·μ·g/r: the
    // slip speed falls as v0 − (7/2)·μ·g·t until it rolls.
    for model in ["pressure_field", "hertz", "volume6d"] {
        let dir = compare_dir(&format!("slip-{model}"));
        let text = SLIDING_BALL.replace("kind = \"pressure_field\"", &format!("kind = \"{model}\""));
        let scene = parse_scene(&text, Path::new(".")).unwrap_or_else(|e| panic!("{model}: {e}"));
        contactlab::app::simulation::run(&scene, &contactlab::app::simulation::SimulateArgs::new(&dir))
            .unwrap_or_else(|e| panic!("{model}: {e:#}"));
        let csv = std::fs::read_to_string(dir.join("contacts.csv")).unwrap();
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("t,a,b,fx,fy,fz,tx,ty,tz,area,normal_force,slip_speed"));
        let row = lines
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|r| r[0] == "0.03")
            .expect("a row at 0.03 s");
        let (normal, slip): (f64, f64) = (row[10].parse().unwrap(), row[11].parse().unwrap());
        let expected = 0.5 - 3.5 * 0.1 * 9.81 * 0.03;
        eprintln!("{model}: normal force {normal} N, slip {slip} m/s (closed form {expected})");
        assert!((normal - 9.81).abs() < 0.05 * 9.81, "{model}: {normal}");
        assert!((slip - expected).abs() < 0.05 * expected, "{model}: {slip}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
