//! A body with `mass` and `inertia` may have no `shape` (docs/scene.md, issue 32): it moves as
//! its mass properties say and touches nothing, under every model.

mod common;

use contactlab::app::simulation::{SimulateArgs, run};
use contactlab::dynamics::simulate::Flow;
use contactlab::scene::{Scene, build_world, integrator_choice, parse_scene};
use std::path::{Path, PathBuf};

fn parse(text: &str) -> Scene {
    parse_scene(text, Path::new(".")).expect("valid scene")
}

fn out_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("contactlab-shapeless-{name}-{}", std::process::id()))
}

/// Simulates `text` as `simulate` does, with `args` set by `with`, into a fresh folder.
fn simulate(text: &str, name: &str, with: impl FnOnce(&mut SimulateArgs)) -> PathBuf {
    let out = out_dir(name);
    std::fs::remove_dir_all(&out).ok();
    let mut args = SimulateArgs::new(&out);
    with(&mut args);
    run(&parse(text), &args).expect("the run completes");
    out
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The example pendulum (1 kg, centre of mass 0.5 m below a revolute axis, released from 90°)
/// under `kind`, its bob a sphere (`sphere`) or no shape at all with the same mass properties.
fn pendulum(kind: &str, sphere: bool) -> String {
    let contact = match kind {
        "hertz" => "{ material = \"Steel\" }",
        _ => "{ compliance = \"compliant\", hydroelastic_modulus = 1e7, resolution = 0.01 }",
    };
    let shape = if sphere {
        format!(
            "shape = {{ type = \"sphere\", radius = 0.05, position = [0.0, 0.0, -0.5] }}\ncontact = {contact}"
        )
    } else {
        String::new()
    };
    format!(
        r#"
[model]
kind = "{kind}"

[sim]
duration = 0.5
output_dt = 0.01

[[body]]
name = "bob"
mass = 1.0
center_of_mass = [0.0, 0.0, -0.5]
inertia = [0.001, 0.001, 0.001]
{shape}

[[joint]]
name = "pivot"
type = "revolute"
parent = "world"
child = "bob"
origin = {{ position = [0.0, 0.0, 1.0] }}
axis = [0.0, 1.0, 0.0]
position = 1.5707963267948966
"#
    )
}

#[test]
fn a_pendulum_without_a_shape_swings_as_the_one_with_a_sphere() {
    // Nothing touches either bob: the same mass properties give the same run, bit for bit.
    for kind in ["pressure_field", "hertz"] {
        let with_sphere = simulate(&pendulum(kind, true), &format!("pendulum-sphere-{kind}"), |_| {});
        let without = simulate(&pendulum(kind, false), &format!("pendulum-none-{kind}"), |_| {});
        let joints = read(&without, "joints.csv");
        assert_eq!(joints.lines().count(), 52, "{kind}: a header and 51 output times");
        assert_eq!(read(&with_sphere, "joints.csv"), joints, "{kind}: joints.csv");
        assert_eq!(read(&with_sphere, "trajectory.csv"), read(&without, "trajectory.csv"), "{kind}");
        // It swung: from 90° towards the bottom.
        let last: Vec<f64> =
            joints.lines().last().unwrap().split(',').skip(2).take(2).map(|x| x.parse().unwrap()).collect();
        assert!(last[0] < 1.0 && last[1] < 0.0, "{kind}: {last:?}");
        std::fs::remove_dir_all(&with_sphere).ok();
        std::fs::remove_dir_all(&without).ok();
    }
}

/// A shape-less 2 kg body dropped from z = 1 m for 1 s under `kind`, over a fixed half space
/// `ground` (Hertz: a large box) when `floor` is set; `extra_sim`: more `[sim]` keys.
fn dropped(kind: &str, floor: bool, extra_sim: &str) -> String {
    let ground = match kind {
        _ if !floor => String::new(),
        // Hertz takes no half spaces: a large box, its top at z = 0.
        "hertz" => "[[body]]\nname = \"ground\"\nfixed = true\nposition = [0.0, 0.0, -0.5]\nshape = { type = \"box\", size = [10.0, 10.0, 1.0] }\ncontact = { material = \"Steel\" }\n".into(),
        _ => "[[body]]\nname = \"ground\"\nfixed = true\nshape = { type = \"halfspace\" }\ncontact = { friction = 0.5 }\n".into(),
    };
    format!(
        r#"
[model]
kind = "{kind}"

[sim]
duration = 1.0
output_dt = 0.05
{extra_sim}

{ground}
[[body]]
name = "weight"
mass = 2.0
inertia = [0.01, 0.02, 0.025]
position = [0.3, -0.2, 1.0]
"#
    )
}

/// (t, z of body `name`) at every output of `text`'s run as `simulate` runs it.
fn heights(text: &str, name: &str) -> Vec<(f64, f64)> {
    let (samples, _, world) = common::run_as_simulate(text, |s| (s.t, s.poses.to_vec()));
    let i = world.bodies.iter().position(|b| b.name == name).expect("the body");
    samples.iter().map(|(t, poses)| (*t, poses[i].0.translation.z)).collect()
}

#[test]
fn a_free_body_without_a_shape_falls_at_g() {
    // dopri5 integrates a constant acceleration exactly: z = z0 − g·t²/2 to round-off.
    let text = dropped("pressure_field", false, "integrator = \"dopri5\"");
    let z = heights(&text, "weight");
    assert_eq!(z.len(), 21);
    for &(t, z) in &z {
        let exact = 1.0 - 0.5 * 9.81 * t * t;
        assert!((z - exact).abs() < 1e-12, "t = {t}: z = {z}, closed form {exact}");
    }
}

#[test]
fn a_body_without_a_shape_falls_through_a_half_space_untouched() {
    // It touches nothing, so it cannot be "through" the floor: no contact, no error, and the
    // fall is the closed form's (to round-off under dopri5; the fixed-step schemes lag it by
    // their step: symplectic Euler's z_n = z0 − g·t·(t + dt)/2, backward Euler's likewise).
    for kind in ["pressure_field", "hertz", "volume6d", "peg"] {
        let extra = if kind == "hertz" { "integrator = \"dopri5\"" } else { "" };
        let text = dropped(kind, true, extra);
        let scene = parse(&text);
        let world = build_world(&scene, false).expect("world builds");
        let weight = world.bodies.iter().position(|b| b.name == "weight").unwrap();
        assert_eq!(world.extents[weight], None, "{kind}: no extent, no through-floor check");
        let (integrator, schedule) = integrator_choice(&scene).unwrap();
        let dt = integrator.fixed_dt().unwrap_or(0.0);
        let (mut contacts, mut last) = (0, (0.0, 0.0));
        contactlab::dynamics::simulate::run(&world, &integrator, &schedule, |s| {
            contacts += s.contacts.len();
            last = (s.t, s.poses[weight].0.translation.z);
            Ok(Flow::Continue)
        })
        .unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(contacts, 0, "{kind}");
        let (t, z) = last;
        assert_eq!(t, 1.0, "{kind}");
        let exact = 1.0 - 0.5 * 9.81 * t * t;
        let lag = 0.5 * 9.81 * t * dt;
        assert!(
            (z - exact).abs() <= lag * (1.0 + 1e-9) + 1e-12,
            "{kind}: z = {z}, closed form {exact}, dt = {dt}"
        );
        assert!(z < -3.8, "{kind}: well below the floor");
    }
}

fn message(text: &str) -> String {
    match parse_scene(text, Path::new(".")) {
        Ok(_) => panic!("the scene should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "`{part}` missing from: {message}");
    }
}

/// A scene with a floor and a shape-less body `link` with the keys `keys`.
fn shapeless_with(keys: &str) -> String {
    format!(
        "[[body]]\nname = \"floor\"\nfixed = true\nshape = {{ type = \"halfspace\" }}\n\n[[body]]\nname = \"link\"\n{keys}\n"
    )
}

#[test]
fn a_body_without_a_shape_needs_its_mass_properties_and_no_contact() {
    let cases: [(&str, &[&str]); 7] = [
        (
            "inertia = [0.01, 0.01, 0.01]",
            &["`mass` is missing", "give `mass` (kg) and `inertia`", "or a `shape`"],
        ),
        ("mass = 1.0", &["`inertia` is missing", "give `mass` (kg) and `inertia`", "or a `shape`"]),
        ("density = 1000.0\ninertia = [0.01, 0.01, 0.01]", &["`density`", "no volume", "give `mass` (kg)"]),
        (
            "mass = 1.0\ninertia = [0.01, 0.01, 0.01]\ncontact = { friction = 0.5 }",
            &["`contact`", "touches nothing", "remove `contact`, or give the body a `shape`"],
        ),
        (
            "mass = 1.0\ninertia = [0.01, 0.01, 0.01]\nfixed = true",
            &[
                "`fixed`",
                "neither move nor touch",
                "give the body a `shape`, or remove it",
                "parent = \"world\"",
            ],
        ),
        (
            "mass = 1.0\ninertia = [0.01, 0.01, 0.01]\nkinematic = { linear_velocity = [1.0, 0.0, 0.0] }",
            &["`kinematic`", "give the body a `shape`, or remove it"],
        ),
        ("", &["`mass` is missing", "give `mass` (kg) and `inertia`"]),
    ];
    for (keys, parts) in cases {
        let msg = message(&shapeless_with(keys));
        // Each names the body and its line, and says the fix.
        assert_mentions(&msg, &["'link'", "line 6", "without a `shape`"]);
        assert_mentions(&msg, parts);
    }
    // Planar scenes: `moment_of_inertia` in place of `inertia`.
    let planar = "[model]\nkind = \"peg\"\nplanar = true\n\n[[body]]\nname = \"link\"\nmass = 1.0\n";
    assert_mentions(
        &message(planar),
        &["'link'", "`moment_of_inertia` is missing", "give `mass` (kg) and `moment_of_inertia`"],
    );
    // A Hertz material pair cannot name it.
    let text = format!(
        "[model]\nkind = \"hertz\"\n[[model.pair]]\na = \"link\"\nb = \"Steel\"\nrestitution = 0.5\nsliding_friction = 0.3\nrolling_resistance = 0.0\n\n{}",
        "[[body]]\nname = \"ball\"\nmass = 1.0\nshape = { type = \"sphere\", radius = 0.1 }\ncontact = { material = \"Steel\" }\n\n[[body]]\nname = \"link\"\nmass = 1.0\ninertia = [0.01, 0.01, 0.01]\n"
    );
    let error = build_world(&parse(&text), false).err().expect("the pair is refused");
    assert_mentions(&format!("{error:#}"), &["`link` is a body without a shape", "remove the pair"]);
    // The fully given body loads, its centre of mass at the body origin.
    let scene =
        parse(&shapeless_with("mass = 1.0\ninertia = [0.01, 0.02, 0.025]\nposition = [0.0, 0.0, 1.0]"));
    let link = scene.body("link").unwrap();
    assert_eq!(link.shape, None);
    let (mass, com, inertia) = link.mass_properties().unwrap();
    assert_eq!((mass, com), (1.0, contactlab::math::Point3::origin()));
    assert_eq!(
        inertia,
        contactlab::math::Matrix3::from_diagonal(&contactlab::math::Vector3::new(0.01, 0.02, 0.025))
    );
}

#[test]
fn a_planar_body_without_a_shape_falls_at_g() {
    // Planar PEG: `mass` and `moment_of_inertia`; symplectic Euler lags the closed form by its step.
    let text = "[model]\nkind = \"peg\"\nplanar = true\n\n[sim]\nduration = 0.5\noutput_dt = 0.05\n\n\
                [[body]]\nname = \"floor\"\nfixed = true\nshape = { type = \"halfspace\" }\n\n\
                [[body]]\nname = \"link\"\nmass = 1.0\nmoment_of_inertia = 0.01\nposition = [0.0, 0.0, 0.2]\nangular_velocity = [0.0, 2.0, 0.0]\n";
    let scene = parse(text);
    let (integrator, _) = integrator_choice(&scene).unwrap();
    let dt = integrator.fixed_dt().unwrap();
    let z = heights(text, "link");
    let (t, z) = *z.last().unwrap();
    let exact = 0.2 - 0.5 * 9.81 * t * t;
    assert!((z - exact).abs() <= 0.5 * 9.81 * t * dt * (1.0 + 1e-9), "z = {z}, closed form {exact}");
}

/// A box resting on the floor and a shape-less link on a revolute joint that swings through
/// both, under `kind` (each model's contact keys).
fn link_and_box(kind: &str) -> String {
    let (floor, boxed, sim, model) = match kind {
        "pressure_field" => (
            "{ type = \"halfspace\" }\ncontact = { friction = 0.5 }",
            "{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.05, dissipation = 1.0, friction = 0.5 }",
            "",
            "",
        ),
        // Hertz takes no half spaces: a large box, its top at z = 0.
        "hertz" => (
            "{ type = \"box\", size = [4.0, 4.0, 1.0] }\nposition = [0.0, 0.0, -0.5]\ncontact = { material = \"Steel\" }",
            "{ material = \"Steel\" }",
            "integrator = \"semi_implicit_euler\"\ndt = 1e-4",
            // Wood-soft, as examples/hertz_box_drop.toml.
            "elastic_contact_reduction_factor = 1e-4",
        ),
        _ => ("{ type = \"halfspace\" }\ncontact = { friction = 0.5 }", "{ friction = 0.5 }", "", ""),
    };
    format!(
        r#"
[model]
kind = "{kind}"
{model}

[sim]
duration = 0.1
output_dt = 0.01
{sim}

[[body]]
name = "floor"
fixed = true
shape = {floor}

[[body]]
name = "box"
mass = 1.0
position = [0.0, 0.0, 0.0499]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {boxed}

[[body]]
name = "link"
mass = 0.5
center_of_mass = [0.0, 0.0, -0.3]
inertia = [0.002, 0.002, 0.001]

[[joint]]
name = "hinge"
type = "revolute"
parent = "world"
child = "link"
origin = {{ position = [0.0, 0.0, 0.2] }}
axis = [0.0, 1.0, 0.0]
velocity = 3.0
"#
    )
}

#[test]
fn a_link_without_a_shape_never_touches_under_any_model() {
    for kind in ["pressure_field", "hertz", "volume6d", "peg"] {
        // VTK and the viewer page too: they must skip the body with nothing to draw.
        let text = link_and_box(kind);
        let out = simulate(&text, &format!("link-{kind}"), |a| a.vtk = kind == "pressure_field");
        contactlab::commands::view::run(&parse(&text), &out, kind).expect("the viewer page");
        let contacts = read(&out, "contacts.csv");
        let rows: Vec<&str> = contacts.lines().skip(1).collect();
        assert!(
            rows.iter().any(|r| r.contains(",box,") || r.contains(",floor,box,")),
            "{kind}: the box rests on the floor"
        );
        assert!(rows.iter().all(|r| !r.contains("link")), "{kind}: {contacts}");
        // The link still has its rows (its centre of mass starts under the box, below the floor).
        let trajectory = read(&out, "trajectory.csv");
        assert_eq!(trajectory.lines().filter(|l| l.split(',').nth(1) == Some("link")).count(), 11, "{kind}");
        // In the viewer page, with nothing to draw.
        let page = read(&out, "view.html");
        let link = page.find("\"name\":\"link\"").expect("the link is in the page");
        let vertices = link + page[link..].find("\"vertices\":").unwrap();
        assert!(page[vertices..].starts_with("\"vertices\":[],\"triangles\":[]"), "{kind}");
        std::fs::remove_dir_all(&out).ok();
    }
}
