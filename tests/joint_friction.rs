//! Joint Coulomb friction (`friction`, regularized below `friction_speed`): a slider brakes to a
//! stop at the closed-form distance under every integrator, a load below the friction creeps at
//! the regularization's closed-form speed, one above it accelerates at the closed-form rate, and
//! the energy friction takes is counted.

use contactlab::dynamics::simulate::{Flow, Integrator, Schedule, run};
use contactlab::dynamics::world::World;
use contactlab::scene::{Scene, build_world, integrator_choice, parse_scene};
use std::path::Path;

fn scene(text: &str) -> Scene {
    parse_scene(text, Path::new(".")).expect("valid scene")
}

/// A 2 kg block on a prismatic joint along `axis`, starting at speed `v0`.
fn slider(axis: [f64; 3], v0: f64, friction: f64, extra: &str) -> String {
    format!(
        r#"
{extra}
[[body]]
name = "block"
mass = 2.0
inertia = [0.01, 0.01, 0.01]

[[joint]]
name = "rail"
type = "prismatic"
parent = "world"
child = "block"
axis = [{}, {}, {}]
velocity = {v0}
friction = {friction}
"#,
        axis[0], axis[1], axis[2]
    )
}

/// (t, q, v, total energy + dissipated, joint friction's loss) at each output.
fn run_slider(world: &World, integrator: &Integrator, duration: f64) -> Vec<[f64; 5]> {
    let m = world.mechanism.as_ref().expect("a mechanism");
    let mut out = Vec::new();
    run(world, integrator, &Schedule::new(duration, 1e-2), |s| {
        out.push([s.t, m.q(s.y)[0], m.v(s.y)[0], s.energies.total, m.joint_damping(s.y)]);
        Ok(Flow::Continue)
    })
    .expect("simulation runs");
    out
}

const MASS: f64 = 2.0;

#[test]
fn a_sliding_block_brakes_to_the_closed_form_distance_under_every_integrator() {
    // Deceleration F/m until it stops: distance v0²·m/(2F) at t = v0·m/F.
    let (v0, f) = (1.0, 4.0);
    let (stop_distance, stop_time) = (v0 * v0 * MASS / (2.0 * f), v0 * MASS / f);
    for (model, integrator) in [
        ("pressure_field", "implicit_euler"),
        ("pressure_field", "semi_implicit_euler"),
        ("pressure_field", "dopri5"),
        ("pressure_field", "radau5"),
        ("volume6d", "time_stepping"),
        ("peg", "time_stepping"),
    ] {
        let header =
            format!("[model]\nkind = \"{model}\"\n[sim]\nintegrator = \"{integrator}\"\nduration = 1.0\n");
        let scene = scene(&slider([1.0, 0.0, 0.0], v0, f, &header));
        let world = build_world(&scene, false).expect("world builds");
        let (chosen, _) = integrator_choice(&scene).expect("integrator");
        let rows = run_slider(&world, &chosen, 1.0);
        let last = rows.last().unwrap();
        let at_stop = rows.iter().find(|r| r[0] >= stop_time - 1e-9).unwrap();
        eprintln!(
            "{integrator}: q = {} (closed form {stop_distance}), v after the stop {:e}",
            last[1], last[2]
        );
        // Within a step's travel; at rest (creep only under the regularization, none here: no load).
        assert!((last[1] - stop_distance).abs() < 2e-3, "{integrator}: stopped at {}", last[1]);
        assert!(last[2].abs() < 1e-3 && at_stop[2].abs() < 5e-3, "{integrator}: still moving");
        // All the kinetic energy went to friction, counted as joint damping's loss.
        let kinetic = 0.5 * MASS * v0 * v0;
        assert!((last[4] - kinetic).abs() < 1e-2 * kinetic, "{integrator}: friction took {}", last[4]);
        assert!((last[3] - rows[0][3]).abs() < 1e-2 * kinetic, "{integrator}: energy balance");
    }
}

#[test]
fn a_load_below_the_friction_creeps_at_the_regularized_speed_and_one_above_accelerates() {
    // Vertical rail under gravity; friction F against the weight W = m·g.
    let weight = MASS * 9.81;
    let radau = Integrator::Radau5 {
        tolerances: contactlab::dynamics::ode::Tolerances { rtol: 1e-9, atol: 1e-11 },
        initial_step: None,
    };
    for (ratio, speed) in [(2.0, 1e-3), (4.0, 1e-2)] {
        // Steady creep where F·v/√(v² + s²) = W: v = s·(W/F)/√(1 − (W/F)²).
        let f = ratio * weight;
        let text = slider([0.0, 0.0, 1.0], 0.0, f, "")
            .replace(&format!("friction = {f}"), &format!("friction = {f}\nfriction_speed = {speed}"));
        let world = build_world(&scene(&text), false).expect("world builds");
        let rows = run_slider(&world, &radau, 0.5);
        let x = 1.0 / ratio;
        let creep = -speed * x / (1.0 - x * x).sqrt();
        let v = rows.last().unwrap()[2];
        eprintln!("F = {ratio}·W, s = {speed}: creep {v} m/s, closed form {creep}");
        assert!((v - creep).abs() < 1e-6 * creep.abs().max(1e-3), "creep {v} against {creep}");
    }
    // F = W/2: a = g/2 once the speed is far above s.
    let text = slider([0.0, 0.0, 1.0], 0.0, weight / 2.0, "");
    let world = build_world(&scene(&text), false).expect("world builds");
    let rows = run_slider(&world, &radau, 1.0);
    let (t1, v1) = (rows[50][0], rows[50][2]);
    let (t2, v2) = (rows[100][0], rows[100][2]);
    let accel = (v2 - v1) / (t2 - t1);
    eprintln!("acceleration {accel}, closed form {}", -9.81 / 2.0);
    assert!((accel + 9.81 / 2.0).abs() < 1e-4 * 9.81);
}

#[test]
fn friction_is_refused_where_it_has_no_meaning() {
    let ball = r#"
[[body]]
name = "b"
mass = 1.0
inertia = [0.01, 0.01, 0.01]

[[joint]]
name = "j"
type = "ball"
parent = "world"
child = "b"
friction = 1.0
"#;
    let e = parse_scene(ball, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("friction") && e.contains("revolute and prismatic"), "{e}");
    let negative = slider([1.0, 0.0, 0.0], 0.0, -1.0, "");
    let e = parse_scene(&negative, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("friction"), "{e}");
    let still =
        slider([1.0, 0.0, 0.0], 0.0, 1.0, "").replace("friction = 1", "friction = 1\nfriction_speed = 0");
    let e = parse_scene(&still, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("friction_speed"), "{e}");
}
