//! Clipping: convex polygons by planes, plane sections of tets, and tets cut by planes.
//!
//! Everything here keeps the *inside* of a plane, where `plane.signed(x) ≤ 0`.

use crate::math::{Plane, Point3, Vector3};

/// Most vertices a clipped polygon can have here: a triangle clipped by a cell's (at most
/// five) planes has at most 8, a cell's section (at most 5 points) clipped by another cell's
/// five planes at most 10. (A larger bound costs every polygon its initialisation.)
pub const MAX_POLYGON_VERTICES: usize = 10;

/// A small convex polygon stored inline (no allocation on the hot path).
#[derive(Clone, Copy, Debug)]
pub struct Polygon {
    points: [Point3; MAX_POLYGON_VERTICES],
    len: usize,
}

impl Default for Polygon {
    fn default() -> Self {
        Self { points: [Point3::origin(); MAX_POLYGON_VERTICES], len: 0 }
    }
}

impl Polygon {
    pub fn from_points(points: &[Point3]) -> Self {
        let mut p = Self::default();
        for x in points.iter().take(MAX_POLYGON_VERTICES) {
            p.push(*x);
        }
        p
    }

    #[inline]
    pub fn push(&mut self, x: Point3) {
        if self.len < MAX_POLYGON_VERTICES {
            self.points[self.len] = x;
            self.len += 1;
        }
    }

    #[inline]
    pub fn points(&self) -> &[Point3] {
        &self.points[..self.len]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps the part of the polygon inside `plane` (Sutherland–Hodgman for one plane).
    pub fn clip(&self, plane: &Plane) -> Polygon {
        let mut out = *self;
        out.clip_in_place(plane);
        out
    }

    /// Keeps the part inside `plane`, in place; returns whether anything is left. Copies only
    /// when the plane cuts the polygon.
    #[inline]
    pub fn clip_in_place(&mut self, plane: &Plane) -> bool {
        let n = self.len;
        if n == 0 {
            return false;
        }
        let mut d = [0.0; MAX_POLYGON_VERTICES];
        let (mut any_out, mut any_in) = (false, false);
        for i in 0..n {
            d[i] = plane.signed(&self.points[i]);
            any_out |= d[i] > 0.0;
            any_in |= d[i] < 0.0;
        }
        if !any_out {
            return true;
        }
        if !any_in {
            self.len = 0;
            return false;
        }
        let mut out = [Point3::origin(); MAX_POLYGON_VERTICES];
        let mut m = 0;
        clip_with(&self.points[..n], &d[..n], |x| {
            if m < MAX_POLYGON_VERTICES {
                out[m] = x;
                m += 1;
            }
        });
        if m < 3 {
            self.len = 0;
            return false;
        }
        self.points[..m].copy_from_slice(&out[..m]);
        self.len = m;
        true
    }
}

/// One plane's Sutherland–Hodgman step on a convex polygon of any size: its corners inside
/// (`d ≤ 0`, `d` the signed distances) and the points where its edges cross, in order, to `push`.
#[inline]
pub fn clip_with(points: &[Point3], d: &[f64], mut push: impl FnMut(Point3)) {
    let n = points.len();
    for i in 0..n {
        let j = if i + 1 == n { 0 } else { i + 1 };
        let (di, dj) = (d[i], d[j]);
        if di <= 0.0 {
            push(points[i]);
        }
        if (di < 0.0 && dj > 0.0) || (di > 0.0 && dj < 0.0) {
            push(edge_point(&points[i], &points[j], di, dj));
        }
    }
}

/// The area vector of a planar polygon (half the sum of its fan's cross products): its normal
/// times its area, counter-clockwise corners giving the normal they turn about.
#[inline]
pub fn area_vector(points: &[Point3]) -> Vector3 {
    let mut twice = Vector3::zeros();
    for k in 1..points.len().saturating_sub(1) {
        twice += (points[k] - points[0]).cross(&(points[k + 1] - points[0]));
    }
    twice * 0.5
}

/// The point where the segment (a, b) crosses the plane, given the signed distances of its ends
/// (of opposite signs). Computed from the end with the smaller |distance| so that the result is
/// the same whichever way round the edge is given.
#[inline]
pub fn edge_point(a: &Point3, b: &Point3, da: f64, db: f64) -> Point3 {
    if da.abs() <= db.abs() { a + (b - a) * (da / (da - db)) } else { b + (a - b) * (db / (db - da)) }
}

/// The section of a tet by a plane (`signed = 0`): a triangle or a quadrilateral, or empty.
/// Vertices come in a consistent cycle; orientation is not fixed.
pub fn tet_section(tet: &[Point3; 4], plane: &Plane) -> Polygon {
    let section = TetSection::new(tet, plane);
    Polygon::from_points(section.points())
}

/// A tet's section by a plane on the stack: at most four points (a [`Polygon`] reserves room
/// for clipping, which a half-space query never does).
#[derive(Clone, Copy, Debug)]
pub struct TetSection {
    points: [Point3; 4],
    len: usize,
}

impl TetSection {
    /// The section of `tet` by `plane`, as [`tet_section`]. (Always inlined: the compiler's
    /// choice moved with unrelated code, and a call with its returned copy costs a half-space
    /// query 3%.)
    #[inline(always)]
    pub fn new(tet: &[Point3; 4], plane: &Plane) -> TetSection {
        let d = [plane.signed(&tet[0]), plane.signed(&tet[1]), plane.signed(&tet[2]), plane.signed(&tet[3])];
        let below: [bool; 4] = [d[0] < 0.0, d[1] < 0.0, d[2] < 0.0, d[3] < 0.0];
        let count = below.iter().filter(|&&b| b).count();
        let e = |i: usize, j: usize| edge_point(&tet[i], &tet[j], d[i], d[j]);
        match count {
            1 | 3 => {
                // The lone vertex on one side; the section is the triangle on its three edges.
                let lone = (0..4).find(|&i| below[i] == (count == 1)).unwrap_or(0);
                let mut points = [tet[lone]; 4];
                let mut len = 0;
                for k in 0..4 {
                    if k != lone {
                        points[len] = e(lone, k);
                        len += 1;
                    }
                }
                TetSection { points, len }
            }
            2 => {
                let mut lo = [0usize; 2];
                let mut hi = [0usize; 2];
                let (mut nl, mut nh) = (0, 0);
                for i in 0..4 {
                    if below[i] {
                        lo[nl] = i;
                        nl += 1;
                    } else {
                        hi[nh] = i;
                        nh += 1;
                    }
                }
                let points = [e(lo[0], hi[0]), e(lo[0], hi[1]), e(lo[1], hi[1]), e(lo[1], hi[0])];
                TetSection { points, len: 4 }
            }
            _ => TetSection { points: *tet, len: 0 },
        }
    }

    #[inline]
    pub fn points(&self) -> &[Point3] {
        &self.points[..self.len]
    }
}

/// Calls `keep` with each tet of a decomposition of the part of `tet` inside `plane`
/// (`signed ≤ 0`), and `rest` with each tet of the part outside. Pieces may have either
/// orientation; use absolute volumes.
pub fn split_tet(
    tet: &[Point3; 4],
    plane: &Plane,
    keep: &mut impl FnMut([Point3; 4]),
    rest: &mut impl FnMut([Point3; 4]),
) {
    let d = [plane.signed(&tet[0]), plane.signed(&tet[1]), plane.signed(&tet[2]), plane.signed(&tet[3])];
    let inside: [bool; 4] = [d[0] <= 0.0, d[1] <= 0.0, d[2] <= 0.0, d[3] <= 0.0];
    let n_in = inside.iter().filter(|&&b| b).count();
    let e = |i: usize, j: usize| edge_point(&tet[i], &tet[j], d[i], d[j]);
    let idx = |want: bool| {
        let mut v = [0usize; 4];
        let mut n = 0;
        for i in 0..4 {
            if inside[i] == want {
                v[n] = i;
                n += 1;
            }
        }
        v
    };
    match n_in {
        4 => keep(*tet),
        0 => rest(*tet),
        1 | 3 => {
            // The lone vertex l on one side: a small tet there, a prism on the other.
            let lone_inside = n_in == 1;
            let l = idx(lone_inside)[0];
            let o = idx(!lone_inside);
            let (a, b, c) = (o[0], o[1], o[2]);
            let small = [tet[l], e(l, a), e(l, b), e(l, c)];
            let prism = [tet[a], tet[b], tet[c], e(a, l), e(b, l), e(c, l)];
            if lone_inside {
                keep(small);
                prism_tets(&prism, rest);
            } else {
                rest(small);
                prism_tets(&prism, keep);
            }
        }
        _ => {
            let i = idx(true);
            let o = idx(false);
            let (a, b, c, dd) = (i[0], i[1], o[0], o[1]);
            // Inside wedge: triangles (a, ac, ad) and (b, bc, bd).
            keep_prism(&[tet[a], e(a, c), e(a, dd), tet[b], e(b, c), e(b, dd)], keep);
            // Outside wedge: triangles (c, ca, cb) and (d, da, db).
            keep_prism(&[tet[c], e(c, a), e(c, b), tet[dd], e(dd, a), e(dd, b)], rest);
        }
    }
}

#[inline]
fn keep_prism(p: &[Point3; 6], sink: &mut impl FnMut([Point3; 4])) {
    prism_tets(p, sink)
}

/// Splits the prism with bottom (p0, p1, p2) and top (p3, p4, p5) (p_i joined to p_{i+3}) into
/// three tets.
#[inline]
fn prism_tets(p: &[Point3; 6], sink: &mut impl FnMut([Point3; 4])) {
    sink([p[0], p[1], p[2], p[3]]);
    sink([p[1], p[2], p[3], p[4]]);
    sink([p[2], p[3], p[4], p[5]]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::signed_tet_volume;
    use crate::math::Vector3;

    fn unit_tet() -> [Point3; 4] {
        [
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(0.0, 0.0, 1.0),
        ]
    }

    fn vol(t: &[Point3; 4]) -> f64 {
        signed_tet_volume(&t[0], &t[1], &t[2], &t[3]).abs()
    }

    #[test]
    fn split_tet_conserves_volume_and_matches_closed_form() {
        let tet = unit_tet();
        for (n, off) in [
            (Vector3::new(0.0, 0.0, 1.0), 0.5),
            (Vector3::new(1.0, 1.0, 0.0), 0.5),
            (Vector3::new(1.0, 2.0, 3.0), 0.7),
            (Vector3::new(-1.0, 0.3, 0.2), -0.1),
        ] {
            let plane = Plane::new(n, off);
            let (mut vin, mut vout) = (0.0, 0.0);
            split_tet(&tet, &plane, &mut |t| vin += vol(&t), &mut |t| vout += vol(&t));
            assert!((vin + vout - 1.0 / 6.0).abs() < 1e-15, "{vin} {vout}");
        }
        // z ≤ 0.5 of the unit tet: 1/6 − (0.5³)/6.
        let mut vin = 0.0;
        split_tet(&tet, &Plane::new(Vector3::z(), 0.5), &mut |t| vin += vol(&t), &mut |_| {});
        assert!((vin - (1.0 - 0.125) / 6.0).abs() < 1e-15);
    }

    #[test]
    fn tet_section_area_matches_closed_form() {
        let tet = unit_tet();
        // Section z = 0.5: right triangle with legs 0.5 → area 0.125.
        let s = tet_section(&tet, &Plane::new(Vector3::z(), 0.5));
        assert_eq!(s.len(), 3);
        let p = s.points();
        let area = 0.5 * (p[1] - p[0]).cross(&(p[2] - p[0])).norm();
        assert!((area - 0.125).abs() < 1e-15);
        let q = tet_section(&tet, &Plane::new(Vector3::new(1.0, 1.0, 0.0), 0.5));
        assert_eq!(q.len(), 4);
    }

    #[test]
    fn clip_square_by_diagonal_halves_it() {
        let sq = Polygon::from_points(&[
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ]);
        let c = sq.clip(&Plane::new(Vector3::new(1.0, 1.0, 0.0), 1.0));
        assert_eq!(c.len(), 3);
    }
}
