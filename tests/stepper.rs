//! The resumable stepper (dynamics/stepper.rs): its fixed steps are `simulate::run`'s bit for
//! bit, a saved state resumes the run exactly, and control inputs act on free bodies only.

use contactlab::dynamics::simulate::{self, Flow};
use contactlab::dynamics::stepper::Stepper;
use contactlab::math::Vector3;
use contactlab::scene::build_world;
use contactlab::scene::integrator_choice as integrator;
use contactlab::scene::parse_scene;
use std::path::Path;

const BALL: &str = r#"
[sim]
duration = 0.03
output_dt = 0.01
[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.0995]
linear_velocity = [0.1, 0.0, -0.2]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.02, dissipation = 1.0, friction = 0.5 }
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid", friction = 0.5 }
"#;

fn stepper(text: &str) -> Stepper {
    let scene = parse_scene(text, Path::new(".")).unwrap();
    let (integrator, schedule) = integrator(&scene).unwrap();
    Stepper::new(build_world(&scene, false).unwrap(), integrator, schedule.output_dt).unwrap()
}

#[test]
fn fixed_steps_are_the_runs_steps_bit_for_bit() {
    let scene = parse_scene(BALL, Path::new(".")).unwrap();
    let (integrator, schedule) = integrator(&scene).unwrap();
    let world = build_world(&scene, false).unwrap();
    let mut samples = Vec::new();
    simulate::run(&world, &integrator, &schedule, |s| {
        samples.push((s.t, s.y.to_vec()));
        Ok(Flow::Continue)
    })
    .unwrap();
    let mut stepped = Vec::new();
    stepper(BALL).run(0.03, 0.01, |s| stepped.push((s.t(), s.y().to_vec()))).unwrap();
    assert_eq!(samples.len(), 4);
    assert_eq!(samples, stepped);
}

#[test]
fn a_saved_state_resumes_the_run_exactly() {
    let mut s = stepper(BALL);
    for _ in 0..10 {
        s.step().unwrap();
    }
    let saved = s.state();
    for _ in 0..10 {
        s.step().unwrap();
    }
    let reference = s.y().to_vec();
    s.set_state(saved.clone()).unwrap();
    assert_eq!(s.t(), saved.t());
    for _ in 0..10 {
        s.step().unwrap();
    }
    assert_eq!(s.y(), &reference[..]);
}

#[test]
fn control_inputs_move_free_bodies_only() {
    let mut s = stepper(BALL);
    let err = s.apply(1, Vector3::z(), Vector3::zeros()).unwrap_err().to_string();
    assert!(err.contains("`ground` is fixed"), "{err}");
    // Lifting the ball with twice its weight: it leaves the ground, and the work is counted.
    s.apply(0, Vector3::new(0.0, 0.0, 2.0 * 9.81), Vector3::zeros()).unwrap();
    for _ in 0..50 {
        s.step().unwrap();
    }
    assert!(s.contacts().unwrap().is_empty());
    assert!(s.work() > 0.0);
    assert_eq!(s.state().control()[0].0.z, 2.0 * 9.81);
}
