//! Reading a `simulate` output folder back: trajectory.csv grouped by output time (only the
//! frames shown are parsed), energy.csv, and the contact forces of contacts.csv per body.

use super::error::ViewError;
use crate::app::{CONTACT_COLUMNS, ENERGY_COLUMNS, ENERGY_JOINT_COLUMNS, TRAJECTORY_COLUMNS};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One body's row: pose (x, y, z, qw, qx, qy, qz) and twist (vx, vy, vz, wx, wy, wz).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    pub pose: [f64; 7],
    pub twist: [f64; 6],
}

/// trajectory.csv, split into its output times (consecutive rows with the same `t`).
pub struct Trajectory {
    path: PathBuf,
    text: String,
    /// The line number of a last row cut short (a killed run), which is left out with its
    /// output time.
    pub cut: Option<usize>,
    /// Each output time with the byte range of its rows and the line number of the first.
    groups: Vec<(f64, std::ops::Range<usize>, usize)>,
}

impl Trajectory {
    /// Reads `dir/trajectory.csv` and finds its output times.
    pub fn read(dir: &Path) -> Result<Trajectory, ViewError> {
        let path = dir.join("trajectory.csv");
        if !path.is_file() {
            return Err(ViewError::NoTrajectory { dir: dir.to_path_buf() });
        }
        let (text, cut) = whole_rows(read(&path)?);
        let mut groups: Vec<(f64, std::ops::Range<usize>, usize)> = Vec::new();
        let mut offset = 0;
        let mut last_t = "";
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let start = offset;
            offset += line.len();
            let line = line.trim_end();
            if n == 0 {
                check_header(&path, line, &TRAJECTORY_COLUMNS)?;
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let t_text = line.split(',').next().unwrap_or("");
            match groups.last_mut() {
                Some(g) if t_text == last_t => g.1.end = offset,
                _ => {
                    let t = number(&path, n + 1, "t", t_text)?;
                    if let Some(g) = groups.last()
                        && t <= g.0
                    {
                        return Err(malformed(
                            &path,
                            n + 1,
                            format!("time {t_text} does not follow {}", g.0),
                        ));
                    }
                    groups.push((t, start..offset, n + 1));
                }
            }
            last_t = t_text;
        }
        // The output time of a cut row may lack bodies: it goes with the row.
        if cut.is_some() && groups.len() > 1 {
            groups.pop();
        }
        if groups.is_empty() {
            return Err(ViewError::EmptyTrajectory { path });
        }
        Ok(Trajectory { path, text, cut, groups })
    }

    /// The output times, increasing.
    pub fn times(&self) -> Vec<f64> {
        self.groups.iter().map(|g| g.0).collect()
    }

    /// The rows of output time `k`: each body's name and state, in file order.
    pub fn frame(&self, k: usize) -> Result<Vec<(Cow<'_, str>, BodyState)>, ViewError> {
        let (_, range, first_line) = &self.groups[k];
        let mut rows = Vec::new();
        for (n, line) in self.text[range.clone()].lines().enumerate() {
            let line_no = first_line + n;
            let mut fields = csv_fields(line).into_iter();
            fields.next();
            let name = fields.next().unwrap_or_default();
            let mut values = [0.0; 13];
            for (i, v) in values.iter_mut().enumerate() {
                let column = TRAJECTORY_COLUMNS[i + 2];
                let text = fields.next().ok_or_else(|| {
                    malformed(&self.path, line_no, format!("the row ends before column `{column}`"))
                })?;
                *v = number(&self.path, line_no, column, &text)?;
            }
            let (mut pose, mut twist) = ([0.0; 7], [0.0; 6]);
            pose.copy_from_slice(&values[..7]);
            twist.copy_from_slice(&values[7..]);
            rows.push((name, BodyState { pose, twist }));
        }
        Ok(rows)
    }

    /// Every body name in the file, in order of first appearance.
    pub fn body_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for line in self.text.lines().skip(1) {
            if let Some(name) = csv_fields(line).into_iter().nth(1)
                && !names.iter().any(|n| *n == name)
            {
                names.push(name.into_owned());
            }
        }
        names
    }
}

/// energy.csv: its times and the five columns after `t`, in file order.
pub fn read_energy(dir: &Path) -> Result<(Vec<f64>, Vec<[f64; 5]>), ViewError> {
    let path = required(dir, "energy.csv")?;
    let (text, _) = whole_rows(read(&path)?);
    let (mut times, mut rows) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        if n == 0 {
            // Scenes with joints add two columns after these (plotted as parts of the others).
            if line.trim_end() != ENERGY_JOINT_COLUMNS.join(",") {
                check_header(&path, line, &ENERGY_COLUMNS)?;
            }
            continue;
        }
        let mut fields = line.split(',');
        times.push(number(&path, n + 1, "t", fields.next().unwrap_or(""))?);
        let mut row = [0.0; 5];
        for (i, v) in row.iter_mut().enumerate() {
            *v = number(&path, n + 1, ENERGY_COLUMNS[i + 1], fields.next().unwrap_or(""))?;
        }
        for column in fields.zip(&ENERGY_JOINT_COLUMNS[6..]).map(|(text, c)| number(&path, n + 1, c, text)) {
            column?;
        }
        rows.push(row);
    }
    Ok((times, rows))
}

/// The total contact force (N, world frame) on each body (by index in `names`) at each of
/// `times`, from contacts.csv (its force acts on `a`, the opposite on `b`). Rows at other
/// times are skipped.
pub fn contact_forces(dir: &Path, times: &[f64], names: &[&str]) -> Result<Vec<Vec<[f64; 3]>>, ViewError> {
    let path = required(dir, "contacts.csv")?;
    let mut forces = vec![vec![[0.0; 3]; names.len()]; times.len()];
    let frame_of: HashMap<u64, usize> = times.iter().enumerate().map(|(k, t)| (t.to_bits(), k)).collect();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let (text, _) = whole_rows(read(&path)?);
    for (n, line) in text.lines().enumerate() {
        if n == 0 {
            check_header(&path, line, &CONTACT_COLUMNS)?;
            continue;
        }
        let fields = csv_fields(line);
        if fields.len() < 6 {
            return Err(malformed(&path, n + 1, "the row has fewer than 6 columns".into()));
        }
        let Some(&k) = frame_of.get(&number(&path, n + 1, "t", &fields[0])?.to_bits()) else { continue };
        let body = |name: &str| {
            index
                .get(name)
                .copied()
                .ok_or_else(|| ViewError::UnknownBody { path: path.clone(), name: name.to_string() })
        };
        let (a, b) = (body(&fields[1])?, body(&fields[2])?);
        for (i, column) in ["fx", "fy", "fz"].into_iter().enumerate() {
            let f = number(&path, n + 1, column, &fields[3 + i])?;
            forces[k][a][i] += f;
            forces[k][b][i] -= f;
        }
    }
    Ok(forces)
}

/// `dir/file`, which every `simulate` run writes.
fn required(dir: &Path, file: &'static str) -> Result<PathBuf, ViewError> {
    let path = dir.join(file);
    if path.is_file() { Ok(path) } else { Err(ViewError::MissingFile { dir: dir.to_path_buf(), file }) }
}

/// The text up to its last whole row (one ending in a line break), and the line number of a
/// last row cut short, if there is one: a killed run's file.
pub fn whole_rows(mut text: String) -> (String, Option<usize>) {
    if text.is_empty() || text.ends_with('\n') {
        return (text, None);
    }
    let line = text.matches('\n').count() + 1;
    text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
    (text, Some(line))
}

fn read(path: &Path) -> Result<String, ViewError> {
    std::fs::read_to_string(path).map_err(|source| ViewError::Read { path: path.to_path_buf(), source })
}

fn check_header(path: &Path, line: &str, columns: &[&str]) -> Result<(), ViewError> {
    let expected = columns.join(",");
    if line.trim_end() != expected {
        return Err(malformed(path, 1, format!("the header is `{}`, not `{expected}`", line.trim_end())));
    }
    Ok(())
}

/// A field that must be a finite number: runs stop before they write NaN or infinity, so one
/// in a file is damage, not data.
fn number(path: &Path, line: usize, column: &str, text: &str) -> Result<f64, ViewError> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| malformed(path, line, format!("column `{column}` holds `{text}`, not a number")))?;
    if !value.is_finite() {
        return Err(malformed(path, line, format!("column `{column}` holds `{text}`, not a finite number")));
    }
    Ok(value)
}

fn malformed(path: &Path, line: usize, problem: String) -> ViewError {
    ViewError::Malformed { path: path.to_path_buf(), line, problem }
}

/// The fields of a CSV line as the writers quote them (RFC 4180: a field with a comma, quote or
/// line break in quotes, quotes doubled); borrowed where nothing is quoted.
fn csv_fields(line: &str) -> Vec<Cow<'_, str>> {
    if !line.contains('"') {
        return line.split(',').map(Cow::Borrowed).collect();
    }
    let (mut fields, mut field, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(Cow::Owned(std::mem::take(&mut field))),
            (c, _) => field.push(c),
        }
    }
    fields.push(Cow::Owned(field));
    fields
}
