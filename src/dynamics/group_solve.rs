//! The linear solve shared by the fixed-step schemes: per free body a 6-vector of velocity
//! change (linear, angular; world frame), with bodies coupled by contact derivatives solved
//! together, each contact-connected group on its own:
//! (M − dt·∂Q/∂V − dt²·∂Q/∂X)·ΔV = rhs.

use super::error::DynamicsError;
use super::world::{Loads, World};
use crate::math::Vector3;
use nalgebra::{DMatrix, DVector};

/// The factors of the contact derivatives in the matrix: dt for ∂Q/∂V, and dt² for ∂Q/∂X when
/// positions are implicit (0 to leave the stiffness out).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub damping: f64,
    pub stiffness: f64,
}

/// The free bodies and the groups that contact couples.
pub struct Groups {
    /// Free body indices (into `world.bodies`).
    pub free: Vec<usize>,
    /// For each body, its index in `free` (`usize::MAX` if not free).
    slot: Vec<usize>,
    /// The members (indices into `free`) of each group.
    pub members: Vec<Vec<usize>>,
    /// For each group, the indices into `loads.derivatives` of its pairs, in their order there
    /// (so that a group's solve visits only its own pairs: 64 resting boxes are 64 groups).
    pairs: Vec<Vec<usize>>,
}

impl Groups {
    /// Groups the free bodies by the touching pairs that carry derivatives in `loads`.
    pub fn new(world: &World, loads: &Loads) -> Groups {
        let free: Vec<usize> =
            (0..world.bodies.len()).filter(|&i| world.layout.offset[i].is_some()).collect();
        let mut slot = vec![usize::MAX; world.bodies.len()];
        for (k, &i) in free.iter().enumerate() {
            slot[i] = k;
        }
        let mut groups = crate::math::DisjointSets::new(free.len());
        for &(a, b, _) in &loads.derivatives {
            if slot[a] != usize::MAX && slot[b] != usize::MAX {
                groups.join(slot[a], slot[b]);
            }
        }
        // Members and pairs by root, then the roots that have members.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); free.len()];
        let mut pairs: Vec<Vec<usize>> = vec![Vec::new(); free.len()];
        for k in 0..free.len() {
            members[groups.root(k)].push(k);
        }
        for (p, &(a, b, _)) in loads.derivatives.iter().enumerate() {
            // A pair with a fixed body belongs to its free body's group.
            let k = if slot[a] != usize::MAX { slot[a] } else { slot[b] };
            if k != usize::MAX {
                pairs[groups.root(k)].push(p);
            }
        }
        let (members, pairs) = members.into_iter().zip(pairs).filter(|(m, _)| !m.is_empty()).unzip();
        Groups { free, slot, members, pairs }
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
        let Weights { damping: dt, stiffness: stiffness_weight } = weights;
        let mut out = vec![(Vector3::zeros(), Vector3::zeros()); self.free.len()];
        let mut local = vec![usize::MAX; self.free.len()];
        for (bodies, pairs) in self.members.iter().zip(&self.pairs) {
            for (l, &k) in bodies.iter().enumerate() {
                local[k] = l;
            }
            let n = 6 * bodies.len();
            let mut a = DMatrix::<f64>::zeros(n, n);
            let mut b = DVector::<f64>::zeros(n);
            for (l, &k) in bodies.iter().enumerate() {
                let i = self.free[k];
                for d in 0..3 {
                    a[(6 * l + d, 6 * l + d)] = world.bodies[i].mass;
                }
                a.view_mut((6 * l + 3, 6 * l + 3), (3, 3)).copy_from(&world.world_inertia(i, y));
                let (f, tau) = rhs(k);
                b.rows_mut(6 * l, 3).copy_from(&f);
                b.rows_mut(6 * l + 3, 3).copy_from(&tau);
            }
            let in_group = |body: usize| {
                let k = self.slot[body];
                (k != usize::MAX && local[k] != usize::MAX).then(|| local[k])
            };
            for (pa, pb, d) in pairs.iter().map(|&p| &loads.derivatives[p]) {
                for (bi, body_i) in [(0, *pa), (6, *pb)] {
                    let Some(li) = in_group(body_i) else { continue };
                    for (bj, body_j) in [(0, *pa), (6, *pb)] {
                        let Some(lj) = in_group(body_j) else { continue };
                        let mut block = d.velocity.fixed_view::<6, 6>(bi, bj) * (-dt);
                        if let (Some(k), true) = (&d.pose, stiffness_weight != 0.0) {
                            block -= k.fixed_view::<6, 6>(bi, bj) * stiffness_weight;
                        }
                        let mut target = a.view_mut((6 * li, 6 * lj), (6, 6));
                        target += block;
                    }
                }
            }
            let solution = a.lu().solve(&b).ok_or_else(|| DynamicsError::Integrator {
                t,
                bodies: bodies
                    .iter()
                    .map(|&k| world.bodies[self.free[k]].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                reason: "the implicit velocity update is singular".into(),
            })?;
            for (l, &k) in bodies.iter().enumerate() {
                out[k] = (
                    solution.fixed_rows::<3>(6 * l).into_owned(),
                    solution.fixed_rows::<3>(6 * l + 3).into_owned(),
                );
                local[k] = usize::MAX;
            }
        }
        Ok(out)
    }
}

/// Gyroscopic torque ω × I·ω of free body `i` at state `y` (world frame).
pub fn gyroscopic(world: &World, i: usize, y: &[f64]) -> Vector3 {
    let o = world.layout.offset[i].unwrap_or(0);
    let w = Vector3::new(y[o + 10], y[o + 11], y[o + 12]);
    w.cross(&(world.world_inertia(i, y) * w))
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
    use crate::math::{Quaternion, UnitQuaternion};
    let o = world.layout.offset[i].unwrap_or(0);
    for d in 0..3 {
        y[o + 7 + d] = start[o + 7 + d] + dv[d];
        y[o + 10 + d] = start[o + 10 + d] + dw[d];
        y[o + d] = start[o + d] + dt * y[o + 7 + d];
    }
    let w = Vector3::new(y[o + 10], y[o + 11], y[o + 12]);
    let q = UnitQuaternion::new_normalize(Quaternion::new(
        start[o + 3],
        start[o + 4],
        start[o + 5],
        start[o + 6],
    ));
    let q = (UnitQuaternion::from_scaled_axis(w * dt) * q).into_inner();
    y[o + 3..o + 7].copy_from_slice(&[q.w, q.i, q.j, q.k]);
}
