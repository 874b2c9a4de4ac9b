//! Disjoint sets over 0..n (union–find with path halving): the groups that contact, shared
//! vertices or shared edges join. A set's root is always its smallest member (a union hangs the
//! larger root under the smaller), so groups come out in the same order whatever the order of
//! the unions.

/// A union–find forest over 0..n.
#[derive(Clone, Debug)]
pub struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    /// n singletons.
    pub fn new(n: usize) -> DisjointSets {
        DisjointSets { parent: (0..n).collect() }
    }

    /// The root (smallest member) of `x`'s set.
    pub fn root(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`.
    pub fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DisjointSets;

    #[test]
    fn roots_are_the_smallest_members_whatever_the_order() {
        let mut s = DisjointSets::new(6);
        s.join(5, 3);
        s.join(4, 5);
        s.join(2, 1);
        assert_eq!((0..6).map(|x| s.root(x)).collect::<Vec<_>>(), vec![0, 1, 1, 3, 3, 3]);
        s.join(4, 1);
        assert_eq!((0..6).map(|x| s.root(x)).collect::<Vec<_>>(), vec![0, 1, 1, 1, 1, 1]);
    }
}
