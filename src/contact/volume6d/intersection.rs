//! The intersection volume of a touching pair and its moments (Bouchard et al. 2015, computed
//! exactly rather than by ray casting): the volume V, its centroid c, its covariance
//! C = (1/V)·∫(r − c)(r − c)ᵀ dV, and the gradient G of V with respect to the first body's
//! translation (|G| is the area of the contact patch projected on the plane normal to G; the
//! contact normal, out of the second body into the first, is −G/|G|).

use crate::math::{Matrix3, Plane, Point3, Vector3};
use std::f64::consts::PI;

/// The moments of an intersection volume (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntersectionMoments {
    /// V (m³), > 0.
    pub volume: f64,
    /// The centroid c.
    pub centroid: Point3,
    /// C = (1/V)·∫(r − c)(r − c)ᵀ dV (m²).
    pub covariance: Matrix3,
    /// ∂V/∂x of the first body's translation x (m²).
    pub gradient: Vector3,
}

/// The intersection of a sphere (centre, radius) with the half space `normal · x ≤ offset`
/// (`normal` a unit vector pointing out of the half space): a spherical cap, in closed form.
/// `None` when they do not overlap.
pub fn sphere_half_space(centre: &Point3, radius: f64, half_space: &Plane) -> Option<IntersectionMoments> {
    let n = half_space.normal;
    // Height of the centre above the plane, and the cap's depth d (0 < d ≤ 2R).
    let h = half_space.signed(centre);
    let r = radius;
    let d = r - h;
    if d <= 0.0 {
        return None;
    }
    let d = d.min(2.0 * r);
    // Slices at distance s below the centre, s ∈ [a, R] with a = R − d, are disks of radius²
    // R² − s²: V = π∫(R² − s²)ds, the first moment π∫s(R² − s²)ds, the axial second moment
    // π∫s²(R² − s²)ds and the transverse one π∫(R² − s²)²/4 ds.
    let a = r - d;
    let antiderivative = |s: f64| {
        let (s2, r2) = (s * s, r * r);
        [
            r2 * s - s * s2 / 3.0,
            r2 * s2 / 2.0 - s2 * s2 / 4.0,
            r2 * s * s2 / 3.0 - s2 * s2 * s / 5.0,
            (r2 * r2 * s - 2.0 * r2 * s * s2 / 3.0 + s2 * s2 * s / 5.0) / 4.0,
        ]
    };
    let (hi, lo) = (antiderivative(r), antiderivative(a));
    let [volume, first, axial, transverse] = [0, 1, 2, 3].map(|k| PI * (hi[k] - lo[k]));
    let depth_of_centroid = first / volume;
    let centroid = centre - n * depth_of_centroid;
    let sigma_n = axial / volume - depth_of_centroid * depth_of_centroid;
    let sigma_t = transverse / volume;
    let covariance = Matrix3::identity() * sigma_t + n * n.transpose() * (sigma_n - sigma_t);
    // Moving the sphere by δ along −n deepens the cap by δ: dV/dd = π(R² − a²), the base disk.
    let base = PI * (r * r - a * a).max(0.0);
    Some(IntersectionMoments { volume, centroid, covariance, gradient: -n * base })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hemisphere_has_the_textbook_moments() {
        let r = 0.1;
        let m = sphere_half_space(&Point3::new(0.3, -0.2, 0.0), r, &Plane::new(Vector3::z(), 0.0)).unwrap();
        assert!((m.volume - 2.0 / 3.0 * PI * r.powi(3)).abs() < 1e-15);
        // Centroid 3R/8 below the centre; transverse variance R²/5; axial R²/5 − (3R/8)² = 19R²/320.
        assert!((m.centroid - Point3::new(0.3, -0.2, -3.0 * r / 8.0)).norm() < 1e-15);
        assert!((m.covariance[(0, 0)] - r * r / 5.0).abs() < 1e-15);
        assert!((m.covariance[(2, 2)] - 19.0 * r * r / 320.0).abs() < 1e-15);
        assert!((m.gradient - Vector3::new(0.0, 0.0, -PI * r * r)).norm() < 1e-15);
    }

    /// Moments by brute-force quadrature over a fine grid against the closed form, on a tilted
    /// plane; and the gradient against differences of the volume.
    #[test]
    fn a_cap_matches_quadrature_and_its_gradient_matches_differences() {
        let (centre, r) = (Point3::new(0.01, 0.02, 0.03), 0.05);
        let n = Vector3::new(0.3, -0.2, 0.9).normalize();
        let plane = Plane::through(&(centre - n * 0.02), n);
        let m = sphere_half_space(&centre, r, &plane).unwrap();
        let cells = 160;
        let h = 2.0 * r / cells as f64;
        let (mut v, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
        for i in 0..cells {
            for j in 0..cells {
                for k in 0..cells {
                    let p = centre + Vector3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5) * h
                        - Vector3::repeat(r);
                    if (p - centre).norm() <= r && plane.signed(&p) <= 0.0 {
                        let w = h * h * h;
                        v += w;
                        first += p.coords * w;
                        second += p.coords * p.coords.transpose() * w;
                    }
                }
            }
        }
        let c = first / v;
        let cov = second / v - c * c.transpose();
        assert!((v - m.volume).abs() < 5e-3 * m.volume, "{v} vs {}", m.volume);
        assert!((c - m.centroid.coords).norm() < 5e-3 * r);
        assert!((cov - m.covariance).abs().max() < 2e-2 * m.covariance.abs().max());
        let step = 1e-7;
        for axis in 0..3 {
            let mut e = Vector3::zeros();
            e[axis] = step;
            let vol = |x: Vector3| sphere_half_space(&(centre + x), r, &plane).unwrap().volume;
            let fd = (vol(e) - vol(-e)) / (2.0 * step);
            assert!((fd - m.gradient[axis]).abs() < 1e-7 * m.gradient.norm(), "axis {axis}: {fd}");
        }
    }

    #[test]
    fn apart_is_none_and_a_sphere_below_the_plane_is_whole() {
        let plane = Plane::new(Vector3::z(), 0.0);
        assert!(sphere_half_space(&Point3::new(0.0, 0.0, 0.2), 0.1, &plane).is_none());
        let whole = sphere_half_space(&Point3::new(0.0, 0.0, -0.5), 0.1, &plane).unwrap();
        assert!((whole.volume - 4.0 / 3.0 * PI * 1e-3).abs() < 1e-15);
        assert!((whole.covariance[(2, 2)] - 0.1 * 0.1 / 5.0).abs() < 1e-15);
        assert!(whole.gradient.norm() < 1e-12);
    }
}
