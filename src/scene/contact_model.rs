//! A scene's contact model: its bodies as the contact layer describes them ([`ContactBody`]) and
//! the model its `[model] kind` asks for, built with the scene's settings.

use super::Scene;
use crate::contact::hertz::setup::hertz_model;
use crate::contact::model::{ContactModel, ModelSetupError};
use crate::contact::peg::model::PegModel;
use crate::contact::pressure_field::{PressureFieldModel, QueryOptions};
use crate::contact::volume6d::model::Volume6dModel;
use crate::contact::{ContactBody, ModelKind, PairFilter};

/// The bodies of `scene` as the contact models take them, in order.
pub fn contact_bodies(scene: &Scene) -> Vec<ContactBody<'_>> {
    scene
        .bodies
        .iter()
        .map(|b| ContactBody { name: &b.name, shape: b.shape.as_ref(), contact: &b.contact, fixed: b.fixed })
        .collect()
}

/// Which pairs of the scene's bodies may touch at all (before each model's own rules).
pub fn pair_filter(scene: &Scene) -> PairFilter {
    let mut filter = PairFilter::new(&contact_bodies(scene));
    for (a, b) in super::mechanism_world::jointed_pairs(scene) {
        filter.exclude(a, b);
    }
    filter
}

/// The model a scene asks for, with every body's contact geometry built (meshing progress on
/// stderr when `progress` is set).
pub fn contact_model(scene: &Scene, progress: bool) -> Result<ContactModel, ModelSetupError> {
    let bodies = contact_bodies(scene);
    let filter = pair_filter(scene);
    let settings = &scene.model_settings;
    Ok(match scene.model {
        ModelKind::PressureField => {
            let options = QueryOptions { stiction_speed: settings.stiction_speed };
            ContactModel::PressureField(PressureFieldModel::new(&bodies, &filter, options, progress)?)
        }
        ModelKind::Hertz => ContactModel::Hertz(
            hertz_model(
                &bodies,
                &filter,
                &settings.pairs,
                settings.elastic_contact_reduction_factor,
                settings.max_contact_damping,
            )
            .map_err(ModelSetupError::Hertz)?,
        ),
        ModelKind::Volume6d => {
            ContactModel::Volume6d(Volume6dModel::new(&bodies, &filter, settings.volume6d)?)
        }
        ModelKind::Peg => {
            let appear = scene.bodies.iter().map(|b| b.appear_time).collect();
            ContactModel::Peg(PegModel::new(&bodies, &filter, settings.peg, appear)?)
        }
    })
}
