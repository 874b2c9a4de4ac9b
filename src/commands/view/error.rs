//! Why the viewer page of a run could not be written.

use crate::app::OutputError;
use crate::contact::model::ContactError;
use crate::geometry::GeometryError;
use std::path::PathBuf;

/// Why a page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error("{} has no trajectory.csv: run `contactlab simulate SCENE.toml --out {}` first", dir.display(), dir.display())]
    NoTrajectory { dir: PathBuf },
    #[error("{} has no rows: the run wrote no output; run `contactlab simulate` again", path.display())]
    EmptyTrajectory { path: PathBuf },
    #[error("{} has no {file}: the folder holds no whole run; run `contactlab simulate SCENE.toml --out {}` again", dir.display(), dir.display())]
    MissingFile { dir: PathBuf, file: &'static str },
    #[error("cannot read {}: {source}; check that the file is readable, or simulate into the folder again", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} line {line}: {problem}; run `contactlab simulate` again to rewrite it", path.display())]
    Malformed { path: PathBuf, line: usize, problem: String },
    #[error(
        "{} names body `{name}`, which the scene does not have: the folder holds another scene's run; view it with that scene, or simulate this one into it",
        path.display()
    )]
    UnknownBody { path: PathBuf, name: String },
    #[error(
        "the scene's body `{name}` is in no row of {}: the folder holds another scene's run; view it with that scene, or simulate this one into it",
        path.display()
    )]
    MissingBody { path: PathBuf, name: String },
    #[error("cannot build the scene's bodies: {0:#}")]
    World(anyhow::Error),
    #[error("body `{name}`: no mesh to draw: {source}")]
    Display {
        name: String,
        #[source]
        source: GeometryError,
    },
    #[error("recomputing the contacts at t = {t} s: {source}")]
    Contact {
        t: f64,
        #[source]
        source: ContactError,
    },
    #[error(transparent)]
    Write(#[from] OutputError),
}
