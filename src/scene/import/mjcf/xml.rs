//! The MJCF file as an owned element tree: `<include>`s expanded in place (MuJoCo assembles one
//! document before reading it), each element remembering its file and line so that any later
//! error can point at it.

use crate::scene::import::ImportError;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Deeper nesting than this is refused: the readers recurse once per level, and no real model
/// comes near it.
const MAX_DEPTH: usize = 200;

/// One XML element with its attributes (in file order) and child elements.
#[derive(Debug)]
pub(super) struct Element {
    pub tag: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub file: Rc<PathBuf>,
    pub line: u32,
}

impl Element {
    /// The attribute's value as written on this element.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn name(&self) -> Option<&str> {
        self.attr("name")
    }

    /// `joint 'elbow'`, or the bare tag for an unnamed element: how errors name it.
    pub fn describe(&self) -> String {
        match self.name() {
            Some(n) => format!("{} '{n}'", self.tag),
            None => self.tag.clone(),
        }
    }

    /// An error at this element.
    pub fn invalid(
        &self,
        attribute: &str,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> ImportError {
        self.invalid_as(self.describe(), attribute, problem, fix)
    }

    /// An error at this element, described as `element`.
    pub fn invalid_as(
        &self,
        element: String,
        attribute: &str,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> ImportError {
        ImportError::Invalid {
            path: self.file.as_ref().clone(),
            line: self.line,
            element,
            attribute: attribute.into(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

/// Reads `path` and every file it includes into one tree rooted at its `<mujoco>` element.
pub(super) fn load(path: &Path) -> Result<Element, ImportError> {
    let main_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut loader = Loader { main_dir, stack: Vec::new(), seen: HashSet::new() };
    loader.file(path)
}

struct Loader {
    /// The main file's folder: MuJoCo resolves includes against it.
    main_dir: PathBuf,
    /// The files being read, outermost first (a cycle is one of them included again).
    stack: Vec<PathBuf>,
    /// Every file read so far (MuJoCo includes a file at most once).
    seen: HashSet<PathBuf>,
}

impl Loader {
    fn file(&mut self, path: &Path) -> Result<Element, ImportError> {
        let bytes = std::fs::read(path).map_err(|source| ImportError::Read { path: path.into(), source })?;
        let text = String::from_utf8(bytes).map_err(|e| ImportError::Syntax {
            path: path.into(),
            line: None,
            message: format!("the file is not UTF-8 text ({e})"),
        })?;
        let doc = roxmltree::Document::parse(&text).map_err(|e| {
            let line = match e {
                // roxmltree places these at 1:1; the file's end is where the problem shows.
                roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode => {
                    text.lines().count().max(1) as u32
                }
                _ => e.pos().row,
            };
            ImportError::Syntax { path: path.into(), line: Some(line), message: e.to_string() }
        })?;
        let key = identity(path);
        self.stack.push(key.clone());
        self.seen.insert(key);
        let file = Rc::new(path.to_path_buf());
        let root = self.element(&doc, doc.root_element(), &file, 0);
        self.stack.pop();
        root
    }

    fn element(
        &mut self,
        doc: &roxmltree::Document,
        node: roxmltree::Node,
        file: &Rc<PathBuf>,
        depth: usize,
    ) -> Result<Element, ImportError> {
        let line = doc.text_pos_at(node.range().start).row;
        let mut el = Element {
            tag: node.tag_name().name().to_owned(),
            attrs: node.attributes().map(|a| (a.name().to_owned(), a.value().to_owned())).collect(),
            children: Vec::new(),
            file: file.clone(),
            line,
        };
        if depth > MAX_DEPTH {
            return Err(el.invalid(
                "",
                format!("elements are nested more than {MAX_DEPTH} deep"),
                "flatten the model (no real robot nests this deep)",
            ));
        }
        for child in node.children().filter(roxmltree::Node::is_element) {
            let child = self.element(doc, child, file, depth + 1)?;
            if child.tag == "include" {
                el.children.extend(self.include(&child)?);
            } else {
                el.children.push(child);
            }
        }
        Ok(el)
    }

    /// The elements an `<include file>` stands for: the children of the included file's root.
    fn include(&mut self, inc: &Element) -> Result<Vec<Element>, ImportError> {
        let Some(name) = inc.attr("file") else {
            return Err(inc.invalid(
                "file",
                "is missing",
                "give the file to include, e.g. <include file=\"common/materials.xml\"/>",
            ));
        };
        // The including file's folder first (nested includes written relative to themselves),
        // then the main file's folder (MuJoCo's rule).
        let here = inc.file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut searched = vec![here.join(name)];
        if !searched.contains(&self.main_dir.join(name)) {
            searched.push(self.main_dir.join(name));
        }
        let Some(path) = searched.iter().find(|p| p.is_file()).cloned() else {
            return Err(ImportError::Missing {
                path: inc.file.as_ref().clone(),
                line: inc.line,
                element: inc.describe(),
                file: name.into(),
                searched,
                fix: "check the file name; an include is relative to the including file or the main model's folder"
                    .into(),
            });
        };
        let key = identity(&path);
        if let Some(start) = self.stack.iter().position(|p| *p == key) {
            let chain: Vec<String> =
                self.stack[start..].iter().chain([&key]).map(|p| p.display().to_string()).collect();
            return Err(inc.invalid(
                "file",
                format!("includes form a cycle: {}", chain.join(" → ")),
                "remove the include that closes the cycle",
            ));
        }
        if self.seen.contains(&key) {
            return Err(inc.invalid(
                "file",
                format!(
                    "{} is included a second time (MuJoCo includes each file at most once)",
                    path.display()
                ),
                "include it once",
            ));
        }
        Ok(self.file(&path)?.children)
    }
}

/// A file's identity for cycle checks: its canonical path when the system knows it.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
