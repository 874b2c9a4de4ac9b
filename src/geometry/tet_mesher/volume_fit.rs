//! Volume fitting: boundary faces are chords of the surface, so a curved body's mesh encloses
//! less than the surface does (about `h²/(8R)` of depth over the boundary), and pressure field
//! forces, which integrate over the volume, would come out low. Moving every boundary vertex
//! out along its normal by one common distance restores the enclosed volume, as the project's
//! primitive meshers do for curved shapes.

use super::quality::dihedral_range;
use crate::geometry::TetMesh;
use crate::math::Vector3;

/// The largest offset applied, in lattice spacings: enough for the chord deficit at any
/// resolution where the mesh is meaningful, too little to make up for a vanished part.
const MAX_OFFSET: f64 = 0.1;

/// Moves the boundary vertices of `mesh` out along their normals by the common distance that
/// makes its volume `target`, within `MAX_OFFSET·h`, as long as the mesh's dihedral range moves
/// by at most a degree and stays within `angles` (degrees), and no tet turns over; otherwise by
/// half as much, a few times, then not at all. Returns the offset applied (m).
pub(crate) fn fit_volume(
    mesh: &mut TetMesh,
    boundary: &[bool],
    target: f64,
    h: f64,
    angles: (f64, f64),
) -> f64 {
    let (normals, area) = vertex_normals(mesh, boundary);
    let v0 = mesh.volume();
    if !(area > 0.0 && target.is_finite() && target > 0.0) {
        return 0.0;
    }
    // Allow a degree of change, never past the bounds (unless the mesh is already past them).
    let (own_lo, own_hi) = quality_range(mesh);
    let lo = (own_lo - 1.0).max(angles.0.min(own_lo));
    let hi = (own_hi + 1.0).min(angles.1.max(own_hi));
    let original = mesh.vertices.clone();
    let place = |mesh: &mut TetMesh, offset: f64| {
        for ((p, o), n) in mesh.vertices.iter_mut().zip(&original).zip(&normals) {
            *p = o + n * offset;
        }
    };
    let limit = MAX_OFFSET * h;
    // The volume is a cubic in the offset, nearly linear: one secant step after the first.
    let mut offset = ((target - v0) / area).clamp(-limit, limit);
    place(mesh, offset);
    let v1 = mesh.volume();
    if (v1 - v0).abs() > 0.0 && offset != 0.0 {
        offset = (offset * (target - v0) / (v1 - v0)).clamp(-limit, limit);
    }
    for _ in 0..4 {
        place(mesh, offset);
        let (l, u) = quality_range(mesh);
        if l >= lo && u <= hi {
            return offset;
        }
        offset *= 0.5;
    }
    place(mesh, 0.0);
    0.0
}

/// Smallest and largest dihedral angle (degrees); (−∞, ∞) if a tet is turned over or flat.
fn quality_range(mesh: &TetMesh) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for t in 0..mesh.tets.len() {
        if mesh.tet_volume(t) <= 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let (a, b) = dihedral_range(&mesh.tet(t));
        lo = lo.min(a.to_degrees());
        hi = hi.max(b.to_degrees());
    }
    (lo, hi)
}

/// Unit outward normals at the boundary vertices (zero elsewhere), averaged over the boundary
/// faces around them weighted by area, and the boundary's area.
fn vertex_normals(mesh: &TetMesh, boundary: &[bool]) -> (Vec<Vector3>, f64) {
    let faces = mesh.boundary();
    let mut sum = vec![Vector3::zeros(); mesh.vertices.len()];
    let mut area = 0.0;
    for t in 0..faces.triangles.len() {
        let [a, b, c] = faces.triangle(t);
        let n = (b - a).cross(&(c - a)) * 0.5;
        area += n.norm();
        for &v in &faces.triangles[t] {
            sum[v as usize] += n;
        }
    }
    let normals = sum
        .iter()
        .zip(boundary)
        .map(|(s, &b)| {
            let len = s.norm();
            if b && len > 0.0 { s / len } else { Vector3::zeros() }
        })
        .collect();
    (normals, area)
}
