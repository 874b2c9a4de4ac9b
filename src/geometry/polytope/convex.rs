//! A convex polytope as intersections clip it: its vertices, its faces as convex polygons
//! (coplanar triangles merged, so a box has six quadrilaterals and the seams of a triangulated
//! face are no vertices), and the faces' planes — and the same placed in the world. Also a
//! solid as convex tets ([`TetSolid`]): a polytope keeps its own fanning into tets, so the two
//! types live together.

use crate::geometry::bvh::Bvh;
use crate::geometry::convex_hull::convex_order_in_plane;
use crate::geometry::{SurfaceMesh, TetMesh};
use crate::math::{Isometry3, Plane, Point3, Vector3};

/// A closed convex polytope in its body's frame.
#[derive(Clone, Debug)]
pub struct Polytope {
    pub vertices: Vec<Point3>,
    /// Each face's vertex indices, counter-clockwise seen from outside.
    pub faces: Vec<Vec<u32>>,
    /// Each face's plane (outward unit normal).
    pub planes: Vec<Plane>,
    /// Faces inside the body (a tet's face shared with another tet of its mesh): they bound a
    /// piece of the intersection but not the intersection itself. Empty: none.
    pub internal: Vec<bool>,
    /// The polytope fanned into tets, built the first time a mesh meets it
    /// ([`fanned`]).
    pub fanned: std::sync::OnceLock<TetSolid>,
}

/// A polytope at a pose: world vertices and planes; the faces are the shape's.
#[derive(Clone, Debug)]
pub struct Placed<'a> {
    pub shape: &'a Polytope,
    pub vertices: Vec<Point3>,
    pub planes: Vec<Plane>,
}

impl Polytope {
    /// The polytope bounded by a closed convex triangle mesh (outward triangles): triangles in
    /// one plane (within 1e-9 of the mesh's size) form one face, the convex hull of their
    /// corners in that plane (a fan's centre is dropped).
    pub fn from_mesh(mesh: &SurfaceMesh) -> Polytope {
        let size = mesh.vertices.iter().fold(0.0_f64, |m, p| m.max((p - mesh.vertices[0]).norm()));
        let tol = 1e-9 * size;
        let mut planes: Vec<Plane> = Vec::new();
        let mut members: Vec<Vec<u32>> = Vec::new();
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let [p, q, r] = mesh.triangle(t);
            let Some(n) = (q - p).cross(&(r - p)).try_normalize(0.0) else { continue };
            let plane = Plane::through(&p, n);
            let k = match planes.iter().position(|pl| {
                pl.normal.dot(&n) > 1.0 - 1e-9 && [p, q, r].iter().all(|x| pl.signed(x).abs() <= tol)
            }) {
                Some(k) => k,
                None => {
                    planes.push(plane);
                    members.push(Vec::new());
                    planes.len() - 1
                }
            };
            for &v in tri {
                if !members[k].contains(&v) {
                    members[k].push(v);
                }
            }
        }
        let faces = members
            .iter()
            .zip(&planes)
            .map(|(m, pl)| {
                let corners: Vec<Point3> = m.iter().map(|&v| mesh.vertices[v as usize]).collect();
                convex_order_in_plane(&corners, &pl.normal).into_iter().map(|k| m[k]).collect()
            })
            .collect();
        Polytope {
            vertices: mesh.vertices.clone(),
            faces,
            planes,
            internal: Vec::new(),
            fanned: Default::default(),
        }
    }

    /// A positively oriented tet (corners p0…p3) whose face `i` (opposite corner `i`) is inside
    /// its body where `internal[i]`.
    pub fn tet(p: [Point3; 4], internal: [bool; 4]) -> Polytope {
        // Face i, counter-clockwise seen from outside for a positive tet.
        const FACES: [[u32; 3]; 4] = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
        let planes = FACES
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|v| p[v as usize]);
                Plane::through(&a, (b - a).cross(&(c - a)).try_normalize(0.0).unwrap_or_else(Vector3::z))
            })
            .collect();
        Polytope {
            vertices: p.to_vec(),
            faces: FACES.iter().map(|f| f.to_vec()).collect(),
            planes,
            internal: internal.to_vec(),
            fanned: Default::default(),
        }
    }

    /// Whether face `k` is inside the body.
    pub fn is_internal(&self, k: usize) -> bool {
        self.internal.get(k).copied().unwrap_or(false)
    }

    /// The polytope at `pose`.
    pub fn placed(&self, pose: &Isometry3) -> Placed<'_> {
        Placed {
            shape: self,
            vertices: self.vertices.iter().map(|p| pose * p).collect(),
            planes: self.planes.iter().map(|pl| pl.transformed(pose)).collect(),
        }
    }
}

impl Placed<'_> {
    /// Face `k`'s corners (world frame).
    pub fn face(&self, k: usize) -> impl ExactSizeIterator<Item = Point3> + Clone + '_ {
        self.shape.faces[k].iter().map(|&v| self.vertices[v as usize])
    }

    /// Whether a face plane of either polytope has the other wholly outside it: they do not
    /// overlap (a cheap test that spares the clipping of most near pairs).
    pub fn separated_from(&self, other: &Placed<'_>) -> bool {
        let outside = |planes: &[Plane], points: &[Point3]| {
            planes.iter().any(|pl| points.iter().all(|p| pl.signed(p) >= 0.0))
        };
        outside(&self.planes, &other.vertices) || outside(&other.planes, &self.vertices)
    }
}

/// A solid as tetrahedra in its body frame (a closed mesh body: its tets as convex pieces, a
/// face shared by two tets marked internal, and a hierarchy over them).
#[derive(Clone, Debug)]
pub struct TetSolid {
    pub tets: Vec<Polytope>,
    pub bvh: Bvh,
    /// The radius of a ball about the body origin that holds it.
    pub radius: f64,
}

impl TetSolid {
    /// The tets of a mesh (positively oriented), faces between two tets internal.
    pub fn from_tet_mesh(mesh: &TetMesh) -> TetSolid {
        let adjacency = mesh.adjacency();
        let tets = (0..mesh.tets.len())
            .map(|t| Polytope::tet(mesh.tet(t), adjacency[t].map(|n| n != u32::MAX)))
            .collect();
        let bvh = Bvh::build(mesh.tets.len(), |t| mesh.tet(t));
        let radius = mesh.vertices.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
        TetSolid { tets, bvh, radius }
    }

    /// A convex polytope as tets: each face fanned from the vertex mean, the fan's sides internal.
    pub fn from_polytope(p: &Polytope) -> TetSolid {
        let centre = Point3::from(
            p.vertices.iter().fold(Vector3::zeros(), |s, v| s + v.coords) / p.vertices.len() as f64,
        );
        let mut corners: Vec<[Point3; 4]> = Vec::new();
        for face in &p.faces {
            let at = |k: usize| p.vertices[face[k] as usize];
            for k in 1..face.len().saturating_sub(1) {
                corners.push([centre, at(0), at(k), at(k + 1)]);
            }
        }
        let tets = corners.iter().map(|c| Polytope::tet(*c, [false, true, true, true])).collect();
        let bvh = Bvh::build(corners.len(), |t| corners[t]);
        let radius = p.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f64::max);
        TetSolid { tets, bvh, radius }
    }
}

/// Polytope `p` fanned into tets ([`TetSolid::from_polytope`]), built once and kept.
pub fn fanned(p: &Polytope) -> &TetSolid {
    p.fanned.get_or_init(|| TetSolid::from_polytope(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Shape, mesher};

    #[test]
    fn a_box_has_six_quadrilateral_faces_facing_out() {
        let mesh = mesher::surface_mesh(&Shape::Box { size: [0.2, 0.4, 0.6] }, None).unwrap();
        let p = Polytope::from_mesh(&mesh);
        assert_eq!(p.faces.len(), 6);
        for (face, plane) in p.faces.iter().zip(&p.planes) {
            assert_eq!(face.len(), 4);
            // Counter-clockwise about the outward normal.
            let c: Vec<Point3> = face.iter().map(|&v| p.vertices[v as usize]).collect();
            assert!((c[1] - c[0]).cross(&(c[2] - c[1])).dot(&plane.normal) > 0.0);
            assert!(p.vertices.iter().all(|v| plane.signed(v) <= 1e-15));
        }
    }

    #[test]
    fn a_tessellated_cylinder_keeps_its_rim_and_drops_the_caps_centres() {
        let shape = Shape::Cylinder { radius: 0.1, length: 0.2 };
        let mesh = mesher::surface_mesh(&shape, Some(0.02)).unwrap();
        let p = Polytope::from_mesh(&mesh);
        let caps: Vec<&Vec<u32>> = p
            .faces
            .iter()
            .zip(&p.planes)
            .filter(|(_, pl)| pl.normal.z.abs() > 0.999)
            .map(|(f, _)| f)
            .collect();
        assert_eq!(caps.len(), 2);
        for cap in caps {
            assert!(cap.len() >= 8);
            for &v in cap {
                let x = p.vertices[v as usize];
                // On the rim (the tessellation encloses the cylinder: a little outside r).
                assert!(((x.x * x.x + x.y * x.y).sqrt() - 0.1).abs() < 1e-3, "{x}");
            }
        }
    }

    #[test]
    fn boxes_apart_are_separated_and_overlapping_ones_are_not() {
        let mesh = mesher::surface_mesh(&Shape::Box { size: [0.1, 0.1, 0.1] }, None).unwrap();
        let p = Polytope::from_mesh(&mesh);
        let a = p.placed(&Isometry3::identity());
        assert!(a.separated_from(&p.placed(&Isometry3::translation(0.1001, 0.0, 0.0))));
        assert!(!a.separated_from(&p.placed(&Isometry3::translation(0.0999, 0.0, 0.0))));
    }
}
