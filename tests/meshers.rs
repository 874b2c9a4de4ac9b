//! Meshers, convex hulls and mesh files: volumes against closed forms (curved meshes enclose
//! exactly the analytic volume), tet-mesh validity (orientation, conformity, closed boundary),
//! and the pressure extent ε = 1 − s against the analytic extent of each primitive (for curved
//! shapes, of the volume-corrected shape the mesh is inscribed in).

use contactlab::geometry::convex_hull::{convex_hull, volume_centroid};
use contactlab::geometry::mesh_io::read_points;
use contactlab::geometry::mesher::{
    LayeredTetMesh, ShellLayout, layered_tet_mesh, layered_tet_mesh_with, surface_mesh,
};
use contactlab::geometry::{GeometryError, Shape, SurfaceMesh, TetMesh, signed_tet_volume};
use contactlab::math::Point3;
use std::collections::HashMap;
use std::f64::consts::PI;
use std::path::PathBuf;

fn sphere(radius: f64) -> Shape {
    Shape::Sphere { radius }
}
fn cylinder(radius: f64, length: f64) -> Shape {
    Shape::Cylinder { radius, length }
}
fn capsule(radius: f64, length: f64) -> Shape {
    Shape::Capsule { radius, length }
}
fn ellipsoid(radii: [f64; 3]) -> Shape {
    Shape::Ellipsoid { radii }
}
fn cuboid(size: [f64; 3]) -> Shape {
    Shape::Box { size }
}

fn analytic_volume(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere { radius: r } => 4.0 / 3.0 * PI * r.powi(3),
        Shape::Cylinder { radius: r, length: l } => PI * r * r * l,
        Shape::Capsule { radius: r, length: l } => PI * r * r * l + 4.0 / 3.0 * PI * r.powi(3),
        Shape::Ellipsoid { radii: a } => 4.0 / 3.0 * PI * a[0] * a[1] * a[2],
        Shape::Box { size: s } => s[0] * s[1] * s[2],
        _ => unreachable!(),
    }
}

/// The analytic pressure extent of a primitive at `x`.
fn analytic_extent(shape: &Shape, x: &Point3) -> f64 {
    match shape {
        Shape::Sphere { radius } => 1.0 - x.coords.norm() / radius,
        Shape::Box { size } => {
            let h = size.map(|s| s / 2.0);
            let h_min = h[0].min(h[1]).min(h[2]);
            (0..3).map(|i| h[i] - x[i].abs()).fold(f64::INFINITY, f64::min) / h_min
        }
        Shape::Cylinder { radius, length } => {
            let half = length / 2.0;
            (radius - x.x.hypot(x.y)).min(half - x.z.abs()) / radius.min(half)
        }
        Shape::Capsule { radius, length } => {
            let z = x.z.clamp(-length / 2.0, length / 2.0);
            1.0 - (x - Point3::new(0.0, 0.0, z)).norm() / radius
        }
        Shape::Ellipsoid { radii } => 1.0 - (0..3).map(|i| (x[i] / radii[i]).powi(2)).sum::<f64>().sqrt(),
        _ => unreachable!(),
    }
}

/// The longest edge. Cylinders' and capsules' sides have long elements along their axis (z),
/// where their fields are constant: for them (`axial`) edges are measured across the axis.
fn max_edge(mesh: &SurfaceMesh, axial: bool) -> f64 {
    let length = |e: nalgebra::Vector3<f64>| if axial { e.xy().norm() } else { e.norm() };
    let mut longest: f64 = 0.0;
    for t in 0..mesh.triangles.len() {
        let [a, b, c] = mesh.triangle(t);
        longest = longest.max(length(b - a)).max(length(c - b)).max(length(a - c));
    }
    longest
}

/// Whether the shape's side is meshed with long elements along z (see [`max_edge`]).
fn axial(shape: &Shape) -> bool {
    matches!(shape, Shape::Cylinder { .. } | Shape::Capsule { .. })
}

/// Asserts a surface is closed and consistently oriented: every directed edge appears once and
/// its reverse once.
fn assert_closed(mesh: &SurfaceMesh) {
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for tri in &mesh.triangles {
        assert!(tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2], "degenerate {tri:?}");
        for i in 0..3 {
            *edges.entry((tri[i], tri[(i + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "directed edge ({a}, {b}) used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "edge ({a}, {b}) has no twin");
    }
}

/// Checks a layered tet mesh and returns its volume. `resolution` bounds the boundary's edges
/// (curved shapes only: boxes and hulls are coarse at any resolution).
fn assert_valid(layered: &LayeredTetMesh, resolution: Option<(f64, bool)>) -> f64 {
    let mesh = &layered.mesh;
    assert_eq!(layered.shell.len(), mesh.vertices.len());
    for t in 0..mesh.tets.len() {
        let v = mesh.tet_volume(t);
        assert!(v > 0.0, "tet {t} {:?} has volume {v}", mesh.tets[t]);
    }
    // Conformity: every face is shared by at most two tets, those on the boundary by one.
    let mut faces: HashMap<[u32; 3], u32> = HashMap::new();
    for tet in &mesh.tets {
        for skip in 0..4 {
            let mut f = [0; 3];
            let mut k = 0;
            for (i, &v) in tet.iter().enumerate() {
                if i != skip {
                    f[k] = v;
                    k += 1;
                }
            }
            f.sort_unstable();
            *faces.entry(f).or_default() += 1;
        }
    }
    assert!(faces.values().all(|&n| n <= 2), "a face is shared by more than two tets");
    let boundary = mesh.boundary();
    assert_eq!(boundary.triangles.len(), faces.values().filter(|&&n| n == 1).count());
    assert_closed(&boundary);
    let volume = mesh.volume();
    let enclosed = boundary.volume();
    assert!((volume - enclosed).abs() <= 1e-12 * volume, "tet volume {volume} != boundary volume {enclosed}");
    for tri in &boundary.triangles {
        for &v in tri {
            assert_eq!(layered.shell[v as usize], 1.0, "boundary vertex {v} is not on shell 1");
        }
    }
    assert!(layered.shell.iter().all(|s| (0.0..=1.0).contains(s)));
    if let Some((resolution, axial)) = resolution {
        let longest = max_edge(&boundary, axial);
        assert!(longest <= 1.2 * resolution, "boundary edge {longest} > 1.2 × {resolution}");
    }
    volume
}

/// The enlargement `k` of a curved shape's volume-corrected mesh, from its surface vertices
/// (1 for flat-faced shapes), after checking that every surface vertex lies on the shape scaled
/// by the same `k` about its core.
fn enlargement(shape: &Shape, surface: &[Point3]) -> f64 {
    let ratio = |x: &Point3| -> Option<f64> {
        match shape {
            Shape::Sphere { radius } => Some(x.coords.norm() / radius),
            Shape::Ellipsoid { radii } => Some((0..3).map(|i| (x[i] / radii[i]).powi(2)).sum::<f64>().sqrt()),
            Shape::Capsule { radius, length } => {
                let z = x.z.clamp(-length / 2.0, length / 2.0);
                Some((x - Point3::new(0.0, 0.0, z)).norm() / radius)
            }
            // Side vertices (and rims); cap vertices lie inside the rim.
            Shape::Cylinder { radius, length } => {
                (x.z.abs() < length / 2.0 || x.x.hypot(x.y) > 0.99 * radius).then(|| x.x.hypot(x.y) / radius)
            }
            _ => None,
        }
    };
    let ratios: Vec<f64> = surface.iter().filter_map(ratio).collect();
    let Some(&k) = ratios.first() else { return 1.0 };
    for r in &ratios {
        assert!((r - k).abs() <= 1e-12, "{shape:?}: surface vertices at {r} and {k} × the shape");
    }
    k
}

/// The shape scaled by `k` about its core: the volume-corrected shape of a curved mesh.
fn scaled(shape: &Shape, k: f64) -> Shape {
    match shape {
        Shape::Sphere { radius } => sphere(k * radius),
        Shape::Ellipsoid { radii } => ellipsoid(radii.map(|r| k * r)),
        Shape::Capsule { radius, length } => capsule(k * radius, *length),
        Shape::Cylinder { radius, length } => cylinder(k * radius, *length),
        other => other.clone(),
    }
}

/// The vertices of a layered mesh on its surface (shell 1).
fn surface_vertices(layered: &LayeredTetMesh) -> Vec<Point3> {
    layered.mesh.vertices.iter().zip(&layered.shell).filter(|(_, s)| **s == 1.0).map(|(x, _)| *x).collect()
}

/// Asserts ε = 1 − s matches the analytic extent of the (volume-corrected) shape at every
/// vertex.
fn assert_extent(shape: &Shape, layered: &LayeredTetMesh, tol: f64) {
    let shape = &scaled(shape, enlargement(shape, &surface_vertices(layered)));
    for (v, (x, s)) in layered.mesh.vertices.iter().zip(&layered.shell).enumerate() {
        let exact = analytic_extent(shape, x);
        assert!((1.0 - s - exact).abs() <= tol, "vertex {v} at {x:?}: ε {} vs {exact}", 1.0 - s);
    }
}

fn curved_shapes() -> Vec<(Shape, f64)> {
    vec![
        (sphere(0.1), 0.02),
        (cylinder(0.05, 0.2), 0.02),
        (cylinder(0.08, 0.04), 0.02),
        (cylinder(0.05, 0.1), 0.02),
        (capsule(0.04, 0.1), 0.02),
        (capsule(0.05, 0.0), 0.02),
        (ellipsoid([0.1, 0.06, 0.03]), 0.02),
    ]
}

/// The exact (analytic) volume to this relative tolerance.
const EXACT: f64 = 1e-12;

#[test]
fn curved_meshes_enclose_the_exact_volume() {
    for (shape, res) in curved_shapes() {
        let exact = analytic_volume(&shape);
        for res in [2.0 * res, res, res / 2.0, res / 4.0] {
            let rigid = surface_mesh(&shape, Some(res)).unwrap();
            assert_closed(&rigid);
            assert!(max_edge(&rigid, axial(&shape)) <= 1.2 * res, "{shape:?}");
            let compliant = layered_tet_mesh(&shape, res).unwrap();
            let volume = assert_valid(&compliant, Some((res, axial(&shape))));
            let boundary = compliant.mesh.boundary();
            for (what, v) in
                [("rigid", rigid.volume()), ("tets", volume), ("tet boundary", boundary.volume())]
            {
                assert!((v / exact - 1.0).abs() <= EXACT, "{shape:?} at {res}: {what} volume {v} vs {exact}");
            }
            // The rigid and compliant surfaces are one mesh.
            assert_eq!(boundary.triangles.len(), rigid.triangles.len());
            assert!((rigid.volume() - boundary.volume()).abs() <= EXACT * exact, "{shape:?}");
            let graded = layered_tet_mesh_with(&shape, res, &ShellLayout::graded(2.0)).unwrap();
            let volume = assert_valid(&graded, Some((res, axial(&shape))));
            assert!((volume / exact - 1.0).abs() <= EXACT, "{shape:?} at {res}: graded volume {volume}");
        }
    }
}

/// The largest distance of a rigid mesh's vertices from the exact surface, and the mesh's
/// longest edge.
fn radial_deviation(shape: &Shape, res: f64) -> (f64, f64) {
    let rigid = surface_mesh(shape, Some(res)).unwrap();
    let k = enlargement(shape, &rigid.vertices);
    let radius = match shape {
        Shape::Sphere { radius } | Shape::Cylinder { radius, .. } | Shape::Capsule { radius, .. } => *radius,
        Shape::Ellipsoid { radii } => radii[0].max(radii[1]).max(radii[2]),
        _ => unreachable!(),
    };
    ((k - 1.0) * radius, max_edge(&rigid, axial(shape)))
}

#[test]
fn curved_vertices_lie_just_outside_and_converge_to_the_surface() {
    for (shape, res) in curved_shapes() {
        let mut last = f64::INFINITY;
        for res in [2.0 * res, res, res / 2.0, res / 4.0] {
            let (deviation, h) = radial_deviation(&shape, res);
            // Outside (the mesh is no longer inscribed), by less than the sagitta of the
            // longest edge on the smallest radius of curvature.
            let curvature = match &shape {
                Shape::Ellipsoid { radii } => {
                    let (lo, hi) =
                        (radii[0].min(radii[1]).min(radii[2]), radii[0].max(radii[1]).max(radii[2]));
                    lo * lo / hi
                }
                Shape::Sphere { radius } | Shape::Cylinder { radius, .. } | Shape::Capsule { radius, .. } => {
                    *radius
                }
                _ => unreachable!(),
            };
            assert!(deviation > 0.0, "{shape:?} at {res}: deviation {deviation}");
            assert!(deviation < h * h / (8.0 * curvature), "{shape:?} at {res}: {deviation} vs h = {h}");
            // Second order: halving the resolution divides the deviation by about 4.
            assert!(deviation < 0.4 * last, "{shape:?} at {res}: {deviation} after {last}");
            last = deviation;
        }
    }
}

#[test]
fn graded_layouts_are_valid() {
    let mut shapes: Vec<(Shape, f64, bool)> =
        curved_shapes().into_iter().map(|(s, r)| (s, r, true)).collect();
    shapes.push((cuboid([0.2, 0.1, 0.06]), 0.01, false));
    shapes.push((cuboid([0.1, 0.1, 0.1]), 0.02, false));
    for (shape, res, curved) in shapes {
        let graded = layered_tet_mesh_with(&shape, res / 2.0, &ShellLayout::graded(2.0)).unwrap();
        let cone = layered_tet_mesh(&shape, res / 2.0).unwrap();
        let vg = assert_valid(&graded, curved.then_some((res / 2.0, axial(&shape))));
        assert!((vg - cone.mesh.volume()).abs() <= 1e-12 * vg, "{shape:?}");
        assert!(graded.mesh.tets.len() > cone.mesh.tets.len());
    }
}

#[test]
fn sphere_mesh_is_an_enlarged_icosphere() {
    let shape = sphere(0.1);
    let layered = layered_tet_mesh(&shape, 0.01).unwrap();
    assert_valid(&layered, Some((0.01, false)));
    // Surface points lie on one sphere, a little larger than the exact one; one merged centre
    // vertex.
    let rigid = surface_mesh(&shape, Some(0.01)).unwrap();
    assert_closed(&rigid);
    assert!(max_edge(&rigid, false) <= 1.01 * 0.01);
    let k = enlargement(&shape, &rigid.vertices);
    assert!(k > 1.0 && k < 1.0 + 0.01f64.powi(2) / (8.0 * 0.1 * 0.1), "k = {k}");
    assert_eq!(layered.shell.iter().filter(|&&s| s == 0.0).count(), 1);
    assert_eq!(layered.mesh.vertices.len(), rigid.vertices.len() + 1);
    // The same vertices, rigid or compliant.
    for (p, q) in rigid.vertices.iter().zip(layered.mesh.vertices.iter().skip(1)) {
        assert_eq!(p, q);
    }
}

#[test]
fn extent_matches_analytic_formulas() {
    let shapes = [
        (sphere(0.1), 1e-12),
        (cuboid([0.2, 0.1, 0.06]), 1e-12),
        (cuboid([0.1, 0.1, 0.1]), 1e-12),
        (capsule(0.04, 0.1), 1e-12),
        (cylinder(0.05, 0.2), 1e-12),
        (cylinder(0.08, 0.04), 1e-12),
        // Half length = R, and just above R: widening by k makes the core a disc.
        (cylinder(0.05, 0.1), 1e-12),
        (cylinder(0.05, 0.10004), 1e-12),
        (ellipsoid([0.1, 0.06, 0.03]), 1e-12),
    ];
    // The widened cylinders' cores are discs at z = 0, not the axis.
    for length in [0.1, 0.10004] {
        let layered = layered_tet_mesh(&cylinder(0.05, length), 0.01).unwrap();
        let core: Vec<&Point3> = layered
            .mesh
            .vertices
            .iter()
            .zip(&layered.shell)
            .filter(|(_, s)| **s == 0.0)
            .map(|(x, _)| x)
            .collect();
        assert!(core.len() > 3 && core.iter().all(|x| x.z == 0.0), "{length}: core {core:?}");
    }
    for (shape, tol) in shapes {
        for layout in [ShellLayout::cone(), ShellLayout::graded(2.0)] {
            let layered = layered_tet_mesh_with(&shape, 0.01, &layout).unwrap();
            assert_valid(&layered, None);
            assert_extent(&shape, &layered, tol);
        }
    }
}

#[test]
fn graded_shells_follow_the_rule() {
    // Sphere R = 0.1, resolution 0.01: thickness 0.01, 0.02, 0.04 below the (volume-corrected)
    // surface at radius kR ≈ 0.1 → s ≈ 0.9, 0.7; ≈ 0.3 < 0.5.
    let layered = layered_tet_mesh_with(&sphere(0.1), 0.01, &ShellLayout::graded(2.0)).unwrap();
    let depth = 0.1 * enlargement(&sphere(0.1), &surface_vertices(&layered));
    let mut shells: Vec<f64> = layered.shell.clone();
    shells.sort_by(|a, b| b.total_cmp(a));
    shells.dedup();
    assert_eq!(shells.len(), 4);
    assert!(
        (shells[1] - (1.0 - 0.01 / depth)).abs() < 1e-12 && (shells[2] - (1.0 - 0.03 / depth)).abs() < 1e-12
    );
    assert_eq!(shells[3], 0.0);
    assert!(ShellLayout::graded(0.5).shells(0.01, 0.1).is_err());
    assert!(ShellLayout::explicit(vec![1.0, 0.6, 0.6, 0.0]).shells(0.01, 0.1).is_err());
    let explicit = ShellLayout::explicit(vec![1.0, 0.5, 0.0]);
    let layered = layered_tet_mesh_with(&capsule(0.05, 0.1), 0.02, &explicit).unwrap();
    assert_valid(&layered, Some((0.02, true)));
    assert_extent(&capsule(0.05, 0.1), &layered, 1e-12);
}

#[test]
fn box_meshes() {
    let shape = cuboid([0.3, 0.2, 0.1]);
    let rigid = surface_mesh(&shape, None).unwrap();
    assert_eq!((rigid.vertices.len(), rigid.triangles.len()), (8, 12));
    assert_closed(&rigid);
    assert!((rigid.volume() - 0.006).abs() < 1e-15);
    assert!((rigid.area() - 2.0 * (0.06 + 0.02 + 0.03)).abs() < 1e-15);
    let layered = layered_tet_mesh(&shape, 0.02).unwrap();
    let volume = assert_valid(&layered, None);
    assert!((volume - 0.006).abs() < 1e-14);
    assert_extent(&shape, &layered, 1e-12);
    // Coarse at any resolution: the 12 surface triangles joined to the core.
    assert!(layered.mesh.tets.len() <= 12 * 3);
    assert_eq!(layered.mesh.boundary().triangles.len(), 12);
    for res in [1e-6, 0.3, 100.0] {
        let other = layered_tet_mesh(&shape, res).unwrap();
        assert_eq!(other.mesh.vertices, layered.mesh.vertices);
        assert_eq!(other.mesh.tets, layered.mesh.tets);
    }
    // The core is the segment-free rectangle z = 0, |x| ≤ 0.1, |y| ≤ 0.05.
    for (x, s) in layered.mesh.vertices.iter().zip(&layered.shell) {
        if *s == 0.0 {
            assert!(x.z == 0.0 && x.x.abs() <= 0.1 + 1e-15 && x.y.abs() <= 0.05 + 1e-15);
        }
    }
    // A cube collapses to one centre vertex.
    let cube = layered_tet_mesh(&cuboid([0.1; 3]), 0.02).unwrap();
    assert_eq!(cube.shell.iter().filter(|&&s| s == 0.0).count(), 1);
}

#[test]
fn bad_inputs_are_errors() {
    let no_mesh = |r: Result<SurfaceMesh, GeometryError>| r.unwrap_err().to_string();
    assert!(no_mesh(surface_mesh(&Shape::HalfSpace, Some(0.1))).contains("half space has no mesh"));
    assert!(matches!(layered_tet_mesh(&Shape::HalfSpace, 0.1), Err(GeometryError::NoMesh { .. })));
    let missing = no_mesh(surface_mesh(&sphere(0.1), None));
    assert!(missing.contains("a rigid sphere needs `resolution`"), "{missing}");
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(layered_tet_mesh(&sphere(bad), 0.01), Err(GeometryError::NonPositiveSize { .. })));
        assert!(matches!(
            layered_tet_mesh(&cuboid([0.1, bad, 0.1]), 0.01),
            Err(GeometryError::NonPositiveSize { .. })
        ));
        assert!(matches!(
            surface_mesh(&cylinder(0.1, 0.1), Some(bad)),
            Err(GeometryError::NonPositiveSize { .. })
        ));
    }
    assert!(matches!(layered_tet_mesh(&sphere(1.0), 1e-5), Err(GeometryError::TooFine { .. })));
    assert!(matches!(surface_mesh(&capsule(1.0, 100.0), Some(1e-5)), Err(GeometryError::TooFine { .. })));
}

/// A deterministic pseudo-random number generator on [0, 1).
fn rng(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The piecewise-linear extent ε of a layered mesh at `x`, from the barycentric coordinates of
/// `x` in a tet containing it; `None` outside the mesh.
fn interpolated_extent(mesh: &TetMesh, shell: &[f64], x: &Point3) -> Option<f64> {
    for t in 0..mesh.tets.len() {
        let [a, b, c, d] = mesh.tet(t);
        let whole = signed_tet_volume(&a, &b, &c, &d);
        let weights = [
            signed_tet_volume(x, &b, &c, &d),
            signed_tet_volume(&a, x, &c, &d),
            signed_tet_volume(&a, &b, x, &d),
            signed_tet_volume(&a, &b, &c, x),
        ]
        .map(|w| w / whole);
        if weights.iter().all(|&w| w >= -1e-12) {
            return Some(mesh.tets[t].iter().zip(weights).map(|(&v, w)| w * (1.0 - shell[v as usize])).sum());
        }
    }
    None
}

#[test]
fn coarse_box_field_is_exact_inside() {
    let mut rnd = rng(7);
    for size in [[0.1, 0.1, 0.1], [0.4, 0.2, 0.1]] {
        let shape = cuboid(size);
        let layered = layered_tet_mesh(&shape, 0.01).unwrap();
        assert!(layered.mesh.tets.len() <= 12 * 3, "{} tets", layered.mesh.tets.len());
        assert_valid(&layered, None);
        for _ in 0..1000 {
            let x = Point3::from(size.map(|s| s * (rnd() - 0.5)));
            let eps = interpolated_extent(&layered.mesh, &layered.shell, &x).expect("point inside the box");
            let exact = analytic_extent(&shape, &x);
            assert!((eps - exact).abs() <= 1e-12, "{size:?} at {x:?}: ε {eps} vs {exact}");
        }
    }
}

#[test]
fn coarse_convex_field_is_the_gauge_field() {
    let mut rnd = rng(2024);
    for n in [6, 30, 200] {
        let points: Vec<Point3> =
            (0..n).map(|_| Point3::new(0.1 * rnd(), 0.05 * rnd() - 0.3, 0.08 * rnd() + 1.0)).collect();
        let shape = Shape::Convex { file: "random.obj".into(), points: points.clone() };
        let hull = surface_mesh(&shape, None).unwrap();
        let layered = layered_tet_mesh(&shape, 0.001).unwrap();
        assert_valid(&layered, None);
        // The hull's own triangles, each joined to the centroid: one tet each.
        assert_eq!(layered.mesh.boundary().triangles.len(), hull.triangles.len());
        assert_eq!(layered.mesh.tets.len(), hull.triangles.len());
        assert_eq!(layered.mesh.vertices.len(), hull.vertices.len() + 1);
        let c = volume_centroid(&hull);
        // The gauge about the centroid: the largest n·(x − c)/n·(v − c) over the faces.
        let gauge = |x: &Point3| {
            (0..hull.triangles.len())
                .map(|t| {
                    let n = hull.normal(t);
                    n.dot(&(x - c)) / n.dot(&(hull.triangle(t)[0] - c))
                })
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let (lo, hi) = (Point3::new(0.0, -0.3, 1.0), Point3::new(0.1, -0.25, 1.08));
        let mut tested = 0;
        while tested < 1000 {
            let x = Point3::new(
                lo.x + (hi.x - lo.x) * rnd(),
                lo.y + (hi.y - lo.y) * rnd(),
                lo.z + (hi.z - lo.z) * rnd(),
            );
            let g = gauge(&x);
            if g > 1.0 - 1e-9 {
                continue;
            }
            let eps = interpolated_extent(&layered.mesh, &layered.shell, &x).expect("point inside the hull");
            assert!((eps - (1.0 - g)).abs() <= 1e-12, "{n} points, at {x:?}: ε {eps} vs {}", 1.0 - g);
            tested += 1;
        }
    }
}

#[test]
fn coarse_meshes_still_check_the_resolution() {
    let hull = Shape::Convex { file: "cube.obj".into(), points: cube_points() };
    for bad in [0.0, -0.1, f64::NAN, f64::INFINITY] {
        for shape in [cuboid([0.1, 0.2, 0.3]), hull.clone()] {
            assert!(
                matches!(layered_tet_mesh(&shape, bad), Err(GeometryError::NonPositiveSize { .. })),
                "{shape:?} at resolution {bad}"
            );
        }
    }
}

fn cube_points() -> Vec<Point3> {
    let mut points = Vec::new();
    for i in 0..8 {
        points.push(Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64));
    }
    points
}

#[test]
fn hull_of_cube_with_interior_and_face_points() {
    let mut points = cube_points();
    // Interior points, face centres, edge midpoints and duplicates must not become vertices.
    for k in 0..50 {
        let t = k as f64 / 50.0;
        points.push(Point3::new(0.1 + 0.8 * t, 0.5 + 0.3 * (7.0 * t).sin(), 0.5));
    }
    points.extend([
        Point3::new(0.5, 0.5, 1.0),
        Point3::new(0.5, 0.0, 0.5),
        Point3::new(1.0, 0.5, 0.0),
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(0.3, 0.7, 0.0),
    ]);
    let hull = convex_hull(&points).unwrap();
    assert_eq!((hull.vertices.len(), hull.triangles.len()), (8, 12));
    assert_closed(&hull);
    assert!((hull.volume() - 1.0).abs() < 1e-14);
    let c = volume_centroid(&hull);
    assert!((c - Point3::new(0.5, 0.5, 0.5)).norm() < 1e-14);
}

#[test]
fn hull_of_sphere_points_and_lattice() {
    // Points on a sphere are all corners; a 4×4×4 lattice has only its 8 corners.
    let sphere_mesh = surface_mesh(&sphere(1.0), Some(0.3)).unwrap();
    let hull = convex_hull(&sphere_mesh.vertices).unwrap();
    assert_closed(&hull);
    assert_eq!(hull.vertices.len(), sphere_mesh.vertices.len());
    assert!((hull.volume() - sphere_mesh.volume()).abs() < 1e-12);
    let mut lattice = Vec::new();
    for i in 0..64 {
        lattice.push(Point3::new((i % 4) as f64, ((i / 4) % 4) as f64, (i / 16) as f64) * 0.1);
    }
    let hull = convex_hull(&lattice).unwrap();
    assert_eq!((hull.vertices.len(), hull.triangles.len()), (8, 12));
    assert!((hull.volume() - 0.027).abs() < 1e-15);
    let flat: Vec<Point3> = lattice.iter().filter(|p| p.z == 0.0).copied().collect();
    assert!(matches!(convex_hull(&flat), Err(GeometryError::BadPoints { .. })));
    assert!(convex_hull(&flat[..3]).is_err());
}

#[test]
fn convex_meshes() {
    let points: Vec<Point3> =
        cube_points().iter().map(|p| Point3::new(p.x * 0.2, p.y * 0.1, p.z * 0.1 - 0.3)).collect();
    let shape = Shape::Convex { file: PathBuf::from("wedge.obj"), points };
    let rigid = surface_mesh(&shape, Some(0.01)).unwrap();
    assert_eq!(rigid.triangles.len(), 12);
    let layered = layered_tet_mesh(&shape, 0.03).unwrap();
    let volume = assert_valid(&layered, None);
    assert!((volume - 0.002).abs() < 1e-15);
    // ε = 1 − gauge about the centroid (0.1, 0.05, −0.25): for this box, the box formula.
    let centred = cuboid([0.2, 0.1, 0.1]);
    for (x, s) in layered.mesh.vertices.iter().zip(&layered.shell) {
        let local = Point3::new(x.x - 0.1, x.y - 0.05, x.z + 0.25);
        let gauge = (0..3).map(|i| local[i].abs() / [0.1, 0.05, 0.05][i]).fold(0.0, f64::max);
        assert!((1.0 - s - (1.0 - gauge)).abs() < 1e-12);
        let _ = &centred;
    }
    let flat = Shape::Convex {
        file: PathBuf::from("flat.stl"),
        points: vec![Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    };
    let message = layered_tet_mesh(&flat, 0.1).unwrap_err().to_string();
    assert!(message.contains("flat.stl") && message.contains("4 non-coplanar"), "{message}");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-meshers-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn reads_obj_and_stl_files() {
    let dir = temp_dir("read");
    let obj = dir.join("tet.obj");
    std::fs::write(&obj, "# a tet\nv 0 0 0\nv 1 0 0\nvn 0 0 1\nv 0 1 0 1.0\nvt 0.5 0.5\nv 0 0 1\nf 1 2 3\n")
        .unwrap();
    let points = read_points(&obj).unwrap();
    assert_eq!(
        points,
        vec![
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(0.0, 0.0, 1.0)
        ]
    );

    let tris = [
        [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.5]],
    ];
    let mut ascii = String::from("solid t\n");
    for t in &tris {
        ascii.push_str(" facet normal 0 0 0\n  outer loop\n");
        for v in t {
            ascii.push_str(&format!("   vertex {} {} {}\n", v[0], v[1], v[2]));
        }
        ascii.push_str("  endloop\n endfacet\n");
    }
    ascii.push_str("endsolid t\n");
    let stl = dir.join("t.stl");
    std::fs::write(&stl, &ascii).unwrap();
    let expected = vec![
        Point3::origin(),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 0.0, 1.5),
    ];
    assert_eq!(read_points(&stl).unwrap(), expected);

    // Binary, with a header that starts like an ASCII file.
    let mut binary = b"solid but binary".to_vec();
    binary.resize(80, b' ');
    binary.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for t in &tris {
        binary.extend_from_slice(&[0u8; 12]);
        for v in t {
            for c in v {
                binary.extend_from_slice(&(*c as f32).to_le_bytes());
            }
        }
        binary.extend_from_slice(&[0u8; 2]);
    }
    let bin = dir.join("b.STL");
    std::fs::write(&bin, &binary).unwrap();
    assert_eq!(read_points(&bin).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mesh_file_errors_say_what_and_where() {
    let dir = temp_dir("errors");
    let missing = read_points(&dir.join("nope.obj")).unwrap_err();
    assert!(matches!(missing, GeometryError::MeshFile { .. }));
    assert!(missing.to_string().contains("nope.obj"));

    let bad = dir.join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 x1 0\n").unwrap();
    let message = read_points(&bad).unwrap_err().to_string();
    assert!(message.contains("line 3") && message.contains("x1"), "{message}");

    // A convex body's OBJ is its points, but a face naming a vertex the file lacks (99, 0, or
    // further back than the vertices before it) is a broken file, refused with its line.
    for (face, index) in [("f 1 2 99", "99"), ("f 0 1 2", "0"), ("f -1 -2 -4", "-4"), ("f 1 x 2", "x")] {
        let broken = dir.join("broken.obj");
        std::fs::write(&broken, format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{face}\nv 0 0 1\n")).unwrap();
        let message = read_points(&broken).unwrap_err().to_string();
        assert!(message.contains("line 4") && message.contains(index), "{face}: {message}");
    }
    let fine = dir.join("fine.obj");
    std::fs::write(&fine, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -3\nv 0 0 1\nf 1 2/7 4//2\n").unwrap();
    assert_eq!(read_points(&fine).unwrap().len(), 4);

    let nan = dir.join("nan.stl");
    std::fs::write(&nan, "solid a\nvertex 0 0 0\nvertex 1 NaN 0\n").unwrap();
    let message = read_points(&nan).unwrap_err().to_string();
    assert!(message.contains("line 3") && message.contains("finite"), "{message}");

    let empty = dir.join("empty.obj");
    std::fs::write(&empty, "# nothing\nf 1 2 3\n").unwrap();
    let err = read_points(&empty).unwrap_err();
    assert!(matches!(err, GeometryError::BadMesh { .. }) && err.to_string().contains("no vertices"));

    let unknown = dir.join("mesh.ply");
    std::fs::write(&unknown, "ply\n").unwrap();
    assert!(read_points(&unknown).unwrap_err().to_string().contains(".obj or .stl"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_shapes_and_layouts_give_valid_meshes() {
    // A fixed pseudo-random sweep over sizes, resolutions and layouts: grid lines that land
    // on (or a hair off) a core's boundary, short and long cylinders, thin hulls.
    let mut seed = 12345u64;
    let mut rnd = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..200 {
        let a = 0.01 + 0.1 * rnd();
        let b = 0.01 + 0.1 * rnd();
        let c = 0.01 + 0.1 * rnd();
        let shape = match case % 5 {
            0 => cuboid([a, b, c]),
            1 => cylinder(a, b),
            2 => capsule(a, b),
            3 => ellipsoid([a, b, c]),
            _ => {
                let mut pts = Vec::new();
                for _ in 0..(4 + (rnd() * 60.0) as usize) {
                    pts.push(Point3::new(a * rnd(), b * rnd(), c * rnd()));
                }
                Shape::Convex { file: "r.obj".into(), points: pts }
            }
        };
        let res = 0.004 + 0.05 * rnd();
        let layout = if rnd() < 0.5 { ShellLayout::cone() } else { ShellLayout::graded(1.0 + 2.0 * rnd()) };
        let m = layered_tet_mesh_with(&shape, res, &layout).unwrap();
        // Curved surfaces have edges ≤ ~res before their volume correction enlarges them by k
        // (large only for meshes with a handful of points around: here res is up to 5 R).
        let curved = case % 5 != 0 && case % 5 != 4;
        let k = enlargement(&shape, &surface_vertices(&m));
        assert_valid(&m, curved.then_some((k * res, axial(&shape))));
        if case % 5 != 4 {
            assert_extent(&shape, &m, 1e-12);
        } else {
            let centroid = m.mesh.vertices[m.shell.iter().position(|&s| s == 0.0).unwrap()];
            assert_eq!(m.shell.iter().filter(|&&s| s == 0.0).count(), 1);
            let hull = surface_mesh(&shape, None).unwrap();
            assert!((volume_centroid(&hull) - centroid).norm() < 1e-15);
        }
    }
}

#[test]
fn hulls_contain_their_points_and_are_convex() {
    let mut seed = 99u64;
    let mut rnd = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut clouds: Vec<Vec<Point3>> = Vec::new();
    for n in [4, 5, 20, 200, 2000] {
        clouds.push((0..n).map(|_| Point3::new(rnd(), rnd(), rnd())).collect());
    }
    // Points on a sphere, slightly jittered; grid points on a box's faces (many coplanar).
    let ball = surface_mesh(&sphere(1.0), Some(0.1)).unwrap();
    clouds.push(ball.vertices.iter().map(|p| p + (rnd() - 0.5) * 1e-7 * p.coords).collect());
    let mut faces = Vec::new();
    for i in 0..=5 {
        for j in 0..=5 {
            let (u, v) = (i as f64 / 5.0 - 0.5, j as f64 / 5.0 - 0.5);
            for side in [-0.5, 0.5] {
                faces.extend([Point3::new(side, u * 2.0, v * 3.0), Point3::new(u, side * 2.0, v * 3.0)]);
                faces.push(Point3::new(u, v * 2.0, side * 3.0));
            }
        }
    }
    clouds.push(faces);
    for points in clouds {
        let hull = convex_hull(&points).unwrap();
        assert_closed(&hull);
        for t in 0..hull.triangles.len() {
            let [a, b, c] = hull.triangle(t);
            let n = (b - a).cross(&(c - a));
            assert!(n.norm() > 1e-12, "degenerate hull triangle");
            let n = n.normalize();
            for p in &points {
                assert!(n.dot(&(p - a)) <= 1e-9, "point outside hull face");
            }
        }
        let c = volume_centroid(&hull);
        assert!(hull.volume() > 0.0);
        for t in 0..hull.triangles.len() {
            let [a, ..] = hull.triangle(t);
            assert!(hull.normal(t).dot(&(a - c)) > 0.0, "centroid not inside");
        }
    }
}
