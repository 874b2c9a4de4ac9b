//! The point contacts of the `points` formulation, the baseline the 6D solver is compared with
//! (Bouchard et al. 2015, Table 2): one point contact at each vertex of the intersection
//! polyhedron on the second body's surface, with the pair's normal.

use super::patch::Patch;
use crate::geometry::clip::area_vector;
use crate::geometry::polytope::IntersectionFaces;
use crate::math::{Matrix3, Plane, Point3};

/// The points of a pair: each vertex of the intersection polyhedron that lies on the second
/// body's surface where that surface faces the first (outward normal · n > 0, n from the second
/// body into the first: the side where the bodies press on each other), once each, in the
/// faces' order. A point is a vertex where the face planes through it span three directions
/// (a point where the triangles of one planar face meet an edge is not). A sphere against a half
/// space (a cap: no vertices; `faces` is `None`) has one point, the patch centre.
pub fn contact_points(faces: Option<&IntersectionFaces>, patch: &Patch) -> Vec<Point3> {
    let Some(faces) = faces else { return vec![patch.origin] };
    // Internal faces (between a mesh's tets) bound pieces, not the intersection: left out.
    let internal = |k: usize| faces.internal.get(k).copied().unwrap_or(false);
    let planes: Vec<Option<Plane>> =
        faces.faces.iter().enumerate().map(|(k, f)| if internal(k) { None } else { face_plane(f) }).collect();
    let all = faces.faces.iter().flatten();
    let first = faces.faces.first().and_then(|f| f.first()).copied().unwrap_or(patch.origin);
    let size = all.fold(0.0_f64, |m, p| m.max((p - first).norm()));
    let tol = 1e-9 * size;
    let mut points: Vec<Point3> = Vec::new();
    for (k, face) in faces.faces.iter().enumerate() {
        let facing = planes[k].is_some_and(|pl| pl.normal.dot(&patch.normal) > 1e-6);
        if !faces.on_second[k] || !facing || internal(k) {
            continue;
        }
        for p in face {
            if points.iter().any(|q| (q - p).norm() <= tol) {
                continue;
            }
            let spread: Matrix3 = planes
                .iter()
                .flatten()
                .filter(|pl| pl.signed(p).abs() <= tol)
                .map(|pl| pl.normal * pl.normal.transpose())
                .sum();
            if spread.determinant() > 1e-10 {
                points.push(*p);
            }
        }
    }
    if points.is_empty() {
        points.push(patch.origin);
    }
    points
}

/// The plane of a convex polygon, `None` when it has no area.
fn face_plane(face: &[Point3]) -> Option<Plane> {
    Some(Plane::through(face.first()?, area_vector(face).try_normalize(0.0)?))
}

#[cfg(test)]
mod tests {
    use super::super::body::{Volume6dShape, pair_faces};
    use super::super::patch::patch;
    use super::*;
    use crate::geometry::Shape;
    use crate::math::{Isometry3, Translation3, UnitQuaternion};

    fn points_of(a: (&Volume6dShape, Isometry3), b: (&Volume6dShape, Isometry3)) -> Vec<Point3> {
        let faces = pair_faces((a.0, &a.1), (b.0, &b.1)).unwrap();
        let m = super::super::body::pair_moments((a.0, &a.1), (b.0, &b.1)).unwrap().unwrap();
        contact_points(faces.as_ref(), &patch(&m, 3.0).unwrap())
    }

    fn cube(side: f64) -> Volume6dShape {
        Volume6dShape::new(&Shape::Box { size: [side; 3] }, None).unwrap()
    }

    #[test]
    fn a_box_on_the_ground_touches_at_its_four_corners_either_way_round() {
        let (cube, ground) = (cube(0.1), Volume6dShape::HalfSpace);
        let pose = Isometry3::from_parts(Translation3::new(0.3, -0.2, 0.049), UnitQuaternion::identity());
        for swapped in [false, true] {
            let pts = if swapped {
                points_of((&ground, Isometry3::identity()), (&cube, pose))
            } else {
                points_of((&cube, pose), (&ground, Isometry3::identity()))
            };
            assert_eq!(pts.len(), 4, "{pts:?}");
            // On the second body's surface: the ground plane, or the cube's bottom face.
            let z = if swapped { -0.001 } else { 0.0 };
            for p in &pts {
                assert!((p.z - z).abs() < 1e-12, "{p}");
                assert!(((p.x - 0.3).abs() - 0.05).abs() < 1e-12 && ((p.y + 0.2).abs() - 0.05).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_box_on_a_box_touches_at_the_corners_of_the_overlap_only() {
        // A small cube on a large one: the large cube's top face is two triangles whose
        // diagonal crosses the overlap; where it meets the overlap's edges is no vertex.
        let (small, large) = (cube(0.1), cube(1.0));
        let on_top = Isometry3::from_parts(
            Translation3::new(0.1, 0.05, 0.549),
            UnitQuaternion::from_euler_angles(0.0, 0.0, 0.3),
        );
        let pts = points_of((&small, on_top), (&large, Isometry3::identity()));
        assert_eq!(pts.len(), 4, "{pts:?}");
        assert!(pts.iter().all(|p| (p.z - 0.5).abs() < 1e-12));
    }

    #[test]
    fn a_sphere_on_the_ground_has_one_point() {
        let ball = Volume6dShape::new(&Shape::Sphere { radius: 0.1 }, None).unwrap();
        let pose = Isometry3::translation(0.0, 0.0, 0.099);
        let pts = points_of((&ball, pose), (&Volume6dShape::HalfSpace, Isometry3::identity()));
        assert_eq!(pts.len(), 1);
        assert!((pts[0] - Point3::new(0.0, 0.0, -0.00025)).norm() < 1e-9, "{}", pts[0]);
    }

    #[test]
    fn an_octagonal_prism_touches_at_its_eight_bottom_corners_not_where_its_triangles_meet() {
        // The hull's side quads and bottom octagon are triangles; their seams cross the section.
        let points: Vec<Point3> = (0..16)
            .map(|k| {
                let a = 2.0 * std::f64::consts::PI * ((k % 8) as f64 + 0.5) / 8.0;
                Point3::new(0.1 * a.cos(), 0.1 * a.sin(), if k < 8 { -0.025 } else { 0.025 })
            })
            .collect();
        let shape = Shape::Convex { file: "octagon.obj".into(), points };
        let octagon = Volume6dShape::new(&shape, None).unwrap();
        let pose = Isometry3::from_parts(Translation3::new(0.05, 0.0, 0.02499), UnitQuaternion::identity());
        let pts = points_of((&octagon, pose), (&Volume6dShape::HalfSpace, Isometry3::identity()));
        assert_eq!(pts.len(), 8, "{pts:?}");
        for p in &pts {
            assert!(
                p.z.abs() < 1e-12 && ((p - Point3::new(0.05, 0.0, 0.0)).norm() - 0.1).abs() < 1e-12,
                "{p}"
            );
        }
    }
}
