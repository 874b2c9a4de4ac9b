//! Bounding-volume hierarchies of oriented boxes, built once in a body frame and traversed with
//! the relative pose of two bodies.
//!
//! Oriented boxes (from the principal axes of each node's points) bound the long thin tets of
//! layered meshes far more tightly than axis-aligned boxes, and cost the same to test once the
//! two bodies are rotated relative to each other.

use crate::math::{Isometry3, Matrix3, Plane, Point3, Vector3};

/// An oriented box: centre, orthonormal axes (columns) and half extents along them.
#[derive(Clone, Copy, Debug)]
pub struct Obb {
    pub center: Point3,
    pub axes: Matrix3,
    pub half: Vector3,
}

impl Obb {
    /// The box that bounds `points` along their principal axes.
    pub fn fit(points: &[Point3]) -> Obb {
        let n = points.len().max(1) as f64;
        let mean = points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n;
        let mut cov = Matrix3::zeros();
        for p in points {
            let d = p.coords - mean;
            cov += d * d.transpose();
        }
        let axes = principal_axes(&cov);
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
        let b_axes = a_from_b.rotation.to_rotation_matrix().matrix() * other.axes;
        let b_center = a_from_b * other.center;
        // Rotation of B's box axes in A's box axes, and the centre offset in A's box axes.
        let r = self.axes.transpose() * b_axes;
        let t = self.axes.transpose() * (b_center - self.center);
        let eps = 1e-12;
        let mut abs_r = Matrix3::zeros();
        for i in 0..3 {
            for j in 0..3 {
                abs_r[(i, j)] = r[(i, j)].abs() + eps;
            }
        }
        let a = self.half;
        let b = other.half;
        for i in 0..3 {
            let ra = a[i];
            let rb = b[0] * abs_r[(i, 0)] + b[1] * abs_r[(i, 1)] + b[2] * abs_r[(i, 2)];
            if t[i].abs() > ra + rb {
                return false;
            }
        }
        for j in 0..3 {
            let ra = a[0] * abs_r[(0, j)] + a[1] * abs_r[(1, j)] + a[2] * abs_r[(2, j)];
            let rb = b[j];
            let tj = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
            if tj.abs() > ra + rb {
                return false;
            }
        }
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ra = a[i1] * abs_r[(i2, j)] + a[i2] * abs_r[(i1, j)];
                let rb = b[j1] * abs_r[(i, j2)] + b[j2] * abs_r[(i, j1)];
                let tt = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
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
        let axes = pose.rotation.to_rotation_matrix().matrix() * self.axes;
        let c = pose * self.center;
        let mut ext = Vector3::zeros();
        for i in 0..3 {
            ext[i] = (0..3).map(|j| axes[(i, j)].abs() * self.half[j]).sum();
        }
        (c - ext, c + ext)
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
        let mut bvh = Bvh { nodes: Vec::with_capacity(2 * count) };
        if count == 0 {
            return bvh;
        }
        let centroids: Vec<Point3> = (0..count)
            .map(|i| {
                let p = points_of(i);
                Point3::from(p.iter().fold(Vector3::zeros(), |s, x| s + x.coords) / K as f64)
            })
            .collect();
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut scratch = Vec::new();
        bvh.build_node(&mut order[..], &centroids, &points_of, &mut scratch);
        bvh
    }

    fn build_node<const K: usize>(
        &mut self,
        items: &mut [u32],
        centroids: &[Point3],
        points_of: &impl Fn(usize) -> [Point3; K],
        scratch: &mut Vec<Point3>,
    ) -> u32 {
        scratch.clear();
        for &i in items.iter() {
            scratch.extend_from_slice(&points_of(i as usize));
        }
        let obb = Obb::fit(scratch);
        let me = self.nodes.len() as u32;
        if items.len() == 1 {
            self.nodes.push(Node { obb, right: u32::MAX, primitive: items[0] });
            return me;
        }
        self.nodes.push(Node { obb, right: 0, primitive: u32::MAX });
        // Split at the median of the centroids along the box's longest axis.
        let axis = obb.axes.column(0).into_owned();
        let key = |i: &u32| axis.dot(&centroids[*i as usize].coords);
        let mid = items.len() / 2;
        items.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
        let (left, right) = items.split_at_mut(mid);
        self.build_node(left, centroids, points_of, scratch);
        let r = self.build_node(right, centroids, points_of, scratch);
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
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some((a, b)) = stack.pop() {
            let na = &self.nodes[a as usize];
            let nb = &other.nodes[b as usize];
            if !na.obb.overlaps(&nb.obb, a_from_b) {
                continue;
            }
            let a_leaf = na.right == u32::MAX;
            let b_leaf = nb.right == u32::MAX;
            if a_leaf && b_leaf {
                visit(na.primitive, nb.primitive);
            } else if b_leaf || (!a_leaf && volume(&na.obb) >= volume(&nb.obb)) {
                stack.push((na.right, b));
                stack.push((a + 1, b));
            } else {
                stack.push((a, nb.right));
                stack.push((a, b + 1));
            }
        }
    }

    /// Calls `visit(i)` for every primitive whose box reaches below or into `plane`
    /// (`min signed ≤ 0`); with `crossing_only`, only those whose box also reaches above it.
    pub fn below_plane(&self, plane: &Plane, crossing_only: bool, visit: &mut impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack: Vec<u32> = vec![0];
        while let Some(a) = stack.pop() {
            let n = &self.nodes[a as usize];
            let (lo, hi) = n.obb.plane_range(plane);
            if lo > 0.0 || (crossing_only && hi < 0.0) {
                continue;
            }
            if n.right == u32::MAX {
                visit(n.primitive);
            } else {
                stack.push(n.right);
                stack.push(a + 1);
            }
        }
    }
}

#[inline]
fn volume(o: &Obb) -> f64 {
    o.half.x * o.half.y * o.half.z
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
        let corners: Vec<Point3> = (0..8)
            .map(|k| Point3::new(sign(k & 1), sign(k & 2), sign(k & 4)))
            .collect();
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
        let pose = Isometry3::from_parts(Vector3::new(0.5, 0.4, 0.1).into(), UnitQuaternion::from_euler_angles(0.1, 0.5, 0.2));
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
