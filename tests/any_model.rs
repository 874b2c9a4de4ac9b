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
