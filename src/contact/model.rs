//! The contact model a world runs under: one value, built from a scene in one place
//! (`scene::contact_model`), that the world and the commands ask for contacts. Every question
//! goes to the model's answers in [`super::capability`]: [`ContactModel::model`] is the one
//! match over the models, and the force-only and impulse-only questions are asked through
//! [`Capability`] with an explicit arm for each kind.

use super::ModelKind;
pub use super::body_mesh::BodyMesh;
pub use super::capability::{Capability, ForceModel, ImpulseModel, ImpulseSolver, Model};
pub use super::errors::{ContactError, ModelSetupError};
use super::hertz::HertzModel;
pub use super::memory::ContactMemory;
pub use super::pair_contact::{Derivatives, PairContact, PairDerivatives, PairMatrix, SharedDerivatives};
use super::peg::model::PegModel;
use super::pressure_field::PressureFieldModel;
use super::surface::ContactSurface;
use super::volume6d::model::Volume6dModel;
use crate::math::{Isometry3, Point3, Twist};

/// How a model advances the bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepping {
    /// "state → wrenches (+ energy)": the world's integrators move the bodies.
    Force,
    /// "state → impulses": the model's own velocity-level step (`time_stepping`) moves them.
    Velocity,
}

/// The contact models that run.
pub enum ContactModel {
    PressureField(PressureFieldModel),
    Hertz(HertzModel),
    Volume6d(Volume6dModel),
    Peg(PegModel),
}

/// `$body` with `$m` bound to the model of whichever kind `$model` is: static dispatch of a
/// [`Model`] question (the contact queries sit in every step's hot path).
macro_rules! each_model {
    ($model:expr, $m:ident => $body:expr) => {
        match $model {
            ContactModel::PressureField($m) => $body,
            ContactModel::Hertz($m) => $body,
            ContactModel::Volume6d($m) => $body,
            ContactModel::Peg($m) => $body,
        }
    };
}

/// A force model, dispatched statically: its questions sit in every step's hot path, where a
/// `dyn` call per question costs small scenes a few percent.
#[derive(Clone, Copy)]
pub enum Forces<'a> {
    PressureField(&'a PressureFieldModel),
    Hertz(&'a HertzModel),
}

/// `$force` with `$m` bound to the force model, or `$impulse` for an impulse model
/// ([`ContactModel::forces`] says which is which).
macro_rules! force_or {
    ($forces:expr, $m:ident => $force:expr, impulse => $impulse:expr) => {
        match $forces {
            Some(Forces::PressureField($m)) => $force,
            Some(Forces::Hertz($m)) => $force,
            None => $impulse,
        }
    };
}

impl Forces<'_> {
    /// The contact of pair (a, b) at `poses`, `None` where it does not touch; with derivatives
    /// about the reference points `refs` (world frame) when asked for.
    pub fn evaluate(
        self,
        pair: (usize, usize),
        poses: &[(Isometry3, Twist)],
        refs: (&Point3, &Point3),
        derivatives: Derivatives,
    ) -> Result<Option<(PairContact, Option<SharedDerivatives>)>, ContactError> {
        match self {
            Forces::PressureField(m) => ForceModel::evaluate(m, pair, poses, refs, derivatives),
            Forces::Hertz(m) => ForceModel::evaluate(m, pair, poses, refs, derivatives),
        }
    }
}

impl ContactModel {
    /// The model, as what every model answers.
    pub fn model(&self) -> &dyn Model {
        match self {
            ContactModel::PressureField(m) => m,
            ContactModel::Hertz(m) => m,
            ContactModel::Volume6d(m) => m,
            ContactModel::Peg(m) => m,
        }
    }

    pub fn kind(&self) -> ModelKind {
        each_model!(self, m => Model::kind(m))
    }

    /// A force model or an impulse model, with what that kind answers.
    pub fn capability(&self) -> Capability<'_> {
        self.model().capability()
    }

    /// The force model's answers, for a force model.
    pub fn force(&self) -> Option<&dyn ForceModel> {
        match self.capability() {
            Capability::Force(f) => Some(f),
            Capability::Impulse(_) => None,
        }
    }

    /// A force model, dispatched statically; `None` for an impulse model. The one place that
    /// names which models give forces ([`Model::capability`] says it again; a test in
    /// tests/scene.rs checks that they agree).
    pub fn forces(&self) -> Option<Forces<'_>> {
        match self {
            ContactModel::PressureField(m) => Some(Forces::PressureField(m)),
            ContactModel::Hertz(m) => Some(Forces::Hertz(m)),
            ContactModel::Volume6d(_) | ContactModel::Peg(_) => None,
        }
    }

    pub fn stepping(&self) -> Stepping {
        force_or!(self.forces(), _m => Stepping::Force, impulse => Stepping::Velocity)
    }

    /// The speed (m/s) at which an impulse model may push an existing overlap out (the energy
    /// watch allows the bodies to keep it); 0 for force models.
    pub fn correction_speed(&self) -> f64 {
        match self.capability() {
            Capability::Force(_) => 0.0,
            Capability::Impulse(m) => m.correction_speed(),
        }
    }

    /// What to change when a velocity-level step breaks the energy balance.
    pub fn time_stepping_advice(&self) -> &'static str {
        match self.capability() {
            Capability::Force(_) => "use an integrator for force models",
            Capability::Impulse(m) => m.time_stepping_advice(),
        }
    }

    /// Whether contacts start and end at sharp events worth locating in time (point contact).
    pub fn has_events(&self) -> bool {
        force_or!(self.forces(), m => ForceModel::has_events(m), impulse => false)
    }

    /// The pairs that may touch at `poses` (broad phase), sorted.
    pub fn candidate_pairs(&self, poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        each_model!(self, m => Model::candidate_pairs(m, poses))
    }

    /// Whether body `i` takes part at time `t` (PEG's `appear_time`).
    pub fn present(&self, i: usize, t: f64) -> bool {
        each_model!(self, m => Model::present(m, i, t))
    }

    /// The elastic energy of a touching pair at `poses` (J): given with its contact, or the
    /// force model's; impulse models store none.
    pub fn energy(&self, c: &PairContact, poses: &[(Isometry3, Twist)]) -> Result<f64, ContactError> {
        if let Some(e) = c.energy {
            return Ok(e);
        }
        force_or!(self.forces(), m => ForceModel::energy(m, c, poses), impulse => Ok(0.0))
    }

    /// The signed distance of pair (a, b), for models with events.
    pub fn gap(&self, pair: (usize, usize), poses: (&Isometry3, &Isometry3)) -> Option<f64> {
        force_or!(self.forces(), m => ForceModel::gap(m, pair, poses), impulse => None)
    }

    /// Whether [`ContactModel::accept_step`] does anything: the world skips computing the poses
    /// for it otherwise.
    pub fn remembers_steps(&self) -> bool {
        force_or!(self.forces(), m => ForceModel::remembers_steps(m), impulse => false)
    }

    /// After an accepted step: updates the model's contact memory, if it has one.
    pub fn accept_step(&self, poses: &[(Isometry3, Twist)]) {
        force_or!(self.forces(), m => ForceModel::accept_step(m, poses), impulse => ())
    }

    /// How deep bodies a and b overlap at `poses` (m), in each model's own measure: the pressure
    /// field's [`crate::contact::pressure_field::pair_penetration`], Hertz's penetration δ (the
    /// negated signed distance), the intersection volume over its gradient's norm V/|G| for
    /// `volume6d` and 3D `peg`; `None` for planar `peg` scenes. 0 when apart.
    pub fn penetration(
        &self,
        pair: (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Option<f64>, ContactError> {
        self.model().penetration(pair, poses)
    }

    /// The model's contact memory (what [`ContactModel::accept_step`] updates), to save a run's
    /// state and resume it later with [`ContactModel::restore_memory`].
    pub fn memory(&self) -> ContactMemory {
        force_or!(self.forces(), m => ForceModel::memory(m), impulse => ContactMemory::default())
    }

    /// Puts back a contact memory saved with [`ContactModel::memory`].
    pub fn restore_memory(&self, memory: &ContactMemory) {
        force_or!(self.forces(), m => ForceModel::restore_memory(m, memory), impulse => ())
    }

    /// The contact surface of pair (a, b), for models with one.
    pub fn surface(
        &self,
        pair: (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Option<ContactSurface>, ContactError> {
        self.model().surface(pair, poses)
    }

    /// Where pair (a, b) touches at `poses`, for models without contact surfaces (the viewer's
    /// markers): Hertz's contact point, the 6D model's patch centre; none for the pressure field
    /// (it has surfaces) and PEG (its contacts are constraint sets, not one place).
    pub fn contact_points(
        &self,
        pair: (usize, usize),
        poses: &[(Isometry3, Twist)],
    ) -> Result<Vec<Point3>, ContactError> {
        self.model().contact_points(pair, poses)
    }

    /// Body `i`'s mesh, for models that mesh bodies.
    pub fn body_mesh(&self, i: usize) -> Option<BodyMesh<'_>> {
        self.model().body_mesh(i)
    }

    /// Whether the model has contact surfaces to draw.
    pub fn has_surfaces(&self) -> bool {
        self.model().has_surfaces()
    }

    /// A line about the model's own counters (narrow phase), and whether it reports trouble.
    pub fn counters(&self) -> Option<(String, bool)> {
        self.model().counters()
    }
}
