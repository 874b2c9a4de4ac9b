//! Reading mesh files (OBJ, STL ascii/binary).

use super::GeometryError;
use crate::math::Point3;
use std::collections::HashSet;
use std::path::Path;

/// Reads the vertex positions of an OBJ or STL (ASCII or binary) file, chosen by extension.
///
/// OBJ: every `v x y z` line, in file order (other lines are ignored). STL: every distinct
/// triangle corner, in order of first appearance (STL repeats shared corners). A binary STL is
/// recognised by its size (84 + 50·n bytes for n triangles), whatever its header says.
pub fn read_points(path: &Path) -> Result<Vec<Point3>, GeometryError> {
    let file_err = |reason: String| GeometryError::MeshFile { path: path.to_path_buf(), reason };
    let bytes = std::fs::read(path).map_err(|e| file_err(e.to_string()))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let points = match ext.as_str() {
        "obj" => parse_obj(&text(&bytes).map_err(file_err)?),
        "stl" if is_binary_stl(&bytes) => parse_binary_stl(&bytes),
        "stl" => parse_ascii_stl(&text(&bytes).map_err(file_err)?),
        _ => Err(format!("unknown extension `.{ext}`; use an .obj or .stl file")),
    }
    .map_err(file_err)?;
    if points.is_empty() {
        return Err(GeometryError::BadMesh { path: path.to_path_buf(), reason: "it has no vertices".into() });
    }
    if let Some(reason) = coordinate_problem(&points) {
        return Err(GeometryError::BadMesh { path: path.to_path_buf(), reason });
    }
    Ok(points)
}

/// Farthest a mesh vertex may lie from the file's origin (m), as for scene positions.
pub const MAX_COORDINATE: f64 = 1e6;

/// The first vertex that is not finite or lies farther than [`MAX_COORDINATE`] from the origin,
/// as a message.
pub fn coordinate_problem(points: &[Point3]) -> Option<String> {
    let (k, p) = points
        .iter()
        .enumerate()
        .find(|(_, p)| !p.iter().all(|x| x.is_finite() && x.abs() <= MAX_COORDINATE))?;
    Some(format!(
        "vertex {} at ({:e}, {:e}, {:e}) lies beyond the {MAX_COORDINATE:e} m from the origin the simulator handles; \
         check the file's units (metres) or scale",
        k + 1,
        p.x,
        p.y,
        p.z
    ))
}

fn text(bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| format!("not UTF-8 text: {e}"))
}

fn is_binary_stl(bytes: &[u8]) -> bool {
    if bytes.len() < 84 {
        return false;
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    84 + 50 * n == bytes.len() as u64
}

/// Parses the three coordinates after a keyword on line `line` (1-based, for messages).
fn parse_xyz<'a>(mut fields: impl Iterator<Item = &'a str>, line: usize) -> Result<Point3, String> {
    let mut xyz = [0.0f64; 3];
    for (axis, c) in xyz.iter_mut().enumerate() {
        let field = fields.next().ok_or_else(|| format!("line {line}: expected 3 coordinates"))?;
        *c = field
            .parse()
            .map_err(|_| format!("line {line}: coordinate {} `{field}` is not a number", axis + 1))?;
        if !c.is_finite() {
            return Err(format!("line {line}: coordinate {} is {field}, not finite", axis + 1));
        }
    }
    Ok(Point3::new(xyz[0], xyz[1], xyz[2]))
}

/// The points of an OBJ file (its `v` lines). Its faces are not needed (a convex body is the
/// hull of the points) but are checked as a surface mesh's are: a face that names a vertex the
/// file does not have is a broken file, not a hull.
fn parse_obj(text: &str) -> Result<Vec<Point3>, String> {
    let mut points = Vec::new();
    // (line, index as written, vertices before the line) of every face corner.
    let mut corners = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("v") => points.push(parse_xyz(fields, i + 1)?),
            Some("f") => {
                for corner in fields {
                    let index = corner.split('/').next().unwrap_or("");
                    let index: i64 = index.parse().map_err(|_| {
                        format!("line {}: face corner `{corner}` is not a vertex index", i + 1)
                    })?;
                    corners.push((i + 1, index, points.len()));
                }
            }
            _ => {}
        }
    }
    let n = points.len() as i64;
    // A file without vertices is refused as such by the caller.
    for (line, index, before) in corners.into_iter().filter(|_| n > 0) {
        // OBJ counts from 1; a negative index counts back from the latest vertex.
        let valid = (1..=n).contains(&index) || (index < 0 && -index <= before as i64);
        if !valid {
            return Err(format!(
                "line {line}: a face refers to vertex {index} but there are only {n} vertices (counting from 1); fix the face's indices"
            ));
        }
    }
    Ok(points)
}

fn parse_ascii_stl(text: &str) -> Result<Vec<Point3>, String> {
    let mut points = Unique::default();
    for (i, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        if fields.next() == Some("vertex") {
            points.push(parse_xyz(fields, i + 1)?);
        }
    }
    Ok(points.list)
}

fn parse_binary_stl(bytes: &[u8]) -> Result<Vec<Point3>, String> {
    let mut points = Unique::default();
    for (t, record) in bytes[84..].chunks_exact(50).enumerate() {
        for corner in 0..3 {
            let mut xyz = [0.0f64; 3];
            for (axis, c) in xyz.iter_mut().enumerate() {
                let at = 12 + 12 * corner + 4 * axis;
                let raw = [record[at], record[at + 1], record[at + 2], record[at + 3]];
                *c = f32::from_le_bytes(raw) as f64;
                if !c.is_finite() {
                    return Err(format!(
                        "triangle {t} (byte {}): corner {} has a non-finite coordinate",
                        84 + 50 * t + at,
                        corner + 1
                    ));
                }
            }
            points.push(Point3::new(xyz[0], xyz[1], xyz[2]));
        }
    }
    Ok(points.list)
}

/// Points in order of first appearance, each exact position once.
#[derive(Default)]
struct Unique {
    seen: HashSet<[u64; 3]>,
    list: Vec<Point3>,
}

impl Unique {
    fn push(&mut self, p: Point3) {
        // `+ 0.0` maps −0 to +0 so both zeros are one position.
        if self.seen.insert([p.x, p.y, p.z].map(|c| (c + 0.0).to_bits())) {
            self.list.push(p);
        }
    }
}
