//! `contactlab contact SCENE.toml [--json] [--repeat N] [--vtk DIR] [--png FILE]`: every
//! contacting pair at the scene's initial state.

use crate::app;
use crate::contact::model::{
    BodyMesh, Capability, ContactModel, Derivatives, Forces, ImpulseSolver, PairContact,
};
use crate::contact::surface::ContactSurface;
use crate::math::{Isometry3, Point3, Twist};
use crate::scene::Scene;
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
    /// volume6d: the intersection's volume (m³), normal (from `b` into `a`), centroid and the
    /// patch ellipse's semi-axes (m); absent for the other models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centroid: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semi_axes: Option<[f64; 2]>,
}

/// The whole report (the JSON printed with `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct ContactReport {
    pub model: String,
    pub pairs: Vec<PairReport>,
    pub micros_per_query: f64,
}

/// One full contact query of a force model: the contact of every candidate pair, `None` where
/// it does not touch. Impulse models have no contact at a state (they step: `impulse_pairs`).
pub fn query(
    model: &ContactModel,
    poses: &[(Isometry3, Twist)],
    pairs: &[(usize, usize)],
) -> Result<Vec<Option<PairContact>>> {
    let Some(forces) = model.forces() else {
        bail!("kind = \"{}\" gives impulses over a step, not contact forces at a state", model.kind().key())
    };
    let mut out = Vec::with_capacity(pairs.len());
    query_into(forces, poses, pairs, &mut out)?;
    Ok(out)
}

/// [`query`] into `out` (cleared first): `--repeat` reuses one vector, so that it times the
/// queries rather than the allocation of their results.
fn query_into(
    forces: Forces,
    poses: &[(Isometry3, Twist)],
    pairs: &[(usize, usize)],
    out: &mut Vec<Option<PairContact>>,
) -> Result<()> {
    let origin = Point3::origin();
    out.clear();
    for &pair in pairs {
        let c = forces.evaluate(pair, poses, (&origin, &origin), Derivatives::None)?;
        out.push(c.map(|(c, _)| c));
    }
    Ok(())
}

/// Runs the command and returns the report (printing is the caller's).
pub fn run(scene: &Scene, args: &ContactArgs) -> Result<ContactReport> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let model = crate::scene::contact_model(scene, !args.json)?;
    let Some(forces) = model.forces() else {
        return impulse_report(scene, model, args);
    };
    let poses: Vec<(Isometry3, Twist)> = scene.bodies.iter().map(|b| (b.pose, b.twist)).collect();
    let pairs = model.candidate_pairs(&poses);
    let name = |i: usize| scene.bodies[i].name.as_str();
    let evaluate = |results: &mut Vec<Option<PairContact>>| {
        query_into(forces, &poses, &pairs, results).context("evaluating the contacts at the initial state")
    };
    let mut results = Vec::new();
    evaluate(&mut results)?;
    let start = Instant::now();
    for _ in 0..args.repeat {
        evaluate(&mut results)?;
    }
    let micros_per_query = start.elapsed().as_secs_f64() * 1e6 / args.repeat as f64;

    let reports = pair_reports(scene, &model, &poses, &results)?;
    let mut surfaces = Vec::new();
    if args.vtk.is_some() || args.png.is_some() {
        for c in results.iter().flatten() {
            if let Some(surface) = model.surface((c.a, c.b), &poses)? {
                surfaces.push((format!("{}–{}", name(c.a), name(c.b)), surface));
            }
        }
    }
    if let Some((counters, true)) = model.counters() {
        eprintln!("contactlab: {counters}");
    }
    if (args.vtk.is_some() || args.png.is_some()) && !model.has_surfaces() {
        eprintln!(
            "contactlab: --vtk and --png draw pressure-field contact surfaces; the {} model has contact points only",
            scene.model.key()
        );
    }
    if let Some(dir) = &args.vtk {
        write_vtk(dir, scene, &model, &poses, &surfaces)?;
    }
    if let Some(file) = &args.png {
        let panels: Vec<(String, &ContactSurface)> = surfaces.iter().map(|(n, s)| (n.clone(), s)).collect();
        app::write_pressure_png(file, &panels, 800).with_context(|| format!("writing {}", file.display()))?;
    }
    Ok(ContactReport { model: scene.model.key().to_string(), pairs: reports, micros_per_query })
}

/// The report of each touching pair of a force model's query `results` at `poses` (with its
/// elastic energy).
pub fn pair_reports(
    scene: &Scene,
    model: &ContactModel,
    poses: &[(Isometry3, Twist)],
    results: &[Option<PairContact>],
) -> Result<Vec<PairReport>> {
    let name = |i: usize| scene.bodies[i].name.as_str();
    let mut reports = Vec::new();
    for c in results.iter().flatten() {
        let energy =
            model.energy(c, poses).with_context(|| format!("bodies `{}` and `{}`", name(c.a), name(c.b)))?;
        reports.push(PairReport {
            a: name(c.a).to_string(),
            b: name(c.b).to_string(),
            force: c.wrench.force.into(),
            torque: c.wrench.torque.into(),
            area: c.area,
            energy: Some(energy),
            faces: c.faces,
            volume: None,
            normal: None,
            centroid: None,
            semi_axes: None,
        });
    }
    Ok(reports)
}

/// A constraint model's report: each pair's mean wrench over one step from rest (impulse / dt,
/// the scene's `dt`, default 1 ms) with its intersection's volume, normal, centroid and patch.
fn impulse_report(scene: &Scene, model: ContactModel, args: &ContactArgs) -> Result<ContactReport> {
    // The bodies around the model already built (meshing it again would double the set-up).
    let bodies = scene.bodies.iter().map(crate::scene::rigid_body).collect::<Result<Vec<_>>>()?;
    let world = crate::dynamics::world::World::new(bodies, model, scene.sim.gravity);
    let (pairs, micros_per_query) = impulse_pairs(scene, &world, args.repeat)?;
    if args.vtk.is_some() || args.png.is_some() {
        eprintln!(
            "contactlab: --vtk and --png draw pressure-field contact surfaces; the {} model has none",
            scene.model.key()
        );
    }
    Ok(ContactReport { model: scene.model.key().to_string(), pairs, micros_per_query })
}

/// A constraint model's pairs in `world` (the scene's): each overlapping pair's mean wrench over
/// one step from rest with its intersection's geometry, timed over `repeat` more steps:
/// (reports, µs per step).
pub fn impulse_pairs(
    scene: &Scene,
    world: &crate::dynamics::world::World,
    repeat: usize,
) -> Result<(Vec<PairReport>, f64)> {
    let dt = scene.sim.dt.unwrap_or(1e-3);
    let mut rest = world.initial_state();
    for block in world.coords.free_blocks() {
        block.set_velocity(&mut rest, &crate::math::Vector3::zeros());
        block.set_angular_velocity(&mut rest, &crate::math::Vector3::zeros());
    }
    let poses = world.poses(0.0, &rest);
    let mut contacts = Vec::new();
    let mut step = || -> Result<()> {
        // Every repetition starts cold: no impulses from a previous one.
        let mut warm = crate::contact::volume6d::model::WarmStarts::default();
        let mut y = rest.clone();
        crate::dynamics::engine::constraint_step(world, 0.0, &mut y, dt, &mut warm, &mut contacts)?;
        Ok(())
    };
    step().context("the step from rest")?;
    let start = Instant::now();
    for _ in 0..repeat {
        step()?;
    }
    let micros_per_query = start.elapsed().as_secs_f64() * 1e6 / repeat.max(1) as f64;
    let name = |i: usize| scene.bodies[i].name.clone();
    let mut pairs = Vec::new();
    for c in &contacts {
        // The 6D model's intersection geometry (volume, patch) beside the impulse.
        let geometry = match world.model.capability() {
            Capability::Impulse(m) => match m.solver() {
                ImpulseSolver::BlockGaussSeidel(model) => model
                    .contact((c.a, c.b), &poses)
                    .map_err(crate::contact::model::ContactError::from)?
                    .map(|(geometry, _)| geometry),
                ImpulseSolver::Lcp(_) => None,
            },
            Capability::Force(_) => None,
        };
        pairs.push(PairReport {
            a: name(c.a),
            b: name(c.b),
            force: c.wrench.force.into(),
            torque: c.wrench.torque.into(),
            area: c.area,
            energy: Some(0.0),
            faces: None,
            volume: geometry.map(|g| g.moments.volume),
            normal: geometry.map(|g| g.patch.normal.into()),
            centroid: geometry.map(|g| g.moments.centroid.coords.into()),
            semi_axes: geometry.map(|g| [g.patch.semi_axes.0, g.patch.semi_axes.1]),
        });
    }
    Ok((pairs, micros_per_query))
}

/// Writes each contact surface and each body's mesh (in its world pose) for ParaView.
fn write_vtk(
    dir: &Path,
    scene: &Scene,
    model: &ContactModel,
    poses: &[(Isometry3, Twist)],
    surfaces: &[(String, ContactSurface)],
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "creating the folder {} for --vtk; give --vtk a folder (made if missing), not a file",
            dir.display()
        )
    })?;
    for (name, surface) in surfaces {
        let file = dir.join(format!("contact_{}.vtk", sanitize(name)));
        app::write_contact_surface_vtk(&file, surface)
            .with_context(|| format!("writing {}", file.display()))?;
    }
    for (i, (spec, (pose, _))) in scene.bodies.iter().zip(poses).enumerate() {
        let file = dir.join(format!("body_{}.vtk", sanitize(&spec.name)));
        match model.body_mesh(i) {
            Some(BodyMesh::Tets { vertices, tets, extent, modulus }) => {
                let verts: Vec<_> = vertices.iter().map(|v| pose * v).collect();
                let pressure: Vec<f64> = extent.iter().map(|e| e * modulus).collect();
                app::write_tet_mesh_vtk(&file, &verts, tets, &[("extent", extent), ("pressure", &pressure)])
            }
            Some(BodyMesh::Triangles { vertices, triangles }) => {
                let verts: Vec<_> = vertices.iter().map(|v| pose * v).collect();
                app::write_surface_vtk(&file, &verts, triangles)
            }
            None => continue,
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
