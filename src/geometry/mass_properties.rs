//! Mass properties (volume, centroid, inertia per unit density) of uniform solids: closed forms
//! for the primitives, exact polyhedral integrals for triangle meshes and convex hulls.
//!
//! A closed, outward-oriented mesh bounds a solid that is the signed sum of the tets joining a
//! reference point to each triangle (divergence theorem). Every tet's zeroth, first and second
//! moments have closed forms, so the sums are exact up to round-off.

use super::convex_hull::convex_hull;
use super::solid_moments::{mean_point, solid_moments};
use super::{CompoundPart, GeometryError, Shape, SurfaceMesh};
use crate::math::{Matrix3, Point3, Vector3};
use std::collections::HashMap;
use std::f64::consts::PI;

/// Mass properties of a solid of uniform density, in its body frame.
#[derive(Clone, Debug, PartialEq)]
pub struct MassProperties {
    /// Volume (m³).
    pub volume: f64,
    /// Centre of volume (= centre of mass), body frame (m).
    pub centroid: Point3,
    /// Inertia tensor per unit density about the centroid, body axes (m⁵); multiply by a
    /// density (kg/m³) or by mass / volume to get kg·m².
    pub unit_inertia: Matrix3,
}

impl MassProperties {
    /// The mass properties of `shape`: closed forms for sphere, box, cylinder, capsule and
    /// ellipsoid (all centred on the origin), exact polyhedral integrals over the hull of a
    /// convex shape and over the surface of a mesh. A half space has infinite volume and is an
    /// error.
    pub fn of_shape(shape: &Shape) -> Result<MassProperties, GeometryError> {
        match shape {
            Shape::Mesh { data, .. } => Self::of_surface_mesh(&data.surface()),
            Shape::Cone { radius, top_radius, length } => frustum(*radius, *top_radius, *length),
            Shape::Beam { length, width, thickness } => beam(*length, *width, *thickness),
            Shape::Sphere { radius } => {
                let r = positive("sphere radius", *radius)?;
                let volume = 4.0 / 3.0 * PI * r.powi(3);
                Ok(centred(volume, Vector3::repeat(0.4 * volume * r * r)))
            }
            Shape::Box { size } => {
                let [x, y, z] = [
                    positive("box size x", size[0])?,
                    positive("box size y", size[1])?,
                    positive("box size z", size[2])?,
                ];
                let volume = x * y * z;
                let k = volume / 12.0;
                Ok(centred(
                    volume,
                    Vector3::new(k * (y * y + z * z), k * (x * x + z * z), k * (x * x + y * y)),
                ))
            }
            Shape::Cylinder { radius, length } => {
                let r = positive("cylinder radius", *radius)?;
                let l = positive("cylinder length", *length)?;
                let volume = PI * r * r * l;
                let side = volume * (3.0 * r * r + l * l) / 12.0;
                Ok(centred(volume, Vector3::new(side, side, 0.5 * volume * r * r)))
            }
            Shape::Capsule { radius, length } => capsule(*radius, *length),
            Shape::Ellipsoid { radii } => {
                let [a, b, c] = [
                    positive("ellipsoid radius x", radii[0])?,
                    positive("ellipsoid radius y", radii[1])?,
                    positive("ellipsoid radius z", radii[2])?,
                ];
                let volume = 4.0 / 3.0 * PI * a * b * c;
                let k = volume / 5.0;
                Ok(centred(
                    volume,
                    Vector3::new(k * (b * b + c * c), k * (a * a + c * c), k * (a * a + b * b)),
                ))
            }
            Shape::HalfSpace => Err(GeometryError::InvalidParameter {
                what: "shape for mass properties".into(),
                reason: "a half space has infinite volume, so no mass, centroid or inertia; make the body \
                         fixed, or use a box"
                    .into(),
            }),
            Shape::Convex { points, .. } => MassProperties::of_surface_mesh(&convex_hull(points)?),
            Shape::Compound { parts } => compound(parts),
            // The prism of unit thickness: its I_yy is the lamina's polar moment.
            Shape::Polygon { .. } => {
                MassProperties::of_surface_mesh(&convex_hull(&shape.hull_points(1.0).unwrap_or_default())?)
            }
        }
    }

    /// The exact mass properties of the solid bounded by a closed, outward-oriented triangle
    /// mesh (convex or not). Fails when a triangle indexes a missing vertex, a vertex is not
    /// finite, the mesh has a boundary or inconsistently oriented triangles, or the enclosed
    /// volume is not positive (an inside-out mesh).
    pub fn of_surface_mesh(mesh: &SurfaceMesh) -> Result<MassProperties, GeometryError> {
        check_closed(mesh)?;
        let triangles = mesh.triangles.iter().map(|t| t.map(|v| mesh.vertices[v as usize]));
        let moments = solid_moments(&mean_point(&mesh.vertices), triangles);
        let volume = moments.volume;
        if !(volume.is_finite() && volume > 0.0) {
            return Err(bad_mesh(format!(
                "it encloses volume {volume:e} m³ ≤ 0: inside-out or open mesh; orient every triangle \
                 counter-clockwise seen from outside"
            )));
        }
        Ok(MassProperties {
            volume,
            centroid: moments.centroid,
            unit_inertia: inertia_of_second_moment(&moments.central_second_moment),
        })
    }

    /// Inertia tensor (kg·m²) about the centroid for a given mass.
    pub fn inertia_for_mass(&self, mass: f64) -> Matrix3 {
        self.unit_inertia * (mass / self.volume)
    }

    /// Inertia tensor (kg·m²) about another point `p` (parallel-axis theorem), for a given mass.
    pub fn inertia_about(&self, mass: f64, p: &Point3) -> Matrix3 {
        let d = self.centroid - p;
        self.inertia_for_mass(mass) + mass * (d.norm_squared() * Matrix3::identity() - d * d.transpose())
    }
}

/// A union of parts that do not overlap: volumes add, the centroid is the volume-weighted mean,
/// and each part's inertia is rotated into the body frame and moved to the common centroid
/// (parallel-axis theorem).
fn compound(parts: &[CompoundPart]) -> Result<MassProperties, GeometryError> {
    if parts.is_empty() {
        return Err(GeometryError::InvalidParameter {
            what: "compound shape".into(),
            reason: "it has no parts; give at least one in `parts`".into(),
        });
    }
    let placed: Vec<MassProperties> = parts
        .iter()
        .map(|part| {
            let m = MassProperties::of_shape(&part.shape)?;
            let r = part.pose.rotation.to_rotation_matrix();
            Ok(MassProperties {
                volume: m.volume,
                centroid: part.pose * m.centroid,
                unit_inertia: r.matrix() * m.unit_inertia * r.matrix().transpose(),
            })
        })
        .collect::<Result<_, GeometryError>>()?;
    let volume: f64 = placed.iter().map(|m| m.volume).sum();
    let centroid =
        Point3::from(placed.iter().map(|m| m.centroid.coords * m.volume).sum::<Vector3>() / volume);
    let unit_inertia = placed.iter().map(|m| m.inertia_about(m.volume, &centroid)).sum();
    Ok(MassProperties { volume, centroid, unit_inertia })
}

/// A solid centred on the origin with principal axes along the body axes.
fn centred(volume: f64, principal: Vector3) -> MassProperties {
    MassProperties { volume, centroid: Point3::origin(), unit_inertia: Matrix3::from_diagonal(&principal) }
}

/// A capsule: a cylinder of length `l` plus two hemispheres, each shifted by the parallel-axis
/// theorem from its own centroid (3r/8 from its flat face) to the capsule's centre.
fn capsule(radius: f64, length: f64) -> Result<MassProperties, GeometryError> {
    let r = positive("capsule radius", radius)?;
    // A zero-length capsule is a sphere, which the mesher accepts too.
    if !(length.is_finite() && length >= 0.0) {
        return Err(GeometryError::NonPositiveSize { what: "capsule length".into(), value: length });
    }
    let l = length;
    let v_cyl = PI * r * r * l;
    let v_hemi = 2.0 / 3.0 * PI * r.powi(3);
    let axial = 0.5 * v_cyl * r * r + 2.0 * 0.4 * v_hemi * r * r;
    // A hemisphere's transverse moment about its flat face's centre is that of the half ball,
    // 2/5 V r²; about its centroid it is less by V (3r/8)², and the centroid sits l/2 + 3r/8
    // from the capsule's centre.
    let hemi_own = v_hemi * (0.4 * r * r - (3.0 * r / 8.0).powi(2));
    let offset = 0.5 * l + 3.0 * r / 8.0;
    let side = v_cyl * (3.0 * r * r + l * l) / 12.0 + 2.0 * (hemi_own + v_hemi * offset * offset);
    Ok(centred(v_cyl + 2.0 * v_hemi, Vector3::new(side, side, axial)))
}

/// The inertia tensor tr(C)·1 − C of a second-moment matrix C = ∫ x xᵀ dV.
fn inertia_of_second_moment(c: &Matrix3) -> Matrix3 {
    c.trace() * Matrix3::identity() - c
}

fn positive(what: &str, value: f64) -> Result<f64, GeometryError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GeometryError::NonPositiveSize { what: what.into(), value })
    }
}

fn bad_mesh(reason: String) -> GeometryError {
    GeometryError::InvalidParameter { what: "surface mesh for mass properties".into(), reason }
}

/// Checks indices and finiteness, and that every edge is used as often in one direction as in
/// the other. That balance is exactly what makes the triangle fan a closed surface, on which the
/// divergence theorem holds whatever the reference point; it also accepts non-manifold edges
/// shared by an even number of consistently oriented triangles.
fn check_closed(mesh: &SurfaceMesh) -> Result<(), GeometryError> {
    if mesh.triangles.is_empty() {
        return Err(bad_mesh("it has no triangles: inside-out or open mesh".into()));
    }
    if let Some(i) = mesh.vertices.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
        return Err(bad_mesh(format!("vertex {i} is not finite ({:?})", mesh.vertices[i].coords.as_slice())));
    }
    let n = mesh.vertices.len();
    // Directed edge (a, b) with a < b counts +1, (b, a) counts −1; all must cancel.
    let mut balance: HashMap<(u32, u32), i64> = HashMap::new();
    for (t, tri) in mesh.triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|&&v| v as usize >= n) {
            return Err(bad_mesh(format!("triangle {t} uses vertex {v}, but there are only {n} vertices")));
        }
        for e in 0..3 {
            let (a, b) = (tri[e], tri[(e + 1) % 3]);
            if a != b {
                *balance.entry((a.min(b), a.max(b))).or_insert(0) += if a < b { 1 } else { -1 };
            }
        }
    }
    // Report the smallest unbalanced edge so the message is deterministic.
    if let Some((&(a, b), _)) = balance.iter().filter(|(_, c)| **c != 0).min_by_key(|(e, _)| **e) {
        return Err(bad_mesh(format!(
            "edge ({a}, {b}) is not matched by an oppositely oriented edge: inside-out or open mesh \
             (a hole, or triangles with mixed orientation); close the surface and orient every \
             triangle counter-clockwise seen from outside"
        )));
    }
    Ok(())
}

/// A frustum (cone when `r1` = 0) along z, base radius `r0` at z = 0, top `r1` at z = `h`:
/// integrals over discs of radius ρ(z) = r0 + (r1 − r0)·z/h, exact by 3-point Gauss–Legendre
/// (the integrands are polynomials of degree ≤ 4 in z).
fn frustum(r0: f64, r1: f64, h: f64) -> Result<MassProperties, GeometryError> {
    let r0 = positive("cone radius", r0)?;
    let h = positive("cone length", h)?;
    if !(r1.is_finite() && r1 >= 0.0) {
        return Err(GeometryError::NonPositiveSize { what: "cone top radius (≥ 0)".into(), value: r1 });
    }
    let nodes = [(-(0.6f64).sqrt(), 5.0 / 9.0), (0.0, 8.0 / 9.0), ((0.6f64).sqrt(), 5.0 / 9.0)];
    let integrate = |f: &dyn Fn(f64) -> f64| -> f64 {
        nodes.iter().map(|&(x, w)| w * f(0.5 * h * (x + 1.0))).sum::<f64>() * 0.5 * h
    };
    let rho = |z: f64| r0 + (r1 - r0) * z / h;
    let area = |z: f64| PI * rho(z).powi(2);
    let volume = integrate(&area);
    let zc = integrate(&|z| area(z) * z) / volume;
    // Per unit density: Izz = ∫ π ρ⁴/2 dz; Ixx = Iyy = ∫ (π ρ⁴/4 + π ρ² (z − zc)²) dz.
    let izz = integrate(&|z| PI * rho(z).powi(4) / 2.0);
    let ixx = integrate(&|z| PI * rho(z).powi(4) / 4.0 + area(z) * (z - zc).powi(2));
    Ok(MassProperties {
        volume,
        centroid: Point3::new(0.0, 0.0, zc),
        unit_inertia: Matrix3::from_diagonal(&Vector3::new(ixx, ixx, izz)),
    })
}

/// Modia3D's beam: a box `length` × `width` × `thickness` with half-cylinders of diameter
/// `width` on both ends along x (axes along z at x = ±length/2).
fn beam(length: f64, width: f64, thickness: f64) -> Result<MassProperties, GeometryError> {
    let l = positive("beam length", length)?;
    let w = positive("beam width", width)?;
    let t = positive("beam thickness", thickness)?;
    let r = w / 2.0;
    // Per unit density: the box, and each half-cylinder about its axis, then moved.
    let vb = l * w * t;
    let box_i = Vector3::new(vb * (w * w + t * t), vb * (l * l + t * t), vb * (l * l + w * w)) / 12.0;
    let vh = PI * r * r * t / 2.0;
    let d0 = 4.0 * r / (3.0 * PI);
    let shift = l / 2.0 + d0;
    let half_x = vh * (3.0 * r * r + t * t) / 12.0;
    let half_y = vh * (3.0 * r * r + t * t) / 12.0 - vh * d0 * d0 + vh * shift * shift;
    let half_z = vh * r * r / 2.0 - vh * d0 * d0 + vh * shift * shift;
    Ok(MassProperties {
        volume: vb + 2.0 * vh,
        centroid: Point3::origin(),
        unit_inertia: Matrix3::from_diagonal(&(box_i + Vector3::new(half_x, half_y, half_z) * 2.0)),
    })
}
