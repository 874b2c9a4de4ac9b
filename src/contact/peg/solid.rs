//! Contact identification in 3D between convex polyhedra (and a polyhedron and a half space):
//! vertex–face contacts within ε, edge–edge contacts between edges that cross within ε, and the
//! sets built from them. A vertex near one face is a unilateral contact; a vertex near several
//! faces (an edge or a vertex of the other body: the paper's vertex–edge and vertex–vertex
//! cases) gives one inter-contact set — it must stay outside at least one of those faces —
//! whose members with applicability above the threshold may carry its force, and the sets of
//! the paper's Eqs. 36 and 38 that keep the vertex's edges from crossing the other body's edges
//! there while the vertex passes beside a face. Under `standard`, each vertex gets one contact,
//! with its nearest face. A vertex inside the other body deeper than ε gets one contact, with
//! the face it is least deep behind (the way out).

use super::contact::{ConstraintSet, Contact};
use super::planar::{APPLICABILITY_THRESHOLD, feasible};
use super::settings::PegFormulation;
use super::shape::{PegShape, Polyhedron};
use super::spatial::PlacedPolytope;
use crate::math::{Isometry3, Point3, Vector3};
use smallvec::{SmallVec, smallvec};

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
            let u = p.edges[e as usize].other_end(v);
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
                push_set(members, out);
                let faces: Vec<usize> = near.iter().map(|&(f, _)| f).collect();
                let vertex = (ia, a, a_next, i);
                let sides = match corner_of(b.shape, &faces) {
                    Some(Corner::Edge(eb)) => ridge_sides(b, eb),
                    Some(Corner::Vertex(vb)) => corner_sides(b, vb, &faces),
                    None => Vec::new(),
                };
                edge_sets(vertex, (ib, b, b_next), &sides, eps, &contact, out);
            }
        }
    }
}

/// Pushes `members` as one set (at least one of them holds) if any of them may carry its force.
fn push_set(members: Vec<Contact>, out: &mut Vec<ConstraintSet>) {
    let force: Vec<bool> = members.iter().map(|c| c.applicability > APPLICABILITY_THRESHOLD).collect();
    if force.iter().any(|&f| f) {
        out.push(ConstraintSet::Inter { members, force });
    }
}

/// Where the faces a vertex is near meet: two faces along their shared edge (the paper's
/// vertex–edge case), three or more at a vertex they all share (vertex–vertex).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Corner {
    Edge(usize),
    Vertex(usize),
}

fn corner_of(p: &Polyhedron, faces: &[usize]) -> Option<Corner> {
    if let [f1, f2] = *faces {
        let shared =
            |e: &super::shape::Edge| e.faces.contains(&(f1 as u32)) && e.faces.contains(&(f2 as u32));
        return p.edges.iter().position(shared).map(Corner::Edge);
    }
    let (first, rest) = faces.split_first()?;
    p.faces[*first]
        .iter()
        .find(|v| rest.iter().all(|&f| p.faces[f].contains(v)))
        .map(|&v| Corner::Vertex(v as usize))
}

/// A vertex of one placed polytope: (body, placed now, placed at the predicted pose, index).
type PlacedVertex<'p, 'a> = (usize, &'p PlacedPolytope<'a>, &'p PlacedPolytope<'a>, usize);

/// The other ends of the edges at vertex `v`: (edge, unit direction away from `v`).
fn edges_away<'p>(p: &'p PlacedPolytope, v: usize) -> impl Iterator<Item = (usize, Vector3)> + 'p {
    p.shape.vertex_edges[v].iter().map(move |&e| {
        let w = p.shape.edges[e as usize].other_end(v);
        (e as usize, (p.vertices[w] - p.vertices[v]).normalize())
    })
}

/// A face of the other body beside the vertex: the face, its edges at the ridge or corner the
/// vertex is near, and the unit direction into the face from there, in its plane.
type Side = (usize, SmallVec<[usize; 2]>, Vector3);

/// The two faces f₁, f₂ of edge `eb` (the paper's vertex–edge case): each with the edge, and
/// n_f × ê into it (faces[0] runs the edge v[0] → v[1] counter-clockwise seen from outside, so it
/// lies to the left; faces[1] the other way).
fn ridge_sides(b: &PlacedPolytope, eb: usize) -> Vec<Side> {
    let edge = b.shape.edges[eb];
    let e = (b.vertices[edge.v[1] as usize] - b.vertices[edge.v[0] as usize]).normalize();
    let (f1, f2) = (edge.faces[0] as usize, edge.faces[1] as usize);
    vec![(f1, smallvec![eb], b.normals[f1].cross(&e)), (f2, smallvec![eb], b.normals[f2].cross(&-e))]
}

/// The faces at vertex `vb` (the paper's vertex–vertex case): each with its two edges at `vb`
/// and the bisector of its corner there.
fn corner_sides(b: &PlacedPolytope, vb: usize, faces: &[usize]) -> Vec<Side> {
    faces
        .iter()
        .map(|&f| {
            let at: SmallVec<[(usize, Vector3); 2]> =
                edges_away(b, vb).filter(|&(e, _)| b.shape.edges[e].faces.contains(&(f as u32))).collect();
            let into = at.iter().map(|s| s.1).sum::<Vector3>().normalize();
            (f, at.iter().map(|s| s.0).collect(), into)
        })
        .collect()
}

/// The paper's sets for a vertex v_a near a ridge or a corner of b beyond the faces' own (its
/// Eqs. 36 and 38): v_a may pass behind the plane of a face f_b there — beside it, across one of
/// its edges — only while the edges e_a at v_a that lean over f_b stay above those edges:
/// {(v_a, f_b), (e_a, e_b) for each edge e_b of f_b there}, with the edge members `edge_member`
/// accepts (none: no set). e_a leans over the side whose in-face direction it follows most, by
/// at least `LEAN_MIN` more than any other's (at a ridge: |û·(t₁ − t₂)| ≥ `LEAN_MIN`); edges
/// leaning over none add no set. The same arises from v_b's side when v_b is near a's faces.
fn edge_sets(
    (ia, a, a_next, v): PlacedVertex,
    (ib, b, b_next): (usize, &PlacedPolytope, &PlacedPolytope),
    sides: &[Side],
    eps: f64,
    vertex_face: &dyn Fn(usize) -> Contact,
    out: &mut Vec<ConstraintSet>,
) {
    for (ea, u) in edges_away(a, v) {
        let leans: SmallVec<[f64; 4]> = sides.iter().map(|side| u.dot(&side.2)).collect();
        let Some(best) = (0..leans.len()).max_by(|&x, &y| leans[x].total_cmp(&leans[y])) else { continue };
        if (0..leans.len()).any(|k| k != best && leans[best] - leans[k] < LEAN_MIN) {
            continue;
        }
        let (f, edges, _) = &sides[best];
        let vf = vertex_face(*f);
        let normal = vf.normal;
        let mut members = vec![vf];
        members.extend(
            edges
                .iter()
                .filter_map(|&eb| edge_member((ia, a, a_next, ea), v, (ib, b, b_next, eb), &normal, eps)),
        );
        if members.len() > 1 {
            push_set(members, out);
        }
    }
}

/// The least cosine between an edge member's normal and its set's vertex–face normal (60°).
const MEMBER_ALIGNMENT: f64 = 0.5;

/// An edge at a vertex leans over a face of the other body when it follows that face's in-face
/// direction (cosine) by at least this much more than the other faces' there; edges leaning over
/// none are left out of the vertex–edge and vertex–vertex sets.
const LEAN_MIN: f64 = 0.1;

/// Edge `ea` of a (at vertex `v`) against edge `eb` of b as a member of a vertex–edge or
/// vertex–vertex set: the edge–edge contact when the segments come within ε (now or at the
/// predicted poses), the lines cross (seen along n) within e_b and along e_a no more than ε
/// behind v — elsewhere "e_a above e_b" says nothing about the bodies, and a member 5 cm "deep"
/// by the lines' extensions asked for a 1.2 m/s push in the 3D pour —, its normal within 60° of
/// the set's vertex–face normal `face_normal` (the set's one force, on whichever member is
/// primary, must not have to lever a member it barely moves: such pushes added 1.5 J to the
/// pour at h = 0.016), and its relaxed applicability passes; unless the pair is a unilateral
/// contact of its own (`edges_against_edges`), which holds whatever the set's other members do.
fn edge_member(
    (ia, a, a_next, ea): PlacedVertex,
    v: usize,
    (ib, b, b_next, eb): (usize, &PlacedPolytope, &PlacedPolytope, usize),
    face_normal: &Vector3,
    eps: f64,
) -> Option<Contact> {
    let (c, false) = edge_pair((ia, a, a_next, ea), (ib, b, b_next, eb), eps)? else { return None };
    let ((p0, p1), (q0, q1)) = (edge_ends(a, ea), edge_ends(b, eb));
    let (s, t) = line_params(&p0, &(p1 - p0), &q0, &(q1 - q0))?;
    let crossing = p0 + s * (p1 - p0);
    let length = (p1 - p0).norm();
    let away = (a.vertices[a.shape.edges[ea].other_end(v)] - a.vertices[v]) / length;
    let along = (crossing - a.vertices[v]).dot(&away);
    let crosses = (0.0..=1.0).contains(&t) && along >= -eps && along <= length + eps;
    let aligned = c.normal.dot(face_normal) >= MEMBER_ALIGNMENT;
    (crosses && aligned && c.gap >= -eps && c.applicability > APPLICABILITY_THRESHOLD).then_some(c)
}

/// The closest points of the lines p0 + s·d1 and q0 + t·d2: (s, t); `None` when parallel.
fn line_params(p0: &Point3, d1: &Vector3, q0: &Point3, d2: &Vector3) -> Option<(f64, f64)> {
    let r = p0 - q0;
    let (a, b, e) = (d1.dot(d1), d1.dot(d2), d2.dot(d2));
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let denominator = a * e - b * b;
    (denominator > 1e-12 * a * e).then(|| ((b * f - c * e) / denominator, (a * f - b * c) / denominator))
}

/// The edge–edge contact of two edges whose segments come within ε now or at the predicted
/// poses, and whether it is a unilateral contact: closest points inside both segments (the
/// vertex contacts cover the ends) and a normal both bodies agree on (applicability > 0).
fn edge_pair(
    (ia, a, a_next, ea): PlacedVertex,
    (ib, b, b_next, eb): (usize, &PlacedPolytope, &PlacedPolytope, usize),
    eps: f64,
) -> Option<(Contact, bool)> {
    let near = |distance: f64| distance <= eps || segment_distance(a_next, ea, b_next, eb) <= eps;
    let (c, _, (s, t)) = edge_contact((ia, a, ea), (ib, b, eb), near)?;
    let inside = |r: f64| r > EDGE_END && r < 1.0 - EDGE_END;
    Some((c, inside(s) && inside(t) && c.applicability > 0.0))
}

/// The closest points of segments p0 + s·d1 and q0 + t·d2 (s, t ∈ [0, 1]): (s, t).
#[inline]
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

/// The ends of edge `e` of a placed polytope.
fn edge_ends(p: &PlacedPolytope, e: usize) -> (Point3, Point3) {
    let edge = p.shape.edges[e];
    (p.vertices[edge.v[0] as usize], p.vertices[edge.v[1] as usize])
}

/// The distance between edge `ea` of a and edge `eb` of b (the segments).
fn segment_distance(a: &PlacedPolytope, ea: usize, b: &PlacedPolytope, eb: usize) -> f64 {
    let ((p0, p1), (q0, q1)) = (edge_ends(a, ea), edge_ends(b, eb));
    let (s, t) = segment_params(&p0, &(p1 - p0), &q0, &(q1 - q0));
    ((q0 + t * (q1 - q0)) - (p0 + s * (p1 - p0))).norm()
}

/// The edge–edge contact of edge `ea` of a with edge `eb` of b: normal n = ±e_a × e_b pointing
/// into b's edge (against the sum of b's two face normals there), gap ψ = n·(p_b − p_a) (the
/// lines' separation: < 0 once a's edge has passed below b's), at a's closest point of the
/// segments; applicability min(n·s_a, −n·s_b) with s the unit sums of each edge's face normals
/// (> 0 when both bodies agree on the side). Also the segments' distance and closest-point
/// parameters (s, t); `None` for parallel edges and when `near` refuses the distance (checked
/// first: most edge pairs of a body pair are far apart).
fn edge_contact(
    (ia, a, ea): (usize, &PlacedPolytope, usize),
    (ib, b, eb): (usize, &PlacedPolytope, usize),
    near: impl Fn(f64) -> bool,
) -> Option<(Contact, f64, (f64, f64))> {
    let ((p0, p1), (q0, q1)) = (edge_ends(a, ea), edge_ends(b, eb));
    let (d1, d2) = (p1 - p0, q1 - q0);
    let (s, t) = segment_params(&p0, &d1, &q0, &d2);
    let (pa, pb) = (p0 + s * d1, q0 + t * d2);
    if !near((pb - pa).norm()) {
        return None;
    }
    let cross = d1.cross(&d2);
    if cross.norm() <= 1e-9 * d1.norm() * d2.norm() {
        return None;
    }
    let faces = |p: &PlacedPolytope, e: usize| {
        let f = p.shape.edges[e].faces;
        (p.normals[f[0] as usize] + p.normals[f[1] as usize]).normalize()
    };
    let (sa, sb) = (faces(a, ea), faces(b, eb));
    let mut n = cross.normalize();
    if n.dot(&sb) > 0.0 {
        n = -n;
    }
    let contact = Contact {
        body1: ia,
        body2: ib,
        point: pa,
        normal: n,
        gap: n.dot(&(pb - pa)),
        applicability: n.dot(&sa).min(-n.dot(&sb)),
    };
    Some((contact, (pb - pa).norm(), (s, t)))
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
    // Each edge's bounding ball now and at the predicted pose: two edges whose balls are more
    // than ε apart both times cannot be near (most pairs; spares their closest points).
    let balls = |p: &PlacedPolytope| -> Vec<(Point3, f64)> {
        (0..p.shape.edges.len())
            .map(|e| {
                let (u, v) = edge_ends(p, e);
                (nalgebra::center(&u, &v), 0.5 * (v - u).norm())
            })
            .collect()
    };
    let (now_a, next_a, now_b, next_b) = (balls(a), balls(a_next), balls(b), balls(b_next));
    let apart = |(m, r): (Point3, f64), (n, q): (Point3, f64)| (m - n).norm() - r - q > eps + 1e-9 * (r + q);
    for ea in 0..a.shape.edges.len() {
        for eb in 0..b.shape.edges.len() {
            if apart(now_a[ea], now_b[eb]) && apart(next_a[ea], next_b[eb]) {
                continue;
            }
            if let Some((c, true)) = edge_pair((ia, a, a_next, ea), (ib, b, b_next, eb), eps) {
                out.push(ConstraintSet::Unilateral(c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Shape;
    use crate::math::{Translation3, UnitQuaternion};

    fn unit_cube() -> Polyhedron {
        let PegShape::Polytope(p) = PegShape::new(&Shape::Box { size: [1.0; 3] }, None, false).unwrap()
        else {
            panic!("a box is a polytope")
        };
        p
    }

    /// The unit cube standing on its vertex (−½, −½, −½), that vertex placed at `at`.
    fn on_its_vertex(at: Vector3) -> Isometry3 {
        turned_on_its_vertex(at, 0.0)
    }

    /// The same, turned by `yaw` about the vertical through that vertex.
    fn turned_on_its_vertex(at: Vector3, yaw: f64) -> Isometry3 {
        let down = UnitQuaternion::rotation_between(&-Vector3::repeat(1.0), &-Vector3::z()).unwrap();
        let turned = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw) * down;
        let corner = turned * Vector3::repeat(-0.5);
        Isometry3::from_parts(Translation3::from(at - corner), turned)
    }

    fn sets(pose_a: &Isometry3, formulation: PegFormulation) -> Vec<ConstraintSet> {
        let (a, b) = (PegShape::Polytope(unit_cube()), PegShape::Polytope(unit_cube()));
        let mut out = Vec::new();
        let still = Isometry3::identity();
        solid_sets((1, &a, pose_a, pose_a), (0, &b, &still, &still), 0.005, formulation, &mut out);
        out
    }

    fn inter(sets: &[ConstraintSet]) -> Vec<&Vec<Contact>> {
        sets.iter()
            .filter_map(|s| match s {
                ConstraintSet::Inter { members, .. } => Some(members),
                ConstraintSet::Unilateral(_) => None,
            })
            .collect()
    }

    #[test]
    fn an_edge_passing_below_another_has_a_negative_gap() {
        // B: the unit cube; its ridge x = z = ½ runs along y. A: the cube turned 45° about x, its
        // lowest edge (along x) crossing the ridge at height h.
        let (pa, pb) = (unit_cube(), unit_cube());
        let b = PlacedPolytope::new(&pb, &Isometry3::identity());
        let turn = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_4);
        let ridge = (0..pb.edges.len())
            .find(|&e| {
                let (p, q) = edge_ends(&b, e);
                (p.x - 0.5).abs() + (q.x - 0.5).abs() + (p.z - 0.5).abs() + (q.z - 0.5).abs() < 1e-12
            })
            .unwrap();
        for h in [0.501, 0.5, 0.499] {
            let pose = Isometry3::from_parts(Translation3::new(0.5, 0.0, h + 0.5f64.sqrt()), turn);
            let a = PlacedPolytope::new(&pa, &pose);
            let lowest = (0..pa.edges.len())
                .find(|&e| {
                    let (p, q) = edge_ends(&a, e);
                    (p.z - h).abs() + (q.z - h).abs() < 1e-12
                })
                .unwrap();
            let (c, distance, (s, t)) = edge_contact((1, &a, lowest), (0, &b, ridge), |_| true).unwrap();
            assert!((c.normal + Vector3::z()).norm() < 1e-12, "{c:?}");
            assert!((c.gap - (h - 0.5)).abs() < 1e-12 && (distance - (h - 0.5).abs()).abs() < 1e-12, "{c:?}");
            assert!(
                (c.applicability - 0.5f64.sqrt()).abs() < 1e-12
                    && (s - 0.5).abs() < 1e-9
                    && (t - 0.5).abs() < 1e-9
            );
        }
    }

    #[test]
    fn a_vertex_near_a_ridge_gives_the_faces_set_and_one_edge_set_per_leaning_edge() {
        // A's lowest vertex 1 mm off B's ridge x = z = ½ (along y), on the bisector of its
        // faces: top (contact normal −z) and side (−x).
        let v = Vector3::new(0.5, 0.0, 0.5) + 0.001 * Vector3::new(1.0, 0.0, 1.0).normalize();
        let pose = on_its_vertex(v);
        let out = sets(&pose, PegFormulation::Peg);
        let sets = inter(&out);
        let is =
            |c: &Contact, n: Vector3| (c.normal - n).norm() < 1e-12 && (c.point.coords - v).norm() < 1e-12;
        let (top, side) = (-Vector3::z(), -Vector3::x());
        let faces = sets
            .iter()
            .filter(|m| {
                m.len() == 2 && (is(&m[0], top) && is(&m[1], side) || is(&m[0], side) && is(&m[1], top))
            })
            .count();
        assert_eq!(faces, 1, "one set of the ridge's two faces: {sets:#?}");
        // A's three edges at the vertex (its body axes) rise at 35°, 120° apart; each leans
        // towards the top (−x in its plane) or the side (−z in its plane) by more than 0.1 and
        // is paired with the face it leans towards (Eq. 36) when its edge–edge normal ±u × y
        // (into B's ridge) is within 60° of that face's normal: here one of the three.
        let mut paired = 0;
        for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
            let u = pose.rotation * axis;
            let lean = u.dot(&Vector3::new(-1.0, 0.0, 1.0));
            assert!(lean.abs() > 0.1);
            let face = if lean > 0.0 { top } else { side };
            let n = u.cross(&Vector3::y()).normalize();
            let n = if n.dot(&Vector3::new(1.0, 0.0, 1.0)) > 0.0 { -n } else { n };
            let with_edge: Vec<_> = sets
                .iter()
                .filter(|m| m.len() == 2 && m[1].normal.dot(&u).abs() < 1e-12 && m[1].normal.y.abs() < 1e-12)
                .collect();
            let expected = n.dot(&face) >= 0.5;
            assert_eq!(with_edge.len(), usize::from(expected), "the edge along {u:?}: {sets:#?}");
            let Some(m) = with_edge.first() else { continue };
            paired += 1;
            let (vertex_face, edge_edge) = (&m[0], &m[1]);
            assert!(is(vertex_face, face), "{vertex_face:?} for lean {lean}");
            assert!((edge_edge.normal - n).norm() < 1e-12, "{edge_edge:?}");
            // The edge–edge member at the vertex: the lines' separation, positive and no more
            // than the vertex's 1 mm from the ridge.
            assert!((edge_edge.point.coords - v).norm() < 1e-12, "{edge_edge:?}");
            assert!(edge_edge.gap > 0.0 && edge_edge.gap <= 0.001 + 1e-12, "{edge_edge:?}");
        }
        assert_eq!((paired, sets.len()), (1, 2), "{sets:#?}");
        assert!(inter(&self::sets(&pose, PegFormulation::Standard)).is_empty());
    }

    #[test]
    fn a_vertex_beside_a_corner_gives_the_cross_set_of_the_face_its_edge_leans_over() {
        // A's lowest vertex 2 mm above B's top face plane, 1.9 mm beyond its edge along x and
        // 0.2 mm inside the side face x = ½, turned so that its edge along its body x axis leans
        // in over the top (towards −x, −y). Seen along their common normal (0, −1, −1)/√2 that
        // edge's line crosses the top's edge along x 0.15 mm from the corner, 0.09 mm behind the
        // vertex: the segments' closest point is the vertex, so no unilateral contact, and the
        // Eq. 38 set {(v_a, top), (e_a, top's edge along x)} keeps the edge above it.
        let v = Vector3::repeat(0.5) + Vector3::new(-0.0002, 0.0019, 0.002);
        let u = on_its_vertex(v).rotation * Vector3::x();
        let pose = turned_on_its_vertex(v, (-1.0f64).atan2(-1.0) - u.y.atan2(u.x));
        let out = sets(&pose, PegFormulation::Peg);
        let sets = inter(&out);
        let at_vertex = |c: &Contact| (c.point.coords - v).norm() < 1e-12;
        let edge_normal = -Vector3::new(0.0, 1.0, 1.0).normalize();
        let cross: Vec<_> = sets
            .iter()
            .filter(|m| m[0].body1 == 1 && m.iter().any(|c| (c.normal - edge_normal).norm() < 1e-12))
            .collect();
        assert_eq!(cross.len(), 1, "{sets:#?}");
        let m = cross[0];
        assert_eq!(m.len(), 2, "{m:#?}");
        assert!(at_vertex(&m[0]) && (m[0].normal + Vector3::z()).norm() < 1e-12, "{m:#?}");
        // The edge member at the vertex: the lines' separation seen along n, positive and no more
        // than the vertex's distance from the corner.
        assert!(at_vertex(&m[1]) && m[1].gap > 0.0 && m[1].gap < (v - Vector3::repeat(0.5)).norm(), "{m:#?}");
        assert!(
            !out.iter().any(
                |s| matches!(s, ConstraintSet::Unilateral(c) if (c.normal - edge_normal).norm() < 1e-12)
            )
        );
    }

    #[test]
    fn a_vertex_near_a_corner_gives_the_faces_set_and_no_unilateral_pair_as_a_member() {
        // A's lowest vertex 3 mm off B's corner (½, ½, ½), turned so that its edge along its
        // body x axis leans in over B's top face (towards −x, −y): seen along their common
        // normal it crosses the top face's edge along x 0.8 mm from the corner.
        let v = Vector3::repeat(0.5) + Vector3::new(0.0002, 0.003, 0.001);
        let u = on_its_vertex(v).rotation * Vector3::x();
        let pose = turned_on_its_vertex(v, (-1.0f64).atan2(-1.0) - u.y.atan2(u.x));
        let out = sets(&pose, PegFormulation::Peg);
        let sets = inter(&out);
        let at_vertex = |c: &Contact| (c.point.coords - v).norm() < 1e-12;
        let corner_faces = [-Vector3::x(), -Vector3::y(), -Vector3::z()];
        let is_face =
            |c: &Contact| at_vertex(c) && corner_faces.iter().any(|n| (c.normal - n).norm() < 1e-12);
        assert_eq!(sets.iter().filter(|m| m.len() == 3 && m.iter().all(is_face)).count(), 1, "{sets:#?}");
        // The same arises from B's corner near A's faces (body 0's vertex): A's sets here.
        let cross: Vec<_> = sets.iter().filter(|m| m[0].body1 == 1 && !m.iter().all(is_face)).collect();
        // Each of A's edges at the vertex leans over the corner face whose bisector there it
        // follows most (face x = ½, contact normal −x: bisector (0, −1, −1)/√2, and so on).
        let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
        let leans_over = |u: &Vector3| -> Option<Vector3> {
            let leans: Vec<f64> =
                corner_faces.iter().map(|n| u.dot(&(-Vector3::repeat(1.0) - n).normalize())).collect();
            let best = (0..3).max_by(|&x, &y| leans[x].total_cmp(&leans[y]))?;
            (0..3).all(|k| k == best || leans[best] - leans[k] >= 0.1).then_some(corner_faces[best])
        };
        let leaning = axes.iter().filter(|x| leans_over(&(pose.rotation * *x)).is_some()).count();
        // Each leaning edge gives at most one set (none when no edge of the face is a member:
        // crossing, within 60° of the face's normal, not a unilateral contact of its own). Here
        // the edge leaning in over the top crosses the top's edge along x inside both segments:
        // a unilateral edge–edge contact, normal (0, −1, −1)/√2, and no member of any set.
        assert!(leaning >= 1 && cross.len() <= leaning, "{leaning} edges leaning: {sets:#?}");
        let ridge_normal = -Vector3::new(0.0, 1.0, 1.0).normalize();
        let is_edge_edge = |c: &Contact| (c.normal - ridge_normal).norm() < 1e-12;
        let unilateral =
            out.iter().filter(|s| matches!(s, ConstraintSet::Unilateral(c) if is_edge_edge(c))).count();
        assert_eq!(unilateral, 1, "{out:#?}");
        assert!(!sets.iter().any(|m| m.iter().any(is_edge_edge)), "{sets:#?}");
        for m in cross {
            // (v_a, f_b) first, then one edge of A at the vertex against B's edges of f_b at the
            // corner: each normal ⟂ A's edge and ⟂ a B edge lying in f_b, and not overlapping.
            assert!(is_face(&m[0]) && (2..=3).contains(&m.len()), "{m:#?}");
            let f = m[0].normal;
            let edge_of_a = axes
                .iter()
                .map(|x| pose.rotation * x)
                .find(|u| m[1..].iter().all(|e| e.normal.dot(u).abs() < 1e-12))
                .expect("one edge of A in every member");
            assert_eq!(leans_over(&edge_of_a), Some(f), "{m:#?}");
            for e in &m[1..] {
                assert!(
                    e.gap > -1e-12 && e.gap <= (v - Vector3::repeat(0.5)).norm() && e.normal.dot(&f) >= 0.5,
                    "{m:#?}"
                );
                assert!(
                    axes.iter().any(|d| d.dot(&f).abs() < 1e-12 && d.dot(&e.normal).abs() < 1e-12),
                    "{m:#?}"
                );
            }
        }
    }
}
