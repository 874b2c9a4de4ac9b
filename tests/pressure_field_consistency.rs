//! Pressure field contact: force = −∇U, swap symmetry, rigid-motion invariance, continuity,
//! non-convex meshes, dissipation and friction.

mod common;
use common::*;
use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, PfGeometry, QueryOptions, RigidMesh, contact_surface,
    evaluate_pair,
};
use contactlab::geometry::{Shape, SurfaceMesh};
use contactlab::math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// Checks F = −∂U/∂x and τ = −∂U/∂θ for body `a` (central differences of the energy under small
/// world translations and rotations of `a` about the world origin).
fn check_force_is_minus_energy_gradient(a: &PfBody, pa: Isometry3, b: &PfBody, pb: Isometry3, label: &str) {
    let w = wrench(at(a, pa), at(b, pb));
    let (h, k) = (1e-6, 1e-6);
    let mut fd_force = Vector3::zeros();
    let mut fd_torque = Vector3::zeros();
    for i in 0..3 {
        let mut e = Vector3::zeros();
        e[i] = 1.0;
        let shift =
            |s: f64| Isometry3::from_parts(Translation3::from(e * s), UnitQuaternion::identity()) * pa;
        let up = energy(at(a, shift(h)), at(b, pb));
        let dn = energy(at(a, shift(-h)), at(b, pb));
        fd_force[i] = -(up - dn) / (2.0 * h);
        let turn = |s: f64| {
            Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_scaled_axis(e * s)) * pa
        };
        let up = energy(at(a, turn(k)), at(b, pb));
        let dn = energy(at(a, turn(-k)), at(b, pb));
        fd_torque[i] = -(up - dn) / (2.0 * k);
    }
    let scale = w.force.norm();
    assert!(scale > 0.1, "{label}: bodies should be in contact, force {scale}");
    let ef = rel(&w.force, &fd_force, scale);
    let et = rel(&w.torque, &fd_torque, w.torque.norm().max(scale * 0.01));
    eprintln!("{label}: F {:?} vs −dU/dx {:?} (rel {ef:.2e}); τ rel {et:.2e}", w.force, fd_force);
    assert!(ef < 1e-5, "{label}: force {:?} vs −dU/dx {fd_force:?}", w.force);
    assert!(et < 1e-5, "{label}: torque {:?} vs −dU/dθ {fd_torque:?}", w.torque);
}

#[test]
fn force_and_torque_are_minus_energy_gradient() {
    let ball = compliant(Shape::Sphere { radius: 0.1 }, 1e5, 0.02);
    let block = compliant(Shape::Box { size: [0.2, 0.15, 0.1] }, 3e5, 0.03);
    let slab = rigid(Shape::Box { size: [0.4, 0.3, 0.1] }, None);
    let ground = rigid(Shape::HalfSpace, None);
    let soft_ground = compliant_half_space(2e5, 0.1);
    let pa = pose([0.013, -0.021, 0.155], [0.3, -0.2, 0.5]);
    check_force_is_minus_energy_gradient(
        &ball,
        pa,
        &block,
        pose([0.01, 0.02, 0.02], [0.1, 0.25, -0.3]),
        "sphere–box compliant",
    );
    check_force_is_minus_energy_gradient(
        &block,
        pose([0.01, 0.0, 0.12], [0.2, 0.1, 0.3]),
        &slab,
        pose([0.0, 0.02, 0.0], [0.05, -0.1, 0.0]),
        "box–rigid box",
    );
    check_force_is_minus_energy_gradient(
        &ball,
        pose([0.0, 0.0, 0.09], [0.4, 0.3, 0.2]),
        &ground,
        pose([0.0, 0.0, 0.0], [0.1, -0.05, 0.0]),
        "sphere–rigid half space",
    );
    check_force_is_minus_energy_gradient(
        &block,
        pose([0.02, 0.0, 0.04], [0.3, 0.2, 0.1]),
        &soft_ground,
        pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        "box–compliant half space",
    );
}

#[test]
fn swapping_the_pair_negates_and_moving_the_scene_transforms() {
    let ball = compliant(Shape::Sphere { radius: 0.1 }, 1e5, 0.02);
    let other = compliant(Shape::Capsule { radius: 0.05, length: 0.1 }, 2e5, 0.02);
    let slab = rigid(Shape::Box { size: [0.4, 0.3, 0.1] }, None);
    let (pa, pb) = (pose([0.0, 0.01, 0.13], [0.2, 0.1, 0.4]), pose([0.02, 0.0, 0.0], [1.0, 0.3, 0.1]));
    for (b, label) in [(&other, "compliant–compliant"), (&slab, "compliant–rigid")] {
        let ab = wrench(at(&ball, pa), at(b, pb));
        let ba = wrench(at(b, pb), at(&ball, pa));
        let scale = ab.force.norm();
        assert!(scale > 0.1, "{label}: in contact");
        assert!(rel(&ab.force, &-ba.force, scale) < 1e-10, "{label}: swap force");
        assert!(rel(&ab.torque, &-ba.torque, scale * 0.1) < 1e-10, "{label}: swap torque");
        let x = pose([0.3, -1.2, 0.7], [0.5, -0.4, 2.0]);
        let moved = wrench(at(&ball, x * pa), at(b, x * pb));
        let expected = ab.transformed(&x);
        assert!(rel(&moved.force, &expected.force, scale) < 1e-10, "{label}: moved force");
        assert!(rel(&moved.torque, &expected.torque, scale) < 1e-10, "{label}: moved torque");
    }
}

#[test]
fn sweeping_a_pose_never_makes_the_wrench_jump() {
    let ball = compliant(Shape::Sphere { radius: 0.1 }, 1e5, 0.02);
    let block = compliant(Shape::Box { size: [0.2, 0.2, 0.1] }, 1e5, 0.025);
    let b = pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
    let steps = 4000;
    let mut prev: Option<Vector3> = None;
    let mut jumps = Vec::new();
    for s in 0..=steps {
        let t = s as f64 / steps as f64;
        // Slide across the block while sinking a little and turning.
        let pa = pose([-0.05 + 0.1 * t, 0.013, 0.135 - 0.01 * t], [0.0, 0.0, 0.3 * t]);
        let f = wrench(at(&ball, pa), at(&block, b)).force;
        if let Some(p) = prev {
            jumps.push((f - p).norm());
        }
        prev = Some(f);
    }
    let mean = jumps.iter().sum::<f64>() / jumps.len() as f64;
    let max = jumps.iter().cloned().fold(0.0, f64::max);
    let force = prev.unwrap().norm();
    eprintln!("force {force:.3} N, mean step change {mean:.3e} N, max {max:.3e} N");
    assert!(force > 1.0);
    assert!(max < 5.0 * mean, "a jump of {max:.3e} N against a mean change of {mean:.3e} N");
}

/// An upside-down U ("arch") of width 6w, height 2w and depth 2w: two legs joined on top.
fn arch_mesh(w: f64) -> SurfaceMesh {
    let outline = [
        (-3.0, 0.0),
        (-1.0, 0.0),
        (1.0, 0.0),
        (3.0, 0.0),
        (3.0, 2.0),
        (1.0, 2.0),
        (1.0, 1.0),
        (-1.0, 1.0),
        (-1.0, 2.0),
        (-3.0, 2.0),
    ];
    // The U opens downwards: legs at z ∈ [−2w, 0] below a bridge; outline (x, z) with z flipped.
    let mut vertices = Vec::new();
    for y in [-1.0, 1.0] {
        for &(x, z) in &outline {
            vertices.push(Point3::new(x * w, y * w, -z * w + 2.0 * w));
        }
    }
    let n = outline.len() as u32;
    let mut triangles = Vec::new();
    // Caps: three convex pieces of the outline (indices into it).
    let pieces: [&[u32]; 3] = [&[0, 1, 7, 8, 9], &[1, 2, 6, 7], &[2, 3, 4, 5, 6]];
    for piece in pieces {
        for k in 1..piece.len() - 1 {
            triangles.push([piece[0], piece[k], piece[k + 1]]);
            triangles.push([n + piece[0], n + piece[k + 1], n + piece[k]]);
        }
    }
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.push([j, i, n + i]);
        triangles.push([j, n + i, n + j]);
    }
    let mut mesh = SurfaceMesh { vertices, triangles };
    if mesh.volume() < 0.0 {
        for t in &mut mesh.triangles {
            t.swap(1, 2);
        }
    }
    mesh
}

#[test]
fn non_convex_rigid_mesh_gives_two_patches_and_one_wrench() {
    let w = 0.02;
    let arch = PfBody {
        geometry: PfGeometry::RigidMesh(RigidMesh::new(arch_mesh(w))),
        modulus: None,
        dissipation: 0.0,
        friction: 0.0,
    };
    let v = arch_mesh(w).volume();
    assert!((v - (6.0 * 2.0 - 2.0 * 1.0) * 2.0 * w.powi(3)).abs() < 1e-15, "arch volume {v}");
    let pad = compliant(Shape::Box { size: [0.3, 0.2, 0.1] }, 1e5, 0.01);
    let pad_pose = pose([0.0, 0.0, -0.05], [0.0, 0.0, 0.0]);
    // The arch's feet are at z = 0 of its frame; push them 4 mm into the pad, slightly tilted.
    let arch_pose = pose([0.003, -0.002, -0.004], [0.02, 0.03, 0.1]);
    let surface = contact_surface(at(&arch, arch_pose), at(&pad, pad_pose)).unwrap();
    let (mut left, mut right) = (0, 0);
    for p in &surface.polygons {
        let c = p.vertices.iter().fold(Vector3::zeros(), |s, v| s + v.coords) / p.vertices.len() as f64;
        let local = arch_pose.inverse() * Point3::from(c);
        if local.x <= -w * (1.0 - 1e-9) {
            left += 1;
        } else if local.x >= w * (1.0 - 1e-9) {
            right += 1;
        } else {
            panic!("a polygon under the bridge at {local:?}");
        }
    }
    assert!(left > 0 && right > 0, "two patches: {left} and {right} polygons");
    // One wrench for the pair, equal to the sum of the two legs' wrenches taken alone.
    let whole = wrench(at(&arch, arch_pose), at(&pad, pad_pose));
    let leg = rigid(Shape::Box { size: [2.0 * w, 2.0 * w, 2.0 * w] }, None);
    let leg_pose = |x: f64| arch_pose * pose([x, 0.0, w], [0.0, 0.0, 0.0]);
    let sum = wrench(at(&leg, leg_pose(-2.0 * w)), at(&pad, pad_pose))
        + wrench(at(&leg, leg_pose(2.0 * w)), at(&pad, pad_pose));
    let scale = whole.force.norm();
    assert!(scale > 1.0);
    assert!(rel(&whole.force, &sum.force, scale) < 1e-9, "{:?} vs {:?}", whole.force, sum.force);
    assert!(rel(&whole.torque, &sum.torque, scale * 0.1) < 1e-9);
    // Energy of a non-convex rigid body, from its cones, also matches the two legs.
    let u = energy(at(&arch, arch_pose), at(&pad, pad_pose));
    let u_legs = energy(at(&leg, leg_pose(-2.0 * w)), at(&pad, pad_pose))
        + energy(at(&leg, leg_pose(2.0 * w)), at(&pad, pad_pose));
    assert!((u - u_legs).abs() < 1e-9 * u, "{u} vs {u_legs}");
}

fn with(shape: Shape, modulus: f64, dissipation: f64, friction: f64) -> PfBody {
    PfBody::new(
        &shape,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus, resolution: Some(0.01), slab_thickness: None },
            dissipation,
            friction,
        },
    )
    .unwrap()
}

#[test]
fn dissipation_and_friction_behave() {
    let ball = with(Shape::Sphere { radius: 0.1 }, 1e5, 2.0, 0.4);
    let ground = PfBody::new(
        &Shape::HalfSpace,
        &ContactProperties {
            compliance: Compliance::Rigid { resolution: None },
            dissipation: 0.0,
            friction: 0.4,
        },
    )
    .unwrap();
    let pa = pose([0.0, 0.0, 0.09], [0.0, 0.0, 0.0]);
    let g = at(&ground, Isometry3::identity());
    let opts = QueryOptions::default();
    let eval = |s: BodyState| evaluate_pair(s, g, &opts).unwrap().wrench;
    let rest = eval(at(&ball, pa)).force.z;
    let approach = eval(moving(&ball, pa, [0.0, 0.0, -0.1], [0.0; 3])).force.z;
    let separate = eval(moving(&ball, pa, [0.0, 0.0, 0.1], [0.0; 3])).force.z;
    assert!(approach > rest && separate < rest, "{approach} > {rest} > {separate}");
    // Hunt–Crossley: p = p0 (1 + d·v) when approaching at v (rigid ground: d = the ball's).
    assert!((approach / rest - 1.2).abs() < 1e-9, "ratio {}", approach / rest);
    assert!((separate / rest - 0.8).abs() < 1e-9);
    // Very fast separation: never pulls.
    assert!(eval(moving(&ball, pa, [0.0, 0.0, 10.0], [0.0; 3])).force.z >= 0.0);
    // Sliding along +x: friction opposes slip, bounded by μ·N and close to it well above v_s.
    for v in [1e-5, 1e-4, 1e-3, 0.1] {
        let w = eval(moving(&ball, pa, [v, 0.0, 0.0], [0.0; 3]));
        let (fx, fy, fz) = (w.force.x, w.force.y, w.force.z);
        assert!(fx < 0.0 && fy.abs() < 1e-9 * fz, "friction opposes slip at {v}");
        assert!(-fx <= 0.4 * fz * (1.0 + 1e-12), "bounded by μN at {v}");
        if v >= 0.1 {
            assert!(-fx > 0.4 * fz * 0.999, "close to μN when sliding fast");
        }
    }
    // Spinning about the normal: friction gives a torque opposing the spin and next to no net
    // force. Not exactly none: friction's direction turns within each polygon and its
    // three-point rule is not symmetric with the mesh (a mesh turned off the spin axis leaves
    // 6e-4–8e-4 of F_z with any rule, from the polygons' shapes).
    let w = eval(moving(&ball, pa, [0.0; 3], [0.0, 0.0, 5.0]));
    assert!(w.torque_about(&Point3::new(0.0, 0.0, 0.09)).z < 0.0);
    assert!(w.force.xy().norm() < 1e-4 * w.force.z, "{} vs {}", w.force.xy().norm(), w.force.z);
}

#[test]
fn results_are_bit_identical_with_and_without_threads() {
    // Fine meshes so that the query is large enough to run on several threads.
    let a = compliant(Shape::Sphere { radius: 0.1 }, 1e5, 0.004);
    let b = compliant(Shape::Sphere { radius: 0.1 }, 2e5, 0.004);
    let ground = rigid(Shape::HalfSpace, None);
    let (pa, pb) = (pose([0.03, 0.01, 0.18], [0.1, 0.2, 0.3]), pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]));
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let w1 = evaluate_pair(
                moving(&a, pa, [0.1, 0.0, -0.2], [0.0, 1.0, 0.0]),
                at(&b, pb),
                &QueryOptions::default(),
            )
            .unwrap();
            let w2 = evaluate_pair(
                at(&a, pose([0.0, 0.0, 0.09], [0.0; 3])),
                at(&ground, pb),
                &QueryOptions::default(),
            )
            .unwrap();
            let u = energy(at(&a, pa), at(&b, pb));
            (w1.wrench, w1.area, w2.wrench, u)
        })
    };
    let (one, two) = (run(1), run(2));
    assert!(one.0.force.norm() > 1.0);
    assert_eq!(format!("{one:?}"), format!("{two:?}"), "threaded and single-threaded results differ");
}

#[test]
fn velocity_jacobian_matches_finite_differences() {
    use contactlab::contact::pressure_field::evaluate_pair_with_jacobian;
    let ball = with(Shape::Sphere { radius: 0.1 }, 1e5, 2.0, 0.4);
    let block = with(Shape::Box { size: [0.3, 0.2, 0.1] }, 3e5, 1.0, 0.6);
    let (pa, pb) = (pose([0.01, 0.02, 0.14], [0.2, 0.1, 0.3]), pose([0.0, 0.0, 0.0], [0.05, -0.1, 0.2]));
    let (ca, cb) = (Point3::new(0.012, 0.018, 0.15), Point3::new(0.001, -0.002, 0.003));
    let va = [0.02, -0.01, -0.03, 0.3, -0.2, 0.5];
    let vb = [-0.01, 0.005, 0.01, 0.1, 0.2, -0.1];
    let opts = QueryOptions { stiction_speed: 0.01 };
    // Generalized forces (force, torque about the reference point) of both bodies, for body
    // velocities given at the reference points.
    let generalized = |va: &[f64; 6], vb: &[f64; 6]| {
        let twist = |v: &[f64; 6], c: &Point3, p: &Isometry3| {
            let w = Vector3::new(v[3], v[4], v[5]);
            let lin = Vector3::new(v[0], v[1], v[2]) + w.cross(&(p.translation.vector - c.coords));
            contactlab::math::Twist { linear: lin, angular: w }
        };
        let sa = BodyState { body: &ball, pose: pa, twist: twist(va, &ca, &pa) };
        let sb = BodyState { body: &block, pose: pb, twist: twist(vb, &cb, &pb) };
        let (w, j) = evaluate_pair_with_jacobian(sa, sb, &ca, &cb, &opts).unwrap();
        let q = [w.wrench.force, w.wrench.torque_about(&ca), -w.wrench.force, -w.wrench.torque_about(&cb)];
        (q, j)
    };
    let (q0, j) = generalized(&va, &vb);
    assert!(q0[0].norm() > 1.0, "in contact");
    let h = 1e-7;
    let mut max_err: f64 = 0.0;
    for col in 0..12 {
        let (mut a1, mut b1, mut a2, mut b2) = (va, vb, va, vb);
        if col < 6 {
            a1[col] += h;
            a2[col] -= h;
        } else {
            b1[col - 6] += h;
            b2[col - 6] -= h;
        }
        let (q1, _) = generalized(&a1, &b1);
        let (q2, _) = generalized(&a2, &b2);
        for row in 0..12 {
            let fd = (q1[row / 3][row % 3] - q2[row / 3][row % 3]) / (2.0 * h);
            max_err = max_err.max((fd - j[(row, col)]).abs());
        }
    }
    let scale = j.abs().max();
    eprintln!("max |J − FD| = {max_err:.3e} of {scale:.3e}");
    assert!(max_err < 1e-5 * scale, "Jacobian differs from finite differences by {max_err}");
}

/// With dissipation and friction (the quadrature path): swapping the pair negates the wrench,
/// and moving the whole scene (poses and velocities) transforms it, both to round-off.
#[test]
fn a_sliding_spinning_pair_is_swap_symmetric_and_invariant() {
    let ball = with(Shape::Sphere { radius: 0.1 }, 1e5, 1.0, 0.5);
    let other = with(Shape::Capsule { radius: 0.05, length: 0.1 }, 2e5, 2.0, 0.4);
    let slab = PfBody::new(
        &Shape::Box { size: [0.4, 0.3, 0.1] },
        &ContactProperties {
            compliance: Compliance::Rigid { resolution: None },
            dissipation: 0.0,
            friction: 0.6,
        },
    )
    .unwrap();
    let (pa, pb) = (pose([0.0, 0.01, 0.13], [0.2, 0.1, 0.4]), pose([0.02, 0.0, 0.0], [1.0, 0.3, 0.1]));
    let (va, wa, vb, wb) = ([0.05, -0.02, -0.01], [0.3, -0.2, 2.0], [0.0, 0.01, 0.002], [0.0, 0.5, -0.1]);
    for (b, label) in [(&other, "compliant–compliant"), (&slab, "compliant–rigid")] {
        let ab = wrench(moving(&ball, pa, va, wa), moving(b, pb, vb, wb));
        let ba = wrench(moving(b, pb, vb, wb), moving(&ball, pa, va, wa));
        let scale = ab.force.norm();
        assert!(scale > 0.1, "{label}: in contact");
        assert!(rel(&ab.force, &-ba.force, scale) < 1e-10, "{label}: swap force");
        assert!(rel(&ab.torque, &-ba.torque, scale * 0.1) < 1e-10, "{label}: swap torque");
        let x = pose([0.3, -1.2, 0.7], [0.5, -0.4, 2.0]);
        let turn = |v: [f64; 3]| (x.rotation * Vector3::from(v)).into();
        let moved = wrench(moving(&ball, x * pa, turn(va), turn(wa)), moving(b, x * pb, turn(vb), turn(wb)));
        let expected = ab.transformed(&x);
        assert!(rel(&moved.force, &expected.force, scale) < 1e-10, "{label}: moved force");
        assert!(rel(&moved.torque, &expected.torque, scale) < 1e-10, "{label}: moved torque");
    }
}
