//! `<joint>` and `<freejoint>` as written: type, anchor and axis in the body frame (enclosing
//! `<frame>`s applied), limits, reference and spring positions (radians for hinges), passive
//! dynamics. Where the joint frame goes is the body builder's business.

use super::attrs::Limited;
use super::compiler::Compiler;
use super::defaults::{Classes, Kind};
use super::xml::Element;
use crate::math::{Isometry3, Point3, Vector3};
use crate::scene::import::{ImportError, JointType};

pub(super) struct JointSpec<'a> {
    pub el: &'a Element,
    /// The file's name, if it has one.
    pub name: Option<String>,
    pub joint_type: JointType,
    /// The anchor in the body frame.
    pub pos: Vector3,
    /// The unit axis in the body frame (hinge, slide).
    pub axis: Vector3,
    pub limits: Option<(f64, f64)>,
    /// MuJoCo's `ref`: the coordinate at which the body is where the file draws it.
    pub reference: f64,
    pub spring_reference: f64,
    pub damping: f64,
    pub armature: f64,
    pub stiffness: f64,
    pub friction: f64,
    pub effort_limit: Option<f64>,
    /// Ball joint limits, which we do not keep.
    pub ball_limited: bool,
    pub warnings: Vec<String>,
}

pub(super) fn read_joint<'a>(
    compiler: &Compiler,
    classes: &Classes,
    el: &'a Element,
    frame: &Isometry3,
    childclass: Option<&str>,
) -> Result<JointSpec<'a>, ImportError> {
    let mut spec = JointSpec {
        el,
        name: el.name().map(str::to_owned),
        joint_type: JointType::Free,
        pos: Vector3::zeros(),
        axis: Vector3::zeros(),
        limits: None,
        reference: 0.0,
        spring_reference: 0.0,
        damping: 0.0,
        armature: 0.0,
        stiffness: 0.0,
        friction: 0.0,
        effort_limit: None,
        ball_limited: false,
        warnings: Vec::new(),
    };
    // A <freejoint> takes nothing from defaults (MuJoCo's rule).
    if el.tag == "freejoint" {
        return Ok(spec);
    }
    let class = classes.of(el, childclass)?;
    let a = class.attrs(el, Kind::Joint);
    spec.joint_type = match a.keyword("type", &["free", "ball", "slide", "hinge"])?.unwrap_or("hinge") {
        "free" => JointType::Free,
        "ball" => JointType::Ball,
        "slide" => JointType::Prismatic,
        _ => JointType::Revolute,
    };
    let hinge = spec.joint_type == JointType::Revolute;
    let scalar = spec.joint_type.is_single_dof();
    // Free joints have neither anchor nor axis; balls turn about their anchor.
    if spec.joint_type != JointType::Free {
        let pos = Vector3::from(a.array::<3>("pos")?.unwrap_or_default());
        spec.pos = (frame * Point3::from(pos)).coords;
    }
    if scalar {
        let axis = Vector3::from(a.array::<3>("axis")?.unwrap_or([0.0, 0.0, 1.0]));
        if axis.norm() <= 1e-14 {
            return Err(a.error(
                "axis",
                "is (nearly) zero",
                "give the joint's axis direction, e.g. axis=\"0 0 1\"",
            ));
        }
        spec.axis = frame.rotation * axis.normalize();
    }
    let angle = |x: f64| if hinge { compiler.angle(x) } else { x };
    let range = a.array::<2>("range")?.unwrap_or_default();
    let limited =
        Limited::read(&a, "limited")?.resolve(range != [0.0, 0.0], compiler.autolimits).map_err(|()| {
            a.error(
                "range",
                "is given without `limited`, and <compiler autolimits=\"false\">",
                "give limited=\"true\" or \"false\", or set autolimits=\"true\" in <compiler>",
            )
        })?;
    match spec.joint_type {
        JointType::Free if a.keyword("limited", &["true", "false", "auto"])? == Some("true") => {
            return Err(a.error("limited", "a free joint cannot be limited", "remove limited and range"));
        }
        JointType::Ball => spec.ball_limited = limited,
        _ if scalar && limited => {
            if range[0] >= range[1] {
                return Err(a.error(
                    "range",
                    format!("= \"{} {}\": the lower limit is not below the upper", range[0], range[1]),
                    "give range=\"lower upper\" with lower < upper",
                ));
            }
            spec.limits = Some((angle(range[0]), angle(range[1])));
        }
        _ => {}
    }
    if scalar {
        spec.reference = angle(a.real_or("ref", 0.0)?);
        spec.spring_reference = angle(a.real_or("springref", 0.0)?);
    }
    spec.damping = linear(&a, "damping", "damping")?;
    spec.stiffness = linear(&a, "stiffness", "stiffness")?;
    if spec.stiffness != 0.0 && !scalar {
        spec.warnings.push(format!(
            "joint {}: the stiffness of a {} joint is not kept",
            el.describe(),
            spec.joint_type.key()
        ));
        spec.stiffness = 0.0;
    }
    for (name, slot) in [("armature", &mut spec.armature), ("frictionloss", &mut spec.friction)] {
        let v = a.real_or(name, 0.0)?;
        if v < 0.0 {
            return Err(a.error(name, format!("= {v} is negative"), "give a value ≥ 0"));
        }
        *slot = v;
    }
    if a.array::<2>("springdamper")?.is_some_and(|s| s != [0.0, 0.0]) {
        return Err(a.error(
            "springdamper",
            "needs the joint's inertia, which is not computed here",
            "give stiffness and damping instead",
        ));
    }
    if scalar {
        let range = a.array::<2>("actuatorfrcrange")?.unwrap_or_default();
        let on = Limited::read(&a, "actuatorfrclimited")?
            .resolve(range != [0.0, 0.0], compiler.autolimits)
            .map_err(|()| {
            a.error(
                "actuatorfrcrange",
                "is given without `actuatorfrclimited`, and <compiler autolimits=\"false\">",
                "give actuatorfrclimited=\"true\" or \"false\", or set autolimits=\"true\" in <compiler>",
            )
        })?;
        if on {
            if range[0] >= range[1] {
                return Err(a.error(
                    "actuatorfrcrange",
                    format!("= \"{} {}\": the lower bound is not below the upper", range[0], range[1]),
                    "give actuatorfrcrange=\"lower upper\" with lower < upper",
                ));
            }
            let (limit, warning) = symmetric(range);
            if let Some(w) = warning {
                spec.warnings.push(format!("joint {}: actuatorfrcrange {w}", el.describe()));
            }
            spec.effort_limit = Some(limit);
        }
    }
    Ok(spec)
}

/// The linear coefficient of a polynomial `damping`/`stiffness` (higher ones must be 0), ≥ 0.
fn linear(a: &super::attrs::Attrs, name: &str, what: &str) -> Result<f64, ImportError> {
    let c = a.prefix(name, [0.0; 3])?;
    if c[1] != 0.0 || c[2] != 0.0 {
        return Err(a.error(
            name,
            format!("has nonlinear terms: only linear {what} is supported"),
            format!("give one number: {name}=\"{}\"", c[0]),
        ));
    }
    if c[0] < 0.0 {
        return Err(a.error(name, format!("= {} is negative", c[0]), "give a value ≥ 0"));
    }
    Ok(c[0])
}

/// A range as a symmetric bound: its larger magnitude, and a warning when it is asymmetric.
pub(super) fn symmetric(range: [f64; 2]) -> (f64, Option<String>) {
    let limit = range[0].abs().max(range[1].abs());
    let warning = (range[0] != -range[1])
        .then(|| format!("[{}, {}] is asymmetric: kept as the symmetric bound ±{limit}", range[0], range[1]));
    (limit, warning)
}
