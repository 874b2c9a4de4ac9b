//! What a contact model can do, asked explicitly: every model answers [`Model`], and says
//! through [`Model::capability`] whether it is a force model ([`ForceModel`]: state →
//! wrenches, energy, derivatives, events, memory; the world's integrators move the bodies) or an
//! impulse model ([`ImpulseModel`]: its own velocity-level solver moves them). No method has a
//! default: a new model answers every question, and the compiler asks them.

use super::ModelKind;
use super::body_mesh::BodyMesh;
use super::errors::ContactError;
use super::memory::ContactMemory;
use super::pair_contact::{Derivatives, PairContact, SharedDerivatives};
use super::peg::model::PegModel;
use super::surface::ContactSurface;
use super::volume6d::model::Volume6dModel;
use crate::math::{Isometry3, Point3, Twist};

/// Each body's pose and twist (of its body-frame origin), world frame.
pub type Poses = [(Isometry3, Twist)];

/// What every contact model answers.
pub trait Model: Send + Sync {
    fn kind(&self) -> ModelKind;

    /// Whether it is a force model or an impulse model, with what that kind answers.
    fn capability(&self) -> Capability<'_>;

    /// The pairs that may touch at `poses` (broad phase, after the scene's [`super::PairFilter`]),
    /// sorted.
    fn candidate_pairs(&self, poses: &Poses) -> Vec<(usize, usize)>;

    /// Whether body `i` takes part at time `t` (PEG's `appear_time`; always for the others).
    fn present(&self, i: usize, t: f64) -> bool;

    /// How deep bodies a and b overlap at `poses` (m), in the model's own measure; `None` where
    /// it has none; 0 when apart.
    fn penetration(&self, pair: (usize, usize), poses: &Poses) -> Result<Option<f64>, ContactError>;

    /// Whether the model has contact surfaces ([`Model::surface`]) to draw.
    fn has_surfaces(&self) -> bool;

    /// The contact surface of a pair, for models with one.
    fn surface(&self, pair: (usize, usize), poses: &Poses) -> Result<Option<ContactSurface>, ContactError>;

    /// Where a pair touches, for models without contact surfaces (the viewer's markers).
    fn contact_points(&self, pair: (usize, usize), poses: &Poses) -> Result<Vec<Point3>, ContactError>;

    /// Body `i`'s mesh, for models that mesh bodies.
    fn body_mesh(&self, i: usize) -> Option<BodyMesh<'_>>;

    /// A line about the model's own counters (narrow phase), and whether it reports trouble.
    fn counters(&self) -> Option<(String, bool)>;
}

/// A model's kind, with what the kind answers.
pub enum Capability<'a> {
    Force(&'a dyn ForceModel),
    Impulse(&'a dyn ImpulseModel),
}

/// "State → wrenches (+ energy)": what the force models answer.
pub trait ForceModel: Send + Sync {
    /// The contact of a pair at `poses`, `None` where it does not touch; with derivatives about
    /// the reference points `refs` (world frame) when asked for.
    fn evaluate(
        &self,
        pair: (usize, usize),
        poses: &Poses,
        refs: (&Point3, &Point3),
        derivatives: Derivatives,
    ) -> Result<Option<(PairContact, Option<SharedDerivatives>)>, ContactError>;

    /// The elastic energy of a touching pair whose contact does not carry it (J).
    fn energy(&self, c: &PairContact, poses: &Poses) -> Result<f64, ContactError>;

    /// Whether contacts start and end at sharp events worth locating in time (point contact).
    fn has_events(&self) -> bool;

    /// The signed distance of a pair, for models with events.
    fn gap(&self, pair: (usize, usize), poses: (&Isometry3, &Isometry3)) -> Option<f64>;

    /// Whether [`ForceModel::accept_step`] does anything (the world skips the poses otherwise).
    fn remembers_steps(&self) -> bool;

    /// After an accepted step: updates the contact memory, if the model has one.
    fn accept_step(&self, poses: &Poses);

    /// The contact memory, to save a run's state.
    fn memory(&self) -> ContactMemory;

    /// Puts back a contact memory saved with [`ForceModel::memory`].
    fn restore_memory(&self, memory: &ContactMemory);
}

/// "State, step → impulses": what the impulse models answer.
pub trait ImpulseModel: Send + Sync {
    /// The model with the solver that steps it.
    fn solver(&self) -> ImpulseSolver<'_>;

    /// The speed (m/s) at which the model may push an existing overlap out; the bodies keep
    /// it, so the energy watch allows it (0 when positions are corrected without changing
    /// velocities).
    fn correction_speed(&self) -> f64;

    /// What to change when a step breaks the energy balance.
    fn time_stepping_advice(&self) -> &'static str;

    /// The pairs that overlap at `poses` (time `t`), for messages.
    fn overlapping_pairs(&self, poses: &Poses, t: f64) -> Vec<(usize, usize)>;
}

/// The velocity-level solvers, each with the model it steps.
pub enum ImpulseSolver<'a> {
    /// The 6D model's projected block Gauss–Seidel (`dynamics::time_stepping`).
    BlockGaussSeidel(&'a Volume6dModel),
    /// PEG's linear complementarity problem (`dynamics::peg_step`).
    Lcp(&'a PegModel),
}
