//! A deep starting overlap under hertz is refused at once for every shape, naming both bodies
//! and the fix (issue 36: capsules, ellipsoids and cylinders crawled under dopri5 for minutes).

use contactlab::dynamics::DynamicsError;
use contactlab::dynamics::simulate::{Flow, Schedule, run};
use contactlab::scene::{build_world, integrator_choice, parse_scene};
use std::path::Path;

fn outcome(shape: &str, z: f64) -> Result<(), DynamicsError> {
    let text = format!(
        r#"
[model]
kind = "hertz"

[[body]]
name = "ground"
fixed = true
position = [0.0, 0.0, -0.5]
shape = {{ type = "box", size = [4.0, 4.0, 1.0] }}
contact = {{ material = "DryWood" }}

[[body]]
name = "probe"
mass = 1.0
position = [0.0, 0.0, {z}]
shape = {shape}
contact = {{ material = "DryWood" }}
"#
    );
    let scene = parse_scene(&text, Path::new(".")).expect("valid scene");
    let world = build_world(&scene, false).expect("world builds");
    let (integrator, _) = integrator_choice(&scene).unwrap();
    run(&world, &integrator, &Schedule::new(1e-3, 1e-3), |_| Ok(Flow::Continue)).map(|_| ())
}

const SHAPES: [(&str, f64); 5] = [
    ("{ type = \"sphere\", radius = 0.1 }", 0.1),
    ("{ type = \"box\", size = [0.2, 0.2, 0.2] }", 0.1),
    ("{ type = \"capsule\", radius = 0.05, length = 0.1 }", 0.1),
    ("{ type = \"ellipsoid\", radii = [0.1, 0.1, 0.1] }", 0.1),
    ("{ type = \"cylinder\", radius = 0.05, length = 0.1 }", 0.05),
];

#[test]
fn every_shape_placed_deep_in_the_ground_is_refused_at_once() {
    for (shape, half_height) in SHAPES {
        let started = std::time::Instant::now();
        match outcome(shape, half_height - 0.09) {
            Err(e @ DynamicsError::DeepStartOverlap { .. }) => {
                let message = e.to_string();
                assert!(message.contains("`probe`") && message.contains("`ground`"), "{message}");
                assert!(message.contains("start them apart"), "{message}");
            }
            other => panic!("{shape}: {other:?}"),
        }
        assert!(started.elapsed().as_secs_f64() < 10.0, "{shape}: refused only after a crawl");
    }
}

#[test]
fn a_shallow_starting_overlap_runs() {
    for (shape, half_height) in SHAPES {
        assert!(outcome(shape, half_height - 1e-5).is_ok(), "{shape}");
    }
}
