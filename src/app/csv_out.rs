//! Streaming CSV histories written by `simulate`: `trajectory.csv`, `energy.csv` and
//! `contacts.csv`, with the headers fixed by the command-line contract.

use super::OutputError;
use super::number::Shortest;
use crate::math::{Isometry3, Twist, Wrench};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Columns of `trajectory.csv`: pose (quaternion `w, x, y, z`) and world-frame twist per body.
pub const TRAJECTORY_COLUMNS: [&str; 15] =
    ["t", "body", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];
/// Columns of `energy.csv`.
pub const ENERGY_COLUMNS: [&str; 6] = ["t", "kinetic", "gravity", "elastic", "dissipated", "total"];
/// Columns of `contacts.csv`: the wrench on body `a`, torque about the world origin.
pub const CONTACT_COLUMNS: [&str; 10] = ["t", "a", "b", "fx", "fy", "fz", "tx", "ty", "tz", "area"];

/// One row of `energy.csv` (J). The caller defines `total` (the simulator's conserved sum), so
/// the file states what was checked rather than what this writer guesses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EnergyRow {
    pub kinetic: f64,
    pub gravity: f64,
    pub elastic: f64,
    pub dissipated: f64,
    pub total: f64,
}

/// The three CSV histories of a simulation in one folder.
///
/// Rows are buffered. They reach the disk when a buffer fills, on [`SimWriter::finish`] (which
/// reports write errors) and when the writer is dropped, so rows written before a failure are
/// kept. Numbers are shortest round-trip decimals: parsing them gives back the same `f64`.
#[derive(Debug)]
pub struct SimWriter {
    trajectory: CsvFile,
    energy: CsvFile,
    contacts: CsvFile,
}

impl SimWriter {
    /// Creates `dir` (and missing parents) and the three files, each with its header.
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        std::fs::create_dir_all(dir).map_err(OutputError::io(dir))?;
        Ok(Self {
            trajectory: CsvFile::create(&dir.join("trajectory.csv"), &TRAJECTORY_COLUMNS)?,
            energy: CsvFile::create(&dir.join("energy.csv"), &ENERGY_COLUMNS)?,
            contacts: CsvFile::create(&dir.join("contacts.csv"), &CONTACT_COLUMNS)?,
        })
    }

    /// Appends the state of body `name` at time `t` to `trajectory.csv`.
    pub fn body(
        &mut self,
        t: f64,
        name: &str,
        pose: &Isometry3,
        velocity: &Twist,
    ) -> Result<(), OutputError> {
        let p = &pose.translation.vector;
        let q = pose.rotation.quaternion();
        let (v, w) = (&velocity.linear, &velocity.angular);
        self.trajectory.row(&[
            Field::Num(t),
            Field::Text(name),
            Field::Num(p.x),
            Field::Num(p.y),
            Field::Num(p.z),
            Field::Num(q.w),
            Field::Num(q.i),
            Field::Num(q.j),
            Field::Num(q.k),
            Field::Num(v.x),
            Field::Num(v.y),
            Field::Num(v.z),
            Field::Num(w.x),
            Field::Num(w.y),
            Field::Num(w.z),
        ])
    }

    /// Appends the energy budget at time `t` to `energy.csv`.
    pub fn energy(&mut self, t: f64, e: &EnergyRow) -> Result<(), OutputError> {
        self.energy.row(&[
            Field::Num(t),
            Field::Num(e.kinetic),
            Field::Num(e.gravity),
            Field::Num(e.elastic),
            Field::Num(e.dissipated),
            Field::Num(e.total),
        ])
    }

    /// Appends the contact of pair (`a`, `b`) at time `t` to `contacts.csv`: `wrench` acts on `a`
    /// (torque about the world origin); `area` is left empty when the model has none.
    pub fn contact(
        &mut self,
        t: f64,
        a: &str,
        b: &str,
        wrench: &Wrench,
        area: Option<f64>,
    ) -> Result<(), OutputError> {
        let (f, m) = (&wrench.force, &wrench.torque);
        self.contacts.row(&[
            Field::Num(t),
            Field::Text(a),
            Field::Text(b),
            Field::Num(f.x),
            Field::Num(f.y),
            Field::Num(f.z),
            Field::Num(m.x),
            Field::Num(m.y),
            Field::Num(m.z),
            area.map_or(Field::Empty, Field::Num),
        ])
    }

    /// Writes what is buffered of all three files to disk, reporting the first error.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        let results = [self.trajectory.flush(), self.energy.flush(), self.contacts.flush()];
        results.into_iter().collect()
    }

    /// Flushes all three files, reporting the first write error.
    pub fn finish(mut self) -> Result<(), OutputError> {
        let results = [self.trajectory.flush(), self.energy.flush(), self.contacts.flush()];
        results.into_iter().collect()
    }
}

/// One CSV cell.
#[derive(Clone, Copy, Debug)]
enum Field<'a> {
    Num(f64),
    Text(&'a str),
    Empty,
}

/// A buffered CSV file; `BufWriter` flushes what is left when it is dropped.
#[derive(Debug)]
struct CsvFile {
    path: PathBuf,
    out: BufWriter<File>,
}

impl CsvFile {
    fn create(path: &Path, columns: &[&str]) -> Result<Self, OutputError> {
        let file = File::create(path).map_err(OutputError::io(path))?;
        let mut csv = Self { path: path.to_path_buf(), out: BufWriter::new(file) };
        let header: Vec<Field> = columns.iter().map(|c| Field::Text(c)).collect();
        csv.row(&header)?;
        // The header goes out at once so even a run that dies in its first step leaves
        // well-formed (empty) tables.
        csv.flush()?;
        Ok(csv)
    }

    fn row(&mut self, fields: &[Field]) -> Result<(), OutputError> {
        write_row(&mut self.out, fields).map_err(OutputError::io(&self.path))
    }

    fn flush(&mut self) -> Result<(), OutputError> {
        self.out.flush().map_err(OutputError::io(&self.path))
    }
}

fn write_row(w: &mut impl Write, fields: &[Field]) -> std::io::Result<()> {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        match *field {
            Field::Num(x) => write!(w, "{}", Shortest(x))?,
            Field::Text(s) => write_text(w, s)?,
            Field::Empty => {}
        }
    }
    w.write_all(b"\n")
}

/// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
fn write_text(w: &mut impl Write, s: &str) -> std::io::Result<()> {
    if !s.contains([',', '"', '\n', '\r']) {
        return w.write_all(s.as_bytes());
    }
    w.write_all(b"\"")?;
    for (i, part) in s.split('"').enumerate() {
        if i > 0 {
            w.write_all(b"\"\"")?;
        }
        w.write_all(part.as_bytes())?;
    }
    w.write_all(b"\"")
}
