//! Mass properties against closed forms: the primitives' textbook inertias, exact polyhedral
//! integrals of hand-built meshes (cube, moved box, tetrahedron, non-convex L prism), convex
//! hulls, convergence of sphere meshes, and the errors for unbounded or broken input.

use contactlab::geometry::mass_properties::MassProperties;
use contactlab::geometry::mesher::surface_mesh;
use contactlab::geometry::{GeometryError, Shape, SurfaceMesh};
use contactlab::math::{Matrix3, Point3, UnitQuaternion, Vector3};
use std::f64::consts::PI;
use std::path::PathBuf;

/// Asserts every entry of `got − want` is within `rel` × the largest entry of `want`.
fn assert_mat(got: &Matrix3, want: &Matrix3, rel: f64, what: &str) {
    let scale = want.abs().max().max(f64::MIN_POSITIVE);
    let err = (got - want).abs().max();
    assert!(err <= rel * scale, "{what}: got {got}, want {want}, error {err:e} > {rel:e} × {scale:e}");
}

fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
    assert!((got - want).abs() <= rel * want.abs(), "{what}: got {got}, want {want} (rel {rel:e})");
}

fn assert_point(got: &Point3, want: &Point3, tol: f64, what: &str) {
    assert!((got - want).norm() <= tol, "{what}: got {got}, want {want}");
}

fn diag(x: f64, y: f64, z: f64) -> Matrix3 {
    Matrix3::from_diagonal(&Vector3::new(x, y, z))
}

/// The prism over a counter-clockwise polygon (seen from +z) from `z0` to `z1`. The caps are
/// fanned from the polygon's first vertex, which must see every other vertex.
fn prism(polygon: &[[f64; 2]], z0: f64, z1: f64) -> SurfaceMesh {
    let n = polygon.len() as u32;
    let mut vertices: Vec<Point3> = polygon.iter().map(|p| Point3::new(p[0], p[1], z0)).collect();
    vertices.extend(polygon.iter().map(|p| Point3::new(p[0], p[1], z1)));
    let mut triangles = Vec::new();
    for i in 1..n - 1 {
        let [a, b, c] = [polygon[0], polygon[i as usize], polygon[i as usize + 1]];
        let turn = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        assert!(turn > 0.0, "fan triangle {i} is not counter-clockwise");
        triangles.push([0, i + 1, i]); // bottom cap faces −z
        triangles.push([n, n + i, n + i + 1]); // top cap faces +z
    }
    for i in 0..n {
        let j = (i + 1) % n;
        // The side under edge (i, j) of a CCW polygon faces (d.y, −d.x, 0): outwards.
        triangles.push([i, j, n + j]);
        triangles.push([i, n + j, n + i]);
    }
    SurfaceMesh { vertices, triangles }
}

/// The axis-aligned box `[lo, hi]` as a 12-triangle mesh.
fn box_mesh(lo: [f64; 3], hi: [f64; 3]) -> SurfaceMesh {
    prism(&[[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]], lo[2], hi[2])
}

/// Unit inertia of a box of sides `s` about its centre.
fn box_unit_inertia(s: [f64; 3]) -> Matrix3 {
    let v = s[0] * s[1] * s[2];
    diag(s[1] * s[1] + s[2] * s[2], s[0] * s[0] + s[2] * s[2], s[0] * s[0] + s[1] * s[1]) * (v / 12.0)
}

#[test]
fn sphere_is_two_fifths_m_r_squared() {
    let r = 0.3;
    let mp = MassProperties::of_shape(&Shape::Sphere { radius: r }).unwrap();
    let v = 4.0 / 3.0 * PI * r.powi(3);
    assert_close(mp.volume, v, 1e-14, "volume");
    assert_point(&mp.centroid, &Point3::origin(), 0.0, "centroid");
    let m = 2.5;
    assert_mat(&mp.inertia_for_mass(m), &(Matrix3::identity() * 0.4 * m * r * r), 1e-14, "inertia");
    // About a point on the surface on the x axis: 7/5 m r² about y and z, 2/5 m r² about x.
    let about = mp.inertia_about(m, &Point3::new(r, 0.0, 0.0));
    assert_mat(&about, &diag(0.4 * m * r * r, 1.4 * m * r * r, 1.4 * m * r * r), 1e-14, "surface point");
}

#[test]
fn box_is_m_b2_plus_c2_over_12() {
    let s = [0.2, 0.5, 1.1];
    let mp = MassProperties::of_shape(&Shape::Box { size: s }).unwrap();
    assert_close(mp.volume, 0.11, 1e-14, "volume");
    let m = 3.0;
    let want =
        diag(s[1] * s[1] + s[2] * s[2], s[0] * s[0] + s[2] * s[2], s[0] * s[0] + s[1] * s[1]) * (m / 12.0);
    assert_mat(&mp.inertia_for_mass(m), &want, 1e-14, "inertia");
}

#[test]
fn cylinder_is_m_3r2_plus_h2_over_12_transverse() {
    let (r, h, m) = (0.1, 0.6, 4.0);
    let mp = MassProperties::of_shape(&Shape::Cylinder { radius: r, length: h }).unwrap();
    assert_close(mp.volume, PI * r * r * h, 1e-14, "volume");
    let side = m * (3.0 * r * r + h * h) / 12.0;
    assert_mat(&mp.inertia_for_mass(m), &diag(side, side, 0.5 * m * r * r), 1e-14, "inertia");
}

#[test]
fn ellipsoid_is_m_b2_plus_c2_over_5() {
    let [a, b, c] = [0.1, 0.2, 0.35];
    let mp = MassProperties::of_shape(&Shape::Ellipsoid { radii: [a, b, c] }).unwrap();
    assert_close(mp.volume, 4.0 / 3.0 * PI * a * b * c, 1e-14, "volume");
    let m = 0.7;
    let want = diag(b * b + c * c, a * a + c * c, a * a + b * b) * (m / 5.0);
    assert_mat(&mp.inertia_for_mass(m), &want, 1e-14, "inertia");
}

/// Volume and unit inertia of a solid of revolution about z, integrated slice by slice: a disc
/// of radius ρ at height z contributes πρ² dz, πρ⁴/2 dz about z and (πρ⁴/4 + πρ² z²) dz about
/// x. For a capsule ρ² is piecewise quadratic in z, so 3-point Gauss–Legendre on each piece is
/// exact — an independent derivation of the capsule's closed form.
fn capsule_by_slices(r: f64, l: f64) -> (f64, f64, f64) {
    let rho2 = |z: f64| {
        let over = (z.abs() - 0.5 * l).max(0.0);
        r * r - over * over
    };
    let nodes = [-(0.6f64).sqrt(), 0.0, (0.6f64).sqrt()];
    let weights = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];
    let (mut v, mut iz, mut ix) = (0.0, 0.0, 0.0);
    for (lo, hi) in [(-0.5 * l - r, -0.5 * l), (-0.5 * l, 0.5 * l), (0.5 * l, 0.5 * l + r)] {
        let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        for (x, w) in nodes.iter().zip(weights) {
            let z = mid + half * x;
            let p = rho2(z);
            v += w * half * PI * p;
            iz += w * half * PI * p * p / 2.0;
            ix += w * half * (PI * p * p / 4.0 + PI * p * z * z);
        }
    }
    (v, ix, iz)
}

#[test]
fn capsule_matches_slice_integration_and_fine_mesh() {
    for (r, l) in [(0.05, 0.2), (0.1, 0.0), (0.2, 0.05)] {
        let shape = Shape::Capsule { radius: r, length: l };
        let mp = MassProperties::of_shape(&shape).unwrap();
        let (v, ix, iz) = capsule_by_slices(r, l);
        assert_close(mp.volume, v, 1e-13, "capsule volume");
        assert_point(&mp.centroid, &Point3::origin(), 0.0, "capsule centroid");
        assert_mat(&mp.unit_inertia, &diag(ix, ix, iz), 1e-13, "capsule inertia");
        // The exact integrals of a fine mesh of the capsule approach the same numbers.
        let mesh = surface_mesh(&shape, Some(r / 20.0)).unwrap();
        let fine = MassProperties::of_surface_mesh(&mesh).unwrap();
        assert_close(fine.volume, v, 3e-3, "capsule mesh volume");
        assert_mat(&fine.unit_inertia, &diag(ix, ix, iz), 5e-3, "capsule mesh inertia");
        // Rings need not be symmetric under x → −x, so the mesh centroid is only near the centre.
        assert_point(&fine.centroid, &Point3::origin(), 1e-4 * r, "capsule mesh centroid");
    }
    // A zero-length capsule is a sphere.
    let ball = MassProperties::of_shape(&Shape::Capsule { radius: 0.1, length: 0.0 }).unwrap();
    let sphere = MassProperties::of_shape(&Shape::Sphere { radius: 0.1 }).unwrap();
    assert_close(ball.volume, sphere.volume, 1e-14, "sphere capsule volume");
    assert_mat(&ball.unit_inertia, &sphere.unit_inertia, 1e-14, "sphere capsule inertia");
}

#[test]
fn unit_cube_mesh_is_exact() {
    let mp = MassProperties::of_surface_mesh(&box_mesh([0.0; 3], [1.0; 3])).unwrap();
    assert_close(mp.volume, 1.0, 1e-15, "volume");
    assert_point(&mp.centroid, &Point3::new(0.5, 0.5, 0.5), 1e-15, "centroid");
    assert_mat(&mp.unit_inertia, &(Matrix3::identity() / 6.0), 1e-14, "inertia");
    // About a corner: 2/3 on the diagonal, −1/4 off it.
    let corner = mp.inertia_about(1.0, &Point3::origin());
    let want = Matrix3::from_fn(|i, j| if i == j { 2.0 / 3.0 } else { -0.25 });
    assert_mat(&corner, &want, 1e-14, "inertia about a corner");
}

#[test]
fn moved_box_rotates_inertia_and_moves_centroid() {
    let s = [0.3, 0.5, 0.9];
    let local = box_mesh([-0.15, -0.25, -0.45], [0.15, 0.25, 0.45]);
    let rot = UnitQuaternion::from_euler_angles(0.4, -1.1, 2.3);
    let t = Vector3::new(12.0, -30.0, 7.5);
    let moved = SurfaceMesh {
        vertices: local.vertices.iter().map(|p| rot * p + t).collect(),
        triangles: local.triangles.clone(),
    };
    let mp = MassProperties::of_surface_mesh(&moved).unwrap();
    assert_close(mp.volume, s[0] * s[1] * s[2], 1e-12, "volume");
    assert_point(&mp.centroid, &Point3::from(t), 1e-12, "centroid");
    let r = rot.to_rotation_matrix().into_inner();
    let want = r * box_unit_inertia(s) * r.transpose();
    assert_mat(&mp.unit_inertia, &want, 1e-11, "R I Rᵀ");
    assert!(mp.unit_inertia[(0, 1)].abs() > 1e-4, "the rotation must make products of inertia");
}

#[test]
fn tetrahedron_matches_closed_form() {
    // The right-corner tet O, a x̂, b ŷ, c ẑ: V = abc/6, centroid (a, b, c)/4,
    // I_xx = 3/80 m (b² + c²), I_xy = m ab/80 (tensor entry, +), likewise for the others.
    let (a, b, c) = (0.3, 0.7, 1.3);
    let mesh = SurfaceMesh {
        vertices: vec![
            Point3::origin(),
            Point3::new(a, 0.0, 0.0),
            Point3::new(0.0, b, 0.0),
            Point3::new(0.0, 0.0, c),
        ],
        triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    };
    let mp = MassProperties::of_surface_mesh(&mesh).unwrap();
    let v = a * b * c / 6.0;
    assert_close(mp.volume, v, 1e-14, "volume");
    assert_point(&mp.centroid, &Point3::new(a / 4.0, b / 4.0, c / 4.0), 1e-15, "centroid");
    let m = 2.0;
    let want = Matrix3::new(
        3.0 / 80.0 * (b * b + c * c),
        a * b / 80.0,
        a * c / 80.0,
        a * b / 80.0,
        3.0 / 80.0 * (a * a + c * c),
        b * c / 80.0,
        a * c / 80.0,
        b * c / 80.0,
        3.0 / 80.0 * (a * a + b * b),
    ) * m;
    assert_mat(&mp.inertia_for_mass(m), &want, 1e-13, "inertia");
}

#[test]
fn l_prism_equals_its_two_boxes() {
    // The L [0,2]×[0,1] ∪ [0,1]×[1,2], extruded over z ∈ [0, 0.5]; fanned from its reflex corner.
    let h = 0.5;
    let l = prism(&[[1.0, 1.0], [1.0, 2.0], [0.0, 2.0], [0.0, 0.0], [2.0, 0.0], [2.0, 1.0]], 0.0, h);
    let mp = MassProperties::of_surface_mesh(&l).unwrap();
    // The two boxes' analytic properties, combined with the parallel-axis theorem.
    let parts =
        [([2.0, 1.0, h], Point3::new(1.0, 0.5, h / 2.0)), ([1.0, 1.0, h], Point3::new(0.5, 1.5, h / 2.0))];
    let props: Vec<MassProperties> = parts
        .iter()
        .map(|(s, c)| {
            let mut p = MassProperties::of_shape(&Shape::Box { size: *s }).unwrap();
            p.centroid = *c;
            p
        })
        .collect();
    let volume: f64 = props.iter().map(|p| p.volume).sum();
    let centroid = Point3::from(props.iter().map(|p| p.centroid.coords * p.volume).sum::<Vector3>() / volume);
    // With mass = volume (unit density), `inertia_about` gives the unit inertia about a point.
    let inertia: Matrix3 = props.iter().map(|p| p.inertia_about(p.volume, &centroid)).sum();
    assert_close(mp.volume, 1.5, 1e-14, "volume");
    assert_close(mp.volume, volume, 1e-14, "volume of the parts");
    assert_point(&mp.centroid, &centroid, 1e-14, "centroid");
    assert_point(&mp.centroid, &Point3::new(5.0 / 6.0, 5.0 / 6.0, h / 2.0), 1e-14, "centroid closed form");
    assert_mat(&mp.unit_inertia, &inertia, 1e-13, "inertia");
    assert!(mp.unit_inertia[(0, 1)] > 1e-3, "the L's product of inertia I_xy = −∫xy is positive here");
}

#[test]
fn sphere_meshes_converge_to_two_fifths_r_squared() {
    let r = 0.1;
    let want = 0.4 * r * r;
    let mut last = f64::INFINITY;
    for res in [0.04, 0.02, 0.01, 0.005] {
        let mesh = surface_mesh(&Shape::Sphere { radius: r }, Some(res)).unwrap();
        let mp = MassProperties::of_surface_mesh(&mesh).unwrap();
        let per_volume = mp.unit_inertia / mp.volume;
        let err = (per_volume - Matrix3::identity() * want).abs().max() / want;
        assert!(err < 0.7 * last, "resolution {res}: error {err:e} did not fall from {last:e}");
        assert_point(&mp.centroid, &Point3::origin(), 1e-12, "sphere mesh centroid");
        last = err;
    }
    assert!(last < 2e-3, "finest sphere mesh: relative error {last:e}");
}

#[test]
fn convex_hull_of_box_corners_and_interior_points_is_the_box() {
    let s = [0.4, 0.2, 0.6];
    let mut points = Vec::new();
    // Interior and face points interleaved with the corners, so the hull must discard them.
    for k in 0..27 {
        let f = [(k % 3) as f64 - 1.0, ((k / 3) % 3) as f64 - 1.0, (k / 9) as f64 - 1.0];
        points.push(Point3::new(0.5 * s[0] * f[0], 0.5 * s[1] * f[1], 0.5 * s[2] * f[2]));
        points.push(Point3::new(0.17 * s[0] * f[1], 0.23 * s[1] * f[2], 0.31 * s[2] * f[0]));
    }
    let convex = Shape::Convex { file: PathBuf::from("box.obj"), points };
    let hull = MassProperties::of_shape(&convex).unwrap();
    let exact = MassProperties::of_shape(&Shape::Box { size: s }).unwrap();
    assert_close(hull.volume, exact.volume, 1e-12, "volume");
    assert_point(&hull.centroid, &exact.centroid, 1e-12, "centroid");
    assert_mat(&hull.unit_inertia, &exact.unit_inertia, 1e-12, "inertia");
}

#[test]
fn halfspace_has_no_mass_properties() {
    let err = MassProperties::of_shape(&Shape::HalfSpace).unwrap_err();
    assert!(matches!(err, GeometryError::InvalidParameter { .. }), "{err:?}");
    assert!(err.to_string().contains("infinite volume"), "{err}");
}

#[test]
fn bad_sizes_are_errors() {
    for shape in [
        Shape::Sphere { radius: 0.0 },
        Shape::Box { size: [1.0, -1.0, 1.0] },
        Shape::Cylinder { radius: 0.1, length: f64::NAN },
        Shape::Capsule { radius: 0.1, length: -0.2 },
        Shape::Ellipsoid { radii: [1.0, 1.0, f64::INFINITY] },
    ] {
        let err = MassProperties::of_shape(&shape).unwrap_err();
        assert!(matches!(err, GeometryError::NonPositiveSize { .. }), "{shape:?}: {err:?}");
    }
}

#[test]
fn open_mesh_is_an_error() {
    let mut cube = box_mesh([0.0; 3], [1.0; 3]);
    // Without one triangle the signed volume about the cube's mean is still positive, so only
    // the closedness check can catch it.
    cube.triangles.pop();
    let err = MassProperties::of_surface_mesh(&cube).unwrap_err();
    assert!(err.to_string().contains("inside-out or open mesh"), "{err}");
    let empty = MassProperties::of_surface_mesh(&SurfaceMesh::default()).unwrap_err();
    assert!(empty.to_string().contains("inside-out or open mesh"), "{empty}");
}

#[test]
fn inside_out_mesh_is_an_error() {
    let mut cube = box_mesh([0.0; 3], [1.0; 3]);
    for t in &mut cube.triangles {
        t.swap(1, 2);
    }
    let err = MassProperties::of_surface_mesh(&cube).unwrap_err();
    assert!(err.to_string().contains("inside-out or open mesh"), "{err}");
    // One flipped triangle: closed as a set, but orientations disagree.
    let mut mixed = box_mesh([0.0; 3], [1.0; 3]);
    mixed.triangles[3].swap(0, 1);
    let err = MassProperties::of_surface_mesh(&mixed).unwrap_err();
    assert!(err.to_string().contains("inside-out or open mesh"), "{err}");
}

#[test]
fn bad_indices_and_points_are_errors_not_panics() {
    let mut cube = box_mesh([0.0; 3], [1.0; 3]);
    cube.triangles[0][1] = 99;
    assert!(MassProperties::of_surface_mesh(&cube).unwrap_err().to_string().contains("vertex 99"));
    let mut cube = box_mesh([0.0; 3], [1.0; 3]);
    cube.vertices[2].x = f64::NAN;
    assert!(MassProperties::of_surface_mesh(&cube).unwrap_err().to_string().contains("not finite"));
}

/// A compound's mass properties are its parts' summed: two 0.1 m cubes side by side (one
/// turned a half turn about z, which changes nothing) are the 0.2 × 0.1 × 0.1 box, and an
/// off-centre pair moves the centroid to the volume-weighted mean.
#[test]
fn a_compound_of_two_cubes_has_the_mass_properties_of_the_box_they_make() {
    use contactlab::geometry::CompoundPart;
    use contactlab::math::{Isometry3, Translation3, UnitQuaternion, Vector3};
    let cube = Shape::Box { size: [0.1, 0.1, 0.1] };
    let at = |x: f64, turn: f64| CompoundPart {
        shape: cube.clone(),
        pose: Isometry3::from_parts(
            Translation3::new(x, 0.0, 0.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), turn),
        ),
    };
    let pair = Shape::Compound { parts: vec![at(-0.05, 0.0), at(0.05, std::f64::consts::PI)] };
    let whole = MassProperties::of_shape(&Shape::Box { size: [0.2, 0.1, 0.1] }).unwrap();
    let parts = MassProperties::of_shape(&pair).unwrap();
    assert!((parts.volume - whole.volume).abs() < 1e-18);
    assert!(parts.centroid.coords.norm() < 1e-15);
    assert!((parts.unit_inertia - whole.unit_inertia).norm() < 1e-15 * whole.unit_inertia.norm() * 10.0);
    let shifted = Shape::Compound { parts: vec![at(0.3, 0.0), at(0.4, 0.0)] };
    let m = MassProperties::of_shape(&shifted).unwrap();
    assert!((m.centroid.x - 0.35).abs() < 1e-15);
    let empty = MassProperties::of_shape(&Shape::Compound { parts: vec![] }).unwrap_err().to_string();
    assert!(empty.contains("at least one"), "{empty}");
}
