//! Penetration depth as the distance from the origin to the boundary of `A − B`, by growing a
//! polytope inside `A − B` towards its boundary (van den Bergen's expanding polytope idea).
//!
//! Any convex polytope inside `A − B` that contains the origin works as a start, so the final
//! MPR tetrahedron (interior point + portal) seeds it. The nearest face distance is a lower
//! bound on the depth and the support value along that face's normal an upper bound.

use super::minkowski::{Difference, Vertex, not_above};
use crate::math::{Point3, Vector3};

/// Hard cap on polytope faces, so memory and time stay bounded on curved shapes.
const MAX_FACES: usize = 2048;

#[derive(Clone, Copy, Debug)]
struct Face {
    v: [usize; 3],
    n: Vector3,
    dist: f64,
    alive: bool,
}

/// The penetration found: `depth` along the unit outward `normal` of `A − B`; `pa − pb =
/// depth · normal`. `gap` bounds the error of `depth` (m).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EpaResult {
    pub depth: f64,
    pub normal: Vector3,
    pub pa: Point3,
    pub pb: Point3,
    pub gap: f64,
    pub converged: bool,
}

/// Expands the tetrahedron `start` (which must contain the origin) until the nearest face lies
/// within `tol` of the boundary. `None` if the polytope degenerates before any estimate.
pub(crate) fn expand_polytope(
    diff: &Difference,
    start: [Vertex; 4],
    tol: f64,
    max_iterations: u32,
) -> Option<EpaResult> {
    let mut verts: Vec<Vertex> = start.to_vec();
    let mut faces: Vec<Face> = Vec::with_capacity(64);
    for (f, opposite) in [([0, 1, 2], 3), ([0, 3, 1], 2), ([0, 2, 3], 1), ([1, 3, 2], 0)] {
        let mut face = make_face(&verts, f)?;
        if face.n.dot(&(verts[opposite].w - verts[f[0]].w)) > 0.0 {
            face = make_face(&verts, [f[0], f[2], f[1]])?;
        }
        faces.push(face);
    }
    let mut edges: Vec<(usize, usize)> = Vec::with_capacity(32);
    let mut last: Option<EpaResult> = None;
    for _ in 0..max_iterations {
        let (fi, face) = faces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.alive)
            .min_by(|x, y| x.1.dist.total_cmp(&y.1.dist))
            .map(|(i, f)| (i, *f))?;
        let s = diff.support(&face.n);
        let upper = s.w.dot(&face.n);
        let gap = upper - face.dist;
        let estimate = face_result(&verts, &face, gap.max(0.0), gap <= tol);
        if !estimate.depth.is_finite() || !gap.is_finite() {
            return last;
        }
        if gap <= tol {
            return Some(coplanar_containing_foot(&verts, &faces, &face, gap.max(0.0), tol));
        }
        last = Some(estimate);
        if faces.len() + 64 > MAX_FACES {
            return last;
        }
        verts.push(s);
        // Faces that see the new point go; the rim of the hole they leave (edges whose twin is
        // not removed) is fanned to the new point, keeping the outward orientation. If the new
        // point lies in the plane of a kept face next to the rim, a fan face degenerates; then
        // faces nearly coplanar with the point go too.
        let slack = 1e-12 * (s.w.norm() + face.dist.abs());
        let Some(fan) = [0.0, slack].iter().find_map(|&t| fan_faces(&verts, &faces, fi, t, tol, &mut edges))
        else {
            return last;
        };
        for f in faces.iter_mut().filter(|f| f.alive) {
            if f.n.dot(&(s.w - verts[f.v[0]].w)) > -fan.1 {
                f.alive = false;
            }
        }
        faces.extend(fan.0);
    }
    last
}

/// The faces that replace those seeing the newest vertex from further than `-slack`, with the
/// slack used; `None` if the nearest face `fi` is not among them, the rim is broken or a new
/// face is degenerate or has the origin outside.
fn fan_faces(
    verts: &[Vertex],
    faces: &[Face],
    fi: usize,
    slack: f64,
    tol: f64,
    edges: &mut Vec<(usize, usize)>,
) -> Option<(Vec<Face>, f64)> {
    let new = verts.len() - 1;
    let s = verts[new].w;
    let sees = |f: &Face| f.alive && f.n.dot(&(s - verts[f.v[0]].w)) > -slack;
    if !sees(&faces[fi]) {
        return None;
    }
    edges.clear();
    for f in faces.iter().filter(|f| sees(f)) {
        for k in 0..3 {
            edges.push((f.v[k], f.v[(k + 1) % 3]));
        }
    }
    let mut fan = Vec::new();
    for &(i, j) in edges.iter() {
        if edges.contains(&(j, i)) {
            continue;
        }
        let face = make_face(verts, [i, j, new])?;
        if face.dist < -tol {
            return None;
        }
        fan.push(face);
    }
    (fan.len() >= 3).then_some((fan, slack))
}

/// Coplanar faces of a flat facet of `A − B` tie for nearest; the origin's foot lies in one
/// of them, and only that one gives witness points consistent with depth and normal.
fn coplanar_containing_foot(verts: &[Vertex], faces: &[Face], best: &Face, gap: f64, tol: f64) -> EpaResult {
    let foot = best.n * best.dist;
    let inside = |f: &Face| {
        let [u, v, w] = barycentric_raw(&foot, &verts[f.v[0]].w, &verts[f.v[1]].w, &verts[f.v[2]].w);
        u.min(v).min(w)
    };
    let mut chosen = *best;
    let mut score = inside(best);
    for f in faces
        .iter()
        .filter(|f| f.alive && (f.dist - best.dist).abs() <= tol && f.n.dot(&best.n) > 1.0 - 1e-12)
    {
        let m = inside(f);
        if m > score {
            (chosen, score) = (*f, m);
        }
    }
    // Keep the best face's depth and normal; only the witness weights come from the other.
    let mut r = face_result(verts, &Face { n: best.n, dist: best.dist, ..chosen }, gap, true);
    r.depth = best.dist;
    r
}

fn make_face(verts: &[Vertex], v: [usize; 3]) -> Option<Face> {
    let (a, b, c) = (verts[v[0]].w, verts[v[1]].w, verts[v[2]].w);
    let n = (b - a).cross(&(c - a));
    let len = n.norm();
    let scale = (b - a).norm() * (c - a).norm();
    if not_above(len, 1e-13 * scale) || !len.is_finite() {
        return None;
    }
    let n = n / len;
    Some(Face { v, n, dist: n.dot(&a), alive: true })
}

/// Depth, normal and witness points of a face: the origin's projection onto the face plane in
/// barycentric coordinates (clamped into the triangle) weights the source points.
fn face_result(verts: &[Vertex], f: &Face, gap: f64, converged: bool) -> EpaResult {
    let p = f.n * f.dist;
    let lam = barycentric(&p, &verts[f.v[0]].w, &verts[f.v[1]].w, &verts[f.v[2]].w);
    let mut pa = Vector3::zeros();
    let mut pb = Vector3::zeros();
    for k in 0..3 {
        pa += verts[f.v[k]].a.coords * lam[k];
        pb += verts[f.v[k]].b.coords * lam[k];
    }
    EpaResult { depth: f.dist, normal: f.n, pa: Point3::from(pa), pb: Point3::from(pb), gap, converged }
}

/// Barycentric coordinates of `p` (assumed in the triangle's plane), clamped to be ≥ 0 and
/// renormalised; a degenerate triangle gives equal weights.
pub(crate) fn barycentric(p: &Vector3, a: &Vector3, b: &Vector3, c: &Vector3) -> [f64; 3] {
    let [u, v, w] = barycentric_raw(p, a, b, c);
    let (u, v, w) = (u.max(0.0), v.max(0.0), w.max(0.0));
    let s = u + v + w;
    if s > 0.0 && s.is_finite() { [u / s, v / s, w / s] } else { [1.0 / 3.0; 3] }
}

/// Unclamped barycentric coordinates of `p` projected onto the triangle's plane.
fn barycentric_raw(p: &Vector3, a: &Vector3, b: &Vector3, c: &Vector3) -> [f64; 3] {
    let n = (b - a).cross(&(c - a));
    let nn = n.norm_squared();
    if not_above(nn, 0.0) || !nn.is_finite() {
        return [1.0 / 3.0; 3];
    }
    let u = (b - p).cross(&(c - p)).dot(&n) / nn;
    let v = (c - p).cross(&(a - p)).dot(&n) / nn;
    [u, v, 1.0 - u - v]
}
