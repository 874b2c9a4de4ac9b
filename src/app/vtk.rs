//! Legacy ASCII VTK writers (readable by ParaView and VisIt).

use super::OutputError;
use crate::contact::surface::ContactSurface;
use crate::math::{Point3, Vector3};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// VTK cell type of a linear tetrahedron.
const VTK_TETRA: u32 = 10;

/// Writes a tetrahedral mesh as an `UNSTRUCTURED_GRID` with one scalar point-data array per entry
/// of `point_data` (each must have one value per vertex).
pub fn write_tet_mesh_vtk(
    path: &Path,
    vertices_world: &[Point3],
    tets: &[[u32; 4]],
    point_data: &[(&str, &[f64])],
) -> Result<(), OutputError> {
    check_indices(path, vertices_world.len(), tets.iter().flatten(), "tet")?;
    for (name, values) in point_data {
        if values.len() != vertices_world.len() {
            return Err(bad(
                path,
                format!(
                    "point data '{name}' has {} values but the mesh has {} vertices",
                    values.len(),
                    vertices_world.len()
                ),
                "give one value per vertex",
            ));
        }
    }
    write_file(path, |w| {
        header(w, "contactlab tet mesh", "UNSTRUCTURED_GRID")?;
        points(w, vertices_world.len(), vertices_world.iter())?;
        writeln!(w, "CELLS {} {}", tets.len(), 5 * tets.len())?;
        for [a, b, c, d] in tets {
            writeln!(w, "4 {a} {b} {c} {d}")?;
        }
        writeln!(w, "CELL_TYPES {}", tets.len())?;
        for _ in tets {
            writeln!(w, "{VTK_TETRA}")?;
        }
        if !point_data.is_empty() {
            writeln!(w, "POINT_DATA {}", vertices_world.len())?;
            for (name, values) in point_data {
                scalars(w, name, values.iter().copied())?;
            }
        }
        Ok(())
    })
}

/// Writes a triangle surface as `POLYDATA`.
pub fn write_surface_vtk(
    path: &Path,
    vertices: &[Point3],
    triangles: &[[u32; 3]],
) -> Result<(), OutputError> {
    check_indices(path, vertices.len(), triangles.iter().flatten(), "triangle")?;
    write_file(path, |w| {
        header(w, "contactlab surface", "POLYDATA")?;
        points(w, vertices.len(), vertices.iter())?;
        writeln!(w, "POLYGONS {} {}", triangles.len(), 4 * triangles.len())?;
        for [a, b, c] in triangles {
            writeln!(w, "3 {a} {b} {c}")?;
        }
        Ok(())
    })
}

/// Writes a contact surface as `POLYDATA`: each polygon with its own vertices, point data
/// `pressure` (Pa) and cell data `normal`.
pub fn write_contact_surface_vtk(path: &Path, surface: &ContactSurface) -> Result<(), OutputError> {
    check_pressures(path, surface)?;
    let polys = &surface.polygons;
    let n_points: usize = polys.iter().map(|p| p.vertices.len()).sum();
    write_file(path, |w| {
        header(w, "contactlab contact surface", "POLYDATA")?;
        points(w, n_points, polys.iter().flat_map(|p| p.vertices.iter()))?;
        writeln!(w, "POLYGONS {} {}", polys.len(), polys.len() + n_points)?;
        let mut first = 0;
        for p in polys {
            write!(w, "{}", p.vertices.len())?;
            for k in first..first + p.vertices.len() {
                write!(w, " {k}")?;
            }
            writeln!(w)?;
            first += p.vertices.len();
        }
        writeln!(w, "POINT_DATA {n_points}")?;
        scalars(w, "pressure", polys.iter().flat_map(|p| p.pressure.iter().copied()))?;
        writeln!(w, "CELL_DATA {}", polys.len())?;
        writeln!(w, "NORMALS normal double")?;
        for p in polys {
            vector(w, &p.normal)?;
        }
        Ok(())
    })
}

/// Every contact polygon has one pressure per vertex.
pub(super) fn check_pressures(path: &Path, surface: &ContactSurface) -> Result<(), OutputError> {
    for (i, p) in surface.polygons.iter().enumerate() {
        if p.pressure.len() != p.vertices.len() {
            return Err(bad(
                path,
                format!(
                    "contact polygon {i} has {} vertices but {} pressures",
                    p.vertices.len(),
                    p.pressure.len()
                ),
                "give one pressure per polygon vertex",
            ));
        }
    }
    Ok(())
}

pub(super) fn bad(path: &Path, problem: String, fix: &str) -> OutputError {
    OutputError::BadInput { path: path.to_path_buf(), problem, fix: fix.into() }
}

/// Every index is below `n` (a bad index would write a file VTK readers crash on).
pub(super) fn check_indices<'a>(
    path: &Path,
    n: usize,
    indices: impl Iterator<Item = &'a u32>,
    what: &str,
) -> Result<(), OutputError> {
    match indices.copied().find(|&i| i as usize >= n) {
        Some(i) => Err(bad(
            path,
            format!("a {what} refers to vertex {i} but there are only {n} vertices"),
            "pass the vertex array the elements index into",
        )),
        None => Ok(()),
    }
}

/// Creates `path`, lets `body` write it buffered, flushes, and names the file in any error.
pub(super) fn write_file(
    path: &Path,
    body: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let mut w = BufWriter::new(File::create(path).map_err(OutputError::io(path))?);
    body(&mut w).and_then(|()| w.flush()).map_err(OutputError::io(path))
}

fn header(w: &mut impl Write, title: &str, dataset: &str) -> std::io::Result<()> {
    writeln!(w, "# vtk DataFile Version 3.0\n{title}\nASCII\nDATASET {dataset}")
}

fn points<'a>(
    w: &mut impl Write,
    count: usize,
    points: impl Iterator<Item = &'a Point3>,
) -> std::io::Result<()> {
    writeln!(w, "POINTS {count} double")?;
    for p in points {
        vector(w, &p.coords)?;
    }
    Ok(())
}

fn vector(w: &mut impl Write, v: &Vector3) -> std::io::Result<()> {
    writeln!(w, "{} {} {}", v.x, v.y, v.z)
}

/// A scalar array. VTK names cannot contain spaces, so they are replaced.
fn scalars(w: &mut impl Write, name: &str, values: impl Iterator<Item = f64>) -> std::io::Result<()> {
    let name: String = name.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
    writeln!(w, "SCALARS {name} double 1\nLOOKUP_TABLE default")?;
    for v in values {
        writeln!(w, "{v}")?;
    }
    Ok(())
}
