//! The Modia3D contact force law: Hertz normal force with Flores-type damping, regularized
//! sliding friction and rolling resistance.
//!
//! Conventions (the paper's): body 1 and body 2 touch; the unit normal `e_n` is perpendicular to
//! body 1's surface at the contact point and points out of body 1 (towards body 2). The
//! penetration δ is > 0 while the bodies overlap; δ̇ = dδ/dt is > 0 while they press further
//! together (normally δ̇ = −v_rel·e_n with v_rel = v2 − v1). All results act on **body 2**;
//! body 1 receives the opposite force and torque.
//!
//! ```text
//! f_n = k_red · max(0, c_res · c_geo · δ^n_geo · (1 + d·δ̇))
//! F   = f_n·e_n − μ_k·f_n·v_t/reg(|v_t|, v_small)          (on body 2, at the contact point)
//! τ   = −μ_r·μ_r,geo·f_n·ω_rel/reg(|ω_rel|, w_small)        (pure torque on body 2)
//! ```

use super::contact_geometry::{ContactShapeKind, ContactSphere, GeometryError, mu_r_geo};
use super::material::{Material, MaterialError, PairMaterial};
use crate::math::Vector3;

/// Default of the paper's `maximumContactDamping` d_max (N·s/m).
pub const DEFAULT_MAX_DAMPING: f64 = 2000.0;
/// Default elastic contact reduction factor k_red.
pub const DEFAULT_K_RED: f64 = 1.0;
/// Hertz exponent for point contact.
pub const N_GEO: f64 = 1.5;

/// How far `|e_n|` may stray from 1 before `contact_response` rejects it.
const UNIT_TOLERANCE: f64 = 1e-6;

/// Why a contact law could not be built or evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ForceLawError {
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    #[error("`{key}` must be {range}, got {value}")]
    OutOfRange { key: &'static str, range: &'static str, value: f64 },
    #[error("the contact normal must be a finite unit vector, got length {0}")]
    NormalNotUnit(f64),
    #[error("`{0}` must be finite; check the collision detection and body states feeding it")]
    NotFinite(&'static str),
}

/// The paper's regularization: `v_abs` for `v_abs ≥ v_small`, else the cubic
/// `v_abs²/v_small·(1 − v_abs/(3·v_small)) + v_small/3`, which is `v_small/3` at 0 and joins the
/// identity with matching first and second derivatives. Expects `v_abs ≥ 0`, `v_small > 0`.
pub fn reg(v_abs: f64, v_small: f64) -> f64 {
    if v_abs >= v_small {
        v_abs
    } else {
        v_abs * v_abs / v_small * (1.0 - v_abs / (3.0 * v_small)) + v_small / 3.0
    }
}

/// Damping coefficient d (s/m) fixed at contact start:
/// `min(d_max, 8(1 − cor_cur)/(5·cor_cur·δ̇⁻))` with `cor_cur = cor` if `|δ̇⁻| > v_small`, else 0
/// (so slow impacts do not bounce forever). `cor_cur = 0` gives `d_max`.
///
/// The paper has δ̇⁻ ≥ 0; a negative `impact_speed` is used by magnitude so d never turns
/// negative (a negative d would make the law pull). NaN inputs give `d_max`.
pub fn damping(cor: f64, impact_speed: f64, v_small: f64, d_max: f64) -> f64 {
    let speed = impact_speed.abs();
    let cor_cur = if speed > v_small { cor } else { 0.0 };
    if cor_cur > 0.0 {
        // f64::min returns the other operand when one is NaN.
        d_max.min(8.0 * (1.0 - cor_cur) / (5.0 * cor_cur * speed))
    } else {
        d_max
    }
}

/// Constants of the force law for one pair of bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactLaw {
    /// Elastic contact reduction factor k_red (> 0, paper default 1).
    pub k_red: f64,
    /// `c_res = 1/(1/c1 + 1/c2)`, `c_i = E_i/(1 − ν_i²)` (Pa).
    pub c_res: f64,
    /// Geometry factor μ_r,geo (m), from the contact spheres.
    pub mu_r_geo: f64,
    /// Exponent n_geo = 1.5.
    pub n_geo: f64,
    /// `c_geo = 4/3·√μ_r,geo` (√m).
    pub c_geo: f64,
    /// Restitution, friction and regularization constants of the pair.
    pub pair: PairMaterial,
    /// Upper bound d_max of the damping coefficient (N·s/m as the paper states it).
    pub d_max: f64,
}

impl ContactLaw {
    /// The law for body 1 (`m1`, `shape1`) touching body 2 (`m2`, `shape2`) with the default
    /// contact-sphere radii.
    pub fn new(
        m1: &Material,
        m2: &Material,
        shape1: &ContactShapeKind,
        shape2: &ContactShapeKind,
        pair: PairMaterial,
        k_red: f64,
        d_max: f64,
    ) -> Result<Self, ForceLawError> {
        Self::from_spheres(m1, m2, &shape1.contact_sphere()?, &shape2.contact_sphere()?, pair, k_red, d_max)
    }

    /// As [`ContactLaw::new`] but from contact spheres, for solids that set their own
    /// contact-sphere radius.
    pub fn from_spheres(
        m1: &Material,
        m2: &Material,
        s1: &ContactSphere,
        s2: &ContactSphere,
        pair: PairMaterial,
        k_red: f64,
        d_max: f64,
    ) -> Result<Self, ForceLawError> {
        m1.validate()?;
        m2.validate()?;
        pair.validate()?;
        if !(k_red.is_finite() && k_red > 0.0) {
            return Err(ForceLawError::OutOfRange {
                key: "k_red",
                range: "a finite number > 0",
                value: k_red,
            });
        }
        if !(d_max.is_finite() && d_max >= 0.0) {
            return Err(ForceLawError::OutOfRange {
                key: "d_max",
                range: "a finite number ≥ 0",
                value: d_max,
            });
        }
        let c_res = 1.0 / (1.0 / m1.plane_strain_modulus() + 1.0 / m2.plane_strain_modulus());
        let mu_r_geo = mu_r_geo(s1, s2);
        Ok(Self { k_red, c_res, mu_r_geo, n_geo: N_GEO, c_geo: 4.0 / 3.0 * mu_r_geo.sqrt(), pair, d_max })
    }

    /// Damping coefficient for a contact that starts with penetration rate `impact_speed` (δ̇⁻);
    /// keep it for the life of that contact.
    pub fn damping_at_impact(&self, impact_speed: f64) -> f64 {
        damping(self.pair.restitution, impact_speed, self.pair.v_small, self.d_max)
    }

    /// Normal force magnitude f_n ≥ 0; zero when not penetrating (the paper's conceptual max).
    pub fn normal_force(&self, delta: f64, delta_dot: f64, d: f64) -> f64 {
        if delta <= 0.0 {
            return 0.0;
        }
        let elastic = self.c_res * self.c_geo * delta.powf(self.n_geo);
        self.k_red * (elastic * (1.0 + d * delta_dot)).max(0.0)
    }

    /// Elastic potential energy (J) of the undamped normal force at penetration δ:
    /// `k_red·c_res·c_geo·δ^(n+1)/(n+1)`, zero when not penetrating.
    pub fn elastic_energy(&self, delta: f64) -> f64 {
        if delta <= 0.0 {
            return 0.0;
        }
        let n1 = self.n_geo + 1.0;
        self.k_red * self.c_res * self.c_geo * delta.powf(n1) / n1
    }
}

/// Contact force and torque on body 2 (world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Response {
    /// Normal plus friction force on body 2, applied at the contact point (N).
    pub force: Vector3,
    /// Rolling-resistance torque on body 2 (N·m); the moment of `force` about the body's
    /// reference point is the caller's to add.
    pub torque: Vector3,
    /// Normal force magnitude f_n ≥ 0 (N).
    pub f_n: f64,
}

/// Evaluates the law for penetration `delta` (δ), its rate `delta_dot` (δ̇), unit normal `e_n`
/// (out of body 1), contact-point velocity of body 2 relative to body 1 `v_rel = v2 − v1`,
/// relative angular velocity `w_rel = ω2 − ω1`, and the damping coefficient `d` fixed at contact
/// start (see [`ContactLaw::damping_at_impact`]). Friction and rolling resistance use the
/// clamped f_n, so they vanish when the normal force does.
pub fn contact_response(
    law: &ContactLaw,
    delta: f64,
    delta_dot: f64,
    e_n: &Vector3,
    v_rel: &Vector3,
    w_rel: &Vector3,
    d: f64,
) -> Result<Response, ForceLawError> {
    let finite = |name: &'static str, ok: bool| if ok { Ok(()) } else { Err(ForceLawError::NotFinite(name)) };
    finite("delta", delta.is_finite())?;
    finite("delta_dot", delta_dot.is_finite())?;
    finite("v_rel", v_rel.iter().all(|x| x.is_finite()))?;
    finite("w_rel", w_rel.iter().all(|x| x.is_finite()))?;
    let len = e_n.norm();
    if !(len.is_finite() && (len - 1.0).abs() <= UNIT_TOLERANCE) {
        return Err(ForceLawError::NormalNotUnit(len));
    }
    if !(d.is_finite() && d >= 0.0) {
        return Err(ForceLawError::OutOfRange { key: "d", range: "a finite number ≥ 0", value: d });
    }

    let f_n = law.normal_force(delta, delta_dot, d);
    if f_n == 0.0 {
        return Ok(Response { force: Vector3::zeros(), torque: Vector3::zeros(), f_n });
    }
    let p = &law.pair;
    let v_t = v_rel - v_rel.dot(e_n) * e_n;
    let e_t_reg = v_t / reg(v_t.norm(), p.v_small);
    let e_w_reg = w_rel / reg(w_rel.norm(), p.w_small);
    Ok(Response {
        force: f_n * e_n - p.sliding_friction * f_n * e_t_reg,
        torque: -p.rolling_resistance * law.mu_r_geo * f_n * e_w_reg,
        f_n,
    })
}
