//! The linear solve shared by the fixed-step schemes: per free body a 6-vector of velocity
//! change (linear, angular; world frame), with bodies coupled by contact derivatives solved
//! together, each contact-connected group on its own:
//! (M − dt·∂Q/∂V − dt²·∂Q/∂X)·ΔV = rhs.

use super::error::DynamicsError;
use super::world::{Loads, World};
use crate::math::{Matrix3, Vector3, solve6};
use nalgebra::{Matrix6, Vector6};

/// A free body's mass, world inertia and its inverse (`None`: singular) at a step's start.
pub type BodyInertia = (f64, Matrix3, Option<Matrix3>);

/// The factors of the contact derivatives in the matrix: dt for ∂Q/∂V, and dt² for ∂Q/∂X when
/// positions are implicit (0 to leave the stiffness out).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub damping: f64,
    pub stiffness: f64,
}

/// The free bodies and the groups that contact couples.
pub struct Groups<'w> {
    /// Free body indices (into `world.bodies`).
    pub free: &'w [usize],
    /// For each body, its index in `free` (`usize::MAX` if not free).
    slot: &'w [usize],
    /// The members (indices into `free`, ascending) of every group, group after group (groups
    /// in the order of their smallest member); group g ends at `member_ends[g]`.
    members: Indices,
    member_ends: Indices,
    /// The indices into `loads.derivatives` of each group's pairs, in their order there (so
    /// that a group's solve visits only its own pairs: 64 resting boxes are 64 groups); group g
    /// ends at `pair_ends[g]`.
    pairs: Indices,
    pair_ends: Indices,
    /// Per free body, a correction added to its diagonal block of the matrix (a quasi-Newton
    /// update between evaluations of the derivatives); none by default.
    corrections: Option<&'w [Matrix6<f64>]>,
    /// Per free body, its world inertia at the state the solve is given, when the caller has
    /// it already; else computed from that state.
    inertia: Option<&'w [BodyInertia]>,
}

/// Index lists of a step's groups: on the stack for scenes of a few bodies (a step builds them
/// at every Newton solve).
type Indices = smallvec::SmallVec<[usize; 16]>;

impl<'w> Groups<'w> {
    /// Groups the free bodies by the touching pairs that carry derivatives in `loads`.
    pub fn new(world: &'w World, loads: &Loads) -> Groups<'w> {
        let (free, slot) = (world.coords.free_bodies(), world.coords.free_slots());
        if free.len() == 1 {
            // One free body (a sphere on the ground): one group, every pair its own.
            let pairs: Indices = (0..loads.derivatives.len())
                .filter(|&p| {
                    let (a, b, _) = loads.derivatives[p];
                    slot[a] != usize::MAX || slot[b] != usize::MAX
                })
                .collect();
            let (members, member_ends) = (smallvec::smallvec![0], smallvec::smallvec![1]);
            let pair_ends = smallvec::smallvec![pairs.len()];
            return Groups {
                free,
                slot,
                members,
                member_ends,
                pairs,
                pair_ends,
                corrections: None,
                inertia: None,
            };
        }
        let joins = |&(a, b, _): &(usize, usize, _)| slot[a] != usize::MAX && slot[b] != usize::MAX;
        // Each free body's group number, groups in the order of their smallest member: without
        // a pair of free bodies (bodies resting on fixed ones), each body alone.
        let mut group: Indices = (0..free.len()).collect();
        let mut count = free.len();
        if loads.derivatives.iter().any(joins) {
            let mut sets = crate::math::DisjointSets::new(free.len());
            for &(a, b, _) in loads.derivatives.iter().filter(|p| joins(p)) {
                sets.join(slot[a], slot[b]);
            }
            count = 0;
            for k in 0..free.len() {
                // Roots are their sets' smallest members: a member's root is numbered already.
                let root = sets.root(k);
                group[k] = if root == k {
                    count += 1;
                    count - 1
                } else {
                    group[root]
                };
            }
        }
        // Members and pairs sorted by group, stably (a counting sort).
        let pair_group: smallvec::SmallVec<[Option<usize>; 16]> = loads
            .derivatives
            .iter()
            .map(|&(a, b, _)| {
                // A pair with a fixed body belongs to its free body's group.
                let k = if slot[a] != usize::MAX { slot[a] } else { slot[b] };
                (k != usize::MAX).then(|| group[k])
            })
            .collect();
        let (members, member_ends) = sort_by_group(count, group.iter().map(|&g| Some(g)));
        let (pairs, pair_ends) = sort_by_group(count, pair_group.into_iter());
        Groups { free, slot, members, member_ends, pairs, pair_ends, corrections: None, inertia: None }
    }

    /// The groups with `corrections` (one per free body) added to the bodies' diagonal blocks.
    pub fn with_corrections(self, corrections: &'w [Matrix6<f64>]) -> Groups<'w> {
        Groups { corrections: Some(corrections), ..self }
    }

    /// The groups with each free body's mass and world inertia at the state given to
    /// [`Groups::solve`] (one per free body), instead of computing them there.
    pub fn with_inertia(self, inertia: &'w [BodyInertia]) -> Groups<'w> {
        Groups { inertia: Some(inertia), ..self }
    }

    /// Each group's members and pairs.
    fn groups(&self) -> impl Iterator<Item = (&[usize], &[usize])> {
        (0..self.member_ends.len()).map(|g| {
            let begin = |ends: &[usize]| if g == 0 { 0 } else { ends[g - 1] };
            (
                &self.members[begin(&self.member_ends)..self.member_ends[g]],
                &self.pairs[begin(&self.pair_ends)..self.pair_ends[g]],
            )
        })
    }

    /// Solves every group at time `t`. `rhs(k)` is the right-hand side of free body `k`
    /// (force-like, ×dt), `y` the state whose inertia is used. Returns ΔV per free body.
    pub fn solve(
        &self,
        world: &World,
        (t, y): (f64, &[f64]),
        loads: &Loads,
        weights: Weights,
        rhs: impl Fn(usize) -> (Vector3, Vector3),
    ) -> Result<Vec<(Vector3, Vector3)>, DynamicsError> {
        let mut out = vec![(Vector3::zeros(), Vector3::zeros()); self.free.len()];
        for (bodies, pairs) in self.groups() {
            let system = GroupSystem { groups: self, world, y, loads, weights, bodies, pairs };
            let mut store = |x: &[f64]| {
                for (l, &k) in bodies.iter().enumerate() {
                    let part = |from: usize| Vector3::from_column_slice(&x[from..from + 3]);
                    out[k] = (part(6 * l), part(6 * l + 3));
                }
            };
            // A body alone (a box resting on the ground) is solved in a fixed-size matrix, with
            // the same arithmetic as the general one.
            let solved = if bodies.len() == 1 {
                let (a, b) = system.assemble_one(&rhs);
                solve6(a, b).map(|x| store(x.as_slice()))
            } else {
                let (a, b) = system.assemble(nalgebra::Dyn(6 * bodies.len()), &rhs);
                a.lu().solve(&b).map(|x| store(x.as_slice()))
            };
            solved.ok_or_else(|| DynamicsError::Integrator {
                t,
                bodies: bodies
                    .iter()
                    .map(|&k| world.bodies[self.free[k]].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                reason: "the implicit velocity update is singular".into(),
            })?;
        }
        Ok(out)
    }
}

/// Sorts the items `0..` by their group (`None`: left out), stably: the items, and where each of
/// the `count` groups ends among them.
fn sort_by_group(count: usize, groups: impl Iterator<Item = Option<usize>> + Clone) -> (Indices, Indices) {
    let mut ends: Indices = smallvec::smallvec![0; count];
    for g in groups.clone().flatten() {
        ends[g] += 1;
    }
    let mut next = Indices::with_capacity(count);
    let mut total = 0;
    for e in &mut ends {
        next.push(total);
        total += *e;
        *e = total;
    }
    let mut items: Indices = smallvec::smallvec![0; total];
    for (item, g) in groups.enumerate() {
        if let Some(g) = g {
            items[next[g]] = item;
            next[g] += 1;
        }
    }
    (items, ends)
}

/// One group's linear system (M − dt·∂Q/∂V − dt²·∂Q/∂X)·ΔV = rhs.
struct GroupSystem<'a, 'w> {
    groups: &'a Groups<'w>,
    world: &'a World,
    y: &'a [f64],
    loads: &'a Loads,
    weights: Weights,
    /// The group's members (indices into `free`) and its pairs (into `loads.derivatives`).
    bodies: &'a [usize],
    pairs: &'a [usize],
}

impl GroupSystem<'_, '_> {
    /// Free body `k`'s mass and world inertia.
    fn inertia(&self, k: usize) -> (f64, Matrix3) {
        let i = self.groups.free[k];
        match self.groups.inertia {
            Some(inertia) => (inertia[k].0, inertia[k].1),
            None => (self.world.bodies[i].mass, self.world.world_inertia(i, self.y)),
        }
    }

    /// [`GroupSystem::assemble`] for a group of one body, in fixed-size arrays: the same entries
    /// from the same operations (its pairs' other bodies are fixed, so only its own diagonal
    /// blocks count).
    fn assemble_one(&self, rhs: &impl Fn(usize) -> (Vector3, Vector3)) -> (Matrix6<f64>, Vector6<f64>) {
        let Weights { damping: dt, stiffness: stiffness_weight } = self.weights;
        let k = self.bodies[0];
        let (mass, inertia) = self.inertia(k);
        let (f, tau) = rhs(k);
        let mut a = Matrix6::zeros();
        let mut b = Vector6::zeros();
        for r in 0..3 {
            a[(r, r)] = mass;
            for c in 0..3 {
                a[(3 + r, 3 + c)] = inertia[(r, c)];
            }
            b[r] = f[r];
            b[3 + r] = tau[r];
        }
        for (pa, pb, d) in self.pairs.iter().map(|&p| &self.loads.derivatives[p]) {
            let stiffness = d.pose.as_ref().filter(|_| stiffness_weight != 0.0);
            for (bi, body) in [(0, *pa), (6, *pb)] {
                if self.groups.slot[body] != k {
                    continue;
                }
                let velocity = d.velocity.fixed_view::<6, 6>(bi, bi);
                let pose = stiffness.map(|m| m.fixed_view::<6, 6>(bi, bi));
                for c in 0..6 {
                    for r in 0..6 {
                        let mut entry = velocity[(r, c)] * (-dt);
                        if let Some(m) = &pose {
                            entry -= m[(r, c)] * stiffness_weight;
                        }
                        a[(r, c)] += entry;
                    }
                }
            }
        }
        if let Some(correction) = self.groups.corrections.map(|c| &c[k])
            && !is_zero(correction)
        {
            a += correction;
        }
        (a, b)
    }

    /// The matrix and right-hand side, of dimension `n` = 6 × members.
    fn assemble<D: nalgebra::Dim>(
        &self,
        n: D,
        rhs: &impl Fn(usize) -> (Vector3, Vector3),
    ) -> (nalgebra::OMatrix<f64, D, D>, nalgebra::OVector<f64, D>)
    where
        nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<D, D> + nalgebra::allocator::Allocator<D>,
    {
        let Weights { damping: dt, stiffness: stiffness_weight } = self.weights;
        let mut a = nalgebra::OMatrix::<f64, D, D>::zeros_generic(n, n);
        let mut b = nalgebra::OVector::<f64, D>::zeros_generic(n, nalgebra::U1);
        // (Element by element: nalgebra's views of generic size cost more than the sums.)
        for (l, &k) in self.bodies.iter().enumerate() {
            let (mass, inertia) = self.inertia(k);
            let (f, tau) = rhs(k);
            for r in 0..3 {
                a[(6 * l + r, 6 * l + r)] = mass;
                for c in 0..3 {
                    a[(6 * l + 3 + r, 6 * l + 3 + c)] = inertia[(r, c)];
                }
                b[6 * l + r] = f[r];
                b[6 * l + 3 + r] = tau[r];
            }
        }
        // A body's place in the group (members are ascending: a binary search).
        let in_group = |body: usize| {
            let k = self.groups.slot[body];
            if k == usize::MAX { None } else { self.bodies.binary_search(&k).ok() }
        };
        for (pa, pb, d) in self.pairs.iter().map(|&p| &self.loads.derivatives[p]) {
            for (bi, body_i) in [(0, *pa), (6, *pb)] {
                let Some(li) = in_group(body_i) else { continue };
                for (bj, body_j) in [(0, *pa), (6, *pb)] {
                    let Some(lj) = in_group(body_j) else { continue };
                    let stiffness = d.pose.as_ref().filter(|_| stiffness_weight != 0.0);
                    for c in 0..6 {
                        for r in 0..6 {
                            let mut entry = d.velocity[(bi + r, bj + c)] * (-dt);
                            if let Some(k) = stiffness {
                                entry -= k[(bi + r, bj + c)] * stiffness_weight;
                            }
                            a[(6 * li + r, 6 * lj + c)] += entry;
                        }
                    }
                }
            }
        }
        if let Some(corrections) = self.groups.corrections {
            for (l, &k) in self.bodies.iter().enumerate() {
                if !is_zero(&corrections[k]) {
                    for c in 0..6 {
                        for r in 0..6 {
                            a[(6 * l + r, 6 * l + c)] += corrections[k][(r, c)];
                        }
                    }
                }
            }
        }
        (a, b)
    }
}

/// Whether every entry of `m` is zero (as `*m == Matrix6::zeros()`, over the plain array:
/// nalgebra's comparison walks its generic iterators, a tenth of a one-body solve).
#[inline]
fn is_zero(m: &Matrix6<f64>) -> bool {
    m.as_slice().iter().all(|&x| x == 0.0)
}

/// Gyroscopic torque ω × I·ω of free body `i` at state `y` (world frame).
pub fn gyroscopic(world: &World, i: usize, y: &[f64]) -> Vector3 {
    gyroscopic_with(&world.world_inertia(i, y), world, i, y)
}

/// [`gyroscopic`] with body `i`'s world inertia at `y` already known.
pub fn gyroscopic_with(inertia: &crate::math::Matrix3, world: &World, i: usize, y: &[f64]) -> Vector3 {
    let w = world.coords.free(i).map_or_else(Vector3::zeros, |block| block.angular_velocity(y));
    w.cross(&(inertia * w))
}

/// Sets the velocities of free body `i` in `y` to `start`'s plus `dv`, and its pose to
/// `start`'s moved by `dt` at the new velocities: x ← x + dt·v, q ← exp(ω·dt) ⊗ q.
pub fn set_velocity_and_advance(
    world: &World,
    i: usize,
    start: &[f64],
    (dv, dw): (Vector3, Vector3),
    dt: f64,
    y: &mut [f64],
) {
    let Some(block) = world.coords.free(i) else { return };
    let v = block.velocity(start) + dv;
    let w = block.angular_velocity(start) + dw;
    block.set_velocity(y, &v);
    block.set_angular_velocity(y, &w);
    let (com, q) = block.advanced_pose(start, &v, &w, dt);
    block.set_com(y, &com);
    block.set_quaternion(y, &q);
}
