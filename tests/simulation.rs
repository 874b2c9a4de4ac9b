//! Rigid-body simulation with pressure field contact: physics checks on small scenes.

use contactlab::dynamics::simulate::{Flow, Integrator, Schedule, run};
use contactlab::dynamics::world::World;
use contactlab::math::{Quaternion, UnitQuaternion, Vector3};
use contactlab::scene::build_world;
use contactlab::scene::parse_scene;
use std::path::Path;

fn world(text: &str) -> World {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    build_world(&scene, false).expect("world builds")
}

/// Runs and collects (t, state) every `output_dt`.
fn trajectory(world: &World, integrator: &Integrator, duration: f64, output_dt: f64) -> Vec<(f64, Vec<f64>)> {
    let mut out = Vec::new();
    run(world, integrator, &Schedule::new(duration, output_dt), |s| {
        let (t, y) = (s.t, s.y);
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
    let (zmin, zmax) =
        late.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, y)| (a.min(y[2]), b.max(y[2])));
    let xy_drift = late.iter().map(|(_, y)| y[0].hypot(y[1])).fold(0.0, f64::max);
    eprintln!("z in [{zmin}, {zmax}], xy drift {xy_drift}");
    assert!(zmax - zmin < 1e-6, "jitter {} m", zmax - zmin);
    assert!(xy_drift < 1e-9);
    // Contact force at the final state equals the weight.
    let (t, y) = traj.last().unwrap();
    // The pair (0, 1) reports the wrench on body 0; body 1 gets the opposite.
    let f = -w.contacts(*t, y).unwrap()[0].wrench.force;
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
        let c = poses[1].0.translation.vector;
        let wrench = -w.contacts(*tm, ym).unwrap()[0].wrench;
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

fn ball_drop_scene() -> String {
    format!(
        r#"{GROUND}
[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.3]
shape = {{ type = "sphere", radius = 0.1 }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.02 }}
"#
    )
    .replace("friction = 0.5", "friction = 0.0")
}

#[test]
fn bouncing_ball_conserves_energy_with_adaptive_integrators() {
    use contactlab::dynamics::ode::Tolerances;
    let w = world(&ball_drop_scene());
    for (name, integrator) in [
        ("dopri5", Integrator::Dopri5 { tolerances: Tolerances::new(1e-10, 1e-12), initial_step: None }),
        ("radau5", Integrator::Radau5 { tolerances: Tolerances::new(1e-9, 1e-11), initial_step: None }),
    ] {
        let mut e0 = None;
        let (mut drift, mut max_elastic, mut top_late) = (0.0f64, 0.0f64, 0.0f64);
        let stats = run(&w, &integrator, &Schedule::new(2.0, 0.002), |s| {
            let (t, y) = (s.t, s.y);
            let e = w.energies(t, y).unwrap();
            let e0 = *e0.get_or_insert(e.total);
            drift = drift.max((e.total - e0).abs() / e0);
            max_elastic = max_elastic.max(e.elastic);
            if t > 1.0 {
                top_late = top_late.max(y[2]);
            }
            Ok(Flow::Continue)
        })
        .unwrap();
        eprintln!(
            "{name}: {stats:?}, energy drift {drift:.2e}, max elastic {max_elastic:.3} J, top {top_late:.6} m"
        );
        assert!(max_elastic > 1.0, "{name}: the ball must press into the ground");
        assert!(drift <= 1e-4, "{name}: energy drift {drift:.2e}");
        assert!((top_late - 0.3).abs() < 1e-3, "{name}: back to {top_late} m, dropped from 0.3 m");
    }
}

#[test]
fn torque_free_tumbling_conserves_energy_and_angular_momentum() {
    use contactlab::dynamics::ode::Tolerances;
    // Spinning near the intermediate axis of a 0.1 × 0.2 × 0.3 box: it tumbles (flips)
    // repeatedly, which stresses the rotational dynamics.
    let text = r#"
[sim]
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "brick"
mass = 2.0
angular_velocity = [0.3, 6.0, 0.3]
shape = { type = "box", size = [0.1, 0.2, 0.3] }
"#;
    let w = world(text);
    let momentum = |t: f64, y: &[f64]| {
        let inertia = w.world_inertia(0, y);
        let _ = t;
        inertia * Vector3::new(y[10], y[11], y[12])
    };
    let integrator = Integrator::Dopri5 { tolerances: Tolerances::new(1e-11, 1e-13), initial_step: None };
    let (mut e0, mut l0) = (None, None);
    let (mut de, mut dl, mut flips) = (0.0f64, 0.0f64, 0);
    let mut last_sign = 1.0;
    run(&w, &integrator, &Schedule::new(5.0, 0.01), |s| {
        let (t, y) = (s.t, s.y);
        let e = w.energies(t, y).unwrap().kinetic;
        let l = momentum(t, y);
        let (e0, l0) = (*e0.get_or_insert(e), *l0.get_or_insert(l));
        de = de.max((e - e0).abs() / e0);
        dl = dl.max((l - l0).norm() / l0.norm());
        // The body's y axis flips back and forth in the world.
        let q = UnitQuaternion::new_normalize(Quaternion::new(y[3], y[4], y[5], y[6]));
        let s = (q * Vector3::y()).y.signum();
        if s != last_sign {
            flips += 1;
            last_sign = s;
        }
        Ok(Flow::Continue)
    })
    .unwrap();
    eprintln!("energy drift {de:.2e}, momentum drift {dl:.2e}, flips {flips}");
    assert!(flips >= 2, "the box should tumble");
    assert!(de < 1e-8 && dl < 1e-8, "energy drift {de:.2e}, momentum drift {dl:.2e}");
}

#[test]
fn the_same_scene_gives_bit_identical_trajectories() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/boxes_16.toml")).unwrap();
    let w = world(&text);
    let go = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| trajectory(&w, &Integrator::ImplicitEuler { dt: 1e-3 }, 0.4, 0.01))
    };
    let (a, b, c) = (go(2), go(2), go(1));
    assert!(a.last().unwrap().1[2] < 0.2, "boxes fell");
    for ((x, y), z) in a.iter().zip(&b).zip(&c) {
        assert_eq!(
            x.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            y.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(
            x.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            z.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
}

/// The pencil's tilt (rad) from horizontal, and where its axis passes the pads' centre plane.
fn pencil_tilt(y: &[f64], offset: usize) -> f64 {
    let q = UnitQuaternion::new_normalize(Quaternion::new(
        y[offset + 3],
        y[offset + 4],
        y[offset + 5],
        y[offset + 6],
    ));
    let axis = q * Vector3::z();
    axis.z.atan2(axis.x.hypot(axis.y)).abs()
}

#[test]
fn pencil_pinch_firm_grip_holds_and_loose_grip_pivots() {
    let run_example = |file: &str| {
        let text =
            std::fs::read_to_string(format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let w = world(&text);
        trajectory(&w, &Integrator::SemiImplicitEuler { dt: 1e-3 }, 1.0, 0.05)
    };
    // The pencil is the only free body: state offset 0.
    let firm = run_example("pencil_pinch.toml");
    let loose = run_example("pencil_pinch_loose.toml");
    let firm_turn = firm.iter().map(|(_, y)| pencil_tilt(y, 0)).fold(0.0, f64::max).to_degrees();
    let (_, y) = loose.last().unwrap();
    let loose_turn = pencil_tilt(y, 0).to_degrees();
    eprintln!("firm grip: at most {firm_turn:.3}°; loose grip: {loose_turn:.1}° after 1 s");
    assert!(firm_turn < 1.0, "firm grip: the pencil turned {firm_turn}°");
    assert!(loose_turn > 30.0, "loose grip: the pencil turned only {loose_turn}°");
    // Still held: the point of the pencil's axis at the pinch stays between the pads.
    for (t, y) in &loose {
        let q = UnitQuaternion::new_normalize(Quaternion::new(y[3], y[4], y[5], y[6]));
        let pinch = Vector3::new(y[0], y[1], y[2]) + q * Vector3::new(0.0, 0.0, 0.05);
        let from_pads = pinch - Vector3::new(0.05, 0.0, 0.0);
        assert!(
            from_pads.x.abs() < 0.015 && from_pads.z.abs() < 0.015,
            "t = {t}: the pencil slipped out: {from_pads:?}"
        );
    }
}

#[test]
fn kinematic_bodies_follow_their_motion_and_push_free_bodies() {
    use contactlab::dynamics::body::KinematicMotion;
    use contactlab::math::{Isometry3, Twist, Vector3};
    // Keyframes: linear position, slerped orientation, held outside, velocity of the segment.
    let a = Isometry3::translation(0.0, 0.0, 0.0);
    let b = Isometry3::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0));
    let k = KinematicMotion::Keyframes(vec![(0.0, a), (2.0, b)]);
    let (p, tw) = k.at(0.5);
    assert!((p.translation.vector - Vector3::new(0.25, 0.0, 0.0)).norm() < 1e-15);
    assert!((p.rotation.angle() - 0.25).abs() < 1e-12);
    assert!((tw.linear - Vector3::new(0.5, 0.0, 0.0)).norm() < 1e-15 && (tw.angular.z - 0.5).abs() < 1e-12);
    assert_eq!(k.at(3.0).0, b);
    assert_eq!(k.at(3.0).1, Twist::default());
    // A pad moving down at 1 cm/s squeezes a resting ball against the ground: the ball stays
    // put and the pad's push grows as it descends.
    let text = format!(
        r#"{GROUND}
[[body]]
name = "ball"
mass = 0.1
position = [0.0, 0.0, 0.05]
shape = {{ type = "sphere", radius = 0.05 }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.01, dissipation = 5.0, friction = 0.5 }}

[[body]]
name = "pad"
position = [0.0, 0.0, 0.105]
kinematic = {{ linear_velocity = [0.0, 0.0, -0.01] }}
shape = {{ type = "box", size = [0.1, 0.1, 0.01] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.01, friction = 0.5 }}
"#
    );
    let w = world(&text);
    let mut pushes = Vec::new();
    run(&w, &Integrator::SemiImplicitEuler { dt: 2e-4 }, &Schedule::new(0.4, 0.1), |s| {
        let (t, y) = (s.t, s.y);
        let poses = w.poses(t, y);
        assert!(
            (poses[2].0.translation.vector.z - (0.105 - 0.01 * t)).abs() < 1e-12,
            "the pad follows its motion"
        );
        let push: f64 = w.contacts(t, y).unwrap().iter().filter(|c| c.b == 2).map(|c| c.wrench.force.z).sum();
        pushes.push(push);
        Ok(Flow::Continue)
    })
    .unwrap();
    eprintln!("pad push on the ball over time: {pushes:?}");
    assert!(pushes.windows(2).skip(1).all(|p| p[1] < p[0]), "the push grows (force on the ball is downward)");
    assert!(*pushes.last().unwrap() < -0.5);
}

#[test]
fn applied_force_and_torque_accelerate_as_newton_and_euler_say() {
    // No gravity: a 2 kg sphere (R = 0.1, I = 2/5 m R² = 0.008) pushed by 1 N along x and twisted
    // by 0.004 N·m about z: a = 0.5 m/s², α = 0.5 rad/s².
    let text = r#"
[sim]
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "ball"
density = 477.4648292756860
position = [0.0, 0.0, 1.0]
force = [1.0, 0.0, 0.0]
torque = [0.0, 0.0, 0.004]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "rigid", resolution = 0.05 }
"#;
    let w = world(text);
    assert!((w.bodies[0].mass - 2.0).abs() < 1e-12, "mass from density: {}", w.bodies[0].mass);
    let traj = trajectory(
        &w,
        &Integrator::Dopri5 {
            tolerances: contactlab::dynamics::ode::Tolerances::new(1e-10, 1e-12),
            initial_step: None,
        },
        1.0,
        0.5,
    );
    let (t, y) = traj.last().unwrap();
    assert!((y[0] - 0.25 * t * t).abs() < 1e-9, "x = {}", y[0]);
    assert!((y[12] - 0.5 * t).abs() < 1e-9, "ω_z = {}", y[12]);
}
