//! `<asset><mesh>`: where each mesh's vertices come from, loaded the first time a geom needs
//! them (visual-only meshes of bodies with an `<inertial>` are never read). MuJoCo collides the
//! convex hull of a mesh geom, so a mesh is its vertices; its mass properties are the hull's, or
//! the closed surface's for `inertia="exact"`.

use super::attrs::Attrs;
use super::compiler::Compiler;
use super::defaults::{Classes, Kind};
use super::xml::Element;
use crate::geometry::mass_properties::MassProperties;
use crate::geometry::{SurfaceMesh, convex_hull::convex_hull, mesh_io, surface_io};
use crate::math::{Point3, Quaternion, UnitQuaternion, Vector3};
use crate::scene::import::ImportError;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A mesh asset as written: where its vertices are and how they are placed.
struct Asset<'a> {
    el: &'a Element,
    /// The resolved file, or `None` for inline `vertex` data.
    file: Option<PathBuf>,
    /// Every directory tried for `file` (for the error when it is missing).
    searched: Vec<PathBuf>,
    scale: [f64; 3],
    refpos: Vector3,
    refquat: UnitQuaternion,
    /// `legacy`, `convex`, `exact` or `shell`.
    inertia: &'static str,
}

/// A loaded mesh: its vertices in the geom frame (scale and reference frame applied).
pub(super) struct Mesh {
    /// The file read (the MJCF file for inline vertices).
    pub file: PathBuf,
    pub points: Vec<Point3>,
    pub mass: MassProperties,
}

pub(super) struct Meshes<'a> {
    assets: HashMap<String, Asset<'a>>,
    loaded: RefCell<HashMap<String, Rc<Mesh>>>,
}

impl<'a> Meshes<'a> {
    /// The `<mesh>` elements of the `<asset>` sections; files are resolved as MuJoCo does:
    /// absolute, else under `meshdir` (itself absolute, or relative to the main file's folder).
    pub fn read(
        sections: &[&'a Element],
        compiler: &Compiler,
        classes: &Classes<'a>,
        main_dir: &Path,
    ) -> Result<Meshes<'a>, ImportError> {
        let mut assets = HashMap::new();
        for el in sections.iter().flat_map(|s| s.children.iter()).filter(|e| e.tag == "mesh") {
            let class = classes.of(el, None)?;
            let a = class.attrs(el, Kind::Mesh);
            let file_name = a.text("file");
            let name = match (el.name(), file_name) {
                (Some(n), _) => n.to_owned(),
                (None, Some(f)) => {
                    Path::new(f).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
                }
                (None, None) => {
                    return Err(el.invalid(
                        "file",
                        "is missing, and so are `name` and `vertex`",
                        "give the mesh file",
                    ));
                }
            };
            let (file, searched) = match file_name {
                Some(f) => {
                    let f = if compiler.strippath {
                        Path::new(f).file_name().map(PathBuf::from).unwrap_or_default()
                    } else {
                        PathBuf::from(f)
                    };
                    let path = if f.is_absolute() {
                        f
                    } else {
                        let dir = compiler.meshdir.as_deref().map(PathBuf::from).unwrap_or_default();
                        let dir = if dir.is_absolute() { dir } else { main_dir.join(dir) };
                        dir.join(f)
                    };
                    (Some(path.clone()), vec![path])
                }
                None if a.get("vertex").is_some() => (None, Vec::new()),
                None => {
                    return Err(el.invalid(
                        "file",
                        "is missing (and there is no `vertex`)",
                        "give the mesh file",
                    ));
                }
            };
            if a.get("builtin").is_some() {
                return Err(a.error(
                    "builtin",
                    "builtin meshes are not supported",
                    "give the mesh as a file",
                ));
            }
            let scale = a.array::<3>("scale")?.unwrap_or([1.0; 3]);
            let refpos = Vector3::from(a.array::<3>("refpos")?.unwrap_or_default());
            let refquat = match a.array::<4>("refquat")? {
                Some([w, x, y, z]) if Quaternion::new(w, x, y, z).norm() > 1e-10 => {
                    UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z))
                }
                Some(_) => {
                    return Err(a.error("refquat", "is (nearly) zero", "give a unit quaternion w x y z"));
                }
                None => UnitQuaternion::identity(),
            };
            let inertia = a.keyword("inertia", &["legacy", "convex", "exact", "shell"])?.unwrap_or("legacy");
            if assets.contains_key(&name) {
                return Err(el.invalid(
                    "name",
                    format!("mesh '{name}' is defined twice"),
                    "give each mesh a different name",
                ));
            }
            assets.insert(name, Asset { el, file, searched, scale, refpos, refquat, inertia });
        }
        Ok(Meshes { assets, loaded: RefCell::new(HashMap::new()) })
    }

    pub fn count(&self) -> usize {
        self.assets.len()
    }

    pub fn loaded_count(&self) -> usize {
        self.loaded.borrow().len()
    }

    /// Mesh `name`, loaded on first use; `geom` is the element that asks (for errors).
    pub fn get(&self, name: &str, geom: &Element) -> Result<Rc<Mesh>, ImportError> {
        if let Some(mesh) = self.loaded.borrow().get(name) {
            return Ok(mesh.clone());
        }
        let Some(asset) = self.assets.get(name) else {
            let mut known: Vec<&str> = self.assets.keys().map(String::as_str).collect();
            known.sort_unstable();
            return Err(geom.invalid(
                "mesh",
                format!("names mesh '{name}', which no <asset><mesh> defines"),
                format!(
                    "define it in <asset>, or use one of: {}",
                    if known.is_empty() { "(none)".into() } else { known.join(", ") }
                ),
            ));
        };
        let mesh = Rc::new(asset.load()?);
        self.loaded.borrow_mut().insert(name.to_owned(), mesh.clone());
        Ok(mesh)
    }
}

impl Asset<'_> {
    fn load(&self) -> Result<Mesh, ImportError> {
        let bad = |problem: String| {
            self.el.invalid(
                "file",
                problem,
                "use an OBJ or STL file with at least 4 vertices that are not all in one plane",
            )
        };
        let (file, raw) = match &self.file {
            Some(path) => {
                if !path.is_file() {
                    return Err(ImportError::Missing {
                        path: self.el.file.as_ref().clone(),
                        line: self.el.line,
                        element: self.el.describe(),
                        file: self.el.attr("file").unwrap_or_default().into(),
                        searched: self.searched.clone(),
                        fix: "check the file name and the <compiler meshdir> (relative to the main model's folder)"
                            .into(),
                    });
                }
                (path.clone(), mesh_io::read_points(path).map_err(|e| bad(e.to_string()))?)
            }
            None => {
                let a = Attrs::own(self.el);
                let v = a.get("vertex").map(|f| f.reals("vertex")).transpose()?.unwrap_or_default();
                if v.len() % 3 != 0 {
                    return Err(a.error(
                        "vertex",
                        format!("has {} numbers, not a multiple of 3", v.len()),
                        "give x y z per vertex",
                    ));
                }
                let points = v.chunks_exact(3).map(|c| Point3::new(c[0], c[1], c[2])).collect();
                (self.el.file.as_ref().clone(), points)
            }
        };
        let points: Vec<Point3> = raw.iter().map(|p| self.place(p)).collect();
        if points.len() < 4 {
            return Err(bad(format!("the mesh has {} vertices", points.len())));
        }
        if let Some(problem) = mesh_io::coordinate_problem(&points) {
            return Err(bad(problem));
        }
        // MuJoCo collides the hull: it must enclose a volume, whatever gives the mass.
        let hull = convex_hull(&points).map_err(|e| bad(e.to_string()))?;
        let mass = match self.inertia {
            "exact" if self.file.is_some() => {
                MassProperties::of_surface_mesh(&self.surface(bad)?).map_err(|e| bad(e.to_string()))?
            }
            "exact" => {
                return Err(self.el.invalid(
                    "inertia",
                    "= \"exact\" needs faces, and inline meshes here have none",
                    "use inertia=\"convex\", or give the mesh as a file",
                ));
            }
            "shell" => {
                return Err(self.el.invalid(
                    "inertia",
                    "= \"shell\" (mass on the surface) is not supported",
                    "use inertia=\"convex\" or \"exact\", or give the body an <inertial>",
                ));
            }
            "legacy" if self.file.is_some() => {
                let surface = self.surface(bad)?;
                legacy_mass(&surface).ok_or_else(|| bad("the mesh encloses no volume".into()))?
            }
            // Inline vertices have no faces: MuJoCo uses their hull's, as for `convex`.
            _ => MassProperties::of_surface_mesh(&hull).map_err(|e| bad(e.to_string()))?,
        };
        Ok(Mesh { file, points, mass })
    }

    /// The file's triangles with the vertices placed, wound outwards again after a mirroring
    /// scale.
    fn surface(&self, bad: impl Fn(String) -> ImportError) -> Result<SurfaceMesh, ImportError> {
        let Some(path) = &self.file else { return Err(bad("the mesh has no faces".into())) };
        let surface = surface_io::read_surface(path).map_err(|e| bad(e.to_string()))?;
        let flipped = self.scale.iter().filter(|s| **s < 0.0).count() % 2 == 1;
        Ok(SurfaceMesh {
            vertices: surface.vertices.iter().map(|p| self.place(p)).collect(),
            triangles: surface
                .triangles
                .iter()
                .map(|&[a, b, c]| if flipped { [a, c, b] } else { [a, b, c] })
                .collect(),
        })
    }

    /// A file vertex in the mesh frame: reference position subtracted, reference orientation
    /// undone, then scaled (MuJoCo's order).
    fn place(&self, p: &Point3) -> Point3 {
        let v = self.refquat.inverse() * (p.coords - self.refpos);
        Point3::new(v.x * self.scale[0], v.y * self.scale[1], v.z * self.scale[2])
    }
}

/// MuJoCo's `legacy` mesh inertia (its default): every triangle's cone to a reference point
/// counted with positive volume, which agrees with the solid for convex meshes and overcounts
/// folds of others. The volume and centre from cones to the faces' area centroid, then the
/// second moments (and the volume again) from cones to that centre.
fn legacy_mass(mesh: &SurfaceMesh) -> Option<MassProperties> {
    let tri = |t: &[u32; 3]| t.map(|v| mesh.vertices.get(v as usize).map(|p| p.coords).unwrap_or_default());
    // (area vector / 2 = area · unit normal, centre) of each triangle.
    let faces: Vec<(Vector3, Vector3)> = mesh
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = tri(t);
            ((b - a).cross(&(c - a)) / 2.0, (a + b + c) / 3.0)
        })
        .collect();
    let area: f64 = faces.iter().map(|(n, _)| n.norm()).sum();
    if area <= 1e-300 {
        return None;
    }
    let facecen = faces.iter().map(|(n, c)| c * n.norm()).sum::<Vector3>() / area;
    let (mut volume, mut com) = (0.0, Vector3::zeros());
    for (n, c) in &faces {
        let v = ((c - facecen).dot(n) / 3.0).abs();
        volume += v;
        com += v * (c * 0.75 + facecen * 0.25);
    }
    if volume <= 1e-300 {
        return None;
    }
    let com = com / volume;
    let mut second = nalgebra::Matrix3::<f64>::zeros();
    let mut volume = 0.0;
    for t in &mesh.triangles {
        let [d, e, f] = tri(t).map(|p| p - com);
        let v = ((d + e + f).dot(&(e - d).cross(&(f - d))) / 18.0).abs();
        volume += v;
        // ∫ x xᵀ over the cone from the centre: V/20 (2 Σ p pᵀ + Σ_{p≠q} p qᵀ) = V/20 (s sᵀ + Σ p pᵀ)
        // with s = d + e + f.
        let s = d + e + f;
        second +=
            (s * s.transpose() + d * d.transpose() + e * e.transpose() + f * f.transpose()) * (v / 20.0);
    }
    Some(MassProperties {
        volume,
        centroid: Point3::from(com),
        unit_inertia: second.trace() * nalgebra::Matrix3::identity() - second,
    })
}
