//! The scene file exactly as written: serde structs that reject unknown keys. Validation and
//! defaults live in `validate.rs`, so these only say which keys exist and their types.

use super::mechanism::JointType;
use super::{Compliance, ModelKind};
use serde::Deserialize;
use std::path::PathBuf;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScene {
    pub model: Option<RawModel>,
    pub sim: Option<RawSim>,
    #[serde(default)]
    pub body: Vec<Spanned<RawBody>>,
    #[serde(default)]
    pub joint: Vec<Spanned<RawJoint>>,
    #[serde(default)]
    pub actuator: Vec<Spanned<RawActuator>>,
    #[serde(default)]
    pub coupler: Vec<Spanned<RawCoupler>>,
    #[serde(default)]
    pub exclude: Vec<Spanned<RawExclude>>,
    #[serde(default)]
    pub robot: Vec<Spanned<RawRobot>>,
    #[serde(default)]
    pub measure: Vec<Spanned<RawMeasure>>,
}

/// `[[measure]]`: the drift of body `b`'s pose relative to body `a`'s.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMeasure {
    pub name: String,
    pub a: String,
    pub b: String,
    pub from: Option<f64>,
}

/// `[[robot]]`: a URDF or MJCF file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRobot {
    pub name: String,
    pub file: PathBuf,
    #[serde(default)]
    pub package_paths: Vec<PathBuf>,
    pub base: Option<RawOrigin>,
    pub fixed_base: Option<bool>,
    /// Whether the robot's links touch each other (never a link and its parent). Default false.
    pub self_collision: Option<bool>,
    /// Joint name (with or without the robot's prefix) → initial coordinate.
    pub positions: Option<toml::Table>,
    /// An MJCF keyframe's name: its positions start the joints the scene does not set.
    pub keyframe: Option<String>,
    pub contact: Option<RawContact>,
    /// Link name → contact keys over `contact`.
    pub link_contact: Option<std::collections::BTreeMap<String, RawContact>>,
    /// Whether the file's joint Coulomb friction is simulated. Default true.
    pub joint_friction: Option<bool>,
}

/// `[model]`, and each `[model.KIND]` sub-table: the keys of one model, read only when that
/// model runs (`kind` only at the top, checked in `validate_model.rs`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawModel {
    pub kind: Option<ModelKind>,
    pub stiction_speed: Option<f64>,
    pub elastic_contact_reduction_factor: Option<f64>,
    pub max_contact_damping: Option<f64>,
    #[serde(default)]
    pub pair: Vec<RawPairMaterial>,
    pub formulation: Option<String>,
    pub patch_scale: Option<f64>,
    pub iterations: Option<i64>,
    pub tolerance: Option<f64>,
    pub warm_start: Option<bool>,
    pub spin_limit: Option<String>,
    pub contact_tolerance: Option<f64>,
    pub friction_directions: Option<i64>,
    pub correction_speed: Option<f64>,
    pub planar: Option<bool>,
    pub pressure_field: Option<Box<RawModel>>,
    pub hertz: Option<Box<RawModel>>,
    pub volume6d: Option<Box<RawModel>>,
    pub peg: Option<Box<RawModel>>,
}

impl RawModel {
    /// Whether any model's sub-table is given.
    pub fn has_sub_tables(&self) -> bool {
        self.pressure_field.is_some() || self.hertz.is_some() || self.volume6d.is_some() || self.peg.is_some()
    }

    /// The `[model.KIND]` sub-table of `kind`, taken out.
    pub fn take_sub_table(&mut self, kind: ModelKind) -> Option<Box<RawModel>> {
        match kind {
            ModelKind::PressureField => self.pressure_field.take(),
            ModelKind::Hertz => self.hertz.take(),
            ModelKind::Volume6d => self.volume6d.take(),
            ModelKind::Peg => self.peg.take(),
        }
    }

    /// These keys where given, `base`'s elsewhere; pair materials of both.
    pub fn over(self, base: RawModel) -> RawModel {
        let mut pair = base.pair;
        pair.extend(self.pair);
        RawModel {
            kind: self.kind.or(base.kind),
            stiction_speed: self.stiction_speed.or(base.stiction_speed),
            elastic_contact_reduction_factor: self
                .elastic_contact_reduction_factor
                .or(base.elastic_contact_reduction_factor),
            max_contact_damping: self.max_contact_damping.or(base.max_contact_damping),
            pair,
            formulation: self.formulation.or(base.formulation),
            patch_scale: self.patch_scale.or(base.patch_scale),
            iterations: self.iterations.or(base.iterations),
            tolerance: self.tolerance.or(base.tolerance),
            warm_start: self.warm_start.or(base.warm_start),
            spin_limit: self.spin_limit.or(base.spin_limit),
            contact_tolerance: self.contact_tolerance.or(base.contact_tolerance),
            friction_directions: self.friction_directions.or(base.friction_directions),
            correction_speed: self.correction_speed.or(base.correction_speed),
            planar: self.planar.or(base.planar),
            pressure_field: None,
            hertz: None,
            volume6d: None,
            peg: None,
        }
    }
}

/// `[[model.pair]]`: Hertz contact properties of two materials.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPairMaterial {
    pub a: String,
    pub b: String,
    pub restitution: f64,
    pub sliding_friction: f64,
    pub rolling_resistance: f64,
    pub v_small: Option<f64>,
    pub w_small: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSim {
    pub duration: Option<f64>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub gravity: Option<[f64; 3]>,
    pub integrator: Option<String>,
    pub dt: Option<f64>,
    pub rtol: Option<f64>,
    pub atol: Option<f64>,
    pub output_dt: Option<f64>,
    pub max_wall_time: Option<f64>,
    pub exact_energy_dt: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBody {
    pub name: String,
    pub fixed: Option<bool>,
    pub mass: Option<f64>,
    pub density: Option<f64>,
    /// 3 principal moments or 6 tensor entries: the count is checked in `validate_body.rs`.
    pub inertia: Option<Vec<f64>>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub center_of_mass: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub position: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub orientation: Option<[f64; 4]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub linear_velocity: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub angular_velocity: Option<[f64; 3]>,
    /// Kept as a table so its errors can be reported with the shape's own location and the
    /// valid keys of its `type` (see `shape.rs`). `None`: a body that touches nothing (its mass
    /// properties given, see `validate_body.rs`).
    pub shape: Option<Spanned<toml::Table>>,
    pub contact: Option<RawContact>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub force: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub torque: Option<[f64; 3]>,
    pub kinematic: Option<RawKinematic>,
    pub appear_time: Option<f64>,
    pub angle: Option<f64>,
    pub moment_of_inertia: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawKinematic {
    #[serde(default, deserialize_with = "exact::optional")]
    pub linear_velocity: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub angular_velocity: Option<[f64; 3]>,
    pub keyframes: Option<Vec<RawKeyframe>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawKeyframe {
    pub t: f64,
    #[serde(default, deserialize_with = "exact::optional")]
    pub position: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub orientation: Option<[f64; 4]>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContact {
    pub compliance: Option<Compliance>,
    pub hydroelastic_modulus: Option<f64>,
    pub resolution: Option<f64>,
    pub dissipation: Option<f64>,
    pub friction: Option<f64>,
    pub slab_thickness: Option<f64>,
    pub material: Option<String>,
    pub youngs_modulus: Option<f64>,
    pub poissons_ratio: Option<f64>,
    /// Keys for one model, over the others when it runs (`contact.hertz = { … }`).
    pub pressure_field: Option<Box<RawContact>>,
    pub hertz: Option<Box<RawContact>>,
    pub volume6d: Option<Box<RawContact>>,
    pub peg: Option<Box<RawContact>>,
}

impl RawContact {
    /// The sub-table of `kind`, taken out.
    pub fn take_sub_table(&mut self, kind: ModelKind) -> Option<Box<RawContact>> {
        match kind {
            ModelKind::PressureField => self.pressure_field.take(),
            ModelKind::Hertz => self.hertz.take(),
            ModelKind::Volume6d => self.volume6d.take(),
            ModelKind::Peg => self.peg.take(),
        }
    }

    /// Whether any model's sub-table is given.
    pub fn has_sub_tables(&self) -> bool {
        self.pressure_field.is_some() || self.hertz.is_some() || self.volume6d.is_some() || self.peg.is_some()
    }

    /// These keys where given, `base`'s elsewhere (sub-tables merged likewise).
    pub fn over(self, base: RawContact) -> RawContact {
        let sub = |own: Option<Box<RawContact>>, base: Option<Box<RawContact>>| match (own, base) {
            (Some(o), Some(b)) => Some(Box::new(o.over(*b))),
            (o, b) => o.or(b),
        };
        RawContact {
            pressure_field: sub(self.pressure_field, base.pressure_field),
            hertz: sub(self.hertz, base.hertz),
            volume6d: sub(self.volume6d, base.volume6d),
            peg: sub(self.peg, base.peg),
            compliance: self.compliance.or(base.compliance),
            hydroelastic_modulus: self.hydroelastic_modulus.or(base.hydroelastic_modulus),
            resolution: self.resolution.or(base.resolution),
            dissipation: self.dissipation.or(base.dissipation),
            friction: self.friction.or(base.friction),
            slab_thickness: self.slab_thickness.or(base.slab_thickness),
            material: self.material.or(base.material),
            youngs_modulus: self.youngs_modulus.or(base.youngs_modulus),
            poissons_ratio: self.poissons_ratio.or(base.poissons_ratio),
        }
    }
}

/// `[[joint]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJoint {
    pub name: String,
    #[serde(rename = "type")]
    pub joint_type: JointType,
    pub parent: String,
    pub child: String,
    pub origin: Option<RawOrigin>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub axis: Option<[f64; 3]>,
    /// A number or a list, by joint type: checked in `validate_mechanism.rs`.
    pub position: Option<toml::Value>,
    pub velocity: Option<toml::Value>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub limits: Option<[f64; 2]>,
    pub damping: Option<f64>,
    pub armature: Option<f64>,
    pub stiffness: Option<f64>,
    pub spring_reference: Option<f64>,
    pub friction: Option<f64>,
    pub friction_speed: Option<f64>,
}

/// A joint's `origin = { position, orientation }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOrigin {
    #[serde(default, deserialize_with = "exact::optional")]
    pub position: Option<[f64; 3]>,
    #[serde(default, deserialize_with = "exact::optional")]
    pub orientation: Option<[f64; 4]>,
}

/// An actuator's `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum RawActuatorKind {
    Motor,
    Position,
    Velocity,
}

/// `[[actuator]]`: every kind's keys; which belong to which kind is checked in
/// `validate_mechanism.rs`. Schedules are lists of [t, value] pairs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActuator {
    pub name: String,
    pub joint: String,
    pub kind: RawActuatorKind,
    pub kp: Option<f64>,
    pub kd: Option<f64>,
    pub target: Option<f64>,
    pub targets: Option<Vec<Vec<f64>>>,
    pub target_velocity: Option<f64>,
    pub target_velocities: Option<Vec<Vec<f64>>>,
    pub effort_limit: Option<f64>,
    pub gear: Option<f64>,
    pub effort: Option<f64>,
    pub efforts: Option<Vec<Vec<f64>>>,
}

/// `[[coupler]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCoupler {
    pub joint: String,
    pub follows: String,
    pub ratio: Option<f64>,
    pub offset: Option<f64>,
}

/// `[[exclude]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExclude {
    pub a: String,
    pub b: String,
}

/// `shape = { type = "...", ... }`.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum RawShape {
    Sphere {
        radius: f64,
    },
    Box {
        #[serde(deserialize_with = "exact::required")]
        size: [f64; 3],
    },
    Cylinder {
        radius: f64,
        length: f64,
    },
    Cone {
        radius: f64,
        top_radius: Option<f64>,
        length: f64,
    },
    Beam {
        length: f64,
        width: f64,
        thickness: f64,
    },
    Capsule {
        radius: f64,
        length: f64,
    },
    Ellipsoid {
        #[serde(deserialize_with = "exact::required")]
        radii: [f64; 3],
    },
    Halfspace {},
    Convex {
        file: PathBuf,
    },
    /// Parts: tables of a convex shape's keys plus `position` and `orientation`.
    Compound {
        parts: Vec<toml::Table>,
    },
    /// Planar scenes: vertices [x, z], counter-clockwise.
    Polygon {
        vertices: Vec<Vec<f64>>,
    },
    /// Accepted so that the message can say meshes are not supported yet, rather than that the
    /// keys are unknown.
    #[allow(dead_code)]
    Mesh {
        file: PathBuf,
        field: Option<String>,
        core: Option<String>,
        skin_depth: Option<f64>,
    },
}

/// The keys each shape `type` accepts, for error messages. A body's shape also takes
/// `position` and `orientation` (its pose in the body frame, [`SHAPE_POSE_KEYS`]) except a
/// `halfspace` or a `compound` (whose parts carry their own); a compound part takes them too.
pub(super) const SHAPE_KEYS: &[(&str, &str)] = &[
    ("sphere", "type, radius, position, orientation"),
    ("box", "type, size, position, orientation"),
    ("cylinder", "type, radius, length, position, orientation"),
    ("capsule", "type, radius, length, position, orientation"),
    ("cone", "type, radius, top_radius, length, position, orientation"),
    ("beam", "type, length, width, thickness, position, orientation"),
    ("ellipsoid", "type, radii, position, orientation"),
    ("halfspace", "type"),
    ("convex", "type, file, position, orientation"),
    ("mesh", "type, file, field, core, skin_depth, position, orientation"),
    ("compound", "type, parts (each a convex shape's keys with position and orientation)"),
    ("polygon", "type, vertices (planar scenes: [[x, z], ...] counter-clockwise)"),
];

/// The shape types without a pose of their own (`position`, `orientation` refused).
pub(super) const SHAPES_WITHOUT_POSE: &[&str] = &["halfspace", "compound", "polygon"];

/// Vectors of exactly N numbers: serde's arrays would drop extra components silently.
pub(super) mod exact {
    use serde::de::{Deserialize, Deserializer, Error};

    fn exactly<E: Error, const N: usize>(v: Vec<f64>) -> Result<[f64; N], E> {
        let got = v.len();
        v.try_into().map_err(|_| E::custom(format!("expected exactly {N} numbers, got {got}")))
    }

    pub fn required<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[f64; N], D::Error> {
        exactly(Vec::<f64>::deserialize(d)?)
    }

    pub fn optional<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<Option<[f64; N]>, D::Error> {
        Option::<Vec<f64>>::deserialize(d)?.map(exactly).transpose()
    }
}
