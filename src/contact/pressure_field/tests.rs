//! Unit tests of the pressure field core on hand-made meshes (the paper's 12-tet cube).

use super::*;
use crate::geometry::{SurfaceMesh, TetMesh};
use crate::math::{Isometry3, Point3, Twist, UnitQuaternion};

/// The paper's cube of side 2h: 12 tets sharing the centre (ε = 1 there, 0 at the corners).
fn cube_body(h: f64, modulus: f64) -> PfBody {
    let mut vertices: Vec<Point3> =
        (0..8).map(|k| Point3::new(s(k & 1) * h, s(k & 2) * h, s(k & 4) * h)).collect();
    vertices.push(Point3::origin());
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let mut tets = Vec::new();
    for q in quads {
        for tri in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
            let mut t = [tri[0], tri[1], tri[2], 8u32];
            let m = TetMesh { vertices: vertices.clone(), tets: vec![t] };
            if m.tet_volume(0) < 0.0 {
                t.swap(0, 1);
            }
            tets.push(t);
        }
    }
    let mesh = TetMesh { vertices, tets };
    let mut extent = vec![0.0; 9];
    extent[8] = 1.0;
    PfBody {
        geometry: PfGeometry::CompliantMesh(CompliantMesh::new(mesh, extent, modulus)),
        modulus: Some(modulus),
        dissipation: 0.0,
        friction: 0.0,
    }
}

fn s(bit: usize) -> f64 {
    if bit == 0 { -1.0 } else { 1.0 }
}

fn rigid_ground() -> PfBody {
    PfBody { geometry: PfGeometry::RigidHalfSpace, modulus: None, dissipation: 0.0, friction: 0.0 }
}

fn state(body: &PfBody, pose: Isometry3) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist::default() }
}

fn pose(x: [f64; 3], rpy: [f64; 3]) -> Isometry3 {
    Isometry3::from_parts(
        crate::math::Vector3::from(x).into(),
        UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]),
    )
}

#[test]
fn cube_on_rigid_ground_matches_pyramid_closed_form() {
    // ε = min over faces of (1 − distance-to-centre-along-the-face-normal / h): on the ground
    // plane, h − d below the centre, that is min(d/h, 1 − |x|/h, 1 − |y|/h).
    let (h, e, d) = (0.1, 1e5, 0.01);
    let cube = cube_body(h, e);
    let ground = rigid_ground();
    let a = state(&cube, pose([0.0, 0.0, h - d], [0.0; 3]));
    let b = state(&ground, Isometry3::identity());
    let w = evaluate_pair(a, b, &QueryOptions::default()).unwrap();
    // ∫ p = E ∫∫ min(d/h, 1 − |x|/h, 1 − |y|/h) dx dy over [−h, h]² (midpoint sums).
    let n = 2000;
    let mut exact = 0.0;
    for i in 0..n {
        for j in 0..n {
            let x = -h + (i as f64 + 0.5) * 2.0 * h / n as f64;
            let y = -h + (j as f64 + 0.5) * 2.0 * h / n as f64;
            exact += (d / h).min(1.0 - x.abs() / h).min(1.0 - y.abs() / h);
        }
    }
    exact *= e * (2.0 * h / n as f64).powi(2);
    assert!((w.wrench.force.z - exact).abs() < 1e-4 * exact, "{} vs {exact}", w.wrench.force.z);
    // The force is minus the derivative of the energy.
    let u = |z: f64| pair_energy(state(&cube, pose([0.0, 0.0, z], [0.0; 3])), b).unwrap();
    let z = h - d;
    let fd = -(u(z + 1e-6) - u(z - 1e-6)) / 2e-6;
    assert!((fd - w.wrench.force.z).abs() < 1e-6 * exact, "{fd} vs {}", w.wrench.force.z);
}

/// Asserts that the force on `a` equals −∂U/∂x by central differences of the energy.
fn assert_force_is_minus_energy_gradient(a: &PfBody, pa: Isometry3, b: &PfBody, pb: Isometry3) {
    let w = evaluate_pair(state(a, pa), state(b, pb), &QueryOptions::default()).unwrap();
    let f = w.wrench.force.norm();
    let h = 1e-6;
    for i in 0..3 {
        let shift = |k: f64| {
            let mut dx = crate::math::Vector3::zeros();
            dx[i] = h * k;
            Isometry3::from_parts(dx.into(), UnitQuaternion::identity()) * pa
        };
        let up = pair_energy(state(a, shift(1.0)), state(b, pb)).unwrap();
        let dn = pair_energy(state(a, shift(-1.0)), state(b, pb)).unwrap();
        let fd = -(up - dn) / (2.0 * h);
        assert!((fd - w.wrench.force[i]).abs() < 1e-6 * f, "axis {i}: {fd} vs {}", w.wrench.force[i]);
    }
}

#[test]
fn two_cubes_force_is_minus_energy_gradient() {
    let a_body = cube_body(0.1, 1e5);
    let b_body = cube_body(0.08, 3e5);
    let pa = pose([0.01, 0.02, 0.19], [0.05, 0.1, 0.3]);
    let pb = pose([0.0, 0.0, 0.0], [0.1, -0.05, 0.2]);
    let w = evaluate_pair(state(&a_body, pa), state(&b_body, pb), &QueryOptions::default()).unwrap();
    assert!(w.faces > 0 && w.wrench.force.norm() > 1.0);
    assert_force_is_minus_energy_gradient(&a_body, pa, &b_body, pb);
}

#[test]
fn rigid_box_mesh_on_compliant_cube_agrees_with_energy() {
    // A rigid box surface (12 triangles) pressed into the compliant cube.
    let h = 0.05;
    let v: Vec<Point3> = (0..8).map(|k| Point3::new(s(k & 1) * h, s(k & 2) * h, s(k & 4) * h)).collect();
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let mut triangles = Vec::new();
    for q in quads {
        triangles.push([q[0], q[1], q[2]]);
        triangles.push([q[0], q[2], q[3]]);
    }
    let mut mesh = SurfaceMesh { vertices: v, triangles };
    if mesh.volume() < 0.0 {
        mesh.triangles.iter_mut().for_each(|t| t.swap(1, 2));
    }
    let rigid = PfBody {
        geometry: PfGeometry::RigidMesh(RigidMesh::new(mesh)),
        modulus: None,
        dissipation: 0.0,
        friction: 0.0,
    };
    let cube = cube_body(0.1, 1e5);
    let pa = pose([0.0, 0.0, 0.0], [0.0; 3]);
    let pb = pose([0.01, 0.02, 0.13], [0.2, 0.3, 0.1]);
    let w = evaluate_pair(state(&cube, pa), state(&rigid, pb), &QueryOptions::default()).unwrap();
    assert!(w.wrench.force.norm() > 1.0);
    assert_force_is_minus_energy_gradient(&cube, pa, &rigid, pb);
}

/// A static query cuts one polygon per cell (the cube's face pyramids), a query with friction
/// one per tet: the elastic wrench is the same to round-off either way, the polygons are not.
#[test]
fn cells_and_their_tets_give_one_elastic_wrench() {
    let (mut cube, mut ground, mut other) = (cube_body(0.1, 1e5), rigid_ground(), cube_body(0.08, 3e5));
    for body in [&mut cube, &mut ground, &mut other] {
        body.friction = 0.5;
    }
    let pa = pose([0.01, -0.02, 0.092], [0.1, 0.05, 0.3]);
    for (b, pb) in [(&ground, Isometry3::identity()), (&other, pose([0.0, 0.0, -0.07], [0.1, -0.05, 0.2]))] {
        let at_rest = evaluate_pair(state(&cube, pa), state(b, pb), &QueryOptions::default()).unwrap();
        let mut sliding = state(&cube, pa);
        sliding.twist.linear = crate::math::Vector3::new(0.1, 0.0, 0.0);
        let moving = evaluate_pair(sliding, state(b, pb), &QueryOptions::default()).unwrap();
        let scale = at_rest.elastic.force.norm();
        assert!(scale > 1.0, "in contact: {scale}");
        assert!(
            moving.faces > at_rest.faces,
            "{} tet polygons, {} cell polygons",
            moving.faces,
            at_rest.faces
        );
        assert!((moving.elastic.force - at_rest.elastic.force).norm() < 1e-12 * scale);
        assert!((moving.elastic.torque - at_rest.elastic.torque).norm() < 1e-12 * scale);
        assert!((moving.area - at_rest.area).abs() < 1e-12 * at_rest.area);
    }
}

/// The cells a pair keeps near a half space's plane between queries change nothing: a sphere
/// swept over the ground in steps below and above the kept margin, tilting and spinning, gives
/// bit for bit what fresh queries give, with and without derivatives; and a body meshed coarser
/// than the keeping threshold is traversed afresh with the same results.
#[test]
fn kept_plane_cells_give_the_fresh_results_bit_for_bit() {
    let build = |resolution: f64| {
        let compliance =
            Compliance::Compliant { modulus: 1e6, resolution: Some(resolution), slab_thickness: None };
        let properties = ContactProperties { compliance, dissipation: 1.0, friction: 0.5 };
        // Meshed on purpose: the cache serves the mesh's traversal (a sphere on a half space
        // otherwise takes its analytic field's disc).
        PfBody::build(&crate::geometry::Shape::Sphere { radius: 0.05 }, &properties)
            .unwrap()
            .0
            .with_meshed_field()
    };
    let ground = rigid_ground();
    let refs = (Point3::new(0.0, 0.0, 0.05), Point3::origin());
    for resolution in [0.01, 0.02, 0.03, 0.05] {
        let sphere = build(resolution);
        let kept = PlaneCache::default();
        let mut touching = 0;
        for k in 0..400 {
            let s = k as f64;
            // Creeping (nanometres a query), then striding (millimetres), through contact.
            let stride = if k < 200 { 1e-9 * s } else { 2e-3 * (s - 200.0) };
            let height = 0.047 + 1e-4 * (s * 0.37).sin() + 1e-3 * (s * 0.05).sin() * f64::from(k >= 200);
            let p =
                pose([stride, 0.3 * stride, height], [0.02 * (s * 0.11).sin(), 0.01 * s.cos(), 0.003 * s]);
            let mut a = state(&sphere, p);
            a.twist = Twist {
                linear: crate::math::Vector3::new(0.01, -0.02, 0.05 * s.sin()),
                angular: crate::math::Vector3::new(0.3, 0.1, 2.0),
            };
            let b = state(&ground, Isometry3::identity());
            let options = QueryOptions::default();
            let fresh = evaluate_pair(a, b, &options).unwrap();
            let cached = evaluate_pair_kept(a, b, &options, Some(&kept), None).unwrap();
            assert_eq!(format!("{fresh:?}"), format!("{cached:?}"), "resolution {resolution}, query {k}");
            let (r1, r2) = (&refs.0, &refs.1);
            let (fresh, d_fresh) = evaluate_pair_with_derivatives(a, b, (r1, r2), &options, true).unwrap();
            let (cached, d_cached) =
                evaluate_pair_with_derivatives_kept(a, b, (r1, r2), &options, (true, Some(&kept), None))
                    .unwrap();
            assert_eq!(format!("{fresh:?} {d_fresh:?}"), format!("{cached:?} {d_cached:?}"), "query {k}");
            touching += usize::from(fresh.faces > 0);
        }
        assert!(touching > 300, "resolution {resolution}: {touching} queries touched");
        // Kept while creeping, found anew while striding; a body too coarse (a traversal is a
        // scan) or fine enough to split its queries into tasks is never kept.
        let rebuilds = kept.rebuilds();
        let PfGeometry::CompliantMesh(mesh) = &sphere.geometry else { panic!("a compliant mesh") };
        let cells = mesh.bvh.size(0);
        if (64..512).contains(&cells) {
            assert!((100..=260).contains(&rebuilds), "resolution {resolution}: {rebuilds} rebuilds");
        } else {
            assert_eq!(rebuilds, 0, "resolution {resolution}");
        }
    }
}

/// The candidate pairs a pair keeps between queries of two meshes change nothing: the
/// gripper benchmark's compliant pad pressed on its rigid cylinder, and two compliant spheres,
/// moved in steps below and above the kept margin (creeping, then striding and turning), give
/// bit for bit what fresh queries give, with and without derivatives; the candidates are kept
/// while the pair creeps.
#[test]
fn kept_candidates_give_the_fresh_results_bit_for_bit() {
    use crate::geometry::Shape;
    let build = |shape: Shape, rigid: bool| {
        let compliance = if rigid {
            Compliance::Rigid { resolution: Some(0.004) }
        } else {
            Compliance::Compliant { modulus: 1e6, resolution: Some(0.004), slab_thickness: None }
        };
        let properties = ContactProperties { compliance, dissipation: 2.0, friction: 1.0 };
        PfBody::build(&shape, &properties).unwrap().0
    };
    let pad = build(Shape::Box { size: [0.028, 0.008, 0.028] }, false);
    let cylinder = build(Shape::Cylinder { radius: 0.04, length: 0.1 }, true);
    let ball = build(Shape::Sphere { radius: 0.03 }, false);
    // (pad at y = −0.044 touching the cylinder's side; two balls side by side)
    let cases = [(&pad, &cylinder, -0.0438), (&ball, &ball, -0.0597)];
    for (case, (a_body, b_body, y0)) in cases.into_iter().enumerate() {
        let kept = CandidateCache::default();
        let refs = (Point3::new(0.0, y0, 0.0), Point3::origin());
        let mut touching = 0;
        for k in 0..300 {
            let s = k as f64;
            let stride = if k < 150 { 1e-8 * s } else { 1e-4 * (s - 150.0) };
            let turn = if k < 150 { 1e-9 * s } else { 2e-3 * (s - 150.0) };
            let p = pose([0.3 * stride, y0 + 1e-5 * (s * 0.37).sin(), stride], [turn, 0.5 * turn, -turn]);
            let mut a = state(a_body, p);
            a.twist = Twist {
                linear: crate::math::Vector3::new(0.01, 0.02, 0.05 * s.sin()),
                angular: crate::math::Vector3::new(0.3, 0.1, 2.0),
            };
            let b = state(b_body, Isometry3::identity());
            let options = QueryOptions { stiction_speed: 3e-6 };
            let fresh = evaluate_pair(a, b, &options).unwrap();
            let cached = evaluate_pair_kept(a, b, &options, None, Some(&kept)).unwrap();
            assert_eq!(format!("{fresh:?}"), format!("{cached:?}"), "case {case}, query {k}");
            let (r1, r2) = (&refs.0, &refs.1);
            let (fresh, d_fresh) = evaluate_pair_with_derivatives(a, b, (r1, r2), &options, true).unwrap();
            let (cached, d_cached) =
                evaluate_pair_with_derivatives_kept(a, b, (r1, r2), &options, (true, None, Some(&kept)))
                    .unwrap();
            assert_eq!(format!("{fresh:?} {d_fresh:?}"), format!("{cached:?} {d_cached:?}"), "query {k}");
            touching += usize::from(fresh.faces > 0);
        }
        assert!(touching > 200, "case {case}: {touching} queries touched");
        // Kept while creeping (one build), found anew at most once a query while striding.
        let rebuilds = kept.rebuilds();
        assert!((20..=151).contains(&rebuilds), "case {case}: {rebuilds} rebuilds");
    }
}
