//! Time series for ParaView: one XML unstructured-grid file (`.vtu`) per object per frame, and a
//! `.pvd` collection per kind of object listing every file with its time.

use super::OutputError;
use super::number::Shortest;
use super::vtk::{check_indices, check_pressures, write_file};
use crate::contact::surface::ContactSurface;
use crate::math::Point3;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// VTK cell types.
const VTK_TRIANGLE: u8 = 5;
const VTK_POLYGON: u8 = 7;
const VTK_TETRA: u8 = 10;
/// Longest object name kept in a file name (the part index keeps names unique anyway).
const MAX_NAME_IN_FILE: usize = 40;

/// The cells of a body mesh, indexing its vertex array.
#[derive(Clone, Copy, Debug)]
pub enum MeshCells<'a> {
    Triangles(&'a [[u32; 3]]),
    Tets(&'a [[u32; 4]]),
}

/// A body mesh posed in the world at one frame.
#[derive(Clone, Copy, Debug)]
pub struct BodyFrame<'a> {
    pub name: &'a str,
    /// World-frame vertex positions.
    pub vertices: &'a [Point3],
    pub cells: MeshCells<'a>,
}

/// The contact surface of pair (`a`, `b`) at one frame.
#[derive(Clone, Copy, Debug)]
pub struct ContactFrame<'a> {
    pub a: &'a str,
    pub b: &'a str,
    pub surface: &'a ContactSurface,
}

/// Writes `bodies.pvd` and `contacts.pvd` with their frame files in one folder.
///
/// Each object keeps one `part` number for the whole series (in order of first appearance), so
/// ParaView shows it as the same block at every time; a pair left out of a frame is simply
/// absent then. The collections are valid on disk after every frame, so an interrupted run can
/// still be opened.
#[derive(Debug)]
pub struct VtkSeries {
    dir: PathBuf,
    frame: usize,
    bodies: Collection,
    contacts: Collection,
}

impl VtkSeries {
    /// Creates `dir` (and missing parents) and empty `bodies.pvd` and `contacts.pvd` in it.
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        std::fs::create_dir_all(dir).map_err(OutputError::io(dir))?;
        Ok(Self {
            dir: dir.to_path_buf(),
            frame: 0,
            bodies: Collection::create(dir.join("bodies.pvd"))?,
            contacts: Collection::create(dir.join("contacts.pvd"))?,
        })
    }

    /// Number of frames written so far.
    pub fn frames(&self) -> usize {
        self.frame
    }

    /// Writes one frame at time `t`: a file per body and per contact pair, then adds them to the
    /// collections. Inputs are checked before anything is written, so a bad frame leaves the
    /// series as it was.
    pub fn write_frame(
        &mut self,
        t: f64,
        bodies: &[BodyFrame],
        contacts: &[ContactFrame],
    ) -> Result<(), OutputError> {
        let body_files = self.bodies.files("body", bodies.iter().map(|b| b.name.to_owned()), self.frame);
        let pair_names = contacts.iter().map(|c| format!("{}-{}", c.a, c.b));
        let contact_files = self.contacts.files("contact", pair_names, self.frame);
        for (body, (_, file)) in bodies.iter().zip(&body_files) {
            check_body(&self.dir.join(file), body)?;
        }
        for (pair, (_, file)) in contacts.iter().zip(&contact_files) {
            check_pressures(&self.dir.join(file), pair.surface)?;
        }
        for (body, (_, file)) in bodies.iter().zip(&body_files) {
            write_body_vtu(&self.dir.join(file), body)?;
        }
        for (pair, (_, file)) in contacts.iter().zip(&contact_files) {
            write_contact_vtu(&self.dir.join(file), pair.surface)?;
        }
        self.bodies.append(t, &body_files)?;
        self.contacts.append(t, &contact_files)?;
        self.frame += 1;
        Ok(())
    }
}

/// A `.pvd` file kept valid on disk: new entries overwrite the closing tags, which are then
/// written again after them, so each frame costs only its own entries.
#[derive(Debug)]
struct Collection {
    path: PathBuf,
    file: File,
    /// Byte offset of the closing tags.
    footer_at: u64,
    /// Part number of each object name and its repeat index within a frame, numbered in order of
    /// first appearance.
    parts: HashMap<(String, usize), usize>,
}

const PVD_HEADER: &str =
    "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
const PVD_FOOTER: &str = "  </Collection>\n</VTKFile>\n";

impl Collection {
    fn create(path: PathBuf) -> Result<Self, OutputError> {
        let mut file = File::create(&path).map_err(OutputError::io(&path))?;
        file.write_all(format!("{PVD_HEADER}{PVD_FOOTER}").as_bytes()).map_err(OutputError::io(&path))?;
        Ok(Self { path, file, footer_at: PVD_HEADER.len() as u64, parts: HashMap::new() })
    }

    /// The part number and frame file name of each object. A name repeated within one frame
    /// gets a part of its own, so no file of the frame overwrites another.
    fn files(
        &mut self,
        kind: &str,
        names: impl Iterator<Item = String>,
        frame: usize,
    ) -> Vec<(usize, String)> {
        let mut repeats: HashMap<String, usize> = HashMap::new();
        names
            .map(|name| {
                let repeat = repeats.entry(name.clone()).or_default();
                let key = (name, *repeat);
                *repeat += 1;
                let next = self.parts.len();
                let part = *self.parts.entry(key.clone()).or_insert(next);
                (part, format!("{}.vtu", file_stem(kind, part, &key.0, frame)))
            })
            .collect()
    }

    fn append(&mut self, t: f64, files: &[(usize, String)]) -> Result<(), OutputError> {
        let mut entries = String::new();
        for (part, file) in files {
            // File names come from `file_stem`, so they need no XML escaping.
            entries += &format!(
                "    <DataSet timestep=\"{}\" group=\"\" part=\"{part}\" file=\"{file}\"/>\n",
                Shortest(t)
            );
        }
        let io = OutputError::io(&self.path);
        self.file
            .seek(SeekFrom::Start(self.footer_at))
            .and_then(|_| self.file.write_all(format!("{entries}{PVD_FOOTER}").as_bytes()))
            .map_err(io)?;
        self.footer_at += entries.len() as u64;
        Ok(())
    }
}

/// `{kind}{part:03}_{name}_{frame:06}` with the name reduced to characters safe in file names
/// and XML on every platform.
fn file_stem(kind: &str, part: usize, name: &str, frame: usize) -> String {
    let safe: String = name
        .chars()
        .take(MAX_NAME_IN_FILE)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect();
    format!("{kind}{part:03}_{safe}_{frame:06}")
}

fn check_body(path: &Path, body: &BodyFrame) -> Result<(), OutputError> {
    let n = body.vertices.len();
    match body.cells {
        MeshCells::Triangles(t) => check_indices(path, n, t.iter().flatten(), "triangle"),
        MeshCells::Tets(t) => check_indices(path, n, t.iter().flatten(), "tet"),
    }
}

fn write_body_vtu(path: &Path, body: &BodyFrame) -> Result<(), OutputError> {
    let (n_cells, per_cell, cell_type) = match body.cells {
        MeshCells::Triangles(t) => (t.len(), 3, VTK_TRIANGLE),
        MeshCells::Tets(t) => (t.len(), 4, VTK_TETRA),
    };
    write_file(path, |w| {
        begin_piece(w, body.vertices.len(), n_cells)?;
        points(w, body.vertices.iter())?;
        writeln!(w, "      <Cells>")?;
        begin_array(w, "Int64", "connectivity", 1)?;
        match body.cells {
            MeshCells::Triangles(t) => t.iter().try_for_each(|[a, b, c]| writeln!(w, "{a} {b} {c}"))?,
            MeshCells::Tets(t) => t.iter().try_for_each(|[a, b, c, d]| writeln!(w, "{a} {b} {c} {d}"))?,
        }
        end_array(w)?;
        begin_array(w, "Int64", "offsets", 1)?;
        (1..=n_cells).try_for_each(|i| writeln!(w, "{}", i * per_cell))?;
        end_array(w)?;
        uniform_types(w, n_cells, cell_type)?;
        writeln!(w, "      </Cells>")?;
        end_piece(w)
    })
}

/// Each polygon with its own vertices, point data `pressure` (Pa) and cell data `normal`.
fn write_contact_vtu(path: &Path, surface: &ContactSurface) -> Result<(), OutputError> {
    let polys = &surface.polygons;
    let n_points: usize = polys.iter().map(|p| p.vertices.len()).sum();
    write_file(path, |w| {
        begin_piece(w, n_points, polys.len())?;
        writeln!(w, "      <PointData Scalars=\"pressure\">")?;
        begin_array(w, "Float64", "pressure", 1)?;
        polys.iter().flat_map(|p| &p.pressure).try_for_each(|p| writeln!(w, "{}", Shortest(*p)))?;
        end_array(w)?;
        writeln!(w, "      </PointData>\n      <CellData Normals=\"normal\">")?;
        begin_array(w, "Float64", "normal", 3)?;
        polys.iter().try_for_each(|p| {
            let n = &p.normal;
            writeln!(w, "{} {} {}", Shortest(n.x), Shortest(n.y), Shortest(n.z))
        })?;
        end_array(w)?;
        writeln!(w, "      </CellData>")?;
        points(w, polys.iter().flat_map(|p| &p.vertices))?;
        writeln!(w, "      <Cells>")?;
        begin_array(w, "Int64", "connectivity", 1)?;
        let mut first = 0;
        for p in polys {
            let ids = first..first + p.vertices.len();
            ids.clone().try_for_each(|k| write!(w, "{}{k}", if k > first { " " } else { "" }))?;
            writeln!(w)?;
            first = ids.end;
        }
        end_array(w)?;
        begin_array(w, "Int64", "offsets", 1)?;
        let mut end = 0;
        for p in polys {
            end += p.vertices.len();
            writeln!(w, "{end}")?;
        }
        end_array(w)?;
        uniform_types(w, polys.len(), VTK_POLYGON)?;
        writeln!(w, "      </Cells>")?;
        end_piece(w)
    })
}

fn begin_piece(w: &mut impl Write, n_points: usize, n_cells: usize) -> std::io::Result<()> {
    writeln!(
        w,
        "<?xml version=\"1.0\"?>\n\
         <VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" \
         header_type=\"UInt64\">\n  <UnstructuredGrid>\n    \
         <Piece NumberOfPoints=\"{n_points}\" NumberOfCells=\"{n_cells}\">"
    )
}

fn end_piece(w: &mut impl Write) -> std::io::Result<()> {
    writeln!(w, "    </Piece>\n  </UnstructuredGrid>\n</VTKFile>")
}

fn begin_array(w: &mut impl Write, ty: &str, name: &str, components: usize) -> std::io::Result<()> {
    writeln!(
        w,
        "        <DataArray type=\"{ty}\" Name=\"{name}\" NumberOfComponents=\"{components}\" \
         format=\"ascii\">"
    )
}

fn end_array(w: &mut impl Write) -> std::io::Result<()> {
    writeln!(w, "        </DataArray>")
}

fn points<'a>(w: &mut impl Write, points: impl Iterator<Item = &'a Point3>) -> std::io::Result<()> {
    writeln!(w, "      <Points>")?;
    begin_array(w, "Float64", "Points", 3)?;
    for p in points {
        writeln!(w, "{} {} {}", Shortest(p.x), Shortest(p.y), Shortest(p.z))?;
    }
    end_array(w)?;
    writeln!(w, "      </Points>")
}

fn uniform_types(w: &mut impl Write, n_cells: usize, cell_type: u8) -> std::io::Result<()> {
    begin_array(w, "UInt8", "types", 1)?;
    (0..n_cells).try_for_each(|_| writeln!(w, "{cell_type}"))?;
    end_array(w)
}
