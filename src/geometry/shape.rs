use super::{SurfaceMesh, TetMesh};
use crate::math::{Isometry3, Point3};
use std::path::PathBuf;

/// A body's shape, in its body frame. Cylinders and capsules have their axis along z and are
/// centred on the origin; boxes are centred on the origin; a half space is `z ≤ 0`.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Sphere {
        radius: f64,
    },
    Box {
        size: [f64; 3],
    },
    /// `length` is the length of the flat-ended cylinder along z.
    Cylinder {
        radius: f64,
        length: f64,
    },
    /// `length` is the length of the cylindrical part (the segment between the two
    /// hemisphere centres); the total length is `length + 2 radius`.
    Capsule {
        radius: f64,
        length: f64,
    },
    Ellipsoid {
        radii: [f64; 3],
    },
    /// A cone or frustum along z: base disc of `radius` at z = 0, top disc of `top_radius`
    /// (0: a pointed cone) at z = `length`.
    Cone {
        radius: f64,
        top_radius: f64,
        length: f64,
    },
    /// A box whose two ends along x are half-cylinders (Modia3D's beam): `length` between the
    /// two half-cylinder axes (at x = ±length/2), `width` their diameter (the y extent),
    /// `thickness` the z extent; centred on the origin.
    Beam {
        length: f64,
        width: f64,
        thickness: f64,
    },
    /// The solid `z ≤ 0` of the body frame.
    HalfSpace,
    /// The convex hull of the vertices of an OBJ/STL file (vertices in the body frame).
    Convex {
        file: PathBuf,
        points: Vec<Point3>,
    },
    /// A general closed mesh from a file: a triangle surface (OBJ, STL, PLY) or a tet mesh
    /// (legacy VTK, Gmsh .msh), with how its pressure field's core is chosen. `notes` says what
    /// loading repaired.
    Mesh {
        file: PathBuf,
        data: MeshData,
        core: MeshCore,
        notes: Vec<String>,
    },
    /// A rigid union of convex parts that touch but do not overlap, each placed in the body
    /// frame (a non-convex polytope as convex pieces; the 6D and PEG models).
    Compound {
        parts: Vec<CompoundPart>,
    },
    /// A convex polygon in the body frame's x–z plane (planar PEG scenes): vertices [x, z]
    /// counter-clockwise seen with x to the right and z up. As a solid it is the prism of unit
    /// thickness |y| ≤ ½.
    Polygon {
        vertices: Vec<[f64; 2]>,
    },
}

/// One part of a [`Shape::Compound`]: a convex shape at a pose in the body frame.
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundPart {
    pub shape: Shape,
    pub pose: Isometry3,
}

/// The contents of a mesh file.
#[derive(Clone, Debug)]
pub enum MeshData {
    /// A closed, outward-oriented surface (validated).
    Surface(SurfaceMesh),
    /// A tet mesh, with the extent ε at its vertices if the file had one.
    Tets { mesh: TetMesh, extent: Option<Vec<f64>> },
}

impl PartialEq for MeshData {
    /// Meshes compare by their sizes only (they are large; scenes compare by file).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (MeshData::Surface(a), MeshData::Surface(b)) => a.triangles == b.triangles,
            (MeshData::Tets { mesh: a, .. }, MeshData::Tets { mesh: b, .. }) => a.tets == b.tets,
            _ => false,
        }
    }
}

impl MeshData {
    /// The closed surface: the mesh itself, or the boundary of the tets.
    pub fn surface(&self) -> SurfaceMesh {
        match self {
            MeshData::Surface(s) => s.clone(),
            MeshData::Tets { mesh, .. } => mesh.boundary(),
        }
    }
}

/// Where a mesh body's Laplace field is 1 (its "core"); it is 0 on the surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MeshCore {
    /// An approximation of the medial axis (the default).
    MedialAxis,
    /// Every point at least this deep (m): a compliant skin over a rigid core.
    SkinDepth(f64),
}

impl Shape {
    /// A short lower-case name for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Capsule { .. } => "capsule",
            Shape::Cone { .. } => "cone",
            Shape::Beam { .. } => "beam",
            Shape::Ellipsoid { .. } => "ellipsoid",
            Shape::HalfSpace => "halfspace",
            Shape::Convex { .. } => "convex",
            Shape::Mesh { .. } => "mesh",
            Shape::Compound { .. } => "compound",
            Shape::Polygon { .. } => "polygon",
        }
    }
}

impl Shape {
    /// Points whose convex hull is the shape, with neighbouring points at most `spacing` apart
    /// along its curved edges: cones, beams and polygons (their unit-thickness prisms) are
    /// meshed as such hulls.
    pub fn hull_points(&self, spacing: f64) -> Option<Vec<Point3>> {
        use std::f64::consts::{PI, TAU};
        let ring = |r: f64, z: f64, from: f64, to: f64, cx: f64, out: &mut Vec<Point3>| {
            let n = (((to - from) * r / spacing).ceil() as usize).clamp(3, 4096);
            for k in 0..=n {
                let a = from + (to - from) * k as f64 / n as f64;
                out.push(Point3::new(cx + r * a.cos(), r * a.sin(), z));
            }
        };
        let mut pts = Vec::new();
        match self {
            Shape::Polygon { vertices } => {
                for y in [-0.5, 0.5] {
                    pts.extend(vertices.iter().map(|&[x, z]| Point3::new(x, y, z)));
                }
            }
            &Shape::Cone { radius, top_radius, length } => {
                ring(radius, 0.0, 0.0, TAU, 0.0, &mut pts);
                if top_radius > 0.0 {
                    ring(top_radius, length, 0.0, TAU, 0.0, &mut pts);
                } else {
                    pts.push(Point3::new(0.0, 0.0, length));
                }
            }
            &Shape::Beam { length, width, thickness } => {
                for z in [-thickness / 2.0, thickness / 2.0] {
                    ring(width / 2.0, z, -PI / 2.0, PI / 2.0, length / 2.0, &mut pts);
                    ring(width / 2.0, z, PI / 2.0, 3.0 * PI / 2.0, -length / 2.0, &mut pts);
                }
            }
            _ => return None,
        }
        Some(pts)
    }
}

impl Shape {
    /// The largest distance of the shape from its frame's origin (m); `None` for a half space
    /// (unbounded) and a polygon (a planar lamina: no extent across its plane).
    pub fn bounding_radius(&self) -> Option<f64> {
        let farthest = |points: &[Point3]| points.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
        Some(match self {
            Shape::Sphere { radius } => *radius,
            Shape::Box { size } => 0.5 * (size[0] * size[0] + size[1] * size[1] + size[2] * size[2]).sqrt(),
            Shape::Cylinder { radius, length } => radius.hypot(0.5 * length),
            Shape::Capsule { radius, length } => radius + 0.5 * length,
            Shape::Ellipsoid { radii } => radii.iter().copied().fold(0.0, f64::max),
            Shape::Cone { radius, top_radius, length } => radius.max(*top_radius).hypot(*length),
            Shape::Beam { length, width, thickness } => {
                (0.5 * (length + width)).hypot(0.5 * width).hypot(0.5 * thickness)
            }
            Shape::Convex { points, .. } => farthest(points),
            Shape::Mesh { data, .. } => match data {
                MeshData::Surface(mesh) => farthest(&mesh.vertices),
                MeshData::Tets { mesh, .. } => farthest(&mesh.vertices),
            },
            Shape::Compound { parts } => {
                let mut radius: f64 = 0.0;
                for part in parts {
                    radius = radius.max(part.shape.bounding_radius()? + part.pose.translation.vector.norm());
                }
                radius
            }
            Shape::HalfSpace | Shape::Polygon { .. } => return None,
        })
    }
}
