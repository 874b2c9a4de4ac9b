//! Which body pairs may touch at all, whatever the model: not two bodies that never move, no
//! pair with a body that has no shape, and no pair excluded by the scene (a link and its
//! parent, `[[exclude]]`). Built once from the scene's bodies and handed to every model; a model
//! adds only its own rules (two rigid bodies under the pressure field, two half spaces).

use super::ContactBody;
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default)]
pub struct PairFilter {
    /// Bodies that never move (fixed).
    fixed: Vec<bool>,
    /// Bodies without a shape: they touch nothing.
    shapeless: Vec<bool>,
    /// Pairs (a < b) excluded by name.
    excluded: BTreeSet<(usize, usize)>,
}

impl PairFilter {
    /// Every pair of `bodies` but those of two fixed bodies and those with a body without a
    /// shape.
    pub fn new(bodies: &[ContactBody]) -> PairFilter {
        PairFilter {
            fixed: bodies.iter().map(|b| b.fixed).collect(),
            shapeless: bodies.iter().map(|b| b.shape.is_none()).collect(),
            excluded: BTreeSet::new(),
        }
    }

    /// Excludes the pair of bodies `a` and `b`.
    pub fn exclude(&mut self, a: usize, b: usize) {
        self.excluded.insert((a.min(b), a.max(b)));
    }

    /// Whether bodies `a` and `b` may touch.
    pub fn allows(&self, a: usize, b: usize) -> bool {
        let both_fixed = self.fixed[a] && self.fixed[b];
        let shapeless = self.shapeless[a] || self.shapeless[b];
        !both_fixed && !shapeless && !self.excluded.contains(&(a.min(b), a.max(b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::ContactSpec;
    use crate::geometry::Shape;

    #[test]
    fn two_fixed_bodies_and_excluded_pairs_never_touch() {
        let (shape, contact) = (Shape::Sphere { radius: 0.1 }, ContactSpec::default());
        let body = |name, fixed| ContactBody { name, shape: Some(&shape), contact: &contact, fixed };
        let bodies = [body("ground", true), body("wall", true), body("a", false), body("b", false)];
        let mut filter = PairFilter::new(&bodies);
        assert!(!filter.allows(0, 1) && !filter.allows(1, 0));
        assert!(filter.allows(0, 2) && filter.allows(2, 3));
        filter.exclude(3, 2);
        assert!(!filter.allows(2, 3) && !filter.allows(3, 2));
        assert!(filter.allows(1, 3));
    }

    #[test]
    fn a_body_without_a_shape_touches_nothing() {
        let (shape, contact) = (Shape::Sphere { radius: 0.1 }, ContactSpec::default());
        let ground = ContactBody { name: "ground", shape: Some(&shape), contact: &contact, fixed: true };
        let link = ContactBody { name: "link", shape: None, contact: &contact, fixed: false };
        let ball = ContactBody { name: "ball", shape: Some(&shape), contact: &contact, fixed: false };
        let filter = PairFilter::new(&[ground, link, ball]);
        assert!(!filter.allows(0, 1) && !filter.allows(1, 2) && !filter.allows(2, 1));
        assert!(filter.allows(0, 2));
    }
}
