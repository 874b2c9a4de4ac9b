use std::path::PathBuf;
use thiserror::Error;

/// Why a sweep cannot start or finish (a run that fails is a row of the summary, not this).
#[derive(Debug, Error)]
pub enum SweepError {
    /// A `--set`, `--range` or `--samples` argument that cannot be read.
    #[error("{arg}: {problem}; {fix}")]
    Argument { arg: String, problem: String, fix: String },
    /// A key that names no place in the scene (a body that does not exist, a key under a value).
    #[error("key `{key}`: {problem}; {fix}")]
    Key { key: String, problem: String, fix: String },
    /// The base scene does not load.
    #[error("the base scene: {0}")]
    Scene(#[from] crate::scene::SceneError),
    /// The output folder holds another sweep.
    #[error(
        "{} holds a different sweep ({what}); use another --out, or delete the folder to start again",
        dir.display()
    )]
    Different { dir: PathBuf, what: String },
    #[error(
        "{}: {source}; check that it is a folder (or file) you may read and write, or give another --out",
        path.display()
    )]
    Io { path: PathBuf, source: std::io::Error },
    /// A file the sweep wrote (or the scene text) that does not read back.
    #[error("{}: {problem}; {fix}", path.display())]
    Corrupt { path: PathBuf, problem: String, fix: String },
}

impl SweepError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> SweepError {
        let path = path.into();
        move |source| SweepError::Io { path, source }
    }
}
