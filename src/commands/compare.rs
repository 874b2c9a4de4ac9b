//! `contactlab compare SCENE.toml --models pressure_field,hertz,volume6d,peg --out DIR`: one
//! scene under several contact models side by side (each run on one thread, as many at once as
//! there are cores), each in `DIR/<model>/` with its viewer page, one row per model in
//! `DIR/compare.csv` and the chosen bodies' positions and rotations overlaid in PNG plots.

use crate::app::simulation::{SimulateArgs, Summary};
use crate::app::{ProgressMode, plot_lines, write_csv_text};
use crate::contact::ModelKind;
use crate::math::{Isometry3, Translation3, UnitQuaternion, Vector3, compact};
use crate::scene::{Scene, parse_scene};
use crate::sweep::overrides::apply;
use crate::sweep::runner::internal_error;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the command was asked to do.
#[derive(Clone, Debug)]
pub struct CompareArgs {
    pub scene: PathBuf,
    pub models: Vec<ModelKind>,
    pub out: PathBuf,
    /// The bodies whose motion is plotted; empty: every body that is not fixed (at most
    /// [`DEFAULT_PLOTTED`]).
    pub bodies: Vec<String>,
    /// Runs at once; `None`: one per core.
    pub jobs: Option<usize>,
    pub progress: ProgressMode,
}

/// Bodies plotted when none are named.
pub const DEFAULT_PLOTTED: usize = 4;

/// The columns of `compare.csv` before the measures' ([`MEASURE_COLUMNS`] each, prefixed
/// `NAME_`) and the message.
pub const COMPARE_COLUMNS: [&str; 8] = [
    "model",
    "status",
    "wall_time",
    "real_time_factor",
    "max_penetration",
    "max_contact_force",
    "energy_excess",
    "steps",
];

/// Each measure's columns in `compare.csv`: its drift at the end (m, rad) and the largest at any
/// output time.
pub const MEASURE_COLUMNS: [&str; 4] = ["translation", "rotation", "largest_translation", "largest_rotation"];

/// One model's run.
#[derive(Debug)]
pub struct ModelRun {
    pub model: ModelKind,
    /// The run's summary, or why the scene did not load or the run stopped.
    pub outcome: Result<Summary, String>,
    /// Wall time of the whole run, meshing included (s).
    pub wall_time: f64,
}

/// Parses a `--models` list: comma-separated model names, each once.
pub fn parse_models(list: &str) -> Result<Vec<ModelKind>> {
    let mut models = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some(kind) = ModelKind::ALL.into_iter().find(|k| k.key() == name) else {
            bail!(
                "--models: `{name}` is not a contact model; use a comma-separated list of pressure_field, hertz, volume6d, peg"
            );
        };
        if models.contains(&kind) {
            bail!("--models: `{name}` is listed twice; list each model once");
        }
        models.push(kind);
    }
    if models.is_empty() {
        bail!("--models: no model given; list one or more of pressure_field, hertz, volume6d, peg");
    }
    Ok(models)
}

/// Runs the scene under each model, writes `compare.csv` and the plots, and returns the runs in
/// the order of `args.models`. A model whose scene does not load or whose run stops is a row
/// with its message; only problems of the comparison itself (the scene file, the bodies to
/// plot, the output folder) are errors.
pub fn run(args: &CompareArgs) -> Result<Vec<ModelRun>> {
    let text = std::fs::read_to_string(&args.scene)
        .with_context(|| format!("cannot read scene file {}; check the path", args.scene.display()))?;
    let base_dir = args.scene.parent().unwrap_or(Path::new("."));
    let table: toml::Table = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("scene file is not valid TOML: {e}; fix the syntax"))?;
    let texts: Vec<String> = args
        .models
        .iter()
        .map(|m| {
            let mut t = table.clone();
            apply(&mut t, "model.kind", toml::Value::String(m.key().into()))?;
            Ok(toml::to_string(&t)?)
        })
        .collect::<Result<_>>()?;
    // The bodies and measures, from the first model's scene that loads.
    let reference = texts.iter().find_map(|t| parse_scene(t, base_dir).ok());
    let plotted = plotted_bodies(args, reference.as_ref())?;
    let measures: Vec<String> =
        reference.as_ref().map(|s| s.measures.iter().map(|m| m.name.clone()).collect()).unwrap_or_default();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the output folder {}", args.out.display()))?;
    if args.jobs == Some(0) {
        bail!("--jobs 0: a comparison needs at least one job; give --jobs N with N ≥ 1");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.jobs.unwrap_or(cores).clamp(1, args.models.len());
    let title = crate::commands::view::title(&args.scene);
    let next = AtomicUsize::new(0);
    let runs: Mutex<Vec<Option<ModelRun>>> = Mutex::new(args.models.iter().map(|_| None).collect());
    let mut progress = crate::app::Progress::counting(args.models.len(), "models", args.progress);
    let done = AtomicUsize::new(0);
    let progress_lock = Mutex::new(&mut progress);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                while let Some(k) =
                    Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&k| k < args.models.len())
                {
                    let model = args.models[k];
                    let dir = args.out.join(model.key());
                    let run = run_model(model, &texts[k], base_dir, &dir, &title);
                    runs.lock().expect("no run panics holding it")[k] = Some(run);
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress_lock.lock().expect("no run panics holding it").update(finished as f64);
                }
            });
        }
    });
    progress.finish();
    let runs: Vec<ModelRun> = runs
        .into_inner()
        .expect("no run panics holding it")
        .into_iter()
        .map(|r| r.expect("every model ran"))
        .collect();
    write_table(&args.out.join("compare.csv"), &runs, &measures)?;
    for body in &plotted {
        plot_body(&args.out, body, &runs)?;
    }
    Ok(runs)
}

/// The bodies to plot: those named (each must exist), else the first moving ones.
fn plotted_bodies(args: &CompareArgs, scene: Option<&Scene>) -> Result<Vec<String>> {
    let Some(scene) = scene else { return Ok(args.bodies.clone()) };
    for name in &args.bodies {
        if scene.body(name).is_none() {
            let moving: Vec<&str> =
                scene.bodies.iter().filter(|b| !b.fixed).map(|b| b.name.as_str()).collect();
            bail!("--bodies: the scene has no body `{name}`; name one of: {}", moving.join(", "));
        }
    }
    if !args.bodies.is_empty() {
        return Ok(args.bodies.clone());
    }
    Ok(scene
        .bodies
        .iter()
        .filter(|b| !b.fixed && b.shape.is_some())
        .take(DEFAULT_PLOTTED)
        .map(|b| b.name.clone())
        .collect())
}

/// One model's run into `dir` on one thread, with its viewer page; never fails (what went wrong
/// is the outcome's message).
fn run_model(model: ModelKind, text: &str, base_dir: &Path, dir: &Path, title: &str) -> ModelRun {
    let start = std::time::Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let scene = parse_scene(text, base_dir).map_err(|e| e.to_string())?;
        let args = SimulateArgs {
            threads: Some(1),
            penetration: true,
            html: Some(format!("{title} ({})", model.key())),
            ..SimulateArgs::new(dir)
        };
        crate::commands::simulate::run(&scene, &args).map_err(|e| crate::commands::error_message(&e))
    }))
    .unwrap_or_else(|panic| Err(internal_error(panic.as_ref())));
    ModelRun { model, outcome, wall_time: start.elapsed().as_secs_f64() }
}

/// `compare.csv`: one row per model.
fn write_table(path: &Path, runs: &[ModelRun], measures: &[String]) -> Result<()> {
    let mut header: Vec<String> = COMPARE_COLUMNS.iter().map(|c| c.to_string()).collect();
    for m in measures {
        for column in MEASURE_COLUMNS {
            header.push(format!("{m}_{column}"));
        }
    }
    header.push("message".into());
    let mut text = header.join(",") + "\n";
    let num = |v: Option<f64>| v.map(compact).unwrap_or_default();
    for run in runs {
        let mut cells: Vec<String> = vec![run.model.key().into()];
        match &run.outcome {
            Ok(s) => {
                cells.push("ok".into());
                cells.push(compact(run.wall_time));
                cells.push(compact(s.real_time_factors().1));
                cells.push(num(s.max_penetration));
                cells.push(compact(s.max_contact_force));
                cells.push(compact(s.stats.max_energy_excess));
                cells.push(s.stats.steps.to_string());
                for name in measures {
                    let m = s.measures.iter().find(|m| &m.name == name);
                    cells.push(num(m.map(|m| m.distance())));
                    cells.push(num(m.map(|m| m.rotation)));
                    cells.push(num(m.map(|m| m.largest.0)));
                    cells.push(num(m.map(|m| m.largest.1)));
                }
                cells.push(String::new());
            }
            Err(message) => {
                cells.push("failed".into());
                cells.push(compact(run.wall_time));
                let blank = COMPARE_COLUMNS.len() - 3 + MEASURE_COLUMNS.len() * measures.len();
                cells.extend(std::iter::repeat_n(String::new(), blank));
                cells.push(csv_quoted(message));
            }
        }
        text += &(cells.join(",") + "\n");
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}; check the folder", path.display()))
}

/// A CSV field holding `text`.
fn csv_quoted(text: &str) -> String {
    let mut field = Vec::new();
    write_csv_text(&mut field, text);
    String::from_utf8(field).expect("text in, text out")
}

/// `DIR/<body>_position.png` (x, y, z of each model) and `DIR/<body>_rotation.png` (the angle
/// turned since the start, degrees), from each model's `trajectory.csv`.
fn plot_body(out: &Path, body: &str, runs: &[ModelRun]) -> Result<()> {
    let mut positions: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut rotations: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for run in runs.iter().filter(|r| r.outcome.is_ok()) {
        let dir = out.join(run.model.key());
        let poses = read_poses(&dir.join("trajectory.csv"), body)?;
        let Some(first) = poses.first().map(|(_, p)| *p) else { continue };
        for (axis, label) in ["x", "y", "z"].iter().enumerate() {
            let series: Vec<(f64, f64)> =
                poses.iter().map(|(t, p)| (*t, p.translation.vector[axis])).collect();
            positions.push((format!("{} {label}", run.model.key()), series));
        }
        let angles =
            poses.iter().map(|(t, p)| (*t, first.rotation.angle_to(&p.rotation).to_degrees())).collect();
        rotations.push((run.model.key().into(), angles));
    }
    // A coordinate that stays put under every model (within 1 µm) is left out.
    let moves = |label: &str| {
        positions.iter().filter(|(n, _)| n.ends_with(label)).any(|(_, s)| {
            let (lo, hi) = s.iter().fold((f64::MAX, f64::MIN), |(lo, hi), (_, v)| (lo.min(*v), hi.max(*v)));
            hi - lo > 1e-6
        })
    };
    let kept: Vec<&str> = [" x", " y", " z"].into_iter().filter(|l| moves(l)).collect();
    positions.retain(|(n, _)| kept.iter().any(|l| n.ends_with(l)));
    let file = body.replace(['/', '\\', ' '], "_");
    for (series, suffix, title) in
        [(&positions, "position", "position (m)"), (&rotations, "rotation", "rotation since the start (deg)")]
    {
        let borrowed: Vec<(&str, &[(f64, f64)])> = series.iter().map(|(n, s)| (n.as_str(), &s[..])).collect();
        let path = out.join(format!("{file}_{suffix}.png"));
        plot_lines(&path, &format!("{body}: {title}"), "t (s)", &borrowed, 900, 500)
            .with_context(|| format!("plotting {}", path.display()))?;
    }
    Ok(())
}

/// The poses of `body` at each output time of a `trajectory.csv`.
fn read_poses(path: &Path, body: &str) -> Result<Vec<(f64, Isometry3)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() < 9 || cells[1] != body {
            continue;
        }
        let v: Vec<f64> = cells
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != 1)
            .take(8)
            .map(|(_, c)| c.parse().unwrap_or(f64::NAN))
            .collect();
        if v.iter().any(|x| !x.is_finite()) {
            bail!("{} line {}: not a whole row of numbers; run the comparison again", path.display(), n + 1);
        }
        let rotation = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(v[4], v[5], v[6], v[7]));
        out.push((v[0], Isometry3::from_parts(Translation3::from(Vector3::new(v[1], v[2], v[3])), rotation)));
    }
    Ok(out)
}

/// The line the command prints: each model's status and real-time factor, and where the table is.
pub fn summary_line(runs: &[ModelRun], out: &Path) -> String {
    let parts: Vec<String> = runs
        .iter()
        .map(|r| match &r.outcome {
            Ok(s) => format!("{} ok (real-time factor {:.3})", r.model.key(), s.real_time_factors().1),
            Err(_) => format!("{} failed", r.model.key()),
        })
        .collect();
    format!(
        "compared {} models: {}; table in {}",
        runs.len(),
        parts.join(", "),
        out.join("compare.csv").display()
    )
}
