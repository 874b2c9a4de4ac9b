//! Attribute values: an element's own, else its default class's (MuJoCo's rule), parsed into
//! numbers, flags and keywords with errors that point at the element or default that wrote them.

use super::xml::Element;
use crate::scene::import::ImportError;
use std::collections::BTreeMap;

/// Larger numbers are refused: their squares and cubes (inertias, volumes) would overflow.
const MAX_MAGNITUDE: f64 = 1e30;

/// A default class's attributes for one kind of element: name → the `<default>` child that set
/// it last (the value is read from there, so errors can point at it).
pub(super) type AttrMap<'a> = BTreeMap<&'a str, &'a Element>;

/// A value found for an attribute, and where it was written.
#[derive(Clone, Copy)]
pub(super) struct Found<'a> {
    pub text: &'a str,
    pub at: &'a Element,
    /// The default class it came from (`None`: the element's own).
    pub class: Option<&'a str>,
}

impl<'a> Found<'a> {
    pub fn error(&self, attribute: &str, problem: impl Into<String>, fix: impl Into<String>) -> ImportError {
        let element = match self.class {
            Some(class) => format!("{} (default class '{class}')", self.at.tag),
            None => self.at.describe(),
        };
        self.at.invalid_as(element, attribute, problem, fix)
    }

    /// Whitespace-separated finite numbers.
    pub fn reals(&self, attribute: &str) -> Result<Vec<f64>, ImportError> {
        self.text
            .split_ascii_whitespace()
            .map(|t| match t.parse::<f64>() {
                Ok(x) if x.abs() <= MAX_MAGNITUDE => Ok(x),
                Ok(x) if x.is_finite() => Err(self.error(
                    attribute,
                    format!("= \"{}\": `{t}` is beyond ±{MAX_MAGNITUDE:e}", self.text),
                    "give a number of sensible magnitude (SI units)",
                )),
                Ok(_) => Err(self.error(
                    attribute,
                    format!("= \"{}\": `{t}` is not a finite number", self.text),
                    "give finite numbers",
                )),
                Err(_) => Err(self.error(
                    attribute,
                    format!("= \"{}\": `{t}` is not a number", self.text),
                    "give numbers separated by spaces, e.g. \"0 0 1\"",
                )),
            })
            .collect()
    }

    /// Exactly `N` numbers.
    pub fn array<const N: usize>(&self, attribute: &str) -> Result<[f64; N], ImportError> {
        let v = self.reals(attribute)?;
        v.as_slice().try_into().map_err(|_| {
            self.error(
                attribute,
                format!("= \"{}\" has {} numbers, not {N}", self.text, v.len()),
                format!("give exactly {N} numbers"),
            )
        })
    }

    /// `true` or `false`.
    pub fn flag(&self, attribute: &str) -> Result<bool, ImportError> {
        match self.text.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => {
                Err(self.error(attribute, format!("= \"{other}\" is not a boolean"), "write true or false"))
            }
        }
    }

    /// One of `allowed`.
    pub fn keyword(&self, attribute: &str, allowed: &[&'static str]) -> Result<&'static str, ImportError> {
        let t = self.text.trim();
        allowed.iter().find(|k| **k == t).copied().ok_or_else(|| {
            self.error(
                attribute,
                format!("= \"{t}\" is not known"),
                format!("use one of: {}", allowed.join(", ")),
            )
        })
    }

    /// A whole number.
    pub fn int(&self, attribute: &str) -> Result<i64, ImportError> {
        self.text.trim().parse::<i64>().map_err(|_| {
            self.error(attribute, format!("= \"{}\" is not a whole number", self.text), "give an integer")
        })
    }
}

/// An element's attributes with its default class behind them.
#[derive(Clone, Copy)]
pub(super) struct Attrs<'a> {
    pub el: &'a Element,
    defaults: Option<(&'a str, &'a AttrMap<'a>)>,
}

impl<'a> Attrs<'a> {
    /// The element's own attributes only (bodies, inertials, compiler, … have no defaults).
    pub fn own(el: &'a Element) -> Attrs<'a> {
        Attrs { el, defaults: None }
    }

    /// The element's attributes, falling back to class `class`'s `defaults`.
    pub fn with(el: &'a Element, class: &'a str, defaults: &'a AttrMap<'a>) -> Attrs<'a> {
        Attrs { el, defaults: Some((class, defaults)) }
    }

    pub fn get(&self, name: &str) -> Option<Found<'a>> {
        if let Some(text) = self.el.attr(name) {
            return Some(Found { text, at: self.el, class: None });
        }
        let (class, map) = self.defaults?;
        let at = *map.get(name)?;
        Some(Found { text: at.attr(name)?, at, class: Some(class) })
    }

    /// Whether the element itself (not its class) writes `name`.
    pub fn has_own(&self, name: &str) -> bool {
        self.el.attr(name).is_some()
    }

    pub fn text(&self, name: &str) -> Option<&'a str> {
        self.get(name).map(|f| f.text)
    }

    pub fn real(&self, name: &str) -> Result<Option<f64>, ImportError> {
        self.get(name).map(|f| Ok(f.array::<1>(name)?[0])).transpose()
    }

    pub fn real_or(&self, name: &str, default: f64) -> Result<f64, ImportError> {
        Ok(self.real(name)?.unwrap_or(default))
    }

    pub fn array<const N: usize>(&self, name: &str) -> Result<Option<[f64; N]>, ImportError> {
        self.get(name).map(|f| f.array::<N>(name)).transpose()
    }

    /// Up to `N` numbers written over `init` from the front, the class's first and then the
    /// element's (MuJoCo's rule for `size`, `friction`, `gear`, …: `size=".1"` keeps the rest).
    pub fn prefix<const N: usize>(&self, name: &str, init: [f64; N]) -> Result<[f64; N], ImportError> {
        let mut out = init;
        let class_value = self.defaults.and_then(|(class, map)| {
            let at = *map.get(name)?;
            Some(Found { text: at.attr(name)?, at, class: Some(class) })
        });
        for found in [class_value, self.el.attr(name).map(|text| Found { text, at: self.el, class: None })]
            .into_iter()
            .flatten()
        {
            let v = found.reals(name)?;
            if v.is_empty() || v.len() > N {
                return Err(found.error(
                    name,
                    format!("= \"{}\" has {} numbers", found.text, v.len()),
                    format!("give 1 to {N} numbers"),
                ));
            }
            out[..v.len()].copy_from_slice(&v);
        }
        Ok(out)
    }

    pub fn flag(&self, name: &str) -> Result<Option<bool>, ImportError> {
        self.get(name).map(|f| f.flag(name)).transpose()
    }

    pub fn keyword(&self, name: &str, allowed: &[&'static str]) -> Result<Option<&'static str>, ImportError> {
        self.get(name).map(|f| f.keyword(name, allowed)).transpose()
    }

    pub fn int(&self, name: &str) -> Result<Option<i64>, ImportError> {
        self.get(name).map(|f| f.int(name)).transpose()
    }

    /// An error about attribute `name`, at whichever element wrote it (this one if none did).
    pub fn error(&self, name: &str, problem: impl Into<String>, fix: impl Into<String>) -> ImportError {
        match self.get(name) {
            Some(found) => found.error(name, problem, fix),
            None => self.el.invalid(name, problem, fix),
        }
    }
}

/// `limited`-style attributes: `true`, `false` or `auto` (limited when a range is given and the
/// compiler's `autolimits` is on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Limited {
    True,
    False,
    Auto,
}

impl Limited {
    pub fn read(attrs: &Attrs, name: &str) -> Result<Limited, ImportError> {
        Ok(match attrs.keyword(name, &["true", "false", "auto"])? {
            Some("true") => Limited::True,
            Some("false") => Limited::False,
            _ => Limited::Auto,
        })
    }

    /// Whether `range` is in force. `Err(())`: a range under `auto` without `autolimits`, which
    /// MuJoCo refuses.
    pub fn resolve(self, range_given: bool, autolimits: bool) -> Result<bool, ()> {
        match self {
            Limited::True => Ok(true),
            Limited::False => Ok(false),
            Limited::Auto if range_given && !autolimits => Err(()),
            Limited::Auto => Ok(range_given),
        }
    }
}
