//! `<joint>`: type, frames, axis, limits, dynamics and `<mimic>` (a coupler).

use super::super::{ImportError, JointType, RobotCoupler, RobotJoint};
use super::xml::{Ctx, Skipped, plain_name, tag};
use crate::math::Vector3;
use roxmltree::Node;

/// A joint as read, its parent still a name (`world` included) and its mimic unchecked.
pub(super) struct ReadJoint {
    pub joint: RobotJoint,
    pub parent: String,
    /// The `<parent>` and `<child>` elements, for errors about the tree.
    pub parent_node: roxmltree::NodeId,
    pub child_node: roxmltree::NodeId,
    pub mimic: Option<(RobotCoupler, roxmltree::NodeId)>,
}

pub(super) fn joint(
    ctx: &Ctx,
    node: Node,
    skipped: &mut Skipped,
    warnings: &mut Vec<String>,
) -> Result<ReadJoint, ImportError> {
    let name = ctx.name(node)?.to_owned();
    const TYPES: &str = "revolute, continuous, prismatic, fixed, floating";
    let type_text = ctx.required(node, "type", &format!("give type=\"...\", one of {TYPES}"))?;
    let joint_type = match type_text {
        "revolute" | "continuous" => JointType::Revolute,
        "prismatic" => JointType::Prismatic,
        "fixed" => JointType::Fixed,
        "floating" => JointType::Free,
        "planar" => {
            return Err(ctx.invalid(
                node,
                "type",
                "= \"planar\" is not supported",
                "model the plane as two prismatic joints and a revolute one, chained through massless links",
            ));
        }
        other => {
            return Err(ctx.invalid(
                node,
                "type",
                format!("= \"{other}\" is not a URDF joint type"),
                format!("use one of {TYPES}"),
            ));
        }
    };
    let link_of = |which: &str| -> Result<(String, roxmltree::NodeId), ImportError> {
        let Some(element) = ctx.only_child(node, which)? else {
            return Err(ctx.invalid(node, which, "is missing", format!("give <{which} link=\"...\"/>")));
        };
        let link = ctx.required(element, "link", &format!("give <{which} link=\"...\"/>"))?;
        Ok((link.to_owned(), element.id()))
    };
    let (parent, parent_node) = link_of("parent")?;
    let (child, child_node) = link_of("child")?;
    let origin = ctx.origin(node)?;

    let single = joint_type.is_single_dof();
    let axis = match ctx.only_child(node, "axis")? {
        Some(axis_node) => {
            let a = Vector3::from(ctx.vector(axis_node, "xyz", [1.0, 0.0, 0.0])?);
            // Fixed and floating joints ignore the axis (URDF), so a zero one is harmless there.
            if single && a == Vector3::zeros() {
                return Err(ctx.invalid(
                    axis_node,
                    "xyz",
                    format!("= {:?} has no direction", [a.x, a.y, a.z]),
                    "give a nonzero axis, e.g. xyz=\"0 0 1\"",
                ));
            }
            // Scaled first so that no finite axis overflows its norm.
            if single { (a / a.amax()).normalize() } else { Vector3::zeros() }
        }
        None if single => Vector3::x(),
        None => Vector3::zeros(),
    };

    let ranged = single && type_text != "continuous";
    let (limits, effort_limit) = match ctx.only_child(node, "limit")? {
        Some(limit) => read_limit(ctx, limit, single, ranged, warnings)?,
        None => {
            if ranged {
                warnings.push(format!(
                    "line {}: <joint '{name}'> is {type_text} without <limit>: read as unlimited (URDF requires <limit> here)",
                    ctx.line(node)
                ));
            }
            (None, None)
        }
    };

    let (mut damping, mut friction) = (0.0, 0.0);
    if let Some(dynamics) = ctx.only_child(node, "dynamics")? {
        damping = ctx.non_negative(dynamics, "damping", Some(0.0))?;
        friction = ctx.non_negative(dynamics, "friction", Some(0.0))?;
    }

    let mimic = match ctx.only_child(node, "mimic")? {
        Some(m) => {
            let follows =
                ctx.required(m, "joint", "give joint=\"...\", the joint this one follows")?.to_owned();
            let ratio = ctx.number(m, "multiplier", Some(1.0))?;
            if ratio == 0.0 {
                return Err(ctx.invalid(
                    m,
                    "multiplier",
                    "is 0: the joint would never move",
                    "make the joint fixed, or give a nonzero multiplier",
                ));
            }
            let offset = ctx.number(m, "offset", Some(0.0))?;
            Some((RobotCoupler { joint: name.clone(), follows, ratio, offset, line: ctx.line(m) }, m.id()))
        }
        None => None,
    };

    for child in node.children().filter(Node::is_element) {
        match plain_name(child).unwrap_or_default() {
            "origin" | "parent" | "child" | "axis" | "limit" | "dynamics" | "mimic" => {}
            "calibration" => {
                skipped.add("<joint>/<calibration>".into(), "contactlab's joints need no calibration")
            }
            "safety_controller" => skipped.add(
                "<joint>/<safety_controller>".into(),
                "soft limits are a controller's; contactlab uses the <limit> lower and upper",
            ),
            _ => skipped.add(
                format!("<joint>/<{}>", tag(child)),
                "not part of URDF's joint; contactlab does not read it",
            ),
        }
    }

    let joint = RobotJoint {
        name,
        joint_type,
        parent: Some(parent.clone()),
        child,
        origin,
        axis,
        limits,
        damping,
        friction,
        armature: 0.0,
        stiffness: 0.0,
        spring_reference: 0.0,
        position: 0.0,
        effort_limit,
        line: ctx.line(node),
    };
    Ok(ReadJoint { joint, parent, parent_node, child_node, mimic })
}

/// A joint's range (lower, upper), if limited, and its effort limit.
type Limits = (Option<(f64, f64)>, Option<f64>);

/// `<limit lower upper effort velocity>`: the range of a `ranged` (revolute or prismatic) joint,
/// and the effort limit of a `single` degree-of-freedom one (continuous joints too).
fn read_limit(
    ctx: &Ctx,
    limit: Node,
    single: bool,
    ranged: bool,
    warnings: &mut Vec<String>,
) -> Result<Limits, ImportError> {
    let effort = ctx.non_negative(limit, "effort", Some(0.0))?;
    ctx.non_negative(limit, "velocity", Some(0.0))?;
    let effort_limit = (effort > 0.0 && single).then_some(effort);
    if !ranged {
        return Ok((None, effort_limit));
    }
    // URDF: lower and upper default to 0.
    let (lower, upper) = (ctx.number(limit, "lower", Some(0.0))?, ctx.number(limit, "upper", Some(0.0))?);
    if lower > upper {
        return Err(ctx.invalid(
            limit,
            "lower",
            format!("= {lower} is above upper = {upper}"),
            "swap lower and upper, or fix their values",
        ));
    }
    if lower == upper {
        warnings.push(format!(
            "line {}: <{}> lower = upper = {lower}: the joint cannot move (URDF reads a missing lower or upper \
             as 0; some exporters write 0 and 0 for no limits: give the real range, or make a revolute joint continuous)",
            ctx.line(limit),
            super::xml::element_path(limit)
        ));
    }
    Ok((Some((lower, upper)), effort_limit))
}
