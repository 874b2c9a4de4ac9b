//! What a body brings to the PEG model: a half space, a convex polygon (planar scenes), a
//! convex polyhedron with its vertices, edges and faces (boxes and `convex` hulls exactly, the
//! other convex primitives tessellated at `contact.resolution`), or a compound of them.

use crate::geometry::polytope::Polytope;
use crate::geometry::{GeometryError, Shape, mesher};
use crate::math::{Isometry3, Point3, Vector3};

/// A body's PEG geometry in its own frame.
#[derive(Clone, Debug)]
pub enum PegShape {
    /// The half space z ≤ 0 (in a planar scene: the half plane below the body frame's x axis).
    HalfSpace,
    /// A convex polygon in the body frame's x–z plane, counter-clockwise (planar scenes).
    Polygon(Vec<[f64; 2]>),
    /// A convex polyhedron.
    Polytope(Polyhedron),
    /// Convex parts at poses in the body frame.
    Compound(Vec<(Isometry3, PegShape)>),
}

/// An edge of a polyhedron: its vertices (lower index first) and the faces on either side
/// (`faces[0]` runs the edge from `v[0]` to `v[1]` counter-clockwise, `faces[1]` the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub v: [u32; 2],
    pub faces: [u32; 2],
}

impl Edge {
    /// The end that is not vertex `v` (one of the edge's ends).
    pub fn other_end(&self, v: usize) -> usize {
        if self.v[0] as usize == v { self.v[1] as usize } else { self.v[0] as usize }
    }
}

/// A closed convex polyhedron with its features (coplanar triangles merged into one face).
#[derive(Clone, Debug)]
pub struct Polyhedron {
    pub vertices: Vec<Point3>,
    /// Each face's vertices, counter-clockwise seen from outside.
    pub faces: Vec<Vec<u32>>,
    /// Each face's outward unit normal.
    pub normals: Vec<Vector3>,
    pub edges: Vec<Edge>,
    /// The edges at each vertex.
    pub vertex_edges: Vec<Vec<u32>>,
}

/// Why a shape cannot take part in the PEG model.
#[derive(Debug, thiserror::Error)]
pub enum PegShapeError {
    #[error(
        "a {shape} needs `contact.resolution` under kind = \"peg\" (it is tessellated into a convex polytope at that edge length); add e.g. resolution = 0.01"
    )]
    NeedsResolution { shape: &'static str },
    #[error("a {shape} cannot take part in kind = \"peg\": {hint}")]
    Unsupported { shape: &'static str, hint: &'static str },
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// The shape as the overlap metric measures it (the 6D model's exact intersection).
    #[error(transparent)]
    Overlap(#[from] crate::geometry::polytope::OverlapShapeError),
}

impl PegShape {
    /// The PEG geometry of `shape` (`planar`: boxes as their x–z section).
    pub fn new(shape: &Shape, resolution: Option<f64>, planar: bool) -> Result<PegShape, PegShapeError> {
        match shape {
            Shape::HalfSpace => Ok(PegShape::HalfSpace),
            Shape::Polygon { vertices } => Ok(PegShape::Polygon(vertices.clone())),
            Shape::Box { size } if planar => {
                let (a, c) = (size[0] / 2.0, size[2] / 2.0);
                Ok(PegShape::Polygon(vec![[-a, -c], [a, -c], [a, c], [-a, c]]))
            }
            Shape::Box { .. } | Shape::Convex { .. } => Ok(PegShape::Polytope(Polyhedron::from_polytope(
                &Polytope::from_mesh(&mesher::surface_mesh(shape, None)?),
            ))),
            Shape::Compound { parts } => {
                let mut out = Vec::with_capacity(parts.len());
                for part in parts {
                    out.push((part.pose, PegShape::new(&part.shape, resolution, planar)?));
                }
                Ok(PegShape::Compound(out))
            }
            Shape::Mesh { .. } => Err(PegShapeError::Unsupported {
                shape: "mesh",
                hint: "PEG takes convex polytopes; split the mesh into convex parts (type = \"compound\") or use its hull (type = \"convex\")",
            }),
            other => {
                let Some(r) = resolution else {
                    return Err(PegShapeError::NeedsResolution { shape: other.kind() });
                };
                let polytope = Polytope::from_mesh(&mesher::surface_mesh(other, Some(r))?);
                Ok(PegShape::Polytope(Polyhedron::from_polytope(&polytope)))
            }
        }
    }

    /// The largest distance of the shape from its frame's origin (∞ for a half space).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            PegShape::HalfSpace => f64::INFINITY,
            PegShape::Polygon(v) => v.iter().map(|[x, z]| x.hypot(*z)).fold(0.0, f64::max),
            PegShape::Polytope(p) => p.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f64::max),
            PegShape::Compound(parts) => parts
                .iter()
                .map(|(pose, p)| pose.translation.vector.norm() + p.bounding_radius())
                .fold(0.0, f64::max),
        }
    }
}

impl Polyhedron {
    /// The features of a convex polytope (faces already merged and ordered).
    pub fn from_polytope(p: &Polytope) -> Polyhedron {
        let vertices = p.vertices.clone();
        // Drop vertices no face uses (a fan's centre).
        let used: Vec<bool> =
            (0..vertices.len()).map(|v| p.faces.iter().any(|f| f.contains(&(v as u32)))).collect();
        let mut remap = vec![u32::MAX; vertices.len()];
        let mut kept = Vec::new();
        for (v, &u) in used.iter().enumerate() {
            if u {
                remap[v] = kept.len() as u32;
                kept.push(vertices[v]);
            }
        }
        let faces: Vec<Vec<u32>> =
            p.faces.iter().map(|f| f.iter().map(|&v| remap[v as usize]).collect()).collect();
        let normals = p.planes.iter().map(|pl| pl.normal).collect();
        let mut edges: Vec<Edge> = Vec::new();
        let mut index = std::collections::BTreeMap::new();
        for (fi, f) in faces.iter().enumerate() {
            for k in 0..f.len() {
                let (a, b) = (f[k], f[(k + 1) % f.len()]);
                let key = (a.min(b), a.max(b));
                let side = usize::from(a > b);
                let e = *index.entry(key).or_insert_with(|| {
                    edges.push(Edge { v: [key.0, key.1], faces: [u32::MAX; 2] });
                    edges.len() - 1
                });
                edges[e].faces[side] = fi as u32;
            }
        }
        let mut vertex_edges = vec![Vec::new(); kept.len()];
        for (e, edge) in edges.iter().enumerate() {
            for v in edge.v {
                vertex_edges[v as usize].push(e as u32);
            }
        }
        Polyhedron { vertices: kept, faces, normals, edges, vertex_edges }
    }
}
