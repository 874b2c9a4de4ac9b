//! The candidate primitive pairs of two meshes, kept between the queries of a pair.
//!
//! A held object barely moves against the fingers holding it: step after step, and between
//! the force evaluations of one step, the traversal of the two hierarchies finds the same
//! candidate pairs (in the gripper benchmark it was half of all instructions). The pairs whose
//! boxes come within a margin `M` of each other (the primary's boxes grown by `M`, face axes
//! only) are kept at a relative pose X₀, and reused at a pose X while every box of the
//! secondary stays within `M/2` of where it was at X₀, and the secondary's face axes turn
//! little enough:
//!
//! - a point y of the secondary (|y| ≤ ρ_S about its origin) moves by at most
//!   D = ‖R − R₀‖·ρ_S + |t − t₀|;
//! - a face axis u of the secondary turns by at most ‖R − R₀‖, which changes the gap between
//!   two boxes along it by at most ‖R − R₀‖·(ρ_P + ρ_S + |t|) (the largest distance between
//!   their points).
//!
//! If `D + ‖R − R₀‖·(ρ_P + ρ_S + |t|) ≤ M/2`, a node pair that the traversal at X keeps (no
//! face axis separates it; its sphere test passes) was kept by the grown traversal at X₀ (a
//! separation along one of its axes by more than `M` would still separate them at X), so every
//! pair a traversal at X visits is among the kept ones. Both are depth-first walks that split
//! node pairs in one fixed order (the order in which a query's tasks are cut, too), so below a
//! task's node pair the kept pairs are a supersequence of those its traversal visits, and the
//! extra pairs (apart at X) give no polygon: a query gives bit for bit what fresh traversals
//! give, task by task.
//!
//! The same bound leaves out, when the candidates are found, the pairs of primitives that a
//! separating axis fixed in either body (a face normal of the primary's cell; the normal of the
//! secondary's triangle, or an edge's normal in its plane) holds more than `M` apart: at X they are
//! still at least `M/2` apart (a mesh and a rigid triangle: most of a held object's candidates,
//! whose boxes overlap while the primitives do not). Their polygons would be empty; far beyond
//! round-off (`M/2` is a thousandth of the bodies' size), clipping leaves nothing.

use crate::geometry::bvh::{Bvh, RelativePose};
use std::sync::Mutex;

/// The margin `M`, as a share of the two hierarchies' reaches `ρ_P + ρ_S`.
const MARGIN: f64 = 0.002;

/// Queries of more tasks than this traverse afresh: each task picks its pairs out of the whole
/// kept list, and a large contact has many more candidates within the margin than touching (a
/// bolt in its nut, 64 tasks: twice the instructions with the candidates kept).
pub const MAX_TASKS: usize = 16;

/// Candidates found anew after serving fewer than this many queries mean the pair moves too
/// fast to keep them (finding them costs more than it spares: a bolt turning in its nut): it is
/// then traversed afresh for [`PAUSE`] task traversals.
const MIN_USES: usize = 4;

/// See [`MIN_USES`].
const PAUSE: u32 = 64;

/// A pair's kept candidates (empty until its first query).
#[derive(Debug, Default)]
pub struct CandidateCache(Mutex<State>);

#[derive(Debug, Default)]
struct State {
    kept: Option<Kept>,
    /// Task traversals left to run afresh (see [`MIN_USES`]).
    pause: u32,
    /// How many times the candidates were found anew (for the tests).
    rebuilds: usize,
}

impl Clone for CandidateCache {
    /// An empty cache: what is kept is only ever a shortcut.
    fn clone(&self) -> Self {
        CandidateCache::default()
    }
}

/// The candidates of the grown traversal at one relative pose, in its order.
#[derive(Debug)]
struct Kept {
    rel: RelativePose,
    margin: f64,
    /// ρ_P and ρ_S: balls about each frame's origin that hold every box of its hierarchy.
    reach: (f64, f64),
    /// (primary, secondary, primary's leaf node, secondary's leaf node), in traversal order.
    pairs: Vec<[u32; 4]>,
    /// Task traversals served since the candidates were found.
    uses: usize,
}

impl Kept {
    /// Whether every pair a traversal at `rel` visits is among the kept ones (module docs).
    fn covers(&self, rel: &RelativePose) -> bool {
        let turn = (rel.rotation - self.rel.rotation).norm();
        let shift = (rel.translation - self.rel.translation).norm();
        let (rho_p, rho_s) = self.reach;
        let moved = turn * rho_s + shift;
        let spread = turn * (rho_p + rho_s + rel.translation.norm());
        moved + spread <= 0.5 * self.margin
    }
}

impl CandidateCache {
    /// Calls `visit` with what `primary.pairs_from(secondary, rel, task, visit)` visits and
    /// possibly some pairs more whose boxes do not overlap, in the same order, for `task` of a
    /// query of `tasks` tasks. `primary` and `secondary` must be the same hierarchies at every
    /// call.
    ///
    /// `apart(i, j, gap)` says whether primitives i and j are farther apart than `gap` along a
    /// separating axis fixed in either body (module docs): the pairs farther apart
    /// than `M` when the candidates are found are left out (they stay apart while the pose
    /// stays within `M/2`: no polygon).
    pub fn visit(
        &self,
        (primary, secondary): (&Bvh, &Bvh),
        rel: &RelativePose,
        (task, tasks): ((u32, u32), usize),
        apart: &impl Fn(u32, u32, f64) -> bool,
        visit: &mut impl FnMut(u32, u32),
    ) {
        let fresh = |visit: &mut dyn FnMut(u32, u32)| {
            primary.pairs_from(secondary, rel, task, &mut |i, j| visit(i, j))
        };
        if !primary.traverses_pairs(secondary, task) {
            return fresh(visit);
        }
        let Ok(mut state) = self.0.try_lock() else {
            // (Busy: another thread queries the same pair, as a query's tasks may.)
            return fresh(visit);
        };
        if state.pause > 0 {
            state.pause -= 1;
            return fresh(visit);
        }
        let kept = &mut state.kept;
        if !kept.as_ref().is_some_and(|k| k.covers(rel)) {
            if kept.as_ref().is_some_and(|k| k.uses < MIN_USES * tasks) {
                // Moving too fast: finding the candidates anew costs more than it spares.
                *kept = None;
                state.pause = PAUSE;
                return fresh(visit);
            }
            let (reach, mut pairs) = match kept.take() {
                Some(k) => (k.reach, k.pairs),
                None => ((primary.reach(), secondary.reach()), Vec::new()),
            };
            let margin = MARGIN * (reach.0 + reach.1);
            pairs.clear();
            primary.pairs_near(secondary, rel, margin, &mut |i, j, a, b| {
                if !apart(i, j, margin) {
                    pairs.push([i, j, a, b]);
                }
            });
            *kept = Some(Kept { rel: *rel, margin, reach, pairs, uses: 0 });
            state.rebuilds += 1;
        }
        if let Some(k) = state.kept.as_mut() {
            k.uses += 1;
            // The task's pairs: those with their leaves below its node pair.
            let (below_a, below_b) = (primary.subtree(task.0), secondary.subtree(task.1));
            for &[i, j, a, b] in &k.pairs {
                if below_a.contains(&a) && below_b.contains(&b) {
                    visit(i, j);
                }
            }
        }
    }

    /// How many times the kept candidates were found anew (0 before the first query that kept
    /// any).
    #[cfg(test)]
    pub fn rebuilds(&self) -> usize {
        self.0.lock().map_or(0, |s| s.rebuilds)
    }
}
