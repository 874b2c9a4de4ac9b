//! Reading triangle surface meshes: OBJ, STL (ASCII and binary) and PLY (ASCII and binary).
//!
//! The readers only check the file itself (syntax, indices in range, finite coordinates); whether
//! the triangles bound a solid is [`super::mesh_check::check_closed_mesh`]'s job.

use super::{GeometryError, SurfaceMesh};
use crate::math::Point3;
use std::collections::HashMap;
use std::path::Path;

/// The extensions [`read_surface`] understands.
pub const SURFACE_EXTENSIONS: &str = ".obj, .stl, .ply";

/// Reads a triangle surface mesh, choosing the format by extension (case-insensitive).
///
/// - OBJ: `v x y z` and `f` lines; polygons are fanned into triangles, `f 1/2/3` and `f 1//3`
///   use the first (position) index, negative indices count back from the latest vertex.
/// - STL: binary when the size is exactly 84 + 50·n bytes for the n the header states, ASCII
///   otherwise; corners with bit-identical coordinates become one vertex.
/// - PLY: `ascii`, `binary_little_endian` or `binary_big_endian`; `element vertex` with x, y, z
///   and `element face` with a `vertex_indices` (or `vertex_index`) list; other elements and
///   properties are skipped.
pub fn read_surface(path: &Path) -> Result<SurfaceMesh, GeometryError> {
    let bytes = std::fs::read(path)
        .map_err(|e| GeometryError::MeshFile { path: path.to_path_buf(), reason: e.to_string() })?;
    read_surface_from(path, &bytes)
}

/// Parses `bytes` as the contents of a surface mesh file named `path` (whose extension picks
/// the format, and which messages name), as [`read_surface`] does.
pub fn read_surface_from(path: &Path, bytes: &[u8]) -> Result<SurfaceMesh, GeometryError> {
    let file_err = |reason: String| GeometryError::MeshFile { path: path.to_path_buf(), reason };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let soup = match ext.as_str() {
        "obj" => parse_obj(&String::from_utf8_lossy(bytes)),
        "stl" => parse_stl(bytes),
        "ply" => parse_ply(bytes),
        _ => Err(format!(
            "unknown extension `.{ext}`; surface meshes are read from {SURFACE_EXTENSIONS} files"
        )),
    }
    .map_err(file_err)?;
    let mesh = soup.into_mesh().map_err(file_err)?;
    if let Some(reason) = super::mesh_io::coordinate_problem(&mesh.vertices) {
        return Err(GeometryError::BadMesh { path: path.to_path_buf(), reason });
    }
    Ok(mesh)
}

/// Vertices and triangles as read, indices not yet checked. Triangle `t` came from
/// `{origin_kind} {origin[t]}` ("line 12", "face 3"), for messages.
#[derive(Default)]
struct Soup {
    vertices: Vec<Point3>,
    triangles: Vec<[u64; 3]>,
    origin: Vec<u64>,
    origin_kind: &'static str,
    /// How the file counts vertices in messages: 1 for OBJ, 0 for PLY.
    first_index: u64,
}

impl Soup {
    /// Fans polygon `corners` (from `origin`) into triangles.
    fn add_polygon(&mut self, corners: &[u64], origin: u64) -> Result<(), String> {
        if corners.len() < 3 {
            return Err(format!(
                "{} {origin}: a face has {} corners; faces need at least 3",
                self.origin_kind,
                corners.len()
            ));
        }
        for k in 1..corners.len() - 1 {
            self.triangles.push([corners[0], corners[k], corners[k + 1]]);
            self.origin.push(origin);
        }
        Ok(())
    }

    fn into_mesh(self) -> Result<SurfaceMesh, String> {
        let n = self.vertices.len() as u64;
        if n > u32::MAX as u64 {
            return Err(format!("it has {n} vertices, more than the {} supported", u32::MAX));
        }
        if self.triangles.is_empty() {
            return Err("it has no triangles (faces); a surface mesh needs at least one".into());
        }
        let mut triangles = Vec::with_capacity(self.triangles.len());
        for (t, tri) in self.triangles.iter().enumerate() {
            if let Some(&bad) = tri.iter().find(|&&i| i >= n) {
                return Err(format!(
                    "{} {}: a face refers to vertex {} (counting from {}) but there are only {n} vertices; \
                     fix the face's indices",
                    self.origin_kind,
                    self.origin[t],
                    bad.saturating_add(self.first_index),
                    self.first_index
                ));
            }
            triangles.push(tri.map(|i| i as u32));
        }
        Ok(SurfaceMesh { vertices: self.vertices, triangles })
    }
}

fn finite_point(xyz: [f64; 3], origin: impl Fn() -> String) -> Result<Point3, String> {
    match xyz.iter().position(|c| !c.is_finite()) {
        Some(axis) => Err(format!(
            "{}: coordinate {} is {}, not a finite number",
            origin(),
            ["x", "y", "z"][axis],
            xyz[axis]
        )),
        None => Ok(Point3::new(xyz[0], xyz[1], xyz[2])),
    }
}

fn parse_f64(field: &str, what: impl Fn() -> String) -> Result<f64, String> {
    field.parse().map_err(|_| format!("{}: `{field}` is not a number", what()))
}

// ---------------------------------------------------------------------------------------------
// OBJ

fn parse_obj(text: &str) -> Result<Soup, String> {
    let mut soup = Soup { first_index: 1, origin_kind: "line", ..Soup::default() };
    let mut corners = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("line {}", i + 1);
        let line = line.split('#').next().unwrap_or("");
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("v") => {
                let mut xyz = [0.0; 3];
                for (axis, c) in xyz.iter_mut().enumerate() {
                    let field = fields.next().ok_or_else(|| format!("{}: `v` needs x y z", at()))?;
                    *c = parse_f64(field, || format!("{}, coordinate {}", at(), axis + 1))?;
                }
                soup.vertices.push(finite_point(xyz, at)?);
            }
            Some("f") => {
                corners.clear();
                for field in fields {
                    corners.push(obj_index(field, soup.vertices.len(), i + 1)?);
                }
                soup.add_polygon(&corners, i as u64 + 1)?;
            }
            _ => {}
        }
    }
    Ok(soup)
}

/// The 0-based vertex of an OBJ face corner (`v`, `v/vt`, `v//vn`, `v/vt/vn`); negative indices
/// count back from the `count` vertices read so far.
fn obj_index(field: &str, count: usize, line: usize) -> Result<u64, String> {
    let first = field.split('/').next().unwrap_or("");
    let index: i64 = first.parse().map_err(|_| {
        format!("line {line}: face corner `{field}` does not start with a vertex index (an integer)")
    })?;
    let resolved = match index {
        0 => None,
        i if i > 0 => Some(i as u64 - 1),
        i => (count as i64).checked_add(i).filter(|&r| r >= 0).map(|r| r as u64),
    };
    resolved.ok_or_else(|| {
        format!(
            "line {line}: face corner `{field}` refers to no vertex (indices start at 1; \
             negative ones count back from the {count} vertices read so far)"
        )
    })
}

// ---------------------------------------------------------------------------------------------
// STL

/// Triangles with each distinct corner position once.
#[derive(Default)]
struct Welder {
    index: HashMap<[u64; 3], u64>,
    soup: Soup,
}

impl Welder {
    fn corner(&mut self, p: Point3) -> u64 {
        // `+ 0.0` maps −0 to +0 so both zeros are one position.
        let key = [p.x, p.y, p.z].map(|c| (c + 0.0).to_bits());
        let next = self.soup.vertices.len() as u64;
        *self.index.entry(key).or_insert_with(|| {
            self.soup.vertices.push(p);
            next
        })
    }
}

fn parse_stl(bytes: &[u8]) -> Result<Soup, String> {
    if bytes.len() >= 84 {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
        let expected = 84 + 50 * n;
        if expected == bytes.len() as u64 {
            return parse_binary_stl(&bytes[84..]);
        }
        let text_start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(0);
        if !bytes[text_start..].starts_with(b"solid") {
            return Err(format!(
                "it is neither ASCII STL (which starts with `solid`) nor binary STL: the header \
                 states {n} triangles, which take {expected} bytes, but the file has {} bytes \
                 (truncated or not an STL file)",
                bytes.len()
            ));
        }
    }
    parse_ascii_stl(&String::from_utf8_lossy(bytes))
}

fn parse_binary_stl(records: &[u8]) -> Result<Soup, String> {
    let mut welder = Welder::default();
    welder.soup.origin_kind = "triangle";
    let f32_at = |r: &[u8], at: usize| f32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]]);
    for (t, record) in records.chunks_exact(50).enumerate() {
        let mut tri = [0; 3];
        for (corner, slot) in tri.iter_mut().enumerate() {
            let at = 12 + 12 * corner;
            let xyz = [0, 1, 2].map(|axis| f32_at(record, at + 4 * axis) as f64);
            let origin = || format!("triangle {t} (byte {}), corner {}", 84 + 50 * t + at, corner + 1);
            *slot = welder.corner(finite_point(xyz, origin)?);
        }
        welder.soup.triangles.push(tri);
        welder.soup.origin.push(t as u64);
    }
    Ok(welder.soup)
}

fn parse_ascii_stl(text: &str) -> Result<Soup, String> {
    let mut welder = Welder::default();
    welder.soup.origin_kind = "facet at line";
    let mut corners: Vec<u64> = Vec::with_capacity(3);
    let mut facet_line = 0;
    for (i, line) in text.lines().enumerate() {
        let at = || format!("line {}", i + 1);
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("facet") => {
                if !corners.is_empty() {
                    return Err(format!(
                        "{}: a new facet starts before the one at line {facet_line} ends",
                        at()
                    ));
                }
                facet_line = i + 1;
            }
            Some("vertex") => {
                if corners.is_empty() {
                    facet_line = facet_line.max(i + 1);
                }
                let mut xyz = [0.0; 3];
                for (axis, c) in xyz.iter_mut().enumerate() {
                    let field = fields.next().ok_or_else(|| format!("{}: `vertex` needs x y z", at()))?;
                    *c = parse_f64(field, || format!("{}, coordinate {}", at(), axis + 1))?;
                }
                corners.push(welder.corner(finite_point(xyz, at)?));
            }
            Some("endloop" | "endfacet") if !corners.is_empty() => {
                if corners.len() != 3 {
                    return Err(format!(
                        "{}: the facet has {} vertices; STL facets are triangles with 3",
                        at(),
                        corners.len()
                    ));
                }
                welder.soup.triangles.push([corners[0], corners[1], corners[2]]);
                welder.soup.origin.push(facet_line as u64);
                corners.clear();
            }
            _ => {}
        }
    }
    if !corners.is_empty() {
        return Err(format!("the facet at line {facet_line} never ends (the file is truncated)"));
    }
    Ok(welder.soup)
}

// ---------------------------------------------------------------------------------------------
// PLY

#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Scalar> {
        Some(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64)
    }
}

enum PropertyKind {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

struct Property {
    name: String,
    kind: PropertyKind,
}

struct Element {
    name: String,
    count: u64,
    properties: Vec<Property>,
}

#[derive(Clone, Copy, PartialEq)]
enum PlyFormat {
    Ascii,
    Binary { little_endian: bool },
}

/// Reads PLY values one at a time from the body after the header.
enum PlyBody<'a> {
    Ascii(Tokens<'a>),
    Binary { bytes: &'a [u8], pos: usize, offset: usize, little_endian: bool },
}

impl PlyBody<'_> {
    /// The next value of type `ty`; `what` names it for messages.
    fn value(&mut self, ty: Scalar, what: &dyn Fn() -> String) -> Result<f64, String> {
        match self {
            PlyBody::Ascii(tokens) => {
                let (token, line) =
                    tokens.next().ok_or_else(|| format!("{}: the file ends early (truncated)", what()))?;
                let value = if ty.is_integer() {
                    token.parse::<i64>().map(|v| v as f64).ok()
                } else {
                    token.parse::<f64>().ok()
                };
                value.ok_or_else(|| {
                    format!("{} (line {line}): `{token}` is not a{} number", what(), integer_word(ty))
                })
            }
            PlyBody::Binary { bytes, pos, offset, little_endian } => {
                let n = ty.size();
                let raw = bytes.get(*pos..*pos + n).ok_or_else(|| {
                    format!("{} (byte {}): the file ends early (truncated)", what(), *offset + *pos)
                })?;
                *pos += n;
                let mut b = [0u8; 8];
                b[..n].copy_from_slice(raw);
                if !*little_endian {
                    b[..n].reverse();
                }
                Ok(match ty {
                    Scalar::I8 => b[0] as i8 as f64,
                    Scalar::U8 => b[0] as f64,
                    Scalar::I16 => i16::from_le_bytes([b[0], b[1]]) as f64,
                    Scalar::U16 => u16::from_le_bytes([b[0], b[1]]) as f64,
                    Scalar::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                    Scalar::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                    Scalar::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                    Scalar::F64 => f64::from_le_bytes(b),
                })
            }
        }
    }

    /// Whether `n` more values of type `ty` can be there (guards against huge list counts).
    fn has_room(&self, n: u64, ty: Scalar) -> bool {
        match self {
            PlyBody::Ascii(tokens) => n <= tokens.remaining_bytes() as u64,
            PlyBody::Binary { bytes, pos, .. } => {
                n.saturating_mul(ty.size() as u64) <= (bytes.len() - *pos) as u64
            }
        }
    }
}

fn integer_word(ty: Scalar) -> &'static str {
    if ty.is_integer() { "n integer" } else { "" }
}

fn parse_ply(bytes: &[u8]) -> Result<Soup, String> {
    let (format, elements, body_start) = parse_ply_header(bytes)?;
    let data = &bytes[body_start..];
    let mut body = match format {
        PlyFormat::Ascii => {
            let text = std::str::from_utf8(data).map_err(|e| {
                format!("the ASCII body is not text: invalid byte at offset {}", body_start + e.valid_up_to())
            })?;
            let first_line = bytes[..body_start].iter().filter(|&&b| b == b'\n').count() + 1;
            PlyBody::Ascii(Tokens::new(text, first_line))
        }
        PlyFormat::Binary { little_endian } => {
            PlyBody::Binary { bytes: data, pos: 0, offset: body_start, little_endian }
        }
    };
    let mut soup = Soup { origin_kind: "face", ..Soup::default() };
    let mut corners = Vec::new();
    let mut found_faces = false;
    for element in &elements {
        if element.properties.is_empty() {
            continue;
        }
        let is_vertex = element.name == "vertex";
        let is_face = element.name == "face";
        let axes: [Option<usize>; 3] =
            ["x", "y", "z"].map(|a| element.properties.iter().position(|p| p.name == a));
        let index_list = element.properties.iter().position(|p| {
            matches!(p.kind, PropertyKind::List { .. })
                && (p.name == "vertex_indices" || p.name == "vertex_index")
        });
        if is_vertex {
            if let Some(missing) = axes.iter().position(Option::is_none) {
                return Err(format!(
                    "the vertex element has no `{}` property; PLY vertices need x, y and z",
                    ["x", "y", "z"][missing]
                ));
            }
            if element.count > u32::MAX as u64 {
                return Err(format!("{} vertices are more than the {} supported", element.count, u32::MAX));
            }
        }
        if is_face {
            found_faces = true;
            if index_list.is_none() {
                return Err("the face element has no `vertex_indices` (or `vertex_index`) list property; \
                            add one or export the faces with vertex indices"
                    .into());
            }
        }
        for item in 0..element.count {
            let mut xyz = [0.0; 3];
            for (p, property) in element.properties.iter().enumerate() {
                let what = || format!("{} {item}, property `{}`", element.name, property.name);
                match property.kind {
                    PropertyKind::Scalar(ty) => {
                        let v = body.value(ty, &what)?;
                        if is_vertex && let Some(axis) = axes.iter().position(|&a| a == Some(p)) {
                            xyz[axis] = v;
                        }
                    }
                    PropertyKind::List { count, item: item_ty } => {
                        let n = body.value(count, &what)?;
                        if !(n >= 0.0 && n.fract() == 0.0 && body.has_room(n as u64, item_ty)) {
                            return Err(format!(
                                "{}: list length {n} is not a count that fits in the rest of the file \
                                 (corrupt or truncated)",
                                what()
                            ));
                        }
                        let keep = is_face && index_list == Some(p);
                        corners.clear();
                        for _ in 0..n as u64 {
                            let v = body.value(item_ty, &what)?;
                            if keep {
                                if !(v >= 0.0 && v.fract() == 0.0) {
                                    return Err(format!("{}: vertex index {v} is not a valid index", what()));
                                }
                                corners.push(v as u64);
                            }
                        }
                        if keep {
                            soup.add_polygon(&corners, item)?;
                        }
                    }
                }
            }
            if is_vertex {
                soup.vertices.push(finite_point(xyz, || format!("vertex {item}"))?);
            }
        }
    }
    if !found_faces {
        return Err("it has no `element face`; a surface mesh needs faces".into());
    }
    Ok(soup)
}

/// The format, elements and the offset where the body starts.
fn parse_ply_header(bytes: &[u8]) -> Result<(PlyFormat, Vec<Element>, usize), String> {
    let mut pos = 0;
    let mut format = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut line_no = 0;
    loop {
        let rest = &bytes[pos..];
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            return Err("the PLY header has no `end_header` line (truncated or not a PLY file)".into());
        };
        line_no += 1;
        let line = std::str::from_utf8(&rest[..end])
            .map_err(|_| format!("line {line_no}: the PLY header is not text"))?
            .trim();
        pos += end + 1;
        let at = || format!("line {line_no}");
        let fields: Vec<&str> = line.split_whitespace().collect();
        if line_no == 1 {
            if line != "ply" {
                return Err("it does not start with `ply`; it is not a PLY file".into());
            }
            continue;
        }
        match fields.first().copied() {
            Some("end_header") => break,
            Some("format") => {
                format = Some(match fields.get(1).copied() {
                    Some("ascii") => PlyFormat::Ascii,
                    Some("binary_little_endian") => PlyFormat::Binary { little_endian: true },
                    Some("binary_big_endian") => PlyFormat::Binary { little_endian: false },
                    other => {
                        return Err(format!(
                            "{}: unknown PLY format {other:?}; use ascii, binary_little_endian or \
                             binary_big_endian",
                            at()
                        ));
                    }
                })
            }
            Some("element") => {
                let (Some(name), Some(count)) = (fields.get(1), fields.get(2).and_then(|c| c.parse().ok()))
                else {
                    return Err(format!("{}: expected `element NAME COUNT`", at()));
                };
                elements.push(Element { name: name.to_string(), count, properties: Vec::new() });
            }
            Some("property") => {
                let Some(element) = elements.last_mut() else {
                    return Err(format!("{}: a property before any element", at()));
                };
                let ty = |i: usize| {
                    fields.get(i).and_then(|t| Scalar::parse(t)).ok_or_else(|| {
                        format!(
                            "{}: unknown property type {:?}; PLY types are char, uchar, short, ushort, \
                             int, uint, float, double (or int8 … float64)",
                            at(),
                            fields.get(i)
                        )
                    })
                };
                let (kind, name) = if fields.get(1) == Some(&"list") {
                    (PropertyKind::List { count: ty(2)?, item: ty(3)? }, fields.get(4))
                } else {
                    (PropertyKind::Scalar(ty(1)?), fields.get(2))
                };
                if let PropertyKind::List { count, .. } = kind
                    && !count.is_integer()
                {
                    return Err(format!("{}: a list's length type must be an integer type", at()));
                }
                let name = name.ok_or_else(|| format!("{}: the property has no name", at()))?;
                element.properties.push(Property { name: name.to_string(), kind });
            }
            Some("comment" | "obj_info") | None => {}
            Some(other) => return Err(format!("{}: unknown PLY header keyword `{other}`", at())),
        }
    }
    let format = format.ok_or("the PLY header has no `format` line")?;
    Ok((format, elements, pos))
}

// ---------------------------------------------------------------------------------------------
// Shared by the text readers

/// Whitespace-separated tokens of a text, each with its 1-based line number.
#[derive(Clone)]
pub(super) struct Tokens<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `text`, whose first line is line `first_line` of the file.
    pub(super) fn new(text: &'a str, first_line: usize) -> Self {
        Tokens { text, pos: 0, line: first_line }
    }

    /// Bytes not yet read: an upper bound on how many tokens are left.
    pub(super) fn remaining_bytes(&self) -> usize {
        self.text.len() - self.pos
    }

    /// The next token, without consuming it.
    pub(super) fn peek(&self) -> Option<(&'a str, usize)> {
        self.clone().next()
    }

    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (&'a str, usize);

    fn next(&mut self) -> Option<Self::Item> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        while bytes.get(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        // Whitespace is ASCII, so `start..pos` lies on character boundaries.
        (self.pos > start).then(|| (&self.text[start..self.pos], self.line))
    }
}
