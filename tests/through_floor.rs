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
    // semi_implicit_euler keeps its steps whole: the end check names the crossing.
    let text = ball("pressure_field", 0.5, -1000.0).replacen(
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
