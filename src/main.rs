//! The `contactlab` command line. See `contactlab --help` and DESIGN.md for the contract.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use contactlab::commands::contact::{self, ContactArgs};
use std::path::PathBuf;
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
        /// Show no progress on stderr (by default: a bar on a terminal, a line every 5 s in a log).
        #[arg(long, short)]
        quiet: bool,
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

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Contact { scene, json, repeat, vtk, png } => {
            let loaded = contactlab::scene::load_scene(&scene)
                .with_context(|| format!("cannot load scene {}", scene.display()))?;
            let args = ContactArgs { scene, json, repeat, vtk, png };
            let report = contact::run(&loaded, &args)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print!("{}", contact::format_report(&report));
            }
        }
        Command::Simulate { scene, out, vtk, png, quiet } => {
            let loaded = contactlab::scene::load_scene(&scene)
                .with_context(|| format!("cannot load scene {}", scene.display()))?;
            let args = contactlab::commands::simulate::SimulateArgs {
                out,
                vtk,
                png,
                progress: contactlab::app::ProgressMode::for_stderr(quiet),
            };
            let summary = contactlab::commands::simulate::run(&loaded, &args)?;
            println!("{}", summary.line());
        }
        Command::Field { scene, body, out } => {
            let loaded = contactlab::scene::load_scene(&scene)
                .with_context(|| format!("cannot load scene {}", scene.display()))?;
            let tets = contactlab::commands::field::run(&loaded, &body, &out)?;
            eprintln!("contactlab: wrote {tets} tets of `{body}` to {}", out.display());
        }
    }
    Ok(())
}

/// The error and its causes on one line, leaving out a cause whose text the message already
/// holds (several errors name their cause in their own message).
fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", contactlab::commands::error_message(&e));
            ExitCode::FAILURE
        }
    }
}
