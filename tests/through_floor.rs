//! No body passes through the floor in silence: a run whose body ends wholly inside a half space
//! stops with an error naming both bodies, the time and the fix (issue 36, first part).

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

#[test]
fn a_ball_shot_through_the_ground_stops_the_run_with_an_error() {
    // (PEG's step looks ahead to the step's end poses: it stops the box on the ground.)
    assert!(outcome(&ball("peg", 0.5, -1000.0)).is_ok());
    for kind in ["pressure_field", "volume6d"] {
        match outcome(&ball(kind, 0.5, -1000.0)) {
            Err(e @ DynamicsError::ThroughHalfSpace { .. }) => {
                let message = e.to_string();
                assert!(
                    message.contains("`ball`")
                        && message.contains("`ground`")
                        && message.contains("smaller dt")
                );
            }
            other => panic!("{kind}: {other:?}"),
        }
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
