//! Making a tet mesh conform to a level set of the depth below its surface, so that a field
//! fixed on one side of it (a rigid core at depth ≥ h) has its boundary on mesh vertices.
//!
//! 1. Snapping: an interior vertex closer to the level set than a quarter of its shortest edge
//!    moves onto it along the depth's gradient (away from the nearest surface point), when no
//!    tet around it gets worse than the mesher's angle bounds.
//! 2. Cutting: every edge between a vertex above and one below the level set gets a vertex
//!    where it crosses it (bisection on the exact depth), and every tet so cut is replaced by
//!    its two parts. Each part is a convex polyhedron, triangulated by coning its faces to its
//!    lowest-numbered vertex after fanning each face from that face's lowest-numbered vertex:
//!    a rule that depends only on the face, so neighbouring tets split a shared face alike.

use super::quality::dihedral_range;
use super::stuffing::QUALITY_BOUNDS;
use crate::geometry::{TetMesh, signed_tet_volume};
use crate::math::{Point3, Vector3};
use std::collections::HashMap;

/// Vertices closer to the level set than this fraction of their shortest edge are moved onto
/// it (cuts nearer a vertex than that would make slivers).
const SNAP_FRACTION: f64 = 0.25;
/// Parts below this fraction of the cube of the shortest edge of their tet are dropped (they
/// are the flat remains of a cut through a face).
const MIN_VOLUME: f64 = 1e-12;

/// A mesh made to conform to a level set, and what was done.
#[derive(Clone, Debug, Default)]
pub struct LevelSetMesh {
    pub mesh: TetMesh,
    /// Whether each vertex is on the surface (carried over; new vertices are not).
    pub on_surface: Vec<bool>,
    /// Whether each vertex lies on the level set.
    pub on_level: Vec<bool>,
    /// Vertices moved onto the level set, and vertices added on cut edges.
    pub snapped: usize,
    pub added: usize,
    /// Smallest and largest dihedral angle of the result (degrees).
    pub min_dihedral_deg: f64,
    pub max_dihedral_deg: f64,
}

/// Makes `mesh` conform to {depth = level}: `depth(p)` is the distance below the surface and
/// `inward(p)` its gradient (unit, pointing deeper; `None` where undefined). Surface vertices
/// (`on_surface`) never move.
pub fn conform_to_level_set(
    mesh: &TetMesh,
    on_surface: &[bool],
    depth: &dyn Fn(&Point3) -> f64,
    inward: &dyn Fn(&Point3) -> Option<Vector3>,
    level: f64,
) -> LevelSetMesh {
    let mut vertices = mesh.vertices.clone();
    let mut d: Vec<f64> =
        vertices.iter().zip(on_surface).map(|(p, &s)| if s { 0.0 } else { depth(p) }).collect();
    let mut on_level = vec![false; vertices.len()];
    let snapped = snap(mesh, &mut vertices, &mut d, &mut on_level, on_surface, depth, inward, level);
    // Signs: +1 deeper than the level set, −1 shallower, 0 on it.
    let sign = |v: usize, d: &[f64], on_level: &[bool]| {
        if on_level[v] {
            0
        } else if d[v] > level {
            1
        } else {
            -1
        }
    };
    let mut surface = on_surface.to_vec();
    let mut cut_of: HashMap<(u32, u32), u32> = HashMap::new();
    let mut tets = Vec::with_capacity(mesh.tets.len());
    for t in &mesh.tets {
        let s = t.map(|v| sign(v as usize, &d, &on_level));
        if !(s.contains(&1) && s.contains(&-1)) {
            tets.push(*t);
            continue;
        }
        // The cut node of each crossing edge (shared by every tet around the edge).
        let mut cut = |a: u32, b: u32| -> u32 {
            let key = (a.min(b), a.max(b));
            *cut_of.entry(key).or_insert_with(|| {
                let (p, q) = (vertices[a as usize], vertices[b as usize]);
                let x = crossing(&p, &q, d[a as usize], d[b as usize], depth, level);
                vertices.push(x);
                d.push(level);
                on_level.push(true);
                surface.push(false);
                (vertices.len() - 1) as u32
            })
        };
        let mut cuts = [[u32::MAX; 4]; 4];
        for i in 0..4 {
            for j in 0..4 {
                if s[i] * s[j] == -1 {
                    cuts[i][j] = cut(t[i], t[j]);
                }
            }
        }
        for side in [1, -1] {
            let faces = part_faces(t, &s, &cuts, side);
            cone(&faces, &vertices, &mut tets);
        }
    }
    let added = vertices.len() - mesh.vertices.len();
    let mesh = TetMesh { vertices, tets };
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for t in 0..mesh.tets.len() {
        let (a, b) = dihedral_range(&mesh.tet(t));
        lo = lo.min(a);
        hi = hi.max(b);
    }
    LevelSetMesh {
        mesh,
        on_surface: surface,
        on_level,
        snapped,
        added,
        min_dihedral_deg: lo.to_degrees(),
        max_dihedral_deg: hi.to_degrees(),
    }
}

/// Moves interior vertices near the level set onto it (see the module notes); returns how many.
#[allow(clippy::too_many_arguments)]
fn snap(
    mesh: &TetMesh,
    vertices: &mut [Point3],
    d: &mut [f64],
    on_level: &mut [bool],
    on_surface: &[bool],
    depth: &dyn Fn(&Point3) -> f64,
    inward: &dyn Fn(&Point3) -> Option<Vector3>,
    level: f64,
) -> usize {
    let n = vertices.len();
    let mut around: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut shortest = vec![f64::INFINITY; n];
    for (k, t) in mesh.tets.iter().enumerate() {
        for i in 0..4 {
            around[t[i] as usize].push(k as u32);
            for j in 0..4 {
                if i != j {
                    let e = (mesh.vertices[t[i] as usize] - mesh.vertices[t[j] as usize]).norm();
                    shortest[t[i] as usize] = shortest[t[i] as usize].min(e);
                }
            }
        }
    }
    let (min_angle, max_angle) = (QUALITY_BOUNDS.0.to_radians(), QUALITY_BOUNDS.1.to_radians());
    let mut count = 0;
    for v in 0..n {
        let gap = d[v] - level;
        if on_surface[v] || gap.abs() > SNAP_FRACTION * shortest[v] {
            continue;
        }
        let Some(g) = inward(&vertices[v]) else { continue };
        let old = vertices[v];
        let target = old - g * gap;
        let reached = depth(&target);
        if (reached - level).abs() > 1e-6 * shortest[v] {
            continue;
        }
        vertices[v] = target;
        let fine = around[v].iter().all(|&k| {
            let p = mesh.tets[k as usize].map(|i| vertices[i as usize]);
            let (lo, hi) = dihedral_range(&p);
            signed_tet_volume(&p[0], &p[1], &p[2], &p[3]) > 0.0 && lo >= min_angle && hi <= max_angle
        });
        if fine {
            d[v] = level;
            on_level[v] = true;
            count += 1;
        } else {
            vertices[v] = old;
        }
    }
    count
}

/// Where the edge from `p` (depth `dp`) to `q` (`dq`, on the other side of `level`) crosses the
/// level set of the exact depth, by bisection.
fn crossing(p: &Point3, q: &Point3, dp: f64, dq: f64, depth: &dyn Fn(&Point3) -> f64, level: f64) -> Point3 {
    let (mut lo, mut hi) = if dp < dq { (*p, *q) } else { (*q, *p) };
    for _ in 0..50 {
        let mid = nalgebra::center(&lo, &hi);
        if depth(&mid) < level {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    nalgebra::center(&lo, &hi)
}

/// The faces (node cycles) of the part of tet `t` on `side` of the level set: each face of the
/// tet clipped to that side, and the cut face.
fn part_faces(t: &[u32; 4], s: &[i32; 4], cuts: &[[u32; 4]; 4], side: i32) -> Vec<Vec<u32>> {
    let mut faces = Vec::with_capacity(5);
    for skip in 0..4 {
        let f: Vec<usize> = (0..4).filter(|&i| i != skip).collect();
        let mut poly = Vec::with_capacity(4);
        for k in 0..3 {
            let (i, j) = (f[k], f[(k + 1) % 3]);
            if s[i] == side || s[i] == 0 {
                poly.push(t[i]);
            }
            if s[i] * s[j] == -1 {
                poly.push(cuts[i][j]);
            }
        }
        if poly.len() >= 3 {
            faces.push(poly);
        }
    }
    // The cut face: the vertices on the level set and the cut points, in a cycle. With two
    // vertices on each side it is the quad e(a0, b0), e(a0, b1), e(a1, b1), e(a1, b0).
    let (above, below): (Vec<usize>, Vec<usize>) =
        ((0..4).filter(|&i| s[i] == 1).collect(), (0..4).filter(|&i| s[i] == -1).collect());
    let mut cut_face: Vec<u32> = (0..4).filter(|&i| s[i] == 0).map(|i| t[i]).collect();
    if above.len() == 2 && below.len() == 2 {
        let (a, b) = (&above, &below);
        cut_face.extend([cuts[a[0]][b[0]], cuts[a[0]][b[1]], cuts[a[1]][b[1]], cuts[a[1]][b[0]]]);
    } else {
        for &i in &above {
            for &j in &below {
                cut_face.push(cuts[i][j]);
            }
        }
    }
    if cut_face.len() >= 3 {
        faces.push(cut_face);
    }
    faces
}

/// Tets of a convex part given by its faces: each face not holding the part's lowest node is
/// fanned from its own lowest node and coned to the part's lowest node.
fn cone(faces: &[Vec<u32>], vertices: &[Point3], tets: &mut Vec<[u32; 4]>) {
    let Some(apex) = faces.iter().flatten().copied().min() else { return };
    let p = |n: u32| vertices[n as usize];
    for f in faces {
        if f.contains(&apex) {
            continue;
        }
        let start = (0..f.len()).min_by_key(|&k| f[k]).unwrap_or(0);
        let ring: Vec<u32> = (0..f.len()).map(|k| f[(start + k) % f.len()]).collect();
        for k in 1..ring.len() - 1 {
            let mut tet = [apex, ring[0], ring[k], ring[k + 1]];
            let [a, b, c, e] = tet.map(p);
            let volume = signed_tet_volume(&a, &b, &c, &e);
            let scale = [
                (b - a).norm(),
                (c - a).norm(),
                (e - a).norm(),
                (c - b).norm(),
                (e - b).norm(),
                (e - c).norm(),
            ]
            .into_iter()
            .fold(f64::INFINITY, f64::min);
            if volume.abs() <= MIN_VOLUME * scale.powi(3) {
                continue;
            }
            if volume < 0.0 {
                tet.swap(2, 3);
            }
            tets.push(tet);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::SurfaceMesh;
    use crate::geometry::tet_mesher::SurfaceDistance;
    use crate::geometry::tet_mesher::mesh_interior;

    /// A box of half-sizes (a, b, c), outward triangles.
    fn box_surface(h: [f64; 3]) -> SurfaceMesh {
        let vertices = (0..8)
            .map(|i| {
                let s = |bit: usize, k: usize| if i & bit != 0 { h[k] } else { -h[k] };
                Point3::new(s(1, 0), s(2, 1), s(4, 2))
            })
            .collect();
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let triangles = quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
        SurfaceMesh { vertices, triangles }
    }

    #[test]
    fn the_cut_mesh_conforms_keeps_the_volume_and_puts_the_level_set_on_vertices() {
        let surface = box_surface([0.1, 0.07, 0.05]);
        let meshed = mesh_interior(&surface, 0.02).unwrap();
        let distance = SurfaceDistance::new(&surface);
        let depth = |p: &Point3| distance.distance(p);
        let inward = |p: &Point3| distance.closest_point(p).and_then(|(q, _)| (p - q).try_normalize(0.0));
        let level = 0.023;
        let c = conform_to_level_set(&meshed.mesh, &meshed.on_surface, &depth, &inward, level);
        assert!(c.added > 0 && c.snapped > 0, "{} added, {} snapped", c.added, c.snapped);
        // Same volume, every tet positive.
        let (before, after) = (meshed.mesh.volume(), c.mesh.volume());
        assert!((after - before).abs() <= 1e-12 * before, "volume {before} → {after}");
        assert!((0..c.mesh.tets.len()).all(|t| c.mesh.tet_volume(t) > 0.0));
        // Conforming: the faces seen once are exactly the outer boundary (a mismatched split
        // would leave internal faces unpaired and add their area).
        let (a0, a1) = (meshed.mesh.boundary().area(), c.mesh.boundary().area());
        assert!((a1 - a0).abs() <= 1e-12 * a0, "boundary area {a0} → {a1}");
        // The level set runs through vertices: no tet has vertices on both sides of it.
        for t in &c.mesh.tets {
            let s: Vec<f64> = t
                .iter()
                .filter(|&&v| !c.on_level[v as usize])
                .map(|&v| if c.on_surface[v as usize] { 0.0 } else { depth(&c.mesh.vertices[v as usize]) } - level)
                .collect();
            assert!(
                !(s.iter().any(|&x| x > 0.0) && s.iter().any(|&x| x < 0.0)),
                "a tet still crosses the level set"
            );
        }
        for (v, p) in c.mesh.vertices.iter().enumerate() {
            if c.on_level[v] {
                assert!((depth(p) - level).abs() < 1e-9, "vertex {v} at depth {}", depth(p));
            }
        }
        assert!(c.min_dihedral_deg > 1.0, "dihedral angles {}–{}", c.min_dihedral_deg, c.max_dihedral_deg);
        eprintln!("dihedral angles {:.1}°–{:.1}°", c.min_dihedral_deg, c.max_dihedral_deg);
    }
}
