//! `contactlab sweep SCENE.toml --set KEY=V1,V2 … --out DIR [--jobs N]`: one scene run with
//! every combination of values (or Latin-hypercube samples of ranges) on local cores, with one
//! summary row per run.

use crate::app::ProgressMode;
use crate::sweep::{self, Plan, RunRecord, RunStatus, SweepOptions, grid};
use anyhow::Result;
use std::path::PathBuf;

/// What the command was asked to do.
#[derive(Clone, Debug)]
pub struct SweepArgs {
    pub scene: PathBuf,
    pub out: PathBuf,
    /// `KEY=V1,V2,…` lists.
    pub set: Vec<String>,
    /// `KEY=LO:HI` intervals, sampled `samples` times.
    pub range: Vec<String>,
    pub samples: Option<usize>,
    pub seed: u64,
    /// Runs at once; `None`: one per core.
    pub jobs: Option<usize>,
    pub progress: ProgressMode,
}

/// Reads the arguments into a plan, runs it and returns the records in run order.
pub fn run(args: &SweepArgs) -> Result<Vec<RunRecord>> {
    let sets = args.set.iter().map(|s| grid::parse_set(s)).collect::<Result<Vec<_>, _>>()?;
    let ranges = args.range.iter().map(|r| grid::parse_range(r)).collect::<Result<Vec<_>, _>>()?;
    let plan = Plan::new(&sets, &ranges, args.samples, args.seed)?;
    let jobs = match args.jobs {
        Some(0) => anyhow::bail!("--jobs 0: a sweep needs at least one job; give --jobs N with N ≥ 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let options = SweepOptions { out: args.out.clone(), jobs, progress: args.progress };
    Ok(sweep::run_sweep(&args.scene, &plan, &options)?)
}

/// The line the command prints: runs, how many failed, where the summary is.
pub fn summary_line(records: &[RunRecord], out: &std::path::Path) -> String {
    let failed = records.iter().filter(|r| r.status == RunStatus::Failed).count();
    let wall: f64 = records.iter().map(|r| r.wall_time).sum();
    format!(
        "swept {} runs: {} ok, {failed} failed; {:.3} s of run time in all; summary in {}",
        records.len(),
        records.len() - failed,
        wall,
        out.join("summary.csv").display()
    )
}
