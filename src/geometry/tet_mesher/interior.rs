//! The interior mesher: a closed surface's inside stuffed with tets, checked and reported on.

use super::quality::dihedral_range;
use super::surface_distance::SurfaceDistance;
use super::{diagnostics, lattice, stuffing, volume_fit};
use crate::geometry::{GeometryError, SurfaceMesh, TetMesh};
use crate::math::Point3;
use std::time::Instant;

/// Figures describing a mesh from [`mesh_interior`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MesherStats {
    pub tets: usize,
    pub vertices: usize,
    /// Smallest and largest dihedral angle over all tets (degrees).
    pub min_dihedral_deg: f64,
    pub max_dihedral_deg: f64,
    /// Volume of the tet mesh and enclosed by the input surface (m³), and their ratio.
    pub volume: f64,
    pub input_volume: f64,
    pub volume_ratio: f64,
    /// How far boundary vertices were moved out along their normals to fit the volume (m).
    pub boundary_offset: f64,
    /// Wall time of the whole call (s).
    pub seconds: f64,
}

/// A tet mesh of a surface's interior.
#[derive(Clone, Debug, Default)]
pub struct MesherOutput {
    /// Positively oriented, conforming tets.
    pub mesh: TetMesh,
    /// Vertices on the boundary: on the input surface, or [`MesherStats::boundary_offset`]
    /// outside it when the volume was fitted.
    pub on_surface: Vec<bool>,
    /// What the mesh may get wrong about the input (thin parts, lost components, open input).
    pub warnings: Vec<String>,
    pub stats: MesherStats,
}

/// One twentieth of the largest extent of the surface's bounding box: fine enough for the
/// mesh to hold the enclosed volume within 1% for smooth shapes whose thinnest part is a
/// fifth of their size or more.
pub fn default_resolution(surface: &SurfaceMesh) -> f64 {
    let (lo, hi) = bounds(&surface.vertices);
    (hi - lo).max() / 20.0
}

/// Meshes the interior of `surface` (closed, outward oriented) with tets of edge length about
/// `resolution` (lattice edges are `resolution` and `resolution·√3/2`; tets cut by the surface
/// are smaller). Deterministic: the same input gives the same mesh.
///
/// Open, inside-out or self-intersecting input gives a best-effort mesh with a warning; an
/// empty or non-finite surface, or one enclosing no lattice point, is an error.
pub fn mesh_interior(surface: &SurfaceMesh, resolution: f64) -> Result<MesherOutput, GeometryError> {
    mesh_interior_with(surface, resolution, &MesherOptions::default())
}

/// Choices for [`mesh_interior_with`].
#[derive(Clone, Debug, PartialEq)]
pub struct MesherOptions {
    /// Move the boundary vertices out along their normals by one common distance (at most a
    /// tenth of the resolution, and only if no tet gets worse than the stencils' angle range)
    /// so the mesh encloses the input's volume: its boundary faces are chords of the surface,
    /// so a curved body would otherwise lose about `0.1·h²/R` of its volume per unit depth.
    /// Off, boundary vertices lie exactly on the surface.
    pub fit_volume: bool,
}

impl Default for MesherOptions {
    fn default() -> Self {
        MesherOptions { fit_volume: true }
    }
}

/// [`mesh_interior`] with options.
pub fn mesh_interior_with(
    surface: &SurfaceMesh,
    resolution: f64,
    options: &MesherOptions,
) -> Result<MesherOutput, GeometryError> {
    let start = Instant::now();
    if !(resolution.is_finite() && resolution > 0.0) {
        return Err(GeometryError::NonPositiveSize { what: "resolution".into(), value: resolution });
    }
    check_surface(surface)?;
    let mut warnings = Vec::new();
    let input_volume = surface.volume();
    if let Some(w) = diagnostics::open_edges(surface) {
        warnings.push(w);
    }
    // An inside-out surface has winding number −1 inside: mesh it all the same.
    let sign = if input_volume < 0.0 {
        warnings.push(format!(
            "the surface encloses a negative volume ({input_volume:.3e} m³): its triangles are wound \
             inward; meshed as if they were wound outward"
        ));
        -1.0
    } else {
        1.0
    };
    let tree = SurfaceDistance::new(surface);
    let (lo, hi) = bounds(&surface.vertices);
    let lattice = lattice::Lattice::covering(&lo, &hi, resolution)?;
    let stuffed = stuffing::stuff(&tree, sign, &lattice);
    if stuffed.mesh.tets.is_empty() {
        return Err(GeometryError::Unmeshable {
            reason: format!(
                "no point of the lattice of spacing {resolution} m is inside the surface (it is smaller \
                 than the resolution, or not closed); use a finer resolution"
            ),
        });
    }

    warnings.extend(diagnostics::thin_parts(surface, &tree, resolution));
    warnings.extend(diagnostics::lost_components(surface, &stuffed.triangle, resolution));
    let (component, count) = diagnostics::components(surface);
    let solids = (0..count)
        .filter(|&c| {
            let v: f64 = (0..surface.triangles.len())
                .filter(|&t| component[t] == c)
                .map(|t| {
                    let [a, b, d] = surface.triangle(t);
                    a.coords.dot(&b.coords.cross(&d.coords))
                })
                .sum();
            v * sign > 0.0
        })
        .count();
    let pieces = diagnostics::piece_count(&stuffed.mesh);
    if pieces > solids {
        warnings.push(format!(
            "the mesh has {pieces} separate pieces but the input has {solids} solid part(s): a part \
             thinner than the resolution {resolution} m broke apart; use a finer resolution"
        ));
    }
    if stuffed.inverted > 0 {
        warnings.push(format!("{} degenerate tets were left out of the mesh", stuffed.inverted));
    }
    if stuffed.inexact_cuts > 0 {
        warnings.push(format!(
            "{} boundary vertices could not be placed exactly on the surface (it is open or \
             self-intersecting there)",
            stuffed.inexact_cuts
        ));
    }

    let mut mesh = stuffed.mesh;
    let mut offset = 0.0;
    if options.fit_volume {
        let angles = stuffing::QUALITY_BOUNDS;
        offset =
            volume_fit::fit_volume(&mut mesh, &stuffed.on_surface, input_volume.abs(), resolution, angles);
    }
    let (mut min_angle, mut max_angle) = (f64::INFINITY, f64::NEG_INFINITY);
    for t in 0..mesh.tets.len() {
        let (lo, hi) = dihedral_range(&mesh.tet(t));
        min_angle = min_angle.min(lo);
        max_angle = max_angle.max(hi);
    }
    let volume = mesh.volume();
    let stats = MesherStats {
        tets: mesh.tets.len(),
        vertices: mesh.vertices.len(),
        min_dihedral_deg: min_angle.to_degrees(),
        max_dihedral_deg: max_angle.to_degrees(),
        volume,
        input_volume: input_volume.abs(),
        volume_ratio: volume / input_volume.abs(),
        boundary_offset: offset,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok(MesherOutput { mesh, on_surface: stuffed.on_surface, warnings, stats })
}

/// Rejects a surface with no triangles, out-of-range indices or non-finite coordinates.
fn check_surface(surface: &SurfaceMesh) -> Result<(), GeometryError> {
    let bad = |reason: String| Err(GeometryError::Unmeshable { reason });
    if surface.triangles.is_empty() {
        return bad("the surface has no triangles".into());
    }
    let n = surface.vertices.len();
    if let Some(t) = surface.triangles.iter().position(|t| t.iter().any(|&v| v as usize >= n)) {
        return bad(format!("triangle {t} refers to a vertex beyond the {n} vertices"));
    }
    if let Some(v) = surface.vertices.iter().position(|p| !p.iter().all(|x| x.is_finite())) {
        return bad(format!("vertex {v} has a non-finite coordinate"));
    }
    Ok(())
}

fn bounds(points: &[Point3]) -> (Point3, Point3) {
    let mut lo = Point3::from([f64::INFINITY; 3]);
    let mut hi = Point3::from([f64::NEG_INFINITY; 3]);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    if lo.x > hi.x { (Point3::origin(), Point3::origin()) } else { (lo, hi) }
}
