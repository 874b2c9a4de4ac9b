//! Helpers shared by the integration tests.
#![allow(dead_code)]

use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, QueryOptions, evaluate_pair, pair_energy,
};
use contactlab::geometry::Shape;
use contactlab::math::{Isometry3, Twist, UnitQuaternion, Vector3, Wrench};

pub fn compliant(shape: Shape, modulus: f64, resolution: f64) -> PfBody {
    PfBody::new(
        &shape,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus, resolution: Some(resolution), slab_thickness: None },
            dissipation: 0.0,
            friction: 0.0,
        },
    )
    .expect("valid compliant body")
}

pub fn compliant_half_space(modulus: f64, slab: f64) -> PfBody {
    PfBody::new(
        &Shape::HalfSpace,
        &ContactProperties {
            compliance: Compliance::Compliant { modulus, resolution: None, slab_thickness: Some(slab) },
            dissipation: 0.0,
            friction: 0.0,
        },
    )
    .expect("valid half space")
}

pub fn rigid(shape: Shape, resolution: Option<f64>) -> PfBody {
    PfBody::new(
        &shape,
        &ContactProperties { compliance: Compliance::Rigid { resolution }, dissipation: 0.0, friction: 0.0 },
    )
    .expect("valid rigid body")
}

pub fn pose(x: [f64; 3], rpy: [f64; 3]) -> Isometry3 {
    Isometry3::from_parts(Vector3::from(x).into(), UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]))
}

pub fn at(body: &PfBody, pose: Isometry3) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist::default() }
}

pub fn moving(body: &PfBody, pose: Isometry3, linear: [f64; 3], angular: [f64; 3]) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist { linear: Vector3::from(linear), angular: Vector3::from(angular) } }
}

pub fn wrench(a: BodyState, b: BodyState) -> Wrench {
    evaluate_pair(a, b, &QueryOptions::default()).expect("pair evaluates").wrench
}

pub fn energy(a: BodyState, b: BodyState) -> f64 {
    pair_energy(a, b).expect("pair evaluates")
}

/// Relative difference of two vectors, against a scale.
pub fn rel(a: &Vector3, b: &Vector3, scale: f64) -> f64 {
    (a - b).norm() / scale
}
