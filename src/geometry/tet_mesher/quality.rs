//! Tet quality: dihedral angles.

use crate::math::{Point3, Vector3};

/// The smallest and largest dihedral angles (radians) of the tet `p`; `(0, π)` for a
/// degenerate one.
pub fn dihedral_range(p: &[Point3; 4]) -> (f64, f64) {
    // Outward normals of the faces opposite each vertex.
    let mut normals = [Vector3::zeros(); 4];
    for (i, n) in normals.iter_mut().enumerate() {
        let [a, b, c] = [p[(i + 1) % 4], p[(i + 2) % 4], p[(i + 3) % 4]];
        let mut m = (b - a).cross(&(c - a));
        if m.dot(&(p[i] - a)) > 0.0 {
            m = -m;
        }
        let len = m.norm();
        if !(len > 0.0 && len.is_finite()) {
            return (0.0, std::f64::consts::PI);
        }
        *n = m / len;
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..4 {
        for j in i + 1..4 {
            // The faces opposite i and j meet along the edge joining the other two vertices.
            let angle = (-normals[i].dot(&normals[j])).clamp(-1.0, 1.0).acos();
            lo = lo.min(angle);
            hi = hi.max(angle);
        }
    }
    (lo, hi)
}
