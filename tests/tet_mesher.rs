//! Tet meshes of closed surfaces by isosurface stuffing: validity (orientation, conformity,
//! a closed boundary on the surface), dihedral angle bounds, volume against the enclosed volume,
//! warnings for thin parts and lost components, determinism, and the surface queries.

mod common;
use common::icosphere;
use contactlab::geometry::tet_mesher::{
    MesherOptions, MesherOutput, SurfaceDistance, default_resolution, dihedral_range, mesh_interior,
    mesh_interior_with,
};
use contactlab::geometry::{GeometryError, SurfaceMesh, signed_tet_volume};
use contactlab::math::Point3;
use std::collections::HashMap;
use std::f64::consts::PI;

/// Dihedral bounds asserted for every mesh (degrees).
const MIN_ANGLE: f64 = 15.0;
const MAX_ANGLE: f64 = 155.0;

/// A torus about the z axis (tube centre radius `big`, tube radius `small`), `n × m` quads.
fn torus(big: f64, small: f64, n: u32, m: u32) -> SurfaceMesh {
    let mut vertices = Vec::new();
    for i in 0..n {
        let u = 2.0 * PI * i as f64 / n as f64;
        for j in 0..m {
            let w = 2.0 * PI * j as f64 / m as f64;
            let rho = big + small * w.cos();
            vertices.push(Point3::new(rho * u.cos(), rho * u.sin(), small * w.sin()));
        }
    }
    let id = |i: u32, j: u32| (i % n) * m + (j % m);
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    SurfaceMesh { vertices, triangles }
}

/// A star-shaped solid: the unit icosphere's directions scaled by
/// `1 + ½ Σ max(0, ±u_k)⁸`, six smooth spikes of length 1.5 along the axes.
fn star() -> SurfaceMesh {
    let mut s = icosphere(1.0, Point3::origin(), 5);
    for p in &mut s.vertices {
        let u = p.coords.normalize();
        let bump: f64 = u.iter().map(|x| x.abs().powi(8)).sum();
        *p = Point3::from(u * (1.0 + 0.5 * bump));
    }
    s
}

/// The closed surface of a union of cells of the grid `xs × ys × zs` (`filled(i, j, k)`):
/// two triangles per face between a filled and an empty cell, sharing grid nodes.
fn cells(xs: &[f64], ys: &[f64], zs: &[f64], filled: impl Fn(usize, usize, usize) -> bool) -> SurfaceMesh {
    let n = [xs.len(), ys.len(), zs.len()];
    let node = |i: usize, j: usize, k: usize| (i + n[0] * (j + n[1] * k)) as u32;
    let mut vertices = Vec::new();
    for &z in zs {
        for &y in ys {
            for &x in xs {
                vertices.push(Point3::new(x, y, z));
            }
        }
    }
    let full = |c: [i64; 3]| {
        (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < n[a] - 1)
            && filled(c[0] as usize, c[1] as usize, c[2] as usize)
    };
    let mut triangles = Vec::new();
    for k in 0..n[2] - 1 {
        for j in 0..n[1] - 1 {
            for i in 0..n[0] - 1 {
                if !filled(i, j, k) {
                    continue;
                }
                let c = [i as i64, j as i64, k as i64];
                for a in 0..3 {
                    for s in [-1i64, 1] {
                        let mut d = c;
                        d[a] += s;
                        if full(d) {
                            continue;
                        }
                        let (b, e) = ((a + 1) % 3, (a + 2) % 3);
                        let corner = |u: usize, v: usize| {
                            let mut p = [i, j, k];
                            p[a] += usize::from(s > 0);
                            p[b] += u;
                            p[e] += v;
                            node(p[0], p[1], p[2])
                        };
                        let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                        // (b, e, a) is right-handed: q runs counter-clockwise about +a.
                        if s > 0 {
                            triangles.extend([[q[0], q[1], q[2]], [q[0], q[2], q[3]]]);
                        } else {
                            triangles.extend([[q[0], q[2], q[1]], [q[0], q[3], q[2]]]);
                        }
                    }
                }
            }
        }
    }
    SurfaceMesh { vertices, triangles }
}

/// The unit cube with a fin 0.25 long, 0.4 wide and `t` thick on its +x face.
fn box_with_fin(t: f64) -> SurfaceMesh {
    let zs = [0.0, 0.5 - t / 2.0, 0.5 + t / 2.0, 1.0];
    cells(&[0.0, 1.0, 1.25], &[0.0, 0.3, 0.7, 1.0], &zs, |i, j, k| i == 0 || (j == 1 && k == 1))
}

/// Asserts everything a valid mesh of `surface` must satisfy; returns (min, max) dihedral (°).
fn check(
    name: &str,
    surface: &SurfaceMesh,
    out: &MesherOutput,
    resolution: f64,
    volume_tol: f64,
) -> (f64, f64) {
    let mesh = &out.mesh;
    assert!(mesh.tets.len() > 1000, "{name}: only {} tets", mesh.tets.len());
    assert_eq!(out.on_surface.len(), mesh.vertices.len());
    let h3 = resolution.powi(3);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (t, tet) in mesh.tets.iter().enumerate() {
        let p = mesh.tet(t);
        let v = signed_tet_volume(&p[0], &p[1], &p[2], &p[3]);
        assert!(v > 1e-6 * h3, "{name}: tet {t} {tet:?} has volume {v:e}");
        let (a, b) = dihedral_range(&p);
        lo = lo.min(a.to_degrees());
        hi = hi.max(b.to_degrees());
    }
    assert!(lo >= MIN_ANGLE && hi <= MAX_ANGLE, "{name}: dihedral angles {lo:.2}°..{hi:.2}°");
    assert!((out.stats.min_dihedral_deg - lo).abs() < 1e-9 && (out.stats.max_dihedral_deg - hi).abs() < 1e-9);

    // Conforming: no face in more than two tets, and the boundary faces close up into a
    // surface (every edge in an even number of them, here two) whose vertices are on the input.
    let mut faces: HashMap<[u32; 3], u32> = HashMap::new();
    for tet in &mesh.tets {
        for i in 0..4 {
            let mut f = [tet[(i + 1) % 4], tet[(i + 2) % 4], tet[(i + 3) % 4]];
            f.sort_unstable();
            *faces.entry(f).or_default() += 1;
        }
    }
    assert!(faces.values().all(|&c| c <= 2), "{name}: a face is shared by three tets");
    let adjacency = mesh.adjacency();
    let boundary = mesh.boundary();
    assert_eq!(
        boundary.triangles.len(),
        adjacency.iter().flatten().filter(|&&a| a == u32::MAX).count(),
        "{name}"
    );
    let mut edges: HashMap<(u32, u32), i32> = HashMap::new();
    for t in &boundary.triangles {
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_default() += if a < b { 1 } else { -1 };
        }
    }
    assert!(edges.values().all(|&c| c == 0), "{name}: boundary is not closed and oriented");
    let distance = SurfaceDistance::new(surface);
    let mut worst: f64 = 0.0;
    for t in &boundary.triangles {
        for &v in t {
            assert!(out.on_surface[v as usize], "{name}: boundary vertex {v} not marked on the surface");
            worst = worst.max(distance.distance(&mesh.vertices[v as usize]));
        }
    }
    // On the surface, but for the volume fit's common outward offset (≤ h/10).
    let offset = out.stats.boundary_offset;
    assert!(offset.abs() <= 0.1 * resolution + 1e-15, "{name}: offset {offset}");
    assert!(worst <= offset.abs() + 1e-9 * resolution, "{name}: boundary vertex {worst:e} m off the surface");
    assert!(worst <= resolution / 2.0);
    // Interior vertices are inside.
    for (v, p) in mesh.vertices.iter().enumerate() {
        if !out.on_surface[v] {
            assert!(distance.winding_number(p) > 0.5, "{name}: interior vertex {v} outside");
        }
    }

    let (volume, exact) = (mesh.volume(), surface.volume());
    let err = (volume - exact).abs() / exact;
    assert!(err < volume_tol, "{name}: volume {volume} vs {exact} ({:.3}%)", 100.0 * err);
    assert!((out.stats.volume - volume).abs() <= 1e-12 * volume);
    println!(
        "{name}: {} tets, {} vertices, dihedral {lo:.2}°..{hi:.2}°, volume error {:.3}%, {:.3} s, warnings {:?}",
        mesh.tets.len(),
        mesh.vertices.len(),
        100.0 * err,
        out.stats.seconds,
        out.warnings
    );
    (lo, hi)
}

fn assert_deterministic(surface: &SurfaceMesh, resolution: f64, first: &MesherOutput) {
    let again = mesh_interior(surface, resolution).unwrap();
    assert_eq!(first.mesh.tets, again.mesh.tets);
    assert_eq!(first.on_surface, again.on_surface);
    assert_eq!(first.warnings, again.warnings);
    let same = first.mesh.vertices.iter().zip(&again.mesh.vertices).all(|(a, b)| a.coords == b.coords);
    assert!(same && first.mesh.vertices.len() == again.mesh.vertices.len());
}

#[test]
fn sphere_mesh_is_valid_accurate_and_deterministic() {
    let surface = icosphere(1.0, Point3::new(0.1, -0.2, 0.3), 4);
    let resolution = default_resolution(&surface);
    assert!((resolution - 0.1).abs() < 1e-3);
    let out = mesh_interior(&surface, resolution).unwrap();
    check("sphere", &surface, &out, resolution, 0.01);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_deterministic(&surface, resolution, &out);
}

#[test]
fn without_volume_fit_the_boundary_is_on_the_surface() {
    let surface = icosphere(1.0, Point3::origin(), 4);
    let plain = MesherOptions { fit_volume: false };
    let out = mesh_interior_with(&surface, 0.1, &plain).unwrap();
    assert_eq!(out.stats.boundary_offset, 0.0);
    let fitted = mesh_interior(&surface, 0.1).unwrap();
    check("sphere, exact boundary", &surface, &out, 0.1, 0.01);
    // Chords lose volume; the fit restores it with an offset of the order of the sagitta.
    let (lost, kept) = (1.0 - out.stats.volume_ratio, (1.0 - fitted.stats.volume_ratio).abs());
    assert!(lost > 1e-3 && kept < 1e-4, "{lost} {kept}");
    assert!(fitted.stats.boundary_offset > 0.0 && fitted.stats.boundary_offset < 0.01);
    assert_eq!(out.mesh.tets, fitted.mesh.tets);
}

#[test]
fn torus_mesh_is_valid_and_accurate() {
    let surface = torus(1.0, 0.4, 120, 60);
    let resolution = default_resolution(&surface);
    let out = mesh_interior(&surface, resolution).unwrap();
    check("torus", &surface, &out, resolution, 0.01);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    // One piece with the torus's hole: a closed boundary of genus 1 has χ = V − E + F = 0.
    let b = out.mesh.boundary();
    let used: std::collections::HashSet<u32> = b.triangles.iter().flatten().copied().collect();
    let (v, f) = (used.len() as i64, b.triangles.len() as i64);
    assert_eq!(v - 3 * f / 2 + f, 0);
    assert_deterministic(&surface, resolution, &out);
}

#[test]
fn star_mesh_is_valid_and_accurate() {
    let surface = star();
    let resolution = default_resolution(&surface);
    let out = mesh_interior(&surface, resolution).unwrap();
    check("star", &surface, &out, resolution, 0.01);
}

#[test]
fn thin_fin_is_reported_and_the_body_is_still_meshed() {
    let thickness = 0.02;
    let surface = box_with_fin(thickness);
    let resolution = default_resolution(&surface);
    assert!(resolution > 3.0 * thickness);
    let out = mesh_interior(&surface, resolution).unwrap();
    let fin_volume = 0.25 * 0.4 * thickness;
    assert!((surface.volume() - (1.0 + fin_volume)).abs() < 1e-12);
    check("box with fin", &surface, &out, resolution, 0.01);
    assert!(
        out.warnings.iter().any(|w| w.contains("material thinner than the resolution")),
        "{:?}",
        out.warnings
    );
    // The cube itself is there (its edges bevelled by less than a lattice spacing), as the
    // unfitted mesh shows.
    let plain = mesh_interior_with(&surface, resolution, &MesherOptions { fit_volume: false }).unwrap();
    assert!(plain.stats.volume > 0.98 && plain.stats.volume < 1.0 + fin_volume, "{}", plain.stats.volume);
}

#[test]
fn thick_box_has_no_warning() {
    let surface = cells(&[0.0, 1.0], &[0.0, 0.6], &[0.0, 0.8], |_, _, _| true);
    let resolution = 0.05;
    let out = mesh_interior(&surface, resolution).unwrap();
    check("box", &surface, &out, resolution, 0.01);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn vanished_component_is_reported() {
    let mut surface = icosphere(1.0, Point3::origin(), 3);
    let speck = icosphere(0.02, Point3::new(3.0, 0.0, 0.0), 1);
    let offset = surface.vertices.len() as u32;
    surface.vertices.extend(&speck.vertices);
    surface.triangles.extend(speck.triangles.iter().map(|t| t.map(|v| v + offset)));
    let out = mesh_interior(&surface, 0.1).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("solid part vanished")), "{:?}", out.warnings);
    let err = (out.stats.volume - 4.0 / 3.0 * PI).abs() / (4.0 / 3.0 * PI);
    assert!(err < 0.02, "{err}");
}

#[test]
fn bad_input_is_an_error_or_a_warning_never_a_panic() {
    let sphere = icosphere(1.0, Point3::origin(), 2);
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(mesh_interior(&sphere, r), Err(GeometryError::NonPositiveSize { .. })));
    }
    assert!(matches!(mesh_interior(&SurfaceMesh::default(), 0.1), Err(GeometryError::Unmeshable { .. })));
    let mut broken = sphere.clone();
    broken.triangles.push([0, 1, 100_000]);
    assert!(matches!(mesh_interior(&broken, 0.1), Err(GeometryError::Unmeshable { .. })));
    let mut nan = sphere.clone();
    nan.vertices[3].x = f64::NAN;
    assert!(matches!(mesh_interior(&nan, 0.1), Err(GeometryError::Unmeshable { .. })));
    assert!(matches!(mesh_interior(&sphere, 1e-4), Err(GeometryError::TooFine { .. })));
    assert!(matches!(mesh_interior(&sphere, 10.0), Err(GeometryError::Unmeshable { .. })));

    // Inside-out: the same mesh, with a warning.
    let mut inverted = sphere.clone();
    for t in &mut inverted.triangles {
        t.swap(1, 2);
    }
    let a = mesh_interior(&sphere, 0.2).unwrap();
    let b = mesh_interior(&inverted, 0.2).unwrap();
    assert_eq!(a.mesh.tets.len(), b.mesh.tets.len());
    assert!(b.warnings.iter().any(|w| w.contains("wound")));

    // Open: a sphere missing a few triangles still meshes (best effort), with a warning.
    let mut open = sphere.clone();
    open.triangles.truncate(open.triangles.len() - 3);
    let out = mesh_interior(&open, 0.2).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("not closed")), "{:?}", out.warnings);
    assert!((out.stats.volume_ratio - a.stats.volume_ratio).abs() < 0.05);
}

#[test]
fn distance_and_winding_number_match_the_sphere() {
    let r = 1.0;
    let surface = icosphere(r, Point3::origin(), 4);
    let d = SurfaceDistance::new(&surface);
    // The icosphere's faces are within its sagitta (< 2e-3 here) of the unit sphere.
    for p in [[0.0, 0.0, 0.0], [0.3, 0.2, -0.1], [2.0, 0.0, 0.0], [0.5, -1.5, 0.7], [0.0, 0.0, 0.999]] {
        let p = Point3::from(p);
        let exact = (p.coords.norm() - r).abs();
        assert!((d.distance(&p) - exact).abs() < 2e-3, "{p}: {} vs {exact}", d.distance(&p));
        let w = d.winding_number(&p);
        let brute: f64 = (0..surface.triangles.len())
            .map(|t| {
                let [a, b, c] = surface.triangle(t);
                let (x, y, z) = (a - p, b - p, c - p);
                let num = x.dot(&y.cross(&z));
                let den = x.norm() * y.norm() * z.norm()
                    + x.dot(&y) * z.norm()
                    + x.dot(&z) * y.norm()
                    + y.dot(&z) * x.norm();
                2.0 * num.atan2(den)
            })
            .sum::<f64>()
            / (4.0 * PI);
        assert!((w - brute).abs() < 1e-2, "{p}: {w} vs {brute}");
        let inside = p.coords.norm() < r;
        assert_eq!(w > 0.5, inside, "{p}: {w}");
        assert!((brute - if inside { 1.0 } else { 0.0 }).abs() < 1e-9);
    }
    let hit = d.first_hit(&Point3::origin(), &Point3::new(2.0, 0.0, 0.0), None).unwrap();
    assert!((hit.0 - 0.5).abs() < 1e-3);
    assert!(SurfaceDistance::new(&SurfaceMesh::default()).distance(&Point3::origin()).is_infinite());
}

#[test]
fn dihedral_bounds_hold_across_resolutions() {
    let shapes = [
        ("sphere", icosphere(1.0, Point3::new(0.013, 0.021, -0.007), 3)),
        ("torus", torus(1.0, 0.4, 60, 30)),
        ("star", star()),
        ("box with fin", box_with_fin(0.02)),
    ];
    for (name, s) in &shapes {
        for res in [0.11, 0.137, 0.171, 0.23] {
            let out = mesh_interior(s, res).unwrap();
            let (lo, hi) = (out.stats.min_dihedral_deg, out.stats.max_dihedral_deg);
            assert!(lo >= MIN_ANGLE && hi <= MAX_ANGLE, "{name} at {res}: {lo:.2}°..{hi:.2}°");
            assert!((out.stats.volume_ratio - 1.0).abs() < 0.05, "{name} at {res}");
        }
    }
}
