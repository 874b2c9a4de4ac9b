//! One pair of bodies: which is primary, the relative pose, and the contact polygons.
//!
//! All geometry is computed in the frame of the *primary* body P (the compliant mesh when there
//! is one, else the compliant half space); the other body S is brought into P's frame. The
//! normal n̂ of each polygon points from S into P, so the force on P is along +n̂.

use super::body::{CompliantMesh, PfBody, PfGeometry, RigidMesh};
use super::candidate_cache::MAX_TASKS;
use super::cells::{CellSection, Cells};
use super::{CandidateCache, PlaneCache, PressureFieldError};
use crate::field::LinearField;
use crate::geometry::bvh::{Bvh, RelativePose, Tasks};
use crate::geometry::clip::{Polygon, TetSection};
use crate::math::{Isometry3, Matrix3, Plane, Point3, Twist, Vector3};

/// Runs `body` with `p` bound to each convex piece of cell `c` of compliant mesh `m`: the
/// cell, or with `fine` each of its tets. `body` is a labelled block (`'p: { … }`); `break 'p`
/// ends the piece. A piece that is a tet ([`TetPiece`], the usual case: most cells are one tet)
/// has its points and planes as arrays, so that its loops are unrolled; a larger cell is a
/// [`CellPiece`]. (A macro rather than a function taking a closure: such a closure, called from
/// several places, is not inlined, and slices' loops are not unrolled.)
macro_rules! for_pieces {
    ($m:expr, $c:expr, $fine:expr, |$p:ident| $label:lifetime: { $($body:tt)* }) => {{
        let (cells, c) = (&$m.cells, $c as usize);
        let points = cells.points(c);
        if let (Ok(points), Ok(planes)) =
            (<&[Point3; 4]>::try_from(points), <&[Plane; 4]>::try_from(cells.planes(c)))
        {
            let $p = &TetPiece { points, planes, whole: true };
            $label: { $($body)* }
        } else if $fine {
            for k in 0..cells.tets(c).len() {
                let $p = &TetPiece { points: cells.tet_points(c, k), planes: cells.tet_planes(c, k), whole: false };
                $label: { $($body)* }
            }
        } else {
            let $p = &CellPiece { cells, cell: c };
            $label: { $($body)* }
        }
    }};
}

/// A body, its pose in the world and its velocity.
#[derive(Clone, Copy, Debug)]
pub struct BodyState<'a> {
    pub body: &'a PfBody,
    pub pose: Isometry3,
    pub twist: Twist,
}

/// The kinds of pairs the model evaluates, primary first.
#[derive(Clone, Copy, Debug)]
pub enum PairKind<'a> {
    MeshMesh(&'a CompliantMesh, &'a CompliantMesh),
    MeshRigid(&'a CompliantMesh, &'a RigidMesh),
    MeshRigidHalfSpace(&'a CompliantMesh),
    MeshCompliantHalfSpace(&'a CompliantMesh, f64),
    HalfSpaceRigid(f64, &'a RigidMesh),
}

/// A pair set up for queries in the primary body's frame.
#[derive(Clone, Copy, Debug)]
pub struct PairFrame<'a> {
    pub kind: PairKind<'a>,
    /// Whether the primary body is the pair's `b` (results are then negated for `a`).
    pub swapped: bool,
    pub primary: BodyState<'a>,
    pub secondary: BodyState<'a>,
    /// X_PS: the secondary's frame in the primary's frame.
    pub p_from_s: Isometry3,
    /// X_PS with its rotation as a matrix (cheaper to apply many times), for mesh–mesh and
    /// mesh–rigid-mesh pairs; other kinds do not use it (identity rotation).
    pub rel: RelativePose,
    /// Hydroelastic modulus of the secondary (`None` if rigid).
    pub secondary_modulus: Option<f64>,
    /// The plane z = 0 of the secondary's frame in the primary's (its half space's boundary,
    /// when it is one), computed once: polygons of a half-space pair each need it.
    secondary_boundary: Plane,
    /// The cells kept near a half space's plane from the pair's earlier queries, when the
    /// caller keeps them.
    plane_cache: Option<&'a PlaneCache>,
    /// The candidate pairs of two meshes kept from the pair's earlier queries, when the caller
    /// keeps them.
    candidate_cache: Option<&'a CandidateCache>,
}

impl<'a> PairFrame<'a> {
    /// Orders the pair and checks that the model can evaluate it.
    pub fn new(a: BodyState<'a>, b: BodyState<'a>) -> Result<PairFrame<'a>, PressureFieldError> {
        use PfGeometry::*;
        let rank = |g: &PfGeometry| match g {
            CompliantMesh(_) => 0,
            CompliantHalfSpace { .. } => 1,
            RigidMesh(_) => 2,
            RigidHalfSpace => 3,
            Nothing => 4,
        };
        let swapped = rank(&b.body.geometry) < rank(&a.body.geometry);
        let (p, s) = if swapped { (b, a) } else { (a, b) };
        let kind = match (&p.body.geometry, &s.body.geometry) {
            // Ranked last: the secondary is the one without a shape if either is.
            (_, Nothing) => return Err(PressureFieldError::NoShape),
            (CompliantMesh(m), CompliantMesh(n)) => PairKind::MeshMesh(m, n),
            (CompliantMesh(m), RigidMesh(r)) => PairKind::MeshRigid(m, r),
            (CompliantMesh(m), RigidHalfSpace) => PairKind::MeshRigidHalfSpace(m),
            (CompliantMesh(m), CompliantHalfSpace { slab_thickness }) => {
                let e = s.body.modulus.unwrap_or(0.0);
                PairKind::MeshCompliantHalfSpace(m, e / slab_thickness)
            }
            (CompliantHalfSpace { slab_thickness }, RigidMesh(r)) => {
                let e = p.body.modulus.unwrap_or(0.0);
                PairKind::HalfSpaceRigid(e / slab_thickness, r)
            }
            (CompliantHalfSpace { .. }, _) => return Err(PressureFieldError::TwoHalfSpaces),
            _ => return Err(PressureFieldError::RigidRigid),
        };
        let p_from_s = p.pose.inverse() * s.pose;
        // The rotation as a matrix serves the mesh–mesh traversals only.
        let rel = match kind {
            PairKind::MeshMesh(..) | PairKind::MeshRigid(..) => RelativePose::new(&p_from_s),
            _ => RelativePose { rotation: Matrix3::identity(), translation: p_from_s.translation.vector },
        };
        Ok(PairFrame {
            kind,
            swapped,
            primary: p,
            secondary: s,
            p_from_s,
            rel,
            secondary_modulus: s.body.modulus,
            secondary_boundary: Plane::new(Vector3::z(), 0.0).transformed(&p_from_s),
            plane_cache: None,
            candidate_cache: None,
        })
    }

    /// The pair with the cache its traversals of a half space's plane may use.
    pub fn with_plane_cache(self, plane_cache: Option<&'a PlaneCache>) -> PairFrame<'a> {
        PairFrame { plane_cache, ..self }
    }

    /// The pair with the cache its traversals of two meshes may use.
    pub fn with_candidate_cache(self, candidate_cache: Option<&'a CandidateCache>) -> PairFrame<'a> {
        PairFrame { candidate_cache, ..self }
    }

    /// The secondary's half-space plane z ≤ 0 in the primary's frame (inside = solid).
    pub fn secondary_plane(&self) -> Plane {
        self.secondary_boundary
    }

    /// The static pressure field of a compliant half space secondary, in the primary's frame.
    pub fn half_space_field(&self, e_over_slab: f64) -> LinearField {
        transform_field(
            &LinearField { gradient: Vector3::new(0.0, 0.0, -e_over_slab), offset: 0.0 },
            &self.p_from_s,
        )
    }

    /// Candidate primitive pairs (primary index, secondary index; for half spaces the secondary
    /// index is 0), in a deterministic order. With `volume`, also primitives entirely inside
    /// a half space (needed for energies, not for surfaces).
    pub fn candidates(&self, volume: bool) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        match self.kind {
            PairKind::MeshMesh(m, n) => {
                m.bvh.overlapping_pairs(&n.bvh, &self.p_from_s, &mut |i, j| out.push((i, j)))
            }
            PairKind::MeshRigid(m, r) => {
                m.bvh.overlapping_pairs(&r.bvh, &self.p_from_s, &mut |i, j| out.push((i, j)))
            }
            PairKind::MeshRigidHalfSpace(m) => {
                m.bvh.below_plane(&self.secondary_plane(), !volume, &mut |i| out.push((i, 0)))
            }
            PairKind::MeshCompliantHalfSpace(m, _) => {
                m.bvh.below_plane(&self.secondary_plane(), false, &mut |i| out.push((i, 0)))
            }
            PairKind::HalfSpaceRigid(_, r) => {
                r.bvh.below_plane(&self.primary_plane_in_secondary(), false, &mut |j| out.push((0, j)))
            }
        }
        out
    }

    /// Splits the candidate search into independent tasks (deterministic, independent of the
    /// number of threads), and estimates the work as the number of primitives they cover (0 for
    /// a query of one task).
    pub fn tasks(&self) -> (Tasks<(u32, u32)>, u64) {
        // About one task per 256 primitives of the larger body, at most 64: small queries stay
        // one task (no splitting overhead), large ones get enough tasks to balance threads.
        // Depends only on the meshes, never on the thread count.
        let target = |a: &Bvh, b: Option<&Bvh>| task_count(a.size(0).max(b.map_or(0, |b| b.size(0))));
        let (a, b) = match self.kind {
            PairKind::MeshMesh(m, n) => (&m.bvh, Some(&n.bvh)),
            PairKind::MeshRigid(m, r) => (&m.bvh, Some(&r.bvh)),
            PairKind::MeshRigidHalfSpace(m) | PairKind::MeshCompliantHalfSpace(m, _) => (&m.bvh, None),
            PairKind::HalfSpaceRigid(_, r) => (&r.bvh, None),
        };
        if target(a, b) == 1 {
            // One task from the roots: its traversal tests them itself.
            let empty = a.is_empty() || b.is_some_and(Bvh::is_empty);
            return (if empty { Tasks::new() } else { Tasks::from_elem((0, 0), 1) }, 0);
        }
        let rel = self.rel;
        match self.kind {
            PairKind::MeshMesh(m, n) => pair_tasks(&m.bvh, &n.bvh, &rel, target(&m.bvh, Some(&n.bvh))),
            PairKind::MeshRigid(m, r) => pair_tasks(&m.bvh, &r.bvh, &rel, target(&m.bvh, Some(&r.bvh))),
            PairKind::MeshRigidHalfSpace(m) => {
                plane_tasks(&m.bvh, &self.secondary_plane(), true, target(&m.bvh, None))
            }
            PairKind::MeshCompliantHalfSpace(m, _) => {
                plane_tasks(&m.bvh, &self.secondary_plane(), false, target(&m.bvh, None))
            }
            PairKind::HalfSpaceRigid(_, r) => {
                plane_tasks(&r.bvh, &self.primary_plane_in_secondary(), false, target(&r.bvh, None))
            }
        }
    }

    /// Calls `visit` with every candidate of one task from [`PairFrame::tasks`].
    pub fn run_task(&self, task: (u32, u32), visit: &mut impl FnMut((u32, u32))) {
        match self.kind {
            PairKind::MeshMesh(m, n) => self.mesh_pairs(&m.bvh, &n.bvh, task, visit),
            PairKind::MeshRigid(m, r) => self.mesh_pairs(&m.bvh, &r.bvh, task, visit),
            PairKind::MeshRigidHalfSpace(m) => match self.plane_cache {
                // One task from the root: the kept cells stand for its traversal.
                Some(cache) if task_count(m.bvh.size(0)) == 1 => {
                    cache.visit(&m.bvh, &self.secondary_plane(), true, &mut |i| visit((i, 0)))
                }
                _ => m.bvh.plane_from(&self.secondary_plane(), true, task.0, &mut |i| visit((i, 0))),
            },
            PairKind::MeshCompliantHalfSpace(m, _) => {
                m.bvh.plane_from(&self.secondary_plane(), false, task.0, &mut |i| visit((i, 0)))
            }
            PairKind::HalfSpaceRigid(_, r) => {
                r.bvh.plane_from(&self.primary_plane_in_secondary(), false, task.0, &mut |j| visit((0, j)))
            }
        }
    }

    /// [`PairFrame::run_task`] for two meshes' hierarchies (primary, secondary).
    fn mesh_pairs(&self, a: &Bvh, b: &Bvh, task: (u32, u32), visit: &mut impl FnMut((u32, u32))) {
        match self.candidate_cache {
            // The kept pairs below the task's node pair stand for its traversal.
            Some(cache) if task_count(a.size(0).max(b.size(0))) <= MAX_TASKS => {
                let apart = |i: u32, j: u32, gap: f64| self.apart((i, j), gap);
                let tasks = task_count(a.size(0).max(b.size(0)));
                cache.visit((a, b), &self.rel, (task, tasks), &apart, &mut |i, j| visit((i, j)))
            }
            _ => a.pairs_from(b, &self.rel, task, &mut |i, j| visit((i, j))),
        }
    }

    /// Whether a candidate's primitives are farther apart than `gap` along one of the axes of
    /// a separating-axis test: a face normal of the primary's cell, or the normal or an edge's
    /// in-plane outward normal of the secondary's rigid triangle (`false` for other kinds, and
    /// when unsure). Such a pair gives no polygon.
    pub fn apart(&self, (i, j): (u32, u32), gap: f64) -> bool {
        let PairKind::MeshRigid(m, r) = self.kind else { return false };
        let x = &self.p_from_s;
        let (cell, c) = (&m.cells, i as usize);
        let tri = r.mesh.triangle(j as usize).map(|p| x * p);
        let beyond = |plane: &Plane| {
            let len = plane.normal.norm();
            len > 0.0 && tri.iter().all(|p| plane.signed(p) > gap * len)
        };
        if cell.planes(c).iter().any(beyond) {
            return true;
        }
        let [a, b, c3] = tri;
        let Some(normal) = (b - a).cross(&(c3 - a)).try_normalize(0.0) else { return false };
        let points = cell.points(c);
        let range = |o: &Point3, axis: &Vector3| {
            points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                let s = (v - o).dot(axis);
                (lo.min(s), hi.max(s))
            })
        };
        let (lo, hi) = range(&a, &normal);
        if lo > gap || hi < -gap {
            return true;
        }
        [(a, b), (b, c3), (c3, a)].iter().any(|(p, q)| {
            let out = (q - p).cross(&normal);
            let len = out.norm();
            len > 0.0 && range(p, &out).0 > gap * len
        })
    }

    /// The primary half space's plane z ≤ 0 seen from the secondary's frame.
    fn primary_plane_in_secondary(&self) -> Plane {
        Plane::new(Vector3::z(), 0.0).transformed(&self.p_from_s.inverse())
    }

    /// Calls `visit` with the contact polygons of one candidate: each polygon (primary frame),
    /// the static pressure on it, the unit normal from the secondary into the primary, and the
    /// secondary's pressure gradient there (`None` when the secondary is rigid). A candidate is
    /// a pair of cells (or a cell and a half space or rigid triangle): one polygon, or with
    /// `fine` one per pair of their tets — the finer polygons a per-polygon quadrature of
    /// friction and dissipation needs (a cube's face pyramid is one cell but two tets; one
    /// three-point rule over a spinning face's square misses its friction torque by 7%). The
    /// elastic part is exact either way. (A visitor rather than a returned value: the polygon is
    /// a few hundred bytes, and moving it out cost a tenth of a query.)
    #[inline]
    pub fn with_polygon(
        &self,
        (i, j): (u32, u32),
        fine: bool,
        mut visit: impl FnMut(&[Point3], &LinearField, &Vector3, Option<&Vector3>),
    ) {
        let x = &self.p_from_s;
        match self.kind {
            PairKind::MeshMesh(m, n) => {
                let fp = m.cells.pressure[i as usize];
                let rel = &self.rel;
                let g = rel.rotation * n.cells.pressure[j as usize].gradient;
                let fs = LinearField {
                    gradient: g,
                    offset: n.cells.pressure[j as usize].offset - g.dot(&rel.translation),
                };
                let Some((plane, normal)) = equilibrium_plane(&fp, &fs) else { return };
                // The plane seen from the secondary: (Rᵀn)·y = o − n·t. (Tested first: a few
                // dot products reject most pairs before the section is cut.)
                let in_s = Plane::new(
                    rel.rotation.tr_mul(&plane.normal),
                    plane.offset - plane.normal.dot(&rel.translation),
                );
                if !plane_cuts(n.cells.points(j as usize), &in_s) {
                    return;
                }
                for_pieces!(m, i, fine, |p| 'p: {
                    for_pieces!(n, j, fine, |q| 'q: {
                        if !q.whole() && !plane_cuts(q.points(), &in_s) {
                            break 'q;
                        }
                        let mut poly = Polygon::from_points(p.section(&plane).points());
                        if poly.is_empty() {
                            break 'p;
                        }
                        for pl in q.planes() {
                            let normal = rel.rotation * pl.normal;
                            let moved = Plane::new(normal, pl.offset + normal.dot(&rel.translation));
                            if !poly.clip_in_place(&moved) {
                                break 'q;
                            }
                        }
                        visit(poly.points(), &fp, &normal, Some(&fs.gradient));
                    })
                });
            }
            PairKind::MeshRigid(m, r) => {
                let [a, b, c] = r.mesh.triangle(j as usize).map(|p| x * p);
                let Some(normal) = (b - a).cross(&(c - a)).try_normalize(0.0) else { return };
                // A triangle lying in a face of the cell lies in the face of the cell on its
                // other side too: it belongs to the one in front of it (on its normal's side)
                // only, or both would count it. Within round-off of the triangle's size.
                let tolerance = COPLANAR * (b - a).norm().max((c - a).norm());
                for_pieces!(m, i, fine, |p| 'p: {
                    if separated(p.points(), [a, b, c], &normal, tolerance) {
                        break 'p;
                    }
                    let mut poly = Polygon::from_points(&[a, b, c]);
                    for pl in p.planes() {
                        if [a, b, c].iter().all(|p| pl.signed(p).abs() <= tolerance) {
                            if pl.normal.dot(&normal) > 0.0 {
                                break 'p;
                            }
                            continue;
                        }
                        if !poly.clip_in_place(pl) {
                            break 'p;
                        }
                    }
                    visit(poly.points(), &m.cells.pressure[i as usize], &normal, None);
                });
            }
            PairKind::MeshRigidHalfSpace(m) => {
                let plane = self.secondary_plane();
                let field = &m.cells.pressure[i as usize];
                for_pieces!(m, i, fine, |p| '_p: {
                    let section = p.section(&plane);
                    if !section.points().is_empty() {
                        visit(section.points(), field, &plane.normal, None);
                    }
                });
            }
            PairKind::MeshCompliantHalfSpace(m, k) => {
                let fp = m.cells.pressure[i as usize];
                let fs = self.half_space_field(k);
                let Some((plane, normal)) = equilibrium_plane(&fp, &fs) else { return };
                for_pieces!(m, i, fine, |p| '_p: {
                    let poly = Polygon::from_points(p.section(&plane).points()).clip(&self.secondary_plane());
                    if !poly.is_empty() {
                        visit(poly.points(), &fp, &normal, Some(&fs.gradient));
                    }
                });
            }
            PairKind::HalfSpaceRigid(k, r) => {
                let [a, b, c] = r.mesh.triangle(j as usize).map(|p| x * p);
                let poly = Polygon::from_points(&[a, b, c]).clip(&Plane::new(Vector3::z(), 0.0));
                let Some(normal) = (b - a).cross(&(c - a)).try_normalize(0.0) else { return };
                let fp = LinearField { gradient: Vector3::new(0.0, 0.0, -k), offset: 0.0 };
                if !poly.is_empty() {
                    visit(poly.points(), &fp, &normal, None);
                }
            }
        }
    }
}

/// A tet that polygons are cut from: a cell of one tet, or one tet of a larger cell.
struct TetPiece<'a> {
    points: &'a [Point3; 4],
    /// Outward face planes; plane `i` opposite point `i`.
    planes: &'a [Plane; 4],
    /// Whether the tet is its whole cell.
    whole: bool,
}

impl TetPiece<'_> {
    #[inline(always)]
    fn whole(&self) -> bool {
        self.whole
    }

    #[inline(always)]
    fn points(&self) -> &[Point3; 4] {
        self.points
    }

    #[inline(always)]
    fn planes(&self) -> &[Plane; 4] {
        self.planes
    }

    #[inline(always)]
    fn section(&self, plane: &Plane) -> TetSection {
        TetSection::new(self.points, plane)
    }
}

/// A cell of more than one tet, cut whole.
struct CellPiece<'a> {
    cells: &'a Cells,
    cell: usize,
}

impl CellPiece<'_> {
    #[inline(always)]
    fn whole(&self) -> bool {
        true
    }

    #[inline(always)]
    fn points(&self) -> &[Point3] {
        self.cells.points(self.cell)
    }

    #[inline(always)]
    fn planes(&self) -> &[Plane] {
        self.cells.planes(self.cell)
    }

    #[inline(always)]
    fn section(&self, plane: &Plane) -> CellSection {
        self.cells.section(self.cell, plane)
    }
}

/// Distances below this fraction of a triangle's size count as lying in a plane.
const COPLANAR: f64 = 1e-10;

/// Whether a convex piece (a tet or a cell, by its points) and a triangle (counter-clockwise
/// about its unit `normal`) are farther apart than `tolerance` along the triangle's normal or one
/// of its edges' outward in-plane normals: then clipping the triangle by the piece leaves nothing. The boxes of a large triangle hold many
/// tets that miss it (a right triangle fills half its box): this rejects them for 4 dot products
/// per axis instead of four clips (a sphere on a rigid prism's ridge: 1241 of 1307 candidates).
#[inline(always)]
fn separated(cell: &[Point3], [a, b, c]: [Point3; 3], normal: &Vector3, tolerance: f64) -> bool {
    let range = |o: &Point3, axis: &Vector3| {
        cell.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let s = (v - o).dot(axis);
            (lo.min(s), hi.max(s))
        })
    };
    let (lo, hi) = range(&a, normal);
    if lo > tolerance || hi < -tolerance {
        return true;
    }
    [(a, b), (b, c), (c, a)].iter().any(|(p, q)| {
        let out = (q - p).cross(normal);
        range(p, &out).0 > tolerance * out.norm()
    })
}

fn pair_tasks(a: &Bvh, b: &Bvh, rel: &RelativePose, target: usize) -> (Tasks<(u32, u32)>, u64) {
    let tasks = a.pair_tasks(b, rel, target);
    let work = tasks.iter().map(|&(i, j)| u64::from(a.size(i) + b.size(j))).sum();
    (tasks, work)
}

/// How many tasks a query over hierarchies of at most `n` primitives splits into: about one per
/// 256, at most 64.
fn task_count(n: u32) -> usize {
    (n as usize / 256).clamp(1, 64)
}

fn plane_tasks(a: &Bvh, plane: &Plane, crossing_only: bool, target: usize) -> (Tasks<(u32, u32)>, u64) {
    let tasks: Tasks<(u32, u32)> =
        a.plane_tasks(plane, crossing_only, target).into_iter().map(|i| (i, 0)).collect();
    let work = tasks.iter().map(|&(i, _)| u64::from(a.size(i))).sum();
    (tasks, work)
}

/// Whether the plane passes through the cell (vertices on both sides).
#[inline(always)]
fn plane_cuts(cell: &[Point3], plane: &Plane) -> bool {
    let (mut below, mut above) = (false, false);
    for v in cell {
        let d = plane.signed(v);
        below |= d < 0.0;
        above |= d > 0.0;
    }
    below && above
}

/// A linear field given in frame S expressed in frame P, with `p_from_s` = X_PS.
#[inline]
pub fn transform_field(f: &LinearField, p_from_s: &Isometry3) -> LinearField {
    let g = p_from_s.rotation * f.gradient;
    LinearField { gradient: g, offset: f.offset - g.dot(&p_from_s.translation.vector) }
}

/// The plane where the two linear pressures are equal, as a plane whose inside is
/// `p_primary ≤ p_secondary`, and its unit normal (from the secondary into the primary).
/// `None` where the plane is undefined or the gradients do not point into their own bodies
/// (∇p_P · n̂ > 0 and ∇p_S · n̂ < 0 are required).
#[inline]
pub fn equilibrium_plane(fp: &LinearField, fs: &LinearField) -> Option<(Plane, Vector3)> {
    let g = fp.gradient - fs.gradient;
    let len = g.norm();
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    let n = g / len;
    if fp.gradient.dot(&n) <= 0.0 || fs.gradient.dot(&n) >= 0.0 {
        return None;
    }
    Some((Plane::new(g, fs.offset - fp.offset), n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tet_planes;

    /// Wherever the quick test says a tet and a triangle are apart, clipping the triangle by the
    /// tet leaves nothing; and it says so for most pairs that miss (else it spares nothing).
    #[test]
    fn separated_pairs_clip_to_nothing() {
        use proptest::prelude::RngExt;
        use proptest::test_runner::{RngAlgorithm, TestRng};
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut rnd = move || rng.random::<f64>() - 0.5;
        let (mut apart, mut missed) = (0, 0);
        for _ in 0..20_000 {
            let mut point = || Point3::new(rnd(), rnd(), rnd() * 0.3);
            let mut tet = [point(), point(), point(), point()];
            if (tet[1] - tet[0]).dot(&(tet[2] - tet[0]).cross(&(tet[3] - tet[0]))) < 0.0 {
                tet.swap(2, 3);
            }
            let tri = [point(), point(), point()];
            let Some(normal) = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).try_normalize(0.0) else {
                continue;
            };
            let tolerance = COPLANAR * (tri[1] - tri[0]).norm().max((tri[2] - tri[0]).norm());
            let mut poly = Polygon::from_points(&tri);
            let clipped = tet_planes(&tet).iter().all(|pl| poly.clip_in_place(pl)) && !poly.is_empty();
            let is_apart = separated(&tet, tri, &normal, tolerance);
            assert!(!(is_apart && clipped), "separated, yet the clip leaves {:?}", poly.points());
            apart += usize::from(is_apart);
            missed += usize::from(!clipped);
        }
        assert!(apart > missed / 2, "the test rejected {apart} of {missed} pairs that miss");
    }
}
