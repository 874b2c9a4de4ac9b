//! Running a sweep on local cores: each run single-threaded in its own folder, as many at once
//! as `--jobs`; runs already finished (their `result.json` saved) are skipped.

use super::grid::display_value;
use super::overrides::scene_text;
use super::record::{FinalPose, RunRecord, RunStatus};
use super::{Plan, SweepError, write_summary};
use crate::app::simulation::{self as simulate, SimulateArgs};
use crate::app::{Progress, ProgressMode};
use crate::scene::{Scene, parse_scene};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// How a sweep runs.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The output folder: `summary.csv`, `sweep.json` and `runs/NNNN/` for each run.
    pub out: PathBuf,
    /// Runs at once (each on one thread).
    pub jobs: usize,
    pub progress: ProgressMode,
}

/// What `sweep.json` holds: enough to tell whether a folder's finished runs belong to this
/// sweep.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct SweepFile {
    /// FNV-1a hash of the base scene's text (hex).
    scene_hash: String,
    keys: Vec<String>,
    runs: Vec<Vec<String>>,
}

/// Runs every run of `plan` on the scene at `scene_path` (or skips it when it finished before),
/// writes `summary.csv` and returns the records in run order. A run that fails is a record
/// with its message; only problems of the sweep itself (arguments, keys, the base scene, the
/// output folder) are errors.
pub fn run_sweep(
    scene_path: &Path,
    plan: &Plan,
    options: &SweepOptions,
) -> Result<Vec<RunRecord>, SweepError> {
    let text = std::fs::read_to_string(scene_path).map_err(SweepError::io(scene_path))?;
    let base_dir = scene_path.parent().unwrap_or(Path::new("."));
    run_sweep_text(&text, base_dir, plan, options).map(|(records, _)| records)
}

/// Every run's scene text: the base scene `text` (validated first, relative mesh files
/// resolved against `base_dir`) with the run's values in it. A key that leads nowhere is an
/// error here, before any run. Also returns the bodies whose final poses the summary lists.
pub fn run_scenes(
    text: &str,
    base_dir: &Path,
    plan: &Plan,
) -> Result<(Vec<String>, Vec<String>), SweepError> {
    let base = parse_scene(text, base_dir)?;
    let table: toml::Table = toml::from_str(text).expect("a scene that validated is TOML");
    let scenes = plan.runs.iter().map(|run| scene_text(&table, run)).collect::<Result<Vec<_>, _>>()?;
    Ok((scenes, moving_bodies(&base)))
}

/// [`run_sweep`] of a scene given as text; relative mesh files resolve against `base_dir`.
/// Also returns the summary's moving bodies.
pub fn run_sweep_text(
    text: &str,
    base_dir: &Path,
    plan: &Plan,
    options: &SweepOptions,
) -> Result<(Vec<RunRecord>, Vec<String>), SweepError> {
    let (scenes, bodies) = run_scenes(text, base_dir, plan)?;
    let cells: Vec<Vec<String>> =
        plan.runs.iter().map(|run| run.iter().map(|(_, v)| display_value(v)).collect()).collect();

    let out = &options.out;
    std::fs::create_dir_all(out.join("runs")).map_err(SweepError::io(out))?;
    check_sweep_file(
        out,
        SweepFile { scene_hash: fnv1a(text), keys: plan.keys.clone(), runs: cells.clone() },
    )?;

    let run_dir = |i: usize| out.join(run_folder(i, plan.runs.len()));
    let mut records: Vec<Option<RunRecord>> = (0..plan.runs.len())
        .map(|i| {
            let path = run_dir(i).join("result.json");
            // Failed runs run again: a failure may be the machine's (time limit, full disk).
            RunRecord::load(&path)
                .ok()
                .filter(|r| r.run == i && r.values == cells[i] && r.status == RunStatus::Ok)
        })
        .collect();
    let pending: Vec<usize> = (0..plan.runs.len()).filter(|&i| records[i].is_none()).collect();

    let mut progress = Progress::counting(plan.runs.len(), "runs", options.progress);
    let mut done = plan.runs.len() - pending.len();
    progress.update(done as f64);
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    let jobs = options.jobs.clamp(1, pending.len().max(1));
    let saved: Result<(), SweepError> = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let send = send.clone();
            let (next, pending, scenes, cells) = (&next, &pending, &scenes, &cells);
            scope.spawn(move || {
                while let Some(&i) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let record = run_one(&scenes[i], base_dir, i, cells[i].clone(), &run_dir(i));
                    if send.send((i, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for (i, record) in receive {
            record.save(&run_dir(i).join("result.json"))?;
            records[i] = Some(record);
            done += 1;
            progress.update(done as f64);
        }
        Ok(())
    });
    progress.finish();
    saved?;
    let records: Vec<RunRecord> = records.into_iter().map(|r| r.expect("every run has a record")).collect();
    write_summary(&out.join("summary.csv"), &plan.keys, &bodies, &records)?;
    Ok((records, bodies))
}

/// The bodies whose final poses the summary lists: every body that is not fixed.
pub fn moving_bodies(scene: &Scene) -> Vec<String> {
    scene.bodies.iter().filter(|b| !b.fixed).map(|b| b.name.clone()).collect()
}

/// One run: the scene `text` (relative mesh files resolved against `base_dir`) simulated on
/// one thread into `dir` (which also gets the scene as `scene.toml`). Never fails: what went
/// wrong is the record's message.
pub fn run_one(text: &str, base_dir: &Path, run: usize, values: Vec<String>, dir: &Path) -> RunRecord {
    let start = Instant::now();
    let mut record = RunRecord {
        run,
        values,
        status: RunStatus::Failed,
        message: String::new(),
        t_end: None,
        bodies: Vec::new(),
        max_penetration: None,
        max_contact_force: None,
        energy_excess: None,
        steps: None,
        wall_time: 0.0,
        host: host_name(),
    };
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| simulate_one(text, base_dir, dir)));
    match outcome {
        Ok(Ok((scene, summary))) => {
            record.status = RunStatus::Ok;
            record.t_end = Some(summary.stats.t_end);
            record.bodies = scene
                .bodies
                .iter()
                .zip(&summary.final_state)
                .filter(|(b, _)| !b.fixed)
                .map(|(b, (pose, _))| {
                    let q = pose.rotation.quaternion();
                    FinalPose {
                        body: b.name.clone(),
                        position: pose.translation.vector.into(),
                        orientation: [q.w, q.i, q.j, q.k],
                    }
                })
                .collect();
            record.max_penetration = summary.max_penetration;
            record.max_contact_force = Some(summary.max_contact_force);
            record.energy_excess = Some(summary.stats.max_energy_excess);
            record.steps = Some(summary.stats.steps);
        }
        // The folder is named the same way by every backend: the rows stay comparable.
        Ok(Err(message)) => record.message = message.replace(&dir.display().to_string(), "the run's folder"),
        Err(panic) => record.message = internal_error(panic.as_ref()),
    }
    record.wall_time = start.elapsed().as_secs_f64();
    record
}

/// The message of a run that panicked: a bug, with what the panic said.
pub fn internal_error(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    format!("internal error (a bug of contactlab; please report it): {what}")
}

/// One run given as the base scene `text` and the run's values (what a remote worker gets):
/// [`run_one`] of the scene with the values written in. A key that leads nowhere is an error.
pub fn run_assignment(
    text: &str,
    base_dir: &Path,
    run: usize,
    assignment: &super::Assignment,
    dir: &Path,
) -> Result<RunRecord, SweepError> {
    let table = scene_table(text, base_dir)?;
    let scene = scene_text(&table, assignment)?;
    let values = assignment.iter().map(|(_, v)| display_value(v)).collect();
    Ok(run_one(&scene, base_dir, run, values, dir))
}

/// The folder of run `i` of `total` under a sweep's output folder: `runs/NNNN` (at least four
/// digits, as many as the last run needs).
pub fn run_folder(i: usize, total: usize) -> String {
    let width = total.saturating_sub(1).to_string().len().max(4);
    format!("runs/{i:0width$}")
}

/// A scene's text as a TOML table (text that is not TOML is an error).
pub(crate) fn scene_table(text: &str, base_dir: &Path) -> Result<toml::Table, SweepError> {
    toml::from_str(text).map_err(|e| SweepError::Corrupt {
        path: base_dir.join("(scene text)"),
        problem: format!("not TOML: {e}"),
        fix: "fix the scene file's TOML".into(),
    })
}

fn simulate_one(text: &str, base_dir: &Path, dir: &Path) -> Result<(Scene, simulate::Summary), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    let scene = parse_scene(text, base_dir).map_err(|e| e.to_string())?;
    let args = SimulateArgs { threads: Some(1), penetration: true, ..SimulateArgs::new(dir) };
    let summary = simulate::run(&scene, &args).map_err(|e| format!("{e:#}"))?;
    Ok((scene, summary))
}

/// Writes `sweep.json`, or checks that the one there describes the same sweep.
fn check_sweep_file(out: &Path, file: SweepFile) -> Result<(), SweepError> {
    let path = out.join("sweep.json");
    if path.exists() {
        let text = std::fs::read_to_string(&path).map_err(SweepError::io(&path))?;
        let old: SweepFile = serde_json::from_str(&text).map_err(|e| SweepError::Corrupt {
            path: path.clone(),
            problem: format!("not a sweep's record ({e})"),
            fix: "delete it (or the whole folder) to start the sweep again, or give another --out".into(),
        })?;
        let what = if old.scene_hash != file.scene_hash {
            "the scene file changed"
        } else if old.keys != file.keys {
            "other keys"
        } else if old.runs != file.runs {
            "other values"
        } else {
            return Ok(());
        };
        return Err(SweepError::Different { dir: out.into(), what: what.into() });
    }
    let text = serde_json::to_string_pretty(&file).expect("plain data");
    std::fs::write(&path, text).map_err(SweepError::io(&path))
}

/// 64-bit FNV-1a of `text`, in hex.
fn fnv1a(text: &str) -> String {
    let hash =
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// This machine's name (empty where it cannot be read).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default()
}
