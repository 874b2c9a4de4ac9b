//! `<geom>`: its shape in ours (MJCF sizes are half sizes; capsules and cylinders give
//! half-lengths), its frame (`fromto` or `pos` and an orientation), its collision filter
//! (`contype`/`conaffinity`), and its mass and inertia when its body takes them from geoms.

use super::assets::Meshes;
use super::attrs::Attrs;
use super::compiler::{Compiler, z_to};
use super::defaults::{Classes, Kind};
use super::inertia::Inertia;
use super::xml::Element;
use crate::geometry::Shape;
use crate::geometry::mass_properties::MassProperties;
use crate::math::{Isometry3, Translation3, Vector3};
use crate::scene::import::ImportError;

/// MuJoCo's `mjEPS`: geoms lighter than this (or of less volume) give no mass.
const EPS: f64 = 1e-14;

pub(super) struct Geom {
    pub name: Option<String>,
    /// `None`: a visual mesh that was not needed (so not read).
    pub shape: Option<Shape>,
    /// In the MJCF body frame (enclosing `<frame>`s applied).
    pub pose: Isometry3,
    pub contype: u32,
    pub conaffinity: u32,
    pub friction: Option<f64>,
    /// Its share of the body's inertia (body frame), when the body takes it from geoms.
    pub inertia: Option<Inertia>,
}

impl Geom {
    /// contype = conaffinity = 0: it collides with nothing (a visual geom).
    pub fn visual(&self) -> bool {
        self.contype == 0 && self.conaffinity == 0
    }
}

/// What the geom reader needs from the model.
pub(super) struct GeomContext<'c, 'a> {
    pub compiler: &'c Compiler,
    pub classes: &'c Classes<'a>,
    pub meshes: &'c Meshes<'a>,
}

/// Reads geom `el` placed at `frame` in its body frame under `childclass`. `mass_wanted`: its
/// body takes mass from geoms; `body_static`: the body never moves (planes need that).
pub(super) fn read_geom(
    cx: &GeomContext,
    el: &Element,
    frame: &Isometry3,
    childclass: Option<&str>,
    mass_wanted: bool,
    body_static: bool,
) -> Result<Geom, ImportError> {
    let class = cx.classes.of(el, childclass)?;
    let a = class.attrs(el, Kind::Geom);
    let kind = a
        .keyword(
            "type",
            &["plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh", "sdf"],
        )?
        .unwrap_or("sphere");
    if matches!(kind, "hfield" | "sdf") {
        return Err(a.error(
            "type",
            format!("= \"{kind}\" is not supported"),
            "approximate it with boxes or a mesh",
        ));
    }
    if kind != "mesh" && a.get("mesh").is_some() {
        return Err(a.error(
            "mesh",
            format!("a {kind} fitted to a mesh is not supported"),
            "use type=\"mesh\", or give the primitive's size",
        ));
    }
    let contype = mask(&a, "contype")?;
    let conaffinity = mask(&a, "conaffinity")?;
    let group = a.int("group")?.unwrap_or(0);
    let mut size = a.prefix("size", [0.0; 3])?;
    let local = match a.array::<6>("fromto")? {
        Some(ft) => {
            if !matches!(kind, "capsule" | "cylinder" | "box" | "ellipsoid") {
                return Err(a.error(
                    "fromto",
                    format!("is given for a {kind}"),
                    "use pos (and an orientation) instead",
                ));
            }
            if a.array::<3>("pos")?.is_some_and(|p| p != [0.0; 3]) {
                return Err(a.error("pos", "is given with fromto", "give pos or fromto, not both"));
            }
            let (from, to) = (Vector3::new(ft[0], ft[1], ft[2]), Vector3::new(ft[3], ft[4], ft[5]));
            // MuJoCo points the geom's z from `to` towards `from`.
            let d = from - to;
            let half = d.norm() / 2.0;
            if half < EPS {
                return Err(a.error(
                    "fromto",
                    "its two points (nearly) coincide",
                    "give two distinct points",
                ));
            }
            size = match kind {
                "box" | "ellipsoid" => [size[0], size[0], half],
                _ => [size[0], half, size[2]],
            };
            let c = (from + to) / 2.0;
            Isometry3::from_parts(Translation3::new(c.x, c.y, c.z), z_to(&d))
        }
        None => cx.compiler.pose(&a)?,
    };
    let pose = frame * local;
    let name = el.name().map(str::to_owned);
    let (lo, hi) = cx.compiler.group_range;
    let wants_mass = mass_wanted && kind != "plane" && (lo..=hi).contains(&group);
    let positive = |n: usize, what: &str| -> Result<(), ImportError> {
        match size[..n].iter().find(|s| **s <= 0.0) {
            Some(s) => Err(a.error(
                "size",
                format!("a {kind}'s {what} is {s}, not positive"),
                format!("give size=\"{}\" with positive numbers", what),
            )),
            None => Ok(()),
        }
    };
    let shape = match kind {
        "plane" => {
            if !body_static {
                return Err(a.error(
                    "type",
                    "a plane is on a body that moves",
                    "put planes on the world body (or a body without joints welded to it)",
                ));
            }
            Shape::HalfSpace
        }
        "sphere" => {
            positive(1, "radius")?;
            Shape::Sphere { radius: size[0] }
        }
        "capsule" | "cylinder" => {
            positive(2, "radius half-length")?;
            if kind == "capsule" {
                Shape::Capsule { radius: size[0], length: 2.0 * size[1] }
            } else {
                Shape::Cylinder { radius: size[0], length: 2.0 * size[1] }
            }
        }
        "box" => {
            positive(3, "half-sizes x y z")?;
            Shape::Box { size: size.map(|s| 2.0 * s) }
        }
        "ellipsoid" => {
            positive(3, "radii x y z")?;
            Shape::Ellipsoid { radii: size }
        }
        // A visual mesh whose mass is not wanted is never read.
        _ if contype == 0 && conaffinity == 0 && !wants_mass => {
            return Ok(Geom { name, shape: None, pose, contype, conaffinity, friction: None, inertia: None });
        }
        _ => mesh_shape(cx, &a, el)?,
    };
    let friction = match a.get("friction") {
        Some(_) => Some(a.prefix("friction", [1.0, 0.005, 0.0001])?[0]),
        None => None,
    };
    if friction.is_some_and(|f| f < 0.0) {
        return Err(a.error("friction", "is negative", "give a friction coefficient ≥ 0"));
    }
    let mass = a.real("mass")?;
    if let Some(m) = mass.filter(|m| *m < 0.0) {
        return Err(a.error("mass", format!("= {m} is negative"), "give a mass ≥ 0 (kg)"));
    }
    let density = a.real_or("density", 1000.0)?;
    if density < 0.0 {
        return Err(a.error("density", format!("= {density} is negative"), "give a density ≥ 0 (kg/m³)"));
    }
    if a.flag("shellinertia")? == Some(true) {
        return Err(a.error(
            "shellinertia",
            "mass on the surface is not supported",
            "remove it, or give the body an <inertial>",
        ));
    }
    let inertia = if wants_mass {
        let props = match &shape {
            Shape::Convex { .. } => mesh_mass(cx, &a, el)?,
            s => MassProperties::of_shape(s)
                .map_err(|e| a.error("size", e.to_string(), "give positive sizes"))?,
        };
        geom_inertia(&props, mass, density, &pose)
    } else {
        None
    };
    Ok(Geom { name, shape: Some(shape), pose, contype, conaffinity, friction, inertia })
}

/// A geom's mass as MuJoCo sets it: `mass` if given (none when the volume is nil), else density
/// times volume; `None` below MuJoCo's threshold.
fn geom_inertia(
    props: &MassProperties,
    mass: Option<f64>,
    density: f64,
    pose: &Isometry3,
) -> Option<Inertia> {
    let m = match mass {
        Some(m) if props.volume > EPS => m,
        Some(_) => 0.0,
        None => density * props.volume,
    };
    if m <= EPS {
        return None;
    }
    let r = pose.rotation.to_rotation_matrix().into_inner();
    Some(Inertia {
        mass: m,
        com: pose * props.centroid,
        tensor: r * props.inertia_for_mass(m) * r.transpose(),
    })
}

fn mesh_shape(cx: &GeomContext, a: &Attrs, el: &Element) -> Result<Shape, ImportError> {
    let Some(name) = a.text("mesh") else {
        return Err(el.invalid("mesh", "is missing for a mesh geom", "name a mesh of <asset>: mesh=\"…\""));
    };
    let mesh = cx.meshes.get(name, el)?;
    Ok(Shape::Convex { file: mesh.file.clone(), points: mesh.points.clone() })
}

fn mesh_mass(cx: &GeomContext, a: &Attrs, el: &Element) -> Result<MassProperties, ImportError> {
    let name = a.text("mesh").unwrap_or_default();
    Ok(cx.meshes.get(name, el)?.mass.clone())
}

/// A collision bitmask (`contype`, `conaffinity`; default 1).
fn mask(a: &Attrs, name: &str) -> Result<u32, ImportError> {
    match a.int(name)? {
        None => Ok(1),
        Some(v) => u32::try_from(v).map_err(|_| {
            a.error(name, format!("= {v} is not a 32-bit mask"), "give a whole number from 0 to 4294967295")
        }),
    }
}
