//! The sections after the body tree: `<actuator>`, `<equality>`, `<contact>` and `<keyframe>`,
//! resolved against the tree's joints and bodies.

use super::actuator_params::{OTHER, SUPPORTED};
use super::attrs::Attrs;
use super::bodies::{JointInfo, Tree};
use super::compiler::Compiler;
use super::defaults::{Classes, Kind};
use super::joints::symmetric;
use super::xml::Element;
use crate::math::{Quaternion, Vector3};
use crate::scene::import::{ImportError, JointType, Keyframe, RobotActuator, RobotCoupler};
use crate::scene::mechanism::ActuatorKind;
use std::collections::{BTreeMap, HashSet};

/// What the sections found that the model cannot hold, by kind (one note each).
#[derive(Default)]
pub(super) struct Skipped {
    pub counts: BTreeMap<&'static str, Vec<String>>,
    pub warnings: Vec<String>,
}

impl Skipped {
    fn add(&mut self, kind: &'static str, what: String) {
        self.counts.entry(kind).or_default().push(what);
    }
}

/// The joint named `name` in the file (unnamed joints cannot be referred to).
fn joint<'t, 'a>(tree: &'t Tree<'a>, name: &str) -> Option<&'t JointInfo<'a>> {
    tree.mj_joints.iter().find(|j| j.el.name() == Some(name))
}

/// A scalar joint named by attribute `attr` of `a`.
fn scalar_joint<'t, 'a>(
    tree: &'t Tree<'a>,
    a: &Attrs,
    attr: &str,
    what: &str,
) -> Result<&'t JointInfo<'a>, ImportError> {
    let Some(name) = a.text(attr) else {
        return Err(a.error(attr, "is missing", format!("name the joint {what}")));
    };
    let Some(j) = joint(tree, name) else {
        return Err(a.error(
            attr,
            format!("names joint '{name}', which the model does not define"),
            "name a joint of the model",
        ));
    };
    if !j.joint_type.is_single_dof() {
        return Err(a.error(
            attr,
            format!("names the {} joint '{name}'", j.joint_type.key()),
            format!("{what} must be a hinge or slide joint"),
        ));
    }
    Ok(j)
}

pub(super) fn actuators(
    sections: &[&Element],
    classes: &Classes,
    compiler: &Compiler,
    tree: &mut Tree,
    skipped: &mut Skipped,
) -> Result<Vec<RobotActuator>, ImportError> {
    let mut out = Vec::new();
    let mut names = HashSet::new();
    for (k, el) in sections.iter().flat_map(|s| s.children.iter()).enumerate() {
        let tag = el.tag.as_str();
        if OTHER.contains(&tag) {
            return Err(el.invalid(
                "",
                format!("<{tag}> actuators are not supported"),
                "use <motor>, <position> (kp, kv), <velocity> (kv) or an equivalent <general>",
            ));
        }
        if tag == "plugin" {
            skipped.add("actuator plugins", el.describe());
            continue;
        }
        if !SUPPORTED.contains(&tag) {
            return Err(el.invalid(
                "",
                format!("<{tag}> is not an actuator"),
                "use <motor>, <position>, <velocity> or <general>, or check the spelling",
            ));
        }
        let class = classes.of(el, None)?;
        let mut p = class.actuator.clone();
        p.apply(el)?;
        let a = Attrs::own(el);
        let targets: Vec<&str> = ["joint", "jointinparent", "tendon", "site", "body", "cranksite"]
            .into_iter()
            .filter(|t| el.attr(t).is_some())
            .collect();
        let name = el.name().map(str::to_owned).unwrap_or_else(|| format!("actuator{k}"));
        match targets[..] {
            [] => {
                return Err(el.invalid(
                    "joint",
                    "is missing: the actuator drives nothing",
                    "name the joint it drives: joint=\"…\"",
                ));
            }
            [_, second, ..] => {
                return Err(a.error(
                    second,
                    "is a second transmission",
                    "give exactly one of joint, tendon, site, body",
                ));
            }
            ["tendon"] => {
                skipped.add("actuators on tendons (tendons are not supported)", format!("'{name}'"));
                continue;
            }
            [t @ ("site" | "body" | "cranksite")] => {
                return Err(a.error(
                    t,
                    format!("a {t} transmission is not supported"),
                    "drive a hinge or slide joint with joint=\"…\"",
                ));
            }
            _ => {}
        }
        let attr = targets[0];
        let joint_name = scalar_joint(tree, &a, attr, "an actuator drives")?.name.clone();
        let kind = p.kind().map_err(|(attr, problem)| {
            a.error(
                attr,
                problem,
                "use <motor>, <position> (kp, kv), <velocity> (kv) or an equivalent <general>",
            )
        })?;
        let g = p.gear[0];
        let mut limits = Vec::new();
        let ctrl_on = p.ctrllimited.resolve(p.ctrlrange != [0.0; 2], compiler.autolimits).map_err(|()| {
            a.error(
                "ctrlrange",
                "is given without ctrllimited, and <compiler autolimits=\"false\">",
                "give ctrllimited=\"true\"",
            )
        })?;
        if ctrl_on {
            check_range(&a, "ctrlrange", p.ctrlrange)?;
            match &kind {
                ActuatorKind::Motor { gear, .. } => {
                    let (c, w) = symmetric(p.ctrlrange);
                    skipped.warnings.extend(w.map(|w| format!("actuator '{name}': ctrlrange {w}")));
                    limits.push(gear.abs() * c);
                }
                _ => skipped.add("servo ctrlranges (ranges of targets, not efforts)", format!("'{name}'")),
            }
        }
        let force_on =
            p.forcelimited.resolve(p.forcerange != [0.0; 2], compiler.autolimits).map_err(|()| {
                a.error(
                    "forcerange",
                    "is given without forcelimited, and <compiler autolimits=\"false\">",
                    "give forcelimited=\"true\"",
                )
            })?;
        if force_on {
            check_range(&a, "forcerange", p.forcerange)?;
            let (f, w) = symmetric(p.forcerange);
            skipped.warnings.extend(w.map(|w| format!("actuator '{name}': forcerange {w}")));
            // MuJoCo clamps the force before the gear multiplies it onto the joint.
            limits.push(g.abs() * f);
        }
        if p.damping[1] != 0.0 || p.damping[2] != 0.0 || p.damping[0] < 0.0 || p.armature < 0.0 {
            return Err(a.error(
                "damping",
                "nonlinear or negative actuator damping/armature",
                "give one damping ≥ 0 and armature ≥ 0",
            ));
        }
        // Damping and rotor inertia on the joint, reflected through the gear.
        if let Some(rj) = tree.joints.iter_mut().find(|r| r.name == joint_name) {
            rj.damping += g * g * p.damping[0];
            rj.armature += g * g * p.armature;
        }
        if !names.insert(name.clone()) {
            return Err(el.invalid(
                "name",
                format!("actuator name '{name}' is used twice"),
                "give each actuator a different name",
            ));
        }
        out.push(RobotActuator {
            name,
            joint: joint_name,
            kind,
            effort_limit: limits.into_iter().reduce(f64::min),
            line: el.line,
        });
    }
    Ok(out)
}

fn check_range(a: &Attrs, name: &str, r: [f64; 2]) -> Result<(), ImportError> {
    if r[0] < r[1] {
        Ok(())
    } else {
        Err(a.error(
            name,
            format!("= \"{} {}\": the lower bound is not below the upper", r[0], r[1]),
            format!("give {name}=\"lower upper\" with lower < upper"),
        ))
    }
}

/// `<equality><joint>` with a linear polynomial → couplers; the other kinds are skipped.
pub(super) fn equalities(
    sections: &[&Element],
    classes: &Classes,
    tree: &Tree,
    skipped: &mut Skipped,
) -> Result<Vec<RobotCoupler>, ImportError> {
    let mut out = Vec::new();
    for el in sections.iter().flat_map(|s| s.children.iter()) {
        let class = classes.of(el, None)?;
        let a = class.attrs(el, Kind::Equality);
        match el.tag.as_str() {
            "joint" => {}
            kind @ ("connect" | "weld" | "tendon" | "flex" | "flexvert" | "flexstrain" | "distance") => {
                skipped.add(
                    "equality constraints other than joint couplings (the model moves without them)",
                    format!("<{kind}> {}", el.describe()),
                );
                continue;
            }
            other => {
                return Err(el.invalid(
                    "",
                    format!("<{other}> is not an equality constraint"),
                    "use joint, connect, weld or tendon",
                ));
            }
        }
        if a.flag("active")? == Some(false) {
            skipped.add("inactive joint couplings", el.describe());
            continue;
        }
        let follower = scalar_joint(tree, &a, "joint1", "a coupling holds")?;
        if a.get("joint2").is_none() {
            return Err(el.invalid(
                "joint2",
                "is missing: joint1 would be held at a constant, which is not supported",
                "name the joint joint1 follows, or lock joint1 with a range",
            ));
        }
        let leader = scalar_joint(tree, &a, "joint2", "a coupling follows")?;
        let c = a.prefix("polycoef", [0.0, 1.0, 0.0, 0.0, 0.0])?;
        if c[2..].iter().any(|x| *x != 0.0) {
            return Err(a.error(
                "polycoef",
                "has nonlinear terms (a2, a3, a4 ≠ 0)",
                "give polycoef=\"a0 a1 0 0 0\": only linear couplings are supported",
            ));
        }
        if c[1] == 0.0 {
            return Err(a.error(
                "polycoef",
                "has a1 = 0: joint1 would be held at a constant",
                "give a nonzero ratio a1",
            ));
        }
        // MuJoCo: y − y0 = a0 + a1 (x − x0) about the reference positions.
        out.push(RobotCoupler {
            joint: follower.name.clone(),
            follows: leader.name.clone(),
            ratio: c[1],
            offset: c[0] + follower.reference - c[1] * leader.reference,
            line: el.line,
        });
    }
    Ok(out)
}

/// `<contact><exclude body1 body2>` as pairs of link names.
pub(super) fn contact_excludes(
    sections: &[&Element],
    tree: &Tree,
    skipped: &mut Skipped,
) -> Result<Vec<(String, String)>, ImportError> {
    let mut out = Vec::new();
    for el in sections.iter().flat_map(|s| s.children.iter()) {
        match el.tag.as_str() {
            "exclude" => {
                let mut pair = Vec::new();
                for attr in ["body1", "body2"] {
                    let Some(name) = el.attr(attr) else {
                        return Err(el.invalid(
                            attr,
                            "is missing",
                            "name both bodies: <exclude body1=\"a\" body2=\"b\"/>",
                        ));
                    };
                    if name != "world" && !tree.body_ids.contains_key(name) {
                        return Err(el.invalid(
                            attr,
                            format!("names body '{name}', which the model does not define"),
                            "name a body of the model (or world)",
                        ));
                    }
                    pair.push(name.to_owned());
                }
                out.push((pair[0].clone(), pair[1].clone()));
            }
            "pair" => {
                skipped.add("explicit contact pairs (contacts follow the bodies' geoms here)", el.describe())
            }
            other => {
                return Err(el.invalid(
                    "",
                    format!("<{other}> is not a contact element"),
                    "use exclude or pair",
                ));
            }
        }
    }
    Ok(out)
}

/// `<keyframe><key>`: qpos and qvel split by joint in MuJoCo's order. Free joints are given
/// relative to their origin (the body's pose in the file), as our free coordinates are.
pub(super) fn keyframes(
    sections: &[&Element],
    tree: &Tree,
    skipped: &mut Skipped,
) -> Result<Vec<Keyframe>, ImportError> {
    let mut out = Vec::new();
    let layout = |velocity: bool| {
        let mj = |t: JointType| match t {
            JointType::Revolute => "hinge",
            JointType::Prismatic => "slide",
            other => other.key(),
        };
        let layout = tree.mj_joints.iter().map(|j| {
            let n = if velocity { j.joint_type.velocity_len() } else { j.joint_type.position_len() };
            format!("{} '{}' {n}", mj(j.joint_type), j.name)
        });
        layout.collect::<Vec<_>>().join(", ")
    };
    for (k, el) in sections.iter().flat_map(|s| s.children.iter()).enumerate() {
        if el.tag != "key" {
            return Err(el.invalid(
                "",
                format!("<{}> is not a keyframe", el.tag),
                "use <key name qpos qvel>",
            ));
        }
        let a = Attrs::own(el);
        let mut key = Keyframe {
            name: el.name().map(str::to_owned).unwrap_or_else(|| format!("key{k}")),
            positions: Vec::new(),
            velocities: Vec::new(),
        };
        for (attr, velocity) in [("qpos", false), ("qvel", true)] {
            let Some(found) = a.get(attr) else { continue };
            let values = found.reals(attr)?;
            let len = |t: JointType| if velocity { t.velocity_len() } else { t.position_len() };
            let n: usize = tree.mj_joints.iter().map(|j| len(j.joint_type)).sum();
            if values.len() != n {
                return Err(found.error(
                    attr,
                    format!("has {} numbers, but the model's joints take {n}", values.len()),
                    format!("give one value per coordinate, in the joints' order ({})", layout(velocity)),
                ));
            }
            let mut rest = values.as_slice();
            for j in &tree.mj_joints {
                let (mine, tail) = rest.split_at(len(j.joint_type));
                rest = tail;
                let mut v = mine.to_vec();
                if j.joint_type == JointType::Free {
                    let r = j.free_origin.rotation;
                    if velocity {
                        let lin = r.inverse() * Vector3::new(v[0], v[1], v[2]);
                        v[..3].copy_from_slice(lin.as_slice());
                    } else {
                        let p =
                            r.inverse() * (Vector3::new(v[0], v[1], v[2]) - j.free_origin.translation.vector);
                        let q = r.quaternion().conjugate() * Quaternion::new(v[3], v[4], v[5], v[6]);
                        v = vec![p.x, p.y, p.z, q.w, q.i, q.j, q.k];
                    }
                }
                if velocity {
                    key.velocities.push((j.name.clone(), v))
                } else {
                    key.positions.push((j.name.clone(), v))
                }
            }
        }
        for attr in ["act", "ctrl", "mpos", "mquat"] {
            if a.get(attr).is_some() {
                skipped.add("keyframe act/ctrl/mpos/mquat values", format!("'{}' {attr}", key.name));
            }
        }
        out.push(key);
    }
    Ok(out)
}
