//! MJCF (MuJoCo XML) → [`RobotModel`]: the subset real models use. `docs/robots.md` (## MJCF)
//! says what is read, what is skipped and how MuJoCo's bodies map onto our joint frames.
//!
//! Reading goes in MuJoCo's order: the document with its includes (`xml`), the compiler
//! settings (`compiler`), default classes (`defaults`), mesh assets (`assets`), the body tree
//! (`bodies`: joints, geoms, inertia), then actuators, couplings, exclusions and keyframes
//! against it (`sections`, `collisions`).

mod actuator_params;
mod assets;
mod attrs;
mod bodies;
mod collisions;
mod compiler;
mod defaults;
mod geoms;
mod inertia;
mod joints;
mod schema;
mod sections;
mod xml;

use crate::scene::import::{ImportError, RobotFormat, RobotModel};
use bodies::{Builder, Tree};
use std::collections::BTreeMap;
use std::path::Path;

/// Reads the MJCF file at `path` (and the files it includes). Errors name the file, line,
/// element and attribute, and say how to fix them; no input makes it panic.
pub fn read_mjcf(path: &Path) -> Result<RobotModel, ImportError> {
    let root = xml::load(path)?;
    if root.tag != "mujoco" {
        return Err(root.invalid(
            "",
            format!("the root element is <{}>, not <mujoco>: this is not an MJCF file", root.tag),
            "give a MuJoCo XML file (URDF files have their own reader)",
        ));
    }
    let main_dir = path.parent().unwrap_or(Path::new(""));
    let mut sections: BTreeMap<&str, Vec<&xml::Element>> = BTreeMap::new();
    let mut notes = Vec::new();
    for el in &root.children {
        match el.tag.as_str() {
            tag @ ("compiler" | "default" | "asset" | "worldbody" | "actuator" | "equality" | "contact"
            | "keyframe") => sections.entry(tag).or_default().push(el),
            "option" => notes.push(option_note(el)),
            tag @ ("size" | "visual" | "statistic" | "custom" | "extension") => {
                notes.push(format!("skipped <{tag}> (settings of MuJoCo itself)"));
            }
            tag @ ("sensor" | "tendon" | "deformable") => {
                notes.push(format!("skipped <{tag}> ({} elements: not supported)", count(el)));
            }
            other => {
                return Err(el.invalid(
                    "",
                    format!("<{other}> is not an MJCF section"),
                    "remove it, or check the spelling (worldbody, default, asset, actuator, …)",
                ));
            }
        }
    }
    let section = |tag: &str| sections.get(tag).cloned().unwrap_or_default();
    let compiler = compiler::Compiler::read(&section("compiler"))?;
    let classes = defaults::Classes::read(&section("default"))?;
    let meshes = assets::Meshes::read(&section("asset"), &compiler, &classes, main_dir)?;
    let mut appearance: BTreeMap<&str, usize> = BTreeMap::new();
    for el in section("asset").iter().flat_map(|s| s.children.iter()) {
        match el.tag.as_str() {
            "mesh" => {}
            tag @ ("texture" | "material" | "skin" | "hfield" | "model") => {
                *appearance.entry(tag).or_default() += 1
            }
            other => {
                return Err(el.invalid(
                    "",
                    format!("<{other}> is not an asset"),
                    "use mesh, texture or material",
                ));
            }
        }
    }
    let mut builder = Builder {
        compiler: &compiler,
        classes: &classes,
        geoms: geoms::GeomContext { compiler: &compiler, classes: &classes, meshes: &meshes },
        tree: Tree::default(),
    };
    for world in section("worldbody") {
        builder.world(world)?;
    }
    let mut tree = builder.tree;
    let mut skipped = sections::Skipped::default();
    let actuators = sections::actuators(&section("actuator"), &classes, &compiler, &mut tree, &mut skipped)?;
    let couplers = sections::equalities(&section("equality"), &classes, &tree, &mut skipped)?;
    let explicit = sections::contact_excludes(&section("contact"), &tree, &mut skipped)?;
    let keyframes = sections::keyframes(&section("keyframe"), &tree, &mut skipped)?;
    let (excludes, exclude_warnings) = collisions::excludes(&tree, explicit);
    if let Some(total) = compiler.settotalmass {
        let now: f64 = tree.links.iter().map(|l| l.mass).sum();
        if now > 0.0 {
            for link in &mut tree.links {
                link.mass *= total / now;
                link.inertia *= total / now;
            }
        }
    }
    // One note per kind of thing skipped.
    for (kind, n) in &tree.skipped {
        notes.push(format!("skipped {n} {kind}"));
    }
    for (kind, n) in &appearance {
        notes.push(format!("skipped {n} <{kind}> assets (appearance, or unsupported height fields)"));
    }
    if meshes.count() > meshes.loaded_count() {
        notes.push(format!(
            "{} of {} meshes not read (used only by visual geoms of bodies with an <inertial>, or unused)",
            meshes.count() - meshes.loaded_count(),
            meshes.count()
        ));
    }
    for (kind, what) in &skipped.counts {
        notes.push(format!("skipped {kind}: {}", what.join(", ")));
    }
    let list = |v: &[String]| v.join(", ");
    if !tree.chained.is_empty() {
        notes.push(format!(
            "bodies with several joints, chained through massless links BODY/JOINT: {}",
            list(&tree.chained)
        ));
    }
    if !tree.with_ref.is_empty() {
        notes.push(format!(
            "joints with a ref keep MuJoCo's coordinate (the file draws the body at q = ref, their initial \
             position): {}",
            list(&tree.with_ref)
        ));
    }
    if !tree.ball_limits.is_empty() {
        notes.push(format!("ball joint cone limits skipped: {}", list(&tree.ball_limits)));
    }
    let mut warnings = schema::check(&root);
    warnings.extend(tree.warnings);
    warnings.extend(skipped.warnings);
    warnings.extend(exclude_warnings);
    dedup(&mut notes);
    dedup(&mut warnings);
    Ok(RobotModel {
        name: root.attr("model").unwrap_or("MuJoCo Model").to_owned(),
        format: RobotFormat::Mjcf,
        file: path.to_path_buf(),
        links: tree.links,
        joints: tree.joints,
        world_collisions: tree.world_collisions,
        actuators,
        couplers,
        excludes,
        keyframes,
        notes,
        warnings,
    })
}

/// What the file's `<option>` asks for, which the scene's own settings replace.
fn option_note(el: &xml::Element) -> String {
    let mut said: Vec<String> = ["timestep", "gravity", "integrator"]
        .iter()
        .filter_map(|k| el.attr(k).map(|v| format!("{k}={v}")))
        .collect();
    for flag in el.children.iter().filter(|c| c.tag == "flag") {
        said.extend(flag.attrs.iter().map(|(k, v)| format!("{k}={v}")));
    }
    let detail = if said.is_empty() { String::new() } else { format!(" (the file's: {})", said.join(", ")) };
    format!("skipped <option>: the scene's settings apply{detail}")
}

fn count(el: &xml::Element) -> usize {
    el.children.len()
}

/// Drops repeated lines, keeping the first (a section included twice, a warning per geom).
fn dedup(lines: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    lines.retain(|l| seen.insert(l.clone()));
}
