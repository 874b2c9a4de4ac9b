//! `contactlab inspect FILE`: what a robot file (URDF, MJCF) or a scene holds — bodies with mass,
//! centre of mass and shapes, joints with type, axis and limits, actuators, couplers, and the
//! notes of what was skipped — as text or JSON.

use crate::scene::import::{RobotModel, read_robot};
use crate::scene::{JointSpec, Scene};
use anyhow::{Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Serialize)]
pub struct Inspection {
    /// "urdf", "mjcf" or "scene".
    pub kind: String,
    pub name: String,
    pub bodies: Vec<BodyRow>,
    pub joints: Vec<JointRow>,
    pub actuators: Vec<String>,
    pub couplers: Vec<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct BodyRow {
    pub name: String,
    pub mass: f64,
    pub center_of_mass: [f64; 3],
    pub shapes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct JointRow {
    pub name: String,
    #[serde(rename = "type")]
    pub joint_type: String,
    pub parent: String,
    pub child: String,
    pub axis: [f64; 3],
    pub limits: Option<[f64; 2]>,
}

/// Inspects `file`: a robot file by its extension (.urdf, .xml, .mjcf), else a scene (.toml).
/// `package_paths` resolve a URDF's `package://` names.
pub fn run(file: &Path, package_paths: &[PathBuf]) -> Result<Inspection> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if ext == "toml" {
        let scene = crate::scene::load_scene(file)
            .with_context(|| format!("cannot load scene {}", file.display()))?;
        return Ok(of_scene(&scene, file));
    }
    let robot = read_robot(file, package_paths)?;
    Ok(of_robot(&robot))
}

fn of_robot(robot: &RobotModel) -> Inspection {
    let kind = match robot.format {
        crate::scene::import::RobotFormat::Urdf => "urdf",
        crate::scene::import::RobotFormat::Mjcf => "mjcf",
    };
    Inspection {
        kind: kind.into(),
        name: robot.name.clone(),
        bodies: robot
            .links
            .iter()
            .map(|l| BodyRow {
                name: l.name.clone(),
                mass: l.mass,
                center_of_mass: l.center_of_mass.coords.into(),
                shapes: l.collisions.iter().map(|g| g.shape.kind().to_string()).collect(),
            })
            .collect(),
        joints: robot
            .joints
            .iter()
            .map(|j| joint_row(&j.name, j.joint_type, j.parent.as_deref(), &j.child, j.axis, j.limits))
            .collect(),
        actuators: robot
            .actuators
            .iter()
            .map(|a| format!("{} ({} on {})", a.name, a.kind.key(), a.joint))
            .collect(),
        couplers: robot
            .couplers
            .iter()
            .map(|c| format!("{} = {}·{} + {}", c.joint, c.ratio, c.follows, c.offset))
            .collect(),
        notes: robot.notes.iter().chain(&robot.warnings).cloned().collect(),
    }
}

fn joint_row(
    name: &str,
    joint_type: crate::scene::JointType,
    parent: Option<&str>,
    child: &str,
    axis: crate::math::Vector3,
    limits: Option<(f64, f64)>,
) -> JointRow {
    JointRow {
        name: name.into(),
        joint_type: joint_type.key().into(),
        parent: parent.unwrap_or("world").into(),
        child: child.into(),
        axis: axis.into(),
        limits: limits.map(|(lo, hi)| [lo, hi]),
    }
}

fn of_scene(scene: &Scene, file: &Path) -> Inspection {
    let joint_row =
        |j: &JointSpec| joint_row(&j.name, j.joint_type, j.parent.as_deref(), &j.child, j.axis, j.limits);
    Inspection {
        kind: "scene".into(),
        name: file.display().to_string(),
        bodies: scene
            .bodies
            .iter()
            .map(|b| {
                // (A fixed body's mass plays no part: shown as 0.)
                let (mass, com) = match b.mass_properties() {
                    Ok((m, c, _)) if !b.fixed => (m, c.coords.into()),
                    _ => (0.0, [0.0; 3]),
                };
                BodyRow {
                    name: b.name.clone(),
                    mass,
                    center_of_mass: com,
                    shapes: b.shape.iter().map(|s| s.kind().to_string()).collect(),
                }
            })
            .collect(),
        joints: scene.joints.iter().map(joint_row).collect(),
        actuators: scene
            .actuators
            .iter()
            .map(|a| format!("{} ({} on {})", a.name, a.kind.key(), a.joint))
            .collect(),
        couplers: scene
            .couplers
            .iter()
            .map(|c| format!("{} = {}·{} + {}", c.joint, c.ratio, c.follows, c.offset))
            .collect(),
        notes: scene.warnings.clone(),
    }
}

/// The inspection as an indented tree: each body under the joint that carries it.
pub fn format(report: &Inspection) -> String {
    let mut out = format!("{} {}\n", report.kind, report.name);
    let describe = |b: &BodyRow| {
        let shapes = if b.shapes.is_empty() { "no shape".to_string() } else { b.shapes.join(", ") };
        let [x, y, z] = b.center_of_mass;
        format!("{} — {:.6} kg, centre of mass [{x:.4}, {y:.4}, {z:.4}], {shapes}", b.name, b.mass)
    };
    // Roots: bodies that are no joint's child.
    for b in report.bodies.iter().filter(|b| !report.joints.iter().any(|j| j.child == b.name)) {
        out.push_str(&format!("  {}\n", describe(b)));
        tree(report, &b.name, 2, &mut out, &describe);
    }
    tree(report, "world", 1, &mut out, &describe);
    for (title, list) in
        [("actuators", &report.actuators), ("couplers", &report.couplers), ("notes", &report.notes)]
    {
        if !list.is_empty() {
            out.push_str(&format!("{title}:\n"));
            for line in list {
                out.push_str(&format!("  {line}\n"));
            }
        }
    }
    out
}

fn tree(
    report: &Inspection,
    parent: &str,
    depth: usize,
    out: &mut String,
    describe: &dyn Fn(&BodyRow) -> String,
) {
    for j in report.joints.iter().filter(|j| j.parent == parent) {
        let indent = "  ".repeat(depth);
        let limits = j.limits.map(|[lo, hi]| format!(", limits [{lo}, {hi}]")).unwrap_or_default();
        let axis = if j.axis == [0.0; 3] { String::new() } else { format!(", axis {:?}", j.axis) };
        out.push_str(&format!("{indent}[{} {}{axis}{limits}]\n", j.joint_type, j.name));
        match report.bodies.iter().find(|b| b.name == j.child) {
            Some(b) => out.push_str(&format!("{indent}  {}\n", describe(b))),
            None => out.push_str(&format!("{indent}  {}\n", j.child)),
        }
        if depth < 64 {
            tree(report, &j.child, depth + 1, out, describe);
        }
    }
}
