//! Volume, centroid and second moment of a solid from its closed, outward boundary triangles
//! (divergence theorem: each triangle coned to a reference point).

use crate::math::{Matrix3, Point3, Vector3};

/// The moments of a solid about its centroid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidMoments {
    /// Signed volume (m³): positive when the triangles face outward.
    pub volume: f64,
    /// Centroid (m).
    pub centroid: Point3,
    /// ∫ (x − c)(x − c)ᵀ dV about the centroid c (m⁵), symmetric.
    pub central_second_moment: Matrix3,
}

/// The moments of the solid bounded by `triangles` (closed, counter-clockwise seen from
/// outside). `reference` should lie near the solid (e.g. the vertex mean) so that a solid far
/// from the origin keeps its digits; for a closed boundary the result does not depend on it.
/// Callers check the volume: zero or negative means an open or inside-out boundary.
pub fn solid_moments(reference: &Point3, triangles: impl IntoIterator<Item = [Point3; 3]>) -> SolidMoments {
    let mut six_volume = 0.0;
    // Σ det · (a + b + c), with det = 6 · signed tet volume.
    let mut first = Vector3::zeros();
    // Σ det · (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a + b + c: 120 × ∫ x xᵀ dV about the reference.
    let mut second = Matrix3::zeros();
    for triangle in triangles {
        let [a, b, c] = triangle.map(|p| p - reference);
        let det = a.dot(&b.cross(&c));
        let s = a + b + c;
        six_volume += det;
        first += det * s;
        second += det * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    let volume = six_volume / 6.0;
    // Centroid relative to the reference: ∫ x dV / V, where a tet's ∫ x dV = det/6 · s/4.
    let d = first / 24.0 / volume;
    // About the centroid: ∫ (x − d)(x − d)ᵀ dV = ∫ x xᵀ dV − V d dᵀ.
    let central = second / 120.0 - volume * d * d.transpose();
    SolidMoments {
        volume,
        centroid: reference + d,
        central_second_moment: 0.5 * (central + central.transpose()),
    }
}

/// The mean of `points` (the origin when there are none): a good reference for
/// [`solid_moments`].
pub fn mean_point<'a>(points: impl IntoIterator<Item = &'a Point3>) -> Point3 {
    let (sum, count) = points.into_iter().fold((Vector3::zeros(), 0usize), |(s, n), p| (s + p.coords, n + 1));
    Point3::from(sum / count.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube far from the origin, split into triangles: V = 1, c = its centre,
    /// ∫ (x − c)(x − c)ᵀ dV = I/12, whatever the reference.
    #[test]
    fn a_cube_has_its_textbook_moments_from_any_reference() {
        let corner = |i: usize| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64);
        let offset = Vector3::new(1e3, -2e3, 5e2);
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let triangles: Vec<[Point3; 3]> = quads
            .iter()
            .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
            .map(|t| t.map(|i| corner(i) + offset))
            .collect();
        for reference in [Point3::from(offset) + Vector3::repeat(0.5), Point3::from(offset), Point3::origin()]
        {
            let m = solid_moments(&reference, triangles.iter().copied());
            let tolerance = if reference == Point3::origin() { 1e-6 } else { 1e-12 };
            assert!((m.volume - 1.0).abs() < tolerance, "{}", m.volume);
            assert!((m.centroid - (Point3::from(offset) + Vector3::repeat(0.5))).norm() < tolerance);
            assert!((m.central_second_moment - Matrix3::identity() / 12.0).abs().max() < tolerance);
        }
    }
}
