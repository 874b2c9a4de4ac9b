//! A body as the exact intersection code takes it — a half space, a sphere, or a convex
//! polytope (boxes and `convex` hulls exactly; the other convex primitives tessellated at a
//! resolution), a closed mesh as tets, or a compound of them — and the intersection moments of a
//! pair at their poses. The 6D model contacts by these moments; PEG measures its overlap by them.

use super::convex::{Polytope, TetSolid, fanned};
use super::intersection::{
    IntersectionFaces, IntersectionMoments, convex_convex_faces, convex_half_space_faces, sphere_half_space,
};
use super::tet_solid::{solid_half_space, solid_solid};
use crate::geometry::{GeometryError, MeshData, Shape, mesher, tet_mesher};
use crate::math::{Isometry3, Plane, Point3, Vector3};

/// A body's contact geometry in its own frame.
#[derive(Clone, Debug)]
pub enum OverlapShape {
    /// The half space z ≤ 0.
    HalfSpace,
    /// A sphere about the origin, with its tessellation for polytope partners.
    Sphere { radius: f64, hull: Option<Polytope> },
    /// A convex polytope.
    Convex(Polytope),
    /// A closed mesh as tets (a tet file's own, or its surface meshed inside).
    Mesh(TetSolid),
    /// A rigid union of parts (spheres and convex polytopes) at poses in the body frame that
    /// touch but do not overlap.
    Compound(Vec<(Isometry3, OverlapShape)>),
}

/// Why a shape has no [`OverlapShape`] (the message names the 6D model, whose
/// `contact.resolution` tessellates curved primitives).
#[derive(Debug, thiserror::Error)]
pub enum OverlapShapeError {
    #[error(
        "a {shape} needs `contact.resolution` under volume6d (it is tessellated into a convex polytope at that edge length); add e.g. resolution = 0.01"
    )]
    NeedsResolution { shape: &'static str },
    #[error(
        "parts {first} and {second} of the compound overlap by {volume:.3e} m³: the 6D model would count that volume twice; make the parts touch without overlapping"
    )]
    PartsOverlap { first: usize, second: usize, volume: f64 },
    #[error(transparent)]
    Geometry(#[from] GeometryError),
}

impl OverlapShape {
    /// The geometry of `shape`, tessellating curved convex primitives at `resolution`.
    pub fn new(shape: &Shape, resolution: Option<f64>) -> Result<OverlapShape, OverlapShapeError> {
        match shape {
            Shape::HalfSpace => Ok(OverlapShape::HalfSpace),
            Shape::Sphere { radius } => {
                let hull = resolution
                    .map(|r| mesher::surface_mesh(shape, Some(r)))
                    .transpose()?
                    .map(|m| Polytope::from_mesh(&m));
                Ok(OverlapShape::Sphere { radius: *radius, hull })
            }
            Shape::Box { .. } | Shape::Convex { .. } | Shape::Polygon { .. } => {
                Ok(OverlapShape::Convex(Polytope::from_mesh(&mesher::surface_mesh(shape, None)?)))
            }
            Shape::Mesh { data, .. } => Ok(OverlapShape::Mesh(match data {
                MeshData::Tets { mesh, .. } => TetSolid::from_tet_mesh(mesh),
                MeshData::Surface(surface) => {
                    let r = resolution.unwrap_or_else(|| tet_mesher::default_resolution(surface));
                    TetSolid::from_tet_mesh(&tet_mesher::mesh_interior(surface, r)?.mesh)
                }
            })),
            Shape::Compound { parts } => {
                let mut out = Vec::with_capacity(parts.len());
                for part in parts {
                    out.push((part.pose, OverlapShape::new(&part.shape, resolution)?));
                }
                check_parts_apart(&out)?;
                Ok(OverlapShape::Compound(out))
            }
            other => {
                let Some(r) = resolution else {
                    return Err(OverlapShapeError::NeedsResolution { shape: other.kind() });
                };
                Ok(OverlapShape::Convex(Polytope::from_mesh(&mesher::surface_mesh(other, Some(r))?)))
            }
        }
    }

    /// The radius of a sphere about the body's origin that holds it (∞ for a half space).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            OverlapShape::HalfSpace => f64::INFINITY,
            OverlapShape::Sphere { radius, hull } => hull
                .as_ref()
                .map_or(*radius, |m| m.vertices.iter().map(|p| p.coords.norm()).fold(*radius, f64::max)),
            OverlapShape::Convex(m) => m.vertices.iter().map(|p| p.coords.norm()).fold(0.0, f64::max),
            OverlapShape::Mesh(m) => m.radius,
            OverlapShape::Compound(parts) => parts
                .iter()
                .map(|(pose, part)| pose.translation.vector.norm() + part.bounding_radius())
                .fold(0.0, f64::max),
        }
    }

    /// The polytope standing for the body against another polytope, if it has one.
    fn hull(&self) -> Option<&Polytope> {
        match self {
            OverlapShape::Convex(m) => Some(m),
            OverlapShape::Sphere { hull, .. } => hull.as_ref(),
            OverlapShape::HalfSpace | OverlapShape::Mesh(_) | OverlapShape::Compound(_) => None,
        }
    }
}

/// Why a pair cannot be evaluated.
#[derive(Debug, thiserror::Error)]
pub enum OverlapPairError {
    #[error("two half spaces have no finite intersection")]
    TwoHalfSpaces,
    #[error("a compound's intersection is taken part by part (internal: use part_pairs)")]
    CompoundFaces,
    #[error(
        "a sphere against a polytope needs the sphere's `contact.resolution` (it is tessellated at that edge length)"
    )]
    SphereNeedsResolution,
}

/// One part pair's intersection: its moments and, unless it is a spherical cap, its polyhedron.
#[derive(Clone, Debug)]
pub struct Piece {
    pub moments: IntersectionMoments,
    pub faces: Option<IntersectionFaces>,
}

/// The intersection moments of bodies `a` and `b` at their poses (world frame; the gradient is
/// with respect to `a`'s translation), `None` where they do not overlap. Compounds: the sum
/// over their parts' pairs ([`IntersectionMoments::combined`]).
pub fn pair_moments(
    a: (&OverlapShape, &Isometry3),
    b: (&OverlapShape, &Isometry3),
) -> Result<Option<IntersectionMoments>, OverlapPairError> {
    Ok(combined(&pair_pieces(a, b)?))
}

/// The moments of `pieces` taken as one, in order; `None` for no pieces.
pub fn combined(pieces: &[Piece]) -> Option<IntersectionMoments> {
    pieces.iter().map(|p| p.moments).reduce(|t, m| t.combined(&m))
}

/// The intersection of bodies `a` and `b` piece by piece: one piece for two simple bodies, one
/// per overlapping part pair for compounds.
pub fn pair_pieces(
    (a, pose_a): (&OverlapShape, &Isometry3),
    (b, pose_b): (&OverlapShape, &Isometry3),
) -> Result<Vec<Piece>, OverlapPairError> {
    use OverlapShape::*;
    if matches!(a, Compound(_)) || matches!(b, Compound(_)) {
        let mut pieces = Vec::new();
        for ((pa, xa), (pb, xb)) in part_pairs((a, pose_a), (b, pose_b)) {
            pieces.extend(pair_pieces((pa, &xa), (pb, &xb))?);
        }
        return Ok(pieces);
    }
    let cap = match (a, b) {
        (Sphere { radius, .. }, HalfSpace) => {
            Some(sphere_half_space(&centre(pose_a), *radius, &plane(pose_b)))
        }
        (HalfSpace, Sphere { radius, .. }) => Some(
            sphere_half_space(&centre(pose_b), *radius, &plane(pose_a))
                .map(|m| IntersectionMoments { gradient: -m.gradient, ..m }),
        ),
        _ => None,
    };
    Ok(match cap {
        Some(moments) => moments.map(|moments| Piece { moments, faces: None }).into_iter().collect(),
        None => pair_faces((a, pose_a), (b, pose_b))?
            .and_then(|faces| Some(Piece { moments: faces.moments()?, faces: Some(faces) }))
            .into_iter()
            .collect(),
    })
}

/// A part of a body (or the whole of one that is not a compound) at its world pose.
pub type PlacedPart<'a> = (&'a OverlapShape, Isometry3);

/// The pairs of parts of two bodies (a body that is not a compound is its own one part) whose
/// bounding spheres overlap, with their world poses, in order.
pub fn part_pairs<'a>(
    (a, pose_a): (&'a OverlapShape, &Isometry3),
    (b, pose_b): (&'a OverlapShape, &Isometry3),
) -> Vec<(PlacedPart<'a>, PlacedPart<'a>)> {
    let parts = |shape: &'a OverlapShape, pose: &Isometry3| -> Vec<PlacedPart<'a>> {
        match shape {
            OverlapShape::Compound(parts) => parts.iter().map(|(x, p)| (p, pose * x)).collect(),
            other => vec![(other, *pose)],
        }
    };
    let (pa, pb) = (parts(a, pose_a), parts(b, pose_b));
    let mut out = Vec::with_capacity(pa.len() * pb.len());
    for (sa, xa) in &pa {
        for (sb, xb) in &pb {
            let apart = (xa.translation.vector - xb.translation.vector).norm();
            if apart <= sa.bounding_radius() + sb.bounding_radius() {
                out.push(((*sa, *xa), (*sb, *xb)));
            }
        }
    }
    out
}

/// A compound's parts may touch but not overlap (their volume would count twice): the first
/// overlapping pair, by more than 1e-9 of the smaller part's bounding ball.
fn check_parts_apart(parts: &[(Isometry3, OverlapShape)]) -> Result<(), OverlapShapeError> {
    for (i, (xa, a)) in parts.iter().enumerate() {
        for (j, (xb, b)) in parts.iter().enumerate().skip(i + 1) {
            let volume = match (a, b) {
                (OverlapShape::Sphere { radius: ra, .. }, OverlapShape::Sphere { radius: rb, .. }) => {
                    let d = (xa.translation.vector - xb.translation.vector).norm();
                    // The lens of two balls (0 when apart).
                    let h = (ra + rb - d).max(0.0);
                    if h > 0.0 && d > 0.0 {
                        std::f64::consts::PI * h * h * (d * d + 2.0 * d * (ra + rb) - 3.0 * (ra - rb).powi(2))
                            / (12.0 * d)
                    } else {
                        (4.0 / 3.0) * std::f64::consts::PI * ra.min(*rb).powi(3) * f64::from(h > 0.0)
                    }
                }
                _ => {
                    let apart = (xa.translation.vector - xb.translation.vector).norm();
                    if apart > a.bounding_radius() + b.bounding_radius() {
                        0.0
                    } else {
                        // A sphere part near a polytope part needs its tessellation to be measured.
                        pair_moments((a, xa), (b, xb))
                            .map_err(|_| OverlapShapeError::NeedsResolution { shape: "sphere" })?
                            .map_or(0.0, |m| m.volume)
                    }
                }
            };
            let smaller = a.bounding_radius().min(b.bounding_radius());
            if volume > 1e-9 * smaller.powi(3) {
                return Err(OverlapShapeError::PartsOverlap { first: i, second: j, volume });
            }
        }
    }
    Ok(())
}

/// The intersection polyhedron of two bodies of which neither is a sphere against a half space
/// (that is a spherical cap, in closed form: `Ok(None)` here) nor a compound (taken part by
/// part: [`part_pairs`]), `None` where they do not overlap.
pub fn pair_faces(
    (a, pose_a): (&OverlapShape, &Isometry3),
    (b, pose_b): (&OverlapShape, &Isometry3),
) -> Result<Option<IntersectionFaces>, OverlapPairError> {
    use OverlapShape::*;
    Ok(match (a, b) {
        (HalfSpace, HalfSpace) => return Err(OverlapPairError::TwoHalfSpaces),
        (Sphere { .. }, HalfSpace) | (HalfSpace, Sphere { .. }) => None,
        (Compound(_), _) | (_, Compound(_)) => return Err(OverlapPairError::CompoundFaces),
        (Mesh(m), HalfSpace) => solid_half_space(m, pose_a, &plane(pose_b)),
        (HalfSpace, Mesh(m)) => solid_half_space(m, pose_b, &plane(pose_a)).map(IntersectionFaces::swapped),
        (Mesh(ma), Mesh(mb)) => solid_solid(ma, pose_a, mb, pose_b),
        (Mesh(m), other) => {
            let hull = other.hull().ok_or(OverlapPairError::SphereNeedsResolution)?;
            solid_solid(m, pose_a, fanned(hull), pose_b)
        }
        (other, Mesh(m)) => {
            let hull = other.hull().ok_or(OverlapPairError::SphereNeedsResolution)?;
            solid_solid(fanned(hull), pose_a, m, pose_b)
        }
        (Convex(m), HalfSpace) => convex_half_space_faces(&m.placed(pose_a), &plane(pose_b)),
        (HalfSpace, Convex(m)) => {
            convex_half_space_faces(&m.placed(pose_b), &plane(pose_a)).map(IntersectionFaces::swapped)
        }
        _ => {
            let (Some(ha), Some(hb)) = (a.hull(), b.hull()) else {
                return Err(OverlapPairError::SphereNeedsResolution);
            };
            convex_convex_faces(&ha.placed(pose_a), &hb.placed(pose_b))
        }
    })
}

/// The boundary plane of a half space body at `pose` (its normal points out of it).
fn plane(pose: &Isometry3) -> Plane {
    let normal = pose.rotation * Vector3::z();
    Plane::new(normal, normal.dot(&pose.translation.vector))
}

fn centre(pose: &Isometry3) -> Point3 {
    Point3::from(pose.translation.vector)
}

/// The depth of an overlap of volume `v` whose gradient (the area of its section along the
/// normal) has norm `g`: v/g, which is about half the depth for a sphere on a plane (a cap).
/// `None` where |G| vanishes against v^(2/3) (one body wholly inside the other).
pub fn overlap_depth(v: f64, g: f64) -> Option<f64> {
    if v <= 0.0 {
        return Some(0.0);
    }
    (g > 1e-9 * v.cbrt().powi(2)).then(|| v / g)
}
