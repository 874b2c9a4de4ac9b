//! Output writers: VTK text structure and PNG heat maps decoded back.

use contactlab::app::{
    OutputError, viridis, write_contact_surface_vtk, write_pressure_png, write_surface_vtk,
    write_tet_mesh_vtk,
};
use contactlab::contact::pressure_field::{ContactPolygon, ContactSurface};
use contactlab::math::{Point3, Vector3};
use std::path::PathBuf;

/// A fresh file path in a per-test temporary folder.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn p(x: f64, y: f64, z: f64) -> Point3 {
    Point3::new(x, y, z)
}

/// Lines of `text` equal to `line`.
fn count(text: &str, line: &str) -> usize {
    text.lines().filter(|l| *l == line).count()
}

#[test]
fn tet_mesh_vtk_has_counts_cell_types_and_point_data() {
    let vertices = [p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.), p(0., 0., 1.), p(1., 1., 1.)];
    let tets = [[0, 1, 2, 3], [1, 2, 3, 4]];
    let extent = [0.0, 0.0, 0.0, 0.5, 1.0];
    let pressure = [0.0, 0.0, 0.0, 5e4, 1e5];
    let path = temp("two_tets.vtk");
    write_tet_mesh_vtk(&path, &vertices, &tets, &[("extent", &extent), ("pressure", &pressure)]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# vtk DataFile Version 3.0");
    assert_eq!(lines[2], "ASCII");
    assert_eq!(lines[3], "DATASET UNSTRUCTURED_GRID");
    assert_eq!(lines[4], "POINTS 5 double");
    assert_eq!(lines[9], "1 1 1");
    assert_eq!(lines[10], "CELLS 2 10");
    assert_eq!(lines[11], "4 0 1 2 3");
    assert_eq!(lines[12], "4 1 2 3 4");
    assert_eq!(lines[13], "CELL_TYPES 2");
    assert_eq!(&lines[14..16], ["10", "10"]);
    assert_eq!(lines[16], "POINT_DATA 5");
    assert_eq!(count(&text, "SCALARS extent double 1"), 1);
    assert_eq!(count(&text, "SCALARS pressure double 1"), 1);
    assert_eq!(count(&text, "LOOKUP_TABLE default"), 2);
    assert_eq!(lines.last(), Some(&"100000"));
}

#[test]
fn tet_mesh_vtk_rejects_inconsistent_input() {
    let vertices = [p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.), p(0., 0., 1.)];
    let path = temp("bad.vtk");
    let err = write_tet_mesh_vtk(&path, &vertices, &[[0, 1, 2, 4]], &[]).unwrap_err();
    assert!(matches!(err, OutputError::BadInput { .. }));
    assert!(err.to_string().contains("vertex 4"), "{err}");
    let err = write_tet_mesh_vtk(&path, &vertices, &[[0, 1, 2, 3]], &[("extent", &[0.0; 3])]).unwrap_err();
    assert!(err.to_string().contains("'extent' has 3 values"), "{err}");
    let missing = PathBuf::from("/no/such/folder/mesh.vtk");
    let err = write_tet_mesh_vtk(&missing, &vertices, &[[0, 1, 2, 3]], &[]).unwrap_err();
    assert!(matches!(err, OutputError::Io { .. }));
    assert!(err.to_string().contains("/no/such/folder/mesh.vtk"), "{err}");
}

#[test]
fn surface_vtk_is_polydata_with_triangles() {
    let vertices = [p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.), p(0., 0., 1.)];
    let triangles = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let path = temp("tet_surface.vtk");
    write_surface_vtk(&path, &vertices, &triangles).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(count(&text, "DATASET POLYDATA"), 1);
    assert_eq!(count(&text, "POINTS 4 double"), 1);
    assert_eq!(count(&text, "POLYGONS 4 16"), 1);
    assert_eq!(count(&text, "3 1 2 3"), 1);
}

#[test]
fn contact_surface_vtk_has_pressure_and_normals() {
    let n = Vector3::z();
    let surface = ContactSurface {
        polygons: vec![
            ContactPolygon {
                vertices: vec![p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.)],
                pressure: vec![1.0, 2.0, 3.0],
                normal: n,
            },
            ContactPolygon {
                vertices: vec![p(1., 0., 0.), p(2., 0., 0.), p(2., 1., 0.), p(1., 1., 0.)],
                pressure: vec![4.0, 5.0, 6.0, 7.0],
                normal: n,
            },
        ],
    };
    let path = temp("contact.vtk");
    write_contact_surface_vtk(&path, &surface).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    for line in [
        "POINTS 7 double",
        "POLYGONS 2 9",
        "3 0 1 2",
        "4 3 4 5 6",
        "POINT_DATA 7",
        "SCALARS pressure double 1",
        "CELL_DATA 2",
        "NORMALS normal double",
    ] {
        assert_eq!(count(&text, line), 1, "missing {line:?} in\n{text}");
    }
    assert_eq!(count(&text, "0 0 1"), 2);
}

/// The unit square in z = 0 as a grid of quads, normal +z, pressure = `p_max · x`.
fn ramp_square(p_max: f64) -> ContactSurface {
    let k = 4;
    let h = 1.0 / k as f64;
    let mut polygons = Vec::new();
    for i in 0..k {
        for j in 0..k {
            let (x, y) = (i as f64 * h, j as f64 * h);
            let vertices = vec![p(x, y, 0.), p(x + h, y, 0.), p(x + h, y + h, 0.), p(x, y + h, 0.)];
            let pressure = vertices.iter().map(|v| p_max * v.x).collect();
            polygons.push(ContactPolygon { vertices, pressure, normal: Vector3::z() });
        }
    }
    ContactSurface { polygons }
}

struct Decoded {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Decoded {
    fn read(path: &std::path::Path) -> Self {
        let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buf.truncate(info.buffer_size());
        Self { width: info.width as usize, height: info.height as usize, rgb: buf }
    }

    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Pixels that are neither white nor grey (heat-map colours), along a row or column.
    fn heat(&self, pixels: impl Iterator<Item = (usize, usize)>) -> Vec<(usize, usize, [u8; 3])> {
        pixels
            .map(|(x, y)| (x, y, self.at(x, y)))
            .filter(|(_, _, c)| !(c[0] == c[1] && c[1] == c[2]))
            .collect()
    }
}

fn close(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    a.iter().zip(b).all(|(&a, b)| (a as i32 - b as i32).abs() <= tol)
}

#[test]
fn pressure_png_colours_follow_the_pressure_ramp() {
    let surface = ramp_square(1e5);
    let path = temp("ramp.png");
    write_pressure_png(&path, &[("ball-floor".into(), &surface)], 400).unwrap();
    let img = Decoded::read(&path);
    assert_eq!(img.width, 400);
    assert!(img.height > 400 && img.height < 520, "height {}", img.height);

    // One square panel centred at (200, 200): the square spans its middle row and column.
    let row = img.heat((0..img.width).map(|x| (x, 200)));
    let col = img.heat((0..400).map(|y| (200, y)));
    assert!(row.len() > 300, "square drawn {} px wide", row.len());
    assert!(row.len().abs_diff(col.len()) <= 2, "aspect: {} x {}", row.len(), col.len());

    // x grows to the right (seen along +z): low pressure (dark purple) left, high (yellow) right.
    let (left, right) = (row[0].2, row[row.len() - 1].2);
    assert!(close(left, viridis(0.0), 12), "left {left:?}");
    assert!(close(right, viridis(1.0), 12), "right {right:?}");
    assert!(left[2] > left[1] && right[0] > right[2] && right[1] > right[2]);
    // Viridis' green rises monotonically, so along the ramp it must never fall.
    assert!(row.windows(2).all(|w| w[1].2[1] >= w[0].2[1]), "green not monotonic along x");
    // Along y the pressure is constant: the colour too.
    assert!(col.iter().all(|c| close(c.2, col[0].2, 1)), "colour varies along y");
    // The colour at the midpoint of the square matches the middle of the map.
    let mid = row[row.len() / 2].2;
    assert!(close(mid, viridis(0.5), 12), "mid {mid:?}");
}

#[test]
fn pressure_png_panels_side_by_side_with_empty_grey_and_colour_bar() {
    let surface = ramp_square(2e5);
    let empty = ContactSurface::default();
    let path = temp("two_panels.png");
    write_pressure_png(&path, &[("a-b".into(), &surface), ("c-d".into(), &empty)], 600).unwrap();
    let img = Decoded::read(&path);
    assert_eq!(img.width, 600);
    // Panels are about 290 px square: the first is centred near x = 150, the second near 450.
    let left = img.heat((0..300).map(|x| (x, 150)));
    assert!(left.len() > 200);
    let grey = img.at(450, 150);
    assert!(grey[0] == grey[1] && grey[1] == grey[2] && grey[0] < 255, "empty panel {grey:?}");
    // The colour bar runs low → high from left to right below the panels.
    let bar_row = (300..img.height)
        .find(|&y| img.heat((0..img.width).map(|x| (x, y))).len() > 500)
        .expect("a colour bar below the panels");
    let bar = img.heat((0..img.width).map(|x| (x, bar_row + 2)));
    assert!(close(bar[0].2, viridis(0.0), 8) && close(bar[bar.len() - 1].2, viridis(1.0), 8));
}

#[test]
fn pressure_png_rejects_impossible_width() {
    let surface = ramp_square(1.0);
    let err = write_pressure_png(&temp("narrow.png"), &[("x".into(), &surface)], 10).unwrap_err();
    assert!(matches!(err, OutputError::BadInput { .. }));
    assert!(err.to_string().contains("10 px"), "{err}");
}
