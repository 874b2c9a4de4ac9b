//! `<compiler>`: how the rest of the file is to be read (angle units, Euler sequence, mesh
//! folder, automatic limits, inertia from geoms), and frames from `pos` and the orientation
//! attributes.

use super::attrs::{Attrs, Found};
use super::xml::Element;
use crate::math::{Isometry3, Matrix3, Quaternion, Translation3, UnitQuaternion, Vector3};
use crate::scene::import::ImportError;
use std::f64::consts::PI;

/// When bodies take their mass and inertia from their geoms (`inertiafromgeom`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum FromGeom {
    /// Without an `<inertial>` (the default).
    Auto,
    Always,
    Never,
}

#[derive(Clone, Debug)]
pub(super) struct Compiler {
    /// Angles in degrees (MuJoCo's default), else radians.
    pub degree: bool,
    /// Lower case: axes that move with the frame; upper case: fixed axes.
    pub eulerseq: [u8; 3],
    pub meshdir: Option<String>,
    pub autolimits: bool,
    pub from_geom: FromGeom,
    /// Geoms of groups in this range give their body mass.
    pub group_range: (i64, i64),
    pub boundmass: f64,
    pub boundinertia: f64,
    pub balanceinertia: bool,
    pub settotalmass: Option<f64>,
    pub strippath: bool,
}

impl Compiler {
    /// MuJoCo's defaults, then each `<compiler>` in file order.
    pub fn read(elements: &[&Element]) -> Result<Compiler, ImportError> {
        let mut c = Compiler {
            degree: true,
            eulerseq: *b"xyz",
            meshdir: None,
            autolimits: true,
            from_geom: FromGeom::Auto,
            group_range: (0, 5),
            boundmass: 0.0,
            boundinertia: 0.0,
            balanceinertia: false,
            settotalmass: None,
            strippath: false,
        };
        let mut assetdir = None;
        for el in elements {
            let a = Attrs::own(el);
            if let Some(angle) = a.keyword("angle", &["degree", "radian"])? {
                c.degree = angle == "degree";
            }
            if let Some(f) = a.get("eulerseq") {
                let seq = f.text.trim().as_bytes();
                if seq.len() != 3 || !seq.iter().all(|b| b"xyzXYZ".contains(b)) {
                    return Err(f.error(
                        "eulerseq",
                        format!("= \"{}\" is not three of x, y, z, X, Y, Z", f.text),
                        "write e.g. eulerseq=\"xyz\" (lower case: moving axes) or \"XYZ\" (fixed axes)",
                    ));
                }
                c.eulerseq = [seq[0], seq[1], seq[2]];
            }
            if let Some(dir) = a.text("meshdir") {
                c.meshdir = Some(dir.to_owned());
            }
            if let Some(dir) = a.text("assetdir") {
                assetdir = Some(dir.to_owned());
            }
            if let Some(v) = a.flag("autolimits")? {
                c.autolimits = v;
            }
            if let Some(v) = a.keyword("inertiafromgeom", &["auto", "true", "false"])? {
                c.from_geom = match v {
                    "true" => FromGeom::Always,
                    "false" => FromGeom::Never,
                    _ => FromGeom::Auto,
                };
            }
            if let Some(f) = a.get("inertiagrouprange") {
                let [lo, hi] = f.array::<2>("inertiagrouprange")?;
                c.group_range = (lo as i64, hi as i64);
            }
            c.boundmass = non_negative(&a, "boundmass", c.boundmass)?;
            c.boundinertia = non_negative(&a, "boundinertia", c.boundinertia)?;
            if let Some(v) = a.flag("balanceinertia")? {
                c.balanceinertia = v;
            }
            if let Some(m) = a.real("settotalmass")? {
                c.settotalmass = (m > 0.0).then_some(m);
            }
            if let Some(v) = a.flag("strippath")? {
                c.strippath = v;
            }
            if let Some(f) = a.get("coordinate").filter(|f| f.text.trim() != "local") {
                return Err(f.error(
                    "coordinate",
                    format!("= \"{}\": global coordinates were removed from MuJoCo", f.text),
                    "convert the model to local coordinates (MuJoCo 2.3.3 and later read only those)",
                ));
            }
        }
        if c.meshdir.is_none() {
            c.meshdir = assetdir;
        }
        Ok(c)
    }

    /// An angle as written (degrees or radians) in radians, as MuJoCo converts it.
    pub fn angle(&self, x: f64) -> f64 {
        if self.degree { x / 180.0 * PI } else { x }
    }

    /// The frame of `attrs`: `pos` and the one orientation attribute given (own, else its class's).
    pub fn pose(&self, attrs: &Attrs) -> Result<Isometry3, ImportError> {
        let pos = attrs.array::<3>("pos")?.unwrap_or_default();
        Ok(Isometry3::from_parts(Translation3::new(pos[0], pos[1], pos[2]), self.orientation(attrs)?))
    }

    /// `quat`, `axisangle`, `xyaxes`, `zaxis` or `euler`: at most one, the element's own taking
    /// precedence over its class's.
    pub fn orientation(&self, attrs: &Attrs) -> Result<UnitQuaternion, ImportError> {
        const KINDS: [&str; 5] = ["quat", "axisangle", "xyaxes", "zaxis", "euler"];
        let own: Vec<&str> = KINDS.into_iter().filter(|k| attrs.has_own(k)).collect();
        let given: Vec<&str> =
            if own.is_empty() { KINDS.into_iter().filter(|k| attrs.get(k).is_some()).collect() } else { own };
        match given[..] {
            [] => Ok(UnitQuaternion::identity()),
            [kind] => match attrs.get(kind) {
                Some(found) => self.rotation(&found, kind),
                None => Ok(UnitQuaternion::identity()),
            },
            [first, second, ..] => Err(attrs.error(
                second,
                format!("is given together with `{first}`"),
                "give one orientation: quat, axisangle, xyaxes, zaxis or euler",
            )),
        }
    }

    fn rotation(&self, f: &Found, kind: &str) -> Result<UnitQuaternion, ImportError> {
        let tiny = |what: &str| {
            f.error(kind, format!("= \"{}\": {what} is (nearly) zero", f.text), "give a nonzero direction")
        };
        match kind {
            "quat" => {
                let [w, x, y, z] = f.array::<4>(kind)?;
                let q = Quaternion::new(w, x, y, z);
                if q.norm() <= 1e-10 {
                    return Err(tiny("the quaternion"));
                }
                Ok(UnitQuaternion::from_quaternion(q))
            }
            "axisangle" => {
                let [x, y, z, a] = f.array::<4>(kind)?;
                let axis = Vector3::new(x, y, z);
                if axis.norm() <= 1e-14 {
                    return Err(tiny("the axis"));
                }
                let half = self.angle(a) / 2.0;
                let v = axis.normalize() * half.sin();
                Ok(UnitQuaternion::new_unchecked(Quaternion::new(half.cos(), v.x, v.y, v.z)))
            }
            "xyaxes" => {
                let v = f.array::<6>(kind)?;
                let x = Vector3::new(v[0], v[1], v[2]);
                if x.norm() <= 1e-14 {
                    return Err(tiny("the x axis"));
                }
                let x = x.normalize();
                let y = Vector3::new(v[3], v[4], v[5]);
                let y = y - x * x.dot(&y);
                if y.norm() <= 1e-14 {
                    return Err(tiny("the y axis (its part across the x axis)"));
                }
                let y = y.normalize();
                let m = Matrix3::from_columns(&[x, y, x.cross(&y)]);
                Ok(UnitQuaternion::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(m)))
            }
            "zaxis" => {
                let [x, y, z] = f.array::<3>(kind)?;
                let v = Vector3::new(x, y, z);
                if v.norm() <= 1e-14 {
                    return Err(tiny("the z axis"));
                }
                Ok(z_to(&v))
            }
            _ => {
                let e = f.array::<3>(kind)?;
                let mut q = UnitQuaternion::identity();
                for (axis, a) in self.eulerseq.iter().zip(e) {
                    let half = self.angle(a) / 2.0;
                    let (s, c) = half.sin_cos();
                    let r = UnitQuaternion::new_unchecked(match axis.to_ascii_lowercase() {
                        b'x' => Quaternion::new(c, s, 0.0, 0.0),
                        b'y' => Quaternion::new(c, 0.0, s, 0.0),
                        _ => Quaternion::new(c, 0.0, 0.0, s),
                    });
                    // Moving axes turn about the rotated frame's axis: post-multiply.
                    q = if axis.is_ascii_lowercase() { q * r } else { r * q };
                }
                Ok(UnitQuaternion::from_quaternion(q.into_inner()))
            }
        }
    }
}

/// The shortest rotation taking z to the direction `v` (MuJoCo's `z2quat`; a half turn about x
/// for −z).
pub(super) fn z_to(v: &Vector3) -> UnitQuaternion {
    let v = v.normalize();
    let c = Vector3::z().cross(&v);
    let s = c.norm();
    let axis = if s < 1e-10 { Vector3::x() } else { c / s };
    let half = s.atan2(v.z) / 2.0;
    let a = axis * half.sin();
    UnitQuaternion::new_unchecked(Quaternion::new(half.cos(), a.x, a.y, a.z))
}

fn non_negative(a: &Attrs, name: &str, current: f64) -> Result<f64, ImportError> {
    match a.real(name)? {
        Some(v) if v < 0.0 => Err(a.error(name, format!("= {v} is negative"), "give a value ≥ 0")),
        Some(v) => Ok(v),
        None => Ok(current),
    }
}
