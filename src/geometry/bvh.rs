//! Bounding-volume hierarchies of oriented boxes, built once in a body frame and traversed with
//! the relative pose of two bodies.
//!
//! Oriented boxes (from the principal axes of each node's points) bound the long thin tets of
//! layered meshes far more tightly than axis-aligned boxes, and cost the same to test once the
//! two bodies are rotated relative to each other.

use crate::math::{Isometry3, Matrix3, Plane, Point3, Vector3};
use smallvec::SmallVec;

/// Task roots of a query: most queries are one task, kept off the heap.
pub type Tasks<T> = SmallVec<[T; 4]>;

/// Relative growth of boxes in overlap tests (see `Obb::overlaps_centered`): far above
/// round-off, far below any gap that matters.
const OVERLAP_MARGIN: f64 = 1e-9;

/// An oriented box: centre, orthonormal axes (columns) and half extents along them.
#[derive(Clone, Copy, Debug)]
pub struct Obb {
    pub center: Point3,
    pub axes: Matrix3,
    pub half: Vector3,
}

impl Obb {
    /// The box that bounds `points` along their principal axes, or along the frame's axes
    /// when that box is smaller (principal axes are arbitrary for symmetric point sets such
    /// as a cube's, and a box along them can be far too big).
    pub fn fit(points: &[Point3]) -> Obb {
        let n = points.len().max(1) as f64;
        let mean = points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n;
        let mut cov = Matrix3::zeros();
        for p in points {
            let d = p.coords - mean;
            cov += d * d.transpose();
        }
        let principal = Self::fit_axes(points, principal_axes(&cov));
        let aligned = Self::fit_axes(points, Matrix3::identity());
        if aligned.half.product() <= principal.half.product() { aligned } else { principal }
    }

    /// The box that bounds `points` along the given orthonormal axes (columns).
    fn fit_axes(points: &[Point3], axes: Matrix3) -> Obb {
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        for p in points {
            let q = axes.transpose() * p.coords;
            lo = lo.inf(&q);
            hi = hi.sup(&q);
        }
        let mid = (lo + hi) * 0.5;
        Obb { center: Point3::from(axes * mid), axes, half: (hi - lo) * 0.5 }
    }

    /// Whether this box (in frame A) overlaps `other` given in frame B, with `a_from_b` = X_AB
    /// (separating-axis test over the 15 candidate axes).
    pub fn overlaps(&self, other: &Obb, a_from_b: &Isometry3) -> bool {
        self.overlaps_rel(other, &RelativePose::new(a_from_b))
    }

    /// [`Obb::overlaps`] with the relative pose prepared once.
    #[inline]
    pub fn overlaps_rel(&self, other: &Obb, rel: &RelativePose) -> bool {
        self.overlaps_axes(other, rel, true)
    }

    /// The separating-axis test over the six face axes, and the nine edge–edge axes when
    /// `edges` is set. Without them the test is conservative (it may report an overlap that an
    /// edge axis would rule out). The rows of the relative rotation are built one at a time, so
    /// the common early rejection on one of this box's axes costs a third of the full test.
    #[inline]
    pub fn overlaps_axes(&self, other: &Obb, rel: &RelativePose, edges: bool) -> bool {
        let b_center = rel.rotation * other.center.coords + rel.translation;
        self.overlaps_centered(other, &b_center, rel, edges)
    }

    #[inline]
    fn overlaps_centered(&self, other: &Obb, b_center: &Vector3, rel: &RelativePose, edges: bool) -> bool {
        const EPS: f64 = 1e-12;
        let d = b_center - self.center.coords;
        // Boxes grown by a hair of their size: a flat box (a triangle's) touching another
        // across a round-off gap is a candidate, so that contact geometry lying exactly in a
        // face is decided by the pair's own rules, not by which side round-off put it on.
        let grow = |h: Vector3, m: f64| h.add_scalar(m);
        let margin = OVERLAP_MARGIN * (self.half.max() + other.half.max());
        let (a, b) = (grow(self.half, margin), grow(other.half, margin));
        // r[i][j] = a_i · (R b_j) = (Rᵀ a_i) · b_j; t[i] = a_i · d.
        let mut r = [[0.0; 3]; 3];
        let mut abs_r = [[0.0; 3]; 3];
        let mut t = [0.0; 3];
        for i in 0..3 {
            let ai = self.axes.column(i);
            let u = rel.rotation.tr_mul(&ai);
            let mut rb = 0.0;
            for j in 0..3 {
                let rij = u.dot(&other.axes.column(j));
                r[i][j] = rij;
                abs_r[i][j] = rij.abs() + EPS;
                rb += b[j] * abs_r[i][j];
            }
            t[i] = ai.dot(&d);
            if t[i].abs() > a[i] + rb {
                return false;
            }
        }
        for j in 0..3 {
            let ra = a[0] * abs_r[0][j] + a[1] * abs_r[1][j] + a[2] * abs_r[2][j];
            let tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
            if tj.abs() > ra + b[j] {
                return false;
            }
        }
        if !edges {
            return true;
        }
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ra = a[i1] * abs_r[i2][j] + a[i2] * abs_r[i1][j];
                let rb = b[j1] * abs_r[i][j2] + b[j2] * abs_r[i][j1];
                let tt = t[i2] * r[i1][j] - t[i1] * r[i2][j];
                if tt.abs() > ra + rb {
                    return false;
                }
            }
        }
        true
    }

    /// The range of `plane.signed(x)` over the box.
    pub fn plane_range(&self, plane: &Plane) -> (f64, f64) {
        let c = plane.signed(&self.center);
        let proj = self.axes.transpose() * plane.normal;
        let r = proj.abs().dot(&self.half);
        (c - r, c + r)
    }

    /// The axis-aligned bounds of this box after `pose`.
    pub fn aabb(&self, pose: &Isometry3) -> (Point3, Point3) {
        let ext = self.extents(pose.rotation.to_rotation_matrix().matrix());
        let c = pose * self.center;
        (c - ext, c + ext)
    }

    /// The half extents along the frame's axes of this box turned by `rotation`.
    #[inline]
    fn extents(&self, rotation: &Matrix3) -> Vector3 {
        let axes = rotation * self.axes;
        Vector3::from_fn(|i, _| (0..3).map(|j| axes[(i, j)].abs() * self.half[j]).sum())
    }
}

/// Orthonormal eigenvectors of a symmetric 3×3 matrix, as columns, sorted by decreasing
/// eigenvalue; the identity when the matrix carries no direction (e.g. a single point).
fn principal_axes(cov: &Matrix3) -> Matrix3 {
    if !cov.iter().all(|x| x.is_finite()) || cov.norm() == 0.0 {
        return Matrix3::identity();
    }
    let eig = nalgebra::SymmetricEigen::new(*cov);
    let mut idx = [0usize, 1, 2];
    idx.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let e0 = eig.eigenvectors.column(idx[0]).normalize();
    let e1 = eig.eigenvectors.column(idx[1]);
    let e1 = (e1 - e0 * e0.dot(&e1)).normalize();
    let e2 = e0.cross(&e1);
    if !(e0.iter().chain(e1.iter()).all(|x| x.is_finite())) {
        return Matrix3::identity();
    }
    Matrix3::from_columns(&[e0, e1, e2])
}

/// A node: its box, and either two children or one primitive.
#[derive(Clone, Debug)]
struct Node {
    obb: Obb,
    /// Radius of the sphere about the box centre that holds the box: a cheap first test.
    radius: f64,
    /// Number of primitives below this node.
    size: u32,
    /// For an internal node, the index of the second child (the first is the next node);
    /// for a leaf, `u32::MAX`.
    right: u32,
    /// For a leaf, the primitive index.
    primitive: u32,
}

/// A hierarchy of oriented boxes over primitives (tets or triangles), one primitive a leaf.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    nodes: Vec<Node>,
}

impl Bvh {
    /// Builds the hierarchy over `count` primitives whose points `points_of(i)` gives.
    pub fn build<const K: usize>(count: usize, points_of: impl Fn(usize) -> [Point3; K]) -> Bvh {
        Self::build_with(count, |i, out| out.extend_from_slice(&points_of(i)))
    }

    /// [`Bvh::build`] over primitives of any number of points: `append(i, out)` appends
    /// primitive `i`'s points to `out`.
    pub fn build_with(count: usize, append: impl Fn(usize, &mut Vec<Point3>)) -> Bvh {
        let mut bvh = Bvh { nodes: Vec::with_capacity(2 * count) };
        if count == 0 {
            return bvh;
        }
        let mut points = Vec::new();
        let centroids: Vec<Point3> = (0..count)
            .map(|i| {
                points.clear();
                append(i, &mut points);
                Point3::from(points.iter().fold(Vector3::zeros(), |s, x| s + x.coords) / points.len() as f64)
            })
            .collect();
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut scratch = Vec::new();
        bvh.build_node(&mut order[..], &centroids, &append, &mut scratch);
        bvh
    }

    fn build_node(
        &mut self,
        items: &mut [u32],
        centroids: &[Point3],
        append: &impl Fn(usize, &mut Vec<Point3>),
        scratch: &mut Vec<Point3>,
    ) -> u32 {
        scratch.clear();
        for &i in items.iter() {
            append(i as usize, scratch);
        }
        let obb = Obb::fit(scratch);
        let me = self.nodes.len() as u32;
        let (radius, size) = (obb.half.norm(), items.len() as u32);
        if items.len() == 1 {
            self.nodes.push(Node { obb, radius, size, right: u32::MAX, primitive: items[0] });
            return me;
        }
        self.nodes.push(Node { obb, radius, size, right: 0, primitive: u32::MAX });
        // Split at the median of the centroids along the box axis where the centroids spread
        // most. (Not the box's longest axis: a bundle of long thin tets fanning out from a
        // core is longest along the tets, while its tets spread across them.)
        let mut axis = obb.axes.column(0).into_owned();
        let mut widest = f64::NEG_INFINITY;
        for k in 0..3 {
            let dir = obb.axes.column(k).into_owned();
            let (lo, hi) = items.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &i| {
                let x = dir.dot(&centroids[i as usize].coords);
                (lo.min(x), hi.max(x))
            });
            if hi - lo > widest {
                widest = hi - lo;
                axis = dir;
            }
        }
        let key = |i: &u32| axis.dot(&centroids[*i as usize].coords);
        let mid = items.len() / 2;
        items.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
        let (left, right) = items.split_at_mut(mid);
        self.build_node(left, centroids, append, scratch);
        let r = self.build_node(right, centroids, append, scratch);
        self.nodes[me as usize].right = r;
        me
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root box (bounds everything), if any.
    pub fn root(&self) -> Option<&Obb> {
        self.nodes.first().map(|n| &n.obb)
    }

    /// Calls `visit(i, j)` for every pair of primitives (i of `self`, j of `other`) whose boxes
    /// overlap, with `a_from_b` = X_AB the pose of `other`'s frame in `self`'s frame. The order
    /// of visits is deterministic.
    pub fn overlapping_pairs(&self, other: &Bvh, a_from_b: &Isometry3, visit: &mut impl FnMut(u32, u32)) {
        let rel = RelativePose::new(a_from_b);
        if !self.nodes.is_empty() && !other.nodes.is_empty() {
            self.pairs_from(other, &rel, (0, 0), visit);
        }
    }

    /// Splits the traversal of `self` against `other` into about `target` independent tasks
    /// (pairs of nodes whose boxes overlap), in a deterministic order that does not depend on
    /// the number of threads. Each task is finished with [`Bvh::pairs_from`].
    pub fn pair_tasks(&self, other: &Bvh, rel: &RelativePose, target: usize) -> Tasks<(u32, u32)> {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return Tasks::new();
        }
        let mut frontier: Tasks<(u32, u32)> = smallvec::smallvec![(0u32, 0u32)];
        if !self.overlap(other, rel, 0, 0) {
            return Tasks::new();
        }
        while frontier.len() < target {
            let mut next = Tasks::with_capacity(frontier.len() * 4);
            let mut grew = false;
            for &(a, b) in &frontier {
                let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
                let a_kids = if na.right == u32::MAX { [a, a] } else { [a + 1, na.right] };
                let b_kids = if nb.right == u32::MAX { [b, b] } else { [b + 1, nb.right] };
                let a_n = if na.right == u32::MAX { 1 } else { 2 };
                let b_n = if nb.right == u32::MAX { 1 } else { 2 };
                grew |= a_n * b_n > 1;
                for &ca in &a_kids[..a_n] {
                    for &cb in &b_kids[..b_n] {
                        if (ca, cb) == (a, b) || self.overlap(other, rel, ca, cb) {
                            next.push((ca, cb));
                        }
                    }
                }
            }
            frontier = next;
            if !grew {
                break;
            }
        }
        frontier
    }

    /// Calls `visit(i, j)` for every pair of overlapping primitives below the node pair `start`:
    /// the pairs whose boxes overlap, or between small subtrees those whose axis-aligned bounds
    /// in `self`'s frame do (more pairs; callers test each pair itself). The order is
    /// deterministic: the traversal's, or the scan's (see `scan_pairs`).
    pub fn pairs_from(
        &self,
        other: &Bvh,
        rel: &RelativePose,
        start: (u32, u32),
        visit: &mut impl FnMut(u32, u32),
    ) {
        let (size_a, size_b) = (self.nodes[start.0 as usize].size, other.nodes[start.1 as usize].size);
        if (size_a as usize) * (size_b as usize) <= SCAN_PAIRS {
            if self.overlap(other, rel, start.0, start.1) {
                self.scan_pairs(other, rel, start, visit);
            }
            return;
        }
        // On the stack: a query runs this thousands of times a second.
        let mut stack: SmallVec<[(u32, u32); 64]> = SmallVec::new();
        stack.push(start);
        while let Some((a, b)) = stack.pop() {
            if !self.overlap(other, rel, a, b) {
                continue;
            }
            let na = &self.nodes[a as usize];
            let nb = &other.nodes[b as usize];
            let a_leaf = na.right == u32::MAX;
            let b_leaf = nb.right == u32::MAX;
            if a_leaf && b_leaf {
                visit(na.primitive, nb.primitive);
            } else {
                push_children(&mut stack, (a, na, a_leaf), (b, nb, b_leaf));
            }
        }
    }

    /// Whether [`Bvh::pairs_from`] from the node pair `start` walks the hierarchies (rather
    /// than scanning them, which visits in another order): what [`Bvh::pairs_near`] mirrors.
    pub fn traverses_pairs(&self, other: &Bvh, start: (u32, u32)) -> bool {
        (self.size(start.0) as usize) * (other.size(start.1) as usize) > SCAN_PAIRS
    }

    /// The node indices of the subtree below `node` (contiguous, depth-first).
    pub fn subtree(&self, node: u32) -> std::ops::Range<u32> {
        node..node + (2 * self.size(node)).saturating_sub(1)
    }

    /// The leaf pairs a traversal from the roots visits with `self`'s boxes grown by `margin`
    /// on every side and no edge–edge axes, as `visit(i, j, leaf_i, leaf_j)` (primitives and
    /// their leaf nodes): a depth-first walk that splits node pairs as [`Bvh::pairs_from`] and
    /// [`Bvh::pair_tasks`] do, so that below any node pair it keeps, its visits are those of
    /// `pairs_from` from that pair at any relative pose whose boxes stay near their places at
    /// `rel` (see `CandidateCache`), in the same order, and some more.
    pub fn pairs_near(
        &self,
        other: &Bvh,
        rel: &RelativePose,
        margin: f64,
        visit: &mut impl FnMut(u32, u32, u32, u32),
    ) {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let mut stack: SmallVec<[(u32, u32); 64]> = SmallVec::new();
        stack.push((0, 0));
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            let cb = rel.rotation * nb.obb.center.coords + rel.translation;
            let r = (na.radius + nb.radius) * (1.0 + 2.0 * OVERLAP_MARGIN) + margin;
            if (cb - na.obb.center.coords).norm_squared() > r * r {
                continue;
            }
            // (Its round-off allowance, from the boxes' sizes, grows with it: never less.)
            let grown = Obb { half: na.obb.half.add_scalar(margin), ..na.obb };
            if !grown.overlaps_centered(&nb.obb, &cb, rel, false) {
                continue;
            }
            let a_leaf = na.right == u32::MAX;
            let b_leaf = nb.right == u32::MAX;
            if a_leaf && b_leaf {
                visit(na.primitive, nb.primitive, a, b);
            } else {
                push_children(&mut stack, (a, na, a_leaf), (b, nb, b_leaf));
            }
        }
    }

    /// The radius about the frame's origin of a ball that holds every box of the hierarchy.
    pub fn reach(&self) -> f64 {
        self.nodes.iter().map(|n| n.obb.center.coords.norm() + n.radius).fold(0.0, f64::max)
    }

    /// Every pair of leaves below the node pair `start` whose bounds overlap, in depth-first
    /// order of `self`'s leaves, then `other`'s: for two small subtrees (two boxes' 12 tets
    /// each) the oriented-box tests of a traversal cost more than the primitive tests they
    /// spare. The bounds are the leaves' boxes' axis-aligned bounds in `self`'s frame, grown by
    /// more than the traversal's margin: they keep every pair whose grown boxes overlap. (The
    /// oriented test also keeps, through its round-off allowance on nearly parallel edges,
    /// pairs apart by up to about 1e-8 of their size; those are beyond every caller's own
    /// tolerance, so dropping them changes nothing.)
    fn scan_pairs(
        &self,
        other: &Bvh,
        rel: &RelativePose,
        start: (u32, u32),
        visit: &mut impl FnMut(u32, u32),
    ) {
        let mine: SmallVec<[&Node; 16]> = self.leaves(start.0).collect();
        let theirs: SmallVec<[&Node; 16]> = other.leaves(start.1).collect();
        let largest = |nodes: &[&Node]| nodes.iter().map(|n| n.obb.half.max()).fold(0.0, f64::max);
        // The traversal grows both boxes by OVERLAP_MARGIN·(sum of their largest halves) along
        // their axes: at most √3 times that along a frame axis. Twice that, for round-off.
        let grow = 2.0 * 3f64.sqrt() * OVERLAP_MARGIN * (largest(&mine) + largest(&theirs));
        let bounds = |obb: &Obb, rotation: &Matrix3, center: Vector3| {
            let ext = obb.extents(rotation).add_scalar(grow);
            (center - ext, center + ext)
        };
        let placed: SmallVec<[(u32, Vector3, Vector3); 16]> = theirs
            .iter()
            .map(|n| {
                let (lo, hi) =
                    bounds(&n.obb, &rel.rotation, rel.rotation * n.obb.center.coords + rel.translation);
                (n.primitive, lo, hi)
            })
            .collect();
        for n in &mine {
            let (lo, hi) = bounds(&n.obb, &Matrix3::identity(), n.obb.center.coords);
            for (j, lo_b, hi_b) in &placed {
                if (0..3).all(|k| lo[k] <= hi_b[k] && lo_b[k] <= hi[k]) {
                    visit(n.primitive, *j);
                }
            }
        }
    }

    /// The leaves below `node`, in depth-first order (a subtree's nodes are contiguous in the
    /// node array, `2·size − 1` of them).
    fn leaves(&self, node: u32) -> impl Iterator<Item = &Node> {
        let first = node as usize;
        let count = 2 * self.nodes[first].size as usize - 1;
        self.nodes[first..first + count].iter().filter(|n| n.right == u32::MAX)
    }

    /// Number of primitives below a node.
    pub fn size(&self, node: u32) -> u32 {
        self.nodes.get(node as usize).map_or(0, |n| n.size)
    }

    #[inline]
    fn overlap(&self, other: &Bvh, rel: &RelativePose, a: u32, b: u32) -> bool {
        let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
        let cb = rel.rotation * nb.obb.center.coords + rel.translation;
        let r = (na.radius + nb.radius) * (1.0 + 2.0 * OVERLAP_MARGIN);
        if (cb - na.obb.center.coords).norm_squared() > r * r {
            return false;
        }
        // Edge axes only pay off where they can spare a primitive test: at the leaves.
        let leaves = na.right == u32::MAX && nb.right == u32::MAX;
        na.obb.overlaps_centered(&nb.obb, &cb, rel, leaves)
    }

    /// Calls `visit(i)` for every primitive whose box reaches below or into `plane`
    /// (`min signed ≤ 0`); with `crossing_only`, only those whose box also reaches above it.
    /// May visit others too (see [`Bvh::plane_from`]): callers test each primitive.
    pub fn below_plane(&self, plane: &Plane, crossing_only: bool, visit: &mut impl FnMut(u32)) {
        if !self.nodes.is_empty() {
            self.plane_from(plane, crossing_only, 0, visit);
        }
    }

    /// Splits a plane query into about `target` subtrees (deterministic order), each finished
    /// with [`Bvh::plane_from`].
    pub fn plane_tasks(&self, plane: &Plane, crossing_only: bool, target: usize) -> Tasks<u32> {
        let mut frontier: Tasks<u32> = smallvec::smallvec![0u32];
        if self.nodes.is_empty() || !self.plane_hit(plane, crossing_only, 0.0, 0) {
            return Tasks::new();
        }
        while frontier.len() < target {
            let mut next = Tasks::with_capacity(frontier.len() * 2);
            let mut grew = false;
            for &a in &frontier {
                let n = &self.nodes[a as usize];
                if n.right == u32::MAX {
                    next.push(a);
                    continue;
                }
                grew = true;
                for c in [a + 1, n.right] {
                    if self.plane_hit(plane, crossing_only, 0.0, c) {
                        next.push(c);
                    }
                }
            }
            frontier = next;
            if !grew {
                break;
            }
        }
        frontier
    }

    /// Calls `visit(i)` for every primitive below node `start` that the plane query keeps: a
    /// superset of those whose boxes reach the plane (in subtrees of at most 16 primitives, all
    /// of them once `start`'s box does), so callers test each primitive itself.
    pub fn plane_from(&self, plane: &Plane, crossing_only: bool, start: u32, visit: &mut impl FnMut(u32)) {
        self.slab_from(plane, crossing_only, 0.0, start, visit);
    }

    /// [`Bvh::plane_from`] for the slab of half-width `margin` about the plane: every primitive
    /// whose box comes within `margin` of it (and with `crossing_only`, not wholly more than
    /// `margin` below it), in the same order.
    pub fn slab_from(
        &self,
        plane: &Plane,
        crossing_only: bool,
        margin: f64,
        start: u32,
        visit: &mut impl FnMut(u32),
    ) {
        // A fixed stack: a node's children are tested before they are pushed, so it holds at
        // most one pending sibling per level (the hierarchy is far shallower than 64).
        let mut stack = [0u32; 64];
        let mut len = 0;
        if !self.plane_hit(plane, crossing_only, margin, start) {
            return;
        }
        let size = self.nodes[start as usize].size as usize;
        if size <= SCAN_LEAVES {
            // A small subtree: every primitive, in the traversal's order (its leaves lie in
            // depth-first order in the node array), without testing the boxes below `start`:
            // for a handful of primitives (a box's 12 tets) the boxes cost more than they spare.
            for n in self.leaves(start) {
                visit(n.primitive);
            }
            return;
        }
        let mut a = start;
        loop {
            let n = &self.nodes[a as usize];
            if n.right == u32::MAX {
                visit(n.primitive);
            } else {
                let (left, right) = (a + 1, n.right);
                match (
                    self.plane_hit(plane, crossing_only, margin, left),
                    self.plane_hit(plane, crossing_only, margin, right),
                ) {
                    (true, true) => {
                        stack[len] = right;
                        len += 1;
                        a = left;
                        continue;
                    }
                    (true, false) => {
                        a = left;
                        continue;
                    }
                    (false, true) => {
                        a = right;
                        continue;
                    }
                    (false, false) => {}
                }
            }
            if len == 0 {
                return;
            }
            len -= 1;
            a = stack[len];
        }
    }

    #[inline]
    fn plane_hit(&self, plane: &Plane, crossing_only: bool, margin: f64, a: u32) -> bool {
        let (lo, hi) = self.nodes[a as usize].obb.plane_range(plane);
        !(lo > margin || (crossing_only && hi < -margin))
    }

    /// The sphere that holds the whole hierarchy (centre, radius); `None` when it is empty.
    pub fn bounding_sphere(&self) -> Option<(Point3, f64)> {
        self.nodes.first().map(|n| (n.obb.center, n.radius))
    }
}

/// Node pairs whose subtrees hold at most this many primitive pairs are scanned by
/// [`Bvh::pairs_from`] rather than traversed.
const SCAN_PAIRS: usize = 256;

/// Subtrees of at most this many primitives are visited whole by [`Bvh::plane_from`] once
/// their root's box reaches the plane.
const SCAN_LEAVES: usize = 16;

/// X_AB with its rotation as a matrix, computed once per query rather than per box test.
#[derive(Clone, Copy, Debug)]
pub struct RelativePose {
    pub rotation: Matrix3,
    pub translation: Vector3,
}

impl RelativePose {
    pub fn new(a_from_b: &Isometry3) -> Self {
        Self {
            rotation: *a_from_b.rotation.to_rotation_matrix().matrix(),
            translation: a_from_b.translation.vector,
        }
    }
}

/// Pushes the child pairs of a node pair that is not two leaves: both split when neither is a
/// leaf, otherwise the inner one (children at `index + 1` and `right`). The order is the
/// traversal's, which [`Bvh::pairs_near`] repeats for [`Bvh::pairs_from`].
#[inline(always)]
fn push_children(
    stack: &mut SmallVec<[(u32, u32); 64]>,
    (a, na, a_leaf): (u32, &Node, bool),
    (b, nb, b_leaf): (u32, &Node, bool),
) {
    if !a_leaf && !b_leaf {
        stack.push((na.right, nb.right));
        stack.push((na.right, b + 1));
        stack.push((a + 1, nb.right));
        stack.push((a + 1, b + 1));
    } else if b_leaf {
        stack.push((na.right, b));
        stack.push((a + 1, b));
    } else {
        stack.push((a, nb.right));
        stack.push((a, b + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::clip::split_tet;
    use crate::geometry::signed_tet_volume;
    use crate::math::UnitQuaternion;

    /// Volume of the intersection of two tets by clipping one with the other's face planes.
    fn common_volume(a: &[Point3; 4], b: &[Point3; 4]) -> f64 {
        let mut pieces = vec![*a];
        for i in 0..4 {
            let f = [b[(i + 1) % 4], b[(i + 2) % 4], b[(i + 3) % 4]];
            let mut n = (f[1] - f[0]).cross(&(f[2] - f[0]));
            if n.dot(&(b[i] - f[0])) > 0.0 {
                n = -n;
            }
            let plane = Plane::through(&f[0], n);
            let mut next = Vec::new();
            for p in &pieces {
                split_tet(p, &plane, &mut |t| next.push(t), &mut |_| {});
            }
            pieces = next;
        }
        pieces.iter().map(|t| signed_tet_volume(&t[0], &t[1], &t[2], &t[3]).abs()).sum()
    }

    fn sign(bit: usize) -> f64 {
        if bit == 0 { -1.0 } else { 1.0 }
    }

    #[test]
    fn obb_overlap_agrees_with_separation() {
        let corners: Vec<Point3> =
            (0..8).map(|k| Point3::new(sign(k & 1), sign(k & 2), sign(k & 4))).collect();
        let unit = Obb::fit(&corners);
        let rot = UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1);
        // Far apart: separated; close: overlapping.
        let far = Isometry3::from_parts(Vector3::new(5.0, 0.0, 0.0).into(), rot);
        let near = Isometry3::from_parts(Vector3::new(1.5, 0.0, 0.0).into(), rot);
        assert!(!unit.overlaps(&unit, &far));
        assert!(unit.overlaps(&unit, &near));
    }

    #[test]
    fn bvh_pairs_equal_brute_force() {
        // Small tets on a grid; compare with all pairs whose boxes overlap.
        let mut tets = Vec::new();
        for i in 0..6 {
            for j in 0..6 {
                let o = Point3::new(i as f64 * 0.3, j as f64 * 0.3, 0.0);
                tets.push([o, o + Vector3::x() * 0.4, o + Vector3::y() * 0.4, o + Vector3::z() * 0.4]);
            }
        }
        let bvh = Bvh::build(tets.len(), |i| tets[i]);
        let pose = Isometry3::from_parts(
            Vector3::new(0.5, 0.4, 0.1).into(),
            UnitQuaternion::from_euler_angles(0.1, 0.5, 0.2),
        );
        let mut got = Vec::new();
        bvh.overlapping_pairs(&bvh, &pose, &mut |a, b| got.push((a, b)));
        // Every pair of tets that really overlap (positive common volume) must be visited.
        let mut missed = 0;
        let mut overlapping = 0;
        for a in 0..tets.len() {
            for b in 0..tets.len() {
                let tb = tets[b].map(|p| pose * p);
                if common_volume(&tets[a], &tb) > 1e-12 {
                    overlapping += 1;
                    missed += usize::from(!got.contains(&(a as u32, b as u32)));
                }
            }
        }
        assert!(overlapping > 20);
        assert_eq!(missed, 0);
    }
}
