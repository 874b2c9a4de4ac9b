//! Contact identification in the plane (x–z): vertex–edge contacts within ε between two convex
//! polygons or a polygon and a half plane, and the sets PEG builds from them (Williams et al.
//! 2017, §5): a vertex near one edge is a unilateral contact; a vertex near a corner (two
//! adjacent edges) gives the vertex–vertex group of four contacts — two inter-contact sets (each
//! vertex outside at least one of the other's two edges) and two cross-contact sets.

use super::contact::{ConstraintSet, Contact};
use super::settings::PegFormulation;
use super::spatial::PlacedPolygon;
use crate::math::{Point3, Vector3};
use std::collections::BTreeSet;

/// Contacts whose relaxed applicability is above this may carry a force (classical
/// applicability is ≥ 0; the authors' planar code accepts down to −0.25, so a vertex that has
/// just rounded a corner keeps its support).
pub const APPLICABILITY_THRESHOLD: f64 = -0.25;

/// The feasibility limit of a vertex beside a feature (not over it): its elevation over the
/// feature's nearest point, asin(ψ/distance), must be at least −this (rad). A vertex behind a
/// feature's line or plane but beyond its edge cannot be pushed out by that feature.
pub const ELEVATION_LIMIT: f64 = 0.4;

/// Whether a vertex at signed gap `gap` and distance `distance` from a feature (tolerance
/// `eps`) can be in contact with it at the end of a step: over the feature, no deeper than ε;
/// beside it, its elevation at least −[`ELEVATION_LIMIT`].
pub fn feasible(gap: f64, distance: f64, eps: f64) -> bool {
    if distance - gap.abs() <= 1e-12 * distance.max(1e-300) {
        gap >= -eps
    } else {
        gap >= -ELEVATION_LIMIT.sin() * distance
    }
}

/// A body's piece in the plane.
#[derive(Clone, Debug)]
pub enum Planar {
    Polygon(PlacedPolygon),
    /// The half plane n·(x − origin) ≤ 0 (n the outward unit normal), world (x, z).
    HalfPlane {
        origin: [f64; 2],
        normal: [f64; 2],
    },
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn unit(a: [f64; 2]) -> [f64; 2] {
    let n = a[0].hypot(a[1]).max(1e-300);
    [a[0] / n, a[1] / n]
}

/// The outward unit normal of edge t → h of a counter-clockwise polygon (x right, z up).
fn outward(t: [f64; 2], h: [f64; 2]) -> [f64; 2] {
    let e = sub(h, t);
    unit([e[1], -e[0]])
}

fn point_segment_distance(p: [f64; 2], t: [f64; 2], h: [f64; 2]) -> f64 {
    let e = sub(h, t);
    let s = (dot(sub(p, t), e) / dot(e, e).max(1e-300)).clamp(0.0, 1.0);
    let d = sub(p, [t[0] + s * e[0], t[1] + s * e[1]]);
    d[0].hypot(d[1])
}

/// Relaxed applicability of vertex `i` of `poly` against a feature with inward normal `n_in`:
/// the least of n_in·û over the vertex's two edges, û the unit vector from the neighbour to it.
fn applicability(poly: &PlacedPolygon, i: usize, n_in: [f64; 2]) -> f64 {
    let n = poly.len();
    let v = poly.vertex(i);
    [poly.vertex(i + n - 1), poly.vertex(i + 1)]
        .iter()
        .map(|u| dot(n_in, unit(sub(v, *u))))
        .fold(f64::INFINITY, f64::min)
}

fn contact(
    body1: usize,
    body2: usize,
    v: [f64; 2],
    n_out: [f64; 2],
    gap: f64,
    applicability: f64,
) -> Contact {
    Contact {
        body1,
        body2,
        point: Point3::new(v[0], 0.0, v[1]),
        normal: Vector3::new(-n_out[0], 0.0, -n_out[1]),
        gap,
        applicability,
    }
}

/// Vertex `i` of `a` (body `ia`) against edge `k` (vertex k → k + 1) of `b` (body `ib`).
fn vertex_edge(ia: usize, a: &PlacedPolygon, i: usize, ib: usize, b: &PlacedPolygon, k: usize) -> Contact {
    let (t, h) = (b.vertex(k), b.vertex(k + 1));
    let n_out = outward(t, h);
    let v = a.vertex(i);
    contact(ia, ib, v, n_out, dot(n_out, sub(v, t)), applicability(a, i, [-n_out[0], -n_out[1]]))
}

/// The constraint sets of bodies `ia` and `ib` from their pieces now and at the poses one
/// explicit step ahead (`next`): a contact is a candidate when its vertex is within `eps` of
/// the edge at either.
pub fn planar_sets(
    (ia, a, a_next): (usize, &Planar, &Planar),
    (ib, b, b_next): (usize, &Planar, &Planar),
    eps: f64,
    formulation: PegFormulation,
    out: &mut Vec<ConstraintSet>,
) {
    match (a, b) {
        (Planar::Polygon(pa), Planar::Polygon(pb)) => {
            let (Planar::Polygon(na), Planar::Polygon(nb)) = (a_next, b_next) else { return };
            polygon_polygon((ia, pa, na), (ib, pb, nb), eps, formulation, out);
        }
        (Planar::Polygon(p), Planar::HalfPlane { .. }) => {
            let Planar::Polygon(n) = a_next else { return };
            polygon_half_plane((ia, p, n), (ib, b, b_next), eps, out);
        }
        (Planar::HalfPlane { .. }, Planar::Polygon(p)) => {
            let Planar::Polygon(n) = b_next else { return };
            polygon_half_plane((ib, p, n), (ia, a, a_next), eps, out);
        }
        (Planar::HalfPlane { .. }, Planar::HalfPlane { .. }) => {}
    }
}

/// Each vertex within ε of the line: one unilateral contact (both formulations).
fn polygon_half_plane(
    (ip, p, p_next): (usize, &PlacedPolygon, &PlacedPolygon),
    (ih, h, h_next): (usize, &Planar, &Planar),
    eps: f64,
    out: &mut Vec<ConstraintSet>,
) {
    let (Planar::HalfPlane { origin, normal }, Planar::HalfPlane { origin: o2, normal: n2 }) = (h, h_next)
    else {
        return;
    };
    for i in 0..p.len() {
        let gap = dot(*normal, sub(p.vertex(i), *origin));
        let gap_next = dot(*n2, sub(p_next.vertex(i), *o2));
        if gap.min(gap_next) > eps {
            continue;
        }
        let c = contact(ip, ih, p.vertex(i), *normal, gap, applicability(p, i, [-normal[0], -normal[1]]));
        if c.applicability > APPLICABILITY_THRESHOLD {
            out.push(ConstraintSet::Unilateral(c));
        }
    }
}

/// The edges of `b` each vertex of `a` is within ε of (now or next), in edge order.
fn near_edges(
    a: &PlacedPolygon,
    a_next: &PlacedPolygon,
    b: &PlacedPolygon,
    b_next: &PlacedPolygon,
    eps: f64,
) -> Vec<Vec<usize>> {
    (0..a.len())
        .map(|i| {
            (0..b.len())
                .filter(|&k| {
                    point_segment_distance(a.vertex(i), b.vertex(k), b.vertex(k + 1)) <= eps
                        || point_segment_distance(a_next.vertex(i), b_next.vertex(k), b_next.vertex(k + 1))
                            <= eps
                })
                .collect()
        })
        .collect()
}

/// A unilateral contact for each vertex of `a` inside `b` and farther than ε from every edge
/// (an overlap the step did not prevent, or a start pose), with the edge it is least deep
/// behind (the way out); `near` holds each vertex's edges within ε.
fn deep_vertices(
    (ia, a): (usize, &PlacedPolygon),
    (ib, b): (usize, &PlacedPolygon),
    near: &[Vec<usize>],
    out: &mut Vec<ConstraintSet>,
) {
    for (i, ks) in near.iter().enumerate() {
        if !ks.is_empty() {
            continue;
        }
        let v = a.vertex(i);
        // The least deep edge; none when the vertex is outside one (most vertices, at once).
        let mut least: Option<(usize, f64)> = None;
        for k in 0..b.len() {
            let (t, h) = (b.vertex(k), b.vertex(k + 1));
            let gap = dot(outward(t, h), sub(v, t));
            if gap >= 0.0 {
                least = None;
                break;
            }
            if least.is_none_or(|(_, g)| gap > g) {
                least = Some((k, gap));
            }
        }
        if let Some((k, _)) = least {
            out.push(ConstraintSet::Unilateral(vertex_edge(ia, a, i, ib, b, k)));
        }
    }
}

fn polygon_polygon(
    (ia, a, a_next): (usize, &PlacedPolygon, &PlacedPolygon),
    (ib, b, b_next): (usize, &PlacedPolygon, &PlacedPolygon),
    eps: f64,
    formulation: PegFormulation,
    out: &mut Vec<ConstraintSet>,
) {
    let near_ab = near_edges(a, a_next, b, b_next, eps);
    let near_ba = near_edges(b, b_next, a, a_next, eps);
    deep_vertices((ia, a), (ib, b), &near_ab, out);
    deep_vertices((ib, b), (ia, a), &near_ba, out);
    if formulation == PegFormulation::Standard {
        // One contact per vertex: with its closest edge.
        for (ia, a, ib, b, near) in [(ia, a, ib, b, &near_ab), (ib, b, ia, a, &near_ba)] {
            for (i, ks) in near.iter().enumerate() {
                let closest = ks.iter().copied().min_by(|&k, &l| {
                    let d = |k: usize| point_segment_distance(a.vertex(i), b.vertex(k), b.vertex(k + 1));
                    d(k).total_cmp(&d(l))
                });
                if let Some(k) = closest {
                    out.push(ConstraintSet::Unilateral(vertex_edge(ia, a, i, ib, b, k)));
                }
            }
        }
        return;
    }
    // Vertex–vertex groups: a vertex near two adjacent edges of the other polygon, i.e. near
    // the corner between them. Keyed by (vertex of a, vertex of b), found from either side.
    let mut corners: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (i, ks) in near_ab.iter().enumerate() {
        for &k in ks {
            if ks.contains(&((k + 1) % b.len())) {
                corners.insert((i, (k + 1) % b.len()));
            }
        }
    }
    for (j, ks) in near_ba.iter().enumerate() {
        for &k in ks {
            if ks.contains(&((k + 1) % a.len())) {
                corners.insert(((k + 1) % a.len(), j));
            }
        }
    }
    // Contacts taken by a group: (owner is a, vertex, edge).
    let mut used: BTreeSet<(bool, usize, usize)> = BTreeSet::new();
    for &(i, j) in &corners {
        let (na, nb) = (a.len(), b.len());
        let c1 = vertex_edge(ia, a, i, ib, b, j + nb - 1);
        let c2 = vertex_edge(ia, a, i, ib, b, j);
        let c3 = vertex_edge(ib, b, j, ia, a, i + na - 1);
        let c4 = vertex_edge(ib, b, j, ia, a, i);
        used.extend([
            (true, i, (j + nb - 1) % nb),
            (true, i, j),
            (false, j, (i + na - 1) % na),
            (false, j, i),
        ]);
        for members in [[c1, c2], [c3, c4], [c1, c4], [c2, c3]] {
            let force: Vec<bool> =
                members.iter().map(|c| c.applicability > APPLICABILITY_THRESHOLD).collect();
            if force.iter().any(|&f| f) {
                out.push(ConstraintSet::Inter { members: members.to_vec(), force });
            }
        }
    }
    // Every other vertex near an edge: a unilateral contact.
    for (own_a, ia, a, ib, b, near) in [(true, ia, a, ib, b, &near_ab), (false, ib, b, ia, a, &near_ba)] {
        for (i, ks) in near.iter().enumerate() {
            for &k in ks {
                if used.contains(&(own_a, i, k)) {
                    continue;
                }
                let c = vertex_edge(ia, a, i, ib, b, k);
                if c.applicability > APPLICABILITY_THRESHOLD {
                    out.push(ConstraintSet::Unilateral(c));
                }
            }
        }
    }
}

/// The area (m²) where the pieces overlap, exactly: convex polygon clipping.
pub fn overlap_area(a: &Planar, b: &Planar) -> f64 {
    match (a, b) {
        (Planar::Polygon(p), Planar::Polygon(q)) => {
            let mut poly = p.vertices.clone();
            for k in 0..q.len() {
                let (t, h) = (q.vertex(k), q.vertex(k + 1));
                let n = outward(t, h);
                poly = clip(&poly, n, dot(n, t));
            }
            area(&poly)
        }
        (Planar::Polygon(p), Planar::HalfPlane { origin, normal })
        | (Planar::HalfPlane { origin, normal }, Planar::Polygon(p)) => {
            area(&clip(&p.vertices, *normal, dot(*normal, *origin)))
        }
        _ => 0.0,
    }
}

/// The part of a convex polygon where n·x ≤ d.
fn clip(poly: &[[f64; 2]], n: [f64; 2], d: f64) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (sp, sq) = (dot(n, p) - d, dot(n, q) - d);
        if sp <= 0.0 {
            out.push(p);
        }
        if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
            let s = sp / (sp - sq);
            out.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
        }
    }
    out
}

fn area(poly: &[[f64; 2]]) -> f64 {
    let n = poly.len();
    if n < 3 {
        return 0.0;
    }
    0.5 * (0..n)
        .map(|k| {
            let (p, q) = (poly[k], poly[(k + 1) % n]);
            p[0] * q[1] - p[1] * q[0]
        })
        .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, z: f64, s: f64) -> PlacedPolygon {
        PlacedPolygon { vertices: vec![[x, z], [x + s, z], [x + s, z + s], [x, z + s]] }
    }

    #[test]
    fn overlap_of_offset_squares_is_the_shared_rectangle() {
        let a = Planar::Polygon(square(0.0, 0.0, 1.0));
        let b = Planar::Polygon(square(0.5, 0.75, 1.0));
        assert!((overlap_area(&a, &b) - 0.5 * 0.25).abs() < 1e-15);
        let ground = Planar::HalfPlane { origin: [0.0, 0.25], normal: [0.0, 1.0] };
        assert!((overlap_area(&a, &ground) - 0.25).abs() < 1e-15);
    }

    #[test]
    fn a_vertex_near_a_corner_gives_the_four_sets_and_one_near_a_face_a_unilateral() {
        // The note's worked example (§7): a unit square A rotated 0.1 rad with its vertex just
        // off B's top-right corner.
        let b = square(0.0, 0.0, 1.0);
        let th: f64 = 0.1;
        let va = [1.002, 0.999];
        let a = PlacedPolygon {
            vertices: vec![
                va,
                [va[0] + th.cos(), va[1] + th.sin()],
                [va[0] + th.cos() - th.sin(), va[1] + th.sin() + th.cos()],
                [va[0] - th.sin(), va[1] + th.cos()],
            ],
        };
        let mut out = Vec::new();
        let (pa, pb) = (Planar::Polygon(a.clone()), Planar::Polygon(b.clone()));
        planar_sets((1, &pa, &pa), (0, &pb, &pb), 0.005, PegFormulation::Peg, &mut out);
        assert_eq!(out.len(), 4, "{out:#?}");
        let gaps: Vec<Vec<f64>> = out
            .iter()
            .map(|s| match s {
                ConstraintSet::Inter { members, .. } => members.iter().map(|c| c.gap).collect(),
                ConstraintSet::Unilateral(_) => panic!("no unilateral contact near a corner"),
            })
            .collect();
        // C1 = v_a vs B's right edge (+0.002), C2 = v_a vs B's top edge (−0.001).
        assert!((gaps[0][0] - 0.002).abs() < 1e-12 && (gaps[0][1] + 0.001).abs() < 1e-12, "{gaps:?}");
        assert!((gaps[1][0] - 0.001890).abs() < 1e-5 && (gaps[1][1] + 0.001195).abs() < 1e-5, "{gaps:?}");
        // Standard: one contact per vertex near an edge.
        let mut standard = Vec::new();
        planar_sets((1, &pa, &pa), (0, &pb, &pb), 0.005, PegFormulation::Standard, &mut standard);
        assert_eq!(standard.len(), 2);
        assert!(standard.iter().all(|s| matches!(s, ConstraintSet::Unilateral(_))));
        // A vertex in the middle of the top edge: one unilateral contact.
        let c = square(0.3, 1.001, 0.2);
        let pc = Planar::Polygon(c);
        let mut out = Vec::new();
        planar_sets((2, &pc, &pc), (0, &pb, &pb), 0.005, PegFormulation::Peg, &mut out);
        assert_eq!(out.len(), 2);
        for s in &out {
            let ConstraintSet::Unilateral(c) = s else { panic!() };
            assert!(
                (c.gap - 0.001).abs() < 1e-12 && (c.normal - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-12
            );
        }
    }
}
