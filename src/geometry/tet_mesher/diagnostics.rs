//! Checks that turn into warnings: open surfaces, parts thinner than the resolution, gaps
//! narrower than it, and surface components that left no trace in the mesh.

use super::surface_distance::SurfaceDistance;
use crate::geometry::SurfaceMesh;
use crate::math::{DisjointSets, Point3};
use std::collections::HashMap;

/// Edges used by other than two triangles, as a warning.
pub(crate) fn open_edges(surface: &SurfaceMesh) -> Option<String> {
    let mut uses: HashMap<(u32, u32), i64> = HashMap::new();
    for t in &surface.triangles {
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            // +1 for a→b, −1 for b→a: a closed, consistently oriented surface sums to 0.
            *uses.entry((a.min(b), a.max(b))).or_default() += if a < b { 1 } else { -1 };
        }
    }
    let bad = uses.values().filter(|&&u| u != 0).count();
    (bad > 0).then(|| {
        format!(
            "the surface is not closed and consistently oriented ({bad} edges are not shared by exactly one \
             opposite pair of triangles); inside and outside were judged by the generalized winding number"
        )
    })
}

/// Triangles whose inward (or outward) normal ray meets the surface again within `resolution`:
/// material (or a gap) thinner than the resolution, as a warning.
pub(crate) fn thin_parts(surface: &SurfaceMesh, tree: &SurfaceDistance, resolution: f64) -> Vec<String> {
    let total_area = surface.area();
    let mut warnings = Vec::new();
    for (inward, what, consequence) in [
        (true, "material thinner", "it may vanish or be meshed coarsely"),
        (false, "gaps narrower", "they may be filled"),
    ] {
        let mut count = 0;
        let mut area = 0.0;
        let mut thinnest: Option<(f64, Point3)> = None;
        for t in 0..surface.triangles.len() {
            if surface.triangles[t].iter().any(|&v| v as usize >= surface.vertices.len()) {
                continue;
            }
            let [a, b, c] = surface.triangle(t);
            let n = (b - a).cross(&(c - a));
            let len = n.norm();
            if !(len > 0.0 && len.is_finite()) {
                continue;
            }
            let dir = if inward { -n / len } else { n / len };
            let start = Point3::from((a.coords + b.coords + c.coords) / 3.0);
            let end = start + dir * resolution;
            // Ignore hits at the start (the triangle's own neighbours at round-off distance).
            if let Some((s, _)) = tree.first_hit(&start, &end, Some(t))
                && s * resolution > 1e-9 * resolution
            {
                let width = s * resolution;
                count += 1;
                area += 0.5 * len;
                if thinnest.is_none_or(|(w, _)| width < w) {
                    thinnest = Some((width, start));
                }
            }
        }
        if let Some((width, p)) = thinnest {
            warnings.push(format!(
                "{count} of {} surface triangles ({:.1}% of the area) bound {what} than the resolution \
                 {resolution} m (narrowest {width:.3e} m near ({:.4}, {:.4}, {:.4})); {consequence}: use a \
                 resolution below {width:.3e} m to resolve them",
                surface.triangles.len(),
                100.0 * area / total_area.max(f64::MIN_POSITIVE),
                p.x,
                p.y,
                p.z
            ));
        }
    }
    warnings
}

/// The connected components of the surface (triangles sharing vertices): a component index per
/// triangle and the number of components.
pub(crate) fn components(surface: &SurfaceMesh) -> (Vec<usize>, usize) {
    let n = surface.vertices.len();
    let mut parent = DisjointSets::new(n);
    for t in &surface.triangles {
        let ids = t.map(|v| v as usize);
        if ids.iter().any(|&v| v >= n) {
            continue;
        }
        for &v in &ids[1..] {
            parent.join(ids[0], v);
        }
    }
    let mut label: HashMap<usize, usize> = HashMap::new();
    let mut of_triangle = Vec::with_capacity(surface.triangles.len());
    for t in &surface.triangles {
        let v = t[0] as usize;
        let r = if v < n { parent.root(v) } else { usize::MAX };
        let next = label.len();
        of_triangle.push(*label.entry(r).or_insert(next));
    }
    let count = label.len();
    (of_triangle, count)
}

/// Warnings for surface components that no boundary vertex of the mesh lies on: they vanished
/// (a solid part) or were filled (a cavity).
pub(crate) fn lost_components(
    surface: &SurfaceMesh,
    touched: &[Option<usize>],
    resolution: f64,
) -> Vec<String> {
    let (component, count) = components(surface);
    let mut seen = vec![false; count];
    for &t in touched.iter().flatten() {
        if let Some(&c) = component.get(t) {
            seen[c] = true;
        }
    }
    let mut warnings = Vec::new();
    for (c, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        let mut volume = 0.0;
        let mut triangles = 0;
        let mut lo = Point3::from([f64::INFINITY; 3]);
        let mut hi = Point3::from([f64::NEG_INFINITY; 3]);
        for t in (0..surface.triangles.len()).filter(|&t| component[t] == c) {
            if surface.triangles[t].iter().any(|&v| v as usize >= surface.vertices.len()) {
                continue;
            }
            let [a, b, d] = surface.triangle(t);
            volume += a.coords.dot(&b.coords.cross(&d.coords)) / 6.0;
            triangles += 1;
            for p in [a, b, d] {
                lo = lo.inf(&p);
                hi = hi.sup(&p);
            }
        }
        if triangles == 0 {
            continue;
        }
        let kind = if volume >= 0.0 { "solid part vanished" } else { "cavity was filled" };
        warnings.push(format!(
            "a {kind}: surface component {c} ({triangles} triangles, volume {:.3e} m³, {:.3e} × {:.3e} × \
             {:.3e} m) has no mesh vertex on it; it is too small or thin for resolution {resolution} m",
            volume.abs(),
            hi.x - lo.x,
            hi.y - lo.y,
            hi.z - lo.z
        ));
    }
    warnings
}

/// The number of pieces of a tet mesh (tets sharing vertices).
pub(crate) fn piece_count(mesh: &crate::geometry::TetMesh) -> usize {
    let mut parent = DisjointSets::new(mesh.vertices.len());
    for t in &mesh.tets {
        for &v in &t[1..] {
            parent.join(t[0] as usize, v as usize);
        }
    }
    let mut used = vec![false; mesh.vertices.len()];
    for &v in mesh.tets.iter().flatten() {
        used[v as usize] = true;
    }
    (0..mesh.vertices.len()).filter(|&v| used[v] && parent.root(v) == v).count()
}
