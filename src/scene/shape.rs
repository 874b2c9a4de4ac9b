//! `shape = { type = "...", ... }` → [`Shape`], with sizes checked and convex files loaded.

use super::checks;
use super::location::fix_for;
use super::raw::{RawShape, SHAPE_KEYS, SHAPES_WITHOUT_POSE, exact};
use super::{Place, SceneError};
use crate::geometry::{CompoundPart, MeshCore, MeshData, Shape, mesh_check, mesh_io, surface_io, tet_io};
use crate::math::{Isometry3, Translation3, UnitQuaternion, Vector3};
use std::path::Path;

/// A body's shape table: the shape and its pose in the body frame (`position`, `orientation`;
/// identity when absent), taken off the table before the shape is read. A half space, a compound
/// and a polygon have no pose of their own.
pub(super) fn parse_body_shape(
    table: &toml::Table,
    place: &Place,
    base_dir: &Path,
) -> Result<(Shape, Isometry3), SceneError> {
    let mut table = table.clone();
    let kind = table.get("type").and_then(|t| t.as_str()).map(str::to_owned);
    if let Some(kind) = kind.filter(|k| SHAPES_WITHOUT_POSE.contains(&k.as_str()))
        && let Some(key) = ["position", "orientation"].into_iter().find(|k| table.contains_key(*k))
    {
        let why = match kind.as_str() {
            "compound" => "a compound's parts each carry their own `position` and `orientation`",
            "polygon" => "a polygon's vertices are already in the body frame",
            _ => {
                "a half space is the body frame's z ≤ 0; place it with the body's own `position` and `orientation`"
            }
        };
        return Err(SceneError::Invalid {
            place: place.clone(),
            key: format!("shape.{key}"),
            problem: format!("is not allowed for a shape of type = \"{kind}\": {why}"),
            fix: format!("remove `shape.{key}`"),
        });
    }
    let pose = take_pose(&mut table, place, "shape.")?;
    Ok((parse_shape(&table, place, base_dir)?, pose))
}

/// Removes `position` and `orientation` from a shape table and checks them like a body's
/// (`prefix` is put before the key in errors: "shape." or "").
fn take_pose(table: &mut toml::Table, place: &Place, prefix: &str) -> Result<Isometry3, SceneError> {
    let invalid = |key: &str, fix: &str| {
        let place = place.clone();
        let (key, fix) = (format!("{prefix}{key}"), fix.to_owned());
        move |e: toml::de::Error| SceneError::Invalid {
            place,
            key,
            problem: e.message().trim().to_owned(),
            fix,
        }
    };
    let position = match table.remove("position") {
        Some(v) => exact::required::<_, 3>(v).map_err(invalid("position", "give [x, y, z] (m)"))?,
        None => [0.0; 3],
    };
    let position =
        checks::norm_at_most(place, &format!("{prefix}position"), position, checks::range::POSITION, "m")?;
    let rotation = match table.remove("orientation") {
        Some(v) => super::orientation::unit_quaternion(
            place,
            exact::required::<_, 4>(v).map_err(invalid("orientation", "give [w, x, y, z]"))?,
        )
        .map_err(|e| checks::rekey(e, &format!("{prefix}orientation")))?,
        None => UnitQuaternion::identity(),
    };
    Ok(Isometry3::from_parts(Translation3::from(Vector3::from(position)), rotation))
}

/// Converts a body's shape table. `place` is the shape table's place; relative files resolve
/// against `base_dir`.
pub(super) fn parse_shape(table: &toml::Table, place: &Place, base_dir: &Path) -> Result<Shape, SceneError> {
    let raw: RawShape = table.clone().try_into().map_err(|e: toml::de::Error| {
        let message = e.message().trim().to_owned();
        // serde's message for a tagged enum lists the keys of the variant but not `type`;
        // say all of them, so the fix is clear.
        let kind = table.get("type").and_then(|t| t.as_str());
        let valid = SHAPE_KEYS
            .iter()
            .find(|(k, _)| Some(*k) == kind)
            .map(|(k, keys)| format!(" (a {k} takes the keys: {keys})"));
        let types: Vec<&str> = SHAPE_KEYS.iter().map(|(k, _)| *k).collect();
        let message = match (valid, kind) {
            (Some(valid), _) => format!("`shape`: {message}{valid}"),
            (None, None) => format!("`shape`: {message}; `type` is one of: {}", types.join(", ")),
            (None, Some(_)) => format!("`shape.type`: {message}"),
        };
        SceneError::Schema { place: place.clone(), message, fix: fix_for(e.message()).into() }
    })?;
    let shape = match raw {
        RawShape::Sphere { radius } => Shape::Sphere {
            radius: checks::within(place, "shape.radius", radius, checks::range::LENGTH, "m")?,
        },
        RawShape::Box { size } => {
            Shape::Box { size: checks::within_n(place, "shape.size", size, checks::range::LENGTH, "m")? }
        }
        RawShape::Cylinder { radius, length } => Shape::Cylinder {
            radius: checks::within(place, "shape.radius", radius, checks::range::LENGTH, "m")?,
            length: checks::within(place, "shape.length", length, checks::range::LENGTH, "m")?,
        },
        RawShape::Cone { radius, top_radius, length } => Shape::Cone {
            radius: checks::within(place, "shape.radius", radius, checks::range::LENGTH, "m")?,
            top_radius: match top_radius {
                Some(r) => checks::non_negative(place, "shape.top_radius", r)?,
                None => 0.0,
            },
            length: checks::within(place, "shape.length", length, checks::range::LENGTH, "m")?,
        },
        RawShape::Beam { length, width, thickness } => Shape::Beam {
            length: checks::within(place, "shape.length", length, checks::range::LENGTH, "m")?,
            width: checks::within(place, "shape.width", width, checks::range::LENGTH, "m")?,
            thickness: checks::within(place, "shape.thickness", thickness, checks::range::LENGTH, "m")?,
        },
        RawShape::Capsule { radius, length } => Shape::Capsule {
            radius: checks::within(place, "shape.radius", radius, checks::range::LENGTH, "m")?,
            length: checks::within(place, "shape.length", length, checks::range::LENGTH, "m")?,
        },
        RawShape::Ellipsoid { radii } => Shape::Ellipsoid {
            radii: checks::within_n(place, "shape.radii", radii, checks::range::LENGTH, "m")?,
        },
        RawShape::Halfspace {} => Shape::HalfSpace,
        RawShape::Convex { file } => {
            let path = base_dir.join(&file);
            let points = mesh_io::read_points(&path).map_err(|source| SceneError::ShapeFile {
                place: place.clone(),
                path: path.clone(),
                source: Box::new(source),
            })?;
            if points.len() < 4 || points.iter().any(|p| !p.coords.iter().all(|c| c.is_finite())) {
                return Err(SceneError::Invalid {
                    place: place.clone(),
                    key: "shape.file".into(),
                    problem: format!(
                        "{} has {} vertices, some not finite or fewer than the 4 a solid needs",
                        path.display(),
                        points.len()
                    ),
                    fix: "use a mesh file with at least 4 finite, non-coplanar vertices".into(),
                });
            }
            Shape::Convex { file: path, points }
        }
        RawShape::Mesh { file, field, core, skin_depth } => {
            mesh_shape(base_dir.join(&file), field, core, skin_depth, place)?
        }
        RawShape::Compound { parts } => compound_shape(parts, place, base_dir)?,
        RawShape::Polygon { vertices } => polygon_shape(vertices, place)?,
    };
    Ok(shape)
}

/// `shape = { type = "compound", parts = [{ type = "box", size = [...], position = [...],
/// orientation = [...] }, ...] }`: each part a convex shape placed in the body frame.
fn compound_shape(parts: Vec<toml::Table>, place: &Place, base_dir: &Path) -> Result<Shape, SceneError> {
    if parts.is_empty() {
        return Err(SceneError::Invalid {
            place: place.clone(),
            key: "shape.parts".into(),
            problem: "is empty".into(),
            fix: "give at least one part, e.g. parts = [{ type = \"box\", size = [0.1, 0.1, 0.1] }]".into(),
        });
    }
    let mut out = Vec::with_capacity(parts.len());
    for (k, mut table) in parts.into_iter().enumerate() {
        let part_place = Place { section: format!("{}, shape.parts[{k}]", place.section), at: place.at };
        // The part's place (`position`, `orientation`) is read off its table, each key by the
        // scene's exact-length reader so that an error names it; the rest is a shape.
        let pose = take_pose(&mut table, &part_place, "")?;
        let shape = parse_shape(&table, &part_place, base_dir)?;
        if matches!(shape, Shape::HalfSpace | Shape::Mesh { .. } | Shape::Compound { .. }) {
            return Err(SceneError::Invalid {
                place: part_place,
                key: "type".into(),
                problem: format!("a part cannot be a {}", shape.kind()),
                fix: "make each part a convex shape: box, sphere, cylinder, capsule, cone, beam, ellipsoid or convex".into(),
            });
        }
        out.push(CompoundPart { shape, pose });
    }
    Ok(Shape::Compound { parts: out })
}

/// `shape = { type = "polygon", vertices = [[x, z], ...] }`: at least three finite vertices,
/// strictly convex (no three in a row) and counter-clockwise seen with x to the right and z up.
fn polygon_shape(vertices: Vec<Vec<f64>>, place: &Place) -> Result<Shape, SceneError> {
    let invalid = |problem: String, fix: &str| SceneError::Invalid {
        place: place.clone(),
        key: "shape.vertices".into(),
        problem,
        fix: fix.into(),
    };
    let mut out = Vec::with_capacity(vertices.len());
    for (k, v) in vertices.iter().enumerate() {
        let [x, z] = v[..] else {
            return Err(invalid(
                format!("vertex {k} has {} numbers", v.len()),
                "give each vertex as [x, z] (m)",
            ));
        };
        let [x, z] = checks::finite_n(place, "shape.vertices", [x, z])?;
        let (_, hi) = checks::range::LENGTH;
        if x.abs().max(z.abs()) > hi {
            return Err(invalid(
                format!("vertex {k} = [{x:e}, {z:e}] m lies farther than the {hi:e} m the simulator handles"),
                "give vertices in metres, within that distance of the body's origin",
            ));
        }
        out.push([x, z]);
    }
    if out.len() < 3 {
        return Err(invalid(format!("has {} vertices", out.len()), "give at least 3 vertices [x, z]"));
    }
    let (lo, _) = checks::range::LENGTH;
    let width = |axis: usize| {
        let values = out.iter().map(|v| v[axis]);
        values.clone().fold(f64::NEG_INFINITY, f64::max) - values.fold(f64::INFINITY, f64::min)
    };
    if width(0).min(width(1)) < lo {
        return Err(invalid(
            format!("spans {:e} m × {:e} m, below the {lo:e} m the simulator handles", width(0), width(1)),
            "give vertices in metres, the polygon at least that wide and tall",
        ));
    }
    let n = out.len();
    let size = out.iter().map(|[x, z]| x.hypot(*z)).fold(0.0, f64::max).max(1e-300);
    let cross = |k: usize| {
        let ([ax, az], [bx, bz], [cx, cz]) = (out[k], out[(k + 1) % n], out[(k + 2) % n]);
        (bx - ax) * (cz - bz) - (bz - az) * (cx - bx)
    };
    // Each turn to the left and the turns adding up to one full turn: convex, simple, CCW.
    let mut winding = 0.0;
    for k in 0..n {
        let c = cross(k);
        if c <= 1e-12 * size * size {
            let why = if c < 0.0 {
                "turns clockwise (or the polygon is not convex)"
            } else {
                "is in line with its neighbours"
            };
            return Err(invalid(
                format!("vertex {} {why}", (k + 1) % n),
                "give a convex polygon's vertices counter-clockwise (x to the right, z up), no three in a line",
            ));
        }
        let ([ax, az], [bx, bz], [cx, cz]) = (out[k], out[(k + 1) % n], out[(k + 2) % n]);
        let (u, w) = ((bx - ax, bz - az), (cx - bx, cz - bz));
        winding += (u.0 * w.1 - u.1 * w.0).atan2(u.0 * w.0 + u.1 * w.1);
    }
    if (winding - std::f64::consts::TAU).abs() > 1e-6 {
        return Err(invalid(
            format!("winds {:.3} turns: the polygon crosses itself", winding / std::f64::consts::TAU),
            "give a simple convex polygon's vertices counter-clockwise, each once",
        ));
    }
    Ok(Shape::Polygon { vertices: out })
}

/// `shape = { type = "mesh", file, field = "laplace", core = "medial_axis", skin_depth }`.
fn mesh_shape(
    path: std::path::PathBuf,
    field: Option<String>,
    core: Option<String>,
    skin_depth: Option<f64>,
    place: &Place,
) -> Result<Shape, SceneError> {
    let invalid = |key: &str, problem: String, fix: &str| SceneError::Invalid {
        place: place.clone(),
        key: format!("shape.{key}"),
        problem,
        fix: fix.into(),
    };
    if let Some(f) = field.as_deref().filter(|f| *f != "laplace") {
        return Err(invalid(
            "field",
            format!("= \"{f}\" is unknown"),
            "use field = \"laplace\" (the default)",
        ));
    }
    let core = match (core.as_deref(), skin_depth) {
        (Some("medial_axis") | None, None) => MeshCore::MedialAxis,
        (Some("skin_depth") | None, Some(h)) => {
            MeshCore::SkinDepth(checks::within(place, "shape.skin_depth", h, checks::range::LENGTH, "m")?)
        }
        (Some("skin_depth"), None) => {
            return Err(invalid(
                "skin_depth",
                "is missing for core = \"skin_depth\"".into(),
                "give skin_depth (m)",
            ));
        }
        (Some("medial_axis"), Some(_)) => {
            return Err(invalid(
                "skin_depth",
                "is given with core = \"medial_axis\"".into(),
                "remove skin_depth, or remove core to use the skin",
            ));
        }
        (Some(other), _) => {
            return Err(invalid(
                "core",
                format!("= \"{other}\" is unknown"),
                "use core = \"medial_axis\" (the default) or give skin_depth (m)",
            ));
        }
    };
    let file_error = |source: crate::geometry::GeometryError| SceneError::ShapeFile {
        place: place.clone(),
        path: path.clone(),
        source: Box::new(source),
    };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let (data, notes) = if ext == "vtk" || ext == "msh" {
        let file = tet_io::read_tet_mesh(&path).map_err(file_error)?;
        (MeshData::Tets { mesh: file.mesh, extent: file.extent }, Vec::new())
    } else {
        let surface = surface_io::read_surface(&path).map_err(file_error)?;
        let checked = mesh_check::check_closed_mesh(surface).map_err(file_error)?;
        let notes = checked.repairs.into_iter().chain(checked.notes).collect();
        (MeshData::Surface(checked.mesh), notes)
    };
    Ok(Shape::Mesh { file: path, data, core, notes })
}
