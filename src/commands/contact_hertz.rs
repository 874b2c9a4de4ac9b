//! `contactlab contact` under `[model] kind = "hertz"`: Modia3D's point contact at the scene's
//! initial state (MPR narrow phase, Hertz force law, materials from the palette).

use super::contact::{ContactArgs, ContactReport, PairReport};
use crate::contact::hertz::broad_phase;
use crate::contact::hertz::force_law::ContactLaw;
use crate::contact::hertz::material::{Material, Palette};
use crate::contact::hertz::pair::{HertzBody, hertz_pair};
use crate::scene::Scene;
use anyhow::{Context, Result, bail};
use std::time::Instant;

/// A body's material: a palette name, or a custom one named after the body.
fn material(palette: &mut Palette, spec: &crate::scene::BodySpec) -> Result<String> {
    let c = &spec.contact;
    match (&c.material, c.youngs_modulus, c.poissons_ratio) {
        (Some(name), _, _) => {
            palette.solid(name).with_context(|| format!("body `{}`", spec.name))?;
            Ok(name.clone())
        }
        (None, Some(e), Some(nu)) => {
            palette
                .add_solid(&spec.name, Material { youngs_modulus: e, poissons_ratio: nu })
                .with_context(|| format!("body `{}`", spec.name))?;
            Ok(spec.name.clone())
        }
        _ => bail!(
            "body `{}` has no material: the hertz model needs contact.material (one of: {}) or contact.youngs_modulus and contact.poissons_ratio",
            spec.name,
            palette.solid_names().collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Evaluates every penetrating pair at the initial state.
pub fn run(scene: &Scene, args: &ContactArgs) -> Result<ContactReport> {
    let mut palette = Palette::builtin();
    let mut bodies = Vec::new();
    let mut materials = Vec::new();
    for spec in &scene.bodies {
        bodies.push(HertzBody::new(&spec.shape).with_context(|| format!("body `{}`", spec.name))?);
        materials.push(material(&mut palette, spec)?);
    }
    let settings = &scene.model_settings;
    let boxes: Vec<_> = bodies.iter().zip(&scene.bodies).map(|(b, s)| b.shape.aabb(&s.pose)).collect();
    let candidates: Vec<(usize, usize)> = broad_phase(&boxes)
        .into_iter()
        .filter(|&(a, b)| !(scene.bodies[a].fixed && scene.bodies[b].fixed))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    let mut laws = Vec::with_capacity(candidates.len());
    for &(a, b) in &candidates {
        let (ma, mb) = (palette.solid(&materials[a])?, palette.solid(&materials[b])?);
        let pair = palette.pair(&materials[a], &materials[b])?;
        let law = ContactLaw::new(
            &ma,
            &mb,
            &bodies[a].kind,
            &bodies[b].kind,
            pair,
            settings.elastic_contact_reduction_factor,
            settings.max_contact_damping,
        )
        .with_context(|| format!("bodies `{}` and `{}`", scene.bodies[a].name, scene.bodies[b].name))?;
        laws.push(law);
    }
    let query = || -> Result<Vec<_>> {
        let mut out = Vec::with_capacity(candidates.len());
        for (&(a, b), law) in candidates.iter().zip(&laws) {
            let (sa, sb) = (&scene.bodies[a], &scene.bodies[b]);
            let c =
                hertz_pair((&bodies[a], &sa.pose, &sa.twist), (&bodies[b], &sb.pose, &sb.twist), law, None)
                    .with_context(|| format!("bodies `{}` and `{}`", sa.name, sb.name))?;
            out.push(c);
        }
        Ok(out)
    };
    let mut results = query()?;
    let start = Instant::now();
    for _ in 0..args.repeat {
        results = query()?;
    }
    let micros_per_query = start.elapsed().as_secs_f64() * 1e6 / args.repeat as f64;
    let pairs = candidates
        .iter()
        .zip(results)
        .filter_map(|(&(a, b), c)| {
            c.map(|c| PairReport {
                a: scene.bodies[a].name.clone(),
                b: scene.bodies[b].name.clone(),
                force: c.wrench.force.into(),
                torque: c.wrench.torque.into(),
                area: None,
                energy: Some(c.energy),
                faces: None,
            })
        })
        .collect();
    if args.vtk.is_some() || args.png.is_some() {
        eprintln!(
            "contactlab: --vtk and --png draw pressure-field contact surfaces; the hertz model has contact points only"
        );
    }
    Ok(ContactReport { model: scene.model.key().to_string(), pairs, micros_per_query })
}
