//! The geometry a body brings to pressure field contact, built once in its body frame.

use super::PressureFieldError;
use super::cells::Cells;
use crate::field::laplace;
use crate::field::{self, LinearField};
use crate::geometry::bvh::Bvh;
use crate::geometry::mesher;
use crate::geometry::tet_mesher;
use crate::geometry::{MeshCore, MeshData, Shape, SurfaceMesh, TetMesh};
use crate::math::{Point3, Vector3};

/// How a body responds in contact.
#[derive(Clone, Debug, PartialEq)]
pub enum Compliance {
    /// Infinitely stiff; curved shapes need `resolution` (target edge length, m) for their
    /// surface mesh.
    Rigid { resolution: Option<f64> },
    /// A pressure field p0 = E·ε with E = `modulus` (Pa). Meshed bodies need `resolution`;
    /// a half space needs `slab_thickness` (m) instead.
    Compliant { modulus: f64, resolution: Option<f64>, slab_thickness: Option<f64> },
}

/// The contact properties of a body, as the pressure field model needs them.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactProperties {
    pub compliance: Compliance,
    /// Hunt–Crossley dissipation (s/m), ≥ 0.
    pub dissipation: f64,
    /// Coulomb friction coefficient, ≥ 0.
    pub friction: f64,
}

/// A compliant tet mesh with its pressure field.
#[derive(Debug)]
pub struct CompliantMesh {
    pub mesh: TetMesh,
    /// ε at each vertex.
    pub extent: Vec<f64>,
    /// The tets grouped into convex cells of one linear field each, with the static pressure
    /// p0 = E·ε on each (body frame, Pa): what the queries visit.
    pub cells: Cells,
    /// The hierarchy of the cells.
    pub bvh: Bvh,
    /// The radius R of a sphere centred at the body's origin whose analytic field
    /// p0 = E·(1 − |x|/R) a query against a rigid half space integrates exactly
    /// (`sphere_plane.rs`) instead of the mesh's; `None`: the mesh's field everywhere.
    pub analytic_sphere: Option<f64>,
}

/// A rigid closed surface mesh.
#[derive(Debug)]
pub struct RigidMesh {
    pub mesh: SurfaceMesh,
    pub bvh: Bvh,
    /// A point inside the solid (the volume centroid), apex of the cones used for volumes.
    pub apex: Point3,
    /// The cones from the apex to each triangle (body frame), so that an energy query finds
    /// the cones through a tet without trying every triangle.
    pub cones: Bvh,
}

/// What a body is to the pressure field model.
// Built once per body and kept in the model's list: a variant's size costs nothing per query.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum PfGeometry {
    CompliantMesh(CompliantMesh),
    RigidMesh(RigidMesh),
    /// The half space z ≤ 0 with p0 = E·(−z)/slab_thickness.
    CompliantHalfSpace {
        slab_thickness: f64,
    },
    /// The rigid half space z ≤ 0.
    RigidHalfSpace,
    /// A body without a shape: nothing to mesh, and in no pair (the pair filter).
    Nothing,
}

/// A body ready for pressure field queries.
#[derive(Debug)]
pub struct PfBody {
    pub geometry: PfGeometry,
    /// Hydroelastic modulus E (Pa); `None` for a rigid body.
    pub modulus: Option<f64>,
    pub dissipation: f64,
    pub friction: f64,
}

impl PfBody {
    /// Builds the meshes, field and hierarchy of a body from its shape and properties.
    pub fn new(shape: &Shape, props: &ContactProperties) -> Result<PfBody, PressureFieldError> {
        Self::build(shape, props).map(|(body, _)| body)
    }

    /// [`PfBody::new`], with the notes of the meshing and field computation (warnings of the
    /// tet mesher such as thin features, maximum-principle reports of the Laplace field).
    pub fn build(
        shape: &Shape,
        props: &ContactProperties,
    ) -> Result<(PfBody, Vec<String>), PressureFieldError> {
        let mut notes = Vec::new();
        check_non_negative("dissipation", props.dissipation)?;
        check_non_negative("friction", props.friction)?;
        let (geometry, modulus) = match (&props.compliance, shape) {
            (Compliance::Rigid { .. }, Shape::HalfSpace) => (PfGeometry::RigidHalfSpace, None),
            (Compliance::Compliant { modulus, slab_thickness, .. }, Shape::HalfSpace) => {
                check_positive("hydroelastic_modulus", *modulus)?;
                let slab = slab_thickness.ok_or(PressureFieldError::MissingKey {
                    key: "slab_thickness",
                    why: "a compliant half space's pressure grows as E·depth/slab_thickness",
                })?;
                check_positive("slab_thickness", slab)?;
                (PfGeometry::CompliantHalfSpace { slab_thickness: slab }, Some(*modulus))
            }
            (Compliance::Rigid { resolution }, _) => {
                let mesh = mesher::surface_mesh(shape, *resolution)?;
                (PfGeometry::RigidMesh(RigidMesh::new(mesh)), None)
            }
            (Compliance::Compliant { modulus, resolution, .. }, _) => {
                check_positive("hydroelastic_modulus", *modulus)?;
                let res = resolution.ok_or(PressureFieldError::MissingKey {
                    key: "resolution",
                    why: "a compliant body is meshed with tets of about this edge length (m)",
                })?;
                check_positive("resolution", res)?;
                let (mesh, extent) = match shape {
                    Shape::Mesh { data, core, .. } => mesh_field(data, *core, res, &mut notes)?,
                    _ => {
                        let layered = mesher::layered_tet_mesh(shape, res)?;
                        let extent = field::extent_from_shells(&layered.shell);
                        (layered.mesh, extent)
                    }
                };
                let mut compliant = CompliantMesh::new(mesh, extent, *modulus);
                if let Shape::Sphere { radius } = shape {
                    compliant.analytic_sphere = Some(*radius);
                }
                (PfGeometry::CompliantMesh(compliant), Some(*modulus))
            }
        };
        Ok((PfBody { geometry, modulus, dissipation: props.dissipation, friction: props.friction }, notes))
    }

    /// A body without a shape: no geometry, no modulus, touches nothing.
    pub fn nothing() -> PfBody {
        PfBody { geometry: PfGeometry::Nothing, modulus: None, dissipation: 0.0, friction: 0.0 }
    }

    /// The body with its mesh's field everywhere: a sphere's queries against a half space
    /// integrate its tets as any other pair's do, instead of the analytic field.
    pub fn with_meshed_field(mut self) -> PfBody {
        if let PfGeometry::CompliantMesh(m) = &mut self.geometry {
            m.analytic_sphere = None;
        }
        self
    }

    /// Whether the body is compliant.
    pub fn is_compliant(&self) -> bool {
        self.modulus.is_some()
    }
}

impl CompliantMesh {
    /// A compliant mesh from a tet mesh and the extent ε at its vertices.
    pub fn new(mesh: TetMesh, extent: Vec<f64>, modulus: f64) -> CompliantMesh {
        let pressure: Vec<LinearField> =
            field::tet_fields(&mesh, &extent).into_iter().map(|f| f.scaled(modulus)).collect();
        let cells = Cells::build(&mesh, &pressure);
        let bvh = Bvh::build_with(cells.len(), |c, out| out.extend_from_slice(cells.points(c)));
        CompliantMesh { mesh, extent, cells, bvh, analytic_sphere: None }
    }
}

impl RigidMesh {
    pub fn new(mesh: SurfaceMesh) -> RigidMesh {
        let bvh = Bvh::build(mesh.triangles.len(), |t| mesh.triangle(t));
        let apex = volume_centroid(&mesh);
        let cones = Bvh::build(mesh.triangles.len(), |t| {
            let [a, b, c] = mesh.triangle(t);
            [apex, a, b, c]
        });
        RigidMesh { mesh, bvh, apex, cones }
    }
}

/// The tet mesh and extent ε of a mesh body: a tet file's own ε if it has one, else a Laplace
/// field on its tets; a surface is first meshed inside at `resolution`, and its vertices' depth
/// is their exact distance to the surface.
fn mesh_field(
    data: &MeshData,
    core: MeshCore,
    resolution: f64,
    notes: &mut Vec<String>,
) -> Result<(TetMesh, Vec<f64>), PressureFieldError> {
    let core = match core {
        MeshCore::MedialAxis => laplace::Core::MedialAxis,
        MeshCore::SkinDepth(h) => laplace::Core::SkinDepth(h),
    };
    match data {
        MeshData::Tets { mesh, extent: Some(extent) } => {
            if extent.len() != mesh.vertices.len() || extent.iter().any(|e| !(0.0..=1.0).contains(e)) {
                return Err(PressureFieldError::BadExtent {
                    reason: format!(
                        "{} values for {} vertices, all must be in [0, 1]",
                        extent.len(),
                        mesh.vertices.len()
                    ),
                });
            }
            Ok((mesh.clone(), extent.clone()))
        }
        MeshData::Tets { mesh, extent: None } => {
            let boundary = laplace::boundary_vertices(mesh);
            let depth = laplace::depth_by_graph(mesh, &boundary);
            let field = laplace::laplace_extent(mesh, &boundary, &depth, core)?;
            notes.extend(field.notes);
            Ok((mesh.clone(), field.extent))
        }
        MeshData::Surface(surface) => {
            let meshed = tet_mesher::mesh_interior(surface, resolution)?;
            let st = &meshed.stats;
            notes.push(format!(
                "meshed inside in {:.3} s: {} tets, dihedral angles {:.1}°–{:.1}°, volume {:+.3}% of the surface's",
                st.seconds,
                meshed.mesh.tets.len(),
                st.min_dihedral_deg,
                st.max_dihedral_deg,
                (st.volume_ratio - 1.0) * 100.0
            ));
            notes.extend(meshed.warnings.iter().cloned());
            let distance = tet_mesher::SurfaceDistance::new(surface);
            let (mesh, boundary, on_level) = match core {
                // A skin over a rigid core: the core's boundary (depth = h) on mesh vertices.
                laplace::Core::SkinDepth(h) => {
                    let inward =
                        |p: &Point3| distance.closest_point(p).and_then(|(q, _)| (p - q).try_normalize(0.0));
                    let depth = |p: &Point3| distance.distance(p);
                    let c = tet_mesher::conform_to_level_set(
                        &meshed.mesh,
                        &meshed.on_surface,
                        &depth,
                        &inward,
                        h,
                    );
                    notes.push(format!(
                        "the core's boundary (depth {h} m) put on the mesh: {} vertices moved onto it, {} added; dihedral angles {:.1}°–{:.1}°",
                        c.snapped, c.added, c.min_dihedral_deg, c.max_dihedral_deg
                    ));
                    (c.mesh, c.on_surface, c.on_level)
                }
                laplace::Core::MedialAxis => {
                    let n = meshed.mesh.vertices.len();
                    (meshed.mesh, meshed.on_surface.clone(), vec![false; n])
                }
            };
            let depth: Vec<f64> = mesh
                .vertices
                .iter()
                .enumerate()
                .map(|(v, p)| match (boundary[v], on_level[v], core) {
                    (true, _, _) => 0.0,
                    (_, true, laplace::Core::SkinDepth(h)) => h,
                    _ => distance.distance(p),
                })
                .collect();
            let field = laplace::laplace_extent(&mesh, &boundary, &depth, core)?;
            notes.extend(field.notes);
            Ok((mesh, field.extent))
        }
    }
}

/// The volume centroid of a closed surface mesh (the vertex mean if it encloses no volume).
fn volume_centroid(mesh: &SurfaceMesh) -> Point3 {
    let mut vol = 0.0;
    let mut moment = Vector3::zeros();
    for t in 0..mesh.triangles.len() {
        let [a, b, c] = mesh.triangle(t);
        let v = a.coords.dot(&b.coords.cross(&c.coords)) / 6.0;
        vol += v;
        moment += (a.coords + b.coords + c.coords) * (v / 4.0);
    }
    if vol.abs() > 0.0 {
        Point3::from(moment / vol)
    } else {
        let n = mesh.vertices.len().max(1) as f64;
        Point3::from(mesh.vertices.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n)
    }
}

fn check_positive(key: &'static str, value: f64) -> Result<(), PressureFieldError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(PressureFieldError::NotPositive { key, value })
    }
}

fn check_non_negative(key: &'static str, value: f64) -> Result<(), PressureFieldError> {
    if value.is_finite() && value >= 0.0 { Ok(()) } else { Err(PressureFieldError::Negative { key, value }) }
}

impl PfBody {
    /// The world-frame axis-aligned bounds of the body at `pose`; `None` for a half space
    /// (unbounded).
    pub fn world_bounds(&self, pose: &crate::math::Isometry3) -> Option<(Point3, Point3)> {
        let bvh = match &self.geometry {
            PfGeometry::CompliantMesh(m) => &m.bvh,
            PfGeometry::RigidMesh(r) => &r.bvh,
            _ => return None,
        };
        bvh.root().map(|o| o.aabb(pose))
    }

    /// Whether this body, a half space at `pose`, has all of the world box `(lo, hi)` strictly
    /// above its surface (beyond round-off): then a body within the box touches it nowhere.
    /// False for a body that is not a half space.
    pub fn above_half_space(&self, pose: &crate::math::Isometry3, (lo, hi): &(Point3, Point3)) -> bool {
        if !matches!(self.geometry, PfGeometry::RigidHalfSpace | PfGeometry::CompliantHalfSpace { .. }) {
            return false;
        }
        let n = pose.rotation * Vector3::z();
        let (centre, half) = ((lo.coords + hi.coords) * 0.5, (hi - lo) * 0.5);
        let offset = n.dot(&pose.translation.vector);
        let reach = n.abs().dot(&half);
        let lowest = n.dot(&centre) - offset - reach;
        lowest > 1e-9 * (1.0 + offset.abs() + n.dot(&centre).abs() + reach)
    }
}
