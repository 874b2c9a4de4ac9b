//! Checking that a triangle mesh bounds a solid, with the few repairs that cannot change its
//! shape.

use super::{GeometryError, SurfaceMesh};
use crate::math::{Point3, Vector3};
use std::collections::HashMap;

/// A mesh that passed [`check_closed_mesh`], with what was repaired and what is worth knowing.
#[derive(Clone, Debug)]
pub struct CheckedMesh {
    pub mesh: SurfaceMesh,
    /// One line per repair made (merged vertices, dropped triangles, flipped orientation).
    pub repairs: Vec<String>,
    /// Facts that are not defects (several components, cavities).
    pub notes: Vec<String>,
}

/// Vertices closer than this times the bounding-box diagonal are one vertex.
pub const MERGE_TOLERANCE: f64 = 1e-9;
/// A triangle with twice its area below this times the squared diagonal has no area.
const DEGENERATE_AREA: f64 = 1e-12;
/// How many examples a problem names.
const EXAMPLES: usize = 3;

/// Checks that `mesh` is a closed, manifold, consistently and outward oriented triangle mesh
/// without zero-area triangles.
///
/// Repairs, each listed in [`CheckedMesh::repairs`]: vertices closer than [`MERGE_TOLERANCE`] ×
/// the bounding-box diagonal are merged (triangles this collapses are dropped), vertices no
/// triangle uses are removed, and a consistently oriented mesh enclosing negative volume is
/// flipped. A surface that crosses itself is rejected with the first pair of crossing triangles.
/// Anything else is [`GeometryError::InvalidMesh`] listing every problem found, with
/// counts and examples; vertex and triangle indices there are those of the input.
pub fn check_closed_mesh(mesh: SurfaceMesh) -> Result<CheckedMesh, GeometryError> {
    let invalid = |problems: Vec<String>| GeometryError::InvalidMesh { problems };
    let SurfaceMesh { vertices, triangles } = mesh;
    if triangles.is_empty() {
        return Err(invalid(vec!["it has no triangles".into()]));
    }
    let n = vertices.len();
    if let Some(problem) = out_of_range(&triangles, n) {
        return Err(invalid(vec![problem]));
    }
    if let Some(v) = vertices.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
        return Err(invalid(vec![format!(
            "vertex {v} has a non-finite coordinate: {}",
            fmt_point(&vertices[v])
        )]));
    }
    let (lo, hi) = bounds(&vertices, &triangles);
    let diagonal = (hi - lo).norm();
    if !(diagonal > 0.0 && diagonal.is_finite()) {
        return Err(invalid(vec![format!("its vertices span no space (bounding-box diagonal {diagonal})")]));
    }

    let mut problems = Vec::new();
    let mut repairs = Vec::new();

    // Triangles that repeat a vertex index were broken before any repair: an error.
    let repeated: Vec<usize> = (0..triangles.len()).filter(|&t| has_repeat(&triangles[t])).collect();

    let tolerance = MERGE_TOLERANCE * diagonal;
    let (representative, merged) = merge_close_vertices(&vertices, lo, tolerance);
    if merged > 0 {
        repairs.push(format!(
            "merged {merged} duplicate vertices (closer than {tolerance:e} m to another vertex)"
        ));
    }
    // Kept triangles on representative vertices, with their input index.
    let mut kept: Vec<([u32; 3], usize)> = Vec::with_capacity(triangles.len());
    let mut collapsed = Vec::new();
    for (t, tri) in triangles.iter().enumerate() {
        let mapped = tri.map(|v| representative[v as usize]);
        if has_repeat(tri) {
            continue;
        } else if has_repeat(&mapped) {
            collapsed.push(t);
        } else {
            kept.push((mapped, t));
        }
    }
    if !collapsed.is_empty() {
        repairs.push(format!(
            "dropped {} triangle{} that merging duplicate vertices collapsed to a line: {}",
            collapsed.len(),
            plural(collapsed.len()),
            examples(&collapsed, |&t| format!("triangle {t}"))
        ));
    }

    let degenerate: Vec<usize> = repeated
        .iter()
        .copied()
        .chain(
            kept.iter()
                .filter(|(tri, _)| {
                    let [a, b, c] = tri.map(|v| vertices[v as usize]);
                    (b - a).cross(&(c - a)).norm() <= DEGENERATE_AREA * diagonal * diagonal
                })
                .map(|&(_, t)| t),
        )
        .collect();
    if !degenerate.is_empty() {
        problems.push(format!(
            "degenerate: {} triangle{} with zero area, {}",
            degenerate.len(),
            plural(degenerate.len()),
            examples(&degenerate, |&t| {
                let [a, b, c] = triangles[t];
                format!("triangle {t} (vertices {a}, {b}, {c})")
            })
        ));
    }

    let topology = Topology::new(&kept);
    topology.report(&vertices, &mut problems);
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    // A surface that crosses itself bounds no solid: no orientation or flip can repair it.
    let kept_triangles: Vec<[u32; 3]> = kept.iter().map(|(tri, _)| *tri).collect();
    if let Some((s, t, p)) = super::self_intersection::first_self_intersection(&vertices, &kept_triangles) {
        return Err(invalid(vec![format!(
            "it crosses itself: triangles {} and {} intersect near {}; remove the self-intersections \
             (e.g. MeshLab: Filters › Cleaning and Repairing › Select Self Intersecting Faces) or give a tet mesh",
            kept[s].1,
            kept[t].1,
            fmt_point(&p)
        )]));
    }

    // Closed, manifold and consistent: the sign of the volume tells inside from outside.
    let center = Point3::from((lo.coords + hi.coords) / 2.0);
    let volume_of = |tri: &[u32; 3]| {
        let [a, b, c] = tri.map(|v| vertices[v as usize] - center);
        a.dot(&b.cross(&c)) / 6.0
    };
    let volume: f64 = kept.iter().map(|(tri, _)| volume_of(tri)).sum();
    if volume.abs() <= DEGENERATE_AREA * diagonal.powi(3) {
        return Err(invalid(vec![format!(
            "it encloses no volume ({volume:e} m³): it is flat or its parts cancel out"
        )]));
    }
    let mut notes = Vec::new();
    if topology.components > 1 {
        notes.push(format!("it has {} disconnected components", topology.components));
    }
    let sign = volume.signum();
    let mut component_volume = vec![0.0; topology.components];
    for (k, (tri, _)) in kept.iter().enumerate() {
        component_volume[topology.component[k] as usize] += volume_of(tri);
    }
    let inverted: Vec<usize> =
        (0..topology.components).filter(|&c| component_volume[c] * sign < 0.0).collect();
    if !inverted.is_empty() {
        notes.push(format!(
            "{} component{} enclose{} negative volume (a cavity inside another component, or a part \
             that is inside out): {}",
            inverted.len(),
            plural(inverted.len()),
            if inverted.len() == 1 { "s" } else { "" },
            examples(&inverted, |&c| {
                let first = topology.component.iter().position(|&k| k as usize == c).unwrap_or(0);
                format!("the one with triangle {}", kept[first].1)
            })
        ));
    }
    if volume < 0.0 {
        for (tri, _) in &mut kept {
            tri.swap(1, 2);
        }
        repairs.push(format!(
            "inside-out (enclosed volume {volume:e} m³): flipped all {} triangles",
            kept.len()
        ));
    }

    // Keep only the vertices the triangles use, in input order.
    let mut new_index = vec![u32::MAX; vertices.len()];
    for (tri, _) in &kept {
        for &v in tri {
            new_index[v as usize] = 0;
        }
    }
    let mut compact = Vec::new();
    for (v, slot) in new_index.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = compact.len() as u32;
            compact.push(vertices[v]);
        }
    }
    let unused = vertices.len() - compact.len() - merged;
    if unused > 0 {
        repairs.push(format!("removed {unused} vertices that no triangle uses"));
    }
    let triangles = kept.iter().map(|(tri, _)| tri.map(|v| new_index[v as usize])).collect();
    Ok(CheckedMesh { mesh: SurfaceMesh { vertices: compact, triangles }, repairs, notes })
}

fn out_of_range(triangles: &[[u32; 3]], n: usize) -> Option<String> {
    let bad: Vec<usize> =
        (0..triangles.len()).filter(|&t| triangles[t].iter().any(|&v| v as usize >= n)).collect();
    (!bad.is_empty()).then(|| {
        format!(
            "{} triangle{} refer to vertices that do not exist (there are {n}): {}",
            bad.len(),
            plural(bad.len()),
            examples(&bad, |&t| format!("triangle {t} {:?}", triangles[t]))
        )
    })
}

/// Bounding box of the vertices the triangles use.
fn bounds(vertices: &[Point3], triangles: &[[u32; 3]]) -> (Point3, Point3) {
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for &v in triangles.iter().flatten() {
        let p = &vertices[v as usize].coords;
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (Point3::from(lo), Point3::from(hi))
}

fn has_repeat(t: &[u32; 3]) -> bool {
    t[0] == t[1] || t[1] == t[2] || t[0] == t[2]
}

/// For each vertex, the lowest-index vertex within `tolerance` of it (itself if none), and how
/// many vertices were merged into another. Vertices are hashed into cells of size `tolerance`,
/// so each looks only at its 27 neighbouring cells.
fn merge_close_vertices(vertices: &[Point3], lo: Point3, tolerance: f64) -> (Vec<u32>, usize) {
    // Cell coordinates stay below 1e9 for vertices in the box; `as` saturates for the others.
    let cell = |p: &Point3| ((p - lo) / tolerance).map(|c| c.floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::with_capacity(vertices.len());
    let mut representative = Vec::with_capacity(vertices.len());
    let mut merged = 0;
    for (v, p) in vertices.iter().enumerate() {
        let c = cell(p);
        let mut found = None;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [c.x.saturating_add(dx), c.y.saturating_add(dy), c.z.saturating_add(dz)];
                    for &r in grid.get(&key).into_iter().flatten() {
                        if (vertices[r as usize] - p).norm() <= tolerance {
                            found = Some(r);
                            break 'search;
                        }
                    }
                }
            }
        }
        match found {
            Some(r) => {
                merged += 1;
                representative.push(r);
            }
            None => {
                grid.entry([c.x, c.y, c.z]).or_default().push(v as u32);
                representative.push(v as u32);
            }
        }
    }
    (representative, merged)
}

/// Edge incidences of the kept triangles (indices into `kept`).
struct Topology {
    boundary: Vec<(u32, u32)>,
    /// Edges with more than two triangles, and how many.
    non_manifold: Vec<(u32, u32, usize)>,
    /// Edges two triangles traverse in the same direction: (triangle, triangle, from, to).
    disagreements: Vec<(usize, usize, u32, u32)>,
    /// Per orientable component with disagreements, the triangles whose flip would fix it.
    to_flip: Vec<Vec<usize>>,
    /// A triangle of each component that cannot be oriented consistently.
    non_orientable: Vec<usize>,
    component: Vec<u32>,
    components: usize,
}

impl Topology {
    fn new(kept: &[([u32; 3], usize)]) -> Topology {
        // Half-edges keyed by undirected edge; sorting groups each edge's triangles together
        // in a deterministic order.
        let mut half_edges: Vec<(u32, u32, usize, bool)> = Vec::with_capacity(3 * kept.len());
        for (k, (tri, _)) in kept.iter().enumerate() {
            for i in 0..3 {
                let (a, b) = (tri[i], tri[(i + 1) % 3]);
                half_edges.push((a.min(b), a.max(b), k, a < b));
            }
        }
        half_edges.sort_unstable();
        let mut boundary = Vec::new();
        let mut non_manifold = Vec::new();
        let mut disagreements = Vec::new();
        // Neighbours across manifold edges, with whether they must have opposite flips.
        let mut neighbours: Vec<Vec<(usize, bool)>> = vec![Vec::new(); kept.len()];
        let mut parent = crate::math::DisjointSets::new(kept.len());
        for group in half_edges.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            let (a, b) = (group[0].0, group[0].1);
            for h in &group[1..] {
                parent.join(group[0].2, h.2);
            }
            match group {
                [_] => boundary.push((a, b)),
                [s, t] => {
                    let same = s.3 == t.3;
                    if same {
                        let (from, to) = if s.3 { (a, b) } else { (b, a) };
                        disagreements.push((
                            kept[s.2].1.min(kept[t.2].1),
                            kept[s.2].1.max(kept[t.2].1),
                            from,
                            to,
                        ));
                    }
                    neighbours[s.2].push((t.2, same));
                    neighbours[t.2].push((s.2, same));
                }
                _ => non_manifold.push((a, b, group.len())),
            }
        }

        // Two-colour each component by "flipped relative to its first triangle".
        let mut flip: Vec<Option<bool>> = vec![None; kept.len()];
        let mut to_flip = Vec::new();
        let mut non_orientable = Vec::new();
        for start in 0..kept.len() {
            if flip[start].is_some() {
                continue;
            }
            flip[start] = Some(false);
            let mut stack = vec![start];
            let mut members = vec![start];
            let mut conflict = false;
            while let Some(t) = stack.pop() {
                let ft = flip[t].unwrap_or(false);
                for &(u, opposite) in &neighbours[t] {
                    let want = ft ^ opposite;
                    match flip[u] {
                        None => {
                            flip[u] = Some(want);
                            stack.push(u);
                            members.push(u);
                        }
                        Some(have) => conflict |= have != want,
                    }
                }
            }
            if conflict {
                non_orientable.push(kept[start].1);
            } else {
                let flipped: Vec<usize> =
                    members.iter().copied().filter(|&t| flip[t] == Some(true)).collect();
                if !flipped.is_empty() {
                    // The smaller side is the likelier mistake.
                    let side = if 2 * flipped.len() <= members.len() {
                        flipped
                    } else {
                        members.iter().copied().filter(|&t| flip[t] == Some(false)).collect()
                    };
                    let mut side: Vec<usize> = side.iter().map(|&k| kept[k].1).collect();
                    side.sort_unstable();
                    to_flip.push(side);
                }
            }
        }
        let mut roots = HashMap::new();
        let component: Vec<u32> = (0..kept.len())
            .map(|k| {
                let r = parent.root(k);
                let next = roots.len() as u32;
                *roots.entry(r).or_insert(next)
            })
            .collect();
        Topology {
            boundary,
            non_manifold,
            disagreements,
            to_flip,
            non_orientable,
            component,
            components: roots.len(),
        }
    }

    fn report(&self, vertices: &[Point3], problems: &mut Vec<String>) {
        let vertex = |v: u32| format!("{v} {}", fmt_point(&vertices[v as usize]));
        if !self.boundary.is_empty() {
            problems.push(format!(
                "not watertight: {} boundary edge{} (used by one triangle only), e.g. {}",
                self.boundary.len(),
                plural(self.boundary.len()),
                examples(&self.boundary, |&(a, b)| format!(
                    "between vertices {} and {}",
                    vertex(a),
                    vertex(b)
                ))
            ));
        }
        if !self.non_manifold.is_empty() {
            problems.push(format!(
                "non-manifold: {} edge{} shared by more than two triangles, e.g. {}",
                self.non_manifold.len(),
                plural(self.non_manifold.len()),
                examples(&self.non_manifold, |&(a, b, k)| {
                    format!("{k} triangles on the edge between vertices {} and {}", vertex(a), vertex(b))
                })
            ));
        }
        if !self.disagreements.is_empty() {
            let fix = if self.to_flip.is_empty() {
                String::new()
            } else {
                let all: Vec<usize> = self.to_flip.iter().flatten().copied().collect();
                format!(
                    "; reversing {} would make it consistent: {}",
                    if all.len() == 1 { "this triangle" } else { "these triangles" },
                    examples(&all, |&t| format!("triangle {t}"))
                )
            };
            problems.push(format!(
                "inconsistent orientation: {} edge{} traversed in the same direction by both triangles, \
                 e.g. {}{fix}",
                self.disagreements.len(),
                plural(self.disagreements.len()),
                examples(&self.disagreements, |&(s, t, a, b)| {
                    format!("triangles {s} and {t} disagree on the orientation of edge {a}–{b}")
                })
            ));
        }
        if !self.non_orientable.is_empty() {
            problems.push(format!(
                "cannot be oriented consistently: {} component{} twist{} like a Möbius strip, e.g. {}",
                self.non_orientable.len(),
                plural(self.non_orientable.len()),
                if self.non_orientable.len() == 1 { "s" } else { "" },
                examples(&self.non_orientable, |&t| format!("the one with triangle {t}"))
            ));
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The first few items, formatted, and how many more there are.
fn examples<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    let mut text: Vec<String> = items.iter().take(EXAMPLES).map(show).collect();
    if items.len() > EXAMPLES {
        text.push(format!("and {} more", items.len() - EXAMPLES));
    }
    text.join("; ")
}

fn fmt_point(p: &Point3) -> String {
    format!("({}, {}, {})", p.x, p.y, p.z)
}
