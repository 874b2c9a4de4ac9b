//! `[model]` → the model's kind and settings. Each model's own keys may also sit in a sub-table
//! `[model.KIND]` (`[model.hertz]`, …), read over `[model]`'s when that model runs and checked,
//! but otherwise ignored, when another does: one scene runs under any model by changing `kind`.

use super::checks;
use super::raw::RawModel;
use super::{ModelKind, ModelSettings, PairSpec, Place, SceneError};

/// The kind `[model]` names (pressure field without a `[model]`) and its validated settings.
pub(super) fn model(raw: Option<RawModel>) -> Result<(ModelKind, ModelSettings), SceneError> {
    let Some(mut raw) = raw else {
        return Ok((ModelKind::default(), ModelSettings::default()));
    };
    let Some(kind) = raw.kind else {
        return Err(checks::invalid(
            &Place::section("[model]"),
            "kind",
            "is missing".into(),
            "name the contact model: kind = \"pressure_field\", \"hertz\", \"volume6d\" or \"peg\"".into(),
        ));
    };
    let mut active = None;
    for other in ModelKind::ALL {
        let Some(sub) = raw.take_sub_table(other) else { continue };
        let section = format!("[model.{}]", other.key());
        let nested = sub.has_sub_tables();
        if sub.kind.is_some() || nested {
            return Err(checks::invalid(
                &Place::section(section),
                if nested { "sub-table" } else { "kind" },
                "is not allowed in a model's sub-table".into(),
                "give `kind` once, in [model]; a sub-table holds only its model's own keys".into(),
            ));
        }
        // Checked on its own keys as its model reads them: a mistake shows whichever model runs
        // and names the sub-table.
        settings(other, &sub).map_err(|e| e.in_sub_table(("[model]", &section), ("", "")))?;
        if other == kind {
            active = Some(sub);
        }
    }
    let merged = match active {
        Some(sub) => sub.over(raw),
        None => raw,
    };
    Ok((kind, settings(kind, &merged)?))
}

/// The settings of `model` from `raw`'s keys.
fn settings(model: ModelKind, raw: &RawModel) -> Result<ModelSettings, SceneError> {
    let mut model_settings = ModelSettings::default();
    let model_place = Place::section("[model]");
    if let Some(v) = raw.elastic_contact_reduction_factor {
        model_settings.elastic_contact_reduction_factor = checks::within(
            &model_place,
            "elastic_contact_reduction_factor",
            v,
            checks::range::REDUCTION,
            "",
        )?;
    }
    if let Some(v) = raw.max_contact_damping {
        model_settings.max_contact_damping = checks::non_negative(&model_place, "max_contact_damping", v)?;
    }
    for p in &raw.pair {
        let place = Place::section(format!("[[model.pair]] {}–{}", p.a, p.b));
        let restitution = checks::non_negative(&place, "restitution", p.restitution)?;
        if restitution > 1.0 {
            return Err(SceneError::Invalid {
                place,
                key: "restitution".into(),
                problem: format!("must be at most 1, got {}", crate::math::compact(restitution)),
                fix: "give a coefficient of restitution in [0, 1]".into(),
            });
        }
        model_settings.pairs.push(PairSpec {
            a: p.a.clone(),
            b: p.b.clone(),
            restitution,
            sliding_friction: checks::non_negative(&place, "sliding_friction", p.sliding_friction)?,
            rolling_resistance: checks::non_negative(&place, "rolling_resistance", p.rolling_resistance)?,
            v_small: checks::positive(&place, "v_small", p.v_small.unwrap_or(0.01), "m/s")?,
            w_small: checks::positive(&place, "w_small", p.w_small.unwrap_or(0.01), "rad/s")?,
        });
    }
    if let Some(v) = raw.stiction_speed {
        model_settings.stiction_speed = checks::within(
            &Place::section("[model]"),
            "stiction_speed",
            v,
            checks::range::STICTION_SPEED,
            "m/s",
        )?;
    }
    model_settings.volume6d = super::validate_volume6d::volume6d_spec(model, raw)?;
    model_settings.peg = super::validate_peg::peg_spec(model, raw)?;
    Ok(model_settings)
}
