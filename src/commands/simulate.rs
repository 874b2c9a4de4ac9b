//! `contactlab simulate SCENE.toml --out DIR [--vtk] [--png] [--html]`: integrate a scene and write its
//! trajectory, energies and contacts.

use crate::app::{
    self, BodyFrame, BodyRow, ContactFrame, ContactRow, EnergyRow, MeshCells, Progress, ProgressMode,
    SimWriter, VtkSeries,
};
use crate::contact::model::BodyMesh;
use crate::dynamics::DynamicsError;
use crate::dynamics::ode::Tolerances;
use crate::dynamics::simulate::{self, Flow, Integrator, RunStats, Sample, Schedule, fixed_step_counts};
use crate::dynamics::world::World;
use crate::math::{Isometry3, Twist, compact};
use crate::scene::build_world;
use crate::scene::{ModelKind, Scene};
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
        let correction = if self.stats.largest_elastic_correction > 0.0 {
            format!(
                ", largest correction of the tracked elastic energy {:.3e} J",
                self.stats.largest_elastic_correction
            )
        } else {
            String::new()
        };
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

/// The names of the integrators, for messages.
pub const INTEGRATORS: [&str; 4] = ["implicit_euler", "semi_implicit_euler", "dopri5", "radau5"];

/// The integrator a model runs with when the scene names none: the pressure field's contact
/// stiffness grows with the modulus without bound, so it takes the fixed step that is stable at
/// any stiffness; Hertz contacts start and end at sharp events, which the adaptive dopri5
/// locates exactly (docs/simulation.md).
pub fn default_integrator(model: ModelKind) -> &'static str {
    match model {
        ModelKind::Hertz => "dopri5",
        kind if kind.is_constraint() => "time_stepping",
        _ => "implicit_euler",
    }
}

/// The integrator and schedule (duration, output and exact-energy intervals) a scene asks for,
/// with the documented defaults.
pub fn integrator(scene: &Scene) -> Result<(Integrator, Schedule)> {
    let sim = &scene.sim;
    let name = sim.integrator.as_deref().unwrap_or(default_integrator(scene.model));
    let tolerances = || Tolerances::new(sim.rtol.unwrap_or(1e-6), sim.atol.unwrap_or(1e-8));
    let fixed_step = |name: &str| -> Result<f64> {
        if sim.rtol.is_some() || sim.atol.is_some() {
            bail!(
                "[sim] rtol/atol are for the adaptive integrators (dopri5, radau5), not {name}; remove them or pick one of those"
            );
        }
        let dt = sim.dt.unwrap_or(1e-3);
        if dt > sim.duration {
            bail!(
                "[sim] dt = {} s is longer than duration = {} s (the run would simulate {} s); use dt ≤ duration",
                compact(dt),
                compact(sim.duration),
                compact(dt)
            );
        }
        check_count("steps", "duration / dt", sim.duration / dt, "a larger dt or a shorter duration")?;
        Ok(dt)
    };
    // The constraint model has one integrator of its own, and the others none of it.
    let constraint_model = scene.model.is_constraint();
    if constraint_model && name != "time_stepping" {
        bail!(
            "[sim] integrator `{name}` cannot run kind = \"{}\" (contact impulses, not forces); use integrator = \"time_stepping\" (its default) or remove the key",
            scene.model.key()
        );
    }
    if !constraint_model && name == "time_stepping" {
        bail!(
            "[sim] integrator `time_stepping` is for kind = \"volume6d\" and \"peg\"; use one of: {}",
            INTEGRATORS.join(", ")
        );
    }
    let integrator = match name {
        "time_stepping" => Integrator::TimeStepping { dt: fixed_step(name)? },
        "implicit_euler" => Integrator::ImplicitEuler { dt: fixed_step(name)? },
        "semi_implicit_euler" => Integrator::SemiImplicitEuler { dt: fixed_step(name)? },
        "dopri5" => Integrator::Dopri5 { tolerances: tolerances(), initial_step: sim.dt },
        "radau5" => Integrator::Radau5 { tolerances: tolerances(), initial_step: sim.dt },
        other => bail!("[sim] integrator `{other}` is unknown; use one of: {}", INTEGRATORS.join(", ")),
    };
    let output_dt = sim
        .output_dt
        .unwrap_or_else(|| integrator.fixed_dt().map_or(1e-3, |dt| dt.max(1e-3)))
        .min(sim.duration);
    check_count(
        "output rows",
        "duration / output_dt",
        sim.duration / output_dt,
        "a larger output_dt or a shorter duration",
    )?;
    let mut schedule = Schedule::new(sim.duration, output_dt);
    if let Some(exact) = sim.exact_energy_dt {
        schedule.exact_energy_dt = exact;
    }
    Ok((integrator, schedule))
}

/// What a fixed-step run changes of the scene's times: a `duration` or an `output_dt` that is
/// not a whole number of steps of `dt` is rounded to one (said, not done silently).
/// `asked_output_dt` is the scene's `output_dt`, if it gives one.
pub fn rounding_notes(
    asked_output_dt: Option<f64>,
    integrator: &Integrator,
    schedule: &Schedule,
) -> Vec<String> {
    let Some(dt) = integrator.fixed_dt() else { return Vec::new() };
    let (steps, every) = fixed_step_counts(schedule.duration, schedule.output_dt, dt);
    // Within a billionth: what the division's rounding leaves of a whole number.
    let whole = |n: u64, x: f64| (n as f64 * dt - x).abs() <= 1e-9 * x;
    let mut notes = Vec::new();
    let steps_of = |n: u64| if n == 1 { "1 step".to_owned() } else { format!("{n} steps") };
    if !whole(steps, schedule.duration) {
        notes.push(format!(
            "[sim] duration = {} s is not a whole number of steps of dt = {} s: the run takes {} and ends at t = {} s (a multiple of dt ends where it says)",
            compact(schedule.duration),
            compact(dt),
            steps_of(steps),
            compact(steps as f64 * dt)
        ));
    }
    // The default output_dt (1 ms or dt) is documented as rounded to whole steps; one at least
    // `duration` gives rows at the ends only.
    if let Some(asked) = asked_output_dt
        && asked < schedule.duration
        && !whole(every, schedule.output_dt)
    {
        notes.push(format!(
            "[sim] output_dt = {} s is not a whole number of steps of dt = {} s: a row every {} ({} s)",
            compact(asked),
            compact(dt),
            steps_of(every),
            compact(every as f64 * dt)
        ));
    }
    notes
}

/// The most steps, or output rows, a run may take: beyond this a run would not end in any
/// sensible time (about 10 minutes per 1e6 steps of a small scene, far more of a large one).
pub const MAX_RUN_COUNT: f64 = 1e9;

/// Rejects a run whose `what` (= `ratio`, named `expression`) exceeds [`MAX_RUN_COUNT`].
fn check_count(what: &str, expression: &str, ratio: f64, fix: &str) -> Result<()> {
    if ratio.is_nan() || ratio > MAX_RUN_COUNT {
        bail!(
            "[sim] {expression} = {} {what}, more than the {} a run may take; use {fix}",
            compact(ratio),
            compact(MAX_RUN_COUNT)
        );
    }
    Ok(())
}

/// Wall time between two flushes of the CSV files.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// Most VTK frames written: a frame holds every mesh, so they are thinned to at most this many.
const MAX_VTK_FRAMES: usize = 200;

/// Runs the simulation, writing outputs as it goes. On a failure the outputs written so far
/// are kept and the error says when and which bodies.
pub fn run(scene: &Scene, args: &SimulateArgs) -> Result<Summary> {
    let (integrator, schedule) = integrator(scene)?;
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
    let mut writer = if args.threads == Some(1) {
        SimWriter::create_here(&args.out)
    } else if pool.current_num_threads() >= cores {
        SimWriter::create_sharing_cores(&args.out)
    } else {
        SimWriter::create(&args.out)
    }
    .with_context(|| format!("creating outputs in {}", args.out.display()))?;
    // Constraint models: one row per step of the contact solve.
    let mut solver_csv = match integrator {
        Integrator::TimeStepping { .. } => {
            Some(app::SolverCsv::create(&args.out, scene.model == ModelKind::Peg)?)
        }
        _ => None,
    };
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
    let mut out_of_time = None;
    let result = pool.install(|| {
        simulate::run(&world, &integrator, &schedule, |sample| {
            let begin = Instant::now();
            let t = sample.t;
            let failed =
                |e: anyhow::Error| DynamicsError::Setup(format!("writing outputs at t = {t} s: {e:#}"));
            let out_of_wall_time =
                scene.sim.max_wall_time.filter(|&limit| start.elapsed().as_secs_f64() > limit);
            let stop = out_of_wall_time.is_some() && !sample.last;
            // --no-output: the run keeps its output times (an adaptive run's steps are bounded
            // by them) and writes only its first row, its last and the one a time limit stops.
            if !args.no_output || t == 0.0 || sample.last || stop {
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
            if flushed.elapsed() >= FLUSH_EVERY {
                writer.flush().map_err(|e| failed(e.into()))?;
                if let Some(csv) = solver_csv.as_mut() {
                    csv.flush().map_err(|e| failed(e.into()))?;
                }
                flushed = Instant::now();
            }
            output_wall += begin.elapsed();
            if let (true, Some(limit)) = (stop, out_of_wall_time) {
                out_of_time = Some((t, limit));
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
    if let Some(plots) = &plots {
        plots.write(&args.out)?;
    }
    if let (Some(title), Ok(_)) = (&args.html, &result) {
        let page = super::view::write_page_for(&world, scene, &args.out, title)?;
        eprintln!("contactlab: {}", page.line());
    }
    let name = integrator.name();
    if let Some((counters, _)) = world.model.counters() {
        eprintln!("contactlab: {counters}");
    }
    let stats = result
        .with_context(|| format!("simulation stopped (outputs up to then are in {})", args.out.display()))?;
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
    })
}

/// Writes one output row per body, the energies and every touching pair.
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
        .filter(|(body, _)| body.present(t))
        .map(|(body, (pose, velocity))| BodyRow { name: &body.name, pose: *pose, velocity: *velocity })
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
        })
        .collect();
    writer.contacts(t, &rows)?;
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
