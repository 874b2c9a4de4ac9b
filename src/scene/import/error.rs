//! What can go wrong reading a robot file, each error naming the file, the line, the element and
//! the attribute, and saying how to fix it.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read robot file {path}: {source}; check the path and that the file is readable")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Not well-formed XML (unclosed tags, a truncated file, bad characters).
    #[error("{path}{}: not well-formed XML: {message}; fix the file's syntax", line_text(*.line))]
    Syntax { path: PathBuf, line: Option<u32>, message: String },
    /// An element or attribute that is well-formed but wrong: `element` is the tag (with its
    /// `name` when it has one, e.g. `joint 'elbow'`), `attribute` the attribute or child element
    /// (empty when the element itself is at fault).
    #[error("{path}{}: <{element}>{}: {problem}; {fix}", line_text(Some(*.line)), attribute_text(attribute))]
    Invalid { path: PathBuf, line: u32, element: String, attribute: String, problem: String, fix: String },
    /// A mesh (or included file) that is not where the file says.
    #[error("{path}{}: <{element}> names {file}, which was not found (looked in: {}); {fix}", line_text(Some(*.line)), searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    Missing { path: PathBuf, line: u32, element: String, file: String, searched: Vec<PathBuf>, fix: String },
}

fn line_text(line: Option<u32>) -> String {
    line.map(|l| format!(" line {l}")).unwrap_or_default()
}

fn attribute_text(attribute: &str) -> String {
    if attribute.is_empty() { String::new() } else { format!(" `{attribute}`") }
}
