//! Bodies made ready for the Hertz model: narrow-phase shapes, materials from the palette (or
//! custom), and the force law of every pair that can touch.

use super::contacts::HertzModel;
use super::force_law::ContactLaw;
use super::material::{Material, PairMaterial, Palette};
use super::pair::HertzBody;
use super::settings::PairSpec;
use crate::contact::{ContactBody, PairFilter};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;

/// A body's material: a palette name, or a custom one named after the body.
fn material(palette: &mut Palette, spec: &ContactBody) -> Result<String> {
    let c = spec.contact;
    match (&c.material, c.youngs_modulus, c.poissons_ratio) {
        (Some(name), _, _) => {
            palette.solid(name).with_context(|| format!("body `{}`", spec.name))?;
            Ok(name.clone())
        }
        (None, Some(e), Some(nu)) => {
            palette
                .add_solid(spec.name, Material { youngs_modulus: e, poissons_ratio: nu })
                .with_context(|| format!("body `{}`", spec.name))?;
            Ok(spec.name.to_string())
        }
        _ => bail!(
            "body `{}` has no material: the hertz model needs contact.material (one of: {}) or contact.youngs_modulus and contact.poissons_ratio",
            spec.name,
            palette.solid_names().collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Checks that a `[[model.pair]]` name is a material the bodies can use: a palette material,
/// or the custom material of a body (named after it). A pair naming anything else would never
/// apply; the error says what the name is and what to write instead.
fn pair_name(palette: &Palette, bodies: &[ContactBody], materials: &[String], name: &str) -> Result<()> {
    let Err(unknown) = palette.solid(name) else { return Ok(()) };
    if let Some(i) = bodies.iter().position(|b| b.name == name) {
        if bodies[i].shape.is_none() {
            bail!("`{name}` is a body without a shape: it touches nothing; remove the pair");
        }
        let material = &materials[i];
        bail!(
            "`{name}` is a body that uses the palette material `{material}`: name `{material}` in the pair (it then holds for every `{material}` body), or give body `{name}` its own contact.youngs_modulus and contact.poissons_ratio (a pair can then name the body)"
        );
    }
    Err(unknown).with_context(|| {
        format!(
            "`{name}` is neither a palette material nor a body with its own youngs_modulus and poissons_ratio"
        )
    })
}

/// The Hertz model of `specs`: every body's shape and material, the palette extended by
/// `pairs`, and a law for every pair that is not two fixed bodies, with the elastic contact
/// reduction factor `reduction` and the largest damping coefficient `max_damping`.
pub fn hertz_model(
    specs: &[ContactBody],
    filter: &PairFilter,
    pairs: &[PairSpec],
    reduction: f64,
    max_damping: f64,
) -> Result<HertzModel> {
    let mut palette = Palette::builtin();
    let mut bodies = Vec::new();
    let mut materials = Vec::new();
    for spec in specs {
        let shape = spec.shape_or_placeholder();
        bodies.push(HertzBody::new(shape).with_context(|| format!("body `{}`", spec.name))?);
        // A body without a shape is in no pair (no law), so it needs no material.
        materials.push(if spec.shape.is_some() { material(&mut palette, spec)? } else { String::new() });
    }
    for p in pairs {
        for name in [&p.a, &p.b] {
            pair_name(&palette, specs, &materials, name)
                .with_context(|| format!("[[model.pair]] {}–{}", p.a, p.b))?;
        }
        let pair = PairMaterial {
            restitution: p.restitution,
            sliding_friction: p.sliding_friction,
            rolling_resistance: p.rolling_resistance,
            v_small: p.v_small,
            w_small: p.w_small,
        };
        palette.add_pair(&p.a, &p.b, pair).with_context(|| format!("[[model.pair]] {}–{}", p.a, p.b))?;
    }
    let mut laws = BTreeMap::new();
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            if !filter.allows(a, b) {
                continue;
            }
            let (ma, mb) = (palette.solid(&materials[a])?, palette.solid(&materials[b])?);
            let pair = palette.pair(&materials[a], &materials[b])?;
            let law =
                ContactLaw::new(&ma, &mb, &bodies[a].kind, &bodies[b].kind, pair, reduction, max_damping)
                    .with_context(|| format!("bodies `{}` and `{}`", specs[a].name, specs[b].name))?;
            laws.insert((a, b), law);
        }
    }
    Ok(HertzModel::new(bodies, laws))
}
