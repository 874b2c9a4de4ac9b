//! Which of a scene's pairs may touch at a state: the pairs whose world bounds overlap.
//!
//! Bodies with bounds (meshes) are swept along x: sorted by their boxes' lower x, each box is
//! compared with the boxes that start before it ends, which is near-linear in the bodies for a
//! pile or a grid instead of quadratic in the pairs. A half space meets the bodies whose boxes
//! reach below its surface; a pair without bounds on either side always may touch.

use super::body::PfBody;
use crate::math::{Isometry3, Point3, Twist};

/// The sweep pays for itself from this many pairs; fewer are tested one by one.
const SWEEP_FROM: usize = 32;

/// A world box (lower, upper corner).
type Bounds = (Point3, Point3);

/// A model's pairs, split once by whether both bodies have bounds.
#[derive(Debug, Default)]
pub struct PairIndex {
    /// Every pair (a < b) that can touch, ascending.
    pairs: Vec<(usize, usize)>,
    /// The pairs with a body without bounds (a half space), ascending.
    unbounded: Vec<(usize, usize)>,
}

impl PairIndex {
    /// `pairs` ascending.
    pub fn new(bodies: &[PfBody], pairs: Vec<(usize, usize)>) -> PairIndex {
        let bounded = |i: usize| bodies[i].world_bounds(&Isometry3::identity()).is_some();
        let unbounded = pairs.iter().copied().filter(|&(a, b)| !bounded(a) || !bounded(b)).collect();
        PairIndex { pairs, unbounded }
    }

    /// Every pair that can touch, ascending.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// The pairs whose bodies' world bounds overlap at `poses` (a half space: reach below its
    /// surface), ascending.
    pub fn candidates(&self, bodies: &[PfBody], poses: &[(Isometry3, Twist)]) -> Vec<(usize, usize)> {
        let bounds: smallvec::SmallVec<[Option<Bounds>; 16]> =
            bodies.iter().zip(poses).map(|(c, (p, _))| c.world_bounds(p)).collect();
        let touch = |(a, b): (usize, usize)| match (&bounds[a], &bounds[b]) {
            (Some(x), Some(y)) => overlap(x, y),
            (None, Some(y)) => !bodies[a].above_half_space(&poses[a].0, y),
            (Some(x), None) => !bodies[b].above_half_space(&poses[b].0, x),
            (None, None) => true,
        };
        if self.pairs.len() < SWEEP_FROM {
            return self.pairs.iter().copied().filter(|&p| touch(p)).collect();
        }
        let mut out: Vec<(usize, usize)> = self.unbounded.iter().copied().filter(|&p| touch(p)).collect();
        let mut order: smallvec::SmallVec<[(f64, usize); 16]> =
            bounds.iter().enumerate().filter_map(|(i, b)| b.map(|(lo, _)| (lo.x, i))).collect();
        order.sort_unstable_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        for (k, &(_, i)) in order.iter().enumerate() {
            let Some(x) = &bounds[i] else { continue };
            for &(lo, j) in &order[k + 1..] {
                // Later boxes start further along x: none of them reaches this one.
                if lo > x.1.x {
                    break;
                }
                let pair = (i.min(j), i.max(j));
                if let Some(y) = &bounds[j]
                    && overlap(x, y)
                    && self.pairs.binary_search(&pair).is_ok()
                {
                    out.push(pair);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Whether two boxes overlap or touch (never where a coordinate is NaN).
#[inline]
fn overlap(x: &Bounds, y: &Bounds) -> bool {
    (0..3).all(|k| x.0[k] <= y.1[k] && y.0[k] <= x.1[k])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::pressure_field::{Compliance, ContactProperties};
    use crate::geometry::Shape;
    use crate::math::{UnitQuaternion, Vector3};

    /// Over random piles of boxes and spheres beside two tilted half spaces (the sweep's path)
    /// and a small scene (the one-by-one path), the candidates are the allowed pairs whose
    /// boxes overlap, every pair of a half space whose box reaches below its surface among
    /// them; and every pair left out has no contact polygon.
    #[test]
    fn candidates_are_the_overlapping_allowed_pairs() {
        use proptest::prelude::RngExt;
        use proptest::test_runner::{RngAlgorithm, TestRng};
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut rnd = move || rng.random::<f64>();
        let compliant = ContactProperties {
            compliance: Compliance::Compliant { modulus: 1e6, resolution: Some(0.04), slab_thickness: None },
            dissipation: 0.0,
            friction: 0.0,
        };
        let rigid = ContactProperties {
            compliance: Compliance::Rigid { resolution: None },
            dissipation: 0.0,
            friction: 0.0,
        };
        let cube = Shape::Box { size: [0.1, 0.1, 0.1] };
        let ball = Shape::Sphere { radius: 0.05 };
        for (count, trials) in [(24, 40), (3, 200)] {
            let mut bodies = vec![PfBody::new(&Shape::HalfSpace, &rigid).unwrap()];
            bodies.push(PfBody::new(&Shape::HalfSpace, &rigid).unwrap());
            for k in 0..count {
                bodies.push(PfBody::new(if k % 3 == 0 { &ball } else { &cube }, &compliant).unwrap());
            }
            let n = bodies.len();
            // Every pair but two rigid ones, and one pair left out (a scene's exclusion).
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .filter(|&p| p != (0, 1) && p != (2, 3))
                .collect();
            let index = PairIndex::new(&bodies, pairs.clone());
            for _ in 0..trials {
                let mut poses: Vec<(Isometry3, Twist)> = (0..n)
                    .map(|_| {
                        let x = Vector3::new(rnd(), rnd(), rnd() * 0.3) * 0.5;
                        let q = UnitQuaternion::from_euler_angles(rnd() * 6.0, rnd() * 6.0, rnd() * 6.0);
                        (Isometry3::from_parts(x.into(), q), Twist::default())
                    })
                    .collect();
                // Two gently tilted grounds near z = 0.
                for h in 0..2 {
                    let q = UnitQuaternion::from_euler_angles(0.2 * (rnd() - 0.5), 0.2 * (rnd() - 0.5), 0.0);
                    poses[h].0 = Isometry3::from_parts(Vector3::new(0.0, 0.0, 0.05 * rnd()).into(), q);
                }
                let ours = index.candidates(&bodies, &poses);
                let bounds: Vec<_> = bodies.iter().zip(&poses).map(|(b, (p, _))| b.world_bounds(p)).collect();
                let expected: Vec<(usize, usize)> = pairs
                    .iter()
                    .copied()
                    .filter(|&(a, b)| match (&bounds[a], &bounds[b]) {
                        (Some(x), Some(y)) => overlap(x, y),
                        (None, Some(y)) => !bodies[a].above_half_space(&poses[a].0, y),
                        _ => true,
                    })
                    .collect();
                assert_eq!(ours, expected);
                for &(a, b) in pairs.iter().filter(|p| !ours.contains(p)) {
                    let state = |i: usize| crate::contact::pressure_field::BodyState {
                        body: &bodies[i],
                        pose: poses[i].0,
                        twist: Twist::default(),
                    };
                    let touching = crate::contact::pressure_field::evaluate_pair(
                        state(a),
                        state(b),
                        &Default::default(),
                    )
                    .unwrap();
                    assert_eq!(touching.faces, 0, "pair ({a}, {b}) left out, yet it touches");
                }
            }
        }
    }
}
