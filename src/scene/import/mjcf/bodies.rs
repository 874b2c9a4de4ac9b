//! The `<worldbody>` tree → our links and joints (URDF's convention: a link frame is its joint
//! frame moved by the joint coordinate).
//!
//! An MJCF body B at pose X in its parent, with one hinge at anchor p, axis a and reference r,
//! is at X·T(p)·R(a, q − r)·T(−p) for coordinate q. So the joint frame (origin) is X·T(p)·R(a, −r)
//! in the parent's link frame, the link frame is the joint frame turned by q, and B's geoms and
//! inertia sit at T(−p) in it; q keeps MuJoCo's meaning (and its keyframes, limits and servo
//! targets). A slide is the same with a translation. Several joints in one body are applied in
//! order (MuJoCo's rule) through massless links `B/JOINT`; a body without joints is welded to its
//! parent; a free joint's origin is the body's pose in the file (its coordinate 0).

use super::attrs::Attrs;
use super::compiler::{Compiler, FromGeom};
use super::defaults::Classes;
use super::geoms::{GeomContext, read_geom};
use super::inertia::Inertia;
use super::joints::{JointSpec, read_joint};
use super::xml::Element;
use crate::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use crate::scene::import::{Geometry, ImportError, JointType, RobotJoint, RobotLink};
use std::collections::{BTreeMap, HashMap, HashSet};

/// One MJCF body as the later sections need it.
pub(super) struct BodyInfo {
    /// Its link's name.
    pub link: String,
    /// MuJoCo's weld group: the nearest body with joints at or above it (0: the world).
    pub weld: usize,
    /// The weld group of that body's parent (MuJoCo's parent filter).
    pub parent_weld: usize,
    /// `(contype, conaffinity)` of each collision geom.
    pub masks: Vec<(u32, u32)>,
}

/// A joint in MuJoCo's order (bodies depth-first, joints in file order): what keyframes,
/// actuators and equalities refer to.
pub(super) struct JointInfo<'a> {
    pub name: String,
    pub joint_type: JointType,
    /// A free joint's origin: its body's pose in the file.
    pub free_origin: Isometry3,
    /// Its qpos0 (MuJoCo's `ref`, in radians for hinges).
    pub reference: f64,
    pub el: &'a Element,
}

#[derive(Default)]
pub(super) struct Tree<'a> {
    pub links: Vec<RobotLink>,
    pub joints: Vec<RobotJoint>,
    pub world_collisions: Vec<Geometry>,
    /// Bodies in MuJoCo's order; body id k is `bodies[k - 1]` (0 is the world).
    pub bodies: Vec<BodyInfo>,
    /// The world's collision masks.
    pub world_masks: Vec<(u32, u32)>,
    /// MJCF body name → body id.
    pub body_ids: HashMap<String, usize>,
    pub mj_joints: Vec<JointInfo<'a>>,
    /// Things skipped, by kind, counted for one note each.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Bodies with several joints, chained through massless links.
    pub chained: Vec<String>,
    /// Joints with a nonzero `ref`.
    pub with_ref: Vec<String>,
    pub ball_limits: Vec<String>,
    pub warnings: Vec<String>,
    joint_names: HashSet<String>,
    link_names: HashSet<String>,
}

impl Tree<'_> {
    /// Counts one more skipped thing of `kind`.
    fn count(&mut self, kind: &'static str) {
        *self.skipped.entry(kind).or_default() += 1;
    }
}

/// A child of a body (or of `<worldbody>`), with the frames and `childclass` it sits in.
struct Placed<'a> {
    el: &'a Element,
    frame: Isometry3,
    childclass: Option<&'a str>,
}

#[derive(Default)]
struct Items<'a> {
    joints: Vec<Placed<'a>>,
    geoms: Vec<Placed<'a>>,
    bodies: Vec<Placed<'a>>,
    inertial: Option<&'a Element>,
}

pub(super) struct Builder<'c, 'a> {
    pub compiler: &'c Compiler,
    pub classes: &'c Classes<'a>,
    pub geoms: GeomContext<'c, 'a>,
    pub tree: Tree<'a>,
}

impl<'c, 'a> Builder<'c, 'a> {
    /// Reads a `<worldbody>`: its geoms are the world's, its bodies the roots of the trees.
    pub fn world(&mut self, el: &'a Element) -> Result<(), ImportError> {
        let mut items = Items::default();
        self.collect(el, Isometry3::identity(), None, &mut items, true)?;
        if let Some(j) = items.joints.first() {
            return Err(j.el.invalid(
                "",
                "a joint directly in <worldbody> has no body to move",
                "put it in a <body>",
            ));
        }
        if let Some(i) = items.inertial {
            return Err(i.invalid("", "the world body has no inertia", "put the <inertial> in a <body>"));
        }
        for g in &items.geoms {
            let geom = read_geom(&self.geoms, g.el, &g.frame, g.childclass, false, true)?;
            match geom.shape {
                Some(shape) if !geom.visual() => {
                    self.tree.world_masks.push((geom.contype, geom.conaffinity));
                    self.tree.world_collisions.push(Geometry {
                        name: geom.name,
                        shape,
                        pose: geom.pose,
                        friction: geom.friction,
                    });
                }
                _ => self.tree.count("visual-only geoms (contype = conaffinity = 0)"),
            }
        }
        for b in &items.bodies {
            self.body(b, None, &Isometry3::identity())?;
        }
        Ok(())
    }

    /// Sorts `el`'s children into joints, geoms, bodies and the inertial, looking through
    /// `<frame>`s (their poses compose; their `childclass` applies inside).
    fn collect(
        &mut self,
        el: &'a Element,
        frame: Isometry3,
        childclass: Option<&'a str>,
        items: &mut Items<'a>,
        top: bool,
    ) -> Result<(), ImportError> {
        for child in &el.children {
            let placed = Placed { el: child, frame, childclass };
            match child.tag.as_str() {
                "joint" | "freejoint" => items.joints.push(placed),
                "geom" => items.geoms.push(placed),
                "body" => items.bodies.push(placed),
                "inertial" if !top => {
                    return Err(child.invalid(
                        "",
                        "an <inertial> inside a <frame>",
                        "put the <inertial> directly in its <body>",
                    ));
                }
                "inertial" if items.inertial.is_some() => {
                    return Err(child.invalid(
                        "",
                        "is the body's second <inertial>",
                        "give one <inertial> per body",
                    ));
                }
                "inertial" => items.inertial = Some(child),
                "frame" => {
                    let inner = child.attr("childclass").or(childclass);
                    self.check_childclass(child)?;
                    let pose = self.compiler.pose(&Attrs::own(child))?;
                    self.collect(child, frame * pose, inner, items, false)?;
                }
                "site" => self.tree.count("sites"),
                "camera" => self.tree.count("cameras"),
                "light" => self.tree.count("lights"),
                "plugin" => self.tree.count("body plugins"),
                tag @ ("composite" | "flexcomp" | "attach" | "replicate" | "skin") => {
                    return Err(child.invalid(
                        "",
                        format!("<{tag}> (generated bodies, flexes or attached models) is not supported"),
                        "expand it into plain <body> elements (MuJoCo can save the compiled model as XML)",
                    ));
                }
                other => {
                    return Err(child.invalid(
                        "",
                        format!("<{other}> is not an element a body can hold"),
                        "remove it, or check the spelling (body, joint, geom, inertial, site, frame, …)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Reads body `p` (and its subtree); `parent` is the parent's body id (`None`: the world),
    /// `parent_frame` the parent's MJCF frame in the parent's link frame.
    fn body(
        &mut self,
        p: &Placed<'a>,
        parent: Option<usize>,
        parent_frame: &Isometry3,
    ) -> Result<(), ImportError> {
        let el = p.el;
        let id = self.tree.bodies.len() + 1;
        let link = match el.name() {
            Some("world") => {
                return Err(el.invalid(
                    "name",
                    "'world' is the world body's name",
                    "give the body another name",
                ));
            }
            Some(n) => n.to_owned(),
            None => format!("body{id}"),
        };
        if self.tree.body_ids.contains_key(&link) || !self.tree.link_names.insert(link.clone()) {
            return Err(el.invalid(
                "name",
                format!("body '{link}' is defined twice"),
                "give each body a different name",
            ));
        }
        self.tree.body_ids.insert(link.clone(), id);
        let childclass = el.attr("childclass").or(p.childclass);
        self.check_childclass(el)?;
        let attrs = Attrs::own(el);
        let pose = parent_frame * p.frame * self.compiler.pose(&attrs)?;
        if attrs.flag("mocap")? == Some(true) {
            self.tree.count("mocap flags (mocap bodies are welded to the world here)");
        }
        let mut items = Items::default();
        self.collect(el, Isometry3::identity(), childclass, &mut items, true)?;
        let joints = items
            .joints
            .iter()
            .map(|j| read_joint(self.compiler, self.classes, j.el, &j.frame, j.childclass))
            .collect::<Result<Vec<_>, _>>()?;
        let (parent_weld_of_parent, weld_of_parent) = match parent {
            None => (0, 0),
            Some(k) => (self.tree.bodies[k - 1].parent_weld, self.tree.bodies[k - 1].weld),
        };
        let (weld, parent_weld) =
            if joints.is_empty() { (weld_of_parent, parent_weld_of_parent) } else { (id, weld_of_parent) };
        self.check_free(&joints, parent)?;
        // Inertia and geoms, in the MJCF body frame.
        let from_geoms = match self.compiler.from_geom {
            FromGeom::Always => true,
            FromGeom::Never => false,
            FromGeom::Auto => items.inertial.is_none(),
        };
        let mut parts = Vec::new();
        let mut geoms = Vec::new();
        for g in &items.geoms {
            let geom = read_geom(&self.geoms, g.el, &g.frame, g.childclass, from_geoms, weld == 0)?;
            parts.extend(geom.inertia.clone());
            geoms.push(geom);
        }
        let inertia = match (from_geoms, items.inertial) {
            (true, _) => Inertia::compose(&parts),
            (false, Some(i)) => Inertia::read(i, self.compiler)?,
            (false, None) => {
                self.tree.warnings.push(format!(
                    "body '{link}' has no <inertial> and <compiler inertiafromgeom=\"false\">: its mass is 0"
                ));
                Inertia::zero()
            }
        };
        let inertia = inertia.checked(self.compiler, items.inertial.unwrap_or(el))?;
        // The joint chain: each joint's frame in the previous link's frame.
        let parent_link = parent.map(|k| self.tree.bodies[k - 1].link.clone());
        let in_link = self.chain(&link, el, &joints, parent_link, pose)?;
        let mut collisions = Vec::new();
        let mut masks = Vec::new();
        for geom in geoms {
            match geom.shape {
                Some(shape) if !geom.visual() => {
                    masks.push((geom.contype, geom.conaffinity));
                    collisions.push(Geometry {
                        name: geom.name,
                        shape,
                        pose: in_link * geom.pose,
                        friction: geom.friction,
                    });
                }
                _ => self.tree.count("visual-only geoms (contype = conaffinity = 0)"),
            }
        }
        let r = in_link.rotation.to_rotation_matrix().into_inner();
        self.tree.links.push(RobotLink {
            name: link.clone(),
            mass: inertia.mass,
            center_of_mass: in_link * inertia.com,
            inertia: r * inertia.tensor * r.transpose(),
            collisions,
            line: el.line,
        });
        self.tree.bodies.push(BodyInfo { link, weld, parent_weld, masks });
        for b in &items.bodies {
            self.body(b, Some(id), &in_link)?;
        }
        Ok(())
    }

    fn check_childclass(&self, el: &Element) -> Result<(), ImportError> {
        match el.attr("childclass") {
            Some(name) if self.classes.named(name).is_none() => Err(el.invalid(
                "childclass",
                format!("names class '{name}', which no <default> defines"),
                format!("define <default class=\"{name}\">, or remove childclass"),
            )),
            _ => Ok(()),
        }
    }

    /// MuJoCo's rules for free joints: alone in their body, and only in bodies of the world.
    fn check_free(&self, joints: &[JointSpec], parent: Option<usize>) -> Result<(), ImportError> {
        if let Some(free) = joints.iter().find(|j| j.joint_type == JointType::Free) {
            if joints.len() > 1 {
                return Err(free.el.invalid(
                    "",
                    "a free joint shares its body with other joints",
                    "give the body only the free joint",
                ));
            }
            if parent.is_some() {
                return Err(free.el.invalid(
                    "",
                    "a free joint in a body that is not a child of <worldbody>",
                    "move the body to the top level, or use other joint types",
                ));
            }
        }
        Ok(())
    }

    /// Adds the joints (and the massless links between them) that carry body `link` at `pose`
    /// in its parent's link frame; returns the body's MJCF frame in its own link frame.
    fn chain(
        &mut self,
        link: &str,
        el: &'a Element,
        joints: &[JointSpec<'a>],
        parent_link: Option<String>,
        pose: Isometry3,
    ) -> Result<Isometry3, ImportError> {
        let t = |v: Vector3| Isometry3::from_parts(Translation3::from(v), UnitQuaternion::identity());
        if joints.is_empty() {
            self.add_joint(
                RobotJoint {
                    name: format!("{link}/weld"),
                    joint_type: JointType::Fixed,
                    parent: parent_link,
                    child: link.to_owned(),
                    origin: pose,
                    axis: Vector3::zeros(),
                    limits: None,
                    damping: 0.0,
                    friction: 0.0,
                    armature: 0.0,
                    stiffness: 0.0,
                    spring_reference: 0.0,
                    position: 0.0,
                    effort_limit: None,
                    line: el.line,
                },
                el,
            )?;
            return Ok(Isometry3::identity());
        }
        if joints.len() > 1 {
            self.tree.chained.push(link.to_owned());
        }
        // The body's frame after the joints so far, in the current link's frame.
        let mut anchor = pose;
        let mut parent = parent_link;
        for (k, j) in joints.iter().enumerate() {
            let last = k + 1 == joints.len();
            let own = j.name.clone().unwrap_or_else(|| format!("joint{k}"));
            let name = j.name.clone().unwrap_or_else(|| format!("{link}/joint{k}"));
            let child = if last { link.to_owned() } else { format!("{link}/{own}") };
            let origin = match j.joint_type {
                JointType::Free | JointType::Fixed => anchor,
                JointType::Ball => anchor * t(j.pos),
                JointType::Revolute => {
                    anchor * t(j.pos) * UnitQuaternion::from_scaled_axis(j.axis * -j.reference)
                }
                JointType::Prismatic => anchor * t(j.pos) * t(j.axis * -j.reference),
            };
            let scalar = j.joint_type.is_single_dof();
            if j.reference != 0.0 {
                self.tree.with_ref.push(name.clone());
            }
            if j.ball_limited {
                self.tree.ball_limits.push(name.clone());
            }
            self.tree.warnings.extend(j.warnings.iter().cloned());
            self.tree.mj_joints.push(JointInfo {
                name: name.clone(),
                joint_type: j.joint_type,
                free_origin: anchor,
                reference: j.reference,
                el: j.el,
            });
            self.add_joint(
                RobotJoint {
                    name,
                    joint_type: j.joint_type,
                    parent: parent.clone(),
                    child: child.clone(),
                    origin,
                    axis: if scalar { j.axis } else { Vector3::zeros() },
                    limits: j.limits,
                    damping: j.damping,
                    friction: j.friction,
                    armature: j.armature,
                    stiffness: j.stiffness,
                    spring_reference: j.spring_reference,
                    position: if scalar { j.reference } else { 0.0 },
                    effort_limit: j.effort_limit,
                    line: j.el.line,
                },
                j.el,
            )?;
            if !last {
                if !self.tree.link_names.insert(child.clone()) {
                    return Err(j.el.invalid(
                        "name",
                        format!("the link '{child}' between this body's joints has the name of a body"),
                        "rename the joint or the body",
                    ));
                }
                self.tree.links.push(RobotLink {
                    name: child.clone(),
                    mass: 0.0,
                    center_of_mass: Point3::origin(),
                    inertia: Matrix3::zeros(),
                    collisions: Vec::new(),
                    line: j.el.line,
                });
            }
            anchor = t(-j.pos);
            parent = Some(child);
        }
        Ok(anchor)
    }

    fn add_joint(&mut self, joint: RobotJoint, el: &Element) -> Result<(), ImportError> {
        if !self.tree.joint_names.insert(joint.name.clone()) {
            return Err(el.invalid(
                "name",
                format!("joint name '{}' is used twice", joint.name),
                "give each joint a different name (unnamed joints are called BODY/jointK, welds BODY/weld)",
            ));
        }
        self.tree.joints.push(joint);
        Ok(())
    }
}
