use std::path::PathBuf;

/// Errors from writing output files. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {path}: {source}; check that the folder exists and is writable")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The data handed to a writer is inconsistent (a caller bug or a bad mesh).
    #[error("cannot write {path}: {problem}; {fix}")]
    BadInput { path: PathBuf, problem: String, fix: String },
}

impl OutputError {
    pub(super) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Self + '_ {
        move |source| OutputError::Io { path: path.to_path_buf(), source }
    }
}
