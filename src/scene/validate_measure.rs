//! `[[measure]]` → [`MeasureSpec`]: two bodies of the scene (or the world and a body) and a start
//! time within the run.

use super::checks::{finite, invalid};
use super::raw::RawMeasure;
use super::{BodySpec, MeasureSpec, Place, SceneError, SimSettings};
use crate::math::compact;

/// The name that stands for the world frame in a measure's `a`.
const WORLD: &str = "world";

/// Validates the measures: unique names, bodies that exist (`a` may be the world), `from` within
/// the run.
pub(super) fn measures(
    raw: Vec<(RawMeasure, Place)>,
    bodies: &[BodySpec],
    sim: &SimSettings,
) -> Result<Vec<MeasureSpec>, SceneError> {
    let mut out: Vec<MeasureSpec> = Vec::with_capacity(raw.len());
    for (m, place) in raw {
        if m.name.trim().is_empty() {
            return Err(invalid(
                &place,
                "name",
                "is empty".into(),
                "give the measure a name, e.g. name = \"slip\"".into(),
            ));
        }
        if out.iter().any(|o| o.name == m.name) {
            return Err(invalid(
                &place,
                "name",
                format!("\"{}\" is used by more than one [[measure]]", m.name),
                "give every measure a unique `name`".into(),
            ));
        }
        let known = |key: &str, name: &str| {
            if bodies.iter().any(|b| b.name == name) {
                return Ok(());
            }
            let listed: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).take(12).collect();
            Err(invalid(
                &place,
                key,
                format!("= \"{name}\" names no body of the scene"),
                format!("name one of: {}{}", listed.join(", "), if bodies.len() > 12 { ", …" } else { "" }),
            ))
        };
        let a = if m.a == WORLD && !bodies.iter().any(|b| b.name == WORLD) {
            None
        } else {
            known("a", &m.a)?;
            Some(m.a.clone())
        };
        known("b", &m.b)?;
        if a.as_deref() == Some(m.b.as_str()) {
            return Err(invalid(
                &place,
                "b",
                format!("= \"{}\" is also `a`: a body does not move relative to itself", m.b),
                "measure two different bodies (or `a = \"world\"`)".into(),
            ));
        }
        let from = finite(&place, "from", m.from.unwrap_or(0.0))?;
        if !(0.0..sim.duration).contains(&from) {
            return Err(invalid(
                &place,
                "from",
                format!("= {} s is outside the run [0, {}) s", compact(from), compact(sim.duration)),
                "give a start time from 0 up to [sim] duration".into(),
            ));
        }
        out.push(MeasureSpec { name: m.name, a, b: m.b, from });
    }
    Ok(out)
}
