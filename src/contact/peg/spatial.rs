//! The geometry a PEG body brings, placed at a pose: a planar polygon's world vertices, a
//! polytope's world vertices and planes.

use super::shape::{PegShape, Polyhedron};
use crate::math::{Isometry3, Point3, Vector3};

/// A convex polygon at a pose, in world (x, z) coordinates, counter-clockwise.
#[derive(Clone, Debug)]
pub struct PlacedPolygon {
    pub vertices: Vec<[f64; 2]>,
}

impl PlacedPolygon {
    pub fn new(vertices: &[[f64; 2]], pose: &Isometry3) -> Self {
        let vertices = vertices
            .iter()
            .map(|&[x, z]| {
                let p = pose * Point3::new(x, 0.0, z);
                [p.x, p.z]
            })
            .collect();
        PlacedPolygon { vertices }
    }

    /// Vertex `k` (indices wrap).
    pub fn vertex(&self, k: usize) -> [f64; 2] {
        self.vertices[k % self.vertices.len()]
    }

    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }
}

/// A polytope at a pose: world vertices and face planes (outward unit normal, offset).
#[derive(Clone, Debug)]
pub struct PlacedPolytope<'a> {
    pub shape: &'a Polyhedron,
    pub vertices: Vec<Point3>,
    pub normals: Vec<Vector3>,
    pub offsets: Vec<f64>,
}

impl<'a> PlacedPolytope<'a> {
    pub fn new(shape: &'a Polyhedron, pose: &Isometry3) -> Self {
        let vertices: Vec<Point3> = shape.vertices.iter().map(|p| pose * p).collect();
        let normals: Vec<Vector3> = shape.normals.iter().map(|n| pose.rotation * n).collect();
        let offsets =
            shape.faces.iter().zip(&normals).map(|(f, n)| n.dot(&vertices[f[0] as usize].coords)).collect();
        PlacedPolytope { shape, vertices, normals, offsets }
    }
}

/// The convex pieces of a body at its pose: (part pose in the world, part shape).
pub fn pieces<'a>(shape: &'a PegShape, pose: &Isometry3) -> Vec<(Isometry3, &'a PegShape)> {
    match shape {
        PegShape::Compound(parts) => parts.iter().map(|(x, p)| (pose * x, p)).collect(),
        other => vec![(*pose, other)],
    }
}
