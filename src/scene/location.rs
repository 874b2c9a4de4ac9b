//! Turning byte offsets reported by the TOML reader into human places: the section (which body,
//! `[sim]`, ...), line and column, and the key a value belongs to.

use super::{LineCol, Place, SceneError};
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// The spans of the top-level sections, read leniently (no key checks) so that errors found by
/// the strict pass can be attributed to a body by name.
#[derive(Debug, Default)]
pub(super) struct Outline {
    model: Option<Range<usize>>,
    sim: Option<Range<usize>>,
    bodies: Vec<(Option<String>, Range<usize>)>,
    /// The mechanism tables, by array name (`joint`, ...): each entry's label and span.
    mechanism: Vec<(&'static str, Vec<Labelled>)>,
}

/// A table's label and span.
type Labelled = (String, Range<usize>);

#[derive(Deserialize)]
struct LenientOutline {
    model: Option<Spanned<toml::Value>>,
    sim: Option<Spanned<toml::Value>>,
    #[serde(default)]
    body: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    joint: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    actuator: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    coupler: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    exclude: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    measure: Vec<Spanned<toml::Table>>,
}

/// The label of entry `index` (0-based) of the array of tables `array`: `[[joint]] shoulder`,
/// `[[coupler]] finger_right` (its `joint`), `[[exclude]] a–b`, or `[[joint]] #2` when the
/// naming keys are missing.
fn mechanism_label(array: &str, index: usize, table: &toml::Table) -> String {
    let text = |key: &str| table.get(key).and_then(|v| v.as_str()).filter(|s| !s.trim().is_empty());
    let name = match array {
        "coupler" => text("joint").map(str::to_owned),
        "exclude" => text("a").zip(text("b")).map(|(a, b)| format!("{a}–{b}")),
        _ => text("name").map(str::to_owned),
    };
    match name {
        Some(name) => format!("[[{array}]] {name}"),
        None => format!("[[{array}]] #{}", index + 1),
    }
}

impl Outline {
    /// Reads the outline; a scene whose sections have the wrong shape gets an empty outline (the
    /// strict pass reports the problem).
    pub fn read(text: &str) -> Self {
        let Ok(o) = toml::from_str::<LenientOutline>(text) else {
            return Self::default();
        };
        let bodies = o
            .body
            .iter()
            .map(|b| {
                let name = b.get_ref().get("name").and_then(|v| v.as_str()).map(str::to_owned);
                (name, b.span())
            })
            .collect();
        let group = |array: &'static str, tables: &[Spanned<toml::Table>]| {
            let entries =
                tables.iter().enumerate().map(|(i, t)| (mechanism_label(array, i, t.get_ref()), t.span()));
            (array, entries.collect())
        };
        let mechanism = vec![
            group("joint", &o.joint),
            group("actuator", &o.actuator),
            group("coupler", &o.coupler),
            group("exclude", &o.exclude),
            group("measure", &o.measure),
        ];
        Self { model: o.model.map(|m| m.span()), sim: o.sim.map(|s| s.span()), bodies, mechanism }
    }

    /// The label of entry `index` of `[[array]]` (`joint`, `actuator`, `coupler`, `exclude`).
    pub fn mechanism_label(&self, array: &str, index: usize) -> String {
        self.mechanism
            .iter()
            .find(|(a, _)| *a == array)
            .and_then(|(_, entries)| entries.get(index))
            .map_or_else(|| format!("[[{array}]] #{}", index + 1), |(label, _)| label.clone())
    }

    /// The place of byte `offset` in `text`.
    pub fn place(&self, text: &str, offset: usize) -> Place {
        Place { section: self.section(text, offset), at: Some(line_col(text, offset)) }
    }

    fn section(&self, text: &str, offset: usize) -> String {
        let inside = |r: &Option<Range<usize>>| r.as_ref().is_some_and(|r| r.contains(&offset));
        if inside(&self.model) {
            return "[model]".into();
        }
        if inside(&self.sim) {
            return "[sim]".into();
        }
        if let Some(i) = self.bodies.iter().position(|(_, r)| r.contains(&offset)) {
            return self.body_label(i);
        }
        for (_, entries) in &self.mechanism {
            if let Some((label, _)) = entries.iter().find(|(_, r)| r.contains(&offset)) {
                return label.clone();
            }
        }
        // Sub-tables such as `[body.contact]` lie outside their body's span: they belong to the
        // last `[[body]]` before them, provided no other table header intervenes.
        let header =
            text[..offset.min(text.len())].lines().rev().map(str::trim_start).find(|l| l.starts_with('['));
        let in_body = header.is_some_and(|h| h.starts_with("[[body]]") || h.starts_with("[body."));
        // The error may point at the header itself: count it too.
        let line_end = text[offset.min(text.len())..].find('\n').map_or(text.len(), |k| offset + k);
        let upto = &text[..line_end];
        let pair_header = upto.lines().rev().map(str::trim_start).find(|l| l.starts_with('['));
        if pair_header.is_some_and(|h| h.starts_with("[[model.pair]]")) {
            let n = upto.lines().filter(|l| l.trim_start().starts_with("[[model.pair]]")).count();
            return format!("[[model.pair]] #{n}");
        }
        // Likewise `[joint.origin]` after a `[[joint]]`, and so on.
        for (array, entries) in &self.mechanism {
            let (aot, sub) = (format!("[[{array}]]"), format!("[{array}."));
            if header.is_some_and(|h| h.starts_with(&aot) || h.starts_with(&sub))
                && let Some((label, _)) = entries.iter().rev().find(|(_, r)| r.start <= offset)
            {
                return label.clone();
            }
        }
        match self.bodies.iter().rposition(|(_, r)| r.start <= offset) {
            Some(i) if in_body => self.body_label(i),
            _ => "scene".into(),
        }
    }

    /// `body 'name'` or, for a body without a name, `body #n` (1-based).
    pub fn body_label(&self, index: usize) -> String {
        match self.bodies.get(index).and_then(|(n, _)| n.as_deref()).filter(|n| !n.trim().is_empty()) {
            Some(name) => format!("body '{name}'"),
            None => format!("body #{}", index + 1),
        }
    }
}

/// The line and column of byte `offset`.
pub(super) fn line_col(text: &str, offset: usize) -> LineCol {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    LineCol { line, column: before[line_start..].chars().count() + 1 }
}

/// The key whose value starts at `offset` (`mass` in `mass = "x"`), if the text says so.
fn key_before(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?.trim_end().strip_suffix('=')?.trim_end();
    let key: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect();
    (!key.is_empty()).then(|| key.chars().rev().collect())
}

/// A hint on how to fix a serde message from the TOML reader.
pub(super) fn fix_for(message: &str) -> &'static str {
    if message.starts_with("unknown field") {
        "remove the key or use one of the valid keys listed (see docs/scene.md)"
    } else if message.starts_with("missing field") {
        "add the key (see docs/scene.md)"
    } else if message.starts_with("unknown variant") {
        "use one of the values listed"
    } else if message.starts_with("invalid length") {
        "give the number of components asked for"
    } else {
        "give a value of the expected type (see docs/scene.md)"
    }
}

/// A strict-pass error from the TOML reader, placed and explained.
pub(super) fn schema_error(text: &str, outline: &Outline, err: &toml::de::Error) -> SceneError {
    let raw = err.message().trim();
    let (place, key) = match err.span() {
        Some(span) => (outline.place(text, span.start), key_before(text, span.start)),
        None => (Place::section("scene"), None),
    };
    let message = match key {
        // Unknown and missing field messages already name the key.
        Some(key) if !raw.starts_with("unknown field") && !raw.starts_with("missing field") => {
            format!("`{key}`: {raw}")
        }
        _ => raw.to_owned(),
    };
    SceneError::Schema { place, message, fix: fix_for(raw).into() }
}

/// A syntax error (not TOML at all).
pub(super) fn syntax_error(text: &str, err: &toml::de::Error) -> SceneError {
    let at = err.span().map(|span| line_col(text, span.start));
    let mut message = err.message().trim().replace('\n', ", ");
    if message.contains("inline table") {
        // The usual cause: an inline table wrapped over several lines, as TOML forbids.
        message.push_str(" (an inline table { ... } must be on one line; use a sub-table such as [body.contact] for long ones)");
    }
    SceneError::Syntax { message, at }
}
