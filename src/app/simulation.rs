//! A simulation with its outputs: the run behind `contactlab simulate` and every run of a sweep
//! (trajectory, energies, contacts, solver reports, VTK series and PNG plots).

use crate::app::{
    self, BodyFrame, BodyRow, ContactFrame, ContactRow, EnergyRow, MeshCells, Progress, ProgressMode,
    SimWriter, VtkSeries, WriterThread,
};
use crate::contact::model::BodyMesh;
use crate::dynamics::DynamicsError;
use crate::dynamics::simulate::{self, Flow, Integrator, RunStats, Sample};
use crate::dynamics::world::World;
use crate::math::{Isometry3, Twist, compact};
use crate::scene::{ModelKind, Scene, build_world, integrator_choice, rounding_notes};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the command was asked to do.
#[derive(Clone, Debug)]
pub struct SimulateArgs {
    pub out: PathBuf,
    pub vtk: bool,
    pub png: bool,
    /// `Some(title)`: after the run, also write the viewer page DIR/view.html titled with the
    /// scene file's name (`--html`; commands/view).
    pub html: Option<String>,
    /// How to show progress on stderr (the CLI: a bar on a terminal, lines in a log, none with
    /// `--quiet`).
    pub progress: ProgressMode,
    /// Worker threads of the run's contact queries (`None`: one per core); `Some(1)` keeps the
    /// whole run, outputs included, on one thread. Results do not depend on it.
    pub threads: Option<usize>,
    /// Also find each touching pair's penetration depth at every output time (one more contact
    /// query per pair; [`Summary::max_penetration`]).
    pub penetration: bool,
    /// Rows only at t = 0 and at the end (or where `max_wall_time` stops the run), and
    /// `solver.csv` only its header (`--no-output`: the physics timed alone). The run is the
    /// same, output times, checks and progress included; only the rows between are not written.
    pub no_output: bool,
}

impl SimulateArgs {
    /// Outputs into `out` every `output_dt`, no VTK, PNG or HTML, no progress, every core, no
    /// penetration.
    pub fn new(out: impl Into<PathBuf>) -> SimulateArgs {
        SimulateArgs {
            out: out.into(),
            vtk: false,
            png: false,
            html: None,
            progress: ProgressMode::Off,
            threads: None,
            penetration: false,
            no_output: false,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub stats: RunStats,
    pub integrator: String,
    /// Wall time of the whole run, and of the outputs within it.
    pub wall: Duration,
    pub output_wall: Duration,
    /// Every body's pose and twist at the last output time.
    pub final_state: Vec<(Isometry3, Twist)>,
    /// The largest |force| of any pair at the output times (N; 0 without contact).
    pub max_contact_force: f64,
    /// The largest penetration depth of any pair at the output times (m;
    /// [`crate::contact::model::ContactModel::penetration`]), when asked for and the model has one.
    pub max_penetration: Option<f64>,
    /// Each `[[measure]]`'s drift at the last output time.
    pub measures: Vec<app::MeasureDrift>,
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
        let mut unconverged = if self.stats.unconverged > 0 {
            format!(", {} steps short of Newton's tolerance", self.stats.unconverged)
        } else {
            String::new()
        };
        if self.stats.fallbacks > 0 {
            unconverged += &format!(
                ", {} LCP fall-backs (regularised, reduced or frictionless solves; per step in solver.csv)",
                self.stats.fallbacks
            );
        }
        let mut correction = if self.stats.largest_elastic_correction > 0.0 {
            format!(
                ", largest correction of the tracked elastic energy {:.3e} J",
                self.stats.largest_elastic_correction
            )
        } else {
            String::new()
        };
        for m in &self.measures {
            correction += &format!(", measure {}: {:.3e} m, {:.3e} rad", m.name, m.distance(), m.rotation);
        }
        format!(
            "simulated {:.4} s with {}: {} steps ({} rejected, {} force evaluations{unconverged}), wall {:.3} s, real-time factor {:.2} ({:.2} without outputs), largest energy excess {:.3e} J{correction}",
            self.stats.t_end,
            self.integrator,
            self.stats.steps,
            self.stats.rejected,
            self.stats.evaluations,
            self.wall.as_secs_f64(),
            rtf,
            rtf_integration,
            self.stats.max_energy_excess
        )
    }
}

/// Wall time between two flushes of the CSV files.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// Output times between two flushes at most: every file is written only on a flush, all of
/// them together after an output time's rows (so a killed run's files end at one output time),
/// and this bounds what they buffer (64 MB a file holds at most: 256 kB per output time).
const FLUSH_OUTPUTS: usize = 256;

/// Most VTK frames written: a frame holds every mesh, so they are thinned to at most this many.
const MAX_VTK_FRAMES: usize = 200;

/// Runs the simulation, writing outputs as it goes. On a failure the outputs written so far
/// are kept and the error says when and which bodies.
pub fn run(scene: &Scene, args: &SimulateArgs) -> Result<Summary> {
    run_with(scene, args, |_| Ok(()))
}

/// [`run`], calling `finished` with the world after a run that succeeded, before the summary
/// (the command line writes its viewer page there).
pub fn run_with(
    scene: &Scene,
    args: &SimulateArgs,
    finished: impl FnOnce(&World) -> Result<()>,
) -> Result<Summary> {
    let (integrator, schedule) = integrator_choice(scene)?;
    for note in rounding_notes(scene.sim.output_dt, &integrator, &schedule) {
        eprintln!("contactlab: {note}");
    }
    let output_dt = schedule.output_dt;
    // The run itself on a worker of a thread pool: the contact queries it spreads over threads
    // many times per step then start without waking the calling thread.
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build().context("starting the worker threads")?;
    let world = pool.install(|| build_world(scene, args.progress != ProgressMode::Off))?;
    // One thread means one: the rows are then formatted on the run's own thread. With a
    // worker on every core, the writer thread steps aside while the workers are busy.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let thread = if args.threads == Some(1) {
        WriterThread::Here
    } else if pool.current_num_threads() >= cores {
        WriterThread::SharingCores
    } else {
        WriterThread::Own
    };
    // joints.csv for a scene with joints only: other scenes' outputs stay as they were.
    let mut writer = SimWriter::create_with(&args.out, thread, world.mechanism.is_some())
        .with_context(|| format!("creating outputs in {}", args.out.display()))?;
    // Constraint models: one row per step of the contact solve.
    let mut solver_csv = match integrator {
        Integrator::TimeStepping { .. } => {
            Some(app::SolverCsv::create(&args.out, scene.model == ModelKind::Peg)?)
        }
        Integrator::ImplicitEuler { .. }
        | Integrator::SemiImplicitEuler { .. }
        | Integrator::Dopri5 { .. }
        | Integrator::Radau5 { .. } => None,
    };
    let mut measures = app::Measures::new(&scene.measures, &world, &args.out, true)?;
    let mut series = if args.vtk { Some(VtkSeries::create(&args.out.join("vtk"))?) } else { None };
    let outputs = (scene.sim.duration / output_dt).ceil() as usize + 1;
    // --no-output writes two frames at most: both kept.
    let vtk_every = if args.no_output { 1 } else { outputs.div_ceil(MAX_VTK_FRAMES).max(1) };
    let mut progress = Progress::new(scene.sim.duration, args.progress);
    // The CSVs are flushed about once a second, so a run that is killed keeps what it computed.
    let mut flushed = Instant::now();
    // The series for the PNG plots, kept only when they are asked for.
    let mut plots = args.png.then(Plots::default);
    let (mut output_wall, mut frame) = (Duration::ZERO, 0usize);
    let (mut final_state, mut max_contact_force) = (Vec::new(), 0.0f64);
    let mut max_penetration = None::<f64>;
    let start = Instant::now();
    let mut world = world;
    // Between outputs the run stops a little past the limit (10% + 50 ms), so that an output
    // due soon after it stops the run there, with its row. (A limit past what an Instant
    // holds is no limit.)
    world.deadline = scene.sim.max_wall_time.and_then(|limit| {
        let grace = Duration::try_from_secs_f64(1.1 * limit + 0.05).ok()?;
        let at = start.checked_add(grace)?;
        Some((at, limit))
    });
    let world = world;
    let mut out_of_time = None;
    let mut interrupted = None;
    app::interrupt::watch();
    let result = pool.install(|| {
        simulate::run(&world, &integrator, &schedule, |sample| {
            let begin = Instant::now();
            let t = sample.t;
            let failed =
                |e: anyhow::Error| DynamicsError::Setup(format!("writing outputs at t = {t} s: {e:#}"));
            let out_of_wall_time =
                scene.sim.max_wall_time.filter(|&limit| start.elapsed().as_secs_f64() > limit);
            let signalled = app::interrupt::requested();
            let stop = (out_of_wall_time.is_some() || signalled) && !sample.last;
            // --no-output: the run keeps its output times (an adaptive run's steps are bounded
            // by them) and writes only its first row, its last and the one a time limit stops.
            let write = !args.no_output || t == 0.0 || sample.last || stop;
            measures.record(t, sample.poses, write).map_err(|e| failed(e.into()))?;
            if write {
                write_outputs(
                    &world,
                    sample,
                    &mut writer,
                    series.as_mut().filter(|_| frame % vtk_every == 0),
                    plots.as_mut(),
                )
                .map_err(failed)?;
            }
            for c in sample.contacts {
                max_contact_force = max_contact_force.max(c.wrench.force.norm());
                if args.penetration
                    && let Some(d) =
                        world.model.penetration((c.a, c.b), sample.poses).map_err(|e| failed(e.into()))?
                {
                    max_penetration = Some(max_penetration.map_or(d, |m| m.max(d)));
                }
            }
            // Copied into the same buffer: no allocation per row.
            final_state.clear();
            final_state.extend_from_slice(sample.poses);
            if let (Some(csv), Integrator::TimeStepping { dt }, false) =
                (solver_csv.as_mut(), &integrator, args.no_output)
            {
                let n = sample.solver.len();
                for (k, r) in sample.solver.iter().enumerate() {
                    let step_end = t - (n - 1 - k) as f64 * dt;
                    csv.row(
                        step_end,
                        (r.sweeps, r.residual, r.unknowns),
                        (r.overlap.unwrap_or(0.0), r.fallbacks),
                    )
                    .map_err(|e| failed(e.into()))?;
                }
            }
            frame += 1;
            progress.update(t);
            if flushed.elapsed() >= FLUSH_EVERY || frame % FLUSH_OUTPUTS == 0 {
                writer.flush().map_err(|e| failed(e.into()))?;
                if let Some(csv) = solver_csv.as_mut() {
                    csv.flush().map_err(|e| failed(e.into()))?;
                }
                measures.flush().map_err(|e| failed(e.into()))?;
                flushed = Instant::now();
            }
            output_wall += begin.elapsed();
            if let (true, Some(limit)) = (stop, out_of_wall_time) {
                out_of_time = Some((t, limit));
                return Ok(Flow::Stop);
            }
            if stop && signalled {
                interrupted = Some(t);
                return Ok(Flow::Stop);
            }
            Ok(Flow::Continue)
        })
    });
    let wall = start.elapsed();
    progress.finish();
    writer.finish().context("finishing the output files")?;
    // A failed last write must not pass silently (a dropped buffer ignores its flush's error).
    if let Some(mut csv) = solver_csv {
        csv.flush().context("finishing solver.csv")?;
    }
    measures.flush().context("finishing measures.csv")?;
    if let Some(plots) = &plots {
        plots.write(&args.out)?;
    }
    if result.is_ok() {
        finished(&world)?;
    }
    let name = integrator.name();
    if let Some((counters, _)) = world.model.counters() {
        eprintln!("contactlab: {counters}");
    }
    let stats = result
        .with_context(|| format!("simulation stopped (outputs up to then are in {})", args.out.display()))?;
    if let Some(t) = interrupted {
        bail!(
            "simulation stopped at t = {} s of {} s by SIGTERM or SIGINT (outputs up to then, whole rows, are in {}); run it again to finish",
            compact(t),
            compact(scene.sim.duration),
            args.out.display()
        );
    }
    if let Some((t, limit)) = out_of_time {
        bail!(
            "simulation stopped at t = {} s of {} s: it reached [sim] max_wall_time = {} s (outputs up to then are in {}); raise max_wall_time or remove it",
            compact(t),
            compact(scene.sim.duration),
            compact(limit),
            args.out.display()
        );
    }
    Ok(Summary {
        stats,
        integrator: name.into(),
        wall,
        output_wall,
        final_state,
        max_contact_force,
        max_penetration,
        measures: measures.last(),
    })
}

/// Writes one output row per body, the energies, every touching pair and every joint
/// coordinate.
fn write_outputs(
    world: &World,
    sample: &Sample,
    writer: &mut SimWriter,
    series: Option<&mut VtkSeries>,
    mut plots: Option<&mut Plots>,
) -> Result<()> {
    let (t, contacts, energies, poses) = (sample.t, sample.contacts, sample.energies, sample.poses);
    // Bodies that have not entered yet (PEG's appear_time) have no rows.
    let rows: Vec<BodyRow> = world
        .bodies
        .iter()
        .zip(poses)
        .enumerate()
        .filter(|(i, _)| world.model.present(*i, t))
        .map(|(_, (body, (pose, velocity)))| BodyRow { name: &body.name, pose: *pose, velocity: *velocity })
        .collect();
    writer.bodies(t, &rows)?;
    writer.energy(
        t,
        &EnergyRow {
            kinetic: energies.kinetic,
            gravity: energies.gravity,
            elastic: energies.elastic,
            dissipated: energies.dissipated,
            total: energies.total,
            joints: world.mechanism.as_ref().map(|m| (m.joint_damping(sample.y), m.actuator_work(sample.y))),
        },
    )?;
    if let Some(plots) = plots.as_deref_mut() {
        plots.energy.push((t, energies));
    }
    let rows: Vec<ContactRow> = contacts
        .iter()
        .map(|c| ContactRow {
            a: &world.bodies[c.a].name,
            b: &world.bodies[c.b].name,
            wrench: c.wrench,
            area: Some(c.area.unwrap_or(0.0)),
            centre: contact_centre(world, c, poses).map(|centre| normal_force_and_slip(c, centre, poses)),
        })
        .collect();
    writer.contacts(t, &rows)?;
    if let Some(m) = &world.mechanism {
        writer.joints(t, &m.joint_rows(t, sample.y))?;
    }
    if let Some(plots) = plots {
        for r in &rows {
            plots.force(format!("{}–{}", r.a, r.b), t, r.wrench.force.norm());
        }
    }
    if let Some(series) = series {
        let meshes: Vec<Option<BodyMesh>> =
            (0..world.bodies.len()).map(|i| world.model.body_mesh(i)).collect();
        let vertices: Vec<Vec<_>> = meshes
            .iter()
            .zip(poses)
            .map(|(m, (pose, _))| match m {
                Some(BodyMesh::Tets { vertices, .. } | BodyMesh::Triangles { vertices, .. }) => {
                    vertices.iter().map(|v| pose * v).collect()
                }
                None => Vec::new(),
            })
            .collect();
        let bodies: Vec<BodyFrame> = meshes
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let cells = match m {
                    Some(BodyMesh::Tets { tets, .. }) => MeshCells::Tets(tets),
                    Some(BodyMesh::Triangles { triangles, .. }) => MeshCells::Triangles(triangles),
                    None => return None,
                };
                Some(BodyFrame { name: &world.bodies[i].name, vertices: &vertices[i], cells })
            })
            .collect();
        let mut surfaces = Vec::with_capacity(contacts.len());
        for c in contacts {
            if let Some(s) = world.model.surface((c.a, c.b), poses)? {
                surfaces.push((c, s));
            }
        }
        let frames: Vec<ContactFrame> = surfaces
            .iter()
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

/// The normal force (N, the wrench's force along the normal out of b into a) and the tangential
/// slip speed of a relative to b (m/s) at a pair's contact centre.
fn normal_force_and_slip(
    c: &crate::contact::model::PairContact,
    (point, normal): (crate::math::Point3, crate::math::Vector3),
    poses: &[(Isometry3, Twist)],
) -> (f64, f64) {
    let at = |i: usize| {
        let (pose, twist) = &poses[i];
        twist.velocity_at(&crate::math::Point3::from(pose.translation.vector), &point)
    };
    let relative = at(c.a) - at(c.b);
    let slip = relative - normal * normal.dot(&relative);
    (c.wrench.force.dot(&normal), slip.norm())
}

/// A pair's contact centre and normal: the model's, else its surface's centre of pressure (the
/// pressure field's: one more query of the pair, at output times only).
fn contact_centre(
    world: &World,
    c: &crate::contact::model::PairContact,
    poses: &[(Isometry3, Twist)],
) -> Option<(crate::math::Point3, crate::math::Vector3)> {
    c.centre.or_else(|| world.model.surface((c.a, c.b), poses).ok().flatten()?.centre_of_pressure())
}
