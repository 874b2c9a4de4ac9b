//! An actuator's parameters in MuJoCo's general form (gain, bias, dynamics, gear, ranges).
//! Every actuator element — `<motor>`, `<position>`, `<velocity>`, `<general>` — is a shortcut
//! that writes some of them, in a default class as in `<actuator>` (all kinds share one default
//! per class, as in MuJoCo), and [`ActuatorParams::kind`] reads ours back out of them.

use super::attrs::{Attrs, Limited};
use super::xml::Element;
use crate::scene::import::ImportError;
use crate::scene::mechanism::{ActuatorKind, Schedule};

/// The actuator elements we turn into ours.
pub(super) const SUPPORTED: [&str; 4] = ["motor", "position", "velocity", "general"];
/// MuJoCo's other actuator shortcuts (read in defaults, refused on an actuator).
pub(super) const OTHER: [&str; 8] =
    ["intvelocity", "damper", "cylinder", "muscle", "adhesion", "dcmotor", "pid", "orientation"];

#[derive(Clone, Debug)]
pub(super) struct ActuatorParams {
    pub gaintype: String,
    pub gainprm: [f64; 10],
    pub biastype: String,
    pub biasprm: [f64; 10],
    pub dyntype: String,
    pub gear: [f64; 6],
    pub ctrlrange: [f64; 2],
    pub forcerange: [f64; 2],
    pub ctrllimited: Limited,
    pub forcelimited: Limited,
    /// Passive damping and rotor inertia the actuator adds to its joint (times gear²).
    pub damping: [f64; 3],
    pub armature: f64,
    /// A shortcut we cannot map whose settings this inherits (e.g. a default `<muscle>`).
    pub foreign: Option<String>,
}

impl Default for ActuatorParams {
    fn default() -> Self {
        let mut gainprm = [0.0; 10];
        gainprm[0] = 1.0;
        ActuatorParams {
            gaintype: "fixed".into(),
            gainprm,
            biastype: "none".into(),
            biasprm: [0.0; 10],
            dyntype: "none".into(),
            gear: [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            ctrlrange: [0.0; 2],
            forcerange: [0.0; 2],
            ctrllimited: Limited::Auto,
            forcelimited: Limited::Auto,
            damping: [0.0; 3],
            armature: 0.0,
            foreign: None,
        }
    }
}

impl ActuatorParams {
    /// Applies actuator element `el` (its own attributes) as MuJoCo's shortcut of its tag does.
    pub fn apply(&mut self, el: &Element) -> Result<(), ImportError> {
        let a = Attrs::own(el);
        self.ctrllimited = match a.get("ctrllimited") {
            Some(_) => Limited::read(&a, "ctrllimited")?,
            None => self.ctrllimited,
        };
        self.forcelimited = match a.get("forcelimited") {
            Some(_) => Limited::read(&a, "forcelimited")?,
            None => self.forcelimited,
        };
        self.ctrlrange = a.array::<2>("ctrlrange")?.unwrap_or(self.ctrlrange);
        self.forcerange = a.array::<2>("forcerange")?.unwrap_or(self.forcerange);
        self.gear = a.prefix("gear", self.gear)?;
        self.damping = a.prefix("damping", self.damping)?;
        self.armature = a.real_or("armature", self.armature)?;
        match el.tag.as_str() {
            "general" => {
                for (name, slot) in [
                    ("gaintype", &mut self.gaintype),
                    ("biastype", &mut self.biastype),
                    ("dyntype", &mut self.dyntype),
                ] {
                    if let Some(t) = a.text(name) {
                        *slot = t.trim().to_owned();
                    }
                }
                self.gainprm = a.prefix("gainprm", self.gainprm)?;
                self.biasprm = a.prefix("biasprm", self.biasprm)?;
            }
            "motor" => {
                self.gainprm[0] = 1.0;
                (self.gaintype, self.biastype, self.dyntype) = ("fixed".into(), "none".into(), "none".into());
                self.foreign = None;
            }
            "position" => {
                let kp = a.real_or("kp", self.gainprm[0])?;
                self.gainprm[0] = kp;
                self.biasprm[1] = -kp;
                match (a.real("kv")?, a.real("dampratio")?) {
                    (Some(_), Some(_)) => {
                        return Err(a.error(
                            "dampratio",
                            "is given with kv",
                            "give kv or dampratio, not both",
                        ));
                    }
                    (Some(kv), None) if kv < 0.0 => {
                        return Err(a.error("kv", format!("= {kv} is negative"), "give kv ≥ 0"));
                    }
                    (Some(kv), None) => self.biasprm[2] = -kv,
                    // MuJoCo marks a damping ratio by a positive biasprm[2].
                    (None, Some(ratio)) => self.biasprm[2] = ratio,
                    (None, None) => {}
                }
                if let Some(tc) = a.real("timeconst")? {
                    self.dyntype = if tc == 0.0 { "none".into() } else { "filterexact".into() };
                }
                (self.gaintype, self.biastype) = ("fixed".into(), "affine".into());
                self.foreign = None;
            }
            "velocity" => {
                let kv = a.real_or("kv", self.gainprm[0])?;
                self.biasprm = [0.0; 10];
                self.gainprm[0] = kv;
                self.biasprm[2] = -kv;
                (self.gaintype, self.biastype, self.dyntype) =
                    ("fixed".into(), "affine".into(), "none".into());
                self.foreign = None;
            }
            other => self.foreign = Some(other.to_owned()),
        }
        Ok(())
    }

    /// Ours, for an actuator with gear ratio `g` on a joint. MuJoCo's force is gain·ctrl + bias
    /// with the joint seen through the gear (length g·q, velocity g·v), and the joint takes g
    /// times the force: a position servo's gains grow by g², a motor's by g. `Err`: what cannot
    /// be mapped: the attribute at fault and why.
    pub fn kind(&self) -> Result<ActuatorKind, (&'static str, String)> {
        if let Some(kind) = &self.foreign {
            return Err(("class", format!("it inherits a <{kind}> default, which has no counterpart here")));
        }
        if self.dyntype != "none" {
            return Err((
                "dyntype",
                format!(
                    "dyntype=\"{}\" (activation dynamics: a filter, integrator or muscle state; a position \
                     servo's timeconst) is not supported",
                    self.dyntype
                ),
            ));
        }
        if self.gaintype != "fixed" {
            return Err((
                "gaintype",
                format!("gaintype=\"{}\" is not supported (only fixed gains are)", self.gaintype),
            ));
        }
        let g = self.gear[0];
        let gain = self.gainprm[0];
        let b = &self.biasprm;
        let zero = Schedule::Constant(0.0);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs());
        match self.biastype.as_str() {
            "none" => Ok(ActuatorKind::Motor { gear: g * gain, effort: zero }),
            "affine" if b.iter().all(|&x| x == 0.0) => {
                Ok(ActuatorKind::Motor { gear: g * gain, effort: zero })
            }
            "affine" if b[0] == 0.0 && b[2] > 0.0 => Err((
                "dampratio",
                format!("a damping ratio (dampratio = {}) needs the joint's inertia", b[2]),
            )),
            "affine" if b[0] == 0.0 && gain > 0.0 && close(b[1], -gain) && b[2] <= 0.0 => {
                Ok(ActuatorKind::Position {
                    kp: g * g * gain,
                    kd: -g * g * b[2],
                    target: zero.clone(),
                    target_velocity: zero,
                })
            }
            "affine" if b[0] == 0.0 && b[1] == 0.0 && gain > 0.0 && close(b[2], -gain) => {
                Ok(ActuatorKind::Velocity { kd: g * g * gain, target: zero })
            }
            "affine" => Err((
                "biasprm",
                format!(
                    "gainprm[0] = {gain} with biasprm = \"{} {} {}\" is neither a motor (bias 0), a position servo \
                     (bias \"0 -kp -kv\" with kp = gainprm[0]) nor a velocity servo (bias \"0 0 -kv\" with \
                     kv = gainprm[0])",
                    b[0], b[1], b[2]
                ),
            )),
            other => {
                Err(("biastype", format!("biastype=\"{other}\" is not supported (only none and affine are)")))
            }
        }
    }
}
