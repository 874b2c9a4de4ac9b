//! The body-centred cubic (BCC) lattice: the corners of a cubic grid ("black" vertices) and the
//! centres of its cubes ("red" vertices). Its tets each join an edge between two neighbouring
//! cube centres to one of the four edges of the square face the two cubes share: 12 congruent
//! tets per cube, every dihedral angle 60° or 90°.
//!
//! Edges are "long" (length h, between two vertices of one colour along an axis) or "short"
//! (length h·√3/2, from a cube centre to a corner of its cube).

use crate::geometry::GeometryError;
use crate::math::{Point3, Vector3};

/// The most lattice vertices built; past this a resolution is almost surely a unit mistake.
pub(crate) const MAX_VERTICES: u64 = 4_000_000;

/// The lattice's offset from centred on the input (in cubes): arbitrary, far from simple ratios.
const SHIFT: [f64; 3] = [0.1372, 0.2913, 0.0581];

#[derive(Clone, Debug)]
pub(crate) struct Lattice {
    /// Cubes along each axis.
    n: [usize; 3],
    origin: Point3,
    /// Cube size (the long edge length).
    pub h: f64,
    black: usize,
}

impl Lattice {
    /// The lattice of cube size `h` covering the box `[lo, hi]` with more than a cube of margin
    /// on every side, so every vertex on the lattice's outer layer is outside the box.
    ///
    /// The lattice is shifted off the box's centre by odd fractions of `h`: input with round
    /// coordinates (a box 1 m long meshed at 5 cm) would otherwise put whole planes of lattice
    /// vertices exactly on its faces, where inside and outside are a toss-up.
    pub(crate) fn covering(lo: &Point3, hi: &Point3, h: f64) -> Result<Lattice, GeometryError> {
        let extent = hi - lo;
        let cubes = extent.map(|e| (e / h).ceil() + 3.0);
        let count = (cubes.x + 1.0) * (cubes.y + 1.0) * (cubes.z + 1.0) + cubes.x * cubes.y * cubes.z;
        if !(count.is_finite() && count <= MAX_VERTICES as f64) {
            return Err(GeometryError::TooFine {
                shape: "surface mesh's interior".into(),
                resolution: h,
                count: count.min(u64::MAX as f64) as u64,
                limit: MAX_VERTICES,
            });
        }
        let n = [cubes.x as usize, cubes.y as usize, cubes.z as usize];
        let span = Vector3::new(n[0] as f64, n[1] as f64, n[2] as f64) * h;
        let origin = nalgebra::center(lo, hi) - span * 0.5 + Vector3::from(SHIFT) * h;
        Ok(Lattice { n, origin, h, black: (n[0] + 1) * (n[1] + 1) * (n[2] + 1) })
    }

    pub(crate) fn vertex_count(&self) -> usize {
        self.black + self.n[0] * self.n[1] * self.n[2]
    }

    fn black_id(&self, [i, j, k]: [usize; 3]) -> u32 {
        (i + (self.n[0] + 1) * (j + (self.n[1] + 1) * k)) as u32
    }

    fn red_id(&self, [i, j, k]: [usize; 3]) -> u32 {
        (self.black + i + self.n[0] * (j + self.n[1] * k)) as u32
    }

    /// Whether `v` is a cube centre, and its integer coordinates (corner or cube indices).
    fn decode(&self, v: u32) -> (bool, [usize; 3]) {
        let v = v as usize;
        if v < self.black {
            let (nx, ny) = (self.n[0] + 1, self.n[1] + 1);
            (false, [v % nx, (v / nx) % ny, v / (nx * ny)])
        } else {
            let r = v - self.black;
            let (nx, ny) = (self.n[0], self.n[1]);
            (true, [r % nx, (r / nx) % ny, r / (nx * ny)])
        }
    }

    pub(crate) fn position(&self, v: u32) -> Point3 {
        let (red, c) = self.decode(v);
        let shift = if red { 0.5 } else { 0.0 };
        self.origin + Vector3::new(c[0] as f64 + shift, c[1] as f64 + shift, c[2] as f64 + shift) * self.h
    }

    /// Whether the edge `a`–`b` (neighbours) is a long edge (two vertices of one colour).
    pub(crate) fn is_long(&self, a: u32, b: u32) -> bool {
        ((a as usize) < self.black) == ((b as usize) < self.black)
    }

    /// The length of edge `a`–`b` (neighbours).
    pub(crate) fn edge_length(&self, a: u32, b: u32) -> f64 {
        if self.is_long(a, b) { self.h } else { self.h * 0.75f64.sqrt() }
    }

    /// A unique key for the edge between neighbours `a` and `b`.
    pub(crate) fn edge_key(&self, a: u32, b: u32) -> u64 {
        let (ra, ca) = self.decode(a);
        let (rb, cb) = self.decode(b);
        let (nb, nr) = (self.black as u64, (self.vertex_count() - self.black) as u64);
        if ra == rb {
            let axis = (0..3).find(|&k| ca[k] != cb[k]).unwrap_or(0) as u64;
            let lo = u64::from(a.min(b));
            if ra { 3 * nb + 3 * (lo - nb) + axis } else { 3 * lo + axis }
        } else {
            let (r, cr, cc) = if ra { (a, ca, cb) } else { (b, cb, ca) };
            let corner = (0..3).map(|k| ((cc[k] - cr[k]) as u64) << k).sum::<u64>();
            3 * nb + 3 * nr + 8 * (u64::from(r) - nb) + corner
        }
    }

    /// Writes the neighbours of `v` (up to 14: six along the axes, eight of the other colour)
    /// into `out` and returns how many there are.
    pub(crate) fn neighbours(&self, v: u32, out: &mut [u32; 14]) -> usize {
        let (red, c) = self.decode(v);
        let mut count = 0;
        // Same colour along the axes: corners range over 0..=n, cube centres over 0..n.
        let limit = |k: usize| if red { self.n[k] } else { self.n[k] + 1 };
        for k in 0..3 {
            for forward in [false, true] {
                let mut d = c;
                if forward {
                    if c[k] + 1 >= limit(k) {
                        continue;
                    }
                    d[k] += 1;
                } else {
                    if c[k] == 0 {
                        continue;
                    }
                    d[k] -= 1;
                }
                out[count] = if red { self.red_id(d) } else { self.black_id(d) };
                count += 1;
            }
        }
        for corner in 0..8usize {
            let bit = |k: usize| (corner >> k) & 1;
            if red {
                out[count] = self.black_id([c[0] + bit(0), c[1] + bit(1), c[2] + bit(2)]);
                count += 1;
            } else {
                // The cubes around a corner are at corner − 1 or corner along each axis.
                let mut cube = [0usize; 3];
                let inside = (0..3).all(|k| match (c[k] + bit(k)).checked_sub(1) {
                    Some(x) if x < self.n[k] => {
                        cube[k] = x;
                        true
                    }
                    _ => false,
                });
                if inside {
                    out[count] = self.red_id(cube);
                    count += 1;
                }
            }
        }
        count
    }

    /// Calls `visit` with the four vertices of every lattice tet, in a fixed order.
    pub(crate) fn for_each_tet(&self, mut visit: impl FnMut([u32; 4])) {
        let n = self.n;
        for k in 0..n[2] {
            for j in 0..n[1] {
                for i in 0..n[0] {
                    let c = [i, j, k];
                    for a in 0..3 {
                        if c[a] + 1 >= n[a] {
                            continue;
                        }
                        let mut next = c;
                        next[a] += 1;
                        let (r1, r2) = (self.red_id(c), self.red_id(next));
                        let (b, d) = ((a + 1) % 3, (a + 2) % 3);
                        let corner = |u: usize, v: usize| {
                            let mut p = [0; 3];
                            p[a] = c[a] + 1;
                            p[b] = c[b] + u;
                            p[d] = c[d] + v;
                            self.black_id(p)
                        };
                        let square = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                        for e in 0..4 {
                            visit([r1, r2, square[e], square[(e + 1) % 4]]);
                        }
                    }
                }
            }
        }
    }
}
