//! `[model]` keys of the PEG model, and what a PEG scene (planar or not) asks of its bodies.

use super::checks;
use super::raw::RawModel;
use super::{BodySpec, ModelKind, PegFormulation, PegSpec, Place, SceneError, SimSettings};
use crate::geometry::Shape;

/// The PEG settings of `[model]`; an error names a key given to another model, or a value out
/// of range with the valid ones.
pub(super) fn peg_spec(kind: ModelKind, raw: &RawModel) -> Result<PegSpec, SceneError> {
    let mut spec = PegSpec::default();
    let place = Place::section("[model]");
    let given = [
        ("contact_tolerance", raw.contact_tolerance.is_some()),
        ("friction_directions", raw.friction_directions.is_some()),
        ("planar", raw.planar.is_some()),
        ("correction_speed", raw.correction_speed.is_some()),
    ];
    checks::model_keys(&[ModelKind::Peg], kind, &given)?;
    if kind != ModelKind::Peg {
        return Ok(spec);
    }
    match raw.formulation.as_deref() {
        None | Some("peg") => {}
        Some("standard") => spec.formulation = PegFormulation::Standard,
        Some(other) => {
            return Err(checks::invalid(
                &place,
                "formulation",
                format!("`{other}` is unknown under kind = \"peg\""),
                "use \"peg\" (the default) or \"standard\"".into(),
            ));
        }
    }
    if let Some(e) = raw.contact_tolerance {
        spec.contact_tolerance =
            Some(checks::within(&place, "contact_tolerance", e, checks::range::LENGTH, "m")?);
    }
    if let Some(v) = raw.correction_speed {
        spec.correction_speed =
            checks::within(&place, "correction_speed", v, (1e-6, checks::range::SPEED), "m/s")?;
    }
    spec.planar = raw.planar.unwrap_or(false);
    match (raw.friction_directions, spec.planar) {
        (None, false) => {}
        (None, true) => spec.friction_directions = 2,
        (Some(2), true) => spec.friction_directions = 2,
        (Some(n), true) => {
            return Err(checks::invalid(
                &place,
                "friction_directions",
                format!("is {n}, but a planar scene's friction cone has 2 directions (±tangent)"),
                "remove friction_directions, or set it to 2".into(),
            ));
        }
        (Some(n), false) => {
            if n < 4 || n % 2 != 0 || n > 64 {
                return Err(checks::invalid(
                    &place,
                    "friction_directions",
                    format!("is {n}: the 3D friction cone needs an even number of directions from 4 to 64"),
                    "use 4 (the default) or 8; directions come in opposite pairs".into(),
                ));
            }
            spec.friction_directions = n as usize;
        }
    }
    Ok(spec)
}

/// Body keys that belong to one kind of scene: `appear_time` to PEG, `angle` and
/// `moment_of_inertia` and polygons to planar PEG scenes; planar scenes take flat shapes only,
/// and a PEG `convex` file must be convex.
pub(super) fn body_fits_model(
    body: &BodySpec,
    kind: ModelKind,
    planar: bool,
    place: &Place,
    shape_place: &Place,
) -> Result<(), SceneError> {
    if kind != ModelKind::Peg && body.appear_time != 0.0 {
        return Err(checks::invalid(
            place,
            "appear_time",
            format!("is a body key of kind = \"peg\", not of kind = \"{}\"", kind.key()),
            "remove it, or set kind = \"peg\" in [model]".into(),
        ));
    }
    if planar {
        match &body.shape {
            Some(Shape::Polygon { .. } | Shape::Box { .. } | Shape::HalfSpace) | None => {}
            Some(other) => {
                return Err(checks::invalid(
                    shape_place,
                    "shape.type",
                    format!("is `{}`, which a planar scene cannot take", other.kind()),
                    "use a polygon, a box (its x–z section) or a halfspace in a planar scene".into(),
                ));
            }
        }
        if body.pose.translation.vector.y != 0.0 {
            return Err(checks::invalid(
                place,
                "position",
                format!(
                    "has y = {}, but a planar scene lies in the plane y = 0",
                    body.pose.translation.vector.y
                ),
                "give y = 0".into(),
            ));
        }
        if body.twist.linear.y != 0.0 {
            return Err(checks::invalid(
                place,
                "linear_velocity",
                "has a y component, but planar bodies move in the x–z plane".into(),
                "give y = 0".into(),
            ));
        }
        if body.twist.angular.x != 0.0 || body.twist.angular.z != 0.0 {
            return Err(checks::invalid(
                place,
                "angular_velocity",
                "has an x or z component, but planar bodies turn about y only".into(),
                "give [0, ω_y, 0]; ω_y = −(counter-clockwise rate in the x–z view)".into(),
            ));
        }
        if body.kinematic.is_some() {
            return Err(checks::invalid(
                place,
                "kinematic",
                "is not supported in planar scenes".into(),
                "make the body fixed or free".into(),
            ));
        }
        return Ok(());
    }
    if matches!(body.shape, Some(Shape::Polygon { .. })) {
        return Err(checks::invalid(
            shape_place,
            "shape.type",
            "is `polygon`, which only a planar scene takes".into(),
            "set planar = true and kind = \"peg\" in [model], or use a 3D shape".into(),
        ));
    }
    if kind == ModelKind::Peg
        && let Some(Shape::Convex { file, points }) = &body.shape
        && let Some(inside) = point_inside_hull(points)
    {
        return Err(checks::invalid(
            shape_place,
            "shape.file",
            format!(
                "{} is not convex: its vertex {inside} lies inside the hull of the others",
                file.display()
            ),
            "give a convex polyhedron, or split the body into convex parts with type = \"compound\"".into(),
        ));
    }
    Ok(())
}

/// Planar scenes fall in the x–z plane.
pub(super) fn planar_gravity(sim: &SimSettings) -> Result<(), SceneError> {
    if sim.gravity.y != 0.0 {
        return Err(checks::invalid(
            &Place::section("[sim]"),
            "gravity",
            "has a y component, but a planar scene moves in the x–z plane".into(),
            "give gravity = [g_x, 0, g_z]".into(),
        ));
    }
    Ok(())
}

/// The index (from 1) of a point that lies strictly inside the convex hull of `points`
/// (farther than a relative 1e-9 of the hull's size from its boundary), if any.
fn point_inside_hull(points: &[crate::math::Point3]) -> Option<usize> {
    let hull = crate::geometry::convex_hull::convex_hull(points).ok()?;
    let size = points.iter().map(|p| p.coords.norm()).fold(0.0, f64::max).max(1e-300);
    let planes: Vec<(crate::math::Vector3, f64)> = hull
        .triangles
        .iter()
        .filter_map(|t| {
            let [a, b, c] = t.map(|v| hull.vertices[v as usize]);
            let n = (b - a).cross(&(c - a));
            let len = n.norm();
            (len > 0.0).then(|| (n / len, (n / len).dot(&a.coords)))
        })
        .collect();
    points.iter().position(|p| planes.iter().all(|(n, d)| n.dot(&p.coords) - d < -1e-9 * size)).map(|i| i + 1)
}
