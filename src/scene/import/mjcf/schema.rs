//! The attributes MuJoCo knows for the elements we read (its XML reference, MuJoCo 3.x), so
//! that a misspelt one (`dampnig`) is reported rather than silently ignored. A warning, not an
//! error: newer MuJoCo versions add attributes.

use super::xml::Element;

const ACTUATOR_COMMON: &[&str] = &[
    "name",
    "class",
    "group",
    "delay",
    "nsample",
    "interp",
    "ctrllimited",
    "forcelimited",
    "actlimited",
    "ctrlrange",
    "forcerange",
    "actrange",
    "lengthrange",
    "gear",
    "cranklength",
    "joint",
    "jointinparent",
    "tendon",
    "cranksite",
    "slidersite",
    "site",
    "refsite",
    "body",
    "user",
    "damping",
    "armature",
    "actdim",
    "actearly",
    "inheritrange",
];

fn known(tag: &str) -> Option<&'static [&'static str]> {
    Some(match tag {
        "body" => &[
            "name",
            "childclass",
            "mocap",
            "pos",
            "quat",
            "axisangle",
            "xyaxes",
            "zaxis",
            "euler",
            "gravcomp",
            "sleep",
            "simple",
            "user",
        ],
        "frame" => &["name", "childclass", "pos", "quat", "axisangle", "xyaxes", "zaxis", "euler"],
        "joint" => &[
            "name",
            "class",
            "type",
            "group",
            "pos",
            "axis",
            "springdamper",
            "solreflimit",
            "solimplimit",
            "solreffriction",
            "solimpfriction",
            "stiffness",
            "range",
            "limited",
            "actuatorfrcrange",
            "actuatorfrclimited",
            "actuatorgravcomp",
            "margin",
            "ref",
            "springref",
            "armature",
            "damping",
            "frictionloss",
            "user",
        ],
        "freejoint" => &["name", "group", "align"],
        "geom" => &[
            "name",
            "class",
            "type",
            "contype",
            "conaffinity",
            "condim",
            "group",
            "priority",
            "size",
            "material",
            "rgba",
            "friction",
            "mass",
            "density",
            "shellinertia",
            "solmix",
            "solref",
            "solimp",
            "margin",
            "gap",
            "surfacevel",
            "adhesion",
            "fromto",
            "pos",
            "quat",
            "axisangle",
            "xyaxes",
            "zaxis",
            "euler",
            "hfield",
            "mesh",
            "fitscale",
            "fluidshape",
            "fluidcoef",
            "user",
        ],
        "inertial" => {
            &["pos", "quat", "axisangle", "xyaxes", "zaxis", "euler", "mass", "diaginertia", "fullinertia"]
        }
        "mesh" => &[
            "name",
            "class",
            "content_type",
            "file",
            "scale",
            "inertia",
            "smoothnormal",
            "maxhullvert",
            "vertex",
            "normal",
            "texcoord",
            "face",
            "refpos",
            "refquat",
            "builtin",
            "params",
            "material",
        ],
        "compiler" => &[
            "autolimits",
            "boundmass",
            "boundinertia",
            "settotalmass",
            "balanceinertia",
            "strippath",
            "coordinate",
            "angle",
            "fitaabb",
            "eulerseq",
            "meshdir",
            "texturedir",
            "assetdir",
            "discardvisual",
            "usethread",
            "fusestatic",
            "inertiafromgeom",
            "alignfree",
            "inertiagrouprange",
            "saveinertial",
            "conflict",
        ],
        "motor" | "velocity" => ACTUATOR_COMMON,
        _ => return None,
    })
}

/// The extra attributes of some actuator shortcuts.
fn extra(tag: &str) -> &'static [&'static str] {
    match tag {
        "position" => &["kp", "kv", "dampratio", "timeconst"],
        "velocity" => &["kv"],
        "general" => &[
            "dyntype", "gaintype", "biastype", "dynprm", "gainprm", "biasprm", "velrange", "ffrange", "input",
        ],
        _ => &[],
    }
}

/// Warnings for `el`'s attributes that MuJoCo does not know.
pub(super) fn unknown_attributes(el: &Element, out: &mut Vec<String>) {
    let list = match el.tag.as_str() {
        "position" | "general" => Some(ACTUATOR_COMMON),
        tag => known(tag),
    };
    let Some(list) = list else { return };
    for (name, _) in &el.attrs {
        if !list.contains(&name.as_str()) && !extra(&el.tag).contains(&name.as_str()) {
            out.push(format!(
                "{} line {}: <{}> has no attribute `{name}` in MuJoCo: ignored (check the spelling)",
                el.file.display(),
                el.line,
                el.describe()
            ));
        }
    }
}

/// Warnings for the unknown attributes of the elements read: the compiler, the body tree,
/// meshes, defaults and actuators (elsewhere the same tags mean other things, e.g. a tendon's
/// `<joint>`).
pub(super) fn check(root: &Element) -> Vec<String> {
    fn all(el: &Element, out: &mut Vec<String>) {
        for child in &el.children {
            unknown_attributes(child, out);
            all(child, out);
        }
    }
    let mut out = Vec::new();
    for section in &root.children {
        match section.tag.as_str() {
            "compiler" => unknown_attributes(section, &mut out),
            "worldbody" | "default" => all(section, &mut out),
            "asset" | "actuator" => section.children.iter().for_each(|c| unknown_attributes(c, &mut out)),
            _ => {}
        }
    }
    out
}
