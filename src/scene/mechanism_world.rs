//! A scene's joints, actuators and couplers turned into the world's mechanism: joints ordered
//! parents first, a free body that a joint hangs from made the root link of its tree (on a free
//! joint), joint frames on fixed bodies moved to the world, initial coordinates in the
//! mechanism's conventions.

use super::{JointSpec, JointType, Scene};
use crate::dynamics::body::{Motion, RigidBody};
use crate::dynamics::coordinates::articulation::{Articulation, Joint, JointKind, Link, NONE};
use crate::dynamics::mechanism::{Actuator, Coupler, Mechanism};
use crate::math::{Isometry3, Vector3};
use anyhow::{Result, anyhow};
use nalgebra::Unit;
use std::collections::BTreeMap;

/// The mechanism of a scene's joints (`None` without joints); its link bodies' motions are
/// set to their links and their initial poses to where the joints put them.
pub fn mechanism(scene: &Scene, bodies: &mut [RigidBody]) -> Result<Option<Mechanism>> {
    if scene.joints.is_empty() {
        return Ok(None);
    }
    let index: BTreeMap<&str, usize> =
        scene.bodies.iter().enumerate().map(|(i, b)| (b.name.as_str(), i)).collect();
    let body = |name: &str| index.get(name).copied().ok_or_else(|| anyhow!("unknown body `{name}`"));
    let is_child: Vec<bool> = {
        let mut c = vec![false; bodies.len()];
        for j in &scene.joints {
            c[body(&j.child)?] = true;
        }
        c
    };
    // Free bodies that joints hang from, with no joint of their own: roots on a free joint.
    let mut order: Vec<Planned> = Vec::new();
    for j in &scene.joints {
        if let Some(p) = &j.parent {
            let p = body(p)?;
            if bodies[p].is_free() && !is_child[p] && !order.iter().any(|o| o.child == p) {
                order.push(Planned { spec: None, child: p });
            }
        }
    }
    // Then joints whose parent is placed (the world, a fixed body or a link), parents first.
    let mut placed: Vec<bool> = scene.joints.iter().map(|_| false).collect();
    loop {
        let before = order.len();
        for (k, j) in scene.joints.iter().enumerate() {
            if placed[k] {
                continue;
            }
            let ready = match &j.parent {
                None => true,
                Some(p) => {
                    let p = body(p)?;
                    !bodies[p].is_free() && !is_child[p] || order.iter().any(|o| o.child == p)
                }
            };
            if ready {
                placed[k] = true;
                order.push(Planned { spec: Some(j), child: body(&j.child)? });
            }
        }
        if order.len() == before {
            break;
        }
    }
    if let Some(k) = placed.iter().position(|p| !p) {
        return Err(anyhow!(
            "joint `{}` hangs from no world, fixed or free body (a loop?)",
            scene.joints[k].name
        ));
    }
    let link_of = |b: usize, order: &[Planned]| order.iter().position(|o| o.child == b);
    let (mut joints, mut links, mut q, mut v) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for planned in &order {
        let child = &bodies[planned.child];
        links.push(Link { body: planned.child, mass: child.mass, com: child.com, inertia: child.inertia });
        let Some(spec) = planned.spec else {
            // A free root: its pose and twist as the body's.
            let pose = child.initial_pose;
            let r = pose.rotation;
            let (w, lin) =
                (r.inverse() * child.initial_twist.angular, r.inverse() * child.initial_twist.linear);
            q.extend([pose.translation.x, pose.translation.y, pose.translation.z, r.w, r.i, r.j, r.k]);
            v.extend([w.x, w.y, w.z, lin.x, lin.y, lin.z]);
            joints.push(Joint::new(child.name.clone(), JointKind::Free, NONE, Isometry3::identity()));
            continue;
        };
        let (parent, origin) = match &spec.parent {
            None => (NONE, spec.origin),
            Some(p) => {
                let p = body(p)?;
                match link_of(p, &order) {
                    Some(link) => (link, spec.origin),
                    // A fixed body: the joint frame in the world.
                    None => (NONE, bodies[p].initial_pose * spec.origin),
                }
            }
        };
        let kind = kind(spec);
        q.extend(&spec.position);
        if kind == JointKind::Free {
            // Scene: linear velocity in the parent frame, angular in the child's; the mechanism
            // takes both in the child's.
            let r = crate::dynamics::coordinates::articulation::quaternion(&spec.position[3..7]);
            let lin = r.inverse() * Vector3::new(spec.velocity[0], spec.velocity[1], spec.velocity[2]);
            v.extend([spec.velocity[3], spec.velocity[4], spec.velocity[5], lin.x, lin.y, lin.z]);
        } else {
            v.extend(&spec.velocity);
        }
        joints.push(Joint {
            damping: spec.damping,
            armature: spec.armature,
            stiffness: spec.stiffness,
            spring_reference: spec.spring_reference,
            friction: spec.friction,
            friction_speed: spec.friction_speed,
            limits: spec.limits,
            ..Joint::new(spec.name.clone(), kind, parent, origin)
        });
    }
    let joint_index = |name: &str| {
        order
            .iter()
            .position(|o| o.spec.is_some_and(|s| s.name == name))
            .ok_or_else(|| anyhow!("unknown joint `{name}`"))
    };
    let actuators = scene
        .actuators
        .iter()
        .map(|a| {
            Ok(Actuator {
                name: a.name.clone(),
                joint: joint_index(&a.joint)?,
                kind: a.kind.clone(),
                effort_limit: a.effort_limit,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let couplers = scene
        .couplers
        .iter()
        .map(|c| {
            Ok(Coupler {
                follower: joint_index(&c.joint)?,
                leader: joint_index(&c.follows)?,
                ratio: c.ratio,
                offset: c.offset,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let articulation = Articulation::new(joints, links);
    let mechanism = Mechanism::new(articulation, actuators, couplers, (q, v), bodies.len());
    let y = mechanism.initial_kinematics();
    // A joint that moves nothing with inertia (a massless link, a point mass on its axis) has
    // no acceleration to give: refused here, by name, rather than mid-run.
    if let Err(singular) = mechanism.articulation.factor(&y) {
        let a = &mechanism.articulation;
        let k = (0..a.joints.len()).rfind(|&k| a.offsets(k).1 <= singular.dof).unwrap_or(0);
        let link = &bodies[a.links[k].body].name;
        return Err(anyhow!(
            "joint `{}` moves body `{link}`, but nothing it moves has inertia about its axis at the start (a link without mass, or a point mass on the axis); give the moving links mass and inertia (`mass`, `inertia`; in a robot file, <inertial>), or make the joint fixed",
            a.joints[k].name
        ));
    }
    for (k, link) in mechanism.articulation.links.iter().enumerate() {
        let b = &mut bodies[link.body];
        b.motion = Motion::Link(k);
        b.initial_pose = y.pose[k];
    }
    Ok(Some(mechanism))
}

/// A joint in the order the mechanism takes them: a scene joint, or a free root (`None`).
struct Planned<'s> {
    spec: Option<&'s JointSpec>,
    child: usize,
}

fn kind(spec: &JointSpec) -> JointKind {
    let axis = || Unit::new_normalize(spec.axis);
    match spec.joint_type {
        JointType::Fixed => JointKind::Fixed,
        JointType::Revolute => JointKind::Revolute(axis()),
        JointType::Prismatic => JointKind::Prismatic(axis()),
        JointType::Ball => JointKind::Ball,
        JointType::Free => JointKind::Free,
    }
}

/// The pairs of bodies a joint connects (parent, child): they never touch.
pub fn jointed_pairs(scene: &Scene) -> Vec<(usize, usize)> {
    let index = |name: &str| scene.bodies.iter().position(|b| b.name == name);
    let mut pairs: Vec<(usize, usize)> =
        scene.joints.iter().filter_map(|j| Some((index(j.parent.as_deref()?)?, index(&j.child)?))).collect();
    pairs.extend(scene.excludes.iter().filter_map(|e| Some((index(&e.a)?, index(&e.b)?))));
    pairs
}
