//! The intersection volume of a touching pair and its moments (Bouchard et al. 2015, computed
//! exactly rather than by ray casting): the volume V, its centroid c, its covariance
//! C = (1/V)·∫(r − c)(r − c)ᵀ dV, and the gradient G of V with respect to the first body's
//! translation (|G| is the area of the contact patch projected on the plane normal to G; the
//! contact normal, out of the second body into the first, is −G/|G|).

use super::convex::Placed;
use crate::geometry::clip::{area_vector, clip_with};
use crate::geometry::convex_hull::convex_order_in_plane;
use crate::geometry::solid_moments::{mean_point, solid_moments};
use crate::math::{Matrix3, Plane, Point3, Vector3};
use smallvec::SmallVec;
use std::f64::consts::PI;
#[cfg(test)]
use {super::convex::Polytope, crate::geometry::SurfaceMesh, crate::math::Isometry3};

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
    /// The footprint: the intersection's boundary weighted by its area projected on the plane
    /// normal to the gradient — each point of the intersection's shadow on that plane is covered
    /// twice (where the boundary enters and leaves), so the tangent moments are the shadow's
    /// own, whatever the volume's shape across it (a leaning box's wedge included). Its
    /// centroid and covariance (m²); only their tangent parts describe the shadow.
    pub surface_centroid: Point3,
    pub surface_covariance: Matrix3,
}

impl IntersectionMoments {
    /// The moments of two disjoint intersections taken as one (a compound body's parts): volumes
    /// and gradients add; centroid and covariance by volume (parallel-axis theorem); the
    /// footprints by their projected areas |G|, each about its own contact plane — the same plane
    /// when the parts press along one normal (feet on a floor), an approximation otherwise.
    pub fn combined(&self, other: &IntersectionMoments) -> IntersectionMoments {
        let pool = |(w1, c1, s1): (f64, &Point3, &Matrix3), (w2, c2, s2): (f64, &Point3, &Matrix3)| {
            let w = w1 + w2;
            if w <= 0.0 {
                return (*c1, *s1);
            }
            let c = Point3::from((c1.coords * w1 + c2.coords * w2) / w);
            let (d1, d2) = (c1 - c, c2 - c);
            let s = (s1 + d1 * d1.transpose()) * (w1 / w) + (s2 + d2 * d2.transpose()) * (w2 / w);
            (c, s)
        };
        let (centroid, covariance) = pool(
            (self.volume, &self.centroid, &self.covariance),
            (other.volume, &other.centroid, &other.covariance),
        );
        let (surface_centroid, surface_covariance) = pool(
            (self.gradient.norm(), &self.surface_centroid, &self.surface_covariance),
            (other.gradient.norm(), &other.surface_centroid, &other.surface_covariance),
        );
        IntersectionMoments {
            volume: self.volume + other.volume,
            centroid,
            covariance,
            gradient: self.gradient + other.gradient,
            surface_centroid,
            surface_covariance,
        }
    }
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
    // Slices at height u above the cap's apex, u ∈ [0, d], are disks of radius² 2Ru − u²:
    // V = π∫(2Ru − u²)du and the moments of u and of the disks' radius², in powers of d so that
    // a shallow cap keeps its digits (differences of antiderivatives at R and R − d lose them).
    let volume = PI * d * d * (r - d / 3.0);
    let per = r - d / 3.0;
    // Mean height ū, mean u², and the transverse second moment per axis E[ρ²]/4.
    let mean_u = d * (2.0 * r / 3.0 - d / 4.0) / per;
    let mean_u2 = d * d * (r / 2.0 - d / 5.0) / per;
    let sigma_t = d * (4.0 * r * r / 3.0 - r * d + d * d / 5.0) / (4.0 * per);
    let sigma_n = (mean_u2 - mean_u * mean_u).max(0.0);
    // The apex is at centre − R·n; the centroid lies ū above it, towards the centre.
    let centroid = centre - n * (r - mean_u);
    let covariance = Matrix3::identity() * sigma_t + n * n.transpose() * (sigma_n - sigma_t);
    // Moving the sphere by δ along −n deepens the cap by δ: dV/dd = π(2Rd − d²), the base disk.
    let base = PI * d * (2.0 * r - d);
    // The footprint: the contact disc of radius² ρ² = 2Rd − d² (tangent variance ρ²/4), once at
    // the cap's base (height d above the apex) and once on the spherical zone (mean height d/2
    // over the disc for the paraboloid a shallow zone is).
    let rho2 = d * (2.0 * r - d);
    let tangent = rho2 / 4.0;
    let surface_centroid = centre - n * (r - 0.75 * d);
    let surface_covariance = Matrix3::identity() * tangent + n * n.transpose() * (d * d / 16.0 - tangent);
    Some(IntersectionMoments {
        volume,
        centroid,
        covariance,
        gradient: -n * base,
        surface_centroid,
        surface_covariance,
    })
}

/// The intersection polyhedron of a pair: its faces (outward, counter-clockwise, convex), each
/// marked by the body whose surface it lies on, and the volume's gradient with respect to the
/// first body's translation.
#[derive(Clone, Debug, Default)]
pub struct IntersectionFaces {
    pub faces: Vec<Vec<Point3>>,
    /// Whether face k lies on the second body's surface (else on the first's).
    pub on_second: Vec<bool>,
    /// Whether face k lies inside its body (a tet face shared by two tets of a mesh): it bounds a
    /// piece of the intersection, not the intersection.
    pub internal: Vec<bool>,
    pub gradient: Vector3,
}

impl IntersectionFaces {
    /// The moments of the polyhedron (of the pieces, for a mesh: their volumes add, and the
    /// footprint is taken over the faces that are not internal); `None` when it encloses no
    /// volume.
    pub fn moments(&self) -> Option<IntersectionMoments> {
        intersection_moments(&self.faces, &self.internal, self.gradient)
    }

    /// Adds the pieces of `other` (a disjoint part of the same intersection).
    pub fn append(&mut self, mut other: IntersectionFaces) {
        self.faces.append(&mut other.faces);
        self.on_second.append(&mut other.on_second);
        self.internal.append(&mut other.internal);
        self.gradient += other.gradient;
    }

    /// The same polyhedron with the bodies' roles swapped.
    pub fn swapped(mut self) -> IntersectionFaces {
        self.on_second.iter_mut().for_each(|b| *b = !*b);
        self.gradient = -self.gradient;
        self
    }
}

/// The intersection of a closed convex polytope (`hull`: outward triangles, world frame) with
/// the half space `normal · x ≤ offset` (`normal` a unit vector pointing out of it): the hull's
/// faces clipped by the plane, closed by the section polygon, integrated exactly by the
/// divergence theorem. `None` when they do not overlap. (Triangle meshes: tests.)
#[cfg(test)]
pub fn convex_half_space(hull: &SurfaceMesh, half_space: &Plane) -> Option<IntersectionMoments> {
    let polytope = Polytope::from_mesh(hull);
    convex_half_space_faces(&polytope.placed(&Isometry3::identity()), half_space)?.moments()
}

/// The intersection of a placed convex polytope with a half space (`normal · x ≤ offset`,
/// `normal` out of it), as faces: the polytope's clipped by the plane (first body) and the
/// section's (the half space, second).
pub fn convex_half_space_faces(hull: &Placed<'_>, half_space: &Plane) -> Option<IntersectionFaces> {
    let n = half_space.normal;
    let d: SmallVec<[f64; 32]> = hull.vertices.iter().map(|p| half_space.signed(p)).collect();
    if d.iter().all(|&x| x >= 0.0) {
        return None;
    }
    let mut faces: Vec<Vec<Point3>> = Vec::with_capacity(hull.shape.faces.len() + 1);
    // Where the hull's edges cross the plane: the section polygon's corners.
    let mut section: Vec<Point3> = Vec::new();
    let mut internal = Vec::with_capacity(hull.shape.faces.len() + 1);
    for (f, face) in hull.shape.faces.iter().enumerate() {
        let mut kept = Vec::with_capacity(face.len() + 1);
        for k in 0..face.len() {
            let (i, j) = (face[k] as usize, face[(k + 1) % face.len()] as usize);
            let (p, q) = (hull.vertices[i], hull.vertices[j]);
            let (dp, dq) = (d[i], d[j]);
            if dp <= 0.0 {
                kept.push(p);
            }
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                // The same point whichever face of the edge computes it.
                let x = crate::geometry::clip::edge_point(&p, &q, dp, dq);
                kept.push(x);
                section.push(x);
            }
        }
        if kept.len() >= 3 {
            faces.push(kept);
            internal.push(hull.shape.is_internal(f));
        }
    }
    // Vertices lying in the plane belong to the section too.
    for (p, &dp) in hull.vertices.iter().zip(&d) {
        if dp == 0.0 {
            section.push(*p);
        }
    }
    if faces.is_empty() {
        return None;
    }
    let mut on_second = vec![false; faces.len()];
    let cap = convex_polygon_in_plane(&section, &n);
    let cap_area = area_vector(&cap).dot(&n).abs();
    if cap.len() >= 3 {
        faces.push(cap);
        on_second.push(true);
        internal.push(false);
    }
    Some(IntersectionFaces { faces, on_second, internal, gradient: -n * cap_area })
}

/// The intersection of two closed convex polytopes (outward triangles, world frame): each
/// one's faces clipped by the other's face planes, integrated exactly by the divergence
/// theorem. The gradient with respect to `a`'s translation is the area vector of `a`'s surface
/// inside `b` (moving `a` by δ sweeps that surface outward by δ). `None` when they do not
/// overlap. (Triangle meshes: tests.)
#[cfg(test)]
pub fn convex_convex(a: &SurfaceMesh, b: &SurfaceMesh) -> Option<IntersectionMoments> {
    let (a, b) = (Polytope::from_mesh(a), Polytope::from_mesh(b));
    convex_convex_faces(&a.placed(&Isometry3::identity()), &b.placed(&Isometry3::identity()))?.moments()
}

/// The intersection of two placed convex polytopes as faces: each one's faces clipped by the
/// other's face planes. A face in both surfaces (same plane, same
/// outward normal) is counted once, as `a`'s.
pub fn convex_convex_faces(a: &Placed<'_>, b: &Placed<'_>) -> Option<IntersectionFaces> {
    if a.separated_from(b) {
        return None;
    }
    let mut out = IntersectionFaces::default();
    let (mut poly, mut spare) = (Polygon::new(), Polygon::new());
    for (mesh, others, from_a) in [(a, &b.planes, true), (b, &a.planes, false)] {
        for k in 0..mesh.shape.faces.len() {
            // A face of `b` in a face plane of `a` with the same outward normal bounds the same
            // part of the intersection as that face of `a`: count it once.
            if !from_a && coincides_with_a_face(&mesh.planes[k], mesh.face(k), &a.planes) {
                continue;
            }
            poly.clear();
            poly.extend(mesh.face(k));
            for pl in others {
                clip_polygon(&poly, pl, &mut spare);
                std::mem::swap(&mut poly, &mut spare);
                if poly.len() < 3 {
                    break;
                }
            }
            if poly.len() < 3 {
                continue;
            }
            let internal = mesh.shape.is_internal(k);
            // Internal faces of a's pieces come in opposite pairs: they add nothing.
            if from_a && !internal {
                out.gradient += area_vector(&poly);
            }
            out.faces.push(poly.to_vec());
            out.on_second.push(!from_a);
            out.internal.push(internal);
        }
    }
    if out.faces.is_empty() {
        return None;
    }
    Some(out)
}

/// A polygon being clipped.
type Polygon = SmallVec<[Point3; 16]>;

/// Whether a face (plane `plane`, corners `corners`) lies in one of `planes` (within 1e-12 of
/// its size) and faces the same way.
fn coincides_with_a_face(
    plane: &Plane,
    corners: impl Iterator<Item = Point3> + Clone,
    planes: &[Plane],
) -> bool {
    let first = corners.clone().next();
    let size = corners.clone().fold(0.0_f64, |m, p| first.map_or(m, |f| m.max((p - f).norm())));
    planes.iter().any(|pl| {
        pl.normal.dot(&plane.normal) > 1.0 - 1e-12
            && corners.clone().all(|p| pl.signed(&p).abs() <= 1e-12 * size)
    })
}

/// The part of convex polygon `poly` inside a plane (`signed ≤ 0`), any number of vertices,
/// into `out`.
fn clip_polygon(poly: &Polygon, plane: &Plane, out: &mut Polygon) {
    out.clear();
    let d: SmallVec<[f64; 16]> = poly.iter().map(|p| plane.signed(p)).collect();
    if d.iter().all(|&x| x <= 0.0) {
        out.extend_from_slice(poly);
        return;
    }
    clip_with(poly, &d, |x| out.push(x));
}

/// The points (in a plane of normal `n`) that are corners of their convex hull,
/// counter-clockwise about `n`: the outward face of the solid below the plane, whose outward
/// normal there is +n.
fn convex_polygon_in_plane(points: &[Point3], n: &Vector3) -> Vec<Point3> {
    convex_order_in_plane(points, n).into_iter().map(|i| points[i]).collect()
}

/// The moments of the closed polyhedron bounded by outward, counter-clockwise convex `faces`
/// (each fanned into triangles), with the volume gradient; `None` when it encloses no volume.
fn intersection_moments(
    faces: &[Vec<Point3>],
    internal: &[bool],
    gradient: Vector3,
) -> Option<IntersectionMoments> {
    let triangles = faces.iter().flat_map(|f| (1..f.len() - 1).map(move |k| [f[0], f[k], f[k + 1]]));
    let m = solid_moments(&mean_point(faces.iter().flatten()), triangles);
    if m.volume.is_nan() || m.volume <= 0.0 {
        return None;
    }
    let outer = faces.iter().zip(internal).filter(|(_, i)| !**i).map(|(f, _)| f);
    let (surface_centroid, surface_covariance) = surface_moments(outer, &gradient)?;
    Some(IntersectionMoments {
        volume: m.volume,
        centroid: m.centroid,
        covariance: m.central_second_moment / m.volume,
        gradient,
        surface_centroid,
        surface_covariance,
    })
}

/// The centroid and covariance of convex planar `faces` weighted by their area projected along
/// `direction` ([`IntersectionMoments::surface_covariance`]); fanned into triangles: a triangle
/// of weight A and corners p_i has ∫x dA = A·Σp_i/3 and ∫x xᵀ dA = A/12·(Σ p_i p_iᵀ + Σp_i·Σp_iᵀ).
/// About a point of the faces, for round-off.
fn surface_moments<'a>(
    faces: impl Iterator<Item = &'a Vec<Point3>> + Clone,
    direction: &Vector3,
) -> Option<(Point3, Matrix3)> {
    let axis = direction.try_normalize(0.0)?;
    let origin = faces.clone().next()?.first()?.coords;
    let (mut area, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for f in faces {
        for k in 1..f.len().saturating_sub(1) {
            let p = [f[0].coords - origin, f[k].coords - origin, f[k + 1].coords - origin];
            let a = 0.5 * (p[1] - p[0]).cross(&(p[2] - p[0])).dot(&axis).abs();
            let sum = p[0] + p[1] + p[2];
            area += a;
            first += sum * (a / 3.0);
            second += (p[0] * p[0].transpose()
                + p[1] * p[1].transpose()
                + p[2] * p[2].transpose()
                + sum * sum.transpose())
                * (a / 12.0);
        }
    }
    if area.is_nan() || area <= 0.0 {
        return None;
    }
    let mean = first / area;
    Some((Point3::from(origin + mean), second / area - mean * mean.transpose()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry3, Translation3, UnitQuaternion};

    /// Volume, centroid and covariance of the points of a `cells`³ grid over a box of `size`
    /// centred on the origin, placed by `to_world`, that are `inside`: brute-force quadrature.
    fn grid_moments(
        cells: usize,
        size: [f64; 3],
        to_world: impl Fn(Point3) -> Point3,
        inside: impl Fn(&Point3) -> bool,
    ) -> (f64, Point3, Matrix3) {
        let h = size.map(|s| s / cells as f64);
        let w = h[0] * h[1] * h[2];
        let (mut v, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
        for i in 0..cells {
            for j in 0..cells {
                for k in 0..cells {
                    let at = |n: usize, axis: usize| (n as f64 + 0.5) * h[axis] - size[axis] / 2.0;
                    let p = to_world(Point3::new(at(i, 0), at(j, 1), at(k, 2)));
                    if inside(&p) {
                        v += w;
                        first += p.coords * w;
                        second += p.coords * p.coords.transpose() * w;
                    }
                }
            }
        }
        let c = first / v;
        (v, Point3::from(c), second / v - c * c.transpose())
    }

    /// `gradient` against central differences of `volume_moved` (the volume after a translation).
    fn assert_gradient_matches(gradient: &Vector3, tolerance: f64, volume_moved: impl Fn(Vector3) -> f64) {
        let step = 1e-7;
        for axis in 0..3 {
            let e = Vector3::ith(axis, step);
            let fd = (volume_moved(e) - volume_moved(-e)) / (2.0 * step);
            assert!((fd - gradient[axis]).abs() < tolerance, "axis {axis}: {fd} vs {}", gradient[axis]);
        }
    }

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
        let inside = |p: &Point3| (p - centre).norm() <= r && plane.signed(p) <= 0.0;
        let (v, c, cov) = grid_moments(160, [2.0 * r; 3], |p| centre + p.coords, inside);
        assert!((v - m.volume).abs() < 5e-3 * m.volume, "{v} vs {}", m.volume);
        assert!((c - m.centroid).norm() < 5e-3 * r);
        assert!((cov - m.covariance).abs().max() < 2e-2 * m.covariance.abs().max());
        let vol = |x: Vector3| sphere_half_space(&(centre + x), r, &plane).unwrap().volume;
        assert_gradient_matches(&m.gradient, 1e-7 * m.gradient.norm(), vol);
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

    fn box_hull(size: [f64; 3], pose: &Isometry3) -> SurfaceMesh {
        let mut mesh =
            crate::geometry::mesher::surface_mesh(&crate::geometry::Shape::Box { size }, None).unwrap();
        for v in &mut mesh.vertices {
            *v = pose * *v;
        }
        mesh
    }

    #[test]
    fn half_a_box_has_the_moments_of_a_slab() {
        let (a, b, c) = (0.2, 0.15, 0.1);
        let hull = box_hull([2.0 * a, 2.0 * b, 2.0 * c], &Isometry3::identity());
        let m = convex_half_space(&hull, &Plane::new(Vector3::z(), 0.0)).unwrap();
        assert!((m.volume - 4.0 * a * b * c).abs() < 1e-15);
        assert!((m.centroid - Point3::new(0.0, 0.0, -c / 2.0)).norm() < 1e-15);
        let expected = Matrix3::from_diagonal(&Vector3::new(a * a / 3.0, b * b / 3.0, c * c / 12.0));
        assert!((m.covariance - expected).abs().max() < 1e-15, "{}", m.covariance);
        assert!((m.gradient - Vector3::new(0.0, 0.0, -4.0 * a * b)).norm() < 1e-15);
        assert!(convex_half_space(&hull, &Plane::new(Vector3::z(), -0.2)).is_none());
    }

    #[test]
    fn a_tilted_box_matches_quadrature_and_its_gradient_matches_differences() {
        let pose = Isometry3::from_parts(
            Translation3::new(0.01, -0.02, 0.03),
            UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5),
        );
        let size = [0.1, 0.08, 0.06];
        let plane = Plane::new(Vector3::new(0.1, 0.2, 0.97).normalize(), 0.02);
        let m = convex_half_space(&box_hull(size, &pose), &plane).unwrap();
        let (v, c, cov) = grid_moments(120, size, |p| pose * p, |p| plane.signed(p) <= 0.0);
        assert!((v - m.volume).abs() < 5e-3 * m.volume, "{v} vs {}", m.volume);
        assert!((c - m.centroid).norm() < 1e-3 * 0.1);
        assert!((cov - m.covariance).abs().max() < 1e-2 * m.covariance.abs().max());
        let moved = |x: Vector3| {
            let shifted = Isometry3::from_parts(Translation3::from(x), Default::default()) * pose;
            convex_half_space(&box_hull(size, &shifted), &plane).unwrap().volume
        };
        assert_gradient_matches(&m.gradient, 1e-6 * m.gradient.norm(), moved);
    }

    #[test]
    fn two_overlapping_boxes_meet_in_a_box() {
        let id = Isometry3::identity();
        let a = box_hull([0.2, 0.2, 0.2], &id);
        let shifted = Isometry3::translation(0.05, -0.03, 0.15);
        let b = box_hull([0.2, 0.2, 0.2], &shifted);
        let m = convex_convex(&b, &a).unwrap();
        // The overlap: x ∈ [−0.05, 0.1], y ∈ [−0.1, 0.07], z ∈ [0.05, 0.1].
        let (lx, ly, lz) = (0.15, 0.17, 0.05);
        assert!((m.volume - lx * ly * lz).abs() < 1e-15, "{}", m.volume);
        assert!((m.centroid - Point3::new(0.025, -0.015, 0.075)).norm() < 1e-15);
        let expected = Matrix3::from_diagonal(&Vector3::new(lx * lx, ly * ly, lz * lz)) / 12.0;
        assert!((m.covariance - expected).abs().max() < 1e-15);
        // Moving the upper box by δ: the overlap changes by δ·G, G = the area vectors of its
        // surface inside the lower box (its bottom face part, −z, and the side parts: the
        // overlap grows in x when moving −x, in y when moving +y).
        let vol = |x: Vector3| {
            let moved = Isometry3::translation(x.x, x.y, x.z) * shifted;
            convex_convex(&box_hull([0.2, 0.2, 0.2], &moved), &a).unwrap().volume
        };
        assert_gradient_matches(&m.gradient, 1e-7, vol);
        assert!(
            convex_convex(&box_hull([0.2, 0.2, 0.2], &Isometry3::translation(0.0, 0.0, 0.5)), &a).is_none()
        );
    }

    #[test]
    fn boxes_with_faces_in_one_plane_count_them_once() {
        let a = box_hull([0.2, 0.2, 0.2], &Isometry3::identity());
        // Same top face plane (z = 0.1), shifted sideways: the overlap is 0.15 × 0.2 × 0.2.
        let b = box_hull([0.2, 0.2, 0.2], &Isometry3::translation(0.05, 0.0, 0.0));
        let m = convex_convex(&b, &a).unwrap();
        assert!((m.volume - 0.15 * 0.2 * 0.2).abs() < 1e-15, "{}", m.volume);
        assert!((m.centroid - Point3::new(0.025, 0.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn a_box_turned_about_the_vertical_meets_a_box_in_an_octagonal_prism() {
        // Two boxes of side s in x and y, one turned 45° about z: their overlap in plan is the
        // regular octagon of inradius s/2 (area 2(√2 − 1)s², per-axis variance
        // (r²/4)(1 + tan²(π/8)/3)), over the heights' overlap h.
        let s_ = 0.2;
        let a = box_hull([s_, s_, 0.1], &Isometry3::identity());
        let turned = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 0.08),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4),
        );
        let b = box_hull([s_, s_, 0.1], &turned);
        let m = convex_convex(&b, &a).unwrap();
        let h = 0.02;
        let area = 2.0 * (2f64.sqrt() - 1.0) * s_ * s_;
        assert!((m.volume - area * h).abs() < 1e-14, "{} vs {}", m.volume, area * h);
        assert!((m.centroid - Point3::new(0.0, 0.0, 0.04)).norm() < 1e-14);
        let r = s_ / 2.0;
        let t = (std::f64::consts::PI / 8.0).tan();
        let plan = r * r / 4.0 * (1.0 + t * t / 3.0);
        let expected = Matrix3::from_diagonal(&Vector3::new(plan, plan, h * h / 12.0));
        assert!((m.covariance - expected).abs().max() < 1e-14, "{}", m.covariance);
        let vol = |x: Vector3| {
            let moved = Isometry3::translation(x.x, x.y, x.z) * turned;
            convex_convex(&box_hull([s_, s_, 0.1], &moved), &a).unwrap().volume
        };
        assert_gradient_matches(&m.gradient, 1e-6 * m.gradient.norm(), vol);
    }

    #[test]
    fn a_box_edge_pressed_into_a_box_face_cuts_a_triangular_prism() {
        // Box a (length L along x) turned 45° about x, its lower edge δ into the top face of a
        // larger box b: the overlap is a prism of the triangle (±δ, 0), (0, −δ) in (y, z) below
        // the face: volume δ²·L, centroid δ/3 below the face, variances L²/12, δ²/6, δ²/18.
        let (l, w, delta) = (0.1, 0.06, 0.004);
        let b = box_hull([0.5, 0.5, 0.2], &Isometry3::identity());
        let half_diagonal = w / 2.0 * 2f64.sqrt();
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 0.1 + half_diagonal - delta),
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_4),
        );
        let a = box_hull([l, w, w], &pose);
        let m = convex_convex(&a, &b).unwrap();
        assert!((m.volume - delta * delta * l).abs() < 1e-9 * delta * delta * l, "{}", m.volume);
        assert!((m.centroid - Point3::new(0.0, 0.0, 0.1 - delta / 3.0)).norm() < 1e-12, "{}", m.centroid);
        let expected =
            Matrix3::from_diagonal(&Vector3::new(l * l / 12.0, delta * delta / 6.0, delta * delta / 18.0));
        assert!((m.covariance - expected).abs().max() < 1e-12, "{}", m.covariance);
        let vol = |x: Vector3| {
            let moved = Isometry3::translation(x.x, x.y, x.z) * pose;
            convex_convex(&box_hull([l, w, w], &moved), &b).unwrap().volume
        };
        assert_gradient_matches(&m.gradient, 1e-6 * m.gradient.norm(), vol);
    }
}
