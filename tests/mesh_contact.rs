//! Pressure fields for general closed meshes (our tet mesher + Laplace's equation) in contact:
//! one wrench per pair as the sum over disconnected patches, force = −∇U, continuity, and the
//! `field` command's VTK file read back.

mod common;
use common::*;
use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, PfGeometry, RigidMesh, contact_surface,
};
use contactlab::geometry::tet_io::read_tet_mesh;
use contactlab::geometry::{MeshCore, MeshData, Shape, SurfaceMesh};
use contactlab::math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// A closed torus (major radius `big`, tube radius `small`, axis z), outward triangles.
fn torus_surface(big: f64, small: f64, n: usize, m: usize) -> SurfaceMesh {
    use std::f64::consts::TAU;
    let mut vertices = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (a, b) = (TAU * i as f64 / n as f64, TAU * j as f64 / m as f64);
            let rho = big + small * b.cos();
            vertices.push(Point3::new(rho * a.cos(), rho * a.sin(), small * b.sin()));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let idx = |i: usize, j: usize| ((i % n) * m + j % m) as u32;
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    SurfaceMesh { vertices, triangles }
}

fn compliant_torus() -> PfBody {
    let shape = Shape::Mesh {
        file: "torus (generated)".into(),
        data: MeshData::Surface(torus_surface(0.08, 0.03, 48, 24)),
        core: MeshCore::MedialAxis,
        notes: Vec::new(),
    };
    PfBody::new(
        &shape,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus: 1e5, resolution: Some(0.008), slab_thickness: None },
            dissipation: 0.0,
            friction: 0.0,
        },
    )
    .expect("the torus meshes")
}

/// Two parallel rails (boxes 0.04 wide, along y, at x = ±0.06) joined underneath: one
/// non-convex rigid mesh whose top faces are at z = 0.
fn rails() -> PfBody {
    // A U-shaped prism: cross-section in x–z, extruded along y from −0.2 to 0.2.
    let outline: [(f64, f64); 8] = [
        (-0.08, -0.05),
        (0.08, -0.05),
        (0.08, 0.0),
        (0.04, 0.0),
        (0.04, -0.03),
        (-0.04, -0.03),
        (-0.04, 0.0),
        (-0.08, 0.0),
    ];
    let n = outline.len() as u32;
    let mut vertices = Vec::new();
    for y in [-0.2, 0.2] {
        vertices.extend(outline.iter().map(|&(x, z)| Point3::new(x, y, z)));
    }
    // Caps: the U as three convex pieces (outline indices, counter-clockwise in x–z).
    let pieces: [&[u32]; 3] = [&[0, 5, 6, 7], &[0, 1, 4, 5], &[1, 2, 3, 4]];
    let mut triangles = Vec::new();
    for piece in pieces {
        for k in 1..piece.len() - 1 {
            triangles.push([piece[0], piece[k + 1], piece[k]]);
            triangles.push([n + piece[0], n + piece[k], n + piece[k + 1]]);
        }
    }
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.push([i, j, n + j]);
        triangles.push([i, n + j, n + i]);
    }
    let mut mesh = SurfaceMesh { vertices, triangles };
    if mesh.volume() < 0.0 {
        mesh.triangles.iter_mut().for_each(|t| t.swap(1, 2));
    }
    PfBody {
        geometry: PfGeometry::RigidMesh(RigidMesh::new(mesh)),
        modulus: None,
        dissipation: 0.0,
        friction: 0.0,
    }
}

#[test]
fn a_torus_on_two_rails_touches_in_two_patches_with_one_wrench() {
    let torus = compliant_torus();
    let rails = rails();
    // Lying flat, 3 mm into the rails' tops (the tube's bottom is 0.03 below the centre).
    let pt = pose([0.0, 0.0, 0.027], [0.0, 0.0, 0.0]);
    let pr = Isometry3::identity();
    let surface = contact_surface(at(&torus, pt), at(&rails, pr)).unwrap();
    // Group the polygons into patches: connected when their centroids are within 1 cm.
    let centroids: Vec<Point3> = surface
        .polygons
        .iter()
        .map(|p| {
            Point3::from(
                p.vertices.iter().fold(Vector3::zeros(), |s, v| s + v.coords) / p.vertices.len() as f64,
            )
        })
        .collect();
    let mut patch = vec![usize::MAX; centroids.len()];
    let mut patches = 0;
    for seed in 0..centroids.len() {
        if patch[seed] != usize::MAX {
            continue;
        }
        let mut stack = vec![seed];
        patch[seed] = patches;
        while let Some(i) = stack.pop() {
            for j in 0..centroids.len() {
                if patch[j] == usize::MAX && (centroids[i] - centroids[j]).norm() < 0.01 {
                    patch[j] = patches;
                    stack.push(j);
                }
            }
        }
        patches += 1;
    }
    assert_eq!(patches, 2, "one patch on each rail");
    // The pair's one wrench equals the sum of the patches' forces and moments.
    let mut sum = contactlab::math::Wrench::zero();
    for p in &surface.polygons {
        let (x0, p0) = (p.vertices[0], p.pressure[0]);
        for k in 1..p.vertices.len() - 1 {
            let (x1, x2) = (p.vertices[k], p.vertices[k + 1]);
            let (p1, p2) = (p.pressure[k], p.pressure[k + 1]);
            let area = 0.5 * (x1 - x0).cross(&(x2 - x0)).norm();
            // ∫p dA and ∫x p dA over the triangle (exact for linear p).
            let int_p = area * (p0 + p1 + p2) / 3.0;
            let sx = x0.coords + x1.coords + x2.coords;
            let int_xp =
                (x0.coords * p0 + x1.coords * p1 + x2.coords * p2 + sx * (p0 + p1 + p2)) * (area / 12.0);
            sum.force += p.normal * int_p;
            sum.torque += int_xp.cross(&p.normal);
        }
    }
    let w = wrench(at(&torus, pt), at(&rails, pr));
    let scale = w.force.norm();
    assert!(scale > 1.0, "in contact: {scale} N");
    assert!(rel(&w.force, &sum.force, scale) < 1e-9, "{:?} vs {:?}", w.force, sum.force);
    assert!(rel(&w.torque, &sum.torque, scale * 0.1) < 1e-9);
    // The force is minus the energy's derivative (rigid non-convex mesh, energy from cones).
    assert_force_is_minus_energy_gradient(&torus, pt, &rails, pr);
}

#[test]
fn a_torus_sliding_over_the_ground_has_a_continuous_wrench_and_force_is_minus_energy_gradient() {
    let torus = compliant_torus();
    let ground = rigid(Shape::HalfSpace, None);
    let g = Isometry3::identity();
    let (mut prev, mut jumps): (Option<Vector3>, Vec<f64>) = (None, Vec::new());
    for s in 0..=2000 {
        let t = s as f64 / 2000.0;
        let pt = pose([0.02 * t, 0.01 * t, 0.027], [0.05 + 0.02 * t, 0.03, 0.4 * t]);
        let f = wrench(at(&torus, pt), at(&ground, g)).force;
        if let Some(p) = prev {
            jumps.push((f - p).norm());
        }
        prev = Some(f);
    }
    let mean = jumps.iter().sum::<f64>() / jumps.len() as f64;
    let max = jumps.iter().cloned().fold(0.0, f64::max);
    assert!(prev.unwrap().norm() > 1.0);
    assert!(max < 5.0 * mean, "a jump of {max:.3e} N against a mean change of {mean:.3e} N");
    let pt = pose([0.0, 0.0, 0.027], [0.08, 0.03, 0.2]);
    assert_force_is_minus_energy_gradient(&torus, pt, &ground, g);
}

/// Central differences of the energy under small translations of `a` give the force on `a`.
fn assert_force_is_minus_energy_gradient(a: &PfBody, pa: Isometry3, b: &PfBody, pb: Isometry3) {
    let w = wrench(at(a, pa), at(b, pb));
    let h = 1e-6;
    for i in 0..3 {
        let mut e = Vector3::zeros();
        e[i] = h;
        let shift =
            |s: f64| Isometry3::from_parts(Translation3::from(e * s), UnitQuaternion::identity()) * pa;
        let fd = -(energy(at(a, shift(1.0)), at(b, pb)) - energy(at(a, shift(-1.0)), at(b, pb))) / (2.0 * h);
        assert!((fd - w.force[i]).abs() < 1e-5 * w.force.norm(), "axis {i}: −dU/dx {fd} vs {}", w.force[i]);
    }
}

#[test]
fn the_field_command_writes_a_vtk_that_reads_back_the_same() {
    let dir = std::env::temp_dir().join(format!("contactlab-field-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("torus.vtk");
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/torus_on_ground.toml");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["field", scene, "--body", "torus", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let file = read_tet_mesh(&out).unwrap();
    let extent = file.extent.expect("the file has the extent");
    // The same field as the body gets (in the scene's pose, so compare the shape of it).
    assert!(file.mesh.tets.len() > 1000);
    assert_eq!(extent.len(), file.mesh.vertices.len());
    assert!(extent.iter().all(|e| (0.0..=1.0).contains(e)));
    assert!(extent.contains(&1.0) && extent.contains(&0.0));
    // Reading it as a scene body again gives the very same field (the file's own ε is used).
    let again = dir.join("again.toml");
    std::fs::write(
        &again,
        format!(
            "[[body]]\nname = \"t\"\nfixed = true\nshape = {{ type = \"mesh\", file = \"{}\" }}\ncontact = {{ compliance = \"compliant\", hydroelastic_modulus = 1e5, resolution = 0.01 }}\n",
            out.display()
        ),
    )
    .unwrap();
    let out2 = dir.join("torus2.vtk");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["field", again.to_str().unwrap(), "--body", "t", "--out", out2.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let file2 = read_tet_mesh(&out2).unwrap();
    assert_eq!(file2.mesh.tets, file.mesh.tets);
    assert_eq!(file2.extent.unwrap(), extent);
    let _ = BodyState { body: &compliant_torus(), pose: Isometry3::identity(), twist: Default::default() };
}
