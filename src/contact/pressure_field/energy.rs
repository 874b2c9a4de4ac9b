//! The elastic potential energy of a pair: U = ∫ min(p_a, p_b) dV over the overlap, exact on
//! the meshes (a rigid body's pressure is infinite inside it).
//!
//! Overlap volumes are cut into tets (tet ∩ tet, tet ∩ half space); on each side of the
//! equal-pressure plane the smaller pressure is linear, so its integral over a tet is the
//! volume times the value at the centroid. A rigid mesh's solid is written as the signed sum of
//! the cones from an interior apex to its triangles, which is exact for closed meshes whether
//! convex or not.

use super::body::tet_planes;
use super::pair::{PairFrame, PairKind, transform_field};
use crate::field::LinearField;
use crate::geometry::clip::split_tet;
use crate::geometry::signed_tet_volume;
use crate::math::{Plane, Point3, Vector3};

/// ∫ f dV over a tet piece of either orientation.
#[inline]
fn integrate(t: &[Point3; 4], f: &LinearField) -> f64 {
    let vol = signed_tet_volume(&t[0], &t[1], &t[2], &t[3]).abs();
    let c = Point3::from((t[0].coords + t[1].coords + t[2].coords + t[3].coords) * 0.25);
    vol * f.value(&c)
}

/// Cuts `pieces` by each plane in turn, keeping the inside parts.
fn clip_pieces(mut pieces: Vec<[Point3; 4]>, planes: &[Plane]) -> Vec<[Point3; 4]> {
    for pl in planes {
        let mut next = Vec::with_capacity(pieces.len() * 3);
        for t in &pieces {
            split_tet(t, pl, &mut |k| next.push(k), &mut |_| {});
        }
        pieces = next;
        if pieces.is_empty() {
            break;
        }
    }
    pieces
}

/// ∫ min(fp, fs) over the pieces.
fn integrate_min(pieces: &[[Point3; 4]], fp: &LinearField, fs: &LinearField) -> f64 {
    // Inside of this plane: fp ≤ fs.
    let plane = Plane::new(fp.gradient - fs.gradient, fs.offset - fp.offset);
    let (mut up, mut us) = (0.0, 0.0);
    for t in pieces {
        split_tet(t, &plane, &mut |k| up += integrate(&k, fp), &mut |k| us += integrate(&k, fs));
    }
    up + us
}

/// The energy contribution of one candidate pair.
fn candidate_energy(pair: &PairFrame, (i, j): (u32, u32)) -> f64 {
    let x = &pair.p_from_s;
    match pair.kind {
        PairKind::MeshMesh(m, n) => {
            let planes = n.planes[j as usize].map(|p| p.transformed(x));
            let pieces = clip_pieces(vec![m.mesh.tet(i as usize)], &planes);
            let fs = transform_field(&n.pressure[j as usize], x);
            integrate_min(&pieces, &m.pressure[i as usize], &fs)
        }
        PairKind::MeshRigidHalfSpace(m) => {
            let pieces = clip_pieces(vec![m.mesh.tet(i as usize)], &[pair.secondary_plane()]);
            pieces.iter().map(|t| integrate(t, &m.pressure[i as usize])).sum()
        }
        PairKind::MeshCompliantHalfSpace(m, k) => {
            let pieces = clip_pieces(vec![m.mesh.tet(i as usize)], &[pair.secondary_plane()]);
            integrate_min(&pieces, &m.pressure[i as usize], &pair.half_space_field(k))
        }
        PairKind::MeshRigid(m, r) => {
            // Σ over the rigid triangles of ± ∫ over (tet ∩ cone(apex, triangle)).
            let tet = m.mesh.tet(i as usize);
            let (lo, hi) = bounds(&tet);
            let apex = x * r.apex;
            let mut u = 0.0;
            for t in 0..r.mesh.triangles.len() {
                let [a, b, c] = r.mesh.triangle(t).map(|p| x * p);
                let cone = [apex, a, b, c];
                let (clo, chi) = bounds(&cone);
                if (0..3).any(|k| clo[k] > hi[k] || chi[k] < lo[k]) {
                    continue;
                }
                let Some(sign) = cone_sign(&cone) else { continue };
                let pieces = clip_pieces(vec![tet], &tet_planes(&cone));
                u += sign * pieces.iter().map(|p| integrate(p, &m.pressure[i as usize])).sum::<f64>();
            }
            u
        }
        PairKind::HalfSpaceRigid(k, r) => {
            let apex = x * r.apex;
            let [a, b, c] = r.mesh.triangle(j as usize).map(|p| x * p);
            let Some(sign) = cone_sign(&[apex, a, b, c]) else { return 0.0 };
            let f = LinearField { gradient: Vector3::new(0.0, 0.0, -k), offset: 0.0 };
            let pieces = clip_pieces(vec![[apex, a, b, c]], &[Plane::new(Vector3::z(), 0.0)]);
            sign * pieces.iter().map(|p| integrate(p, &f)).sum::<f64>()
        }
    }
}

/// The orientation (±1) of a cone tet, or `None` if it is flat (its triangle is degenerate or
/// in a plane through the apex): a flat cone holds no volume, and its face planes are undefined.
fn cone_sign(cone: &[Point3; 4]) -> Option<f64> {
    let v = signed_tet_volume(&cone[0], &cone[1], &cone[2], &cone[3]);
    let scale = (1..4).map(|k| (cone[k] - cone[0]).norm()).fold(0.0, f64::max);
    (v.abs() > 1e-12 * scale.powi(3)).then_some(v.signum())
}

fn bounds(p: &[Point3; 4]) -> (Vector3, Vector3) {
    let mut lo = p[0].coords;
    let mut hi = p[0].coords;
    for q in &p[1..] {
        lo = lo.inf(&q.coords);
        hi = hi.sup(&q.coords);
    }
    (lo, hi)
}

/// The pair's elastic potential energy (J).
pub fn pair_energy(pair: &PairFrame) -> f64 {
    let candidates: Vec<(u32, u32)> = match pair.kind {
        // Every tet that may overlap the rigid solid, not only those crossing its surface.
        PairKind::MeshRigid(m, r) => {
            let mut out = Vec::new();
            if let Some(root) = r.bvh.root() {
                let hull = crate::geometry::bvh::Bvh::build(1, |_| obb_corners(root));
                m.bvh.overlapping_pairs(&hull, &pair.p_from_s, &mut |i, _| out.push((i, 0)));
            }
            out
        }
        PairKind::HalfSpaceRigid(_, r) => (0..r.mesh.triangles.len() as u32).map(|j| (0, j)).collect(),
        _ => pair.candidates(true),
    };
    super::chunked::sum_chunks(&candidates, |c| c.iter().map(|&k| candidate_energy(pair, k)).sum::<f64>())
        .into_iter()
        .sum()
}

/// The eight corners of an oriented box.
fn obb_corners(o: &crate::geometry::bvh::Obb) -> [Point3; 8] {
    std::array::from_fn(|k| {
        let s = Vector3::new(
            if k & 1 == 0 { -1.0 } else { 1.0 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        );
        o.center + o.axes * s.component_mul(&o.half)
    })
}
