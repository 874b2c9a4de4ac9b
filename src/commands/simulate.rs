//! `contactlab simulate SCENE.toml --out DIR [--vtk] [--png]`: integrate a scene and write its
//! trajectory, energies and contacts.

use super::sim_world::build_world;
use crate::app::{self, BodyFrame, ContactFrame, EnergyRow, MeshCells, Progress, SimWriter, VtkSeries};
use crate::contact::pressure_field::{self, BodyState, PfGeometry};
use crate::dynamics::DynamicsError;
use crate::dynamics::ode::Tolerances;
use crate::dynamics::simulate::{self, Flow, Integrator, RunStats};
use crate::dynamics::world::World;
use crate::scene::Scene;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the command was asked to do.
#[derive(Clone, Debug)]
pub struct SimulateArgs {
    pub out: PathBuf,
    pub vtk: bool,
    pub png: bool,
    /// Show a progress bar on stderr (the CLI sets it when stderr is a terminal).
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub stats: RunStats,
    pub integrator: String,
    /// Wall time of the whole run, and of the outputs within it.
    pub wall: Duration,
    pub output_wall: Duration,
}

impl Summary {
    /// Simulated seconds per wall-clock second, of the whole run and of the integration alone
    /// (without writing outputs).
    pub fn real_time_factors(&self) -> (f64, f64) {
        let wall = self.wall.as_secs_f64().max(1e-12);
        let integration = (self.wall - self.output_wall).as_secs_f64().max(1e-12);
        (self.stats.t_end / wall, self.stats.t_end / integration)
    }

    /// The one-line summary the command prints.
    pub fn line(&self) -> String {
        let (rtf, rtf_integration) = self.real_time_factors();
        format!(
            "simulated {:.4} s with {}: {} steps ({} rejected, {} force evaluations), wall {:.3} s, real-time factor {:.2} ({:.2} without outputs)",
            self.stats.t_end,
            self.integrator,
            self.stats.steps,
            self.stats.rejected,
            self.stats.evaluations,
            self.wall.as_secs_f64(),
            rtf,
            rtf_integration
        )
    }
}

/// The names of the integrators, for messages.
pub const INTEGRATORS: [&str; 3] = ["semi_implicit_euler", "dopri5", "radau5"];

/// The integrator and output interval a scene asks for, with the documented defaults.
pub fn integrator(scene: &Scene) -> Result<(Integrator, f64)> {
    let sim = &scene.sim;
    let name = sim.integrator.as_deref().unwrap_or("semi_implicit_euler");
    let tolerances = || Tolerances::new(sim.rtol.unwrap_or(1e-6), sim.atol.unwrap_or(1e-8));
    let integrator = match name {
        "semi_implicit_euler" => {
            if sim.rtol.is_some() || sim.atol.is_some() {
                bail!(
                    "[sim] rtol/atol are for the adaptive integrators (dopri5, radau5); remove them or pick one of those"
                );
            }
            Integrator::SemiImplicitEuler { dt: sim.dt.unwrap_or(1e-3) }
        }
        "dopri5" => Integrator::Dopri5 { tolerances: tolerances(), initial_step: sim.dt },
        "radau5" => Integrator::Radau5 { tolerances: tolerances(), initial_step: sim.dt },
        other => bail!("[sim] integrator `{other}` is unknown; use one of: {}", INTEGRATORS.join(", ")),
    };
    let output_dt = match (&integrator, sim.output_dt) {
        (_, Some(o)) => o,
        (Integrator::SemiImplicitEuler { dt }, None) => dt.max(1e-3),
        _ => 1e-3,
    }
    .min(sim.duration);
    Ok((integrator, output_dt))
}

/// Most VTK frames written: a frame holds every mesh, so they are thinned to at most this many.
const MAX_VTK_FRAMES: usize = 200;

/// Runs the simulation, writing outputs as it goes. On a failure the outputs written so far
/// are kept and the error says when and which bodies.
pub fn run(scene: &Scene, args: &SimulateArgs) -> Result<Summary> {
    use crate::scene::ModelKind;
    if !matches!(scene.model, ModelKind::PressureField | ModelKind::Hertz) {
        bail!(
            "simulation under model kind `{}` is not implemented yet; use kind = \"pressure_field\" or \"hertz\"",
            scene.model.key()
        );
    }
    let (integrator, output_dt) = integrator(scene)?;
    let world = build_world(scene, args.progress)?;
    let mut writer = SimWriter::create(&args.out)
        .with_context(|| format!("creating outputs in {}", args.out.display()))?;
    let mut series = if args.vtk { Some(VtkSeries::create(&args.out.join("vtk"))?) } else { None };
    let outputs = (scene.sim.duration / output_dt).ceil() as usize + 1;
    let vtk_every = outputs.div_ceil(MAX_VTK_FRAMES).max(1);
    let mut progress = Progress::new(scene.sim.duration, args.progress);
    let mut plots = Plots::default();
    let (mut output_wall, mut frame) = (Duration::ZERO, 0usize);
    let start = Instant::now();
    let result = simulate::run(&world, &integrator, scene.sim.duration, output_dt, |t, y| {
        let begin = Instant::now();
        write_outputs(
            &world,
            t,
            y,
            &mut writer,
            series.as_mut().filter(|_| frame % vtk_every == 0),
            &mut plots,
        )
        .map_err(|e| DynamicsError::Setup(format!("writing outputs at t = {t} s: {e:#}")))?;
        frame += 1;
        progress.update(t);
        output_wall += begin.elapsed();
        Ok(Flow::Continue)
    });
    let wall = start.elapsed();
    progress.finish();
    writer.finish().context("finishing the output files")?;
    if args.png {
        plots.write(&args.out)?;
    }
    let name = match &integrator {
        Integrator::SemiImplicitEuler { .. } => "semi_implicit_euler",
        Integrator::Dopri5 { .. } => "dopri5",
        Integrator::Radau5 { .. } => "radau5",
    };
    if let Some(hertz) = &world.hertz {
        let c = hertz.stats.counts();
        eprintln!(
            "contactlab: narrow phase: {} queries, {} flagged best estimates, {} failed",
            c.queries, c.best_estimates, c.errors
        );
    }
    let stats = result
        .with_context(|| format!("simulation stopped (outputs up to then are in {})", args.out.display()))?;
    Ok(Summary { stats, integrator: name.into(), wall, output_wall })
}

/// Writes one output row per body, the energies and every touching pair.
fn write_outputs(
    world: &World,
    t: f64,
    y: &[f64],
    writer: &mut SimWriter,
    series: Option<&mut VtkSeries>,
    plots: &mut Plots,
) -> Result<()> {
    let poses = world.poses(t, y);
    for (body, (pose, twist)) in world.bodies.iter().zip(&poses) {
        writer.body(t, &body.name, pose, twist)?;
    }
    let contacts = world.contacts(t, y)?;
    let energies = world.energies_with(t, y, &contacts)?;
    writer.energy(
        t,
        &EnergyRow {
            kinetic: energies.kinetic,
            gravity: energies.gravity,
            elastic: energies.elastic,
            dissipated: energies.dissipated,
            total: energies.total,
        },
    )?;
    plots.energy.push((t, energies));
    for c in &contacts {
        let (a, b) = (&world.bodies[c.a].name, &world.bodies[c.b].name);
        writer.contact(t, a, b, &c.result.wrench, Some(c.result.area))?;
        plots.force(format!("{a}–{b}"), t, c.result.wrench.force.norm());
    }
    if let Some(series) = series {
        let state = |i: usize| BodyState { body: &world.contact[i], pose: poses[i].0, twist: poses[i].1 };
        let mut vertices = Vec::with_capacity(world.bodies.len());
        for (i, body) in world.contact.iter().enumerate() {
            let pose = &poses[i].0;
            vertices.push(match &body.geometry {
                PfGeometry::CompliantMesh(m) => m.mesh.vertices.iter().map(|v| pose * v).collect(),
                PfGeometry::RigidMesh(r) => r.mesh.vertices.iter().map(|v| pose * v).collect(),
                _ => Vec::new(),
            });
        }
        let bodies: Vec<BodyFrame> = world
            .contact
            .iter()
            .enumerate()
            .filter_map(|(i, body)| {
                let cells = match &body.geometry {
                    PfGeometry::CompliantMesh(m) => MeshCells::Tets(&m.mesh.tets),
                    PfGeometry::RigidMesh(r) => MeshCells::Triangles(&r.mesh.triangles),
                    _ => return None,
                };
                Some(BodyFrame { name: &world.bodies[i].name, vertices: &vertices[i], cells })
            })
            .collect();
        let surfaces = contacts
            .iter()
            .map(|c| pressure_field::contact_surface(state(c.a), state(c.b)))
            .collect::<Result<Vec<_>, _>>()?;
        let frames: Vec<ContactFrame> = contacts
            .iter()
            .zip(&surfaces)
            .map(|(c, s)| ContactFrame { a: &world.bodies[c.a].name, b: &world.bodies[c.b].name, surface: s })
            .collect();
        series.write_frame(t, &bodies, &frames)?;
    }
    Ok(())
}

/// The series kept for the PNG plots.
#[derive(Default)]
struct Plots {
    energy: Vec<(f64, crate::dynamics::world::Energies)>,
    /// |F| of each pair over time, in order of first contact.
    forces: Vec<(String, Vec<(f64, f64)>)>,
}

impl Plots {
    fn force(&mut self, pair: String, t: f64, f: f64) {
        match self.forces.iter_mut().find(|(p, _)| *p == pair) {
            Some((_, v)) => v.push((t, f)),
            None => self.forces.push((pair, vec![(t, f)])),
        }
    }

    fn write(&self, dir: &std::path::Path) -> Result<()> {
        let column = |f: fn(&crate::dynamics::world::Energies) -> f64| -> Vec<(f64, f64)> {
            self.energy.iter().map(|(t, e)| (*t, f(e))).collect()
        };
        let (k, g, el, d, tot) = (
            column(|e| e.kinetic),
            column(|e| e.gravity),
            column(|e| e.elastic),
            column(|e| e.dissipated),
            column(|e| e.total),
        );
        let series = [
            ("kinetic", &k[..]),
            ("gravity", &g[..]),
            ("elastic", &el[..]),
            ("dissipated", &d[..]),
            ("total", &tot[..]),
        ];
        app::plot_lines(&dir.join("energy.png"), "energy (J)", "t (s)", &series, 900, 500)?;
        let forces: Vec<(&str, &[(f64, f64)])> =
            self.forces.iter().map(|(n, v)| (n.as_str(), &v[..])).collect();
        app::plot_lines(&dir.join("contact_force.png"), "contact force |F| (N)", "t (s)", &forces, 900, 500)?;
        Ok(())
    }
}
