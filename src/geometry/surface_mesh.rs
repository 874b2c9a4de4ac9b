use crate::math::{Point3, Vector3};

/// A closed triangle surface mesh with shared vertices. Triangles are counter-clockwise seen
/// from outside, so `(b − a) × (c − a)` points out of the solid.
#[derive(Clone, Debug, Default)]
pub struct SurfaceMesh {
    pub vertices: Vec<Point3>,
    pub triangles: Vec<[u32; 3]>,
}

impl SurfaceMesh {
    pub fn triangle(&self, t: usize) -> [Point3; 3] {
        let [a, b, c] = self.triangles[t];
        [self.vertices[a as usize], self.vertices[b as usize], self.vertices[c as usize]]
    }

    /// Outward unit normal of triangle `t`.
    pub fn normal(&self, t: usize) -> Vector3 {
        let [a, b, c] = self.triangle(t);
        (b - a).cross(&(c - a)).normalize()
    }

    /// Enclosed volume (divergence theorem); positive for an outward-oriented closed mesh.
    pub fn volume(&self) -> f64 {
        (0..self.triangles.len())
            .map(|t| {
                let [a, b, c] = self.triangle(t);
                a.coords.dot(&b.coords.cross(&c.coords)) / 6.0
            })
            .sum()
    }

    /// Total area.
    pub fn area(&self) -> f64 {
        (0..self.triangles.len())
            .map(|t| {
                let [a, b, c] = self.triangle(t);
                0.5 * (b - a).cross(&(c - a)).norm()
            })
            .sum()
    }
}
