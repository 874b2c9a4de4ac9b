//! Reading and writing tetrahedral meshes: legacy VTK unstructured grids and Gmsh `.msh`, so
//! meshes made with Gmsh, TetGen or fTetWild can be used, and ours reused.

use super::surface_io::Tokens;
use super::{GeometryError, TetMesh, signed_tet_volume};
use crate::math::{Point3, Vector3};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// The extensions [`read_tet_mesh`] understands.
pub const TET_EXTENSIONS: &str = ".vtk, .msh";
/// A tet with 6·|volume| below this times the cubed bounding-box diagonal has no volume.
const DEGENERATE_VOLUME: f64 = 1e-13;
/// VTK cell type of a linear tetrahedron.
const VTK_TETRA: u64 = 10;
/// Gmsh element type of a linear tetrahedron.
const GMSH_TETRA: u64 = 4;

/// A tetrahedral mesh read from a file, with its pressure extent ε when the file has one.
#[derive(Clone, Debug)]
pub struct TetFile {
    pub mesh: TetMesh,
    /// Point data `extent`, one value per vertex of `mesh`.
    pub extent: Option<Vec<f64>>,
}

/// Reads a tetrahedral mesh, choosing the format by extension (case-insensitive).
///
/// - `.vtk`: legacy ASCII `UNSTRUCTURED_GRID` (file versions up to 5.1); cells of type 10 are
///   the tets, other cells are skipped; point data `SCALARS extent` becomes
///   [`TetFile::extent`], other arrays are skipped.
/// - `.msh`: Gmsh ASCII, format 2.2 or 4.1; elements of type 4 are the tets, others skipped.
///
/// Vertices no tet uses are dropped; each tet is made positively oriented (two vertices swapped
/// where its volume is negative). A tet with no volume is an error naming it.
pub fn read_tet_mesh(path: &Path) -> Result<TetFile, GeometryError> {
    let bytes = std::fs::read(path)
        .map_err(|e| GeometryError::MeshFile { path: path.to_path_buf(), reason: e.to_string() })?;
    read_tet_mesh_from(path, &bytes)
}

/// Parses `bytes` as the contents of a tet mesh file named `path` (whose extension picks the
/// format, and which messages name), as [`read_tet_mesh`] does.
pub fn read_tet_mesh_from(path: &Path, bytes: &[u8]) -> Result<TetFile, GeometryError> {
    let file_err = |reason: String| GeometryError::MeshFile { path: path.to_path_buf(), reason };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let text = String::from_utf8_lossy(bytes);
    let raw = match ext.as_str() {
        "vtk" => parse_vtk(&text),
        "msh" => parse_msh(&text),
        _ => Err(format!(
            "unknown extension `.{ext}`; tetrahedral meshes are read from {TET_EXTENSIONS} files"
        )),
    }
    .map_err(file_err)?;
    raw.finish().map_err(file_err)
}

/// Writes `mesh` as a Gmsh 4.1 ASCII file (one volume entity; node and element tags from 1).
pub fn write_tet_mesh_msh(path: &Path, mesh: &TetMesh) -> Result<(), GeometryError> {
    let write_err = |reason: String| GeometryError::WriteMesh { path: path.to_path_buf(), reason };
    let n = mesh.vertices.len();
    if let Some(t) = mesh.tets.iter().position(|t| t.iter().any(|&v| v as usize >= n)) {
        return Err(write_err(format!(
            "tet {t} {:?} refers to a vertex beyond the {n} there are; pass the vertices it indexes",
            mesh.tets[t]
        )));
    }
    if let Some(v) = mesh.vertices.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
        return Err(write_err(format!("vertex {v} has a non-finite coordinate; fix the mesh first")));
    }
    let (nv, nt) = (n, mesh.tets.len());
    let mut out = String::with_capacity(40 * nv + 40 * nt + 200);
    // Writing to a String cannot fail.
    let _ = writeln!(out, "$MeshFormat\n4.1 0 8\n$EndMeshFormat");
    let _ = writeln!(out, "$Nodes\n1 {nv} 1 {nv}\n3 1 0 {nv}");
    for tag in 1..=nv {
        let _ = writeln!(out, "{tag}");
    }
    for p in &mesh.vertices {
        // `{}` prints the shortest text that parses back to the same f64.
        let _ = writeln!(out, "{} {} {}", p.x, p.y, p.z);
    }
    let _ = writeln!(out, "$EndNodes\n$Elements\n1 {nt} 1 {nt}\n3 1 {GMSH_TETRA} {nt}");
    for (t, [a, b, c, d]) in mesh.tets.iter().enumerate() {
        let _ = writeln!(out, "{} {} {} {} {}", t + 1, a + 1, b + 1, c + 1, d + 1);
    }
    let _ = writeln!(out, "$EndElements");
    std::fs::write(path, out).map_err(|e| write_err(e.to_string()))
}

/// A mesh as read: tets index `vertices` 0-based but are not yet checked.
struct RawTets {
    vertices: Vec<Point3>,
    tets: Vec<[u64; 4]>,
    /// Where each tet came from, for messages: `{origin_kind} {origin[t]}` ("cell 12").
    origin: Vec<u64>,
    origin_kind: &'static str,
    extent: Option<Vec<f64>>,
}

impl RawTets {
    fn finish(self) -> Result<TetFile, String> {
        let n = self.vertices.len();
        if self.tets.is_empty() {
            return Err("it has no tetrahedra".into());
        }
        if let Some(t) = self.tets.iter().position(|t| t.iter().any(|&v| v >= n as u64)) {
            return Err(format!(
                "{} {} refers to a node that does not exist (there are {n}); fix its node indices",
                self.origin_kind, self.origin[t]
            ));
        }
        // Keep the vertices the tets use, in file order.
        let mut new_index = vec![u32::MAX; n];
        for &v in self.tets.iter().flatten() {
            new_index[v as usize] = 0;
        }
        let mut vertices = Vec::new();
        let mut kept = Vec::new();
        for (v, slot) in new_index.iter_mut().enumerate() {
            if *slot == 0 {
                if vertices.len() >= u32::MAX as usize {
                    return Err(format!("its tets use more than {} vertices", u32::MAX));
                }
                *slot = vertices.len() as u32;
                vertices.push(self.vertices[v]);
                kept.push(v);
            }
        }
        let extent = self.extent.map(|e| kept.iter().map(|&v| e[v]).collect());

        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        for p in &vertices {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
        let tolerance = DEGENERATE_VOLUME * (hi - lo).norm().powi(3);
        let mut tets = Vec::with_capacity(self.tets.len());
        let mut degenerate = Vec::new();
        for (t, tet) in self.tets.iter().enumerate() {
            let mut tet = tet.map(|v| new_index[v as usize]);
            let [a, b, c, d] = tet.map(|v| vertices[v as usize]);
            let volume = signed_tet_volume(&a, &b, &c, &d);
            if volume.is_nan() || 6.0 * volume.abs() <= tolerance {
                degenerate.push(t);
            } else if volume < 0.0 {
                tet.swap(2, 3);
            }
            tets.push(tet);
        }
        if !degenerate.is_empty() {
            let shown: Vec<String> = degenerate
                .iter()
                .take(5)
                .map(|&t| format!("{} {}", self.origin_kind, self.origin[t]))
                .collect();
            return Err(format!(
                "{} tetrahedr{} ha{} no volume: {}{}; remesh, or remove the flat tets",
                degenerate.len(),
                if degenerate.len() == 1 { "on" } else { "a" },
                if degenerate.len() == 1 { "s" } else { "ve" },
                shown.join(", "),
                if degenerate.len() > 5 {
                    format!(" and {} more", degenerate.len() - 5)
                } else {
                    String::new()
                }
            ));
        }
        Ok(TetFile { mesh: TetMesh { vertices, tets }, extent })
    }
}

fn finite_point(xyz: [f64; 3], at: impl Fn() -> String) -> Result<Point3, String> {
    if xyz.iter().all(|c| c.is_finite()) {
        Ok(Point3::new(xyz[0], xyz[1], xyz[2]))
    } else {
        Err(format!("{}: coordinates {xyz:?} are not all finite", at()))
    }
}

// ---------------------------------------------------------------------------------------------
// Legacy VTK

/// Reads tokens of a legacy VTK body with messages that say where.
struct VtkTokens<'a>(Tokens<'a>);

impl<'a> VtkTokens<'a> {
    fn word(&mut self, what: &str) -> Result<(&'a str, usize), String> {
        self.0.next().ok_or_else(|| format!("the file ends where {what} should be (truncated)"))
    }

    fn number(&mut self, what: &str) -> Result<f64, String> {
        let (token, line) = self.word(what)?;
        token.parse().map_err(|_| format!("line {line}: {what} `{token}` is not a number"))
    }

    fn count(&mut self, what: &str) -> Result<u64, String> {
        let (token, line) = self.word(what)?;
        token.parse().map_err(|_| format!("line {line}: {what} `{token}` is not a non-negative integer"))
    }

    /// A count that the rest of the file can hold `per_item` tokens of.
    fn items(&mut self, what: &str, per_item: u64) -> Result<u64, String> {
        let line = self.0.peek().map_or(0, |(_, l)| l);
        let n = self.count(what)?;
        if n.saturating_mul(per_item) > self.0.remaining_bytes() as u64 {
            return Err(format!(
                "line {line}: {what} {n} is more than the rest of the file holds (truncated?)"
            ));
        }
        Ok(n)
    }

    fn skip(&mut self, n: u64, what: &str) -> Result<(), String> {
        if n > self.0.remaining_bytes() as u64 {
            return Err(format!("{what}: {n} values are more than the rest of the file holds (truncated?)"));
        }
        for _ in 0..n {
            self.word(what)?;
        }
        Ok(())
    }
}

/// Cells as offsets into a connectivity list.
#[derive(Default)]
struct Cells {
    offsets: Vec<usize>,
    connectivity: Vec<u64>,
}

fn parse_vtk(text: &str) -> Result<RawTets, String> {
    let mut lines = text.splitn(4, '\n');
    let (first, _title, encoding) = (lines.next(), lines.next(), lines.next());
    if !first.is_some_and(|l| l.trim_start().starts_with("# vtk DataFile Version")) {
        return Err("it does not start with `# vtk DataFile Version`; it is not a legacy VTK file".into());
    }
    match encoding.map(str::trim) {
        Some(e) if e.eq_ignore_ascii_case("ascii") => {}
        Some(e) if e.eq_ignore_ascii_case("binary") => {
            return Err("binary legacy VTK is not supported; save the file as ASCII".into());
        }
        other => return Err(format!("line 3: expected ASCII, found {other:?}")),
    }
    let mut t = VtkTokens(Tokens::new(lines.next().unwrap_or(""), 4));
    match (t.0.next(), t.0.next()) {
        (Some(("DATASET", _)), Some(("UNSTRUCTURED_GRID", _))) => {}
        (Some(("DATASET", line)), Some((kind, _))) => {
            return Err(format!("line {line}: DATASET {kind} holds no tetrahedra; use an UNSTRUCTURED_GRID"));
        }
        _ => return Err("line 4: expected `DATASET UNSTRUCTURED_GRID`".into()),
    }
    let mut vertices: Option<Vec<Point3>> = None;
    let mut cells: Option<Cells> = None;
    let mut types: Option<Vec<u64>> = None;
    let mut extent = None;
    // The size of the current POINT_DATA / CELL_DATA section, and whether it is point data.
    let mut data: Option<(u64, bool)> = None;
    while let Some((keyword, line)) = t.0.next() {
        let at = |what: &str| format!("line {line}: {what}");
        match keyword.to_ascii_uppercase().as_str() {
            "POINTS" => {
                let n = t.items("the POINTS count", 3)?;
                t.word("the POINTS data type")?;
                let mut points = Vec::new();
                for i in 0..n {
                    let xyz = [(); 3].map(|_| t.number(&format!("point {i}'s coordinate")));
                    let [x, y, z] = xyz;
                    points.push(finite_point([x?, y?, z?], || format!("point {i}"))?);
                }
                vertices = Some(points);
            }
            "CELLS" => {
                let n = t.items("the CELLS count", 1)?;
                let size = t.count("the CELLS size")?;
                cells = Some(if t.0.peek().is_some_and(|(w, _)| w == "OFFSETS") {
                    read_cells_offsets(&mut t, n, size)?
                } else {
                    read_cells_legacy(&mut t, n)?
                });
            }
            "CELL_TYPES" => {
                let n = t.items("the CELL_TYPES count", 1)?;
                let mut list = Vec::new();
                for i in 0..n {
                    list.push(t.count(&format!("the type of cell {i}"))?);
                }
                types = Some(list);
            }
            "POINT_DATA" => data = Some((t.count("the POINT_DATA count")?, true)),
            "CELL_DATA" => data = Some((t.count("the CELL_DATA count")?, false)),
            "SCALARS" => {
                let (count, is_points) = data.ok_or_else(|| at("SCALARS outside POINT_DATA or CELL_DATA"))?;
                let (name, _) = t.word("the SCALARS name")?;
                t.word("the SCALARS data type")?;
                let mut components = 1;
                if let Some((c, _)) = t.0.peek()
                    && let Ok(c) = c.parse::<u64>()
                {
                    t.0.next();
                    components = c;
                }
                if t.0.peek().is_some_and(|(w, _)| w == "LOOKUP_TABLE") {
                    t.0.next();
                    t.word("the lookup table name")?;
                }
                let values = count.saturating_mul(components);
                if is_points && name == "extent" && components == 1 {
                    if values > t.0.remaining_bytes() as u64 {
                        return Err(at("the extent array is longer than the rest of the file (truncated?)"));
                    }
                    let mut list = Vec::new();
                    for i in 0..count {
                        let v = t.number(&format!("extent of point {i}"))?;
                        if !v.is_finite() {
                            return Err(format!("the extent of point {i} is {v}, not a finite number"));
                        }
                        list.push(v);
                    }
                    extent = Some(list);
                } else {
                    t.skip(values, &at(&format!("array `{name}`")))?;
                }
            }
            "LOOKUP_TABLE" => {
                t.word("the lookup table name")?;
                let n = t.count("the lookup table size")?;
                t.skip(n.saturating_mul(4), &at("LOOKUP_TABLE"))?;
            }
            kind @ ("VECTORS" | "NORMALS" | "TENSORS" | "TEXTURE_COORDINATES" | "COLOR_SCALARS") => {
                let (count, _) =
                    data.ok_or_else(|| at(&format!("{kind} outside POINT_DATA or CELL_DATA")))?;
                let (name, _) = t.word("the array name")?;
                let per_item = match kind {
                    "VECTORS" | "NORMALS" => 3,
                    "TENSORS" => 9,
                    _ => t.count("the number of components")?,
                };
                if kind != "COLOR_SCALARS" {
                    t.word("the data type")?;
                }
                t.skip(count.saturating_mul(per_item), &at(&format!("array `{name}`")))?;
            }
            "FIELD" => {
                t.word("the FIELD name")?;
                let arrays = t.items("the number of FIELD arrays", 4)?;
                for _ in 0..arrays {
                    let (name, _) = t.word("a FIELD array name")?;
                    let components = t.count("the number of components")?;
                    let tuples = t.count("the number of tuples")?;
                    t.word("the data type")?;
                    t.skip(components.saturating_mul(tuples), &at(&format!("field array `{name}`")))?;
                    skip_metadata(&mut t);
                }
            }
            "METADATA" => skip_metadata(&mut t),
            _ => {
                return Err(at(&format!(
                    "unexpected `{keyword}`; expected POINTS, CELLS, CELL_TYPES, POINT_DATA, CELL_DATA \
                     or a data array"
                )));
            }
        }
    }
    let vertices = vertices.ok_or("it has no POINTS section")?;
    let cells = cells.ok_or("it has no CELLS section")?;
    let types = types.ok_or("it has no CELL_TYPES section")?;
    let n_cells = cells.offsets.len() - 1;
    if types.len() != n_cells {
        return Err(format!("it has {n_cells} CELLS but {} CELL_TYPES; give one type per cell", types.len()));
    }
    if let Some(e) = &extent
        && e.len() != vertices.len()
    {
        return Err(format!("the extent array has {} values for {} points", e.len(), vertices.len()));
    }
    let mut tets = Vec::new();
    let mut origin = Vec::new();
    let mut others: HashMap<u64, usize> = HashMap::new();
    for (c, &kind) in types.iter().enumerate() {
        let nodes = &cells.connectivity[cells.offsets[c]..cells.offsets[c + 1]];
        if kind != VTK_TETRA {
            *others.entry(kind).or_default() += 1;
            continue;
        }
        let &[a, b, cc, d] = nodes else {
            return Err(format!(
                "cell {c} is a tetrahedron (type 10) with {} points instead of 4",
                nodes.len()
            ));
        };
        tets.push([a, b, cc, d]);
        origin.push(c as u64);
    }
    if tets.is_empty() {
        let mut found: Vec<String> = others.iter().map(|(k, n)| format!("type {k} ×{n}")).collect();
        found.sort();
        return Err(format!(
            "it has no linear tetrahedra (cell type 10); found {}",
            if found.is_empty() { "no cells".into() } else { found.join(", ") }
        ));
    }
    Ok(RawTets { vertices, tets, origin, origin_kind: "cell", extent })
}

/// `n` cells as `count i j k …` records (VTK files before 5.1).
fn read_cells_legacy(t: &mut VtkTokens, n: u64) -> Result<Cells, String> {
    let mut cells = Cells { offsets: vec![0], connectivity: Vec::new() };
    for c in 0..n {
        let k = t.items(&format!("the point count of cell {c}"), 1)?;
        for _ in 0..k {
            cells.connectivity.push(t.count(&format!("a point index of cell {c}"))?);
        }
        cells.offsets.push(cells.connectivity.len());
    }
    Ok(cells)
}

/// Cells as `OFFSETS` and `CONNECTIVITY` arrays (VTK 5.1); `n` offsets, `size` indices.
fn read_cells_offsets(t: &mut VtkTokens, n: u64, size: u64) -> Result<Cells, String> {
    let mut offsets = Vec::new();
    let mut connectivity = Vec::new();
    for (name, len) in [("OFFSETS", n), ("CONNECTIVITY", size)] {
        match t.word(name)? {
            (w, _) if w == name => {}
            (w, line) => return Err(format!("line {line}: expected {name}, found `{w}`")),
        }
        t.word("the data type")?;
        if len > t.0.remaining_bytes() as u64 {
            return Err(format!(
                "{name} has {len} values, more than the rest of the file holds (truncated?)"
            ));
        }
        for i in 0..len {
            let v = t.count(&format!("{name} value {i}"))?;
            if name == "OFFSETS" { offsets.push(v) } else { connectivity.push(v) }
        }
    }
    let ok = offsets.first() == Some(&0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets.last() == Some(&(connectivity.len() as u64));
    if !ok {
        return Err(format!(
            "the OFFSETS must start at 0, never decrease and end at the CONNECTIVITY length {}",
            connectivity.len()
        ));
    }
    Ok(Cells { offsets: offsets.iter().map(|&o| o as usize).collect(), connectivity })
}

/// Skips a METADATA block: everything up to the next section or array keyword.
fn skip_metadata(t: &mut VtkTokens) {
    if t.0.peek().is_none_or(|(w, _)| w != "METADATA") {
        return;
    }
    const NEXT: [&str; 12] = [
        "POINTS",
        "CELLS",
        "CELL_TYPES",
        "POINT_DATA",
        "CELL_DATA",
        "SCALARS",
        "VECTORS",
        "NORMALS",
        "TENSORS",
        "FIELD",
        "LOOKUP_TABLE",
        "TEXTURE_COORDINATES",
    ];
    t.0.next();
    while t.0.peek().is_some_and(|(w, _)| !NEXT.contains(&w)) {
        t.0.next();
    }
}

// ---------------------------------------------------------------------------------------------
// Gmsh

/// Non-blank lines with their 1-based numbers.
struct MshLines<'a>(std::iter::Enumerate<std::str::Lines<'a>>);

impl<'a> MshLines<'a> {
    fn next(&mut self) -> Option<(usize, &'a str)> {
        self.0.by_ref().map(|(i, l)| (i + 1, l.trim())).find(|(_, l)| !l.is_empty())
    }

    /// The next line, inside `section`.
    fn line(&mut self, section: &str) -> Result<(usize, &'a str), String> {
        self.next().ok_or_else(|| format!("the file ends inside {section} (truncated)"))
    }

    /// The next line's fields as non-negative integers, at least `min` of them.
    fn integers(&mut self, section: &str, min: usize) -> Result<(usize, Vec<u64>), String> {
        let (n, line) = self.line(section)?;
        let values: Result<Vec<u64>, _> = line.split_whitespace().map(str::parse).collect();
        match values {
            Ok(v) if v.len() >= min => Ok((n, v)),
            _ => Err(format!(
                "line {n} in {section}: expected at least {min} non-negative integers, found `{line}`"
            )),
        }
    }

    fn end(&mut self, section: &str) -> Result<(), String> {
        let end = format!("$End{}", &section[1..]);
        match self.line(section)? {
            (_, l) if l == end => Ok(()),
            (n, l) => Err(format!("line {n}: expected {end}, found `{l}` (counts in {section} are wrong?)")),
        }
    }
}

/// A node's coordinates from `x y z …` on line `n`.
fn msh_point(fields: &[&str], n: usize) -> Result<Point3, String> {
    let mut xyz = [0.0; 3];
    for (axis, c) in xyz.iter_mut().enumerate() {
        let field = fields.get(axis).ok_or_else(|| format!("line {n}: a node needs x y z"))?;
        *c = field.parse().map_err(|_| format!("line {n}: coordinate `{field}` is not a number"))?;
    }
    finite_point(xyz, || format!("line {n}"))
}

fn parse_msh(text: &str) -> Result<RawTets, String> {
    let mut lines = MshLines(text.lines().enumerate());
    let mut version = None;
    let mut vertices = Vec::new();
    let mut node_index: HashMap<u64, u64> = HashMap::new();
    // Tets by node tag, with their element tag.
    let mut tet_tags: Vec<([u64; 4], u64)> = Vec::new();
    let (mut saw_nodes, mut saw_elements) = (false, false);
    while let Some((n, header)) = lines.next() {
        match header {
            "$MeshFormat" => {
                let (n, line) = lines.line(header)?;
                let fields: Vec<&str> = line.split_whitespace().collect();
                let v = match fields.first().copied() {
                    Some(v) if v.starts_with("2.") => 2,
                    Some("4.1") => 4,
                    other => {
                        return Err(format!(
                            "line {n}: Gmsh format {other:?} is not supported; export as version 4.1 or 2.2 (ASCII)"
                        ));
                    }
                };
                if fields.get(1) != Some(&"0") {
                    return Err(format!("line {n}: binary .msh is not supported; export as ASCII"));
                }
                version = Some(v);
                lines.end(header)?;
            }
            "$Nodes" | "$Elements" if version.is_none() => {
                return Err(format!("line {n}: {header} before $MeshFormat; it is not a Gmsh file"));
            }
            "$Nodes" => {
                saw_nodes = true;
                let mut add = |tag: u64, p: Point3, n: usize| {
                    let next = vertices.len() as u64;
                    if node_index.insert(tag, next).is_some() {
                        return Err(format!("line {n}: node tag {tag} is used twice"));
                    }
                    vertices.push(p);
                    Ok(())
                };
                if version == Some(2) {
                    let (_, count) = lines.integers(header, 1)?;
                    for _ in 0..count[0] {
                        let (n, line) = lines.line(header)?;
                        let fields: Vec<&str> = line.split_whitespace().collect();
                        let tag = fields.first().and_then(|t| t.parse().ok());
                        let tag =
                            tag.ok_or_else(|| format!("line {n}: expected `tag x y z`, found `{line}`"))?;
                        add(tag, msh_point(&fields[1..], n)?, n)?;
                    }
                } else {
                    let (_, head) = lines.integers(header, 4)?;
                    for _ in 0..head[0] {
                        let (_, block) = lines.integers(header, 4)?;
                        let mut tags = Vec::new();
                        for _ in 0..block[3] {
                            tags.push(lines.integers(header, 1)?.1[0]);
                        }
                        for tag in tags {
                            let (n, line) = lines.line(header)?;
                            let fields: Vec<&str> = line.split_whitespace().collect();
                            add(tag, msh_point(&fields, n)?, n)?;
                        }
                    }
                }
                lines.end(header)?;
            }
            "$Elements" => {
                saw_elements = true;
                if version == Some(2) {
                    let (_, count) = lines.integers(header, 1)?;
                    for _ in 0..count[0] {
                        // tag type ntags tags… nodes…
                        let (n, e) = lines.integers(header, 3)?;
                        let nodes = e.get(3usize.saturating_add(e[2] as usize)..).unwrap_or(&[]);
                        if e[1] == GMSH_TETRA {
                            let &[a, b, c, d] = nodes else {
                                return Err(format!("line {n}: tetrahedron {} needs 4 nodes", e[0]));
                            };
                            tet_tags.push(([a, b, c, d], e[0]));
                        }
                    }
                } else {
                    let (_, head) = lines.integers(header, 4)?;
                    for _ in 0..head[0] {
                        let (_, block) = lines.integers(header, 4)?;
                        for _ in 0..block[3] {
                            let (n, e) = lines.integers(header, 1)?;
                            if block[2] == GMSH_TETRA {
                                let &[tag, a, b, c, d] = e.as_slice() else {
                                    return Err(format!("line {n}: a tetrahedron needs `tag n1 n2 n3 n4`"));
                                };
                                tet_tags.push(([a, b, c, d], tag));
                            }
                        }
                    }
                }
                lines.end(header)?;
            }
            section if section.starts_with('$') && !section.starts_with("$End") => {
                let end = format!("$End{}", &section[1..]);
                while lines.line(section)?.1 != end {}
            }
            other => return Err(format!("line {n}: expected a `$Section`, found `{other}`")),
        }
    }
    if !saw_nodes || !saw_elements {
        return Err("it has no $Nodes or no $Elements section; is it a Gmsh mesh file?".into());
    }
    let mut tets = Vec::with_capacity(tet_tags.len());
    let mut origin = Vec::with_capacity(tet_tags.len());
    for (nodes, tag) in tet_tags {
        let mut tet = [0; 4];
        for (slot, node) in tet.iter_mut().zip(nodes) {
            *slot = *node_index.get(&node).ok_or_else(|| {
                format!("element {tag} refers to node {node}, which $Nodes does not define")
            })?;
        }
        tets.push(tet);
        origin.push(tag);
    }
    Ok(RawTets { vertices, tets, origin, origin_kind: "element", extent: None })
}
