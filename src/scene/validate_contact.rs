//! `contact = { ... }` → [`ContactSpec`], with the rules that tie it to the shape.

use super::checks::{non_negative, not_allowed, positive, range, required, signed_within, within};
use super::raw::RawContact;
use super::{Compliance, ContactSpec, ModelKind, Place, SceneError};
use crate::geometry::Shape;

/// A body's contact table as `model` reads it: its sub-table `contact.MODEL` over the shared
/// keys. Every sub-table is checked as its model would read it (a mistake shows whichever
/// model runs); the other models' are then ignored.
pub(super) fn model_contact(
    raw: Option<RawContact>,
    model: ModelKind,
    shape: &Shape,
    place: &Place,
) -> Result<ContactSpec, SceneError> {
    let Some(mut shared) = raw else {
        return Ok(ContactSpec::default());
    };
    let mut active = None;
    for kind in ModelKind::ALL {
        let Some(sub) = shared.take_sub_table(kind) else { continue };
        let prefix = format!("contact.{}.", kind.key());
        if sub.has_sub_tables() {
            return Err(not_allowed(
                place,
                prefix.trim_end_matches('.'),
                "a model's contact keys hold no other model's: give each model's table under `contact`",
            ));
        }
        // (Checked first on its own keys, so that a mistake names the sub-table.)
        contact_spec(Some(sub.clone().over(shared.clone())), shape, place)
            .map_err(|e| e.in_sub_table(("", ""), ("contact.", &prefix)))?;
        if kind == model {
            active = Some(sub);
        }
    }
    let merged = match active {
        Some(sub) => sub.over(shared),
        None => shared,
    };
    contact_spec(Some(merged), shape, place)
}

/// Validates a body's contact table (`None`: rigid, no friction, no dissipation).
pub(super) fn contact_spec(
    raw: Option<RawContact>,
    shape: &Shape,
    place: &Place,
) -> Result<ContactSpec, SceneError> {
    let Some(raw) = raw else {
        return Ok(ContactSpec::default());
    };
    let opt_within = |key: &str, v: Option<f64>, r: (f64, f64), unit: &str| {
        v.map(|v| within(place, key, v, r, unit)).transpose()
    };
    let spec = ContactSpec {
        compliance: raw.compliance.unwrap_or_default(),
        hydroelastic_modulus: opt_within(
            "contact.hydroelastic_modulus",
            raw.hydroelastic_modulus,
            range::MODULUS,
            "Pa",
        )?,
        resolution: opt_within("contact.resolution", raw.resolution, range::LENGTH, "m")?,
        dissipation: in_range(place, "contact.dissipation", raw.dissipation, range::DISSIPATION, "s/m")?,
        friction: in_range(place, "contact.friction", raw.friction, range::FRICTION, "")?,
        slab_thickness: opt_within("contact.slab_thickness", raw.slab_thickness, range::LENGTH, "m")?,
        material: raw.material.clone(),
        youngs_modulus: opt_within("contact.youngs_modulus", raw.youngs_modulus, range::MODULUS, "Pa")?,
        poissons_ratio: raw
            .poissons_ratio
            .map(|v| {
                let v = positive(place, "contact.poissons_ratio", v, "")?;
                if v < 1.0 {
                    Ok(v)
                } else {
                    Err(SceneError::Invalid {
                        place: place.clone(),
                        key: "contact.poissons_ratio".into(),
                        problem: format!("must be below 1, got {}", crate::math::compact(v)),
                        fix: "give a Poisson's ratio in (0, 1), e.g. 0.3".into(),
                    })
                }
            })
            .transpose()?,
    };
    if spec.material.is_some() && (spec.youngs_modulus.is_some() || spec.poissons_ratio.is_some()) {
        return Err(not_allowed(
            place,
            "contact.youngs_modulus",
            "`material` names a palette material already; give either the name or youngs_modulus and poissons_ratio",
        ));
    }
    if spec.youngs_modulus.is_some() != spec.poissons_ratio.is_some() {
        return Err(not_allowed(
            place,
            if spec.youngs_modulus.is_some() { "contact.youngs_modulus" } else { "contact.poissons_ratio" },
            "a custom material needs both youngs_modulus and poissons_ratio",
        ));
    }
    let halfspace = matches!(shape, Shape::HalfSpace);
    if spec.slab_thickness.is_some() && !halfspace {
        return Err(not_allowed(place, "contact.slab_thickness", "only a half space has a slab thickness"));
    }
    if spec.compliance == Compliance::Compliant {
        required(
            place,
            "contact.hydroelastic_modulus",
            spec.hydroelastic_modulus,
            "a compliant body needs its hydroelastic modulus (Pa), e.g. 1e5",
        )?;
        if halfspace {
            required(
                place,
                "contact.slab_thickness",
                spec.slab_thickness,
                "a compliant half space needs the depth (m) over which its pressure grows to E",
            )?;
            if spec.resolution.is_some() {
                return Err(not_allowed(
                    place,
                    "contact.resolution",
                    "a compliant half space is not meshed, so it has no resolution",
                ));
            }
        } else {
            required(
                place,
                "contact.resolution",
                spec.resolution,
                "a compliant body needs the target edge length (m) of its tet mesh, e.g. 0.005",
            )?;
        }
    }
    Ok(spec)
}

/// An optional value ≥ 0 (absent: 0) within `range` (`unit` for the message).
fn in_range(
    place: &Place,
    key: &str,
    value: Option<f64>,
    range: (f64, f64),
    unit: &str,
) -> Result<f64, SceneError> {
    let value = non_negative(place, key, value.unwrap_or(0.0))?;
    signed_within(place, key, value, range, unit)
}
