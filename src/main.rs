//! The `contactlab` command line. See `contactlab --help` and DESIGN.md for the contract.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use contactlab::commands::contact::{self, ContactArgs};
use contactlab::commands::view;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "contactlab", version, about = "Contact-rich rigid-body simulation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate every contacting pair at the scene's initial state.
    Contact {
        /// The scene file (TOML).
        scene: PathBuf,
        /// Print one JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Time the query over this many evaluations (micros_per_query is the mean).
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Write each contact surface and each body's mesh as legacy VTK files into this folder.
        #[arg(long)]
        vtk: Option<PathBuf>,
        /// Draw each contact patch as a pressure heat map into this PNG file.
        #[arg(long)]
        png: Option<PathBuf>,
    },
    /// Integrate the scene; write trajectory.csv, energy.csv and contacts.csv into DIR.
    Simulate {
        /// The scene file (TOML).
        scene: PathBuf,
        /// The output folder (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Also write ParaView series of the bodies and contact surfaces (DIR/vtk/*.pvd).
        #[arg(long)]
        vtk: bool,
        /// Also plot energies and contact forces against time (DIR/energy.png, DIR/contact_force.png).
        #[arg(long)]
        png: bool,
        /// Also write the viewer page DIR/view.html (as `contactlab view` does).
        #[arg(long)]
        html: bool,
        /// Show no progress and no warnings on stderr (by default: a bar on a terminal, a line every
        /// 5 s in a log, and the scene's warnings).
        #[arg(long, short)]
        quiet: bool,
        /// Write rows only at t = 0 and at the end, whatever [sim] output_dt says: the physics
        /// timed alone.
        #[arg(long)]
        no_output: bool,
    },
    /// Run a scene many times with some of its keys changed, on local cores; write each run's
    /// outputs into DIR/runs/NNNN and one row per run into DIR/summary.csv. Runs already
    /// finished in DIR are skipped. Exits with 1 when any run failed (its row says why).
    Sweep {
        /// The base scene file (TOML).
        scene: PathBuf,
        /// The output folder (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// KEY=V1,V2,…: the values of a scene key (`sim.dt`, `body.NAME.contact.friction`,
        /// `body.NAME.position.2`, …); runs take the cartesian product of every --set.
        #[arg(long, value_name = "KEY=V1,V2,…")]
        set: Vec<String>,
        /// KEY=LO:HI: an interval sampled by Latin hypercube (with --samples).
        #[arg(long, value_name = "KEY=LO:HI")]
        range: Vec<String>,
        /// Latin-hypercube samples of the --range intervals (each combination of --set values
        /// runs with every sample).
        #[arg(long)]
        samples: Option<usize>,
        /// Seed of the sampling (the same seed gives the same samples).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Runs at once, each on one thread (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Show no progress on stderr.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Run one scene under several contact models side by side (each on one thread, as many at
    /// once as there are cores): each run in DIR/<model>/ with its view.html, one row per model
    /// in DIR/compare.csv, the bodies' positions and rotations overlaid in DIR/<body>_*.png.
    /// Exits with 1 when any model's run failed (its row says why).
    Compare {
        /// The scene file (TOML); its `[model] kind` is replaced by each model's.
        scene: PathBuf,
        /// The models, comma-separated.
        #[arg(long, default_value = "pressure_field,hertz,volume6d,peg")]
        models: String,
        /// The output folder (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// The bodies to plot, comma-separated (default: the first four that move).
        #[arg(long, value_delimiter = ',')]
        bodies: Vec<String>,
        /// Runs at once (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Show no progress on stderr.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write OUT_DIR/view.html: a `simulate` run played in any browser (docs/viewer.md).
    View {
        /// The scene file (TOML) the run simulated.
        scene: PathBuf,
        /// The `simulate --out` folder.
        out_dir: PathBuf,
        /// Open the page with the platform's opener (xdg-open, open); a failure is a warning.
        #[arg(long)]
        open: bool,
    },
    /// Show what a robot file (URDF .urdf, MJCF .xml) or a scene (.toml) holds: bodies with mass,
    /// centre of mass and shapes, joints, actuators, couplers, and what a robot file's reader
    /// skipped.
    Inspect {
        /// The robot file or scene.
        file: PathBuf,
        /// Where a URDF's package://NAME/… resolves (besides CONTACTLAB_PACKAGE_PATH).
        #[arg(long = "package-path", value_name = "DIR")]
        package_paths: Vec<PathBuf>,
        /// Print one JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Write a compliant body's tet mesh and pressure field as a legacy VTK file.
    Field {
        /// The scene file (TOML).
        scene: PathBuf,
        /// The body's name.
        #[arg(long)]
        body: String,
        /// The output file (.vtk).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Loads a scene and, unless `quiet`, shows its warnings (what it allows but is probably not
/// meant, robot files' notes) on stderr: `Scene::warnings` is left to the caller to show.
fn load_scene(scene: &Path, quiet: bool) -> Result<contactlab::scene::Scene> {
    let loaded = contactlab::scene::load_scene(scene)
        .with_context(|| format!("cannot load scene {}", scene.display()))?;
    if !quiet {
        for warning in &loaded.warnings {
            eprintln!("warning: {warning}");
        }
    }
    Ok(loaded)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Contact { scene, json, repeat, vtk, png } => {
            let loaded = load_scene(&scene, false)?;
            let args = ContactArgs { scene, json, repeat, vtk, png };
            let report = contact::run(&loaded, &args)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print!("{}", contact::format_report(&report));
            }
        }
        Command::Inspect { file, package_paths, json } => {
            let report = contactlab::commands::inspect::run(&file, &package_paths)
                .with_context(|| format!("cannot inspect {}", file.display()))?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print!("{}", contactlab::commands::inspect::format(&report));
            }
        }
        Command::Simulate { scene, out, vtk, png, html, quiet, no_output } => {
            let loaded = load_scene(&scene, quiet)?;
            let args = contactlab::commands::simulate::SimulateArgs {
                vtk,
                png,
                html: html.then(|| view::title(&scene)),
                progress: contactlab::app::ProgressMode::for_stderr(quiet),
                no_output,
                ..contactlab::commands::simulate::SimulateArgs::new(out)
            };
            let summary = contactlab::commands::simulate::run(&loaded, &args)?;
            println!("{}", summary.line());
        }
        Command::Sweep { scene, out, set, range, samples, seed, jobs, quiet } => {
            use contactlab::commands::sweep;
            let args = sweep::SweepArgs {
                scene,
                out,
                set,
                range,
                samples,
                seed,
                jobs,
                progress: contactlab::app::ProgressMode::for_stderr(quiet),
            };
            let records =
                sweep::run(&args).with_context(|| format!("cannot sweep scene {}", args.scene.display()))?;
            println!("{}", sweep::summary_line(&records, &args.out));
            let failed = records.iter().filter(|r| r.status == contactlab::sweep::RunStatus::Failed).count();
            if failed > 0 {
                anyhow::bail!(
                    "{failed} of {} runs failed (status and message in {})",
                    records.len(),
                    args.out.join("summary.csv").display()
                );
            }
        }
        Command::Compare { scene, models, out, bodies, jobs, quiet } => {
            use contactlab::commands::compare;
            let args = compare::CompareArgs {
                models: compare::parse_models(&models)?,
                scene,
                out,
                bodies,
                jobs,
                progress: contactlab::app::ProgressMode::for_stderr(quiet),
            };
            let runs = compare::run(&args)
                .with_context(|| format!("cannot compare scene {}", args.scene.display()))?;
            println!("{}", compare::summary_line(&runs, &args.out));
            let failed: Vec<String> = runs
                .iter()
                .filter_map(|r| r.outcome.as_ref().err().map(|e| format!("{}: {e}", r.model.key())))
                .collect();
            if !failed.is_empty() {
                anyhow::bail!("{} of {} models failed: {}", failed.len(), runs.len(), failed.join("; "));
            }
        }
        Command::View { scene, out_dir, open } => {
            let loaded = load_scene(&scene, false)?;
            let page = view::run(&loaded, &out_dir, &view::title(&scene))?;
            println!("{}", page.line());
            if let (true, Err(e)) = (open, view::open(&page.path)) {
                eprintln!("warning: {e}");
            }
        }
        Command::Field { scene, body, out } => {
            let loaded = load_scene(&scene, false)?;
            let tets = contactlab::commands::field::run(&loaded, &body, &out)?;
            eprintln!("contactlab: wrote {tets} tets of `{body}` to {}", out.display());
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", contactlab::commands::error_message(&e));
            ExitCode::FAILURE
        }
    }
}
