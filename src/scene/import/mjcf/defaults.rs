//! `<default>` classes: nested classes inherit their parent's attributes and override them; an
//! element takes its `class`, else the nearest enclosing body's `childclass`, else the top class
//! (`main`).

use super::actuator_params::{ActuatorParams, OTHER, SUPPORTED};
use super::attrs::{AttrMap, Attrs};
use super::xml::Element;
use crate::scene::import::ImportError;
use std::collections::HashMap;

/// The element kinds whose defaults we read (the others in a `<default>` are appearance or
/// things we skip: site, camera, light, material, pair, tendon).
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Joint,
    Geom,
    Mesh,
    Equality,
}

#[derive(Default)]
pub(super) struct Class<'a> {
    pub name: &'a str,
    joint: AttrMap<'a>,
    geom: AttrMap<'a>,
    mesh: AttrMap<'a>,
    equality: AttrMap<'a>,
    pub actuator: ActuatorParams,
}

pub(super) struct Classes<'a> {
    list: Vec<Class<'a>>,
    index: HashMap<&'a str, usize>,
}

impl<'a> Classes<'a> {
    /// The classes of the top-level `<default>` sections (several merge into `main`).
    pub fn read(sections: &[&'a Element]) -> Result<Classes<'a>, ImportError> {
        let mut classes =
            Classes { list: vec![Class { name: "main", ..Class::default() }], index: HashMap::new() };
        classes.index.insert("main", 0);
        for section in sections {
            if let Some(name) = section.attr("class").filter(|n| *n != "main") {
                return Err(section.invalid(
                    "class",
                    format!("= \"{name}\" on the top-level default, which is always 'main'"),
                    "remove `class` from the outermost <default>, or nest this one inside it",
                ));
            }
            classes.fill(0, section)?;
        }
        Ok(classes)
    }

    /// Reads `section`'s elements into class `k`, then its nested classes.
    fn fill(&mut self, k: usize, section: &'a Element) -> Result<(), ImportError> {
        for el in &section.children {
            let class = &mut self.list[k];
            let map = match el.tag.as_str() {
                "joint" => &mut class.joint,
                "geom" => &mut class.geom,
                "mesh" => &mut class.mesh,
                "equality" => &mut class.equality,
                tag if SUPPORTED.contains(&tag) || OTHER.contains(&tag) => {
                    class.actuator.apply(el)?;
                    continue;
                }
                "site" | "camera" | "light" | "material" | "pair" | "tendon" | "default" => continue,
                other => {
                    return Err(el.invalid(
                        "",
                        format!("<{other}> is not an element a <default> can hold"),
                        "remove it, or check the spelling (joint, geom, mesh, motor, position, …)",
                    ));
                }
            };
            for (name, _) in &el.attrs {
                map.insert(name.as_str(), el);
            }
        }
        for nested in section.children.iter().filter(|e| e.tag == "default") {
            let Some(name) = nested.attr("class") else {
                return Err(nested.invalid(
                    "class",
                    "is missing",
                    "name the nested default: <default class=\"arm\">",
                ));
            };
            if self.index.contains_key(name) {
                return Err(nested.invalid(
                    "class",
                    format!("= \"{name}\" is defined twice"),
                    "give each default class a different name",
                ));
            }
            let parent = &self.list[k];
            let child = Class {
                name,
                joint: parent.joint.clone(),
                geom: parent.geom.clone(),
                mesh: parent.mesh.clone(),
                equality: parent.equality.clone(),
                actuator: parent.actuator.clone(),
            };
            self.list.push(child);
            let id = self.list.len() - 1;
            self.index.insert(name, id);
            self.fill(id, nested)?;
        }
        Ok(())
    }

    pub fn main(&self) -> &Class<'a> {
        &self.list[0]
    }

    /// The class of `el`: its `class`, else `childclass` (the enclosing body's), else main.
    pub fn of(&self, el: &Element, childclass: Option<&str>) -> Result<&Class<'a>, ImportError> {
        match el.attr("class").or(childclass) {
            None => Ok(self.main()),
            Some(name) => self.named(name).ok_or_else(|| {
                let attribute = if el.attr("class").is_some() { "class" } else { "childclass" };
                el.invalid(
                    attribute,
                    format!("names class '{name}', which no <default> defines"),
                    format!("define <default class=\"{name}\"> or use one of: {}", self.names()),
                )
            }),
        }
    }

    pub fn named(&self, name: &str) -> Option<&Class<'a>> {
        self.index.get(name).map(|&k| &self.list[k])
    }

    fn names(&self) -> String {
        self.list.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
    }
}

impl<'a> Class<'a> {
    /// `el`'s attributes backed by this class's defaults of `kind`.
    pub fn attrs<'s>(&'s self, el: &'s Element, kind: Kind) -> Attrs<'s> {
        let map = match kind {
            Kind::Joint => &self.joint,
            Kind::Geom => &self.geom,
            Kind::Mesh => &self.mesh,
            Kind::Equality => &self.equality,
        };
        Attrs::with(el, self.name, map)
    }
}
