use crate::geometry::GeometryError;
use std::fmt;
use std::path::PathBuf;

/// Where in a scene file something is: a section (`body 'ball'`, `[sim]`, ...) and, when known,
/// the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// `body 'ball'`, `body #2`, `[sim]`, `[model]` or `scene`.
    pub section: String,
    pub at: Option<LineCol>,
}

/// A 1-based line and column (in characters) in a scene file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl Place {
    /// A place without a known position.
    pub fn section(section: impl Into<String>) -> Self {
        Self { section: section.into(), at: None }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.section)?;
        match self.at {
            Some(LineCol { line, column }) => write!(f, " (line {line}, column {column})"),
            None => Ok(()),
        }
    }
}

/// Errors from loading a scene file. Each message says what was wrong, where (body and key),
/// and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("cannot read scene file {path}: {source}; check the path and that the file is readable")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("scene file is not valid TOML{}: {message}; fix the syntax", at_text(*.at))]
    Syntax { message: String, at: Option<LineCol> },
    /// A key that is unknown, missing or of the wrong type, as reported by the TOML reader
    /// (unknown keys list the valid ones).
    #[error("{place}: {message}; {fix}")]
    Schema { place: Place, message: String, fix: String },
    /// A value that is well-typed but not allowed.
    #[error("{place}: `{key}` {problem}; {fix}")]
    Invalid { place: Place, key: String, problem: String, fix: String },
    #[error("{place}: the name '{name}' is used by more than one body; give every body a unique `name`")]
    DuplicateName { place: Place, name: String },
    #[error(
        "bodies '{a}' and '{b}' are both rigid and at least one can move, so their contact is undefined under the {model} model; make one of them compliant (contact.compliance = \"compliant\")"
    )]
    RigidPair { a: String, b: String, model: String },
    #[error("{place}: `shape.file` {path} could not be loaded: {source}; {}", shape_file_hint(path))]
    ShapeFile {
        place: Place,
        path: PathBuf,
        #[source]
        source: Box<GeometryError>,
    },
    #[error("the scene has no bodies; add at least one [[body]] or [[robot]] table")]
    NoBodies,
    /// A robot file that could not be read.
    #[error("{place}: {source}")]
    Robot {
        place: Place,
        #[source]
        source: Box<super::import::ImportError>,
    },
}

fn at_text(at: Option<LineCol>) -> String {
    match at {
        Some(LineCol { line, column }) => format!(" at line {line}, column {column}"),
        None => String::new(),
    }
}

/// What to do about a mesh file that could not be loaded: find it if it is missing, else fix
/// its contents.
fn shape_file_hint(path: &std::path::Path) -> &'static str {
    if path.is_file() {
        "fix the file, or export it again"
    } else {
        "check the path (relative paths are resolved against the scene file's folder)"
    }
}

impl SceneError {
    /// The error of a check run on a model's sub-table, named as the sub-table: its place's
    /// section prefix `section.0` read as `section.1` (`[model]` → `[model.hertz]`), its key's
    /// prefix `key.0` as `key.1` (`contact.` → `contact.hertz.`). An empty `from` renames
    /// nothing.
    pub(super) fn in_sub_table(mut self, section: (&str, &str), key: (&str, &str)) -> SceneError {
        let rename = |text: &mut String, (from, to): (&str, &str)| {
            if !from.is_empty()
                && let Some(rest) = text.strip_prefix(from)
            {
                *text = format!("{to}{rest}");
            }
        };
        match &mut self {
            SceneError::Invalid { place, key: k, .. } => {
                rename(&mut place.section, section);
                rename(k, key);
            }
            SceneError::Schema { place, .. }
            | SceneError::DuplicateName { place, .. }
            | SceneError::ShapeFile { place, .. }
            | SceneError::Robot { place, .. } => rename(&mut place.section, section),
            _ => {}
        }
        self
    }
}
