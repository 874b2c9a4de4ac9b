//! No body passes through the floor in silence: a run whose body ends wholly inside a half space
//! stops with an error naming both bodies, the time and the fix (issue 36).

use contactlab::dynamics::DynamicsError;
use contactlab::dynamics::simulate::{Flow, Schedule, run};
use contactlab::scene::{build_world, integrator_choice, parse_scene};
use std::path::Path;

fn outcome(text: &str) -> Result<(), DynamicsError> {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    let world = build_world(&scene, false).expect("world builds");
    let (integrator, _) = integrator_choice(&scene).unwrap();
    run(&world, &integrator, &Schedule::new(0.2, 0.01), |_| Ok(Flow::Continue)).map(|_| ())
}

fn ball(kind: &str, z: f64, speed: f64) -> String {
    let contact = match kind {
        "pressure_field" => {
            "{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 1.0 }"
        }
        _ => "{ friction = 0.5 }",
    };
    let shape = if kind == "pressure_field" {
        "{ type = \"sphere\", radius = 0.1 }"
    } else {
        "{ type = \"box\", size = [0.2, 0.2, 0.2] }"
    };
    format!(
        r#"
[model]
kind = "{kind}"

[[body]]
name = "ground"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ friction = 0.5 }}

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, {z}]
linear_velocity = [0.0, 0.0, {speed}]
shape = {shape}
contact = {contact}
"#
    )
}

/// The ball's height at the end of a run of `text` (0.2 s), or the run's error.
fn end_height(text: &str) -> Result<f64, DynamicsError> {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    let world = build_world(&scene, false).expect("world builds");
    let (integrator, _) = integrator_choice(&scene).unwrap();
    let ball = world.bodies.iter().position(|b| b.name == "ball").unwrap();
    let mut z = f64::NAN;
    run(&world, &integrator, &Schedule::new(0.2, 0.01), |sample| {
        z = sample.poses[ball].0.translation.vector.z;
        Ok(Flow::Continue)
    })?;
    Ok(z)
}

#[test]
fn a_ball_shot_at_the_ground_at_1e3_m_per_s_lands_as_one_at_10_m_per_s() {
    // The default schemes cut the step that would cross the surface into sub-steps.
    for kind in ["pressure_field", "volume6d", "peg"] {
        let fast = end_height(&ball(kind, 0.5, -1000.0)).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let slow = end_height(&ball(kind, 0.5, -10.0)).unwrap();
        assert!(fast > 0.0 && slow > 0.0, "{kind}: ends at z = {fast} (10 m/s: {slow})");
    }
}

#[test]
fn a_crossing_the_scheme_does_not_cut_stops_the_run_with_an_error() {
    // 1e5 m/s would need 1e4 sub-steps of 1 ms, beyond the 1000 a step is cut into: the end
    // check names the crossing.
    let text = ball("pressure_field", 0.5, -99_000.0).replacen(
        "[model]",
        "[sim]\nintegrator = \"semi_implicit_euler\"\n\n[model]",
        1,
    );
    match outcome(&text) {
        Err(e @ DynamicsError::ThroughHalfSpace { .. }) => {
            let message = e.to_string();
            assert!(
                message.contains("`ball`") && message.contains("`ground`") && message.contains("smaller dt"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_body_placed_inside_the_ground_is_refused_at_the_start() {
    match outcome(&ball("pressure_field", -1.0, 0.0)) {
        Err(DynamicsError::ThroughHalfSpace { t, depth, .. }) => {
            assert!(t == 0.0 && (depth - 0.9).abs() < 1e-12)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_ball_dropped_as_usual_lands_without_the_error() {
    for kind in ["pressure_field", "volume6d", "peg"] {
        assert!(outcome(&ball(kind, 0.3, -1.0)).is_ok(), "{kind}");
    }
}

/// A 5 cm ball shot along x at `speed` at a 0.4 m box (fixed or free, 10 kg) 1 m away, no
/// gravity, under `kind` and `integrator` (empty: the model's default).
fn shot_at_a_box(kind: &str, integrator: &str, speed: f64, box_fixed: bool) -> String {
    let sim = if integrator.is_empty() { String::new() } else { format!("integrator = \"{integrator}\"\n") };
    let (ball_contact, box_contact) = match kind {
        "pressure_field" => (
            "{ compliance = \"compliant\", hydroelastic_modulus = 1e7, resolution = 0.02, dissipation = 1.0 }",
            "{ compliance = \"compliant\", hydroelastic_modulus = 1e7, resolution = 0.1, dissipation = 1.0 }",
        ),
        "hertz" => ("{ material = \"Steel\" }", "{ material = \"Steel\" }"),
        _ => ("{ friction = 0.5 }", "{ friction = 0.5 }"),
    };
    let ball = if kind == "pressure_field" || kind == "hertz" {
        "{ type = \"sphere\", radius = 0.05 }"
    } else {
        "{ type = \"box\", size = [0.1, 0.1, 0.1] }"
    };
    let box_motion = if box_fixed { "fixed = true" } else { "mass = 10.0" };
    format!(
        r#"
[sim]
gravity = [0.0, 0.0, 0.0]
{sim}
[model]
kind = "{kind}"

[[body]]
name = "box"
{box_motion}
shape = {{ type = "box", size = [0.4, 0.4, 0.4] }}
contact = {box_contact}

[[body]]
name = "ball"
mass = 0.1
position = [-1.0, 0.0, 0.0]
linear_velocity = [{speed}, 0.0, 0.0]
shape = {ball}
contact = {ball_contact}
"#
    )
}

/// The ball's and the box's x at the end of a 0.2 s run, or the run's error.
fn ball_and_box_x(text: &str) -> Result<(f64, f64), DynamicsError> {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    let world = build_world(&scene, false).expect("world builds");
    let (integrator, _) = integrator_choice(&scene).unwrap();
    let index = |name: &str| world.bodies.iter().position(|b| b.name == name).unwrap();
    let (ball, boxed) = (index("ball"), index("box"));
    let mut x = (f64::NAN, f64::NAN);
    run(&world, &integrator, &Schedule::new(0.2, 0.01), |sample| {
        x = (sample.poses[ball].0.translation.vector.x, sample.poses[boxed].0.translation.vector.x);
        Ok(Flow::Continue)
    })?;
    Ok(x)
}

#[test]
fn a_ball_shot_at_a_box_at_1e3_m_per_s_does_not_pass_through_it() {
    // One 1 ms step moves the ball 1 m, more than the box is thick: without the cut steps it
    // ends 199 m beyond the box with no word. Each fixed-step scheme cuts the step.
    for (kind, integrator) in
        [("pressure_field", ""), ("pressure_field", "semi_implicit_euler"), ("volume6d", ""), ("peg", "")]
    {
        for box_fixed in [true, false] {
            let text = shot_at_a_box(kind, integrator, 1000.0, box_fixed);
            // Semi-implicit Euler's sub-steps (10 us) are still too long for this contact's
            // stiffness: the energy watch stops it, naming the bodies — never in silence.
            let (ball, boxed) = match ball_and_box_x(&text) {
                Err(e @ DynamicsError::EnergyGrowth { .. }) if integrator == "semi_implicit_euler" => {
                    assert!(e.to_string().contains("ball, box"), "{e}");
                    continue;
                }
                outcome => outcome.unwrap_or_else(|e| panic!("{kind} {integrator}: {e}")),
            };
            assert!(
                ball < boxed - 0.2,
                "{kind} {integrator} fixed {box_fixed}: ball at {ball}, box at {boxed}"
            );
        }
    }
}

#[test]
fn a_ball_placed_inside_a_box_is_refused_at_the_start() {
    let text = shot_at_a_box("pressure_field", "", 0.0, true).replace("[-1.0, 0.0, 0.0]", "[0.05, 0.0, 0.0]");
    match ball_and_box_x(&text) {
        Err(e @ DynamicsError::InsideBody { t, .. }) => {
            let message = e.to_string();
            assert!(t == 0.0 && message.contains("`ball`") && message.contains("`box`"), "{message}");
            assert!(message.contains("start it outside"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // Touching the box's face from outside is no error.
    let text =
        shot_at_a_box("pressure_field", "", 0.0, true).replace("[-1.0, 0.0, 0.0]", "[-0.249, 0.0, 0.0]");
    assert!(ball_and_box_x(&text).is_ok());
}

#[test]
fn a_ball_pressed_into_a_box_by_a_load_it_cannot_carry_stops_the_run() {
    // 1e5 m/s² on 0.1 kg: 1e4 N, more than the ball's field (1e6 Pa over its 8e-3 m² section)
    // can carry. The ball sinks into the fixed box until wholly inside: an error, not silence.
    let text = shot_at_a_box("pressure_field", "", 0.0, true)
        .replace("gravity = [0.0, 0.0, 0.0]", "gravity = [1e5, 0.0, 0.0]")
        .replace("[-1.0, 0.0, 0.0]", "[-0.25, 0.0, 0.0]")
        .replacen("hydroelastic_modulus = 1e7", "hydroelastic_modulus = 1e6", 1);
    match ball_and_box_x(&text) {
        Err(DynamicsError::InsideBody { t, body, other, .. }) => {
            assert!(t > 0.0 && body == "ball" && other == "box", "{t} {body} {other}")
        }
        other => panic!("{other:?}"),
    }
}
