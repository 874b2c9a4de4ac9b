//! Laplace pressure fields against closed forms: spherical and cylindrical shells, a slab;
//! medial-axis cores; maximum-principle reporting; errors.

use contactlab::contact::pressure_field::{Compliance, ContactProperties, PfBody, PfGeometry};
use contactlab::field::FieldError;
use contactlab::field::laplace::{Core, boundary_vertices, depth_by_graph, laplace_extent};
use contactlab::geometry::mesher::{LayeredTetMesh, ShellLayout, layered_tet_mesh_with, surface_mesh};
use contactlab::geometry::{MeshCore, MeshData, Shape, TetMesh};
use contactlab::math::Point3;

/// Shells spaced about `resolution` apart from the surface down to `s = core`, then the centre.
fn shells_to(core: f64, depth: f64, resolution: f64) -> ShellLayout {
    let layers = ((1.0 - core) * depth / resolution).ceil().max(1.0) as usize;
    let mut s: Vec<f64> = (0..=layers).map(|k| 1.0 - (1.0 - core) * k as f64 / layers as f64).collect();
    s.push(0.0);
    ShellLayout::explicit(s)
}

/// Max |ε − exact| over the vertices `keep` accepts.
fn max_error(
    extent: &[f64],
    mesh: &TetMesh,
    keep: impl Fn(&Point3) -> bool,
    exact: impl Fn(&Point3) -> f64,
) -> f64 {
    mesh.vertices
        .iter()
        .zip(extent)
        .filter(|(p, _)| keep(p))
        .map(|(p, e)| (e - exact(p)).abs())
        .fold(0.0, f64::max)
}

/// Skin depths a hair under the nominal one, so a shell placed at exactly that depth is core
/// despite round-off in its vertex positions.
fn just_under(h: f64) -> f64 {
    h * (1.0 - 1e-9)
}

/// The spherical-shell error: outer radius R, core radius R/2, shells ~`resolution` apart.
fn spherical_shell_error(resolution: f64) -> f64 {
    let (radius, core_ratio) = (0.1, 0.5);
    let layered = layered_tet_mesh_with(
        &Shape::Sphere { radius },
        resolution,
        &shells_to(core_ratio, radius, resolution),
    )
    .unwrap();
    let mesh = &layered.mesh;
    // The mesher enlarges the sphere slightly to its exact volume: use the meshed radii.
    let outer = mesh.vertices.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
    let inner = core_ratio * outer;
    let depth: Vec<f64> = mesh.vertices.iter().map(|p| outer - p.coords.norm()).collect();
    let field =
        laplace_extent(mesh, &boundary_vertices(mesh), &depth, Core::SkinDepth(just_under(outer - inner)))
            .unwrap();
    assert_eq!(field.principle_violations, 0, "{:?}", field.notes);
    let exact = |p: &Point3| {
        let r = p.coords.norm().max(inner);
        (1.0 / r - 1.0 / outer) / (1.0 / inner - 1.0 / outer)
    };
    max_error(&field.extent, mesh, |_| true, exact)
}

#[test]
fn spherical_shell_matches_closed_form_and_converges() {
    // ε(r) = (1/r − 1/R)/(1/r_c − 1/R); R/10 is a typical compliant-body resolution.
    let coarse = spherical_shell_error(0.02);
    let default = spherical_shell_error(0.01);
    assert!(default <= 0.02, "max error {default} at resolution R/10");
    assert!(coarse <= 0.02, "max error {coarse} at resolution R/5");
    assert!(default < 0.6 * coarse, "no convergence: {coarse} → {default}");
}

#[test]
fn cylindrical_shell_is_logarithmic_away_from_the_caps() {
    // The primitive's own mesh has long elements along its side (its analytic field does not
    // vary there; Laplace's does near the caps): the cylinder's surface as a `mesh` body, meshed
    // inside with the core's boundary put on the mesh.
    let (radius, length, core_ratio, resolution) = (0.05, 0.4, 0.5, 0.005);
    let surface = surface_mesh(&Shape::Cylinder { radius, length }, Some(resolution)).unwrap();
    let rho = |p: &Point3| p.x.hypot(p.y);
    let outer = surface.vertices.iter().map(rho).fold(0.0, f64::max);
    let half = surface.vertices.iter().map(|p| p.z.abs()).fold(0.0, f64::max);
    let inner = core_ratio * outer;
    let skin = outer - inner;
    let shape = Shape::Mesh {
        file: "cylinder.obj".into(),
        data: MeshData::Surface(surface),
        core: MeshCore::SkinDepth(skin),
        notes: Vec::new(),
    };
    let compliance =
        Compliance::Compliant { modulus: 1e5, resolution: Some(resolution), slab_thickness: None };
    let (body, notes) =
        PfBody::build(&shape, &ContactProperties { compliance, dissipation: 0.0, friction: 0.0 }).unwrap();
    assert!(!notes.iter().any(|n| n.contains("maximum principle")), "{notes:?}");
    let PfGeometry::CompliantMesh(compliant) = &body.geometry else { panic!("a compliant mesh") };
    let (mesh, extent) = (&compliant.mesh, &compliant.extent);
    // The caps' influence decays like exp(−π·distance/thickness): three thicknesses past the
    // end of the core it is far below the discretisation error.
    let core_end = half - skin;
    let far = |p: &Point3| p.z.abs() < core_end - 3.0 * skin;
    assert!(
        mesh.vertices.iter().filter(|p| far(p) && rho(p) < outer && rho(p) > inner * 1.001).count() > 100
    );
    let exact = |p: &Point3| (outer / rho(p).max(inner)).ln() / (outer / inner).ln();
    let err = max_error(extent, mesh, far, exact);
    let near_cap = max_error(extent, mesh, |p| p.z.abs() > core_end, exact);
    eprintln!("max error {err} away from the caps, {near_cap} near them");
    assert!(err < 0.01, "max error {err} away from the caps");
    // Near the caps the field is not the 2D one: the test would notice a wrong evaluation region.
    assert!(near_cap > 0.05, "cap region unexpectedly 2D: {near_cap}");
}

/// A box `[0, n·d]³`-like grid of `n = [nx, ny, nz]` cells of size `d`, each cell split into six
/// tets around its main diagonal (conforming across cells), with `jitter` moving every vertex
/// whose `keep_z` is false by a deterministic pseudo-random offset of up to `jitter·d`.
fn grid_mesh(n: [usize; 3], d: f64, jitter: f64, keep_z: impl Fn(usize) -> bool) -> TetMesh {
    let id = |i: usize, j: usize, k: usize| (i + (n[0] + 1) * (j + (n[1] + 1) * k)) as u32;
    let mut vertices = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    for k in 0..=n[2] {
        for j in 0..=n[1] {
            for i in 0..=n[0] {
                let mut p = Point3::new(i as f64 * d, j as f64 * d, k as f64 * d);
                let (dx, dy, dz) = (rand(), rand(), rand());
                if jitter > 0.0 {
                    // Stay on the planar faces: only tangential moves there.
                    if i > 0 && i < n[0] {
                        p.x += jitter * d * dx;
                    }
                    if j > 0 && j < n[1] {
                        p.y += jitter * d * dy;
                    }
                    if k > 0 && k < n[2] && !keep_z(k) {
                        p.z += jitter * d * dz;
                    }
                }
                vertices.push(p);
            }
        }
    }
    let mut tets = Vec::new();
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                let c = |b: usize| id(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
                // Six paths from corner 0 to corner 7 through the cube's edges.
                for (a, b) in [(1, 3), (1, 5), (2, 3), (2, 6), (4, 5), (4, 6)] {
                    let mut t = [c(0), c(a), c(b), c(7)];
                    let [p0, p1, p2, p3] = t.map(|v| vertices[v as usize]);
                    if (p1 - p0).dot(&(p2 - p0).cross(&(p3 - p0))) < 0.0 {
                        t.swap(2, 3);
                    }
                    tets.push(t);
                }
            }
        }
    }
    TetMesh { vertices, tets }
}

#[test]
fn slab_with_a_mid_plane_core_is_linear_on_any_mesh() {
    // Boundary only on z = 0 and z = H (the sides are free, a natural boundary), core the
    // mid-plane: ε = 1 − |z − H/2|/(H/2) exactly, which linear elements reproduce on any mesh.
    let (n, d) = ([6, 5, 8], 0.01);
    let height = n[2] as f64 * d;
    let mesh = grid_mesh(n, d, 0.3, |k| k == n[2] / 2);
    let boundary: Vec<bool> = mesh.vertices.iter().map(|p| p.z == 0.0 || p.z == height).collect();
    let depth: Vec<f64> = mesh.vertices.iter().map(|p| p.z.min(height - p.z)).collect();
    let field = laplace_extent(&mesh, &boundary, &depth, Core::SkinDepth(just_under(height / 2.0))).unwrap();
    let err =
        max_error(&field.extent, &mesh, |_| true, |p| 1.0 - (p.z - height / 2.0).abs() / (height / 2.0));
    assert!(err < 1e-10, "slab error {err}");
    assert_eq!(field.principle_violations, 0);
}

#[test]
fn medial_axis_core_of_a_sphere_is_its_centre() {
    let radius = 0.1;
    let layered = layered_tet_mesh_with(&Shape::Sphere { radius }, 0.01, &ShellLayout::graded(2.0)).unwrap();
    let LayeredTetMesh { mesh, shell } = &layered;
    let boundary = boundary_vertices(mesh);
    let depth = depth_by_graph(mesh, &boundary);
    let field = laplace_extent(mesh, &boundary, &depth, Core::MedialAxis).unwrap();
    let centre = mesh.vertices.iter().position(|p| p.coords.norm() < 1e-12).unwrap();
    assert!(field.core[centre]);
    assert_eq!(field.extent[centre], 1.0);
    assert!(boundary.iter().zip(&field.extent).all(|(&b, &e)| !b || e == 0.0));
    assert!(field.notes.iter().any(|n| n.contains("the core is small")), "{:?}", field.notes);
    // Mean ε per shell decreases from the centre (s = 0) out to the surface (s = 1).
    let mut levels: Vec<f64> = shell.clone();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let means: Vec<f64> = levels
        .iter()
        .map(|&s| {
            let on: Vec<f64> = (0..shell.len()).filter(|&v| shell[v] == s).map(|v| field.extent[v]).collect();
            on.iter().sum::<f64>() / on.len() as f64
        })
        .collect();
    assert!(levels.len() >= 4, "{levels:?}");
    assert!(means.windows(2).all(|w| w[0] > w[1]), "{means:?}");
}

#[test]
fn medial_axis_core_of_a_box_is_its_deep_part_around_the_medial_planes() {
    let (n, d) = ([10, 8, 6], 0.01);
    let mesh = grid_mesh(n, d, 0.0, |_| true);
    let size = n.map(|c| c as f64 * d);
    let boundary = boundary_vertices(&mesh);
    // Grid paths along the axes are straight, so graph depth is the exact distance here.
    let depth = depth_by_graph(&mesh, &boundary);
    let exact: Vec<f64> = mesh
        .vertices
        .iter()
        .map(|p| (0..3).map(|i| p[i].min(size[i] - p[i])).fold(f64::INFINITY, f64::min))
        .collect();
    assert!(depth.iter().zip(&exact).all(|(a, b)| (a - b).abs() < 1e-12));
    let field = laplace_extent(&mesh, &boundary, &depth, Core::MedialAxis).unwrap();
    let core: Vec<usize> = (0..mesh.vertices.len()).filter(|&v| field.core[v]).collect();
    assert!(core.len() > 5, "{} core vertices", core.len());
    let deepest = depth.iter().cloned().fold(0.0, f64::max);
    for &v in &core {
        // The core is the medial planes thickened to half their depth, without the parts
        // shallower than a quarter of the deepest point (near the box's edges).
        let p = mesh.vertices[v];
        let mut dist: Vec<f64> = (0..3).flat_map(|i| [p[i], size[i] - p[i]]).collect();
        dist.sort_by(f64::total_cmp);
        assert!(depth[v] >= 0.25 * deepest - 1e-12, "core vertex {p} is shallow");
        assert!(depth[v] >= 0.5 * dist[1] - d - 1e-12, "core vertex {p} is far from the medial planes");
        assert_eq!(field.extent[v], 1.0);
    }
    // Shallow vertices (less than a quarter of the deepest) are never core.
    assert!((0..mesh.vertices.len()).all(|v| !field.core[v] || depth[v] >= 0.25 * deepest - 1e-12));
    let centre =
        mesh.vertices.iter().position(|p| (0..3).all(|i| (p[i] - size[i] / 2.0).abs() < 1e-12)).unwrap();
    assert!(field.core[centre]);
    assert!(field.extent.iter().all(|e| (0.0..=1.0).contains(e)));
}

/// One sliver tet: its diagonals' dihedral angles are near 180°, so the stiffness couples the
/// free vertex positively to the core, pushing its value below 0.
fn sliver() -> (TetMesh, Vec<bool>, Vec<f64>) {
    let mut tet: [u32; 4] = [0, 1, 2, 3];
    let vertices = vec![
        Point3::new(0.0, 0.0, 0.0), // free
        Point3::new(1.0, 1.0, 0.0), // core
        Point3::new(1.0, 0.0, 0.1), // boundary
        Point3::new(0.0, 1.0, 0.1), // boundary
    ];
    let [a, b, c, d] = tet.map(|v| vertices[v as usize]);
    if (b - a).dot(&(c - a).cross(&(d - a))) < 0.0 {
        tet.swap(2, 3);
    }
    (TetMesh { vertices, tets: vec![tet] }, vec![false, false, true, true], vec![0.1, 1.0, 0.0, 0.0])
}

#[test]
fn obtuse_tets_report_maximum_principle_violations_and_stay_in_range() {
    let (mesh, boundary, depth) = sliver();
    let field = laplace_extent(&mesh, &boundary, &depth, Core::SkinDepth(0.5)).unwrap();
    assert_eq!(field.principle_violations, 1, "{:?}", field.notes);
    assert!(field.max_violation > 0.1, "{}", field.max_violation);
    assert_eq!(field.extent, vec![0.0, 1.0, 0.0, 0.0]);
    assert!(field.notes.iter().any(|n| n.contains("maximum principle")), "{:?}", field.notes);
}

#[test]
fn field_is_deterministic() {
    let layered =
        layered_tet_mesh_with(&Shape::Sphere { radius: 0.1 }, 0.02, &ShellLayout::graded(2.0)).unwrap();
    let mesh = &layered.mesh;
    let boundary = boundary_vertices(mesh);
    let depth = depth_by_graph(mesh, &boundary);
    let a = laplace_extent(mesh, &boundary, &depth, Core::SkinDepth(0.03)).unwrap();
    let b = laplace_extent(mesh, &boundary, &depth, Core::SkinDepth(0.03)).unwrap();
    assert!(a.extent.iter().zip(&b.extent).all(|(x, y)| x.to_bits() == y.to_bits()));
}

#[test]
fn skin_thicker_than_the_body_is_an_error_that_says_so() {
    let layered =
        layered_tet_mesh_with(&Shape::Sphere { radius: 0.1 }, 0.02, &ShellLayout::graded(2.0)).unwrap();
    let mesh = &layered.mesh;
    let boundary = boundary_vertices(mesh);
    let depth = depth_by_graph(mesh, &boundary);
    let err = laplace_extent(mesh, &boundary, &depth, Core::SkinDepth(0.2)).unwrap_err();
    assert!(matches!(err, FieldError::SkinTooThick { .. }));
    let msg = err.to_string();
    assert!(msg.contains("no vertex is deeper than skin_depth = 0.2; the deepest is 0.1"), "{msg}");
    assert!(msg.contains("use a smaller skin_depth or a finer resolution"), "{msg}");
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let empty = TetMesh::default();
    assert!(matches!(laplace_extent(&empty, &[], &[], Core::MedialAxis), Err(FieldError::EmptyMesh { .. })));
    assert!(depth_by_graph(&empty, &[]).is_empty());
    assert!(boundary_vertices(&empty).is_empty());

    let (mesh, boundary, depth) = sliver();
    let run =
        |mesh: &TetMesh, boundary: &[bool], depth: &[f64], core| laplace_extent(mesh, boundary, depth, core);
    assert!(matches!(
        run(&mesh, &boundary[..3], &depth, Core::MedialAxis),
        Err(FieldError::LengthMismatch { .. })
    ));
    assert!(matches!(
        run(&mesh, &boundary, &depth[..2], Core::MedialAxis),
        Err(FieldError::LengthMismatch { .. })
    ));
    for h in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            run(&mesh, &boundary, &depth, Core::SkinDepth(h)),
            Err(FieldError::BadSkinDepth { .. })
        ));
    }
    let nan_depth = [0.1, f64::NAN, 0.0, 0.0];
    assert!(matches!(run(&mesh, &boundary, &nan_depth, Core::MedialAxis), Err(FieldError::BadDepth { .. })));
    assert!(matches!(run(&mesh, &[false; 4], &depth, Core::MedialAxis), Err(FieldError::NoBoundary)));
    assert!(matches!(run(&mesh, &[true; 4], &depth, Core::MedialAxis), Err(FieldError::NoInterior)));

    let mut out_of_range = mesh.clone();
    out_of_range.tets.push([0, 1, 2, 9]);
    assert!(matches!(
        run(&out_of_range, &boundary, &depth, Core::MedialAxis),
        Err(FieldError::BadMesh { .. })
    ));
    assert_eq!(depth_by_graph(&out_of_range, &boundary).len(), 4);
    assert_eq!(boundary_vertices(&out_of_range).len(), 4);

    let mut flat = mesh.clone();
    flat.vertices[1] = Point3::new(0.5, 0.5, 0.1); // midway between the boundary vertices
    assert!(matches!(run(&flat, &boundary, &depth, Core::MedialAxis), Err(FieldError::BadMesh { .. })));

    let mut infinite = mesh.clone();
    infinite.vertices[0].x = f64::INFINITY;
    assert!(matches!(run(&infinite, &boundary, &depth, Core::MedialAxis), Err(FieldError::BadMesh { .. })));
}

#[test]
fn vertices_cut_off_from_surface_and_core_get_zero_and_a_note() {
    // A second, separate tet with no boundary or core vertex: its free vertices cannot be
    // solved for (the reduced matrix would be singular), so they get ε = 0.
    let (mut mesh, mut boundary, mut depth) = sliver();
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend([
        Point3::new(5.0, 0.0, 0.0),
        Point3::new(6.0, 0.0, 0.0),
        Point3::new(5.0, 1.0, 0.0),
        Point3::new(5.0, 0.0, 1.0),
    ]);
    mesh.tets.push([base, base + 1, base + 2, base + 3]);
    boundary.extend([false; 4]);
    depth.extend([0.2; 4]);
    let field = laplace_extent(&mesh, &boundary, &depth, Core::SkinDepth(0.5)).unwrap();
    assert_eq!(&field.extent[4..], &[0.0; 4]);
    assert!(field.notes.iter().any(|n| n.contains("4 vertices share no tet path")), "{:?}", field.notes);
}
