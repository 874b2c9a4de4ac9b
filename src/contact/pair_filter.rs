//! Which body pairs may touch at all, whatever the model: not two bodies that never move, and
//! no pair excluded by the scene (later: a link and its parent). Built once from the scene's
//! bodies and handed to every model; a model adds only its own rules (two rigid bodies under the
//! pressure field, two half spaces).

use super::ContactBody;
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default)]
pub struct PairFilter {
    /// Bodies that never move (fixed).
    fixed: Vec<bool>,
    /// Pairs (a < b) excluded by name.
    excluded: BTreeSet<(usize, usize)>,
}

impl PairFilter {
    /// Every pair of `bodies` but those of two fixed bodies.
    pub fn new(bodies: &[ContactBody]) -> PairFilter {
        PairFilter { fixed: bodies.iter().map(|b| b.fixed).collect(), excluded: BTreeSet::new() }
    }

    /// Excludes the pair of bodies `a` and `b`.
    pub fn exclude(&mut self, a: usize, b: usize) {
        self.excluded.insert((a.min(b), a.max(b)));
    }

    /// Whether bodies `a` and `b` may touch.
    pub fn allows(&self, a: usize, b: usize) -> bool {
        let both_fixed = self.fixed[a] && self.fixed[b];
        !both_fixed && !self.excluded.contains(&(a.min(b), a.max(b)))
    }
}
