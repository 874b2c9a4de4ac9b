//! Scene parsing: a full valid scene, and one test per kind of bad input checking the message
//! names the body and the key.

use contactlab::geometry::Shape;
use contactlab::scene::{Compliance, ModelKind, SceneError, parse_scene};
use std::path::Path;

const FULL: &str = r#"
[model]
kind = "hertz"

[sim]
duration = 2.5
gravity = [0.0, 0.0, -1.62]
integrator = "implicit"
dt = 1e-4
rtol = 1e-5
atol = 1e-8

[[body]]
name = "ball"
mass = 2
inertia = [0.1, 0.1, 0.1]
position = [0.0, 0.1, 0.09]
orientation = [0.0, 1.0, 0.0, 0.0]
linear_velocity = [1.0, 0.0, 0.0]
angular_velocity = [0.0, 0.0, 3.0]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.005, dissipation = 2.0, friction = 0.5 }

[[body]]
name = "floor"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, slab_thickness = 0.2 }

[[body]]
name = "brick"
density = 500.0
position = [1.0, 0.0, 0.5]
shape = { type = "box", size = [0.1, 0.2, 0.3] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }

[[body]]
name = "can"
mass = 0.3
shape = { type = "cylinder", radius = 0.03, length = 0.12 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }

[[body]]
name = "pill"
mass = 0.01
shape = { type = "capsule", radius = 0.01, length = 0.02 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.002 }

[[body]]
name = "egg"
mass = 0.06
shape = { type = "ellipsoid", radii = [0.02, 0.02, 0.03] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.002 }
"#;

fn v(x: f64, y: f64, z: f64) -> contactlab::math::Vector3 {
    contactlab::math::Vector3::new(x, y, z)
}

fn parse(text: &str) -> Result<contactlab::scene::Scene, SceneError> {
    parse_scene(text, Path::new("."))
}

/// The error message of a scene that must fail.
fn message(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("scene should have been rejected:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(msg: &str, parts: &[&str]) {
    if std::env::var_os("SHOW_MESSAGES").is_some() {
        eprintln!("{msg}");
    }
    for p in parts {
        assert!(msg.contains(p), "message does not mention {p:?}:\n{msg}");
    }
}

/// A valid one-body scene with `line` inserted into the body table.
fn ball_with(line: &str) -> String {
    format!(
        "[[body]]\nname = \"ball\"\nmass = 1.0\n{line}\nshape = {{ type = \"sphere\", radius = 0.1 }}\n\
         contact = {{ compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = 0.01 }}\n"
    )
}

#[test]
fn full_scene_parses_to_the_written_values() {
    let scene = parse(FULL).unwrap();
    assert_eq!(scene.model, ModelKind::Hertz);
    assert_eq!(scene.sim.duration, 2.5);
    assert_eq!(scene.sim.gravity.z, -1.62);
    assert_eq!(scene.sim.integrator.as_deref(), Some("implicit"));
    assert_eq!((scene.sim.dt, scene.sim.rtol, scene.sim.atol), (Some(1e-4), Some(1e-5), Some(1e-8)));
    assert_eq!(scene.bodies.len(), 6);

    let ball = scene.body("ball").unwrap();
    assert!(!ball.fixed);
    assert_eq!(ball.mass, Some(2.0));
    assert_eq!(
        ball.inertia,
        Some(contactlab::scene::InertiaSpec::AboutOrigin(contactlab::math::Matrix3::from_diagonal_element(
            0.1
        )))
    );
    assert_eq!(ball.pose.translation.vector, v(0.0, 0.1, 0.09));
    // [w,x,y,z] = [0,1,0,0] is a half turn about x: it maps +y to −y.
    let y = ball.pose.rotation * contactlab::math::Vector3::y();
    assert!((y + contactlab::math::Vector3::y()).norm() < 1e-12);
    assert_eq!(ball.twist.linear, v(1.0, 0.0, 0.0));
    assert_eq!(ball.twist.angular, v(0.0, 0.0, 3.0));
    assert_eq!(ball.shape, Some(Shape::Sphere { radius: 0.1 }));
    assert_eq!(ball.contact.compliance, Compliance::Compliant);
    assert_eq!(ball.contact.hydroelastic_modulus, Some(1e5));
    assert_eq!(ball.contact.resolution, Some(0.005));
    assert_eq!((ball.contact.dissipation, ball.contact.friction), (2.0, 0.5));

    let floor = scene.body("floor").unwrap();
    assert!(floor.fixed);
    assert_eq!(floor.shape, Some(Shape::HalfSpace));
    assert_eq!(floor.contact.slab_thickness, Some(0.2));
    assert_eq!(floor.contact.resolution, None);

    let brick = scene.body("brick").unwrap();
    assert_eq!((brick.mass, brick.density), (None, Some(500.0)));
    assert_eq!(brick.shape, Some(Shape::Box { size: [0.1, 0.2, 0.3] }));
    assert_eq!(scene.body("can").unwrap().shape, Some(Shape::Cylinder { radius: 0.03, length: 0.12 }));
    assert_eq!(scene.body("pill").unwrap().shape, Some(Shape::Capsule { radius: 0.01, length: 0.02 }));
    assert_eq!(scene.body("egg").unwrap().shape, Some(Shape::Ellipsoid { radii: [0.02, 0.02, 0.03] }));
}

#[test]
fn defaults_fill_missing_sections_and_keys() {
    let scene = parse(&ball_with("")).unwrap();
    assert_eq!(scene.model, ModelKind::PressureField);
    assert_eq!(scene.sim.duration, 1.0);
    assert_eq!(scene.sim.gravity, v(0.0, 0.0, -9.81));
    assert_eq!(scene.sim.dt, None);
    let ball = &scene.bodies[0];
    assert!(!ball.fixed);
    assert_eq!(ball.pose, contactlab::math::Isometry3::identity());
    assert_eq!(ball.twist, Default::default());
    assert_eq!((ball.contact.friction, ball.contact.dissipation), (0.0, 0.0));

    // No contact table: rigid, frictionless.
    let rigid =
        parse("[[body]]\nname = \"r\"\nmass = 1\nshape = { type = \"sphere\", radius = 1 }\n").unwrap();
    assert_eq!(rigid.bodies[0].contact.compliance, Compliance::Rigid);
    assert_eq!(rigid.bodies[0].contact.friction, 0.0);
}

#[test]
fn nearly_unit_orientation_is_normalised() {
    let scene = parse(&ball_with("orientation = [1.0000004, 0.0, 0.0, 0.0]")).unwrap();
    assert_eq!(scene.bodies[0].pose.rotation.quaternion().norm(), 1.0);
}

#[test]
fn unknown_key_lists_the_valid_keys_with_line() {
    let msg = message(&ball_with("mas = 2.0"));
    assert_mentions(&msg, &["body 'ball'", "`mas`", "`mass`", "`density`", "`orientation`", "line 4"]);
}

#[test]
fn misspelled_shape_field_lists_the_shape_keys() {
    let text =
        "[[body]]\nname = \"ball\"\nmass = 1\nshape = { type = \"cylinder\", radius = 0.1, lenght = 0.2 }\n";
    let msg = message(text);
    assert_mentions(&msg, &["body 'ball'", "shape", "`lenght`", "length", "radius", "line 4"]);
}

#[test]
fn unknown_shape_type_lists_the_types() {
    let msg = message("[[body]]\nname = \"ball\"\nmass = 1\nshape = { type = \"sphre\", radius = 1 }\n");
    assert_mentions(&msg, &["body 'ball'", "shape.type", "`sphre`", "`sphere`", "`halfspace`"]);
}

#[test]
fn unknown_contact_key_and_section_key_are_named() {
    let msg = message(&ball_with("").replace("resolution", "resolutoin"));
    assert_mentions(&msg, &["body 'ball'", "`resolutoin`", "`resolution`", "`friction`"]);
    let msg = message(&format!("[sim]\nduraton = 1\n{}", ball_with("")));
    assert_mentions(&msg, &["[sim]", "`duraton`", "`duration`", "line 2"]);
}

#[test]
fn wrong_type_names_the_key() {
    let msg = message(&ball_with("").replace("mass = 1.0", "mass = \"heavy\""));
    assert_mentions(&msg, &["body 'ball'", "`mass`", "string"]);
}

#[test]
fn nan_and_inf_are_rejected() {
    let msg = message(&ball_with("").replace("mass = 1.0", "mass = nan"));
    assert_mentions(&msg, &["body 'ball'", "`mass`", "finite"]);
    let msg = message(&ball_with("position = [0.0, inf, 0.0]"));
    assert_mentions(&msg, &["body 'ball'", "`position`", "finite"]);
    let msg = message(&ball_with("").replace("radius = 0.1", "radius = -inf"));
    assert_mentions(&msg, &["body 'ball'", "`shape.radius`", "finite"]);
}

#[test]
fn non_unit_quaternion_is_rejected_with_a_fix() {
    let msg = message(&ball_with("orientation = [1.0, 1.0, 0.0, 0.0]"));
    assert_mentions(
        &msg,
        &["body 'ball'", "`orientation`", "unit quaternion", "normalise it", "[1, 0, 0, 0]"],
    );
}

#[test]
fn non_positive_sizes_are_rejected() {
    let msg = message(&ball_with("").replace("radius = 0.1", "radius = -0.1"));
    assert_mentions(&msg, &["body 'ball'", "`shape.radius`", "-0.1", "greater than 0"]);
    let msg = message("[[body]]\nname = \"b\"\nmass = 1\nshape = { type = \"box\", size = [1, 0, 1] }\n");
    assert_mentions(&msg, &["body 'b'", "`shape.size`"]);
    let msg = message(&ball_with("").replace("hydroelastic_modulus = 1e5", "hydroelastic_modulus = 0"));
    assert_mentions(&msg, &["body 'ball'", "`contact.hydroelastic_modulus`"]);
}

#[test]
fn missing_convex_file_names_body_key_and_path() {
    let text =
        "[[body]]\nname = \"rock\"\nmass = 1\nshape = { type = \"convex\", file = \"no/such/rock.obj\" }\n";
    let msg = parse_scene(text, Path::new("/scenes")).unwrap_err().to_string();
    assert_mentions(&msg, &["body 'rock'", "shape.file", "/scenes/no/such/rock.obj"]);
}

#[test]
fn mesh_shapes_name_a_missing_file_and_bad_keys() {
    let msg =
        message("[[body]]\nname = \"bunny\"\nmass = 1\nshape = { type = \"mesh\", file = \"bunny.obj\" }\n");
    assert_mentions(&msg, &["body 'bunny'", "bunny.obj"]);
    let msg = message(
        "[[body]]\nname = \"bunny\"\nmass = 1\nshape = { type = \"mesh\", file = \"bunny.obj\", core = \"middle\" }\n",
    );
    assert_mentions(&msg, &["body 'bunny'", "shape.core", "medial_axis"]);
    let msg = message(
        "[[body]]\nname = \"bunny\"\nmass = 1\nshape = { type = \"mesh\", file = \"bunny.obj\", skin_depth = -1 }\n",
    );
    assert_mentions(&msg, &["body 'bunny'", "skin_depth"]);
}

#[test]
fn moving_rigid_pair_is_rejected() {
    let text = "[[body]]\nname = \"floor\"\nfixed = true\nshape = { type = \"halfspace\" }\n\
                [[body]]\nname = \"cube\"\nmass = 1\nshape = { type = \"box\", size = [1, 1, 1] }\n";
    let msg = message(text);
    assert_mentions(
        &msg,
        &["'floor'", "'cube'", "make one of them compliant (contact.compliance = \"compliant\")"],
    );
    // Two fixed rigid bodies never meet, so they are fine.
    let text = text.replace("mass = 1", "fixed = true");
    assert!(parse(&text).is_ok());
}

#[test]
fn compliant_body_needs_modulus_and_resolution() {
    let msg = message(&ball_with("").replace("hydroelastic_modulus = 1e5, ", ""));
    assert_mentions(&msg, &["body 'ball'", "`contact.hydroelastic_modulus`", "missing"]);
    let msg = message(&ball_with("").replace(", resolution = 0.01", ""));
    assert_mentions(&msg, &["body 'ball'", "`contact.resolution`", "missing"]);
}

#[test]
fn half_space_rules() {
    let floor = |extra: &str, contact: &str| {
        format!(
            "{}[[body]]\nname = \"floor\"\n{extra}\nshape = {{ type = \"halfspace\" }}\ncontact = {{ {contact} }}\n",
            ball_with("")
        )
    };
    let msg = message(&floor("mass = 1", ""));
    assert_mentions(&msg, &["body 'floor'", "`fixed`", "a half space cannot move; set fixed = true"]);
    let msg = message(&floor("fixed = true", "compliance = \"compliant\", hydroelastic_modulus = 1e6"));
    assert_mentions(&msg, &["body 'floor'", "`contact.slab_thickness`", "missing"]);
    let msg = message(&floor(
        "fixed = true",
        "compliance = \"compliant\", hydroelastic_modulus = 1e6, slab_thickness = 0.1, resolution = 0.01",
    ));
    assert_mentions(&msg, &["body 'floor'", "`contact.resolution`", "not allowed"]);
    let msg = message(&ball_with("").replace("resolution = 0.01", "resolution = 0.01, slab_thickness = 0.1"));
    assert_mentions(&msg, &["body 'ball'", "`contact.slab_thickness`", "half space"]);
}

#[test]
fn mass_rules_and_names() {
    let msg = message(&ball_with("density = 1000.0"));
    assert_mentions(&msg, &["body 'ball'", "`density`", "`mass`"]);
    let msg = message(&ball_with("").replace("mass = 1.0", ""));
    assert_mentions(&msg, &["body 'ball'", "`mass`", "density", "fixed = true"]);
    let msg = message(&format!("{}{}", ball_with(""), ball_with("")));
    assert_mentions(&msg, &["body 'ball'", "unique `name`", "line 7"]);
    let msg = message(&ball_with("").replace("name = \"ball\"", "name = \"\""));
    assert_mentions(&msg, &["`name`", "empty"]);
    let msg = message(&ball_with("").replace("name = \"ball\"\n", ""));
    assert_mentions(&msg, &["body #1", "`name`", "missing"]);
}

#[test]
fn sim_values_are_checked() {
    for (line, key) in [
        ("duration = 0", "`duration`"),
        ("dt = -1e-3", "`dt`"),
        ("rtol = nan", "`rtol`"),
        ("atol = 0", "`atol`"),
    ] {
        let msg = message(&format!("[sim]\n{line}\n{}", ball_with("")));
        assert_mentions(&msg, &["[sim]", key]);
    }
}

#[test]
fn syntax_errors_give_a_line() {
    let msg = message("[[body]]\nname = \"ball\nmass = 1\n");
    assert_mentions(&msg, &["not valid TOML", "line 2"]);
    let msg = message("[[body]]\nname = \"b\"\nmass = 1\nshape = { type = \"sphere\",\n radius = 1 }\n");
    assert_mentions(&msg, &["line 4", "must be on one line", "[body.contact]"]);
}

#[test]
fn load_scene_reports_missing_file_and_resolves_relative_paths() {
    let err = contactlab::scene::load_scene(Path::new("/no/such/scene.toml")).unwrap_err();
    assert!(matches!(err, SceneError::Read { .. }));
    assert!(err.to_string().contains("/no/such/scene.toml"));

    let dir = std::env::temp_dir().join(format!("contactlab-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.toml");
    std::fs::write(
        &path,
        "[[body]]\nname = \"rock\"\nmass = 1\nshape = { type = \"convex\", file = \"rock.obj\" }\n",
    )
    .unwrap();
    let msg = contactlab::scene::load_scene(&path).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(msg.contains(&dir.join("rock.obj").display().to_string()), "{msg}");
}

#[test]
fn the_example_in_docs_parses() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scene.md")).unwrap();
    let example = doc.find("## Example").expect("an example section in docs/scene.md");
    let start = example + doc[example..].find("```toml\n").expect("a toml example in it") + 8;
    let len = doc[start..].find("```").unwrap();
    let scene = parse(&doc[start..start + len]).unwrap();
    assert_eq!(scene.bodies.len(), 2);
    let floor = scene.body("floor").unwrap();
    assert_eq!((floor.contact.slab_thickness, floor.contact.friction), (Some(0.1), 0.5));
}

/// A scene's kind says before any model is built whether it is an impulse (constraint) model
/// (the integrator's default and checks depend on it); the model built from it says so again
/// by its capability. Both agree for every kind, and the model knows its kind.
#[test]
fn a_kind_and_the_model_built_from_it_agree_on_forces_or_impulses() {
    use contactlab::contact::model::Stepping;
    for kind in [ModelKind::PressureField, ModelKind::Hertz, ModelKind::Volume6d, ModelKind::Peg] {
        let contact = match kind {
            ModelKind::PressureField => {
                "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.02 }"
            }
            ModelKind::Hertz => "contact = { material = \"Steel\" }",
            ModelKind::Volume6d | ModelKind::Peg => "",
        };
        let ground = if kind == ModelKind::Hertz { contact } else { "" };
        let text = format!(
            "[model]\nkind = \"{}\"\n[[body]]\nname = \"ground\"\nfixed = true\nposition = [0, 0, -0.05]\nshape = {{ type = \"box\", size = [1.0, 1.0, 0.1] }}\n{ground}\n\
             [[body]]\nname = \"cube\"\nmass = 1.0\nposition = [0, 0, 0.049]\nshape = {{ type = \"box\", size = [0.1, 0.1, 0.1] }}\n{contact}\n",
            kind.key()
        );
        let scene = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", kind.key()));
        let model = contactlab::scene::contact_model(&scene, false).expect("the model builds");
        assert_eq!(model.kind(), kind);
        let impulses = model.stepping() == Stepping::Velocity;
        assert_eq!(impulses, kind.is_constraint(), "{}", kind.key());
        assert_eq!(model.force().is_none(), impulses, "{}", kind.key());
        let poses: Vec<_> = scene.bodies.iter().map(|b| (b.pose, b.twist)).collect();
        let pairs = model.candidate_pairs(&poses);
        assert_eq!(pairs, vec![(0, 1)], "{}: the cube may touch the ground", kind.key());
    }
}

/// Friction, dissipation and a planar body's moment of inertia are refused outside their
/// ranges (docs/scene.md, "Ranges") with the key: 1e300 and 1e-300 once reached the solvers and
/// came back as NaN in an LCP or an unnamed overflow.
#[test]
fn friction_dissipation_and_moment_of_inertia_are_checked_against_their_ranges() {
    let ball = |extra: &str| {
        format!(
            "[[body]]\nname = \"ball\"\nmass = 1.0\nshape = {{ type = \"sphere\", radius = 0.1 }}\n\
             contact = {{ compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = 0.01, {extra} }}\n"
        )
    };
    for (extra, key) in [
        ("friction = 1e300", "contact.friction"),
        ("friction = 11.0", "contact.friction"),
        ("dissipation = 1e300", "contact.dissipation"),
        ("dissipation = -1.0", "contact.dissipation"),
    ] {
        assert_mentions(&message(&ball(extra)), &[key]);
    }
    assert!(parse(&ball("friction = 10.0, dissipation = 1e4")).is_ok());
    let planar = |j: &str| {
        format!(
            "[model]\nkind = \"peg\"\nplanar = true\n[[body]]\nname = \"floor\"\nfixed = true\nshape = {{ type = \"halfspace\" }}\n\
             [[body]]\nname = \"block\"\nmass = 1.0\nmoment_of_inertia = {j}\nposition = [0, 0, 0.1]\n\
             shape = {{ type = \"polygon\", vertices = [[-0.1, -0.1], [0.1, -0.1], [0.1, 0.1], [-0.1, 0.1]] }}\n"
        )
    };
    for j in ["1e-30", "1e300"] {
        assert_mentions(&message(&planar(j)), &["moment_of_inertia"]);
    }
    assert!(parse(&planar("0.003")).is_ok());
}
