//! Isosurface stuffing (Labelle & Shewchuk, SIGGRAPH 2007) on the BCC lattice.
//!
//! 1. Each lattice vertex is inside (+) or outside (−) by the winding number.
//! 2. Each edge with a + and a − end gets a cut point where it crosses the surface (the
//!    crossing nearest its inside end, from an exact segment–triangle intersection).
//! 3. Warping: a vertex that a cut point on one of its edges lies closer to than α times the
//!    edge's length moves onto the nearest such cut point and becomes a surface vertex (0);
//!    the cut points on its other edges then disappear (those edges now have a 0 end).
//! 4. Every lattice tet is replaced by its part inside the surface according to its vertex
//!    signs: kept whole, cut to one tet, or cut to a prism or pyramid split into tets.
//!
//! Quadrilateral faces (where a lattice face with two inside vertices and one outside vertex is
//! cut) are split along the diagonal from the inside vertex with the larger index; both tets
//! sharing the face see the same four points and choose the same diagonal, so the mesh
//! conforms, and in a prism the largest-index inside vertex always owns two diagonals, so every
//! prism splits into three tets without a Steiner point.

use super::lattice::Lattice;
use super::quality::dihedral_range;
use super::surface_distance::SurfaceDistance;
use crate::geometry::{TetMesh, signed_tet_volume};
use crate::math::Point3;
use std::collections::HashMap;

/// Warping thresholds of Labelle & Shewchuk for the uniform BCC lattice: a cut point closer to
/// a vertex than α·(edge length) pulls the vertex onto the surface. With these values they
/// prove every output dihedral angle lies between about 10.7° and 164.8°.
const ALPHA_LONG: f64 = 0.24999;
const ALPHA_SHORT: f64 = 0.41189;
/// A lattice tet whose four vertices were all warped onto the surface is kept only if its
/// dihedral angles lie within these (degrees): it may be a sliver lying flat on the surface,
/// and leaving it out only dents the boundary between surface vertices. (Every other stencil
/// tet measured between 17° and 151° over many shapes and resolutions.)
const SURFACE_TET_ANGLES: (f64, f64) = QUALITY_BOUNDS;
/// Dihedral angles (degrees) no later pass may take a tet beyond.
pub(crate) const QUALITY_BOUNDS: (f64, f64) = (15.0, 155.0);
/// A bisected cut point this close to the surface (in lattice spacings) is moved onto it.
const SNAP: f64 = 1e-6;
/// Tets below this fraction of h³ are degenerate (a lattice tet is h³/12).
const MIN_VOLUME: f64 = 1e-9;

/// A point where a lattice edge crosses the surface.
#[derive(Clone, Copy, Debug)]
struct Cut {
    position: Point3,
    /// The input triangle it lies on; `None` when no exact crossing was found (an open or
    /// self-intersecting surface) and the point was found by bisection on the winding number.
    triangle: Option<usize>,
}

/// The stuffed mesh and what happened on the way.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stuffed {
    pub mesh: TetMesh,
    pub on_surface: Vec<bool>,
    /// For each output vertex on the surface, the input triangle it lies on.
    pub triangle: Vec<Option<usize>>,
    /// Tets left out because warping made them inverted or flat (never expected).
    pub inverted: usize,
    /// Boundary points placed by bisection because no exact crossing was found.
    pub inexact_cuts: usize,
}

/// Meshes the inside of `surface` (points where `sign · winding > ½`) on `lattice`.
pub(crate) fn stuff(surface: &SurfaceDistance, sign: f64, lattice: &Lattice) -> Stuffed {
    let inside = |p: &Point3| sign * surface.winding_number(p) > 0.5;
    let nv = lattice.vertex_count();
    let reference: Vec<Point3> = (0..nv as u32).map(|v| lattice.position(v)).collect();
    let mut signs: Vec<i8> = reference.iter().map(|p| if inside(p) { 1 } else { -1 }).collect();
    let mut nbrs = [0u32; 14];

    // Cut points on edges from an inside to an outside vertex, in vertex order.
    let mut cuts: Vec<Cut> = Vec::new();
    let mut cut_of: HashMap<u64, u32> = HashMap::new();
    let mut inexact_cuts = 0;
    for v in 0..nv as u32 {
        if signs[v as usize] <= 0 {
            continue;
        }
        let count = lattice.neighbours(v, &mut nbrs);
        for &w in &nbrs[..count] {
            if signs[w as usize] < 0 {
                let (a, b) = (reference[v as usize], reference[w as usize]);
                let cut = match surface.first_hit(&a, &b, None) {
                    Some((t, tri)) => Cut { position: a + (b - a) * t, triangle: Some(tri) },
                    None => {
                        // Only when the edge grazes the surface where triangles meet, or the
                        // surface has a hole: bisect, then snap onto the surface if it is there.
                        let p = bisect(&a, &b, &inside);
                        match surface.closest_point(&p) {
                            Some((q, tri)) if (q - p).norm() < SNAP * lattice.h => {
                                Cut { position: q, triangle: Some(tri) }
                            }
                            _ => {
                                inexact_cuts += 1;
                                Cut { position: p, triangle: None }
                            }
                        }
                    }
                };
                cut_of.insert(lattice.edge_key(v, w), cuts.len() as u32);
                cuts.push(cut);
            }
        }
    }

    // Warping, in vertex order.
    let mut position = reference.clone();
    let mut warped_onto: Vec<Option<u32>> = vec![None; nv];
    for v in 0..nv as u32 {
        let s = signs[v as usize];
        if s == 0 {
            continue;
        }
        let count = lattice.neighbours(v, &mut nbrs);
        let mut best: Option<(f64, u64, u32)> = None;
        for &w in &nbrs[..count] {
            if signs[w as usize] != -s {
                continue;
            }
            let key = lattice.edge_key(v, w);
            let Some(&c) = cut_of.get(&key) else { continue };
            let d = (cuts[c as usize].position - reference[v as usize]).norm();
            let alpha = if lattice.is_long(v, w) { ALPHA_LONG } else { ALPHA_SHORT };
            if d < alpha * lattice.edge_length(v, w) && best.is_none_or(|(bd, bk, _)| (d, key) < (bd, bk)) {
                best = Some((d, key, c));
            }
        }
        if let Some((_, _, c)) = best {
            position[v as usize] = cuts[c as usize].position;
            signs[v as usize] = 0;
            warped_onto[v as usize] = Some(c);
        }
    }

    // Stencils. Nodes are lattice vertices (0..nv) then cut points (nv + cut index).
    let mut builder = Builder {
        lattice,
        nv: nv as u32,
        reference: &reference,
        position: &position,
        cuts: &cuts,
        cut_of: &cut_of,
        tets: Vec::new(),
        inverted: 0,
    };
    lattice.for_each_tet(|t| builder.stencil(t, &signs, &inside));
    let Builder { tets, inverted, .. } = builder;

    // Keep only the nodes used, numbered in node order.
    let total = nv + cuts.len();
    let mut remap = vec![u32::MAX; total];
    for t in &tets {
        for &n in t {
            remap[n as usize] = 0;
        }
    }
    let mut vertices = Vec::new();
    let mut on_surface = Vec::new();
    let mut triangle = Vec::new();
    for (n, slot) in remap.iter_mut().enumerate() {
        if *slot == u32::MAX {
            continue;
        }
        *slot = vertices.len() as u32;
        let cut = if n < nv { warped_onto[n].map(|c| &cuts[c as usize]) } else { Some(&cuts[n - nv]) };
        let p = if n < nv { position[n] } else { cuts[n - nv].position };
        vertices.push(p);
        on_surface.push(cut.is_some_and(|c| c.triangle.is_some()));
        triangle.push(cut.and_then(|c| c.triangle));
    }
    let tets = tets.iter().map(|t| t.map(|n| remap[n as usize])).collect();
    Stuffed { mesh: TetMesh { vertices, tets }, on_surface, triangle, inverted, inexact_cuts }
}

/// The point on the segment from `a` (inside) to `b` (outside) where the inside test flips,
/// by bisection: the fallback when the segment meets no triangle exactly.
fn bisect(a: &Point3, b: &Point3, inside: &impl Fn(&Point3) -> bool) -> Point3 {
    let (mut lo, mut hi) = (*a, *b);
    for _ in 0..40 {
        let mid = nalgebra::center(&lo, &hi);
        if inside(&mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    nalgebra::center(&lo, &hi)
}

struct Builder<'a> {
    lattice: &'a Lattice,
    nv: u32,
    reference: &'a [Point3],
    position: &'a [Point3],
    cuts: &'a [Cut],
    cut_of: &'a HashMap<u64, u32>,
    tets: Vec<[u32; 4]>,
    inverted: usize,
}

impl Builder<'_> {
    /// The node of the cut point on the edge `a`–`b` (lattice vertices, one inside and one
    /// outside, so the cut exists).
    fn cut(&self, a: u32, b: u32) -> u32 {
        self.cut_of.get(&self.lattice.edge_key(a, b)).map_or(u32::MAX, |&c| self.nv + c)
    }

    fn reference_of(&self, n: u32) -> Point3 {
        if n < self.nv { self.reference[n as usize] } else { self.cuts[(n - self.nv) as usize].position }
    }

    fn position_of(&self, n: u32) -> Point3 {
        if n < self.nv { self.position[n as usize] } else { self.cuts[(n - self.nv) as usize].position }
    }

    fn points(&self, t: &[u32; 4]) -> [Point3; 4] {
        t.map(|n| self.position_of(n))
    }

    /// Adds tet `t`, oriented as it is in the unwarped lattice (where every stencil tet is
    /// well shaped); if warping flattened or turned it over it is counted and left out.
    fn emit(&mut self, mut t: [u32; 4]) {
        if t.contains(&u32::MAX) {
            self.inverted += 1;
            return;
        }
        let r = t.map(|n| self.reference_of(n));
        if signed_tet_volume(&r[0], &r[1], &r[2], &r[3]) < 0.0 {
            t.swap(2, 3);
        }
        let p = self.points(&t);
        if signed_tet_volume(&p[0], &p[1], &p[2], &p[3]) > MIN_VOLUME * self.lattice.h.powi(3) {
            self.tets.push(t);
        } else {
            self.inverted += 1;
        }
    }

    /// Replaces lattice tet `t` by its part inside the surface.
    fn stencil(&mut self, t: [u32; 4], signs: &[i8], inside: &impl Fn(&Point3) -> bool) {
        let mut ins = Vec::with_capacity(4);
        let mut zeros = Vec::with_capacity(4);
        let mut outs = Vec::with_capacity(4);
        for &v in &t {
            match signs[v as usize] {
                1 => ins.push(v),
                0 => zeros.push(v),
                _ => outs.push(v),
            }
        }
        // Larger index first: the quad-diagonal rule is "from the largest inside vertex".
        ins.sort_unstable_by(|a, b| b.cmp(a));
        match (ins.len(), zeros.len(), outs.len()) {
            (0, 4, 0) => self.surface_tet(t, inside),
            (0, _, _) => {}
            (_, _, 0) => self.emit(t),
            (1, 0, 3) => {
                let a = ins[0];
                self.emit([a, self.cut(a, outs[0]), self.cut(a, outs[1]), self.cut(a, outs[2])]);
            }
            (1, 1, 2) => {
                let a = ins[0];
                self.emit([a, zeros[0], self.cut(a, outs[0]), self.cut(a, outs[1])]);
            }
            (1, 2, 1) => {
                let a = ins[0];
                self.emit([a, zeros[0], zeros[1], self.cut(a, outs[0])]);
            }
            (2, 1, 1) => {
                // Pyramid: apex on the surface over the quad (m, o, cut(o), cut(m)).
                let (m, o, z, out) = (ins[0], ins[1], zeros[0], outs[0]);
                let (cm, co) = (self.cut(m, out), self.cut(o, out));
                self.emit([z, m, o, co]);
                self.emit([z, m, co, cm]);
            }
            (2, 0, 2) => {
                // Prism between the triangles (m, cut(m, o1), cut(m, o2)) and (o, …).
                let (m, o) = (ins[0], ins[1]);
                let (m1, m2) = (self.cut(m, outs[0]), self.cut(m, outs[1]));
                let (o1, o2) = (self.cut(o, outs[0]), self.cut(o, outs[1]));
                self.emit([m, o, o1, o2]);
                // The remaining pyramid from m over the cut quad (m1, o1, o2, m2): that quad
                // is on the boundary, so its diagonal is free; take the better-shaped split.
                let split_a = [[m, m1, o1, o2], [m, m1, o2, m2]];
                let split_b = [[m, m1, o1, m2], [m, o1, o2, m2]];
                let worst = |s: &[[u32; 4]; 2]| {
                    s.iter().map(|t| dihedral_range(&self.points(t)).0).fold(f64::INFINITY, f64::min)
                };
                let split = if worst(&split_b) > worst(&split_a) { split_b } else { split_a };
                for t in split {
                    self.emit(t);
                }
            }
            (3, 0, 1) => {
                // Prism between the inside face (m, p, q) and the cut triangle.
                let (m, p, q, out) = (ins[0], ins[1], ins[2], outs[0]);
                let (cm, cp, cq) = (self.cut(m, out), self.cut(p, out), self.cut(q, out));
                self.emit([m, cp, cq, cm]);
                // Pyramid from m over the quad (p, q, cq, cp), split from p (p > q).
                self.emit([m, p, q, cq]);
                self.emit([m, p, cq, cp]);
            }
            _ => {}
        }
    }

    /// A lattice tet with all four vertices warped onto the surface: kept when it is inside and
    /// not a sliver.
    fn surface_tet(&mut self, t: [u32; 4], inside: &impl Fn(&Point3) -> bool) {
        let p = self.points(&t);
        let centroid = Point3::from((p[0].coords + p[1].coords + p[2].coords + p[3].coords) / 4.0);
        let (lo, hi) = dihedral_range(&p);
        let (min, max) = SURFACE_TET_ANGLES;
        if lo.to_degrees() >= min && hi.to_degrees() <= max && inside(&centroid) {
            self.emit(t);
        }
    }
}
