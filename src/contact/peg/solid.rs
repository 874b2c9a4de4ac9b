//! Contact identification in 3D between convex polyhedra (and a polyhedron and a half space):
//! vertex–face contacts within ε, edge–edge contacts between edges that cross within ε, and the
//! sets built from them. A vertex near one face is a unilateral contact; a vertex near several
//! faces (an edge or a vertex of the other body: the paper's vertex–edge and vertex–vertex
//! cases) gives one inter-contact set — it must stay outside at least one of those faces —
//! whose members with applicability above the threshold may carry its force. Under
//! `standard`, each vertex gets one contact, with its nearest face. A vertex inside the other
//! body deeper than ε gets one contact, with the face it is least deep behind (the way out).

use super::contact::{ConstraintSet, Contact};
use super::planar::{APPLICABILITY_THRESHOLD, feasible};
use super::shape::{PegShape, Polyhedron};
use super::spatial::PlacedPolytope;
use crate::math::{Isometry3, Point3, Vector3};
use crate::scene::PegFormulation;

/// Edge–edge contacts whose closest points lie within this share of either edge's ends are left
/// to the vertex contacts there.
const EDGE_END: f64 = 1e-6;

/// Appends the sets of two convex pieces (`shape`, pose now, pose one explicit step ahead).
pub fn solid_sets(
    (ia, a, pose_a, next_a): (usize, &PegShape, &Isometry3, &Isometry3),
    (ib, b, pose_b, next_b): (usize, &PegShape, &Isometry3, &Isometry3),
    eps: f64,
    formulation: PegFormulation,
    out: &mut Vec<ConstraintSet>,
) {
    match (a, b) {
        (PegShape::Polytope(pa), PegShape::Polytope(pb)) => {
            let (na, nb) = (PlacedPolytope::new(pa, next_a), PlacedPolytope::new(pb, next_b));
            let (a, b) = (PlacedPolytope::new(pa, pose_a), PlacedPolytope::new(pb, pose_b));
            vertices_against_faces((ia, &a, &na), (ib, &b, &nb), eps, formulation, out);
            vertices_against_faces((ib, &b, &nb), (ia, &a, &na), eps, formulation, out);
            edges_against_edges((ia, &a, &na), (ib, &b, &nb), eps, out);
        }
        (PegShape::Polytope(p), PegShape::HalfSpace) => {
            vertices_against_plane((ia, p, pose_a, next_a), (ib, pose_b, next_b), eps, out);
        }
        (PegShape::HalfSpace, PegShape::Polytope(p)) => {
            vertices_against_plane((ib, p, pose_b, next_b), (ia, pose_a, next_a), eps, out);
        }
        (PegShape::HalfSpace, PegShape::HalfSpace) => {}
        // Compounds arrive as their parts (`spatial::pieces`); polygons only in planar scenes.
        (a, b) => unreachable!("3D PEG pieces are polytopes and half spaces, not {a:?} and {b:?}"),
    }
}

/// Relaxed applicability of vertex `v` against a feature with inward normal `n_in`: the least
/// n_in·û over the vertex's edges, û the unit vector from the neighbour to the vertex.
fn vertex_applicability(p: &Polyhedron, vertices: &[Point3], v: usize, n_in: &Vector3) -> f64 {
    p.vertex_edges[v]
        .iter()
        .map(|&e| {
            let edge = p.edges[e as usize];
            let u = if edge.v[0] as usize == v { edge.v[1] } else { edge.v[0] } as usize;
            n_in.dot(&(vertices[v] - vertices[u]).normalize())
        })
        .fold(f64::INFINITY, f64::min)
}

fn vertices_against_plane(
    (ip, p, pose, next): (usize, &Polyhedron, &Isometry3, &Isometry3),
    (ih, plane, plane_next): (usize, &Isometry3, &Isometry3),
    eps: f64,
    out: &mut Vec<ConstraintSet>,
) {
    let (n, o) = (plane.rotation * Vector3::z(), plane.translation.vector);
    let (n2, o2) = (plane_next.rotation * Vector3::z(), plane_next.translation.vector);
    let vertices: Vec<Point3> = p.vertices.iter().map(|v| pose * v).collect();
    for (i, v) in vertices.iter().enumerate() {
        let gap = n.dot(&(v.coords - o));
        let gap_next = n2.dot(&((next * p.vertices[i]).coords - o2));
        if gap.min(gap_next) > eps {
            continue;
        }
        let applicability = vertex_applicability(p, &vertices, i, &-n);
        if applicability > APPLICABILITY_THRESHOLD {
            out.push(ConstraintSet::Unilateral(Contact {
                body1: ip,
                body2: ih,
                point: *v,
                normal: -n,
                gap,
                applicability,
            }));
        }
    }
}

/// The distance from `v` to face `f` of a placed polytope (the polygon, boundary included).
fn face_distance(p: &PlacedPolytope, f: usize, v: &Point3) -> f64 {
    let face = &p.shape.faces[f];
    let n = p.normals[f];
    let gap = n.dot(&v.coords) - p.offsets[f];
    let q = v - gap * n;
    let mut inside = true;
    let mut boundary = f64::INFINITY;
    for k in 0..face.len() {
        let (t, h) = (p.vertices[face[k] as usize], p.vertices[face[(k + 1) % face.len()] as usize]);
        let e = h - t;
        if e.cross(&(q - t)).dot(&n) < 0.0 {
            inside = false;
        }
        let s = ((v - t).dot(&e) / e.norm_squared().max(1e-300)).clamp(0.0, 1.0);
        boundary = boundary.min((v - (t + s * e)).norm());
    }
    if inside { gap.abs() } else { boundary }
}

fn vertices_against_faces(
    (ia, a, a_next): (usize, &PlacedPolytope, &PlacedPolytope),
    (ib, b, b_next): (usize, &PlacedPolytope, &PlacedPolytope),
    eps: f64,
    formulation: PegFormulation,
    out: &mut Vec<ConstraintSet>,
) {
    for (i, v) in a.vertices.iter().enumerate() {
        let near: Vec<(usize, f64)> = (0..b.shape.faces.len())
            .filter_map(|f| {
                // A face is never nearer than its plane: most faces are out by the gaps alone.
                let gap = b.normals[f].dot(&v.coords) - b.offsets[f];
                let next = &a_next.vertices[i];
                let gap_next = b_next.normals[f].dot(&next.coords) - b_next.offsets[f];
                if gap.abs() > eps && gap_next.abs() > eps {
                    return None;
                }
                let d = face_distance(b, f, v);
                let near = d <= eps || (gap_next.abs() <= eps && face_distance(b_next, f, next) <= eps);
                (near && feasible(gap, d, eps)).then_some((f, d))
            })
            .collect();
        let contact = |f: usize| {
            let n_out = b.normals[f];
            Contact {
                body1: ia,
                body2: ib,
                point: *v,
                normal: -n_out,
                gap: n_out.dot(&v.coords) - b.offsets[f],
                applicability: vertex_applicability(a.shape, &a.vertices, i, &-n_out),
            }
        };
        match (formulation, near.len()) {
            (_, 0) => {
                // A vertex inside b deeper than ε (an overlap the step did not prevent, or a
                // start pose): pushed out through the face it is least deep behind.
                let gaps = (0..b.shape.faces.len()).map(|f| (f, b.normals[f].dot(&v.coords) - b.offsets[f]));
                if let Some((f, gap)) = gaps.max_by(|x, y| x.1.total_cmp(&y.1))
                    && gap < 0.0
                {
                    out.push(ConstraintSet::Unilateral(contact(f)));
                }
            }
            (PegFormulation::Standard, _) => {
                let nearest = near.iter().min_by(|x, y| x.1.total_cmp(&y.1)).map_or(0, |x| x.0);
                out.push(ConstraintSet::Unilateral(contact(nearest)));
            }
            (PegFormulation::Peg, 1) => {
                let c = contact(near[0].0);
                if c.applicability > APPLICABILITY_THRESHOLD {
                    out.push(ConstraintSet::Unilateral(c));
                }
            }
            (PegFormulation::Peg, _) => {
                let members: Vec<Contact> = near.iter().map(|&(f, _)| contact(f)).collect();
                let force: Vec<bool> =
                    members.iter().map(|c| c.applicability > APPLICABILITY_THRESHOLD).collect();
                if force.iter().any(|&f| f) {
                    out.push(ConstraintSet::Inter { members, force });
                }
            }
        }
    }
}

/// The closest points of segments p0 + s·d1 and q0 + t·d2 (s, t ∈ [0, 1]): (s, t).
fn segment_params(p0: &Point3, d1: &Vector3, q0: &Point3, d2: &Vector3) -> (f64, f64) {
    let r = p0 - q0;
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (b, c) = (d1.dot(d2), d1.dot(&r));
    let denom = a * e - b * b;
    let mut s = if denom > 1e-300 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// Edge–edge contacts: edges whose segments come within ε at points inside both (the vertex
/// contacts cover their ends), with a normal both bodies agree on (e_a × e_b, pointing out of
/// a's edge and into b's); parallel edges and disagreeing sides are left out.
fn edges_against_edges(
    (ia, a, a_next): (usize, &PlacedPolytope, &PlacedPolytope),
    (ib, b, b_next): (usize, &PlacedPolytope, &PlacedPolytope),
    eps: f64,
    out: &mut Vec<ConstraintSet>,
) {
    let end = |p: &PlacedPolytope, e: usize| {
        let edge = p.shape.edges[e];
        (p.vertices[edge.v[0] as usize], p.vertices[edge.v[1] as usize])
    };
    for ea in 0..a.shape.edges.len() {
        let (p0, p1) = end(a, ea);
        for eb in 0..b.shape.edges.len() {
            let (q0, q1) = end(b, eb);
            let (d1, d2) = (p1 - p0, q1 - q0);
            let (s, t) = segment_params(&p0, &d1, &q0, &d2);
            let (pa, pb) = (p0 + s * d1, q0 + t * d2);
            let near_now = (pb - pa).norm() <= eps;
            let near_next = || {
                let ((n0, n1), (m0, m1)) = (end(a_next, ea), end(b_next, eb));
                let (s, t) = segment_params(&n0, &(n1 - n0), &m0, &(m1 - m0));
                ((m0 + t * (m1 - m0)) - (n0 + s * (n1 - n0))).norm() <= eps
            };
            if !(near_now || near_next())
                || s <= EDGE_END
                || s >= 1.0 - EDGE_END
                || t <= EDGE_END
                || t >= 1.0 - EDGE_END
            {
                continue;
            }
            let cross = d1.cross(&d2);
            if cross.norm() <= 1e-9 * d1.norm() * d2.norm() {
                continue;
            }
            let faces = |p: &PlacedPolytope, e: usize| {
                let f = p.shape.edges[e].faces;
                (p.normals[f[0] as usize] + p.normals[f[1] as usize]).normalize()
            };
            let (sa, sb) = (faces(a, ea), faces(b, eb));
            let mut n = cross.normalize();
            if n.dot(&sa) < 0.0 {
                n = -n;
            }
            let applicability = n.dot(&sa).min(-n.dot(&sb));
            if applicability <= 0.0 {
                continue;
            }
            let gap = n.dot(&(pb - pa));
            out.push(ConstraintSet::Unilateral(Contact {
                body1: ia,
                body2: ib,
                point: pa,
                normal: n,
                gap,
                applicability,
            }));
        }
    }
}
