//! Scene files (TOML): parsing and validation into typed bodies and settings.
//!
//! The key reference is `docs/scene.md`. Every table rejects unknown keys, and every error names
//! the body (or section) and key, with the line and column when the TOML reader knows them.

mod body;
mod checks;
mod contact_model;
mod error;
pub mod import;
mod integrator_choice;
mod location;
mod mechanism;
mod mechanism_world;
mod model;
mod orientation;
mod raw;
mod robot;
mod shape;
mod validate_body;
mod validate_contact;
mod validate_measure;
mod validate_mechanism;
mod validate_model;
mod validate_peg;
mod validate_scene;
mod validate_volume6d;
mod world;

pub use crate::contact::ModelKind;
pub use crate::contact::hertz::settings::PairSpec;
pub use crate::contact::peg::settings::{PegFormulation, PegSpec};
pub use crate::contact::volume6d::settings::{
    DEFAULT_PATCH_SCALE, SpinLimit, Volume6dFormulation, Volume6dSpec,
};
pub use crate::contact::{Compliance, ContactSpec};
pub use body::{BodySpec, Keyframe, Kinematic};
pub use contact_model::{contact_bodies, contact_model};
pub use error::{LineCol, Place, SceneError};
pub use integrator_choice::{
    INTEGRATORS, MAX_RUN_COUNT, SimSettingsError, default_integrator, integrator_choice, rounding_notes,
};
pub use mechanism::{
    ActuatorKind, ActuatorSpec, CouplerSpec, ExcludeSpec, InertiaSpec, JointSpec, JointType, Schedule,
};
pub use model::{MeasureSpec, ModelSettings, Scene, SimSettings};
pub use world::{build_world, rigid_body};

use location::{Outline, line_col, schema_error, syntax_error};
use std::path::Path;

/// Reads and validates the scene file at `path`; relative mesh files resolve against its folder.
pub fn load_scene(path: &Path) -> Result<Scene, SceneError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| SceneError::Read { path: path.to_path_buf(), source })?;
    let base_dir = path.parent().unwrap_or(Path::new("."));
    parse_scene(&text, base_dir)
}

/// Parses and validates scene text; relative mesh files resolve against `base_dir`.
pub fn parse_scene(text: &str, base_dir: &Path) -> Result<Scene, SceneError> {
    // Three passes: syntax, a lenient outline (to name bodies in later errors), strict keys.
    toml::from_str::<toml::Table>(text).map_err(|e| syntax_error(text, &e))?;
    let outline = Outline::read(text);
    let raw: raw::RawScene = toml::from_str(text).map_err(|e| schema_error(text, &outline, &e))?;

    let (model, model_settings) = validate_model::model(raw.model)?;
    let planar = model_settings.peg.planar;
    let sim = validate_scene::sim_settings(raw.sim)?;
    let mut bodies = Vec::with_capacity(raw.body.len());
    let mut places = Vec::with_capacity(raw.body.len());
    let mut pose_keys = Vec::with_capacity(raw.body.len());
    for (i, spanned) in raw.body.into_iter().enumerate() {
        let place = at(text, outline.body_label(i), spanned.span().start);
        let body = spanned.into_inner();
        let given = [
            body.position.is_some(),
            body.orientation.is_some(),
            body.angle.is_some(),
            body.linear_velocity.is_some(),
            body.angular_velocity.is_some(),
        ];
        pose_keys.push(
            validate_mechanism::POSE_KEYS.iter().zip(given).filter(|(_, g)| *g).map(|(k, _)| *k).collect(),
        );
        let shape_place = match &body.shape {
            Some(shape) => at(text, place.section.clone(), shape.span().start),
            None => place.clone(),
        };
        let spec = validate_body::body_spec(body, &place, &shape_place, base_dir, (model, planar))?;
        validate_peg::body_fits_model(&spec, model, planar, &place, &shape_place)?;
        if matches!(spec.shape, Some(crate::geometry::Shape::Compound { .. })) && !model.is_constraint() {
            return Err(SceneError::Invalid {
                place: shape_place,
                key: "shape.type".into(),
                problem: format!(
                    "a compound shape takes part in kind = \"volume6d\" or \"peg\", not in kind = \"{}\"",
                    model.key()
                ),
                fix: "set kind = \"volume6d\" or \"peg\" in [model], or give the body one shape".into(),
            });
        }
        bodies.push(spec);
        places.push(place);
    }
    let mut imported = robot::ImportedRobot::default();
    let mut robots = Vec::new();
    for spanned in raw.robot {
        let name = spanned.get_ref().name.clone();
        robots.push(name.clone());
        let place = at(text, format!("[[robot]] {name}"), spanned.span().start);
        let robot = robot::import(spanned.get_ref(), &place, base_dir, model)?;
        for (spec, place) in robot.bodies {
            bodies.push(spec);
            places.push(place);
            pose_keys.push(Vec::new());
        }
        imported.joints.extend(robot.joints);
        imported.actuators.extend(robot.actuators);
        imported.couplers.extend(robot.couplers);
        imported.excludes.extend(robot.excludes);
        imported.effort_limits.extend(robot.effort_limits);
        imported.warnings.extend(robot.warnings);
    }
    if bodies.is_empty() {
        return Err(SceneError::NoBodies);
    }
    validate_scene::unique_names(&bodies, &places)?;
    if planar {
        validate_peg::planar_gravity(&sim)?;
    }
    let facts: Vec<_> = bodies
        .iter()
        .zip(&places)
        .zip(pose_keys)
        .map(|((spec, place), pose_keys)| validate_mechanism::BodyFacts { spec, place, pose_keys })
        .collect();
    let tables = validate_mechanism::RawMechanism {
        imported,
        joints: placed_tables(text, &outline, "joint", raw.joint),
        actuators: placed_tables(text, &outline, "actuator", raw.actuator),
        couplers: placed_tables(text, &outline, "coupler", raw.coupler),
        excludes: placed_tables(text, &outline, "exclude", raw.exclude),
    };
    let mechanism = validate_mechanism::mechanism(tables, &facts)?;
    let mut warnings = mechanism.warnings;
    // Pairs that never touch: a joint's two bodies and the exclusions.
    let never_touch: std::collections::BTreeSet<(&str, &str)> = mechanism
        .joints
        .iter()
        .filter_map(|j| Some((j.parent.as_deref()?, j.child.as_str())))
        .chain(mechanism.excludes.iter().map(|e| (e.a.as_str(), e.b.as_str())))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    validate_scene::contact_pairs(model, &bodies, &never_touch, &robots, &mut warnings)?;
    let measures =
        validate_measure::measures(placed_tables(text, &outline, "measure", raw.measure), &bodies, &sim)?;
    if model.is_constraint() {
        // The impulse models' steps take shapes at their body frames, and planar peg scenes
        // free bodies only.
        if let Some(j) = mechanism.joints.first().filter(|_| planar) {
            return Err(SceneError::Invalid {
                place: Place::section(format!("[[joint]] {}", j.name)),
                key: "type".into(),
                problem: "joints in planar peg scenes are not supported yet".into(),
                fix: "drop `planar = true` (3D peg takes joints), or use bodies without joints".into(),
            });
        }
        if let Some((b, place)) =
            bodies.iter().zip(&places).find(|(b, _)| b.shape_pose != crate::math::Isometry3::identity())
        {
            return Err(SceneError::Invalid {
                place: place.clone(),
                key: "shape.position".into(),
                problem: format!("body `{}`: an offset shape under kind = \"{}\" is not supported yet", b.name, model.key()),
                fix: "place the body frame at the shape (body `position` / `orientation`), or use a compound shape's part offsets".into(),
            });
        }
    }
    Ok(Scene {
        model,
        model_settings,
        sim,
        bodies,
        joints: mechanism.joints,
        actuators: mechanism.actuators,
        couplers: mechanism.couplers,
        excludes: mechanism.excludes,
        measures,
        warnings,
    })
}

/// Each table of a `[[array]]` with its place (the table's label and line).
fn placed_tables<T>(
    text: &str,
    outline: &Outline,
    array: &str,
    tables: Vec<toml::Spanned<T>>,
) -> Vec<(T, Place)> {
    tables
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let place = at(text, outline.mechanism_label(array, i), t.span().start);
            (t.into_inner(), place)
        })
        .collect()
}

fn at(text: &str, section: String, offset: usize) -> Place {
    Place { section, at: Some(line_col(text, offset)) }
}
