//! What a contact model returns for one touching pair: the wrench and what goes with it
//! ([`PairContact`]), and the derivatives of its generalized forces ([`PairDerivatives`]) when
//! asked for ([`Derivatives`]).

use crate::math::{Point3, Vector3, Wrench};
use nalgebra::SMatrix;
use std::sync::Arc;

/// Derivative of a pair's generalized forces — (force on a, torque on a about its reference
/// point, the same for b), world frame — with respect to the bodies' generalized velocities or
/// poses (order a then b; linear then angular).
pub type PairMatrix = SMatrix<f64, 12, 12>;

/// Which derivatives a pair evaluation should also return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derivatives {
    None,
    /// ∂Q/∂V (dissipation and friction), for implicit velocity updates.
    Velocity,
    /// ∂Q/∂V and ∂Q/∂X (the contact stiffness), for stiff-stable steps.
    VelocityAndPose,
}

/// One touching pair's result: the wrench on `a` (world frame, torque about the world origin;
/// `b` gets the opposite).
#[derive(Clone, Copy, Debug)]
pub struct PairContact {
    pub a: usize,
    pub b: usize,
    pub wrench: Wrench,
    /// Contact area (m²), where the model has one.
    pub area: Option<f64>,
    /// Number of contact polygons, where the model has them.
    pub faces: Option<usize>,
    /// Power of the dissipative forces on the relative motion (W, ≤ 0).
    pub dissipation_power: f64,
    /// The elastic energy when the model gives it with the wrench; else
    /// [`super::model::ContactModel::energy`].
    pub energy: Option<f64>,
    /// The elastic (conservative, −∇U) part of `wrench`, for models whose energy is not given
    /// with the wrench: fixed-step runs advance U between exact evaluations by its work.
    pub elastic: Option<Wrench>,
    /// The contact's centre and unit normal (out of b into a), where the model has them: the
    /// point where the slip speed is measured and the direction of the normal force.
    pub centre: Option<(Point3, Vector3)>,
}

impl PairContact {
    /// The mean wrench of an impulse model's pair over a step: `impulse` (on `a`, torque about
    /// the world origin) over `dt`; no energy, dissipation power or faces.
    pub fn from_impulse(
        a: usize,
        b: usize,
        impulse: Wrench,
        dt: f64,
        (area, centre): (Option<f64>, Option<(Point3, Vector3)>),
    ) -> PairContact {
        PairContact {
            a,
            b,
            wrench: Wrench { force: impulse.force / dt, torque: impulse.torque / dt },
            area,
            faces: None,
            dissipation_power: 0.0,
            energy: Some(0.0),
            elastic: None,
            centre,
        }
    }
}

/// A pair's derivatives, shared: they are large, and the implicit integrator keeps them for a
/// few steps.
pub type SharedDerivatives = Arc<PairDerivatives>;

/// The derivatives of a pair's generalized forces (see [`PairMatrix`]).
#[derive(Clone, Copy, Debug)]
pub struct PairDerivatives {
    pub velocity: PairMatrix,
    /// The contact stiffness ∂Q/∂X, when asked for and the model has it.
    pub pose: Option<PairMatrix>,
}
