//! `<collision>` and `<visual>` geometry: the shapes, and mesh files found through `package://`,
//! `file://` and relative paths and loaded as the scene loads `type = "mesh"`.

use super::super::{Geometry, ImportError};
use super::xml::{Ctx, plain_name, tag};
use crate::geometry::{GeometryError, MeshCore, MeshData, Shape, mesh_check, mesh_io, surface_io};
use crate::math::Point3;
use roxmltree::Node;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The environment variable listing more package folders (colon-separated on Unix).
pub(super) const PACKAGE_PATH_VAR: &str = "CONTACTLAB_PACKAGE_PATH";

/// Finds and loads mesh files, each (file, scale) once.
pub(super) struct Meshes {
    /// The URDF's folder: relative filenames start here.
    base_dir: PathBuf,
    /// Folders that hold packages: the caller's, then [`PACKAGE_PATH_VAR`]'s.
    package_dirs: Vec<PathBuf>,
    loaded: HashMap<(PathBuf, [u64; 3]), Shape>,
}

/// Where a mesh filename led.
enum Found {
    File(PathBuf),
    Missing(Vec<PathBuf>),
}

impl Meshes {
    pub fn new(urdf: &Path, package_paths: &[PathBuf]) -> Meshes {
        let base_dir = urdf.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut package_dirs = package_paths.to_vec();
        if let Some(var) = std::env::var_os(PACKAGE_PATH_VAR) {
            package_dirs.extend(std::env::split_paths(&var).filter(|p| !p.as_os_str().is_empty()));
        }
        Meshes { base_dir, package_dirs, loaded: HashMap::new() }
    }

    /// The candidate paths of a mesh `filename` as URDF writes it; `Err` for a form we cannot
    /// resolve (a message and a fix).
    fn candidates(&self, filename: &str) -> Result<Vec<PathBuf>, (String, String)> {
        // Gazebo's model:// is resolved like package:// (as Drake does).
        if let Some(rest) = filename.strip_prefix("package://").or_else(|| filename.strip_prefix("model://"))
        {
            let rest = rest.trim_start_matches('/');
            if rest.split('/').filter(|s| !s.is_empty()).count() < 2 {
                return Err((
                    format!("= \"{filename}\" names no file inside the package"),
                    "write package://PACKAGE/path/to/mesh.stl".into(),
                ));
            }
            // DIR/NAME/rest, and DIR/rest when DIR is the package's own folder (named NAME).
            let package = rest.split('/').next().unwrap_or_default();
            let inside = rest.split_once('/').map_or("", |(_, inside)| inside);
            let mut out = Vec::new();
            for dir in &self.package_dirs {
                out.push(dir.join(rest));
                if dir.file_name().is_some_and(|n| n == package) {
                    out.push(dir.join(inside));
                }
            }
            return Ok(out);
        }
        if let Some(rest) = filename.strip_prefix("file://") {
            return Ok(vec![self.base_dir.join(rest)]);
        }
        if let Some((scheme, _)) = filename.split_once("://") {
            return Err((
                format!("= \"{filename}\" uses the scheme {scheme}://, which contactlab cannot fetch"),
                "use package://, file:// or a path relative to the URDF file".into(),
            ));
        }
        if filename.trim().is_empty() {
            return Err(("is empty".into(), "give the mesh file's path".into()));
        }
        Ok(vec![self.base_dir.join(filename)])
    }

    fn find(&self, filename: &str) -> Result<Found, (String, String)> {
        let candidates = self.candidates(filename)?;
        Ok(match candidates.iter().find(|p| p.is_file()) {
            Some(p) => Found::File(p.clone()),
            None => Found::Missing(candidates),
        })
    }

    /// How to make a missing `filename` found.
    fn missing_fix(&self, filename: &str) -> String {
        let rest = filename.strip_prefix("package://").or_else(|| filename.strip_prefix("model://"));
        match rest.and_then(|r| r.split('/').find(|s| !s.is_empty())) {
            Some(package) if self.package_dirs.is_empty() => format!(
                "no package folder was given: pass the folder that contains `{package}/` as a package path, or list it in {PACKAGE_PATH_VAR}"
            ),
            Some(package) => format!(
                "pass the folder that contains `{package}/` as a package path, or list it in {PACKAGE_PATH_VAR} (folders separated by ':')"
            ),
            None => "check the file name, or copy the mesh there".into(),
        }
    }
}

/// What reading geometry needs besides the file: the meshes, and the model's warnings.
pub(super) struct GeometryReport<'m> {
    pub meshes: &'m mut Meshes,
    pub warnings: &'m mut Vec<String>,
}

/// One `<collision>`: its name, pose in the link frame and shape.
pub(super) fn collision(ctx: &Ctx, node: Node, report: &mut GeometryReport) -> Result<Geometry, ImportError> {
    let pose = ctx.origin(node)?;
    let Some(geometry) = ctx.only_child(node, "geometry")? else {
        return Err(ctx.invalid(
            node,
            "geometry",
            "is missing",
            "give a <geometry> with a box, cylinder, sphere, capsule or mesh",
        ));
    };
    let mut shapes = geometry.children().filter(Node::is_element);
    let (Some(shape), None) = (shapes.next(), shapes.next()) else {
        return Err(ctx.invalid(
            geometry,
            "",
            "must hold exactly one shape",
            "give one of <box>, <cylinder>, <sphere>, <capsule>, <mesh> (several shapes: several <collision>s)",
        ));
    };
    // Capsules and ellipsoids are other tools' extensions, whatever their namespace.
    let name = plain_name(shape).unwrap_or_else(|| match shape.tag_name().name() {
        extension @ ("capsule" | "ellipsoid") => extension,
        _ => "",
    });
    let shape = match name {
        "box" => {
            let size = ctx.numbers::<3>(
                shape,
                "size",
                ctx.required(shape, "size", "give size=\"x y z\" (full edge lengths, m)")?,
            )?;
            if size.iter().any(|s| *s <= 0.0) {
                return Err(ctx.invalid(
                    shape,
                    "size",
                    format!("= {size:?} has a side ≤ 0"),
                    "give three edge lengths > 0 (m)",
                ));
            }
            Shape::Box { size }
        }
        "sphere" => Shape::Sphere { radius: ctx.positive(shape, "radius")? },
        "cylinder" => {
            Shape::Cylinder { radius: ctx.positive(shape, "radius")?, length: ctx.positive(shape, "length")? }
        }
        // Not in the URDF spec but common (Drake, pybullet): length is the cylindrical part.
        "capsule" => Shape::Capsule {
            radius: ctx.positive(shape, "radius")?,
            length: ctx.non_negative(shape, "length", None)?,
        },
        // Drake's <drake:ellipsoid a b c>: the semi-axes.
        "ellipsoid" => Shape::Ellipsoid {
            radii: [ctx.positive(shape, "a")?, ctx.positive(shape, "b")?, ctx.positive(shape, "c")?],
        },
        "mesh" => collision_mesh(ctx, shape, report)?,
        _ => {
            return Err(ctx.invalid(
                shape,
                "",
                format!("<{}> is not a geometry contactlab reads", tag(shape)),
                "use <box>, <cylinder>, <sphere>, <capsule> or <mesh>",
            ));
        }
    };
    Ok(Geometry { name: node.attribute("name").map(str::to_owned), shape, pose, friction: None })
}

/// `scale="sx sy sz"` (or one number for all three), each nonzero.
fn mesh_scale(ctx: &Ctx, mesh: Node) -> Result<[f64; 3], ImportError> {
    let Some(text) = mesh.attribute("scale") else { return Ok([1.0; 3]) };
    let scale = if text.split_whitespace().count() == 1 {
        [ctx.numbers::<1>(mesh, "scale", text)?[0]; 3]
    } else {
        ctx.numbers::<3>(mesh, "scale", text)?
    };
    if scale.contains(&0.0) {
        return Err(ctx.invalid(
            mesh,
            "scale",
            format!("= {scale:?} flattens the mesh"),
            "give nonzero scale factors",
        ));
    }
    Ok(scale)
}

/// A collision `<mesh filename scale>`: found, read, scaled and checked like a scene's
/// `type = "mesh"`. A surface that does not close becomes the convex hull of its vertices, with
/// a warning: robot meshes made for display often have small holes.
fn collision_mesh(ctx: &Ctx, mesh: Node, report: &mut GeometryReport) -> Result<Shape, ImportError> {
    let filename = ctx.required(mesh, "filename", "give filename=\"package://PACKAGE/meshes/part.stl\"")?;
    let scale = mesh_scale(ctx, mesh)?;
    let meshes = &*report.meshes;
    let path = match meshes.find(filename) {
        Err((problem, fix)) => return Err(ctx.invalid(mesh, "filename", problem, fix)),
        Ok(Found::Missing(searched)) => {
            return Err(ImportError::Missing {
                path: ctx.path.to_path_buf(),
                line: ctx.line(mesh),
                element: super::xml::element_path(mesh),
                file: filename.to_owned(),
                searched,
                fix: meshes.missing_fix(filename),
            });
        }
        Ok(Found::File(path)) => path,
    };
    let key = (path.clone(), scale.map(f64::to_bits));
    if let Some(shape) = meshes.loaded.get(&key) {
        return Ok(shape.clone());
    }
    let unreadable = |e: GeometryError| {
        ctx.invalid(
            mesh,
            "filename",
            format!("{}: {e}", path.display()),
            "give a closed triangle mesh in a .stl, .obj or .ply file",
        )
    };
    let mut surface = surface_io::read_surface(&path).map_err(unreadable)?;
    for v in &mut surface.vertices {
        *v = Point3::new(v.x * scale[0], v.y * scale[1], v.z * scale[2]);
    }
    if let Some(reason) = mesh_io::coordinate_problem(&surface.vertices) {
        return Err(ctx.invalid(
            mesh,
            "scale",
            format!("scales {}: {reason}", path.display()),
            "check the scale (metres)",
        ));
    }
    let points = surface.vertices.clone();
    let shape = match mesh_check::check_closed_mesh(surface) {
        Ok(checked) => {
            let notes = checked.repairs.into_iter().chain(checked.notes).collect();
            Shape::Mesh {
                file: path.clone(),
                data: MeshData::Surface(checked.mesh),
                core: MeshCore::MedialAxis,
                notes,
            }
        }
        Err(GeometryError::InvalidMesh { problems }) if points.len() >= 4 => {
            report.warnings.push(format!(
                "line {}: <{}> {} does not bound a solid ({}{}): its convex hull is used; repair the mesh to collide with its true shape",
                ctx.line(mesh),
                super::xml::element_path(mesh),
                path.display(),
                problems.first().map(String::as_str).unwrap_or("open"),
                if problems.len() > 1 { format!(", and {} more problems", problems.len() - 1) } else { String::new() },
            ));
            Shape::Convex { file: path.clone(), points }
        }
        Err(e) => return Err(unreadable(e)),
    };
    report.meshes.loaded.insert(key, shape.clone());
    Ok(shape)
}

/// A `<visual>`: not read, but a mesh it names that cannot be found is a warning (the file
/// probably lacks its package path, which collision meshes would need too).
pub(super) fn check_visual(ctx: &Ctx, node: Node, report: &mut GeometryReport) {
    let meshes = node.descendants().filter(|n| {
        n.is_element()
            && n.tag_name().name() == "mesh"
            && n.parent_element().is_some_and(|p| p.tag_name().name() == "geometry")
    });
    for mesh in meshes {
        let filename = mesh.attribute("filename").unwrap_or("");
        let problem = match report.meshes.find(filename) {
            Ok(Found::File(_)) => continue,
            Ok(Found::Missing(searched)) if searched.is_empty() => {
                "was not looked for: no package folder was given".to_owned()
            }
            Ok(Found::Missing(searched)) => format!(
                "was not found (looked in: {})",
                searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
            Err((problem, _)) => problem,
        };
        report.warnings.push(format!(
            "line {}: <{}> filename \"{filename}\" {problem}; visual geometry is not used, so the robot loads anyway",
            ctx.line(mesh),
            super::xml::element_path(mesh),
        ));
    }
}
