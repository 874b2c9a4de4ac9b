//! The links and joints as a tree: every joint between existing links, each link the child of
//! at most one joint, one root (or every top link hanging from `world`), no loops; then ordered
//! parents first, keeping the file's order where it already is.

use super::super::{ImportError, RobotCoupler, RobotJoint, RobotLink};
use super::joint::ReadJoint;
use super::xml::Ctx;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The link named this is the world.
pub(super) const WORLD: &str = "world";

/// The links and joints parents first, and the couplers.
pub(super) struct Tree {
    pub links: Vec<RobotLink>,
    pub joints: Vec<RobotJoint>,
    pub couplers: Vec<RobotCoupler>,
}

/// Checks the tree and orders it.
pub(super) fn order(ctx: &Ctx, links: Vec<RobotLink>, joints: Vec<ReadJoint>) -> Result<Tree, ImportError> {
    let node = |id| ctx.doc.get_node(id).unwrap_or_else(|| ctx.doc.root_element());
    let index: HashMap<&str, usize> = links.iter().enumerate().map(|(k, l)| (l.name.as_str(), k)).collect();
    let known = || {
        let mut names: Vec<&str> = links.iter().take(12).map(|l| l.name.as_str()).collect();
        if links.len() > 12 {
            names.push("…");
        }
        names.join(", ")
    };
    // parent_joint[link]: the joint whose child it is; parent_link[joint]: its parent (None: world).
    let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
    let mut parent_link: Vec<Option<usize>> = Vec::with_capacity(joints.len());
    for (j, read) in joints.iter().enumerate() {
        let joint = &read.joint;
        let child_node = node(read.child_node);
        if joint.child == WORLD {
            return Err(ctx.invalid(
                child_node,
                "link",
                "is the world, which cannot be a joint's child",
                "swap <parent> and <child>",
            ));
        }
        let Some(&child) = index.get(joint.child.as_str()) else {
            return Err(ctx.invalid(
                child_node,
                "link",
                format!("names link '{}', which the file does not define", joint.child),
                format!("define <link name=\"{}\"> or use one of the links: {}", joint.child, known()),
            ));
        };
        let parent = if read.parent == WORLD {
            None
        } else {
            let Some(&parent) = index.get(read.parent.as_str()) else {
                return Err(ctx.invalid(
                    node(read.parent_node),
                    "link",
                    format!("names link '{}', which the file does not define", read.parent),
                    format!(
                        "define <link name=\"{}\">, use \"{WORLD}\" for the world, or one of: {}",
                        read.parent,
                        known()
                    ),
                ));
            };
            Some(parent)
        };
        if parent == Some(child) {
            return Err(ctx.invalid(
                child_node,
                "link",
                format!("is '{}', the joint's parent too: a loop", joint.child),
                "give the joint two different links",
            ));
        }
        if let Some(other) = parent_joint[child] {
            let other = &joints[other].joint;
            return Err(ctx.invalid(
                child_node,
                "link",
                format!("'{}' is already the child of joint '{}' (line {})", joint.child, other.name, other.line),
                "a link hangs from one joint (URDF describes trees, not loops): remove one of the two joints or give it another child",
            ));
        }
        parent_joint[child] = Some(j);
        parent_link.push(parent);
    }

    let roots: Vec<usize> = (0..links.len()).filter(|&k| parent_joint[k].is_none()).collect();
    let hangs_from_world = parent_link.iter().any(Option::is_none);
    let top_level_error = |k: usize, problem: String, fix: &str| ImportError::Invalid {
        path: ctx.path.to_path_buf(),
        line: links[k].line,
        element: format!("link '{}'", links[k].name),
        attribute: String::new(),
        problem,
        fix: fix.into(),
    };
    if let [first, second, ..] = roots[..] {
        return Err(top_level_error(
            second,
            format!(
                "is a second root: like '{}' (line {}), it is the child of no joint",
                links[first].name, links[first].line
            ),
            "connect the links with joints into one tree, or attach each root to a link named \"world\"",
        ));
    }
    if let ([root], true) = (&roots[..], hangs_from_world) {
        return Err(top_level_error(
            *root,
            "is the child of no joint, while other links hang from \"world\"".into(),
            "attach it to \"world\" or to another link with a joint",
        ));
    }

    // Parents first, the smallest file index first among those ready: the file's order when it
    // already is parents first.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
    let mut ready = BinaryHeap::new();
    for (j, parent) in parent_link.iter().enumerate() {
        let child = index[joints[j].joint.child.as_str()];
        match parent {
            Some(p) => children[*p].push(child),
            None => ready.push(Reverse(child)),
        }
    }
    ready.extend(roots.iter().map(|&r| Reverse(r)));
    let mut placed = Vec::with_capacity(links.len());
    while let Some(Reverse(k)) = ready.pop() {
        placed.push(k);
        ready.extend(children[k].iter().map(|&c| Reverse(c)));
    }
    if placed.len() < links.len() {
        return Err(loop_error(ctx, &links, &joints, &parent_joint, &parent_link, &placed));
    }

    let couplers = couplers(ctx, &joints, &node)?;
    let mut slots: Vec<Option<RobotLink>> = links.into_iter().map(Some).collect();
    let mut joint_slots: Vec<Option<RobotJoint>> = joints
        .into_iter()
        .zip(&parent_link)
        .map(|(read, parent)| {
            let mut joint = read.joint;
            joint.parent = parent.map(|_| read.parent);
            Some(joint)
        })
        .collect();
    let mut out_links = Vec::with_capacity(placed.len());
    let mut out_joints = Vec::with_capacity(joint_slots.len());
    for k in placed {
        out_links.extend(slots[k].take());
        if let Some(j) = parent_joint[k] {
            out_joints.extend(joint_slots[j].take());
        }
    }
    Ok(Tree { links: out_links, joints: out_joints, couplers })
}

/// The loop some link not reached from a root sits on (or hangs from), named joint by joint.
fn loop_error(
    ctx: &Ctx,
    links: &[RobotLink],
    joints: &[ReadJoint],
    parent_joint: &[Option<usize>],
    parent_link: &[Option<usize>],
    placed: &[usize],
) -> ImportError {
    let mut reached = vec![false; links.len()];
    placed.iter().for_each(|&k| reached[k] = true);
    // An unreached link has a parent joint (else it would be a root) whose parent is a link;
    // going up from it must come back to a link already seen.
    let start = (0..links.len()).find(|&k| !reached[k]).unwrap_or(0);
    let mut seen = vec![false; links.len()];
    let mut k = start;
    let mut path = Vec::new();
    while let Some(j) = parent_joint[k].filter(|_| !seen[k]) {
        seen[k] = true;
        path.push((k, j));
        match parent_link[j] {
            Some(p) => k = p,
            None => break,
        }
    }
    let first = path.iter().position(|&(link, _)| link == k).unwrap_or(0);
    let cycle = &path[first..];
    let names: Vec<String> = cycle
        .iter()
        .rev()
        .map(|&(_, j)| format!("'{}' (line {})", joints[j].joint.name, joints[j].joint.line))
        .collect();
    let (line, name) = cycle
        .last()
        .map(|&(_, j)| (joints[j].joint.line, joints[j].joint.name.clone()))
        .unwrap_or((links[start].line, links[start].name.clone()));
    ImportError::Invalid {
        path: ctx.path.to_path_buf(),
        line,
        element: format!("joint '{name}'"),
        attribute: "child".into(),
        problem: format!("closes a loop: joints {} lead back to their own start", names.join(" → ")),
        fix: "URDF describes trees: remove one of these joints (contactlab has no loop-closing joints)"
            .into(),
    }
}

/// The `<mimic>`s as couplers, each following a joint of the file other than its own.
fn couplers<'a, 'i>(
    ctx: &Ctx<'a, 'i>,
    joints: &[ReadJoint],
    node: &dyn Fn(roxmltree::NodeId) -> roxmltree::Node<'a, 'i>,
) -> Result<Vec<RobotCoupler>, ImportError> {
    let mut out = Vec::new();
    for (coupler, id) in joints.iter().filter_map(|r| r.mimic.clone()) {
        if coupler.follows == coupler.joint {
            return Err(ctx.invalid(
                node(id),
                "joint",
                "names the joint itself",
                "name the joint this one follows",
            ));
        }
        if !joints.iter().any(|r| r.joint.name == coupler.follows) {
            return Err(ctx.invalid(
                node(id),
                "joint",
                format!("names joint '{}', which the file does not define", coupler.follows),
                "name an existing joint",
            ));
        }
        out.push(coupler);
    }
    Ok(out)
}
