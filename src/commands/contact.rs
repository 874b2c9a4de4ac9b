//! `contactlab contact SCENE.toml [--json] [--repeat N] [--vtk DIR] [--png FILE]`: every
//! contacting pair at the scene's initial state.

use super::world::{ContactWorld, PairIndex};
use crate::app;
use crate::contact::pressure_field::{self, BodyState, ContactSurface, PairWrench, PfGeometry, QueryOptions};
use crate::scene::{ModelKind, Scene};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the command was asked to do.
#[derive(Clone, Debug)]
pub struct ContactArgs {
    pub scene: PathBuf,
    pub json: bool,
    pub repeat: usize,
    pub vtk: Option<PathBuf>,
    pub png: Option<PathBuf>,
}

/// One pair in the report. `force`/`torque` act on `a`, torque about the world origin.
#[derive(Clone, Debug, Serialize)]
pub struct PairReport {
    pub a: String,
    pub b: String,
    pub force: [f64; 3],
    pub torque: [f64; 3],
    /// Contact area (m²); `null` for point-contact models.
    pub area: Option<f64>,
    pub energy: Option<f64>,
    /// Number of contact polygons; `null` for point-contact models.
    pub faces: Option<usize>,
}

/// The whole report (the JSON printed with `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct ContactReport {
    pub model: String,
    pub pairs: Vec<PairReport>,
    pub micros_per_query: f64,
}

/// One full contact query: the wrench of every candidate pair.
pub fn query(states: &[BodyState], pairs: &[PairIndex], options: &QueryOptions) -> Result<Vec<PairWrench>> {
    let mut out = Vec::with_capacity(pairs.len());
    for p in pairs {
        out.push(pressure_field::evaluate_pair(states[p.a], states[p.b], options)?);
    }
    Ok(out)
}

/// Runs the command and returns the report (printing is the caller's).
pub fn run(scene: &Scene, args: &ContactArgs) -> Result<ContactReport> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if scene.model == ModelKind::Hertz {
        return super::contact_hertz::run(scene, args);
    }
    if scene.model != ModelKind::PressureField {
        bail!("model kind `{}` is not implemented yet; use kind = \"pressure_field\"", scene.model.key());
    }
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let world = ContactWorld::build(scene, !args.json)?;
    let states = world.initial_states(scene);
    let pairs = world.candidate_pairs(scene, &states);
    let options = QueryOptions { stiction_speed: scene.model_settings.stiction_speed };
    let mut results = query(&states, &pairs, &options)?;
    let start = Instant::now();
    for _ in 0..args.repeat {
        results = query(&states, &pairs, &options)?;
    }
    let micros_per_query = start.elapsed().as_secs_f64() * 1e6 / args.repeat as f64;

    let mut reports = Vec::new();
    let mut surfaces = Vec::new();
    for (p, r) in pairs.iter().zip(&results) {
        if r.faces == 0 {
            continue;
        }
        let (sa, sb) = (states[p.a], states[p.b]);
        let energy = pressure_field::pair_energy(sa, sb)?;
        reports.push(PairReport {
            a: scene.bodies[p.a].name.clone(),
            b: scene.bodies[p.b].name.clone(),
            force: r.wrench.force.into(),
            torque: r.wrench.torque.into(),
            area: Some(r.area),
            energy: Some(energy),
            faces: Some(r.faces),
        });
        if args.vtk.is_some() || args.png.is_some() {
            surfaces.push((
                format!("{}–{}", scene.bodies[p.a].name, scene.bodies[p.b].name),
                pressure_field::contact_surface(sa, sb)?,
            ));
        }
    }
    if let Some(dir) = &args.vtk {
        write_vtk(dir, scene, &world, &states, &surfaces)?;
    }
    if let Some(file) = &args.png {
        let panels: Vec<(String, &ContactSurface)> = surfaces.iter().map(|(n, s)| (n.clone(), s)).collect();
        app::write_pressure_png(file, &panels, 800).with_context(|| format!("writing {}", file.display()))?;
    }
    Ok(ContactReport { model: scene.model.key().to_string(), pairs: reports, micros_per_query })
}

/// Writes each contact surface and each body's mesh (in its world pose) for ParaView.
fn write_vtk(
    dir: &Path,
    scene: &Scene,
    world: &ContactWorld,
    states: &[BodyState],
    surfaces: &[(String, ContactSurface)],
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, surface) in surfaces {
        let file = dir.join(format!("contact_{}.vtk", sanitize(name)));
        app::write_contact_surface_vtk(&file, surface)
            .with_context(|| format!("writing {}", file.display()))?;
    }
    for ((spec, body), state) in scene.bodies.iter().zip(&world.bodies).zip(states) {
        let file = dir.join(format!("body_{}.vtk", sanitize(&spec.name)));
        match &body.geometry {
            PfGeometry::CompliantMesh(m) => {
                let verts: Vec<_> = m.mesh.vertices.iter().map(|v| state.pose * v).collect();
                let modulus = body.modulus.unwrap_or(0.0);
                let pressure: Vec<f64> = m.extent.iter().map(|e| e * modulus).collect();
                app::write_tet_mesh_vtk(
                    &file,
                    &verts,
                    &m.mesh.tets,
                    &[("extent", &m.extent), ("pressure", &pressure)],
                )
            }
            PfGeometry::RigidMesh(r) => {
                let verts: Vec<_> = r.mesh.vertices.iter().map(|v| state.pose * v).collect();
                app::write_surface_vtk(&file, &verts, &r.mesh.triangles)
            }
            _ => continue,
        }
        .with_context(|| format!("writing {}", file.display()))?;
    }
    Ok(())
}

fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// The human-readable report.
pub fn format_report(report: &ContactReport) -> String {
    let mut s = format!("model {}: {} contacting pair(s)\n", report.model, report.pairs.len());
    for p in &report.pairs {
        let area = p.area.map_or("null".to_string(), |a| format!("{a:.6e}"));
        let energy = p.energy.map_or("null".to_string(), |e| format!("{e:.6e}"));
        let faces = p.faces.map_or("null".to_string(), |f| f.to_string());
        let (f, t) = (p.force, p.torque);
        s += &format!(
            "  {} – {}: force [{:.6}, {:.6}, {:.6}] N, torque [{:.6}, {:.6}, {:.6}] N·m, area {area} m², energy {energy} J, {faces} faces\n",
            p.a, p.b, f[0], f[1], f[2], t[0], t[1], t[2]
        );
    }
    s += &format!("{:.1} µs per query\n", report.micros_per_query);
    s
}
