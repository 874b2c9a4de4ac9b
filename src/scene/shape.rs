//! `shape = { type = "...", ... }` → [`Shape`], with sizes checked and convex files loaded.

use super::checks::{positive, positive_n};
use super::location::fix_for;
use super::raw::{RawShape, SHAPE_KEYS};
use super::{Place, SceneError};
use crate::geometry::{Shape, mesh_io};
use std::path::Path;

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
        RawShape::Sphere { radius } => {
            Shape::Sphere { radius: positive(place, "shape.radius", radius, "m")? }
        }
        RawShape::Box { size } => Shape::Box { size: positive_n(place, "shape.size", size, "m")? },
        RawShape::Cylinder { radius, length } => Shape::Cylinder {
            radius: positive(place, "shape.radius", radius, "m")?,
            length: positive(place, "shape.length", length, "m")?,
        },
        RawShape::Capsule { radius, length } => Shape::Capsule {
            radius: positive(place, "shape.radius", radius, "m")?,
            length: positive(place, "shape.length", length, "m")?,
        },
        RawShape::Ellipsoid { radii } => {
            Shape::Ellipsoid { radii: positive_n(place, "shape.radii", radii, "m")? }
        }
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
        RawShape::Mesh { .. } => {
            return Err(SceneError::Invalid {
                place: place.clone(),
                key: "shape.type".into(),
                problem: "= \"mesh\": general closed meshes are not supported yet (issue 4)".into(),
                fix: "use convex: shape = { type = \"convex\", file = ... } uses the convex hull of the same file".into(),
            });
        }
    };
    Ok(shape)
}
