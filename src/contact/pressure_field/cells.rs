//! Cells: convex unions of a compliant mesh's tets that share one linear pressure field.
//!
//! Where a body's field is one linear function over a convex region that the mesh splits into
//! several tets — a cube's face pyramids (two tets each), a box's face wedges, where a
//! capsule's caps meet its side — the contact surface needs one polygon per region, not one per
//! tet: the queries work on cells, each with its vertices, its face planes, the edges between
//! faces that are not coplanar, its tets (for volumes, and for the polygons of queries with
//! friction) and its field. Elsewhere (a Laplace field, a sphere's cones) every cell is one tet.

use crate::field::LinearField;
use crate::geometry::clip::{TetSection, edge_point};
use crate::geometry::{TetMesh, tet_planes};
use crate::math::{Plane, Point3, Vector3};
use std::collections::BTreeMap;

/// Most vertices a cell may have.
pub const MAX_CELL_VERTICES: usize = 8;

/// Most face planes a cell may have: its plane sections have at most this many vertices, and
/// clipped by another cell's planes at most twice as many ([`crate::geometry::clip::Polygon`]).
pub const MAX_CELL_PLANES: usize = 5;

/// Relative tolerance of "the same field" and "the same plane" (of the mesh's size and the
/// field's range over it): round-off of fields that are equal in exact arithmetic.
const SAME: f64 = 1e-9;

/// The cells of a compliant mesh, stored flat: cell `c`'s items are `spans[c]`'s ranges.
#[derive(Debug, Default)]
pub struct Cells {
    spans: Vec<CellSpan>,
    points: Vec<Point3>,
    planes: Vec<Plane>,
    /// Each edge's two points and two faces (indices into the cell's own points and planes).
    edges: Vec<Edge>,
    tets: Vec<u32>,
    /// The face planes of each tet of the cells of more than one tet (in `tets`' order), for
    /// the queries that cut such a cell tet by tet.
    tet_planes: Vec<[Plane; 4]>,
    /// And those tets' points (the mesh's, gathered once: a query cuts them at every step).
    tet_points: Vec<[Point3; 4]>,
    /// Whether a cell's edges are in belt order: the points where any plane crosses them come
    /// in cyclic order (a square pyramid's: around its apex).
    belted: Vec<bool>,
    /// The static pressure on each cell (Pa), body frame.
    pub pressure: Vec<LinearField>,
}

/// Where a cell's items start in [`Cells`]' arrays, and how many there are (one look-up per
/// cell on the query's path).
#[derive(Clone, Copy, Debug)]
struct CellSpan {
    point: u32,
    plane: u32,
    edge: u32,
    tet: u32,
    /// Where the cell's tets' planes start in `tet_planes` (none for a cell of one tet).
    tet_plane: u32,
    points: u8,
    planes: u8,
    edges: u8,
    tets: u8,
}

/// The section of a cell by a plane: a convex polygon of at most [`MAX_CELL_PLANES`] points, in
/// a consistent cycle (orientation not fixed), on the stack.
#[derive(Clone, Copy, Debug)]
pub struct CellSection {
    points: [Point3; MAX_CELL_PLANES],
    len: usize,
}

impl CellSection {
    #[inline]
    pub fn points(&self) -> &[Point3] {
        &self.points[..self.len]
    }
}

impl Cells {
    /// The cells of `mesh` with the pressure `fields` of its tets: tets that share a face and
    /// (to round-off) a field are grouped, and a group becomes one cell when it is convex and
    /// small enough ([`MAX_CELL_VERTICES`], [`MAX_CELL_PLANES`]); otherwise its tets stay cells
    /// of their own. Deterministic: cells are ordered by their first tet.
    pub fn build(mesh: &TetMesh, fields: &[LinearField]) -> Cells {
        let groups = same_field_groups(mesh, fields);
        let size = mesh_size(mesh);
        let mut cells = Cells::default();
        for group in groups {
            match (group.len() > 1).then(|| convex_cell(mesh, &group, size)).flatten() {
                Some(cell) => cells.push(mesh, cell, &group, fields[group[0] as usize]),
                None => {
                    for &t in &group {
                        cells.push(mesh, tet_cell(mesh, t), &[t], fields[t as usize]);
                    }
                }
            }
        }
        cells
    }

    fn push(&mut self, mesh: &TetMesh, cell: CellShape, tets: &[u32], field: LinearField) {
        self.spans.push(CellSpan {
            point: self.points.len() as u32,
            plane: self.planes.len() as u32,
            edge: self.edges.len() as u32,
            tet: self.tets.len() as u32,
            tet_plane: self.tet_planes.len() as u32,
            points: cell.points.len() as u8,
            planes: cell.planes.len() as u8,
            edges: cell.edges.len() as u8,
            tets: tets.len() as u8,
        });
        self.points.extend(cell.points);
        self.planes.extend(cell.planes);
        self.edges.extend(cell.edges);
        self.tets.extend_from_slice(tets);
        if tets.len() > 1 {
            self.tet_planes.extend(tets.iter().map(|&t| tet_planes(&mesh.tet(t as usize))));
            self.tet_points.extend(tets.iter().map(|&t| mesh.tet(t as usize)));
        }
        self.belted.push(cell.belted);
        self.pressure.push(field);
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.pressure.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.pressure.is_empty()
    }

    /// Cell `c`'s vertices (body frame).
    #[inline]
    pub fn points(&self, c: usize) -> &[Point3] {
        let s = &self.spans[c];
        &self.points[s.point as usize..][..s.points as usize]
    }

    /// Cell `c`'s outward face planes (body frame; coplanar faces merged).
    #[inline]
    pub fn planes(&self, c: usize) -> &[Plane] {
        let s = &self.spans[c];
        &self.planes[s.plane as usize..][..s.planes as usize]
    }

    /// Cell `c`'s tets (indices into the mesh).
    #[inline]
    pub fn tets(&self, c: usize) -> &[u32] {
        let s = &self.spans[c];
        &self.tets[s.tet as usize..][..s.tets as usize]
    }

    /// The face planes of tet `k` of cell `c` ([`Cells::tets`]), outward, plane `i` opposite
    /// the tet's point `i`; for cells of more than one tet (a cell of one tet has them as its
    /// own [`Cells::planes`]).
    #[inline]
    pub fn tet_planes(&self, c: usize, k: usize) -> &[Plane; 4] {
        &self.tet_planes[self.spans[c].tet_plane as usize + k]
    }

    /// The points of tet `k` of cell `c` (as the mesh's tet; for cells of more than one tet, as
    /// [`Cells::tet_planes`]).
    #[inline]
    pub fn tet_points(&self, c: usize, k: usize) -> &[Point3; 4] {
        &self.tet_points[self.spans[c].tet_plane as usize + k]
    }

    /// The section of cell `c` by `plane` (`signed = 0`), or an empty one.
    #[inline]
    pub fn section(&self, c: usize, plane: &Plane) -> CellSection {
        let p = self.points(c);
        if let &[a, b, d, e] = p {
            // A tet: its own section, in order without sorting.
            let tet = TetSection::new(&[a, b, d, e], plane);
            let mut points = [Point3::origin(); MAX_CELL_PLANES];
            points[..tet.points().len()].copy_from_slice(tet.points());
            return CellSection { points, len: tet.points().len() };
        }
        self.polytope_section(c, plane)
    }

    /// [`Cells::section`] of a cell of more than four vertices: the points where the plane
    /// crosses its edges, in cyclic order. A belted cell's come in order; otherwise the crossed
    /// edges are walked face by face (each face the plane cuts holds two of them), and where
    /// round-off makes a face hold more (the plane along a face) the points are sorted by their
    /// angle about their mean instead.
    fn polytope_section(&self, c: usize, plane: &Plane) -> CellSection {
        let p = self.points(c);
        if let (true, Ok(p)) = (self.belted[c], <&[Point3; 5]>::try_from(p)) {
            return pyramid_section(p, plane);
        }
        let mut d = [0.0; MAX_CELL_VERTICES];
        let mut below = 0;
        for (k, x) in p.iter().enumerate() {
            d[k] = plane.signed(x);
            below += usize::from(d[k] < 0.0);
        }
        let mut out = CellSection { points: [Point3::origin(); MAX_CELL_PLANES], len: 0 };
        if below == 0 || below == p.len() {
            return out;
        }
        let span = &self.spans[c];
        let edges = &self.edges[span.edge as usize..][..span.edges as usize];
        let mut crossed = [edges[0]; MAX_CELL_PLANES];
        let mut n = 0;
        for e in edges {
            let [i, j] = e.points.map(usize::from);
            if (d[i] < 0.0) != (d[j] < 0.0) {
                if n == MAX_CELL_PLANES {
                    return out;
                }
                crossed[n] = *e;
                n += 1;
            }
        }
        let point = |e: &Edge| {
            let [i, j] = e.points.map(usize::from);
            edge_point(&p[i], &p[j], d[i], d[j])
        };
        // The walk: from the first crossed edge through its second face to the other crossed
        // edge of that face, and on, until it is back.
        let mut at = 0;
        let mut face = crossed[0].faces[1];
        loop {
            out.points[out.len] = point(&crossed[at]);
            out.len += 1;
            let mut next = None;
            for (k, e) in crossed[..n].iter().enumerate() {
                if k != at && e.faces.contains(&face) {
                    if next.is_some() {
                        next = None;
                        break;
                    }
                    next = Some(k);
                }
            }
            match next {
                Some(0) if out.len == n => return out,
                Some(k) if k != 0 && out.len < n => {
                    face =
                        if crossed[k].faces[0] == face { crossed[k].faces[1] } else { crossed[k].faces[0] };
                    at = k;
                }
                _ => break,
            }
        }
        for (k, e) in crossed[..n].iter().enumerate() {
            out.points[k] = point(e);
        }
        out.len = n;
        sort_cyclic(&mut out.points[..n], &plane.normal);
        out
    }
}

/// The section of a square pyramid (points apex, b0 … b3) by a plane: the crossing points of
/// its edges in belt order, which is cyclic ([`pyramid_belt`]).
#[inline]
fn pyramid_section(p: &[Point3; 5], plane: &Plane) -> CellSection {
    let d: [f64; 5] = std::array::from_fn(|k| plane.signed(&p[k]));
    let below = d.iter().enumerate().fold(0u8, |m, (k, &x)| m | (u8::from(x < 0.0) << k));
    let mut out = CellSection { points: [Point3::origin(); MAX_CELL_PLANES], len: 0 };
    if below == 0 || below == 0b11111 {
        return out;
    }
    for (i, j) in BELT {
        // At most five edges of a pyramid cross a plane (one per face).
        if ((below >> i) ^ (below >> j)) & 1 == 1 && out.len < MAX_CELL_PLANES {
            out.points[out.len] = edge_point(&p[i], &p[j], d[i], d[j]);
            out.len += 1;
        }
    }
    out
}

/// Puts the vertices of a convex polygon in the plane normal to `normal` in cyclic order: by a
/// pseudo-angle (monotone in the angle, no trigonometry) about their mean.
fn sort_cyclic(points: &mut [Point3], normal: &Vector3) {
    if points.len() < 4 {
        return;
    }
    let mean = points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / points.len() as f64;
    let u = points[0].coords - mean;
    let v = normal.cross(&u);
    let mut keyed: Vec<(f64, Point3)> = points
        .iter()
        .map(|p| {
            let (x, y) = ((p.coords - mean).dot(&u), (p.coords - mean).dot(&v));
            let r = if x == 0.0 && y == 0.0 { 0.0 } else { x / (x.abs() + y.abs()) };
            (if y >= 0.0 { 1.0 - r } else { 3.0 + r }, *p)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (p, (_, q)) in points.iter_mut().zip(keyed) {
        *p = q;
    }
}

/// An edge of a cell: its two points and the two faces that meet there.
#[derive(Clone, Copy, Debug)]
struct Edge {
    points: [u8; 2],
    faces: [u8; 2],
}

/// A cell's geometry before it is stored.
struct CellShape {
    points: Vec<Point3>,
    planes: Vec<Plane>,
    edges: Vec<Edge>,
    belted: bool,
}

/// A single tet as a cell: its four points, planes (plane `i` opposite point `i`) and six
/// edges (edge `ij` between the faces opposite its other two points).
fn tet_cell(mesh: &TetMesh, t: u32) -> CellShape {
    let tet = mesh.tet(t as usize);
    let edges = [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2], [1, 2, 0, 3], [1, 3, 0, 2], [2, 3, 0, 1]]
        .map(|[a, b, f, g]| Edge { points: [a, b], faces: [f, g] })
        .to_vec();
    CellShape { points: tet.to_vec(), planes: tet_planes(&tet).to_vec(), edges, belted: false }
}

/// The largest extent of the mesh's bounds (for tolerances).
fn mesh_size(mesh: &TetMesh) -> f64 {
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for v in &mesh.vertices {
        lo = lo.inf(&v.coords);
        hi = hi.sup(&v.coords);
    }
    (hi - lo).max().max(f64::MIN_POSITIVE)
}

/// Groups of face-adjacent tets with the same field (to [`SAME`] of the field's range over the
/// mesh), each sorted, ordered by their first tet.
fn same_field_groups(mesh: &TetMesh, fields: &[LinearField]) -> Vec<Vec<u32>> {
    let size = mesh_size(mesh);
    let adjacency = mesh.adjacency();
    let n = mesh.tets.len();
    let mut root: Vec<u32> = (0..n as u32).collect();
    fn find(root: &mut [u32], mut x: u32) -> u32 {
        while root[x as usize] != x {
            root[x as usize] = root[root[x as usize] as usize];
            x = root[x as usize];
        }
        x
    }
    for t in 0..n {
        for &u in &adjacency[t] {
            if u == u32::MAX || (u as usize) < t {
                continue;
            }
            let (a, b) = (&fields[t], &fields[u as usize]);
            let range = a.gradient.norm().max(b.gradient.norm()) * size + a.offset.abs().max(b.offset.abs());
            let apart = (a.gradient - b.gradient).norm() * size + (a.offset - b.offset).abs();
            if apart <= SAME * range {
                let (ra, rb) = (find(&mut root, t as u32), find(&mut root, u));
                // The smaller root wins: groups are keyed by their first tet.
                root[ra.max(rb) as usize] = ra.min(rb);
            }
        }
    }
    let mut groups: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for t in 0..n as u32 {
        let r = find(&mut root, t);
        groups.entry(r).or_default().push(t);
    }
    groups.into_values().collect()
}

/// The group of tets as one convex cell, or `None` if their union is not convex or has too
/// many vertices or faces. The union's boundary is the tets' faces not shared within the group;
/// it is convex when every vertex lies inside every boundary face's plane.
fn convex_cell(mesh: &TetMesh, group: &[u32], size: f64) -> Option<CellShape> {
    let mut vertex_ids: Vec<u32> = group.iter().flat_map(|&t| mesh.tets[t as usize]).collect();
    vertex_ids.sort_unstable();
    vertex_ids.dedup();
    if vertex_ids.len() > MAX_CELL_VERTICES {
        return None;
    }
    let local = |v: u32| vertex_ids.binary_search(&v).map(|k| k as u8).unwrap_or(0);
    let points: Vec<Point3> = vertex_ids.iter().map(|&v| mesh.vertices[v as usize]).collect();
    // Boundary faces: those seen once among the group's tets, with the outward plane of the tet.
    let mut faces: BTreeMap<[u32; 3], Option<([u32; 3], Plane)>> = BTreeMap::new();
    for &t in group {
        let tet = mesh.tets[t as usize];
        let planes = tet_planes(&mesh.tet(t as usize));
        for (i, plane) in planes.iter().enumerate() {
            let face = [tet[(i + 1) % 4], tet[(i + 2) % 4], tet[(i + 3) % 4]];
            let mut key = face;
            key.sort_unstable();
            faces.entry(key).and_modify(|f| *f = None).or_insert(Some((face, *plane)));
        }
    }
    let tolerance = SAME * size;
    let mut planes: Vec<Plane> = Vec::new();
    let mut face_plane: Vec<([u32; 3], usize)> = Vec::new();
    for (face, plane) in faces.into_values().flatten() {
        if plane.normal.norm() == 0.0 || points.iter().any(|p| plane.signed(p) > tolerance) {
            return None;
        }
        let same = planes.iter().position(|q| {
            q.normal.dot(&plane.normal) > 1.0 - SAME && (q.offset - plane.offset).abs() <= tolerance
        });
        let id = same.unwrap_or_else(|| {
            planes.push(plane);
            planes.len() - 1
        });
        face_plane.push((face, id));
    }
    if planes.len() > MAX_CELL_PLANES {
        return None;
    }
    // Edges between faces of different planes (a crease of the polytope); the diagonals of a
    // flat face are no edges of the cell.
    let mut edge_planes: BTreeMap<[u32; 2], Vec<usize>> = BTreeMap::new();
    for (face, id) in &face_plane {
        for k in 0..3 {
            let (a, b) = (face[k], face[(k + 1) % 3]);
            edge_planes.entry([a.min(b), a.max(b)]).or_default().push(*id);
        }
    }
    let mut edges = Vec::new();
    for ([a, b], ids) in edge_planes {
        match ids[..] {
            [f, g] if f != g => edges.push(Edge { points: [local(a), local(b)], faces: [f as u8, g as u8] }),
            [f, g] if f == g => {}
            // Not two faces at an edge: not a closed polytope.
            _ => return None,
        }
    }
    let belted = points.len() == 5 && planes.len() == 5 && edges.len() == 8;
    if belted {
        // Points as apex, b0 … b3 (the base in cyclic order), so that the belt is fixed: BELT.
        let belt = pyramid_belt(&edges)?;
        let apex = belt[0].points.into_iter().find(|v| belt[2].points.contains(v))?;
        let mut order = vec![apex];
        order.extend((0..4).map(|k| belt[2 * k].points.into_iter().find(|&v| v != apex).unwrap_or(apex)));
        let position = |v: u8| order.iter().position(|&w| w == v).map(|k| k as u8);
        edges = belt
            .iter()
            .map(|e| Some(Edge { points: [position(e.points[0])?, position(e.points[1])?], faces: e.faces }))
            .collect::<Option<Vec<Edge>>>()?;
        let moved: Vec<Point3> = order.iter().map(|&v| points[usize::from(v)]).collect();
        if edges
            .iter()
            .zip(BELT)
            .any(|(e, (i, j))| e.points != [i as u8, j as u8] && e.points != [j as u8, i as u8])
        {
            return None;
        }
        return Some(CellShape { points: moved, planes, edges, belted });
    }
    Some(CellShape { points, planes, edges, belted })
}

/// A square pyramid's edges in belt order, its points ordered apex, b0 … b3 ([`pyramid_belt`]).
const BELT: [(usize, usize); 8] = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 3), (3, 4), (0, 4), (4, 1)];

/// A square pyramid's eight edges in belt order: apex–b0, b0–b1, apex–b1, b1–b2, …, b3–b0 for
/// its base b0…b3 in cyclic order. Consecutive edges share a face, and the plane sections of a
/// pyramid cross a run of them that goes once around the apex, so the crossing points come in
/// cyclic order. `None` if the edges are not a pyramid's (one point on four edges, the others
/// on three).
fn pyramid_belt(edges: &[Edge]) -> Option<Vec<Edge>> {
    let mut degree = [0usize; 5];
    for e in edges {
        for &v in &e.points {
            *degree.get_mut(usize::from(v))? += 1;
        }
    }
    let apex = degree.iter().position(|&k| k == 4)? as u8;
    if degree.iter().filter(|&&k| k == 3).count() != 4 {
        return None;
    }
    let base: Vec<Edge> = edges.iter().copied().filter(|e| !e.points.contains(&apex)).collect();
    let side = |v: u8| edges.iter().copied().find(|e| e.points.contains(&apex) && e.points.contains(&v));
    // The base cycle from one base edge, each next edge sharing the last point.
    let mut cycle = vec![base.first()?.points[0]];
    let mut used = [false; 4];
    while cycle.len() < 4 {
        let last = *cycle.last()?;
        let (k, e) = base.iter().enumerate().find(|(k, e)| !used[*k] && e.points.contains(&last))?;
        used[k] = true;
        cycle.push(if e.points[0] == last { e.points[1] } else { e.points[0] });
    }
    let mut belt = Vec::with_capacity(8);
    for k in 0..4 {
        let (a, b) = (cycle[k], cycle[(k + 1) % 4]);
        belt.push(side(a)?);
        belt.push(*base.iter().find(|e| e.points.contains(&a) && e.points.contains(&b))?);
    }
    Some(belt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field;
    use crate::geometry::{Shape, mesher};

    fn cells_of(shape: &Shape, resolution: f64) -> (TetMesh, Cells) {
        let layered = mesher::layered_tet_mesh(shape, resolution).unwrap();
        let extent = field::extent_from_shells(&layered.shell);
        let fields = field::tet_fields(&layered.mesh, &extent);
        let cells = Cells::build(&layered.mesh, &fields);
        (layered.mesh, cells)
    }

    #[test]
    fn a_cube_is_six_pyramids_and_every_tet_is_in_one_cell() {
        let (mesh, cells) = cells_of(&Shape::Box { size: [0.1, 0.1, 0.1] }, 0.01);
        assert_eq!(mesh.tets.len(), 12);
        assert_eq!(cells.len(), 6);
        for c in 0..cells.len() {
            assert_eq!(cells.points(c).len(), 5, "a square pyramid");
            assert_eq!(cells.planes(c).len(), 5, "its base's two triangles merged");
        }
        let mut all: Vec<u32> = (0..cells.len()).flat_map(|c| cells.tets(c).to_vec()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..12).collect::<Vec<u32>>());
    }

    #[test]
    fn a_sphere_keeps_its_tets_as_cells() {
        let (mesh, cells) = cells_of(&Shape::Sphere { radius: 0.05 }, 0.02);
        assert_eq!(cells.len(), mesh.tets.len());
    }

    /// A cell's section is the union of its tets' sections: same area vector, and every
    /// point of the tets' sections inside the cell's polygon; over many planes.
    #[test]
    fn a_cells_section_is_its_tets_sections_joined() {
        use crate::geometry::clip::area_vector;
        for shape in [Shape::Box { size: [0.1, 0.1, 0.1] }, Shape::Box { size: [0.1, 0.2, 0.3] }] {
            let (mesh, cells) = cells_of(&shape, 0.01);
            assert!(cells.len() < mesh.tets.len());
            for k in 0..400 {
                let a = k as f64 * 0.37;
                let normal =
                    Vector3::new(a.sin() * (0.3 * a).cos(), a.cos() * (0.3 * a).cos(), (0.3 * a).sin());
                let plane = Plane::new(normal, 0.04 * (0.71 * a).sin());
                for c in 0..cells.len() {
                    let cell = area_vector(cells.section(c, &plane).points());
                    let tets: Vector3 = cells
                        .tets(c)
                        .iter()
                        .map(|&t| area_vector(TetSection::new(&mesh.tet(t as usize), &plane).points()))
                        .map(|v| if v.dot(&normal) < 0.0 { -v } else { v })
                        .sum();
                    let cell = if cell.dot(&normal) < 0.0 { -cell } else { cell };
                    assert!((cell - tets).norm() <= 1e-12, "cell {c}, plane {k}: {cell:?} against {tets:?}");
                }
            }
        }
    }
}
