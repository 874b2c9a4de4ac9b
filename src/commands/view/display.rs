//! What the viewer draws of each body: the contact model's own mesh where it has one (the
//! pressure field's compliant tets — their boundary — and rigid surfaces), else a surface mesh
//! of the shape for display; half spaces are drawn as a finite plane, bodies without a shape not
//! at all.

use crate::contact::model::{BodyMesh, ContactModel};
use crate::geometry::mesher::surface_mesh;
use crate::geometry::{GeometryError, Shape, SurfaceMesh, TetMesh};
use crate::math::Point3;
use crate::scene::BodySpec;

/// A body as drawn, in its body frame.
pub enum Display {
    Mesh(SurfaceMesh),
    /// The half space z ≤ 0: its plane z = 0.
    Plane,
    /// A body without a shape: nothing to draw (its pose is still in the page).
    Nothing,
}

/// The display of body `i` of `spec`.
pub fn display(model: &ContactModel, i: usize, spec: &BodySpec) -> Result<Display, GeometryError> {
    let Some(shape) = &spec.shape else { return Ok(Display::Nothing) };
    let mesh = match model.body_mesh(i) {
        Some(BodyMesh::Tets { vertices, tets, .. }) => {
            TetMesh { vertices: vertices.to_vec(), tets: tets.to_vec() }.boundary()
        }
        Some(BodyMesh::Triangles { vertices, triangles }) => {
            SurfaceMesh { vertices: vertices.to_vec(), triangles: triangles.to_vec() }
        }
        None if matches!(shape, Shape::HalfSpace) => return Ok(Display::Plane),
        None => {
            let spacing = spec.contact.resolution.unwrap_or_else(|| curve_spacing(shape));
            let mut mesh = surface_mesh(shape, Some(spacing))?;
            if let Shape::Polygon { vertices } = shape {
                thin_polygon(&mut mesh, vertices);
            }
            mesh
        }
    };
    // An offset shape is drawn where it is in its body's frame.
    let mut mesh = mesh;
    if spec.shape_pose != crate::math::Isometry3::identity() {
        mesh.vertices.iter_mut().for_each(|v| *v = spec.shape_pose * *v);
    }
    Ok(Display::Mesh(without_unused_vertices(mesh)))
}

/// Edge length for displaying a curved shape that has no `contact.resolution` (Hertz bodies):
/// a quarter of its smallest radius (an icosphere of some 300 triangles).
fn curve_spacing(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere { radius }
        | Shape::Cylinder { radius, .. }
        | Shape::Capsule { radius, .. }
        | Shape::Cone { radius, .. } => radius / 4.0,
        Shape::Ellipsoid { radii } => radii.iter().copied().fold(f64::INFINITY, f64::min) / 4.0,
        Shape::Beam { width, .. } => width / 8.0,
        Shape::Compound { parts } => {
            parts.iter().map(|p| curve_spacing(&p.shape)).fold(f64::INFINITY, f64::min)
        }
        // Flat-faced shapes are meshed exactly; the spacing is not used.
        _ => 1.0,
    }
}

/// A planar body is the prism |y| ≤ ½ of its polygon (1 m thick): drawn that thick, small
/// polygons would look like long bars, so the display is a slab a fifth of the polygon's size.
fn thin_polygon(mesh: &mut SurfaceMesh, polygon: &[[f64; 2]]) {
    let extent = |k: usize| {
        let (lo, hi) = polygon
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v[k]), hi.max(v[k])));
        hi - lo
    };
    let depth = (0.2 * extent(0).max(extent(1))).min(1.0);
    for v in &mut mesh.vertices {
        v.y *= depth;
    }
}

/// The mesh with only the vertices its triangles use (a tet mesh's boundary shares all of the
/// tets' vertices), renumbered in order of first use.
fn without_unused_vertices(mesh: SurfaceMesh) -> SurfaceMesh {
    let mut new_index = vec![u32::MAX; mesh.vertices.len()];
    let mut vertices: Vec<Point3> = Vec::new();
    let triangles = mesh
        .triangles
        .iter()
        .map(|t| {
            t.map(|v| {
                let slot = &mut new_index[v as usize];
                if *slot == u32::MAX {
                    *slot = vertices.len() as u32;
                    vertices.push(mesh.vertices[v as usize]);
                }
                *slot
            })
        })
        .collect();
    SurfaceMesh { vertices, triangles }
}
