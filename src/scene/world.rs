//! A scene turned into a dynamics world: mass properties, motions and the contact model.

use super::contact_model::contact_model;
use super::{BodySpec, Kinematic, Scene};
use crate::contact::{Compliance, ModelKind};
use crate::dynamics::body::{KinematicMotion, Motion, RigidBody};
use crate::dynamics::world::World;
use crate::geometry::{Interior, Shape};
use crate::math::{Isometry3, Matrix3, Point3};
use anyhow::{Context, Result};

/// The rigid body of a scene body: its motion, mass, centre of mass and inertia.
pub fn rigid_body(spec: &BodySpec) -> Result<RigidBody> {
    let motion = if spec.fixed {
        Motion::Fixed
    } else {
        match &spec.kinematic {
            Some(Kinematic::Constant(twist)) => {
                Motion::Kinematic(KinematicMotion::Constant { start: spec.pose, twist: *twist })
            }
            Some(Kinematic::Keyframes(frames)) => {
                Motion::Kinematic(KinematicMotion::Keyframes(frames.iter().map(|k| (k.t, k.pose)).collect()))
            }
            None => Motion::Free,
        }
    };
    let (mut mass, mut com, mut inertia) = (spec.mass.unwrap_or(0.0), Point3::origin(), Matrix3::zeros());
    if matches!(motion, Motion::Free) && !matches!(spec.shape, Some(Shape::HalfSpace)) {
        (mass, com, inertia) = spec
            .mass_properties()
            .with_context(|| format!("body `{}`: computing its mass properties", spec.name))?;
    }
    Ok(RigidBody {
        name: spec.name.clone(),
        motion,
        mass,
        com,
        inertia,
        force: spec.force,
        torque: spec.torque,
        initial_pose: spec.pose,
        initial_twist: spec.twist,
    })
}

/// The world of a scene (meshing every body; progress on stderr when `progress` is set).
pub fn build_world(scene: &Scene, progress: bool) -> Result<World> {
    let mut bodies = scene.bodies.iter().map(rigid_body).collect::<Result<Vec<_>>>()?;
    let mechanism = super::mechanism_world::mechanism(scene, &mut bodies)?;
    let model = contact_model(scene, progress)?;
    let mut world = World::with_mechanism(bodies, model, scene.sim.gravity, mechanism);
    // Bounding radii about the centres of mass, and the half spaces bodies must stay above (a
    // body without a shape has no extent: touching nothing, it cannot be through a floor).
    for (i, spec) in scene.bodies.iter().enumerate() {
        let offset = (world.bodies[i].com.coords - spec.shape_pose.translation.vector).norm();
        world.extents[i] = spec.shape.as_ref().and_then(Shape::bounding_radius).map(|r| r + offset);
        if matches!(spec.shape, Some(Shape::HalfSpace)) {
            world.half_spaces.push(i);
        }
    }
    world.body_pairs = body_pairs(scene, &world);
    world.interiors = scene.bodies.iter().map(|b| b.shape.as_ref().and_then(Interior::of)).collect();
    let fits = |inner: usize, outer: usize| match (world.extents[inner], &world.interiors[outer]) {
        (Some(r), Some(interior)) => r <= interior.inradius(),
        _ => false,
    };
    world.inside_pairs = world
        .body_pairs
        .iter()
        .flat_map(|&(a, b)| [(a, b), (b, a)])
        .filter(|&(inner, outer)| fits(inner, outer))
        .collect();
    if scene.bodies.iter().any(|b| b.shape_pose != Isometry3::identity()) {
        world.shape_poses = Some(scene.bodies.iter().map(|b| b.shape_pose).collect());
    }
    Ok(world)
}

/// The pairs of bounded bodies that may touch (the scene's filter; under the pressure field not
/// two rigid bodies), one of them at least free and neither a mechanism's link.
fn body_pairs(scene: &Scene, world: &World) -> Vec<(usize, usize)> {
    let filter = super::contact_model::pair_filter(scene);
    let watched = |i: usize| world.extents[i].is_some() && !matches!(world.bodies[i].motion, Motion::Link(_));
    let rigid = |i: usize| scene.bodies[i].contact.compliance == Compliance::Rigid;
    let mut pairs = Vec::new();
    for a in 0..scene.bodies.len() {
        for b in a + 1..scene.bodies.len() {
            let free = world.coords.is_free(a) || world.coords.is_free(b);
            let model_skips = scene.model == ModelKind::PressureField && rigid(a) && rigid(b);
            if free && watched(a) && watched(b) && filter.allows(a, b) && !model_skips {
                pairs.push((a, b));
            }
        }
    }
    pairs
}
