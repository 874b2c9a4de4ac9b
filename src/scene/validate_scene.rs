//! Scene-wide rules: `[sim]` values, unique names, and pairs whose contact is undefined.

use super::checks::{norm_at_most, positive, range};
use super::raw::RawSim;
use super::{BodySpec, Compliance, ModelKind, Place, SceneError, SimSettings};

/// Validates `[sim]`, filling defaults.
pub(super) fn sim_settings(raw: Option<RawSim>) -> Result<SimSettings, SceneError> {
    let d = SimSettings::default();
    let Some(raw) = raw else { return Ok(d) };
    let place = Place::section("[sim]");
    let opt = |key: &str, v: Option<f64>| v.map(|v| positive(&place, key, v, "")).transpose();
    if raw.integrator.as_deref().is_some_and(|s| s.trim().is_empty()) {
        return Err(SceneError::Invalid {
            place: place.clone(),
            key: "integrator".into(),
            problem: "is empty".into(),
            fix: "name an integrator or remove the key to use the default".into(),
        });
    }
    Ok(SimSettings {
        duration: positive(&place, "duration", raw.duration.unwrap_or(d.duration), "s")?,
        gravity: match raw.gravity {
            Some(g) => norm_at_most(&place, "gravity", g, range::GRAVITY, "m/s²")?.into(),
            None => d.gravity,
        },
        integrator: raw.integrator,
        dt: raw.dt.map(|v| positive(&place, "dt", v, "s")).transpose()?,
        rtol: opt("rtol", raw.rtol)?,
        atol: opt("atol", raw.atol)?,
        output_dt: opt("output_dt", raw.output_dt)?,
        max_wall_time: opt("max_wall_time", raw.max_wall_time)?,
        exact_energy_dt: opt("exact_energy_dt", raw.exact_energy_dt)?,
    })
}

/// Body names are unique. `places[i]` is body `i`'s place.
pub(super) fn unique_names(bodies: &[BodySpec], places: &[Place]) -> Result<(), SceneError> {
    for (j, b) in bodies.iter().enumerate() {
        if bodies[..j].iter().any(|a| a.name == b.name) {
            return Err(SceneError::DuplicateName { place: places[j].clone(), name: b.name.clone() });
        }
    }
    Ok(())
}

/// Under the pressure field model a rigid–rigid contact has no pressure field, so any pair of
/// rigid bodies that could meet (at least one moves) is rejected; a body without a shape meets
/// nothing. The other models define rigid–rigid contact themselves and are not restricted here.
pub(super) fn contact_pairs(
    model: ModelKind,
    bodies: &[BodySpec],
    never_touch: &std::collections::BTreeSet<(&str, &str)>,
    robots: &[String],
    warnings: &mut Vec<String>,
) -> Result<(), SceneError> {
    if model != ModelKind::PressureField {
        return Ok(());
    }
    let rigid = |b: &BodySpec| b.shape.is_some() && b.contact.compliance == Compliance::Rigid;
    // Each body's robot (its name's prefix), found once.
    let owner: Vec<Option<&String>> = bodies
        .iter()
        .map(|b| {
            robots.iter().find(|r| b.name.strip_prefix(r.as_str()).is_some_and(|rest| rest.starts_with('/')))
        })
        .collect();
    let mut quiet_robots = Vec::new();
    for (j, b) in bodies.iter().enumerate() {
        for (i, a) in bodies[..j].iter().enumerate() {
            let (x, y) = (a.name.as_str(), b.name.as_str());
            if !rigid(a) || !rigid(b) || (a.fixed && b.fixed) || never_touch.contains(&(x.min(y), x.max(y))) {
                continue;
            }
            // Two rigid links of one robot: they do not touch (a robot's default), said once.
            if let (Some(r), Some(s)) = (owner[i], owner[j])
                && r == s
            {
                if !quiet_robots.contains(&r) {
                    quiet_robots.push(r);
                    warnings.push(format!(
                        "robot `{r}`: its rigid links do not touch each other under the pressure_field model (make them compliant in its `contact` or `link_contact` for self-contact)"
                    ));
                }
                continue;
            }
            return Err(SceneError::RigidPair {
                a: a.name.clone(),
                b: b.name.clone(),
                model: model.key().into(),
            });
        }
    }
    Ok(())
}
