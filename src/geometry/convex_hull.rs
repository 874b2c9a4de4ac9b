//! Convex hulls of point sets (quickhull with a distance tolerance) and volume centroids.

use super::{GeometryError, SurfaceMesh};
use crate::math::{Point3, Vector3};
use std::collections::HashMap;

/// Points closer than this fraction of the cloud's extent to a face's plane count as lying on
/// it: coplanar input (the four corners of a box face, points on an edge) must neither create
/// sliver faces nor make the hull depend on round-off.
const REL_TOL: f64 = 1e-10;

/// The indices of the `points` (lying in a plane of normal `normal`) that are corners of their
/// convex hull, counter-clockwise about `normal` (monotone chain). Duplicates and corners on an
/// edge (turns within round-off of the points' extent) are dropped; fewer than 3 points that
/// span an area give an empty or degenerate list.
pub fn convex_order_in_plane(points: &[Point3], normal: &Vector3) -> Vec<usize> {
    let u = normal.cross(&(if normal.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() })).normalize();
    let w = normal.cross(&u);
    let mut pts: Vec<(f64, f64, usize)> =
        points.iter().enumerate().map(|(i, p)| (p.coords.dot(&u), p.coords.dot(&w), i)).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: &(f64, f64, usize), a: &(f64, f64, usize), b: &(f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let scale = pts.iter().fold(0.0_f64, |m, p| m.max(p.0.abs()).max(p.1.abs()));
    let eps = 1e-12 * scale * scale;
    let mut hull: Vec<(f64, f64, usize)> = Vec::with_capacity(pts.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(f64, f64, usize)>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for p in ordered {
            while hull.len() >= start + 2 && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= eps {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop();
    }
    hull.into_iter().map(|p| p.2).collect()
}

/// The convex hull of `points` as a closed, outward-oriented triangle mesh with shared
/// vertices. Only hull corners become vertices; coplanar facets are split into triangles, never
/// into degenerate ones. Fails when the points are not finite or span no volume.
pub fn convex_hull(points: &[Point3]) -> Result<SurfaceMesh, GeometryError> {
    let bad = |reason: String| GeometryError::BadPoints { reason };
    if let Some(i) = points.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
        return Err(bad(format!("point {i} is not finite ({:?})", points[i].coords.as_slice())));
    }
    if points.len() < 4 {
        return Err(bad(format!("need at least 4 non-coplanar points, got {}", points.len())));
    }
    if points.len() > u32::MAX as usize / 2 {
        return Err(bad(format!("too many points ({})", points.len())));
    }
    let mut lo = points[0].coords;
    let mut hi = lo;
    for p in points {
        lo = lo.inf(&p.coords);
        hi = hi.sup(&p.coords);
    }
    let eps = REL_TOL * (hi - lo).norm();
    let simplex = initial_simplex(points, eps).map_err(bad)?;
    let mut hull = Hull::new(points, eps, simplex);
    hull.grow();
    Ok(hull.into_mesh())
}

/// The centroid of the solid enclosed by a closed, outward-oriented mesh (the mean of its
/// vertices if it encloses no volume).
pub fn volume_centroid(mesh: &SurfaceMesh) -> Point3 {
    if mesh.vertices.is_empty() {
        return Point3::origin();
    }
    // Tets fan out from the vertex mean, not the origin, so far-off meshes keep their digits.
    let mean = mesh.vertices.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / mesh.vertices.len() as f64;
    let r = Point3::from(mean);
    let mut volume = 0.0;
    let mut moment = Vector3::zeros();
    for t in 0..mesh.triangles.len() {
        let [a, b, c] = mesh.triangle(t);
        let v = (a - r).dot(&(b - r).cross(&(c - r))) / 6.0;
        volume += v;
        moment += v * ((a - r) + (b - r) + (c - r)) / 4.0;
    }
    if volume.abs() > 0.0 { r + moment / volume } else { r }
}

/// Four points spanning a tet, each further than `eps` from the span of the previous ones.
fn initial_simplex(points: &[Point3], eps: f64) -> Result<[u32; 4], String> {
    // The two most distant of the six axis-extreme points.
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let by = |i: &usize, j: &usize| points[*i][axis].total_cmp(&points[*j][axis]);
        extremes.push((0..points.len()).min_by(by).unwrap_or(0));
        extremes.push((0..points.len()).max_by(by).unwrap_or(0));
    }
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    for &a in &extremes {
        for &b in &extremes {
            let d = (points[a] - points[b]).norm();
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    if best <= eps {
        return Err("all points coincide".into());
    }
    let dir = (points[i1] - points[i0]) / best;
    let line_dist = |p: &Point3| (p - points[i0]).cross(&dir).norm();
    let i2 = argmax(points, line_dist);
    if line_dist(&points[i2]) <= eps {
        return Err("all points lie on one line; need 4 non-coplanar points".into());
    }
    let n = (points[i1] - points[i0]).cross(&(points[i2] - points[i0])).normalize();
    let plane_dist = |p: &Point3| n.dot(&(p - points[i0])).abs();
    let i3 = argmax(points, plane_dist);
    if plane_dist(&points[i3]) <= eps {
        return Err("all points lie in one plane; need 4 non-coplanar points".into());
    }
    Ok([i0 as u32, i1 as u32, i2 as u32, i3 as u32])
}

fn argmax(points: &[Point3], f: impl Fn(&Point3) -> f64) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, p) in points.iter().enumerate() {
        let d = f(p);
        if d > best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// A hull face: a CCW triangle, its unit outward plane and the points seen only through it.
struct Face {
    v: [u32; 3],
    normal: Vector3,
    offset: f64,
    outside: Vec<u32>,
    alive: bool,
}

struct Hull<'a> {
    points: &'a [Point3],
    eps: f64,
    faces: Vec<Face>,
    /// Directed edge (a, b) → the face that has it in its CCW boundary.
    edges: HashMap<(u32, u32), usize>,
}

impl<'a> Hull<'a> {
    fn new(points: &'a [Point3], eps: f64, s: [u32; 4]) -> Self {
        let mut hull = Hull { points, eps, faces: Vec::new(), edges: HashMap::new() };
        for skip in 0..4 {
            let mut v = [0u32; 3];
            let mut k = 0;
            for (i, &p) in s.iter().enumerate() {
                if i != skip {
                    v[k] = p;
                    k += 1;
                }
            }
            let face = hull.make_face(v);
            // Orient so the simplex's fourth vertex is inside.
            if face.normal.dot(&points[s[skip] as usize].coords) - face.offset > 0.0 {
                v.swap(1, 2);
            }
            hull.add_face(v);
        }
        let first_four = &s;
        let candidates: Vec<u32> = (0..points.len() as u32).filter(|i| !first_four.contains(i)).collect();
        hull.assign(&candidates, 0..4);
        hull
    }

    fn make_face(&self, v: [u32; 3]) -> Face {
        let [a, b, c] = v.map(|i| self.points[i as usize]);
        let normal = (b - a).cross(&(c - a)).try_normalize(0.0).unwrap_or_else(Vector3::zeros);
        let offset = normal.dot(&(a.coords + b.coords + c.coords)) / 3.0;
        Face { v, normal, offset, outside: Vec::new(), alive: true }
    }

    fn add_face(&mut self, v: [u32; 3]) -> usize {
        let id = self.faces.len();
        let face = self.make_face(v);
        self.faces.push(face);
        for i in 0..3 {
            self.edges.insert((v[i], v[(i + 1) % 3]), id);
        }
        id
    }

    fn dist(&self, f: usize, p: u32) -> f64 {
        let face = &self.faces[f];
        face.normal.dot(&self.points[p as usize].coords) - face.offset
    }

    /// Gives each point to the first face in `faces` it lies clearly outside of.
    fn assign(&mut self, points: &[u32], faces: std::ops::Range<usize>) {
        for &p in points {
            if let Some(f) = faces.clone().find(|&f| self.dist(f, p) > self.eps) {
                self.faces[f].outside.push(p);
            }
        }
    }

    /// Adds the furthest outside point of some face until no point is outside any face.
    fn grow(&mut self) {
        let mut pending: Vec<usize> = (0..self.faces.len()).collect();
        while let Some(f) = pending.pop() {
            if !self.faces[f].alive || self.faces[f].outside.is_empty() {
                continue;
            }
            let apex = *self.faces[f]
                .outside
                .iter()
                .max_by(|&&a, &&b| self.dist(f, a).total_cmp(&self.dist(f, b)))
                .unwrap_or(&self.faces[f].outside[0]);
            let visible = self.visible_from(f, apex);
            let mut horizon = Vec::new();
            for &g in &visible {
                let v = self.faces[g].v;
                for i in 0..3 {
                    let (a, b) = (v[i], v[(i + 1) % 3]);
                    let across = self.edges.get(&(b, a)).copied();
                    if across.is_none_or(|h| !visible.contains(&h)) {
                        horizon.push((a, b));
                    }
                }
            }
            let mut orphans = Vec::new();
            for &g in &visible {
                let face = &mut self.faces[g];
                face.alive = false;
                orphans.extend(face.outside.drain(..).filter(|&p| p != apex));
                let v = face.v;
                for i in 0..3 {
                    self.edges.remove(&(v[i], v[(i + 1) % 3]));
                }
            }
            let first_new = self.faces.len();
            for (a, b) in horizon {
                self.add_face([a, b, apex]);
            }
            self.assign(&orphans, first_new..self.faces.len());
            pending.extend(first_new..self.faces.len());
        }
    }

    /// The faces `apex` sees, grown from `start` across edges, so the set stays connected and
    /// its boundary (the horizon) is one loop.
    fn visible_from(&self, start: usize, apex: u32) -> Vec<usize> {
        let mut visible = vec![start];
        let mut next = 0;
        while next < visible.len() {
            let v = self.faces[visible[next]].v;
            next += 1;
            for i in 0..3 {
                if let Some(&g) = self.edges.get(&(v[(i + 1) % 3], v[i]))
                    && !visible.contains(&g)
                    && self.dist(g, apex) > self.eps
                {
                    visible.push(g);
                }
            }
        }
        visible
    }

    fn into_mesh(self) -> SurfaceMesh {
        let mut index = HashMap::new();
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for face in self.faces.iter().filter(|f| f.alive) {
            let tri = face.v.map(|p| {
                *index.entry(p).or_insert_with(|| {
                    vertices.push(self.points[p as usize]);
                    (vertices.len() - 1) as u32
                })
            });
            triangles.push(tri);
        }
        SurfaceMesh { vertices, triangles }
    }
}
