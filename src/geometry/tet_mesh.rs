use crate::math::{Plane, Point3, Vector3};

/// A tetrahedral mesh with shared vertices. Every tet `[a, b, c, d]` is positively oriented:
/// `(b − a) · ((c − a) × (d − a)) > 0`.
#[derive(Clone, Debug, Default)]
pub struct TetMesh {
    pub vertices: Vec<Point3>,
    pub tets: Vec<[u32; 4]>,
}

impl TetMesh {
    pub fn tet(&self, t: usize) -> [Point3; 4] {
        let [a, b, c, d] = self.tets[t];
        [
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
            self.vertices[d as usize],
        ]
    }

    /// Signed volume of tet `t` (positive for a valid mesh).
    pub fn tet_volume(&self, t: usize) -> f64 {
        let [a, b, c, d] = self.tet(t);
        signed_tet_volume(&a, &b, &c, &d)
    }

    /// Total volume.
    pub fn volume(&self) -> f64 {
        (0..self.tets.len()).map(|t| self.tet_volume(t)).sum()
    }

    /// For each tet, the tets across its four faces (`u32::MAX` where the face is on the
    /// boundary). Face `i` is the face opposite vertex `i`.
    pub fn adjacency(&self) -> Vec<[u32; 4]> {
        use std::collections::HashMap;
        let mut faces: HashMap<[u32; 3], (u32, usize)> = HashMap::with_capacity(self.tets.len() * 2);
        let mut adj = vec![[u32::MAX; 4]; self.tets.len()];
        for (t, tet) in self.tets.iter().enumerate() {
            for i in 0..4 {
                let mut key = [tet[(i + 1) % 4], tet[(i + 2) % 4], tet[(i + 3) % 4]];
                key.sort_unstable();
                if let Some((other, j)) = faces.remove(&key) {
                    adj[t][i] = other;
                    adj[other as usize][j] = t as u32;
                } else {
                    faces.insert(key, (t as u32, i));
                }
            }
        }
        adj
    }

    /// The boundary faces as a surface mesh (outward oriented), sharing this mesh's vertices.
    pub fn boundary(&self) -> super::SurfaceMesh {
        let adj = self.adjacency();
        let mut triangles = Vec::new();
        for (t, tet) in self.tets.iter().enumerate() {
            for i in 0..4 {
                if adj[t][i] == u32::MAX {
                    // Face opposite vertex i, wound so its normal points away from vertex i.
                    let f = match i {
                        0 => [tet[1], tet[2], tet[3]],
                        1 => [tet[0], tet[3], tet[2]],
                        2 => [tet[0], tet[1], tet[3]],
                        _ => [tet[0], tet[2], tet[1]],
                    };
                    triangles.push(f);
                }
            }
        }
        super::SurfaceMesh { vertices: self.vertices.clone(), triangles }
    }
}

/// Signed volume of the tet (a, b, c, d).
#[inline]
pub fn signed_tet_volume(a: &Point3, b: &Point3, c: &Point3, d: &Point3) -> f64 {
    let ab: Vector3 = b - a;
    ab.dot(&(c - a).cross(&(d - a))) / 6.0
}

/// The outward face planes of a tet; plane `i` is the face opposite vertex `i`.
pub fn tet_planes(p: &[Point3; 4]) -> [Plane; 4] {
    std::array::from_fn(|i| {
        let f = [p[(i + 1) % 4], p[(i + 2) % 4], p[(i + 3) % 4]];
        let mut n: Vector3 = (f[1] - f[0]).cross(&(f[2] - f[0]));
        if n.dot(&(p[i] - f[0])) > 0.0 {
            n = -n;
        }
        let len = n.norm();
        if len > 0.0 {
            n /= len;
        }
        Plane::through(&f[0], n)
    })
}
