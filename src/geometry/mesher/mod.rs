//! Meshers: shapes → surface meshes (rigid bodies) and layered tet meshes (compliant bodies).
//!
//! A compliant body's tet mesh is built from "scaled shells": a closed surface triangulation
//! with edges ≤ resolution, a core point `c(v)` on the shape's medial core (or centre) for every
//! surface vertex `v`, and shells `c(v) + s·(v − c(v))` for `1 = s_0 > … > s_K = 0` (see
//! [`ShellLayout`]). Prisms between shells are split into tets; coincident core points are
//! merged. For each primitive the pressure extent `ε = 1 − s` equals the analytic extent at
//! every vertex (the formulas are in the primitive meshers' docs).
//!
//! Curved shapes (sphere, ellipsoid, cylinder, capsule) are meshed to enclose exactly their
//! analytic volume: a polyhedron with its vertices on a curved surface is inscribed and would
//! make pressure field forces low by about `h²/(4·R·d)` (edges `h`, penetration `d`). After
//! meshing, the vertices are pushed away from the core by a shape-preserving map
//! `c(v) + k·(v − c(v))` (sphere, ellipsoid: about the centre; cylinder: x and y only, the flat
//! caps stay exact; capsule: about the axis segment), with `k` solving `V_mesh(k) = V_exact`.
//! The surface vertices then lie slightly outside the exact surface, by `(k − 1)·R`, of order
//! `h²/(8R)` and below it. Rigid and compliant meshes of one shape and resolution share these
//! vertices, and a compliant mesh's shells move with them, so its field is the analytic field
//! of the corrected shape (the same shape with its radii, or semi-axes, scaled by `k`).
//!
//! Boxes and convex meshes are flat-faced: their meshes are exact and coarse (a box's 12
//! triangles, a hull's own triangles) at any resolution; resolution only refines curved
//! surfaces.

mod box_mesh;
mod capsule;
mod convex;
mod cylinder;
mod ellipsoid;
mod icosphere;
mod layers;
mod limits;
mod revolution;
mod shell_layout;
mod sphere;
mod volume;

pub use shell_layout::ShellLayout;

use super::{GeometryError, Shape, SurfaceMesh, TetMesh};

/// A tet mesh made of shells between the shape's surface and its core (medial axis or centre).
/// `shell[v]` is 1 for a vertex on the surface and 0 on the core; vertex `v` lies at
/// `core(v) + shell[v] · (surface(v) − core(v))`.
#[derive(Clone, Debug, Default)]
pub struct LayeredTetMesh {
    /// The tets, every one positively oriented; its boundary is the surface triangulation.
    pub mesh: TetMesh,
    /// The shell parameter `s` of each vertex; the pressure extent is `ε = 1 − s`.
    pub shell: Vec<f64>,
}

/// The closed surface mesh of a shape, for a rigid body. Boxes and convex shapes are exact and
/// coarse (`resolution` is ignored); curved shapes need `resolution`, the longest edge (m), and
/// enclose exactly their analytic volume (their vertices lie slightly outside the exact
/// surface, by less than about `h²/(8R)`; see the module docs).
pub fn surface_mesh(shape: &Shape, resolution: Option<f64>) -> Result<SurfaceMesh, GeometryError> {
    let needed = || resolution.ok_or_else(|| GeometryError::MissingResolution { shape: shape.kind().into() });
    match shape {
        Shape::Sphere { radius } => sphere::surface(*radius, needed()?),
        Shape::Box { size } => box_mesh::coarse(*size),
        Shape::Cylinder { radius, length } => cylinder::surface(*radius, *length, needed()?),
        Shape::Capsule { radius, length } => capsule::surface(*radius, *length, needed()?),
        Shape::Ellipsoid { radii } => ellipsoid::surface(*radii, needed()?),
        Shape::HalfSpace => Err(no_mesh()),
        Shape::Convex { file, points } => convex::surface(file, points),
        Shape::Cone { .. } | Shape::Beam { .. } => {
            let pts = shape.hull_points(needed()?).unwrap_or_default();
            convex::surface(std::path::Path::new(shape.kind()), &pts)
        }
        Shape::Polygon { .. } => {
            convex::surface(std::path::Path::new("polygon"), &shape.hull_points(1.0).unwrap_or_default())
        }
        // A mesh file is its own surface (a tet mesh: its boundary).
        Shape::Mesh { data, .. } => Ok(data.surface()),
        // The parts' surfaces side by side (for pictures: not one closed surface).
        Shape::Compound { parts } => {
            let mut out = SurfaceMesh { vertices: Vec::new(), triangles: Vec::new() };
            for part in parts {
                let m = surface_mesh(&part.shape, resolution)?;
                let base = out.vertices.len() as u32;
                out.vertices.extend(m.vertices.iter().map(|p| part.pose * p));
                out.triangles.extend(m.triangles.iter().map(|t| t.map(|v| v + base)));
            }
            Ok(out)
        }
    }
}

/// The layered tet mesh of a shape, for a compliant body, with the default (cone) layout.
///
/// Boxes and convex meshes are exact at any resolution; resolution only refines curved
/// surfaces. A box is its 12 surface triangles joined to its core (at most 36 tets), a convex
/// mesh its hull's triangles joined to the centroid: their fields are linear on those tets, so
/// finer meshes would cost more and be no more accurate. `resolution` must still be a positive
/// finite number. Curved shapes get surface edges ≤ ~`resolution` and enclose exactly their
/// analytic volume (see the module docs).
pub fn layered_tet_mesh(shape: &Shape, resolution: f64) -> Result<LayeredTetMesh, GeometryError> {
    layered_tet_mesh_with(shape, resolution, &ShellLayout::default())
}

/// The layered tet mesh of a shape with shells placed by `layout`: curved shapes with edges
/// ≤ ~`resolution` on their (volume-corrected) surface; boxes and convex meshes over their
/// coarse, exact surface whatever the resolution (which a graded layout still uses for its
/// first layer's thickness).
pub fn layered_tet_mesh_with(
    shape: &Shape,
    resolution: f64,
    layout: &ShellLayout,
) -> Result<LayeredTetMesh, GeometryError> {
    limits::positive("resolution", resolution)?;
    let cored = match shape {
        Shape::Sphere { radius } => sphere::cored(*radius, resolution)?,
        Shape::Box { size } => box_mesh::cored(*size, resolution)?,
        Shape::Cylinder { radius, length } => cylinder::cored(*radius, *length, resolution)?,
        Shape::Capsule { radius, length } => capsule::cored(*radius, *length, resolution)?,
        Shape::Ellipsoid { radii } => ellipsoid::cored(*radii, resolution)?,
        Shape::HalfSpace => return Err(no_mesh()),
        Shape::Convex { file, points } => convex::cored(file, points, resolution)?,
        Shape::Cone { .. } | Shape::Beam { .. } | Shape::Polygon { .. } => {
            let pts = shape.hull_points(resolution).unwrap_or_default();
            convex::cored(std::path::Path::new(shape.kind()), &pts, resolution)?
        }
        Shape::Compound { .. } => {
            return Err(GeometryError::NoMesh {
                shape: "compound".into(),
                hint: "a compound body is rigid: give it no hydroelastic modulus".into(),
            });
        }
        Shape::Mesh { .. } => {
            return Err(GeometryError::NoMesh {
                shape: "mesh".into(),
                hint: "a general mesh has no core to build shells towards: mesh its interior with \
                       tet_mesher::mesh_interior and give it a Laplace field"
                    .into(),
            });
        }
    };
    let shells = layout.shells(resolution, cored.depth)?;
    let tets = 3.0 * cored.surface.triangles.len() as f64 * (shells.len() - 1) as f64;
    limits::budget(shape.kind(), resolution, tets)?;
    Ok(layers::build(&cored, &shells))
}

fn no_mesh() -> GeometryError {
    GeometryError::NoMesh {
        shape: "half space".into(),
        hint: "its contacts are computed from its plane z = 0, not from a mesh".into(),
    }
}
