//! `contactlab contact` under `[model] kind = "hertz"`: Modia3D's point contact at the scene's
//! initial state (MPR narrow phase, Hertz force law, materials from the palette).

use super::contact::{ContactArgs, ContactReport, PairReport};
use super::hertz_setup::hertz_contacts;
use crate::contact::hertz::broad_phase;
use crate::contact::hertz::pair::hertz_pair;
use crate::scene::Scene;
use anyhow::{Context, Result};
use std::time::Instant;

/// Evaluates every penetrating pair at the initial state.
pub fn run(scene: &Scene, args: &ContactArgs) -> Result<ContactReport> {
    let hertz = hertz_contacts(scene)?;
    let boxes: Vec<_> = hertz.bodies.iter().zip(&scene.bodies).map(|(b, s)| b.shape.aabb(&s.pose)).collect();
    let candidates: Vec<(usize, usize)> = broad_phase(&boxes)
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .filter(|&(a, b)| hertz.law(a, b).is_some())
        .collect();
    let query = || -> Result<Vec<_>> {
        let mut out = Vec::with_capacity(candidates.len());
        for &(a, b) in &candidates {
            let (sa, sb) = (&scene.bodies[a], &scene.bodies[b]);
            let law = hertz.law(a, b).context("every candidate pair has a law")?;
            let (ba, bb) = (&hertz.bodies[a], &hertz.bodies[b]);
            let c = hertz_pair((ba, &sa.pose, &sa.twist), (bb, &sb.pose, &sb.twist), law, None, &hertz.stats)
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
    let counts = hertz.stats.counts();
    if counts.best_estimates + counts.errors > 0 {
        eprintln!(
            "contactlab: narrow phase: {} of {} queries returned a flagged best estimate, {} failed",
            counts.best_estimates, counts.queries, counts.errors
        );
    }
    if args.vtk.is_some() || args.png.is_some() {
        eprintln!(
            "contactlab: --vtk and --png draw pressure-field contact surfaces; the hertz model has contact points only"
        );
    }
    Ok(ContactReport { model: scene.model.key().to_string(), pairs, micros_per_query })
}
