//! The elastic potential energy of a pair: U = ∫ min(p_a, p_b) dV over the overlap, exact on
//! the meshes (a rigid body's pressure is infinite inside it).
//!
//! Overlap volumes are cut into tets (a cell's tets ∩ the other cell, ∩ a half space); on each
//! side of the equal-pressure plane the smaller pressure is linear, so its integral over a tet
//! is the volume times the value at the centroid. A rigid mesh's solid is written as the
//! signed sum of the cones from an interior apex to its triangles, which is exact for closed
//! meshes whether convex or not.

use super::body::CompliantMesh;
use super::pair::{PairFrame, PairKind, transform_field};
use crate::field::LinearField;
use crate::geometry::clip::split_tet;
use crate::geometry::signed_tet_volume;
use crate::geometry::tet_planes;
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

/// The energy contribution of one candidate pair (a cell of the primary with a cell of the
/// secondary, a half space or a rigid cone): over the primary cell's tets.
fn candidate_energy(pair: &PairFrame, (i, j): (u32, u32)) -> f64 {
    let x = &pair.p_from_s;
    let tets = |m: &CompliantMesh| -> Vec<[Point3; 4]> {
        m.cells.tets(i as usize).iter().map(|&t| m.mesh.tet(t as usize)).collect()
    };
    match pair.kind {
        PairKind::MeshMesh(m, n) => {
            let planes: Vec<Plane> = n.cells.planes(j as usize).iter().map(|p| p.transformed(x)).collect();
            let pieces = clip_pieces(tets(m), &planes);
            let fs = transform_field(&n.cells.pressure[j as usize], x);
            integrate_min(&pieces, &m.cells.pressure[i as usize], &fs)
        }
        PairKind::MeshRigidHalfSpace(m) => {
            // One plane: split the tets directly (no piece lists to allocate).
            let f = &m.cells.pressure[i as usize];
            let mut u = 0.0;
            for &t in m.cells.tets(i as usize) {
                split_tet(
                    &m.mesh.tet(t as usize),
                    &pair.secondary_plane(),
                    &mut |k| u += integrate(&k, f),
                    &mut |_| {},
                );
            }
            u
        }
        PairKind::MeshCompliantHalfSpace(m, k) => {
            let pieces = clip_pieces(tets(m), &[pair.secondary_plane()]);
            integrate_min(&pieces, &m.cells.pressure[i as usize], &pair.half_space_field(k))
        }
        PairKind::MeshRigid(m, r) => {
            // ± ∫ over (cell ∩ cone(apex, triangle)); the rigid solid is the signed sum of its
            // cones.
            let [a, b, c] = r.mesh.triangle(j as usize).map(|p| x * p);
            let cone = [x * r.apex, a, b, c];
            let Some(sign) = cone_sign(&cone) else { return 0.0 };
            let pieces = clip_pieces(tets(m), &tet_planes(&cone));
            sign * pieces.iter().map(|p| integrate(p, &m.cells.pressure[i as usize])).sum::<f64>()
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

/// The pair's elastic potential energy (J).
pub fn pair_energy(pair: &PairFrame) -> f64 {
    let candidates: Vec<(u32, u32)> = match pair.kind {
        // Every (tet, cone) pair that may overlap: the cones fill the rigid solid, so this
        // covers the tets inside it, not only those crossing its surface.
        PairKind::MeshRigid(m, r) => {
            let mut out = Vec::new();
            m.bvh.overlapping_pairs(&r.cones, &pair.p_from_s, &mut |i, j| out.push((i, j)));
            out
        }
        PairKind::HalfSpaceRigid(_, r) => (0..r.mesh.triangles.len() as u32).map(|j| (0, j)).collect(),
        _ => pair.candidates(true),
    };
    super::chunked::sum_chunks(&candidates, |c| c.iter().map(|&k| candidate_energy(pair, k)).sum::<f64>())
        .into_iter()
        .sum()
}
