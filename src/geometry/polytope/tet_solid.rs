//! The intersection of a solid made of tets ([`TetSolid`]) with a half space or another such
//! solid: the union of the tet pieces' intersections — whose volumes add, whose internal faces
//! cancel in the gradient and are left out of the footprint.

use super::convex::{Placed, TetSolid};
use super::intersection::{IntersectionFaces, convex_convex_faces, convex_half_space_faces};
use crate::math::{Isometry3, Plane};

/// The intersection of solid `m` at `pose` with the half space below `plane` (world frame, its
/// normal out of the half space): its tets that reach below the plane, each clipped.
pub fn solid_half_space(m: &TetSolid, pose: &Isometry3, plane: &Plane) -> Option<IntersectionFaces> {
    let local = plane.transformed(&pose.inverse());
    let mut out: Option<IntersectionFaces> = None;
    m.bvh.below_plane(&local, false, &mut |t| {
        if let Some(piece) = convex_half_space_faces(&m.tets[t as usize].placed(pose), plane) {
            match &mut out {
                Some(o) => o.append(piece),
                None => out = Some(piece),
            }
        }
    });
    out
}

/// The intersection of two solids at their poses: the tet pairs whose boxes overlap, each
/// clipped (convex–convex), in the hierarchy's order.
pub fn solid_solid(
    a: &TetSolid,
    pose_a: &Isometry3,
    b: &TetSolid,
    pose_b: &Isometry3,
) -> Option<IntersectionFaces> {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    a.bvh.overlapping_pairs(&b.bvh, &(pose_a.inverse() * pose_b), &mut |i, j| pairs.push((i, j)));
    if pairs.is_empty() {
        return None;
    }
    // Each tet placed once.
    let placed_a = placed_once(a, pose_a, pairs.iter().map(|p| p.0 as usize));
    let placed_b = placed_once(b, pose_b, pairs.iter().map(|p| p.1 as usize));
    let mut out: Option<IntersectionFaces> = None;
    for (i, j) in pairs {
        let (Some(ta), Some(tb)) = (find(&placed_a, i as usize), find(&placed_b, j as usize)) else {
            continue;
        };
        if let Some(piece) = convex_convex_faces(ta, tb) {
            match &mut out {
                Some(o) => o.append(piece),
                None => out = Some(piece),
            }
        }
    }
    out
}

/// The tets of `solid` named by `used` placed at `pose`, each once, by index (sorted).
fn placed_once<'a>(
    solid: &'a TetSolid,
    pose: &Isometry3,
    used: impl Iterator<Item = usize>,
) -> Vec<(usize, Placed<'a>)> {
    let mut indices: Vec<usize> = used.collect();
    indices.sort_unstable();
    indices.dedup();
    indices.into_iter().map(|t| (t, solid.tets[t].placed(pose))).collect()
}

/// The placed tet `t` of a [`placed_once`] list.
fn find<'p, 'a>(placed: &'p [(usize, Placed<'a>)], t: usize) -> Option<&'p Placed<'a>> {
    placed.binary_search_by_key(&t, |(k, _)| *k).ok().map(|k| &placed[k].1)
}

#[cfg(test)]
mod tests {
    use super::super::convex::Polytope;
    use super::super::intersection::IntersectionMoments;
    use super::*;
    use crate::geometry::{Shape, TetMesh, mesher, signed_tet_volume};
    use crate::math::{Point3, Translation3, UnitQuaternion, Vector3};

    /// A box of `size` centred on the origin as six tets (Kuhn's split of the cube).
    fn box_tets(size: [f64; 3]) -> TetMesh {
        let vertices: Vec<Point3> = (0..8)
            .map(|i| {
                let bit = |b: usize| if i >> b & 1 == 1 { 0.5 } else { -0.5 };
                Point3::new(bit(0) * size[0], bit(1) * size[1], bit(2) * size[2])
            })
            .collect();
        let mut tets =
            vec![[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]];
        for t in &mut tets {
            let p = t.map(|v: u32| vertices[v as usize]);
            if signed_tet_volume(&p[0], &p[1], &p[2], &p[3]) < 0.0 {
                t.swap(2, 3);
            }
        }
        TetMesh { vertices, tets }
    }

    fn assert_same(got: &IntersectionMoments, want: &IntersectionMoments) {
        let scale = want.volume;
        assert!((got.volume - want.volume).abs() < 1e-12 * scale, "{} {}", got.volume, want.volume);
        assert!((got.centroid - want.centroid).norm() < 1e-12, "{} {}", got.centroid, want.centroid);
        assert!((got.covariance - want.covariance).norm() < 1e-12, "{} {}", got.covariance, want.covariance);
        assert!((got.gradient - want.gradient).norm() < 1e-12, "{} {}", got.gradient, want.gradient);
        assert!((got.surface_centroid - want.surface_centroid).norm() < 1e-12);
        assert!((got.surface_covariance - want.surface_covariance).norm() < 1e-12);
    }

    #[test]
    fn a_box_as_tets_meets_a_half_space_and_a_box_as_the_convex_box_does() {
        let size = [0.2, 0.1, 0.1];
        let solid = TetSolid::from_tet_mesh(&box_tets(size));
        let hull = Polytope::from_mesh(&mesher::surface_mesh(&Shape::Box { size }, None).unwrap());
        let pose = Isometry3::from_parts(
            Translation3::new(0.1, -0.2, 0.03),
            UnitQuaternion::from_euler_angles(0.2, -0.1, 0.7),
        );
        let ground = Plane::new(Vector3::z(), 0.0);
        let from_tets = solid_half_space(&solid, &pose, &ground).unwrap().moments().unwrap();
        let convex = convex_half_space_faces(&hull.placed(&pose), &ground).unwrap().moments().unwrap();
        assert_same(&from_tets, &convex);
        // Against a cube (as tets, and as a polytope fanned into tets).
        let cube = Polytope::from_mesh(&mesher::surface_mesh(&Shape::Box { size: [0.1; 3] }, None).unwrap());
        let at = Isometry3::translation(0.12, -0.17, 0.1);
        let want = convex_convex_faces(&hull.placed(&pose), &cube.placed(&at)).unwrap().moments().unwrap();
        let cube_tets = TetSolid::from_tet_mesh(&box_tets([0.1; 3]));
        assert_same(&solid_solid(&solid, &pose, &cube_tets, &at).unwrap().moments().unwrap(), &want);
        assert_same(
            &solid_solid(&solid, &pose, &TetSolid::from_polytope(&cube), &at).unwrap().moments().unwrap(),
            &want,
        );
    }
}
