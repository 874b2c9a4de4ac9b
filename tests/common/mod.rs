//! Helpers shared by the integration tests.
#![allow(dead_code)]

use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, QueryOptions, evaluate_pair, pair_energy,
};
use contactlab::geometry::Shape;
use contactlab::geometry::SurfaceMesh;
use contactlab::math::{Isometry3, Point3, Twist, UnitQuaternion, Vector3, Wrench};
use std::collections::HashMap;

/// Runs a scene (TOML text, files relative to the working directory) as `simulate` runs it —
/// its integrator and step defaults, the energy watch on — and collects `sample(s)` at every
/// output; with the run's statistics and the world (for the bodies' state offsets).
pub fn run_as_simulate<T>(
    text: &str,
    mut sample: impl FnMut(&contactlab::dynamics::simulate::Sample) -> T,
) -> (Vec<T>, contactlab::dynamics::simulate::RunStats, contactlab::dynamics::world::World) {
    use contactlab::dynamics::simulate::{Flow, run};
    let scene = contactlab::scene::parse_scene(text, std::path::Path::new(".")).expect("valid scene");
    let world = contactlab::scene::build_world(&scene, false).expect("world builds");
    let (integrator, schedule) = contactlab::scene::integrator_choice(&scene).expect("integrator");
    let mut out = Vec::new();
    let stats = run(&world, &integrator, &schedule, |s| {
        out.push(sample(s));
        Ok(Flow::Continue)
    })
    .expect("the run completes");
    (out, stats, world)
}

pub fn compliant(shape: Shape, modulus: f64, resolution: f64) -> PfBody {
    PfBody::new(
        &shape,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus, resolution: Some(resolution), slab_thickness: None },
            dissipation: 0.0,
            friction: 0.0,
        },
    )
    .expect("valid compliant body")
}

pub fn compliant_half_space(modulus: f64, slab: f64) -> PfBody {
    PfBody::new(
        &Shape::HalfSpace,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus, resolution: None, slab_thickness: Some(slab) },
            dissipation: 0.0,
            friction: 0.0,
        },
    )
    .expect("valid half space")
}

pub fn rigid(shape: Shape, resolution: Option<f64>) -> PfBody {
    PfBody::new(
        &shape,
        &ContactProperties { compliance: Compliance::Rigid { resolution }, dissipation: 0.0, friction: 0.0 },
    )
    .expect("valid rigid body")
}

pub fn pose(x: [f64; 3], rpy: [f64; 3]) -> Isometry3 {
    Isometry3::from_parts(Vector3::from(x).into(), UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]))
}

pub fn at(body: &PfBody, pose: Isometry3) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist::default() }
}

pub fn moving(body: &PfBody, pose: Isometry3, linear: [f64; 3], angular: [f64; 3]) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist { linear: Vector3::from(linear), angular: Vector3::from(angular) } }
}

pub fn wrench(a: BodyState, b: BodyState) -> Wrench {
    evaluate_pair(a, b, &QueryOptions::default()).expect("pair evaluates").wrench
}

pub fn energy(a: BodyState, b: BodyState) -> f64 {
    pair_energy(a, b).expect("pair evaluates")
}

/// Relative difference of two vectors, against a scale.
pub fn rel(a: &Vector3, b: &Vector3, scale: f64) -> f64 {
    (a - b).norm() / scale
}

/// An icosphere of radius `r` about `c` (`levels` midpoint subdivisions, 20·4^levels faces).
pub fn icosphere(r: f64, c: Point3, levels: u32) -> SurfaceMesh {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Vector3> = [
        [-1.0, g, 0.0],
        [1.0, g, 0.0],
        [-1.0, -g, 0.0],
        [1.0, -g, 0.0],
        [0.0, -1.0, g],
        [0.0, 1.0, g],
        [0.0, -1.0, -g],
        [0.0, 1.0, -g],
        [g, 0.0, -1.0],
        [g, 0.0, 1.0],
        [-g, 0.0, -1.0],
        [-g, 0.0, 1.0],
    ]
    .iter()
    .map(|p| Vector3::from(*p).normalize())
    .collect();
    let mut f: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut next = Vec::new();
        for t in &f {
            let mut m = [0u32; 3];
            for i in 0..3 {
                let (a, b) = (t[i].min(t[(i + 1) % 3]), t[i].max(t[(i + 1) % 3]));
                m[i] = *mid.entry((a, b)).or_insert_with(|| {
                    v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                    (v.len() - 1) as u32
                });
            }
            next.extend([[t[0], m[0], m[2]], [t[1], m[1], m[0]], [t[2], m[2], m[1]], m]);
        }
        f = next;
    }
    SurfaceMesh { vertices: v.iter().map(|d| c + d * r).collect(), triangles: f }
}

/// Every sample's time and joint coordinates and velocities.
pub fn joint_samples(
    world: &contactlab::dynamics::world::World,
    integrator: &contactlab::dynamics::simulate::Integrator,
    duration: f64,
    dt: f64,
) -> Vec<(f64, Vec<f64>, Vec<f64>)> {
    use contactlab::dynamics::simulate::{Flow, Schedule, run};
    let m = world.mechanism.as_ref().expect("a mechanism");
    let mut out = Vec::new();
    run(world, integrator, &Schedule::new(duration, dt), |s| {
        out.push((s.t, m.q(s.y).to_vec(), m.v(s.y).to_vec()));
        Ok(Flow::Continue)
    })
    .expect("simulation runs");
    out
}

/// xorshift64*: a small deterministic generator, the same variants every run, so that a
/// failure can be reproduced.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
