//! Mechanisms in joint coordinates: closed forms, conservation, servos, limits, couplers,
//! invariance and determinism, through scene files as a user writes them.

use contactlab::dynamics::simulate::{Flow, Integrator, Schedule, run};
use contactlab::dynamics::world::World;
use contactlab::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use contactlab::scene::{build_world, parse_scene};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
use std::path::Path;

fn world(text: &str) -> World {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    build_world(&scene, false).expect("world builds")
}

/// A sample of a run: time, state, each body's pose and twist, total energy and work.
struct Sample {
    t: f64,
    y: Vec<f64>,
    poses: Vec<(Isometry3, contactlab::math::Twist)>,
    total: f64,
    work: f64,
}

fn samples(world: &World, integrator: &Integrator, duration: f64, output_dt: f64) -> Vec<Sample> {
    let mut out = Vec::new();
    run(world, integrator, &Schedule::new(duration, output_dt), |s| {
        out.push(Sample {
            t: s.t,
            y: s.y.to_vec(),
            poses: s.poses.to_vec(),
            total: s.energies.total,
            work: s.work,
        });
        Ok(Flow::Continue)
    })
    .expect("simulation runs");
    out
}

fn radau(rtol: f64) -> Integrator {
    let tolerances = contactlab::dynamics::ode::Tolerances { rtol, atol: rtol * 1e-2 };
    Integrator::Radau5 { tolerances, initial_step: None }
}

fn dopri(rtol: f64) -> Integrator {
    let tolerances = contactlab::dynamics::ode::Tolerances { rtol, atol: rtol * 1e-2 };
    Integrator::Dopri5 { tolerances, initial_step: None }
}

fn q(world: &World, y: &[f64]) -> Vec<f64> {
    world.mechanism.as_ref().unwrap().q(y).to_vec()
}

fn v(world: &World, y: &[f64]) -> Vec<f64> {
    world.mechanism.as_ref().unwrap().v(y).to_vec()
}

/// The pendulum of the issue: a 1 kg sphere of radius 0.05 m, 0.5 m from a horizontal axis.
fn pendulum(angle: f64, extra: &str) -> String {
    format!(
        r#"
[[body]]
name = "bob"
mass = 1.0
center_of_mass = [0.0, 0.0, -0.5]
inertia = [0.001, 0.001, 0.001]
shape = {{ type = "sphere", radius = 0.05, position = [0.0, 0.0, -0.5] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }}

[[joint]]
name = "pivot"
type = "revolute"
parent = "world"
child = "bob"
origin = {{ position = [0.0, 0.0, 1.0] }}
axis = [0.0, 1.0, 0.0]
position = {angle}
{extra}
"#
    )
}

const PIVOT_INERTIA: f64 = 0.001 + 0.25;
const MGL: f64 = 9.81 * 0.5;

/// The complete elliptic integral of the first kind K(k), by the arithmetic–geometric mean.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    PI / (2.0 * a)
}

/// Times where the joint angle crosses zero going down, by cubic Hermite interpolation
/// between samples (angle and rate at both ends).
fn downward_crossings(world: &World, s: &[Sample]) -> Vec<f64> {
    let mut out = Vec::new();
    for w in s.windows(2) {
        let (q0, q1) = (q(world, &w[0].y)[0], q(world, &w[1].y)[0]);
        if q0 > 0.0 && q1 <= 0.0 {
            let (v0, v1, h) = (v(world, &w[0].y)[0], v(world, &w[1].y)[0], w[1].t - w[0].t);
            let hermite = |s: f64| {
                let (s2, s3) = (s * s, s * s * s);
                (2.0 * s3 - 3.0 * s2 + 1.0) * q0
                    + (s3 - 2.0 * s2 + s) * h * v0
                    + (-2.0 * s3 + 3.0 * s2) * q1
                    + (s3 - s2) * h * v1
            };
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if hermite(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            out.push(w[0].t + h * 0.5 * (lo + hi));
        }
    }
    out
}

fn closed_form_period(amplitude: f64) -> f64 {
    4.0 * (PIVOT_INERTIA / MGL).sqrt() * elliptic_k((amplitude / 2.0).sin())
}

#[test]
fn a_pendulum_released_from_90_degrees_has_the_elliptic_period() {
    let w = world(&pendulum(FRAC_PI_2, ""));
    let s = samples(&w, &radau(1e-10), 4.5, 2e-3);
    let crossings = downward_crossings(&w, &s);
    let period = crossings[1] - crossings[0];
    let expected = closed_form_period(FRAC_PI_2);
    eprintln!("radau5 period {period}, closed form {expected}");
    assert!(((period - expected) / expected).abs() < 1e-6, "{period} vs {expected}");
}

#[test]
fn at_the_default_step_the_pendulum_keeps_its_period_within_1_percent_and_never_gains_energy() {
    let text = pendulum(FRAC_PI_2, "");
    let scene = parse_scene(&text, Path::new(".")).unwrap();
    let (integrator, _) = contactlab::scene::integrator_choice(&scene).expect("default integrator");
    assert!(matches!(integrator, Integrator::ImplicitEuler { .. }), "{integrator:?}");
    let w = world(&text);
    let s = samples(&w, &integrator, 4.5, 1e-3);
    let crossings = downward_crossings(&w, &s);
    let period = crossings[1] - crossings[0];
    let expected = closed_form_period(FRAC_PI_2);
    eprintln!("default step period {period}, closed form {expected}");
    assert!(((period - expected) / expected).abs() < 0.01);
    for pair in s.windows(2) {
        assert!(pair[1].total <= pair[0].total + 1e-12, "energy rose at t = {}", pair[1].t);
    }
}

#[test]
fn joint_damping_decays_the_amplitude_at_the_closed_form_rate() {
    // Small swings: θ(t) ∝ e^(−d·t/(2·I_p)).
    let d = 0.05;
    let w = world(&pendulum(0.02, &format!("damping = {d}")));
    let s = samples(&w, &radau(1e-10), 6.0, 1e-3);
    let peaks: Vec<(f64, f64)> = s
        .windows(3)
        .filter(|w3| {
            let a = |k: usize| q(&w, &w3[k].y)[0];
            a(1) > a(0) && a(1) >= a(2)
        })
        .map(|w3| (w3[1].t, q(&w, &w3[1].y)[0]))
        .collect();
    let ((t0, a0), (t1, a1)) = (peaks[0], peaks[peaks.len() - 1]);
    let rate = (a0 / a1).ln() / (t1 - t0);
    let expected = d / (2.0 * PIVOT_INERTIA);
    eprintln!("decay rate {rate}, closed form {expected} over {} peaks", peaks.len());
    assert!(((rate - expected) / expected).abs() < 0.01);
}

/// A double pendulum of two rods (their frames at their upper ends).
fn double_pendulum(extra: &str) -> String {
    format!(
        r#"
[[body]]
name = "upper"
mass = 1.0
center_of_mass = [0.0, 0.0, -0.25]
inertia = [0.02, 0.02, 0.001]
shape = {{ type = "capsule", radius = 0.02, length = 0.5, position = [0.0, 0.0, -0.25] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }}

[[body]]
name = "lower"
mass = 0.6
center_of_mass = [0.0, 0.0, -0.2]
inertia = [0.008, 0.008, 0.0005]
shape = {{ type = "capsule", radius = 0.02, length = 0.4, position = [0.0, 0.0, -0.2] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }}

[[joint]]
name = "shoulder"
type = "revolute"
parent = "world"
child = "upper"
origin = {{ position = [0.0, 0.0, 2.0] }}
axis = [0.0, 1.0, 0.0]
position = 2.0
{extra}

[[joint]]
name = "elbow"
type = "revolute"
parent = "upper"
child = "lower"
origin = {{ position = [0.0, 0.0, -0.5] }}
axis = [0.0, 1.0, 0.0]
position = -1.0
velocity = 3.0
"#
    )
}

#[test]
fn a_double_pendulum_keeps_its_energy_under_radau5() {
    let w = world(&double_pendulum(""));
    let s = samples(&w, &radau(1e-10), 10.0, 0.01);
    let e0 = s[0].total;
    let scale = 9.81 * (1.0 * 0.25 + 0.6 * 0.7);
    let drift = s.iter().map(|x| (x.total - e0).abs()).fold(0.0, f64::max) / scale;
    eprintln!("double pendulum: largest energy drift {drift:e} (relative to m·g·l)");
    assert!(drift <= 1e-8);
    // It did swing chaotically (a test that cannot fail is a defect).
    assert!(q(&w, &s.last().unwrap().y)[1] != -1.0);
}

/// Linear and angular momentum of the link bodies about the world origin.
fn momentum(world: &World, sample: &Sample) -> (Vector3, Vector3) {
    let (mut p, mut l) = (Vector3::zeros(), Vector3::zeros());
    for (b, (pose, twist)) in world.bodies.iter().zip(&sample.poses) {
        let r = pose.rotation * b.com.coords;
        let com = pose.translation.vector + r;
        let v = twist.linear + twist.angular.cross(&r);
        let inertia: Matrix3 = pose.rotation.to_rotation_matrix().matrix()
            * b.inertia
            * pose.rotation.to_rotation_matrix().matrix().transpose();
        p += v * b.mass;
        l += com.cross(&(v * b.mass)) + inertia * twist.angular;
    }
    (p, l)
}

#[test]
fn a_spinning_chain_on_a_free_root_conserves_momentum() {
    let text = r#"
[sim]
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "base"
mass = 2.0
position = [0.1, -0.2, 1.0]
linear_velocity = [0.3, -0.1, 0.2]
angular_velocity = [0.5, 1.5, -0.7]
shape = { type = "box", size = [0.2, 0.1, 0.1] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.02 }

[[body]]
name = "a"
mass = 0.7
center_of_mass = [0.15, 0.0, 0.0]
inertia = [0.001, 0.006, 0.006]

shape = { type = "capsule", radius = 0.02, length = 0.3, position = [0.15, 0.0, 0.0], orientation = [0.7071067811865476, 0.0, 0.7071067811865476, 0.0] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.02 }

[[body]]
name = "b"
mass = 0.4
center_of_mass = [0.1, 0.0, 0.0]
inertia = [0.0005, 0.002, 0.002]
shape = { type = "capsule", radius = 0.02, length = 0.2, position = [0.1, 0.0, 0.0], orientation = [0.7071067811865476, 0.0, 0.7071067811865476, 0.0] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.02 }

[[joint]]
name = "j1"
type = "revolute"
parent = "base"
child = "a"
origin = { position = [0.1, 0.0, 0.0] }
axis = [0.0, 0.0, 1.0]
position = 0.4
velocity = 2.0

[[joint]]
name = "j2"
type = "ball"
parent = "a"
child = "b"
origin = { position = [0.3, 0.0, 0.0] }
velocity = [1.0, -2.0, 0.5]
"#;
    let w = world(text);
    let s = samples(&w, &radau(1e-10), 3.0, 0.01);
    let (p0, l0) = momentum(&w, &s[0]);
    let mut worst: (f64, f64) = (0.0, 0.0);
    for x in &s {
        let (p, l) = momentum(&w, x);
        worst = (worst.0.max((p - p0).norm()), worst.1.max((l - l0).norm()));
    }
    eprintln!(
        "momentum drift: linear {:e}, angular {:e} (|p| {}, |L| {})",
        worst.0,
        worst.1,
        p0.norm(),
        l0.norm()
    );
    assert!(worst.0 <= 1e-9 * p0.norm().max(1.0) && worst.1 <= 1e-9 * l0.norm().max(1.0));
    assert!(l0.norm() > 0.1);
}

/// A position servo on the pendulum's pivot aiming at 45°.
fn servo_at_45_degrees(kp: f64, kd: f64) -> String {
    format!(
        "\n[[actuator]]\nname = \"servo\"\njoint = \"pivot\"\nkind = \"position\"\nkp = {kp}\nkd = {kd}\ntarget = {FRAC_PI_4}\n"
    )
}

/// A link held at 45° by a position servo settles at the closed-form steady-state error.
#[test]
fn a_position_servo_holds_a_link_against_gravity_with_the_closed_form_error() {
    let kp = 1000.0;
    let kd = 2.0 * (kp * PIVOT_INERTIA).sqrt();
    let extra = servo_at_45_degrees(kp, kd);
    let w = world(&pendulum(0.0, &extra));
    let s = samples(&w, &Integrator::ImplicitEuler { dt: 1e-3 }, 3.0, 0.01);
    let error = FRAC_PI_4 - q(&w, &s.last().unwrap().y)[0];
    let first_order = MGL * FRAC_PI_4.cos() / kp;
    // The exact balance kp·e = m·g·l·sin(45° − e).
    let mut exact = first_order;
    for _ in 0..50 {
        exact = MGL * (FRAC_PI_4 - exact).sin() / kp;
    }
    eprintln!("steady error {error}, exact {exact}, first order {first_order}");
    assert!((error - exact).abs() < 1e-6 * exact);
    assert!((error - first_order).abs() < 0.01 * first_order);
}

#[test]
fn a_servo_ten_times_faster_than_the_step_settles_under_the_default_integrator() {
    let dt = 1e-3;
    let kp = PIVOT_INERTIA * (10.0 / dt) * (10.0f64 / dt);
    let kd = 0.1 * (kp * PIVOT_INERTIA).sqrt();
    let extra = servo_at_45_degrees(kp, kd);
    let text = format!("[sim]\ndt = {dt}\n{}", pendulum(0.0, &extra));
    let w = world(&text);
    let s = samples(&w, &Integrator::ImplicitEuler { dt }, 1.0, 0.01);
    let last = s.last().unwrap();
    let error = FRAC_PI_4 - q(&w, &last.y)[0];
    eprintln!("stiff servo: error {error:e}, speed {:e}", v(&w, &last.y)[0]);
    assert!(error.abs() < 2.0 * MGL / kp && v(&w, &last.y)[0].abs() < 1e-6);
    // Energy never grows beyond the servo's work.
    for x in &s {
        assert!(x.total - x.work <= s[0].total + 1e-9, "gained energy at t = {}", x.t);
    }
}

#[test]
fn a_pendulum_falling_onto_a_limit_rests_on_it_under_every_integrator() {
    // The lower limit, then the mirror image: released from −90° onto an upper limit at −0.3.
    for (angle, limits, rest, sign) in
        [(FRAC_PI_2, "[0.3, 2.0]", 0.3, 1.0), (-FRAC_PI_2, "[-2.0, -0.3]", -0.3, -1.0)]
    {
        let text = pendulum(angle, &format!("limits = {limits}"));
        let w = world(&text);
        for integrator in [
            Integrator::ImplicitEuler { dt: 1e-3 },
            Integrator::SemiImplicitEuler { dt: 1e-3 },
            Integrator::ImplicitEuler { dt: 2e-2 },
            dopri(1e-6),
            radau(1e-6),
        ] {
            let s = samples(&w, &integrator, 2.0, 0.005);
            // How far past the limit it went (positive: past), and where it ends.
            let past = s.iter().map(|x| sign * (rest - q(&w, &x.y)[0])).fold(f64::NEG_INFINITY, f64::max);
            let last = q(&w, &s.last().unwrap().y)[0];
            eprintln!("{integrator:?} onto {rest}: past by {past}, last {last}");
            assert!(past <= 1e-3, "{integrator:?} went past the limit {rest} by {past}");
            assert!((last - rest).abs() < 1e-3, "{integrator:?} does not rest on the limit: {last}");
        }
    }
}

#[test]
fn coupled_joints_move_as_one() {
    let finger = |name: &str, x: f64| {
        format!(
            r#"
[[body]]
name = "{name}"
mass = 0.1
center_of_mass = [0.0, 0.0, -0.05]
inertia = [1e-4, 1e-4, 1e-5]
shape = {{ type = "box", size = [0.02, 0.02, 0.1], position = [0.0, 0.0, -0.05] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.01 }}

[[joint]]
name = "{name}_hinge"
type = "revolute"
parent = "world"
child = "{name}"
origin = {{ position = [{x}, 0.0, 1.0] }}
axis = [0.0, 1.0, 0.0]
"#
        )
    };
    let text = format!(
        "{}{}\n[[coupler]]\njoint = \"right_hinge\"\nfollows = \"left_hinge\"\nratio = -0.5\noffset = 0.1\n\n[[actuator]]\nname = \"drive\"\njoint = \"left_hinge\"\nkind = \"position\"\nkp = 5.0\nkd = 0.2\ntargets = [[0.0, 0.0], [0.5, 0.8], [1.0, -0.4]]\n",
        finger("left", -0.1),
        finger("right", 0.1)
    );
    let w = world(&text);
    for integrator in [Integrator::ImplicitEuler { dt: 1e-3 }, radau(1e-8)] {
        let s = samples(&w, &integrator, 1.5, 0.01);
        let worst = s
            .iter()
            .map(|x| {
                let q = q(&w, &x.y);
                (q[1] - (-0.5 * q[0] + 0.1)).abs()
            })
            .fold(0.0, f64::max);
        let swing = s.iter().map(|x| q(&w, &x.y)[0].abs()).fold(0.0, f64::max);
        eprintln!("{integrator:?}: coupling error {worst:e}, swing {swing}");
        assert!(worst <= 1e-9 && swing > 0.1);
    }
}

#[test]
fn moving_and_turning_the_whole_scene_leaves_the_joint_trajectories_unchanged() {
    let base = double_pendulum("damping = 0.01");
    let turn = UnitQuaternion::from_euler_angles(0.3, -0.5, 1.2);
    let shift = Translation3::new(0.4, -1.0, 2.5);
    let place = Isometry3::from_parts(shift, turn);
    let origin = place * Point3::new(0.0, 0.0, 2.0);
    let gravity = turn * Vector3::new(0.0, 0.0, -9.81);
    let r = turn.quaternion();
    let text = base.replacen(
        "origin = { position = [0.0, 0.0, 2.0] }\naxis = [0.0, 1.0, 0.0]",
        &format!(
            "origin = {{ position = [{}, {}, {}], orientation = [{}, {}, {}, {}] }}\naxis = [0.0, 1.0, 0.0]",
            origin.x, origin.y, origin.z, r.w, r.i, r.j, r.k
        ),
        1,
    );
    assert_ne!(text, base);
    let text = format!("[sim]\ngravity = [{}, {}, {}]\n{text}", gravity.x, gravity.y, gravity.z);
    let (w0, w1) = (world(&base), world(&text));
    let integrator = Integrator::ImplicitEuler { dt: 1e-3 };
    let (s0, s1) = (samples(&w0, &integrator, 1.0, 0.05), samples(&w1, &integrator, 1.0, 0.05));
    for (a, b) in s0.iter().zip(&s1) {
        for (x, y) in q(&w0, &a.y).iter().zip(q(&w1, &b.y)) {
            assert!((x - y).abs() < 1e-9, "t = {}: {x} vs {y}", a.t);
        }
    }
}

#[test]
fn runs_with_joints_are_bit_identical_with_and_without_threads() {
    let text = double_pendulum("damping = 0.01");
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let w = world(&text);
            samples(&w, &Integrator::ImplicitEuler { dt: 1e-3 }, 0.5, 0.05)
                .iter()
                .flat_map(|s| s.y.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
                .collect::<Vec<u64>>()
        })
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn an_offset_shape_touches_where_it_is() {
    // The same sphere resting on the ground: at its body frame, and 0.5 m below it.
    let scene = |position: f64, offset: &str| {
        format!(
            r#"
[[body]]
name = "ground"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ compliance = "rigid", friction = 0.5 }}

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, {position}]
shape = {{ type = "sphere", radius = 0.1{offset} }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 5.0 }}
"#
        )
    };
    let integrator = Integrator::ImplicitEuler { dt: 1e-3 };
    let (plain, offset) = (world(&scene(0.11, "")), world(&scene(0.61, ", position = [0.0, 0.0, -0.5]")));
    let (a, b) = (samples(&plain, &integrator, 0.5, 0.05), samples(&offset, &integrator, 0.5, 0.05));
    let centre = |w: &World, s: &Sample| {
        let (pose, _) = &s.poses[1];
        pose * w.bodies[1].com
    };
    for (x, y) in a.iter().zip(&b) {
        assert!((centre(&plain, x) - centre(&offset, y)).norm() < 1e-9, "t = {}", x.t);
    }
    // It did land (the contact is felt at the offset shape).
    let z = centre(&offset, b.last().unwrap()).z;
    assert!(z < 0.1 && z > 0.09, "{z}");
}

/// The box's height at each sample of an example scene run with its own settings.
fn pinch_slip(example: &str) -> (f64, f64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(example);
    let scene = contactlab::scene::load_scene(&path).unwrap();
    let (integrator, _) = contactlab::scene::integrator_choice(&scene).unwrap();
    let w = build_world(&scene, false).unwrap();
    let s = samples(&w, &integrator, 1.0, 0.01);
    let z = |x: &Sample| x.poses[0].0.translation.z;
    let held = s.iter().find(|x| x.t >= 0.2).unwrap();
    (z(held) - z(s.last().unwrap()), 0.1 - z(s.last().unwrap()))
}

#[test]
fn pd_driven_fingers_pinch_a_box_against_gravity_and_hold_it() {
    for (example, most) in [
        ("gripper_pinch.toml", 2e-5),
        ("gripper_pinch_hertz.toml", 5e-5),
        // Velocity-level Coulomb friction sticks: no creep.
        ("gripper_pinch_volume6d.toml", 1e-9),
        ("gripper_pinch_peg.toml", 1e-9),
    ] {
        let (slip, drop) = pinch_slip(example);
        eprintln!("{example}: slip over 0.2–1 s {slip:e} m, drop from the start {drop:e} m");
        // Held: the creep of regularized friction only (its stiction speed), not a fall
        // (free fall would drop it 4.9 m in 1 s).
        assert!(slip >= 0.0 && slip < most, "{example}: {slip}");
        assert!(drop < 5e-3, "{example}: {drop}");
    }
}

#[test]
fn a_pendulum_under_the_6d_models_time_stepping_keeps_its_period() {
    // (Offset shapes are not taken by the 6D model yet: the sphere at the pivot, the mass below.)
    let text = format!(
        "[model]\nkind = \"volume6d\"\n{}",
        pendulum(FRAC_PI_2, "")
            .replace(
                "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e7, resolution = 0.01 }",
                "contact = { friction = 0.5 }",
            )
            .replace(", position = [0.0, 0.0, -0.5] }", " }")
    );
    let w = world(&text);
    let s = samples(&w, &Integrator::TimeStepping { dt: 1e-3 }, 4.5, 1e-3);
    let crossings = downward_crossings(&w, &s);
    let period = crossings[1] - crossings[0];
    let expected = closed_form_period(FRAC_PI_2);
    eprintln!("time stepping period {period}, closed form {expected}");
    assert!(((period - expected) / expected).abs() < 0.01);
}

#[test]
fn the_energy_balance_closes_with_actuator_work_and_joint_damping() {
    // A damped link driven by a servo along a schedule: under radau5 the energy (joint damping
    // counted as dissipated) minus the actuators' work stays at its initial value.
    let extra = "damping = 0.3\n\n[[actuator]]\nname = \"servo\"\njoint = \"pivot\"\nkind = \"position\"\nkp = 40.0\nkd = 1.0\ntargets = [[0.0, 0.0], [0.5, 1.0], [1.0, -0.5]]\n";
    let w = world(&pendulum(0.2, extra));
    let m = w.mechanism.as_ref().unwrap();
    let s = samples(&w, &radau(1e-10), 1.5, 0.01);
    let e0 = s[0].total;
    let last = s.last().unwrap();
    let (damping, work) = (m.joint_damping(&last.y), m.actuator_work(&last.y));
    let worst = s.iter().map(|x| (x.total - m.actuator_work(&x.y) - e0).abs()).fold(0.0, f64::max);
    eprintln!("joint damping {damping} J, actuator work {work} J, balance off by {worst:e} J");
    assert!(damping > 0.01 && work.abs() > 0.01);
    assert!(worst < 1e-7 * MGL);
    // The world's work is the actuators' (no other loads).
    assert!((last.work - work).abs() < 1e-12);
}

#[test]
fn a_pendulum_falling_onto_a_limit_rests_on_it_under_the_impulse_models() {
    for kind in ["volume6d", "peg"] {
        // (Offset shapes are not taken by the impulse models yet: the shape at the pivot.)
        let text = format!(
            "[model]\nkind = \"{kind}\"\n{}",
            pendulum(FRAC_PI_2, "limits = [0.3, 2.0]")
                .replace(
                    "contact = { compliance = \"compliant\", hydroelastic_modulus = 1e7, resolution = 0.01 }",
                    "contact = { friction = 0.5 }",
                )
                .replace(
                    "type = \"sphere\", radius = 0.05, position = [0.0, 0.0, -0.5] }",
                    "type = \"box\", size = [0.05, 0.05, 0.05] }"
                )
        );
        let w = world(&text);
        let s = samples(&w, &Integrator::TimeStepping { dt: 1e-3 }, 2.0, 0.005);
        let lowest = s.iter().map(|x| q(&w, &x.y)[0]).fold(f64::INFINITY, f64::min);
        let last = s.last().unwrap();
        eprintln!(
            "{kind}: lowest {lowest}, last {}, energy {} → {}",
            q(&w, &last.y)[0],
            s[0].total,
            last.total
        );
        assert!(lowest >= 0.3 - 1e-9, "{kind} went past the limit to {lowest}");
        assert!((q(&w, &last.y)[0] - 0.3).abs() < 1e-9 && v(&w, &last.y)[0].abs() < 1e-9);
        // Symplectic Euler's energy oscillates while it swings (≈ 1e-3 of it at 1 ms); the
        // limit's impulse only removes energy.
        for x in &s {
            assert!(x.total <= s[0].total * (1.0 + 1e-3), "{kind}: energy rose at t = {}", x.t);
        }
    }
}
