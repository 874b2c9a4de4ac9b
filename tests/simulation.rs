//! Rigid-body simulation with pressure field contact: physics checks on small scenes.

use contactlab::commands::sim_world::build_world;
use contactlab::contact::pressure_field::{BodyState, evaluate_pair};
use contactlab::dynamics::simulate::{Flow, Integrator, run};
use contactlab::dynamics::world::World;
use contactlab::math::{Quaternion, UnitQuaternion, Vector3};
use contactlab::scene::parse_scene;
use std::path::Path;

fn world(text: &str) -> World {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    build_world(&scene, false).expect("world builds")
}

/// Runs and collects (t, state) every `output_dt`.
fn trajectory(world: &World, integrator: &Integrator, duration: f64, output_dt: f64) -> Vec<(f64, Vec<f64>)> {
    let mut out = Vec::new();
    run(world, integrator, duration, output_dt, |t, y| {
        out.push((t, y.to_vec()));
        Ok(Flow::Continue)
    })
    .expect("simulation runs");
    out
}

fn body_z(y: &[f64]) -> f64 {
    y[2]
}

const GROUND: &str = r#"
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid", friction = 0.5 }
"#;

#[test]
fn resting_box_carries_its_weight_without_drift() {
    let text = format!(
        r#"{GROUND}
[[body]]
name = "box"
mass = 2.0
position = [0.0, 0.0, 0.05]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.05, dissipation = 5.0, friction = 0.5 }}
"#
    );
    let w = world(&text);
    let traj = trajectory(&w, &Integrator::SemiImplicitEuler { dt: 2e-4 }, 2.0, 0.01);
    let late: Vec<&(f64, Vec<f64>)> = traj.iter().filter(|(t, _)| *t >= 1.0).collect();
    let (zmin, zmax) = late.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, y)| (a.min(y[2]), b.max(y[2])));
    let xy_drift = late.iter().map(|(_, y)| y[0].hypot(y[1])).fold(0.0, f64::max);
    eprintln!("z in [{zmin}, {zmax}], xy drift {xy_drift}");
    assert!(zmax - zmin < 1e-6, "jitter {} m", zmax - zmin);
    assert!(xy_drift < 1e-9);
    // Contact force at the final state equals the weight.
    let (t, y) = traj.last().unwrap();
    let poses = w.poses(*t, y);
    let state = |i: usize| BodyState { body: &w.contact[i], pose: poses[i].0, twist: poses[i].1 };
    let f = evaluate_pair(state(1), state(0), &w.options).unwrap().wrench.force;
    let weight = 2.0 * 9.81;
    assert!((f.z - weight).abs() < 0.01 * weight, "contact force {} vs weight {weight}", f.z);
}

fn incline(angle_deg: f64) -> String {
    // Tilt gravity instead of the ground: the same physics, with the incline along +x.
    let a = angle_deg.to_radians();
    format!(
        r#"[sim]
gravity = [{gx}, 0.0, {gz}]
{GROUND}
[[body]]
name = "box"
mass = 1.0
position = [0.0, 0.0, 0.05]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.05, dissipation = 5.0, friction = 0.5 }}
"#,
        gx = 9.81 * a.sin(),
        gz = -9.81 * a.cos()
    )
}

#[test]
fn box_on_incline_sticks_below_and_slides_above_the_friction_angle() {
    let w = world(&incline(20.0));
    let traj = trajectory(&w, &Integrator::SemiImplicitEuler { dt: 2e-4 }, 1.0, 0.01);
    let moved = traj.last().unwrap().1[0] - traj[0].1[0];
    eprintln!("20°: moved {moved} m");
    assert!(moved.abs() < 1e-3, "moved {moved} m at 20°");

    let a = 35f64.to_radians();
    let w = world(&incline(35.0));
    let traj = trajectory(&w, &Integrator::SemiImplicitEuler { dt: 2e-4 }, 1.0, 0.01);
    // Fit x(t) = x0 + a t²/2 over the second half (after settling).
    let pts: Vec<(f64, f64)> = traj.iter().filter(|(t, _)| *t >= 0.3).map(|(t, y)| (*t, y[0])).collect();
    let accel = fit_acceleration(&pts);
    let expected = 9.81 * (a.sin() - 0.5 * a.cos());
    eprintln!("35°: acceleration {accel} vs {expected}");
    assert!((accel - expected).abs() < 0.03 * expected, "acceleration {accel} vs {expected}");
}

/// Least-squares x = c0 + c1 t + c2 t², returns 2 c2.
fn fit_acceleration(pts: &[(f64, f64)]) -> f64 {
    let mut ata = nalgebra::Matrix3::<f64>::zeros();
    let mut atb = nalgebra::Vector3::<f64>::zeros();
    for &(t, x) in pts {
        let row = nalgebra::Vector3::new(1.0, t, t * t);
        ata += row * row.transpose();
        atb += row * x;
    }
    2.0 * (ata.try_inverse().unwrap() * atb)[2]
}

#[test]
fn spinning_puck_is_stopped_by_the_scrubbing_torque() {
    let (r, l, m, mu) = (0.05, 0.02, 0.5, 0.5);
    let text = format!(
        r#"{GROUND}
[[body]]
name = "puck"
mass = {m}
position = [0.0, 0.0, {z}]
angular_velocity = [0.0, 0.0, 40.0]
shape = {{ type = "cylinder", radius = {r}, length = {l} }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.01, dissipation = 5.0, friction = {mu} }}
"#,
        z = l / 2.0
    );
    let w = world(&text);
    // Output every step: the puck rings vertically at ≈ 200 Hz on its contact stiffness, so the
    // torque is averaged over many samples.
    let traj = trajectory(&w, &Integrator::SemiImplicitEuler { dt: 5e-4 }, 1.0, 5e-4);
    let wz = |y: &[f64]| y[12];
    // Angular deceleration against the torque of the contact surface at the same state.
    let i_zz = 0.5 * m * r * r;
    let (t1, y1) = &traj[100];
    let (t2, y2) = &traj[300];
    let decel = (wz(y2) - wz(y1)) / (t2 - t1);
    // The mean scrubbing torque of the contact surface over the same interval (trapezoidal),
    // from the pressure field itself.
    let torque_at = |k: usize| {
        let (tm, ym) = &traj[k];
        let poses = w.poses(*tm, ym);
        let state = |i: usize| BodyState { body: &w.contact[i], pose: poses[i].0, twist: poses[i].1 };
        let c = poses[1].0.translation.vector;
        let wrench = evaluate_pair(state(1), state(0), &w.options).unwrap().wrench;
        (wrench.torque - c.cross(&wrench.force)).z
    };
    let torque_z = (100..300).map(|k| 0.5 * (torque_at(k) + torque_at(k + 1))).sum::<f64>() / 200.0;
    eprintln!("deceleration {decel} vs torque/I {}", torque_z / i_zz);
    assert!((decel - torque_z / i_zz).abs() < 0.02 * decel.abs());
    // Near the closed form for a uniform pressure disc: τ = (2/3)·μ·m·g·R.
    let closed = -2.0 / 3.0 * mu * m * 9.81 * r / i_zz;
    assert!((decel - closed).abs() < 0.05 * closed.abs(), "deceleration {decel} vs {closed}");
    // At rest by the end, without drifting away.
    let (_, y) = traj.last().unwrap();
    assert!(wz(y).abs() < 0.05, "still spinning at {} rad/s", wz(y));
    assert!(y[0].hypot(y[1]) < 1e-3);
    let _ = (Quaternion::identity(), UnitQuaternion::identity(), Vector3::zeros(), body_z(y));
}
