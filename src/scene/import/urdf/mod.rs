//! The URDF reader: a `<robot>` file into a [`RobotModel`]. What is read, skipped and assumed is
//! in docs/robots.md ("URDF"). The reader reports the file faithfully: massless links, fixed
//! joints and the base are the scene's to merge and fix.

mod geometry;
mod joint;
mod link;
mod tree;
mod xml;

use super::{ImportError, RobotFormat, RobotModel};
use geometry::{GeometryReport, Meshes};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use xml::{Ctx, Skipped, plain_name, tag};

/// Reads the URDF file at `path`. Mesh files named `package://NAME/rest` are looked for as
/// `DIR/NAME/rest` for each DIR of `package_paths`, then of the `CONTACTLAB_PACKAGE_PATH`
/// environment variable (colon-separated); relative names start at the URDF's folder.
pub fn read_urdf(path: &Path, package_paths: &[PathBuf]) -> Result<RobotModel, ImportError> {
    let bytes =
        std::fs::read(path).map_err(|source| ImportError::Read { path: path.to_path_buf(), source })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        ImportError::Syntax {
            path: path.to_path_buf(),
            line: Some(1 + valid.iter().filter(|&&b| b == b'\n').count() as u32),
            message: "the file is not UTF-8 text".into(),
        }
    })?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| ImportError::Syntax {
        path: path.to_path_buf(),
        line: Some(e.pos().row),
        message: e.to_string(),
    })?;
    let ctx = Ctx::new(path, &doc);
    read_robot(&ctx, package_paths)
}

fn read_robot(ctx: &Ctx, package_paths: &[PathBuf]) -> Result<RobotModel, ImportError> {
    let robot = ctx.doc.root_element();
    if robot.tag_name().name() != "robot" {
        let fix = if tag(robot) == "mujoco" {
            "read it as MJCF"
        } else {
            "give a URDF file, whose root element is <robot>"
        };
        return Err(ctx.invalid(robot, "", "is the root element, not <robot>: this is not a URDF file", fix));
    }
    let mut meshes = Meshes::new(ctx.path, package_paths);
    let mut warnings = Vec::new();
    let mut skipped = Skipped::default();
    let mut links = Vec::new();
    let mut joints = Vec::new();
    let mut link_lines: HashMap<String, u32> = HashMap::new();
    let mut joint_lines: HashMap<String, u32> = HashMap::new();
    for node in robot.children().filter(roxmltree::Node::is_element) {
        let kind = plain_name(node).unwrap_or_default();
        match kind {
            "link" | "joint" => {
                let name = ctx.name(node)?;
                let lines = if kind == "link" { &mut link_lines } else { &mut joint_lines };
                if let Some(first) = lines.insert(name.to_owned(), ctx.line(node)) {
                    return Err(ctx.invalid(
                        node,
                        "name",
                        format!("'{name}' is already the name of the {kind} at line {first}"),
                        format!("give each <{kind}> a unique name"),
                    ));
                }
                if kind == "joint" {
                    joints.push(joint::joint(ctx, node, &mut skipped, &mut warnings)?);
                } else if name == tree::WORLD {
                    // The world is fixed: anything it carries stays out of the model.
                    if node.children().any(|c| c.is_element()) {
                        skipped.add(
                            format!("link '{}' contents", tree::WORLD),
                            "the world is fixed; its inertia and geometry are not read",
                        );
                    }
                } else {
                    let mut report = GeometryReport { meshes: &mut meshes, warnings: &mut warnings };
                    links.push(link::link(ctx, node, &mut report, &mut skipped)?);
                }
            }
            "transmission" => skipped.add(
                "<transmission>".into(),
                "contactlab has no transmissions; drive joints with [[actuator]]",
            ),
            "gazebo" => skipped.add("<gazebo>".into(), "Gazebo's settings do not apply to contactlab"),
            "material" => {
                skipped.add("<material>".into(), "materials colour visual geometry, which is not read")
            }
            _ => skipped
                .add(format!("<{}>", tag(node)), "not part of URDF's core; contactlab does not read it"),
        }
    }
    if links.is_empty() {
        return Err(ctx.invalid(
            robot,
            "link",
            "there is no <link> besides the world",
            "describe at least one link",
        ));
    }
    let tree::Tree { links, joints, couplers } = tree::order(ctx, links, joints)?;
    let notes = skipped.into_notes();
    Ok(RobotModel {
        name: robot.attribute("name").unwrap_or_default().to_owned(),
        format: RobotFormat::Urdf,
        file: ctx.path.to_path_buf(),
        links,
        joints,
        world_collisions: Vec::new(),
        actuators: Vec::new(),
        couplers,
        excludes: Vec::new(),
        keyframes: Vec::new(),
        notes,
        warnings,
    })
}
