//! Pressure extent from Laplace's equation (Elandt et al. 2019, §VI-A2): ε = 0 on the surface,
//! ε = 1 on a core, harmonic in between, for bodies of any shape. Solved with linear (P1)
//! finite elements on the body's tet mesh and a sparse Cholesky factorisation (faer).

mod core;
mod graph;
mod stiffness;

pub use core::{CORE_DEPTH_FRACTION, Core, MIN_CORE_DEPTH_FRACTION, RIDGE_SLOPE};
pub use graph::{boundary_vertices, depth_by_graph};

use super::FieldError;
use crate::geometry::TetMesh;
use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use graph::Neighbours;

/// Values this far outside their neighbours' range or [0, 1] count as maximum-principle
/// violations; below it they are round-off of the solve.
const PRINCIPLE_TOLERANCE: f64 = 1e-9;

/// A medial core with fewer than 1 in this many vertices is point- or curve-like: in 3D such a
/// set has (nearly) zero capacity, so ε decays like (core size)/distance around it. For a
/// sphere's centre, mean ε at half the radius is 0.08, 0.03, 0.013 with 5, 10, 20 layers.
const SMALL_CORE: usize = 100;

/// A solved Laplace field.
#[derive(Clone, Debug, Default)]
pub struct LaplaceField {
    /// ε per vertex, in [0, 1].
    pub extent: Vec<f64>,
    /// Vertices where the discrete solution left [0, 1] or was a strict local extremum (a
    /// harmonic function has none inside), before clamping to [0, 1]. Happens where tets with
    /// obtuse dihedral angles make the stiffness matrix lose its M-matrix property.
    pub principle_violations: usize,
    /// The largest such excursion (outside [0, 1] or beyond the neighbours' range).
    pub max_violation: f64,
    /// Which vertices were held at ε = 1.
    pub core: Vec<bool>,
    /// Remarks about the mesh and solve (skipped tets, obtuse couplings, unreached vertices).
    pub notes: Vec<String>,
}

/// Solves Laplace's equation for the pressure extent: ε = 0 on `boundary` vertices, ε = 1 on
/// the `core` vertices (never boundary ones), and the linear finite-element solution elsewhere.
/// `depth[v]` is vertex v's distance below the surface (exact, or [`depth_by_graph`]).
///
/// Flat tets are left out and counted in `notes`. Free vertices cut off from every boundary
/// and core vertex get ε = 0 (also noted). Values the maximum principle forbids are clamped to
/// [0, 1] and reported in `principle_violations` / `max_violation`.
pub fn laplace_extent(
    mesh: &TetMesh,
    boundary: &[bool],
    depth: &[f64],
    core: Core,
) -> Result<LaplaceField, FieldError> {
    validate(mesh, boundary, depth)?;
    let nv = mesh.vertices.len();
    let solid: Vec<bool> = (0..mesh.tets.len()).map(|t| stiffness::is_solid(mesh, t)).collect();
    let flat = solid.iter().filter(|&&s| !s).count();
    if flat == mesh.tets.len() {
        return Err(FieldError::BadMesh { reason: format!("all {flat} tets are flat (no volume)") });
    }
    let graph = Neighbours::of(mesh, |t| solid[t]);
    let is_core = core::select(mesh, &graph, boundary, depth, core)?;
    let mut notes = Vec::new();
    let core_count = is_core.iter().filter(|&&c| c).count();
    if core == Core::MedialAxis && core_count * SMALL_CORE < nv {
        notes.push(format!(
            "the core is small ({core_count} of {nv} vertices): the mesh may be too coarse to resolve the body's thickness"
        ));
    }
    if flat > 0 {
        notes.push(format!("{flat} flat tets (no volume) were left out"));
    }

    // Dirichlet values; free vertices are renumbered 0..n for the reduced system.
    let fixed = |v: usize| boundary[v] || is_core[v];
    let reached = reached_from_fixed(&graph, nv, &fixed);
    let mut extent: Vec<f64> = (0..nv).map(|v| if is_core[v] && !boundary[v] { 1.0 } else { 0.0 }).collect();
    let mut free_index = vec![usize::MAX; nv];
    let mut free = Vec::new();
    for v in 0..nv {
        if !fixed(v) && reached[v] {
            free_index[v] = free.len();
            free.push(v);
        }
    }
    let cut_off = (0..nv).filter(|&v| !fixed(v) && !reached[v]).count();
    if cut_off > 0 {
        notes.push(format!(
            "{cut_off} vertices share no tet path with the surface or core; they were given ε = 0"
        ));
    }

    let k = stiffness::assemble(mesh, &graph, &solid);
    let obtuse = (0..nv)
        .flat_map(|v| (graph.start[v]..graph.start[v + 1]).map(move |e| (v, e)))
        .filter(|&(v, e)| (graph.adjacent[e] as usize) > v && k.off[e] > 0.0)
        .count();

    if !free.is_empty() {
        let solution = solve_free(&graph, &k, &free, &free_index, &extent)?;
        for (i, &v) in free.iter().enumerate() {
            extent[v] = solution[i];
        }
    }

    let (principle_violations, max_violation) = check_principle(&graph, &free, &extent);
    if principle_violations > 0 {
        notes.push(format!(
            "{principle_violations} vertices broke the discrete maximum principle (by up to {max_violation:.3e}; {obtuse} edges have obtuse dihedral angles); clamped to [0, 1]"
        ));
    }
    for e in &mut extent {
        *e = e.clamp(0.0, 1.0);
    }
    Ok(LaplaceField { extent, principle_violations, max_violation, core: is_core, notes })
}

fn validate(mesh: &TetMesh, boundary: &[bool], depth: &[f64]) -> Result<(), FieldError> {
    let nv = mesh.vertices.len();
    if nv == 0 || mesh.tets.is_empty() {
        return Err(FieldError::EmptyMesh { vertices: nv, tets: mesh.tets.len() });
    }
    if boundary.len() != nv {
        return Err(FieldError::LengthMismatch { what: "boundary", got: boundary.len(), expected: nv });
    }
    if depth.len() != nv {
        return Err(FieldError::LengthMismatch { what: "depth", got: depth.len(), expected: nv });
    }
    if let Some((t, _)) = mesh.tets.iter().enumerate().find(|(_, tet)| tet.iter().any(|&v| v as usize >= nv))
    {
        return Err(FieldError::BadMesh {
            reason: format!("tet {t} names a vertex ≥ the vertex count {nv}"),
        });
    }
    if let Some(v) = mesh.vertices.iter().position(|p| !p.coords.iter().all(|x| x.is_finite())) {
        return Err(FieldError::BadMesh { reason: format!("vertex {v} has a non-finite coordinate") });
    }
    if let Some(v) = depth.iter().position(|d| !(d.is_finite() && *d >= 0.0)) {
        return Err(FieldError::BadDepth { vertex: v, value: depth[v] });
    }
    if !boundary.iter().any(|&b| b) {
        return Err(FieldError::NoBoundary);
    }
    Ok(())
}

/// Whether each vertex is connected through tet edges to a fixed (boundary or core) vertex.
/// Free vertices that are not would make the reduced matrix singular.
fn reached_from_fixed(graph: &Neighbours, nv: usize, fixed: &impl Fn(usize) -> bool) -> Vec<bool> {
    let mut reached: Vec<bool> = (0..nv).map(fixed).collect();
    let mut stack: Vec<usize> = (0..nv).filter(|&v| reached[v]).collect();
    while let Some(v) = stack.pop() {
        for &u in graph.of_vertex(v) {
            let u = u as usize;
            if !reached[u] {
                reached[u] = true;
                stack.push(u);
            }
        }
    }
    reached
}

/// Solves `K_ff x = −K_fd g` for the free values, `g` the fixed values in `extent`.
fn solve_free(
    graph: &Neighbours,
    k: &stiffness::Stiffness,
    free: &[usize],
    free_index: &[usize],
    extent: &[f64],
) -> Result<Vec<f64>, FieldError> {
    let n = free.len();
    let mut triplets = Vec::with_capacity(graph.adjacent.len() / 2 + n);
    let mut rhs = faer::Mat::<f64>::zeros(n, 1);
    for (i, &v) in free.iter().enumerate() {
        triplets.push(Triplet::new(i, i, k.diagonal[v]));
        for e in graph.start[v]..graph.start[v + 1] {
            let u = graph.adjacent[e] as usize;
            let j = free_index[u];
            if j == usize::MAX {
                rhs[(i, 0)] -= k.off[e] * extent[u];
            } else if j > i {
                // Lower triangle only: the factorisation reads `Side::Lower`.
                triplets.push(Triplet::new(j, i, k.off[e]));
            }
        }
    }
    let solve_error = |reason: String| FieldError::Solve { reason };
    let matrix = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets)
        .map_err(|e| solve_error(format!("assembly: {e:?}")))?;
    let llt = matrix.sp_cholesky(Side::Lower).map_err(|e| solve_error(format!("factorisation: {e:?}")))?;
    llt.solve_in_place(rhs.as_mut());
    let x: Vec<f64> = (0..n).map(|i| rhs[(i, 0)]).collect();
    if x.iter().all(|v| v.is_finite()) { Ok(x) } else { Err(solve_error("non-finite solution".into())) }
}

/// Counts free vertices outside [0, 1] or strictly above (below) all their neighbours, and the
/// largest excursion.
fn check_principle(graph: &Neighbours, free: &[usize], extent: &[f64]) -> (usize, f64) {
    let mut count = 0;
    let mut worst: f64 = 0.0;
    for &v in free {
        let x = extent[v];
        let (lo, hi) = graph
            .of_vertex(v)
            .iter()
            .map(|&u| extent[u as usize])
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
        let excess = (-x).max(x - 1.0).max(lo - x).max(x - hi);
        if excess > PRINCIPLE_TOLERANCE {
            count += 1;
            worst = worst.max(excess);
        }
    }
    (count, worst)
}
