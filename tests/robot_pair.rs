//! One robot written twice (issue 33): tests/data/arm3.urdf and tests/data/arm3.xml describe the
//! same 3-link arm (revolute, revolute, prismatic) with offset and rotated joint frames, joint
//! axes off the frame axes, and offset, rotated inertial frames with full tensors; the MJCF
//! spells the frames as quat, euler (moving axes) and axisangle, anchors one hinge off its body's
//! origin, and gives the inertias as fullinertia or diaginertia with an orientation
//! (tests/data/make_arm3.py writes both). Through `[[robot]]` they must give the same link poses,
//! M(q), bias and gravity forces, and the same motion under radau5.

use contactlab::dynamics::ode::Tolerances;
mod common;

use common::joint_samples;
use contactlab::dynamics::simulate::Integrator;
use contactlab::dynamics::world::World;
use contactlab::scene::{build_world, parse_scene};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A world of the arm in `file` (tests/data/…), released from the same nonzero coordinates.
fn arm(file: &str) -> World {
    let path = root().join("tests/data").join(file);
    let text = format!(
        "[sim]\nduration = 1.0\n\n[[robot]]\nname = \"arm\"\nfile = \"{}\"\n\
         positions = {{ joint1 = 0.7, \"arm/joint2\" = -1.1, joint3 = 0.15 }}\n",
        path.display()
    );
    let scene = parse_scene(&text, Path::new(&root())).unwrap_or_else(|e| panic!("{file}: {e}"));
    build_world(&scene, false).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// splitmix64: deterministic draws in [lo, hi).
struct Draws(u64);

impl Draws {
    fn next(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        lo + (hi - lo) * (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn state_at(world: &World, q: &[f64], v: &[f64]) -> Vec<f64> {
    let m = world.mechanism.as_ref().unwrap();
    let mut y = world.initial_state();
    let (yq, yv) = m.q_v_mut(&mut y);
    yq.copy_from_slice(q);
    yv.copy_from_slice(v);
    y
}

fn max_abs<'a>(a: impl IntoIterator<Item = &'a f64>) -> f64 {
    a.into_iter().fold(0.0, |m, x| m.max(x.abs()))
}

fn max_diff<'a>(a: impl IntoIterator<Item = &'a f64>, b: impl IntoIterator<Item = &'a f64>) -> f64 {
    a.into_iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// Each link's world pose at `y`, by body name: (position, rotation matrix).
fn link_poses(world: &World, y: &[f64]) -> Vec<(String, [f64; 3], [f64; 9])> {
    let poses = world.poses(0.0, y);
    ["arm/link1", "arm/link2", "arm/link3"]
        .iter()
        .map(|name| {
            let k = world.bodies.iter().position(|b| b.name == *name).unwrap_or_else(|| panic!("{name}"));
            let (pose, _) = &poses[k];
            let t = pose.translation.vector;
            let r = pose.rotation.to_rotation_matrix().into_inner();
            let mut rot = [0.0; 9];
            rot.copy_from_slice(r.as_slice());
            (name.to_string(), [t.x, t.y, t.z], rot)
        })
        .collect()
}

#[test]
fn the_arm_as_urdf_and_as_mjcf_has_the_same_poses_dynamics_and_motion() {
    let (u, x) = (arm("arm3.urdf"), arm("arm3.xml"));
    let (mu, mx) = (u.mechanism.as_ref().unwrap(), x.mechanism.as_ref().unwrap());
    let names = |m: &contactlab::dynamics::mechanism::Mechanism| {
        m.moving_joints().map(|(_, n)| n.to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(names(mu), ["arm/joint1", "arm/joint2", "arm/joint3"]);
    assert_eq!(names(mu), names(mx));
    assert_eq!(mu.articulation.nv(), 3);
    assert_eq!(mx.articulation.nv(), 3);

    // The initial coordinates from the scene's `positions`, the same in both.
    let (yu, yx) = (u.initial_state(), x.initial_state());
    assert_eq!(mu.q(&yu), [0.7, -1.1, 0.15]);
    assert_eq!(mu.q(&yu), mx.q(&yx));

    let mut draws = Draws(33);
    let (mut worst_pose, mut worst_m, mut worst_b, mut worst_g) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for k in 0..8 {
        let (q, v) = if k == 0 {
            ([0.0; 3], [0.0; 3])
        } else {
            let q = [draws.next(-3.1, 3.1), draws.next(-3.1, 3.1), draws.next(-0.5, 0.5)];
            let v = [draws.next(-3.0, 3.0), draws.next(-3.0, 3.0), draws.next(-1.0, 1.0)];
            (q, v)
        };
        let (su, sx) = (state_at(&u, &q, &v), state_at(&x, &q, &v));

        // Link world poses: the frame conventions (rpy, quat, euler, axisangle, joint anchors).
        for ((name, pu, ru), (_, px, rx)) in link_poses(&u, &su).iter().zip(link_poses(&x, &sx).iter()) {
            let d = max_diff(pu, px).max(max_diff(ru, rx));
            assert!(d < 1e-12, "{name} at q = {q:?}: poses differ by {d:e}: {pu:?} {ru:?} vs {px:?} {rx:?}");
            worst_pose = worst_pose.max(d);
        }

        let (a, b) = (mu.mass_matrix_at(&su), mx.mass_matrix_at(&sx));
        let d = max_diff(a.iter(), b.iter()) / max_abs(a.iter());
        assert!(d < 1e-12, "M at q = {q:?}: relative difference {d:e}\n{a}\n{b}");
        worst_m = worst_m.max(d);

        let (a, b) = (mu.bias_forces_at(&su, &u.gravity), mx.bias_forces_at(&sx, &x.gravity));
        let d = max_diff(a.iter(), b.iter()) / max_abs(a.iter());
        assert!(d < 1e-12, "bias at q = {q:?}, v = {v:?}: relative difference {d:e}\n{a}\n{b}");
        worst_b = worst_b.max(d);

        let (a, b) = (mu.gravity_forces_at(&su, &u.gravity), mx.gravity_forces_at(&sx, &x.gravity));
        let d = max_diff(a.iter(), b.iter()) / max_abs(a.iter());
        assert!(d < 1e-12, "gravity at q = {q:?}: relative difference {d:e}\n{a}\n{b}");
        worst_g = worst_g.max(d);
    }
    eprintln!(
        "largest differences: poses {worst_pose:e} (absolute), M {worst_m:e}, bias {worst_b:e}, gravity {worst_g:e} (relative)"
    );

    // The motion: 1 s from the scene's positions, released at rest.
    let integrator =
        Integrator::Radau5 { tolerances: Tolerances { rtol: 1e-10, atol: 1e-12 }, initial_step: None };
    let (tu, tx) = (joint_samples(&u, &integrator, 1.0, 0.01), joint_samples(&x, &integrator, 1.0, 0.01));
    assert_eq!(tu.len(), tx.len());
    assert!(tu.len() > 100, "{} samples", tu.len());
    let (mut worst_q, mut worst_v, mut travel) = (0.0f64, 0.0f64, 0.0f64);
    for ((t, qu, vu), (tt, qx, vx)) in tu.iter().zip(&tx) {
        assert_eq!(t, tt);
        let (dq, dv) = (max_diff(qu, qx), max_diff(vu, vx));
        assert!(dq < 1e-9 && dv < 1e-9, "at t = {t}: q {qu:?} vs {qx:?}, v {vu:?} vs {vx:?}");
        worst_q = worst_q.max(dq);
        worst_v = worst_v.max(dv);
        travel = travel.max(max_diff(qu, mu.q(&yu)));
    }
    eprintln!(
        "trajectory over 1 s: largest differences q {worst_q:e}, v {worst_v:e}; the arm moved {travel:.3}"
    );
    // The arm really swings (a test of nothing otherwise).
    assert!(travel > 0.3, "{travel}");
}
