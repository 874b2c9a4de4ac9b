//! What every part of the URDF reader shares: where an element is (line, a readable path such as
//! `joint 'elbow'/origin`), strict number parsing, poses, errors that name the element and
//! attribute, and the tally of skipped elements.

use super::super::ImportError;
use crate::math::{Isometry3, Translation3, UnitQuaternion, Vector3};
use roxmltree::{Document, Node};
use std::path::Path;

/// The file being read, for lines and errors.
pub(super) struct Ctx<'a, 'input> {
    pub path: &'a Path,
    pub doc: &'a Document<'input>,
    /// Where each `\n` of the text is: `Document::text_pos_at` counts lines from the start of
    /// the file on every call, which a large file would pay once per element.
    newlines: Vec<usize>,
}

impl<'a, 'input> Ctx<'a, 'input> {
    pub fn new(path: &'a Path, doc: &'a Document<'input>) -> Self {
        let newlines =
            doc.input_text().bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(k, _)| k).collect();
        Ctx { path, doc, newlines }
    }

    /// The 1-based line where `node` starts.
    pub fn line(&self, node: Node) -> u32 {
        let start = node.range().start;
        (1 + self.newlines.partition_point(|&k| k < start)).try_into().unwrap_or(u32::MAX)
    }

    /// An [`ImportError::Invalid`] at `node`: `attribute` is the attribute at fault (empty: the
    /// element itself).
    pub fn invalid(
        &self,
        node: Node,
        attribute: &str,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> ImportError {
        ImportError::Invalid {
            path: self.path.to_path_buf(),
            line: self.line(node),
            element: element_path(node),
            attribute: attribute.to_owned(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }

    /// A required attribute's text.
    pub fn required<'n>(
        &self,
        node: Node<'n, '_>,
        attribute: &str,
        fix: &str,
    ) -> Result<&'n str, ImportError> {
        node.attribute(attribute).ok_or_else(|| self.invalid(node, attribute, "is missing", fix))
    }

    /// The `name` attribute, present and non-empty.
    pub fn name<'n>(&self, node: Node<'n, '_>) -> Result<&'n str, ImportError> {
        let fix = format!("give the <{}> a unique name=\"...\"", tag(node));
        let name = self.required(node, "name", &fix)?;
        if name.trim().is_empty() {
            return Err(self.invalid(node, "name", "is empty", fix));
        }
        Ok(name)
    }

    /// A number attribute; `default` when absent (`None`: required).
    pub fn number(&self, node: Node, attribute: &str, default: Option<f64>) -> Result<f64, ImportError> {
        match (node.attribute(attribute), default) {
            (Some(text), _) => Ok(self.numbers::<1>(node, attribute, text)?[0]),
            (None, Some(d)) => Ok(d),
            (None, None) => {
                Err(self.invalid(node, attribute, "is missing", format!("give {attribute}=\"<number>\"")))
            }
        }
    }

    /// A number attribute that must be ≥ 0 (`default` when absent).
    pub fn non_negative(
        &self,
        node: Node,
        attribute: &str,
        default: Option<f64>,
    ) -> Result<f64, ImportError> {
        let value = self.number(node, attribute, default)?;
        if value < 0.0 {
            return Err(self.invalid(node, attribute, format!("is {value}, negative"), "give a value ≥ 0"));
        }
        Ok(value)
    }

    /// A number attribute that must be > 0 (a size).
    pub fn positive(&self, node: Node, attribute: &str) -> Result<f64, ImportError> {
        let value = self.number(node, attribute, None)?;
        if value <= 0.0 {
            return Err(self.invalid(node, attribute, format!("is {value}"), "give a size > 0 (m)"));
        }
        Ok(value)
    }

    /// Three whitespace-separated numbers; `default` when the attribute is absent.
    pub fn vector(&self, node: Node, attribute: &str, default: [f64; 3]) -> Result<[f64; 3], ImportError> {
        node.attribute(attribute).map_or(Ok(default), |text| self.numbers::<3>(node, attribute, text))
    }

    /// Exactly `N` finite numbers, separated by whitespace. Rust's parser reads "nan" and "inf"
    /// as numbers: they are refused here with the rest of the garbage.
    pub fn numbers<const N: usize>(
        &self,
        node: Node,
        attribute: &str,
        text: &str,
    ) -> Result<[f64; N], ImportError> {
        let what = if N == 1 { "a number".to_owned() } else { format!("{N} numbers separated by spaces") };
        let fix = format!("give {attribute}=\"...\" as {what}");
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != N {
            let problem = format!("= \"{}\" has {} values, not {N}", shorten(text), fields.len());
            return Err(self.invalid(node, attribute, problem, fix));
        }
        let mut out = [0.0; N];
        for (value, field) in out.iter_mut().zip(fields) {
            *value = match field.parse::<f64>() {
                Ok(v) if v.is_finite() => v,
                Ok(_) => {
                    let problem =
                        format!("= \"{}\": `{}` is not a finite number", shorten(text), shorten(field));
                    return Err(self.invalid(node, attribute, problem, fix));
                }
                Err(_) => {
                    let problem = format!("= \"{}\": `{}` is not a number", shorten(text), shorten(field));
                    return Err(self.invalid(node, attribute, problem, fix));
                }
            };
        }
        Ok(out)
    }

    /// The pose of an optional `<origin xyz rpy>` child of `node` (identity when absent).
    pub fn origin(&self, node: Node) -> Result<Isometry3, ImportError> {
        match self.only_child(node, "origin")? {
            Some(origin) => self.pose(origin),
            None => Ok(Isometry3::identity()),
        }
    }

    /// `<origin xyz rpy>` as a pose. rpy are fixed-axis roll, pitch, yaw (rad):
    /// R = Rz(yaw)·Ry(pitch)·Rx(roll), which is nalgebra's `from_euler_angles`.
    pub fn pose(&self, origin: Node) -> Result<Isometry3, ImportError> {
        let [x, y, z] = self.vector(origin, "xyz", [0.0; 3])?;
        let [roll, pitch, yaw] = self.vector(origin, "rpy", [0.0; 3])?;
        Ok(Isometry3::from_parts(
            Translation3::from(Vector3::new(x, y, z)),
            UnitQuaternion::from_euler_angles(roll, pitch, yaw),
        ))
    }

    /// The child element named `name`, if any; two of them is an error (URDF allows one).
    pub fn only_child<'n, 'i>(
        &self,
        node: Node<'n, 'i>,
        name: &str,
    ) -> Result<Option<Node<'n, 'i>>, ImportError> {
        let mut found = node.children().filter(|c| plain_name(*c) == Some(name));
        let first = found.next();
        if let Some(second) = found.next() {
            return Err(self.invalid(
                second,
                "",
                format!("is a second <{name}> in <{}>", element_path(node)),
                format!("keep one <{name}>"),
            ));
        }
        Ok(first)
    }
}

/// An element's name when it is one of URDF's (in the `<robot>`'s namespace, normally none);
/// `None` for text, comments and other tools' elements such as `drake:joint`.
pub(super) fn plain_name<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    let robot = node.document().root_element();
    (node.is_element() && node.tag_name().namespace() == robot.tag_name().namespace())
        .then(|| node.tag_name().name())
}

/// The element's tag as written (`prefix:name` for a namespaced one such as `drake:capsule`).
pub(super) fn tag(node: Node) -> String {
    let name = node.tag_name().name();
    match node.tag_name().namespace().and_then(|ns| node.lookup_prefix(ns)) {
        Some(prefix) if !prefix.is_empty() => format!("{prefix}:{name}"),
        _ => name.to_owned(),
    }
}

/// Where `node` is, from the `<robot>` down: `link 'arm'/collision/geometry/mesh`, each named
/// element with its name.
pub(super) fn element_path(node: Node) -> String {
    let mut parts: Vec<String> = node
        .ancestors()
        .filter(|n| n.is_element())
        .take_while(|n| n.parent_element().is_some() || *n == node)
        .map(|n| match n.attribute("name") {
            Some(name) => format!("{} '{}'", tag(n), shorten(name)),
            None => tag(n),
        })
        .collect();
    parts.reverse();
    parts.join("/")
}

/// At most 40 characters of `text`, for messages about garbage.
fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

/// One note per kind of skipped element, counted, in order of first appearance.
#[derive(Default)]
pub(super) struct Skipped {
    kinds: Vec<(String, usize, String)>,
}

impl Skipped {
    /// One more element of kind `what` (e.g. `<transmission>`), skipped because `why`.
    pub fn add(&mut self, what: String, why: &str) {
        match self.kinds.iter_mut().find(|(w, _, _)| *w == what) {
            Some((_, n, _)) => *n += 1,
            None => self.kinds.push((what, 1, why.to_owned())),
        }
    }

    pub fn into_notes(self) -> Vec<String> {
        self.kinds
            .into_iter()
            .map(|(what, n, why)| {
                let count = if n == 1 { "1 element".to_owned() } else { format!("{n} elements") };
                if why.is_empty() {
                    format!("{what} skipped ({count})")
                } else {
                    format!("{what} skipped ({count}): {why}")
                }
            })
            .collect()
    }
}
