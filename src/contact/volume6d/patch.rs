//! The contact frame and patch of a pair from its intersection moments: the normal from the
//! volume's gradient, and the patch ellipse from the footprint's covariance in the tangent plane
//! (Bouchard et al. 2015, §4 use the volume's inertia-like tensor, whose tangent eigenvalues
//! swap a rectangle's axes; the volume's covariance fixes that, but a leaning box's wedge-shaped
//! overlap stretches its ellipse past the edge it leans on — the box could not tip — while the
//! footprint, the intersection's shadow on the contact plane, ends at that edge).

use crate::geometry::polytope::IntersectionMoments;
use crate::math::{Matrix3, Point3, Vector3};
use nalgebra::Matrix2;

pub use super::settings::DEFAULT_PATCH_SCALE;

/// A contact frame at the footprint's centroid and the patch ellipse in its tangent plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    /// The centroid of the footprint ([`IntersectionMoments::surface_centroid`]).
    pub origin: Point3,
    /// Unit normal, out of the second body into the first (−∇V/|∇V| for the first body's
    /// translation).
    pub normal: Vector3,
    /// Unit tangents along the ellipse's major and minor axes; (u, w, normal) is right-handed.
    pub u: Vector3,
    pub w: Vector3,
    /// Semi-axes along u and w (m), major first.
    pub semi_axes: (f64, f64),
}

/// The patch of intersection `m` with scale `k` (> 0); `None` when the gradient vanishes (no
/// normal: e.g. one body wholly inside the other).
pub fn patch(m: &IntersectionMoments, k: f64) -> Option<Patch> {
    let normal = (-m.gradient).try_normalize(1e-300)?;
    // An orthonormal basis (e1, e2) of the tangent plane.
    let helper = if normal.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() };
    let e1 = normal.cross(&helper).normalize();
    let e2 = normal.cross(&e1);
    // The boundary's area moments: where the overlap is thin they are the footprint's, which a
    // wedge (a box that leans) does not stretch past the edge it leans on, as the volume's do.
    let c: &Matrix3 = &m.surface_covariance;
    let block = Matrix2::new(e1.dot(&(c * e1)), e1.dot(&(c * e2)), e2.dot(&(c * e1)), e2.dot(&(c * e2)));
    let eigen = block.symmetric_eigen();
    let (major, minor) = if eigen.eigenvalues[0] >= eigen.eigenvalues[1] { (0, 1) } else { (1, 0) };
    let direction = |i: usize| {
        let v = eigen.eigenvectors.column(i);
        (e1 * v[0] + e2 * v[1]).normalize()
    };
    let u = direction(major);
    let w = normal.cross(&u);
    let axis = |i: usize| (k * eigen.eigenvalues[i].max(0.0)).sqrt();
    Some(Patch { origin: m.surface_centroid, normal, u, w, semi_axes: (axis(major), axis(minor)) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::polytope::intersection::{convex_half_space, sphere_half_space};
    use crate::math::Plane;

    #[test]
    fn a_flat_box_face_gives_the_ellipse_that_touches_its_edges() {
        // A 0.4 × 0.3 box face pressed 1 mm into the ground.
        let mesh = crate::geometry::mesher::surface_mesh(
            &crate::geometry::Shape::Box { size: [0.4, 0.3, 0.2] },
            None,
        )
        .unwrap();
        let ground = Plane::new(Vector3::z(), -0.099);
        let m = convex_half_space(&mesh, &ground).unwrap();
        let p = patch(&m, DEFAULT_PATCH_SCALE).unwrap();
        assert!((p.normal - Vector3::z()).norm() < 1e-12);
        assert!(
            (p.semi_axes.0 - 0.2).abs() < 1e-12 && (p.semi_axes.1 - 0.15).abs() < 1e-12,
            "{:?}",
            p.semi_axes
        );
        assert!(p.u.x.abs() > 1.0 - 1e-12, "the major axis is along the long side: {:?}", p.u);
        assert!((p.u.cross(&p.w) - p.normal).norm() < 1e-12);
    }

    #[test]
    fn a_shallow_cap_gives_a_circle_within_the_contact_disc() {
        let (r, d) = (0.1, 1e-4);
        let m = sphere_half_space(&Point3::new(0.0, 0.0, r - d), r, &Plane::new(Vector3::z(), 0.0)).unwrap();
        // The footprint is the contact disc of radius ρ (ρ² = 2Rd − d²), variance ρ²/4: the
        // default k = 3 gives a circle of radius ρ·√3/2; k = 4 the disc.
        let rho = (2.0 * r * d - d * d).sqrt();
        for (k, expected) in [(DEFAULT_PATCH_SCALE, rho * 0.75f64.sqrt()), (4.0, rho)] {
            let p = patch(&m, k).unwrap();
            let (a, b) = p.semi_axes;
            assert!(
                (a - expected).abs() < 1e-3 * rho && (b - expected).abs() < 1e-3 * rho,
                "k = {k}: {a}, {b}"
            );
        }
    }
}
