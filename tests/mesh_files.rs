//! Mesh files in and out: surface readers (OBJ, STL, PLY), closed-mesh validation and repair,
//! tet mesh files (legacy VTK, Gmsh 2.2 / 4.1), and no panics on broken files.

use contactlab::app::write_tet_mesh_vtk;
use contactlab::geometry::mesh_check::check_closed_mesh;
use contactlab::geometry::surface_io::{read_surface, read_surface_from};
use contactlab::geometry::tet_io::{read_tet_mesh, read_tet_mesh_from, write_tet_mesh_msh};
use contactlab::geometry::{GeometryError, SurfaceMesh, TetMesh};
use contactlab::math::{Point3, Vector3};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn temp_dir(test: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("contactlab-meshfiles-{}-{test}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

// ---------------------------------------------------------------------------------------------
// A unit cube, faces counter-clockwise seen from outside.

const CUBE_VERTICES: [[f64; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [1.0, 1.0, 1.0],
    [0.0, 1.0, 1.0],
];
const CUBE_QUADS: [[u32; 4]; 6] =
    [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [3, 7, 6, 2], [0, 4, 7, 3], [1, 2, 6, 5]];

fn cube() -> SurfaceMesh {
    let vertices = CUBE_VERTICES.iter().map(|&[x, y, z]| Point3::new(x, y, z)).collect();
    let triangles = CUBE_QUADS.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
    SurfaceMesh { vertices, triangles }
}

/// Corner positions of each triangle of the cube.
fn cube_soup() -> Vec<[[f64; 3]; 3]> {
    cube().triangles.iter().map(|t| t.map(|v| CUBE_VERTICES[v as usize])).collect()
}

fn cube_obj() -> String {
    let mut s = String::from("# unit cube\nmtllib cube.mtl\no cube\n");
    for [x, y, z] in CUBE_VERTICES {
        s += &format!("v {x} {y} {z}\n");
    }
    s += "vt 0 0\nvn 0 0 1\ng faces\ns off\n";
    for (i, q) in CUBE_QUADS.iter().enumerate() {
        let [a, b, c, d] = q.map(|v| v + 1);
        s += &match i {
            0 => format!("f {a} {b} {c} {d}\n"),
            1 => format!("f {a}/1 {b}/1 {c}/1 {d}/1\n"),
            2 => format!("f {a}//1 {b}//1 {c}//1 {d}//1 # comment\n"),
            3 => format!("f {a}/1/1 {b}/1/1 {c}/1/1 {d}/1/1\n"),
            // Negative: counted back from the 8 vertices read so far.
            _ => format!("f {} {} {} {}\n", a as i32 - 9, b as i32 - 9, c as i32 - 9, d as i32 - 9),
        };
    }
    s
}

fn cube_stl_ascii() -> String {
    let mut s = String::from("solid cube\n");
    for t in cube_soup() {
        s += "  facet normal 0 0 0\n    outer loop\n";
        for [x, y, z] in t {
            s += &format!("      vertex {x:e} {y:e} {z:e}\n");
        }
        s += "    endloop\n  endfacet\n";
    }
    s + "endsolid cube\n"
}

fn cube_stl_binary() -> Vec<u8> {
    let mut b = b"binary cube".to_vec();
    b.resize(80, 0);
    b.extend_from_slice(&12u32.to_le_bytes());
    for t in cube_soup() {
        b.extend_from_slice(&[0; 12]);
        for c in t.iter().flatten() {
            b.extend_from_slice(&(*c as f32).to_le_bytes());
        }
        b.extend_from_slice(&[0; 2]);
    }
    b
}

/// A PLY header with an extra vertex property, an extra face property and an extra element,
/// all of which the reader must skip.
fn ply_header(format: &str) -> String {
    format!(
        "ply\nformat {format} 1.0\ncomment made by hand\nelement vertex 8\nproperty double x\n\
         property uchar red\nproperty double y\nproperty float z\nelement face 6\n\
         property list uchar int vertex_indices\nproperty int flags\nelement edge 1\n\
         property int vertex1\nproperty list uchar short extra\nend_header\n"
    )
}

fn cube_ply_ascii() -> String {
    let mut s = ply_header("ascii");
    for [x, y, z] in CUBE_VERTICES {
        s += &format!("{x} 200 {y} {z}\n");
    }
    for [a, b, c, d] in CUBE_QUADS {
        s += &format!("4 {a} {b} {c} {d} 7\n");
    }
    s + "0 2 5 6\n"
}

fn cube_ply_binary() -> Vec<u8> {
    cube_ply_binary_endian(true)
}

fn cube_ply_binary_endian(little: bool) -> Vec<u8> {
    let format = if little { "binary_little_endian" } else { "binary_big_endian" };
    let mut b = ply_header(format).into_bytes();
    // Each value's little-endian bytes, reversed for big endian.
    let mut put = |mut bytes: Vec<u8>| {
        if !little {
            bytes.reverse();
        }
        b.extend_from_slice(&bytes);
    };
    for [x, y, z] in CUBE_VERTICES {
        put(x.to_le_bytes().to_vec());
        put(vec![200]);
        put(y.to_le_bytes().to_vec());
        put((z as f32).to_le_bytes().to_vec());
    }
    for q in CUBE_QUADS {
        put(vec![4]);
        for v in q {
            put((v as i32).to_le_bytes().to_vec());
        }
        put(7i32.to_le_bytes().to_vec());
    }
    put(0i32.to_le_bytes().to_vec());
    put(vec![2]);
    put(5i16.to_le_bytes().to_vec());
    put(6i16.to_le_bytes().to_vec());
    b
}

#[test]
fn every_surface_format_reads_the_same_cube() {
    let dir = temp_dir("cube");
    let files = [
        write(&dir, "cube.obj", cube_obj()),
        write(&dir, "cube.stl", cube_stl_ascii()),
        write(&dir, "cube_binary.STL", cube_stl_binary()),
        write(&dir, "cube.ply", cube_ply_ascii()),
        write(&dir, "cube_binary.Ply", cube_ply_binary()),
        write(&dir, "cube_big_endian.ply", cube_ply_binary_endian(false)),
    ];
    for path in &files {
        let mesh = read_surface(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(mesh.vertices.len(), 8, "{}", path.display());
        assert_eq!(mesh.triangles.len(), 12, "{}", path.display());
        assert!((mesh.volume() - 1.0).abs() < 1e-14, "{}", path.display());
        assert!((mesh.area() - 6.0).abs() < 1e-14, "{}", path.display());
        let checked = check_closed_mesh(mesh).unwrap();
        assert!(checked.repairs.is_empty() && checked.notes.is_empty(), "{:?}", checked);
    }
    // OBJ and PLY keep the file's vertex order and fan quads from their first corner.
    for path in [&files[0], &files[3], &files[4], &files[5]] {
        let mesh = read_surface(path).unwrap();
        assert_eq!(mesh.triangles, cube().triangles);
        assert_eq!(mesh.vertices, cube().vertices);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn surface_reader_errors_say_what_and_where() {
    let dir = temp_dir("surface-errors");
    let message =
        |name: &str, content: &[u8]| read_surface(&write(&dir, name, content)).unwrap_err().to_string();

    let m = message("cube.off", b"OFF\n");
    assert!(m.contains(".obj, .stl, .ply") && m.contains(".off"), "{m}");
    let m = message("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
    assert!(m.contains("line 4") && m.contains("vertex 4") && m.contains("only 3"), "{m}");
    let m = message("zero.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
    assert!(m.contains("line 4") && m.contains("`0`"), "{m}");
    let m = message("negative.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n");
    assert!(m.contains("line 4") && m.contains("`-4`"), "{m}");
    let m = message("nan.obj", b"v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n");
    assert!(m.contains("line 2") && m.contains("finite"), "{m}");
    let m = message("line.obj", b"v 0 0 0\nv 1 0 0\nf 1 2\n");
    assert!(m.contains("line 3") && m.contains("2 corners"), "{m}");
    let m = message("points.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    assert!(m.contains("no triangles"), "{m}");
    let m = message("quad.stl", b"solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\n");
    assert!(m.contains("line 8") && m.contains("4 vertices"), "{m}");
    let mut short = cube_stl_binary();
    short.truncate(300);
    let m = message("short.stl", &short);
    assert!(m.contains("12 triangles") && m.contains("684 bytes") && m.contains("300 bytes"), "{m}");
    let ply = cube_ply_ascii().replace("4 0 3 2 1 7", "4 0 3 2 9 7");
    let m = message("range.ply", ply.as_bytes());
    assert!(m.contains("face 0") && m.contains("vertex 9") && m.contains("counting from 0"), "{m}");
    let ply = cube_ply_ascii().replace("property double y", "property double why");
    let m = message("noy.ply", ply.as_bytes());
    assert!(m.contains("`y`"), "{m}");
    let ply = cube_ply_ascii().replace("1 200 0 0", "1 200 zero 0");
    let m = message("word.ply", ply.as_bytes());
    assert!(
        m.contains("vertex 1") && m.contains("`y`") && m.contains("zero") && m.contains("line 17"),
        "{m}"
    );
    let mut bin = cube_ply_binary();
    bin.truncate(bin.len() - 5);
    let m = message("cut.ply", &bin);
    assert!(m.contains("edge 0") && m.contains("truncated"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Validation and repair

fn problems(mesh: SurfaceMesh) -> Vec<String> {
    match check_closed_mesh(mesh) {
        Err(GeometryError::InvalidMesh { problems }) => problems,
        other => panic!("expected InvalidMesh, got {other:?}"),
    }
}

#[test]
fn an_open_cube_is_not_watertight() {
    let mut mesh = cube();
    mesh.triangles.drain(2..4); // the top face
    let found = problems(mesh.clone());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("not watertight: 4 boundary edges"), "{found:?}");
    assert!(found[0].contains("between vertices 4 (0, 0, 1) and 5 (1, 0, 1)"), "{found:?}");
    let message = check_closed_mesh(mesh).unwrap_err().to_string();
    assert!(message.contains("1 problem)") && message.contains("Repair the mesh"), "{message}");
}

#[test]
fn three_or_more_triangles_on_an_edge_are_non_manifold() {
    // A second cube touching the first along its edge x = 1, y = 1.
    let mut mesh = cube();
    let shifted: Vec<Point3> = mesh.vertices.iter().map(|p| p + Vector3::new(1.0, 1.0, 0.0)).collect();
    // Vertices 0 and 4 of the shifted cube are vertices 2 and 6 of the first.
    let mut map = Vec::new();
    for (i, p) in shifted.into_iter().enumerate() {
        map.push(match i {
            0 => 2,
            4 => 6,
            _ => {
                mesh.vertices.push(p);
                mesh.vertices.len() as u32 - 1
            }
        });
    }
    let second: Vec<[u32; 3]> = cube().triangles.iter().map(|t| t.map(|v| map[v as usize])).collect();
    mesh.triangles.extend(second);
    assert!((mesh.volume() - 2.0).abs() < 1e-14);
    let found = problems(mesh);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("non-manifold: 1 edge"), "{found:?}");
    assert!(
        found[0].contains("4 triangles on the edge between vertices 2 (1, 1, 0) and 6 (1, 1, 1)"),
        "{found:?}"
    );
}

#[test]
fn a_flipped_triangle_is_named() {
    let mut mesh = cube();
    mesh.triangles[5].swap(0, 1);
    let found = problems(mesh);
    assert_eq!(found.len(), 1, "{found:?}");
    let p = &found[0];
    assert!(p.starts_with("inconsistent orientation: 3 edges"), "{p}");
    assert!(p.contains("triangles 4 and 5 disagree on the orientation of edge"), "{p}");
    assert!(p.contains("reversing this triangle would make it consistent: triangle 5"), "{p}");
}

#[test]
fn an_inside_out_cube_is_flipped() {
    let mut mesh = cube();
    for t in &mut mesh.triangles {
        t.swap(1, 2);
    }
    assert!((mesh.volume() + 1.0).abs() < 1e-14);
    let checked = check_closed_mesh(mesh).unwrap();
    assert_eq!(checked.repairs.len(), 1, "{:?}", checked.repairs);
    assert!(
        checked.repairs[0].contains("inside-out") && checked.repairs[0].contains("flipped all 12 triangles")
    );
    assert!((checked.mesh.volume() - 1.0).abs() < 1e-14);
    assert_eq!(checked.mesh.triangles.len(), 12);
}

#[test]
fn duplicate_vertices_are_merged() {
    // A triangle soup (36 corners) with noise far below the merge tolerance (1e-9 × √3).
    let mut mesh = SurfaceMesh::default();
    for (i, t) in cube_soup().iter().enumerate() {
        let first = mesh.vertices.len() as u32;
        for (k, &[x, y, z]) in t.iter().enumerate() {
            let noise = 1e-13 * ((i * 3 + k) % 5) as f64;
            mesh.vertices.push(Point3::new(x + noise, y - noise, z));
        }
        mesh.triangles.push([first, first + 1, first + 2]);
    }
    // Plus one sliver triangle that merging collapses.
    mesh.vertices.push(Point3::new(1e-12, 0.0, 0.0));
    mesh.triangles.push([0, 36, 1]);
    let checked = check_closed_mesh(mesh).unwrap();
    assert_eq!(checked.mesh.vertices.len(), 8);
    assert_eq!(checked.mesh.triangles.len(), 12);
    assert!((checked.mesh.volume() - 1.0).abs() < 1e-12);
    assert_eq!(checked.repairs.len(), 2, "{:?}", checked.repairs);
    assert!(checked.repairs[0].starts_with("merged 29 duplicate vertices"), "{:?}", checked.repairs);
    assert!(checked.repairs[1].contains("dropped 1 triangle") && checked.repairs[1].contains("triangle 12"));
}

#[test]
fn a_zero_area_triangle_is_degenerate() {
    // Split the front face's bottom edge 0–1 at its midpoint m, and close the seam with the flat
    // triangle (0, 1, m): still closed, manifold and consistent, but with no area.
    let mut mesh = cube();
    mesh.vertices.push(Point3::new(0.5, 0.0, 0.0));
    let front = mesh.triangles.iter().position(|t| *t == [0, 1, 5]).unwrap();
    mesh.triangles[front] = [0, 8, 5];
    mesh.triangles.extend([[8, 1, 5], [0, 1, 8]]);
    let found = problems(mesh);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("degenerate: 1 triangle with zero area, triangle 13 (vertices 0, 1, 8)"),
        "{found:?}"
    );
}

#[test]
fn every_problem_is_listed_at_once() {
    let mut mesh = cube();
    mesh.triangles.drain(2..4);
    mesh.triangles[0].swap(0, 1);
    mesh.triangles.push([0, 0, 1]);
    let found = problems(mesh.clone());
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with("degenerate: 1 triangle") && found[0].contains("triangle 10"), "{found:?}");
    assert!(found[1].starts_with("not watertight: 4 boundary edges"), "{found:?}");
    assert!(found[2].contains("inconsistent orientation") && found[2].contains("triangle 0"), "{found:?}");
    let message = check_closed_mesh(mesh).unwrap_err().to_string();
    assert!(message.contains("3 problems") && message.matches("\n  - ").count() == 3, "{message}");
}

#[test]
fn non_orientable_and_disconnected_meshes() {
    // Two separate cubes: fine, with a note.
    let mut two = cube();
    let n = two.vertices.len() as u32;
    two.vertices.extend(cube().vertices.iter().map(|p| p + Vector3::new(3.0, 0.0, 0.0)));
    two.triangles.extend(cube().triangles.iter().map(|t| t.map(|v| v + n)));
    let checked = check_closed_mesh(two.clone()).unwrap();
    assert_eq!(checked.notes, vec!["it has 2 disconnected components".to_string()]);

    // A cube with a cube-shaped cavity (inner shell inward): a note, not an error.
    let mut hollow = cube();
    let inner: Vec<Point3> =
        cube().vertices.iter().map(|p| Point3::new(0.25, 0.25, 0.25) + p.coords * 0.5).collect();
    hollow.vertices.extend(inner);
    hollow.triangles.extend(cube().triangles.iter().map(|t| [t[0] + 8, t[2] + 8, t[1] + 8]));
    let checked = check_closed_mesh(hollow).unwrap();
    assert!(checked.repairs.is_empty());
    assert!(
        checked.notes.iter().any(|n| n.contains("1 component encloses negative volume")),
        "{:?}",
        checked.notes
    );

    // The 5-triangle Möbius strip: each triangle (i, i+1, i+2) disagrees with its neighbours
    // around an odd cycle, so no choice of flips makes it consistent.
    let mobius = SurfaceMesh {
        vertices: (0..5)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / 5.0;
                Point3::new(a.cos(), a.sin(), 0.3 * (i % 2) as f64)
            })
            .collect(),
        triangles: (0..5).map(|i| [i, (i + 1) % 5, (i + 2) % 5]).collect(),
    };
    let found = problems(mobius);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with("not watertight: 5 boundary edges"), "{found:?}");
    assert!(found[1].starts_with("inconsistent orientation: 5 edges") && !found[1].contains("reversing"));
    assert!(found[2].starts_with("cannot be oriented consistently: 1 component"), "{found:?}");

    // Out-of-range indices and non-finite vertices are errors, not panics.
    let mut bad = cube();
    bad.triangles[3] = [0, 1, 99];
    assert!(problems(bad)[0].contains("triangle 3 [0, 1, 99]"));
    let mut bad = cube();
    bad.vertices[2].y = f64::NAN;
    assert!(problems(bad)[0].contains("vertex 2"));
    assert!(problems(SurfaceMesh::default())[0].contains("no triangles"));
}

// ---------------------------------------------------------------------------------------------
// Tet meshes

/// Two tets sharing face B C D; the second listed with negative orientation where noted.
fn two_tets(negative_second: bool) -> TetMesh {
    let vertices = vec![
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
        Point3::new(1.0, 1.0, 1.0),
    ];
    let second = if negative_second { [1, 3, 2, 4] } else { [1, 2, 3, 4] };
    TetMesh { vertices, tets: vec![[0, 1, 2, 3], second] }
}

fn assert_positive(mesh: &TetMesh) {
    for t in 0..mesh.tets.len() {
        assert!(mesh.tet_volume(t) > 0.0, "tet {t} {:?}", mesh.tets[t]);
    }
}

#[test]
fn vtk_written_by_contactlab_reads_back() {
    let dir = temp_dir("vtk");
    let mesh = two_tets(false);
    let extent = [0.0, 0.1, 1.0 / 3.0, 0.7, 1.0];
    let pressure = extent.map(|e| 1e5 * e);
    let path = dir.join("mesh.vtk");
    write_tet_mesh_vtk(&path, &mesh.vertices, &mesh.tets, &[("extent", &extent), ("pressure", &pressure)])
        .unwrap();
    let file = read_tet_mesh(&path).unwrap();
    assert_eq!(file.mesh.vertices, mesh.vertices);
    assert_eq!(file.mesh.tets, mesh.tets);
    assert_eq!(file.extent.as_deref(), Some(&extent[..]));

    // Without point data there is no extent.
    write_tet_mesh_vtk(&path, &mesh.vertices, &mesh.tets, &[]).unwrap();
    assert!(read_tet_mesh(&path).unwrap().extent.is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vtk_from_other_tools_skips_other_cells_and_reorients() {
    let dir = temp_dir("vtk-other");
    // Legacy 3.0 with boundary triangles, a line, a vertex, an unused point, cell data and a field.
    let legacy = "# vtk DataFile Version 3.0\nfrom another mesher\nASCII\n\nDATASET UNSTRUCTURED_GRID\n\
        POINTS 6 float\n0 0 0  1 0 0  0 1 0\n0 0 1  1 1 1  9 9 9\n\
        CELLS 5 21\n4 0 1 2 3\n3 1 2 3\n2 0 1\n1 5\n4 1 3 2 4\n\
        CELL_TYPES 5\n10\n5\n3\n1\n10\n\
        CELL_DATA 5\nSCALARS region int 1\nLOOKUP_TABLE default\n1 2 3 4 5\n\
        POINT_DATA 6\nVECTORS velocity double\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
        FIELD FieldData 1\nids 1 6 int\n0 1 2 3 4 5\n\
        SCALARS extent double\nLOOKUP_TABLE default\n0 0.25 0.5 0.75 1 99\n";
    let file = read_tet_mesh(&write(&dir, "legacy.vtk", legacy)).unwrap();
    assert_eq!(file.mesh.tets.len(), 2);
    assert_eq!(file.mesh.vertices.len(), 5, "the unused point 5 is dropped");
    assert_positive(&file.mesh);
    assert!((file.mesh.volume() - 0.5).abs() < 1e-15);
    assert_eq!(file.extent, Some(vec![0.0, 0.25, 0.5, 0.75, 1.0]));

    // VTK 5.1 offsets and connectivity (as meshio writes).
    let modern = "# vtk DataFile Version 5.1\nmeshio\nASCII\nDATASET UNSTRUCTURED_GRID\n\
        POINTS 5 double\n0 0 0 1 0 0 0 1 0 0 0 1 1 1 1\n\
        CELLS 4 11\nOFFSETS vtktypeint64\n0 3 7 11\nCONNECTIVITY vtktypeint64\n1 2 3 0 1 2 3 1 3 2 4\n\
        CELL_TYPES 3\n5\n10\n10\n";
    let file = read_tet_mesh(&write(&dir, "modern.vtk", modern)).unwrap();
    assert_eq!(file.mesh.tets.len(), 2);
    assert_positive(&file.mesh);

    let flat = legacy.replace("0 0 1  1 1 1", "0.2 0.2 0  1 1 1");
    let m = read_tet_mesh(&write(&dir, "flat.vtk", flat)).unwrap_err().to_string();
    assert!(m.contains("1 tetrahedron has no volume: cell 0"), "{m}");
    let only_triangles = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n\
        POINTS 3 float\n0 0 0 1 0 0 0 1 0\nCELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n";
    let m = read_tet_mesh(&write(&dir, "tri.vtk", only_triangles)).unwrap_err().to_string();
    assert!(m.contains("no linear tetrahedra") && m.contains("type 5 ×1"), "{m}");
    let m = read_tet_mesh(&write(&dir, "range.vtk", legacy.replace("4 1 3 2 4", "4 1 3 2 6")))
        .unwrap_err()
        .to_string();
    assert!(m.contains("cell 4") && m.contains("there are 6"), "{m}");
    let m = read_tet_mesh(&write(&dir, "polydata.vtk", legacy.replace("UNSTRUCTURED_GRID", "POLYDATA")))
        .unwrap_err()
        .to_string();
    assert!(m.contains("line 5") && m.contains("POLYDATA"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const MSH22: &str = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n3 1 \"body\"\n$EndPhysicalNames\n\
$Nodes\n5\n10 0 0 0\n20 1 0 0\n35 0 1 0\n40 0 0 1\n99 1 1 1\n$EndNodes\n\
$Elements\n6\n1 15 2 0 1 10\n2 1 2 0 1 10 20\n3 2 2 0 1 20 35 40\n\
7 4 2 1 1 10 20 35 40\n9 4 2 1 1 20 40 35 99\n11 2 2 0 2 20 40 99\n$EndElements\n";

const MSH41: &str = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n\
$Entities\n1 0 0 1\n1 0 0 0 0\n1 0 0 0 1 1 1 0 0\n$EndEntities\n\
$Nodes\n2 5 3 99\n0 1 0 1\n3\n0 0 0\n3 1 0 4\n7\n12\n40\n99\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n$EndNodes\n\
$Elements\n3 5 1 5\n0 1 15 1\n1 3\n2 1 2 1\n2 7 12 40\n3 1 4 2\n4 3 7 12 40\n5 7 40 12 99\n$EndElements\n";

#[test]
fn gmsh_files_read_tets_only_with_mapped_tags() {
    let dir = temp_dir("msh");
    for (name, text) in [("v22.msh", MSH22), ("v41.MSH", MSH41)] {
        let file = read_tet_mesh(&write(&dir, name, text)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.mesh.tets.len(), 2, "{name}");
        assert_eq!(file.mesh.vertices.len(), 5, "{name}");
        assert_positive(&file.mesh);
        assert!((file.mesh.volume() - 0.5).abs() < 1e-15, "{name}");
        assert!(file.extent.is_none());
        // The first tet is positive as written, so it keeps its order.
        assert_eq!(file.mesh.tets[0], [0, 1, 2, 3], "{name}");
    }
    let m = read_tet_mesh(&write(&dir, "undefined.msh", MSH22.replace("20 40 35 99", "20 40 35 98")))
        .unwrap_err()
        .to_string();
    assert!(m.contains("element 9") && m.contains("node 98"), "{m}");
    let m =
        read_tet_mesh(&write(&dir, "v40.msh", MSH41.replace("4.1 0 8", "4 0 8"))).unwrap_err().to_string();
    assert!(m.contains("line 2") && m.contains("4.1 or 2.2"), "{m}");
    let m =
        read_tet_mesh(&write(&dir, "bin.msh", MSH41.replace("4.1 0 8", "4.1 1 8"))).unwrap_err().to_string();
    assert!(m.contains("binary"), "{m}");
    let m = read_tet_mesh(&write(&dir, "dup.msh", MSH22.replace("35 0 1 0", "20 0 1 0")))
        .unwrap_err()
        .to_string();
    assert!(m.contains("line 12") && m.contains("node tag 20 is used twice"), "{m}");
    let m = read_tet_mesh(&write(&dir, "count.msh", MSH22.replace("$Nodes\n5", "$Nodes\n4")))
        .unwrap_err()
        .to_string();
    assert!(m.contains("expected $EndNodes"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn msh_round_trip_is_exact() {
    let dir = temp_dir("msh-round-trip");
    let mut mesh = two_tets(false);
    mesh.vertices[4] = Point3::new(0.1 + 0.2, 1.0 / 3.0, 1e-300 + 1.0);
    let path = dir.join("out.msh");
    write_tet_mesh_msh(&path, &mesh).unwrap();
    let file = read_tet_mesh(&path).unwrap();
    assert_eq!(file.mesh.vertices, mesh.vertices);
    assert_eq!(file.mesh.tets, mesh.tets);

    let mut bad = mesh.clone();
    bad.tets[1][3] = 7;
    let m = write_tet_mesh_msh(&path, &bad).unwrap_err().to_string();
    assert!(m.contains("tet 1") && m.contains("out.msh"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Broken input: errors, never panics

/// A deterministic byte generator (xorshift).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect()
}

/// Parses `bytes` as a file named `name` (in memory: this machine's file writes are slow).
fn read_any(name: &str, bytes: &[u8]) -> Result<(), GeometryError> {
    let path = Path::new(name);
    if name.ends_with(".vtk") || name.ends_with(".msh") {
        read_tet_mesh_from(path, bytes).map(|_| ())
    } else {
        read_surface_from(path, bytes).map(|_| ())
    }
}

#[test]
fn truncated_files_are_errors_not_panics() {
    let dir = temp_dir("truncated");
    let vtk = dir.join("full.vtk");
    let mesh = two_tets(false);
    write_tet_mesh_vtk(&vtk, &mesh.vertices, &mesh.tets, &[("extent", &[0.0, 1.0, 2.0, 3.0, 4.0])]).unwrap();
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("cut.stl", cube_stl_binary()),
        ("cut.ply", cube_ply_binary()),
        ("cut.obj", cube_obj().into_bytes()),
        ("cut.stl", cube_stl_ascii().into_bytes()),
        ("cut.ply", cube_ply_ascii().into_bytes()),
        ("cut.vtk", std::fs::read(&vtk).unwrap()),
        ("cut.msh", MSH22.as_bytes().to_vec()),
        ("cut.msh", MSH41.as_bytes().to_vec()),
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    for (k, (name, bytes)) in files.iter().enumerate() {
        read_any(name, bytes).unwrap_or_else(|e| panic!("file {k} must be valid: {e}"));
        let mut errors = 0;
        for len in 0..bytes.len() {
            if let Err(e) = read_any(name, &bytes[..len]) {
                assert!(e.to_string().contains(name), "{e}");
                errors += 1;
            }
        }
        // The binary formats state their sizes, so every cut is caught; text cut at a line
        // end can still be a valid, smaller mesh.
        if k < 2 {
            assert_eq!(errors, bytes.len(), "file {k}");
        } else {
            assert!(errors > bytes.len() / 2, "file {k}: only {errors} of {} cuts caught", bytes.len());
        }
    }
}

#[test]
fn garbage_and_corrupt_files_are_errors_not_panics() {
    for ext in ["obj", "stl", "ply", "vtk", "msh"] {
        for seed in 0..50 {
            assert!(read_any(&format!("noise.{ext}"), &noise(seed, 700)).is_err(), "{ext} seed {seed}");
        }
    }
    // Every byte of each valid file overwritten in turn: never a panic.
    let files: [(&str, Vec<u8>); 5] = [
        ("c.ply", cube_ply_binary()),
        ("c.stl", cube_stl_binary()),
        ("c.ply", cube_ply_ascii().into_bytes()),
        ("c.msh", MSH41.as_bytes().to_vec()),
        ("c.msh", MSH22.as_bytes().to_vec()),
    ];
    for (name, bytes) in &files {
        for at in 0..bytes.len() {
            for value in [b'0', b'9', b'-', b' ', b'\n', 0x7f, 0xff] {
                let mut corrupt = bytes.clone();
                corrupt[at] = value;
                let _ = read_any(name, &corrupt);
            }
        }
    }
    // Huge counts must fail fast without allocating for them.
    let huge: [(&str, String); 7] = [
        ("h.ply", cube_ply_ascii().replace("element vertex 8", "element vertex 4000000000")),
        ("h.ply", String::from_utf8_lossy(&cube_ply_binary()).replace("element face 6", "element face 999999999999")),
        ("h.ply", cube_ply_ascii().replace("4 0 3 2 1 7", "255 0 3 2 1 7")),
        ("h.vtk", "# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 99999999999999 double\n0 0 0\n".into()),
        ("h.vtk", "# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 1 double\n0 0 0\nCELLS 1 5\n18446744073709551615 0\n".into()),
        ("h.msh", MSH22.replace("$Nodes\n5", "$Nodes\n18446744073709551615")),
        ("h.msh", MSH41.replace("$Elements\n3 5 1 5", "$Elements\n18446744073709551615 5 1 5")),
    ];
    for (k, (name, text)) in huge.iter().enumerate() {
        let e = read_any(name, text.as_bytes()).expect_err(&format!("huge case {k}"));
        assert!(!e.to_string().is_empty());
    }
    let mut stl = cube_stl_binary();
    stl[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    let m = read_any("h.stl", &stl).unwrap_err().to_string();
    assert!(m.contains("4294967295 triangles"), "{m}");
}
