//! The state as typed blocks, asked, never indexed: a block per free body
//! ([`FreeBlock`]), then the two energy-balance entries (the energy dissipated by contact and the
//! work of applied loads and kinematic bodies). Solvers get a body's block from
//! [`Coordinates::free`] and read poses, twists and inertia through it. A world with mechanisms
//! has one more block after the free ones, its joint coordinates ([`Coordinates::mechanism_at`];
//! laid out by `dynamics::mechanism`).

pub mod articulation;
mod free;

pub use free::{FreeBlock, InverseMass};

/// The position among the free bodies of a body that is not free ([`Coordinates::free_slots`]).
pub const NOT_FREE: usize = usize::MAX;

/// Where every body's coordinates sit in the state vector.
#[derive(Clone, Debug)]
pub struct Coordinates {
    /// For each body, its free block (`None`: fixed or kinematic, no state).
    of_body: Vec<Option<FreeBlock>>,
    /// The free blocks, in body order.
    free: Vec<FreeBlock>,
    /// The free bodies' indices, in body order.
    free_bodies: Vec<usize>,
    /// For each body, its index in `free` ([`NOT_FREE`] if not free).
    slot: Vec<usize>,
    /// Where the mechanisms' block starts, and its length.
    mechanism: (usize, usize),
    dim: usize,
}

impl Coordinates {
    /// Blocks for the bodies of which `is_free` holds, in body order, then a block of
    /// `mechanism` numbers for the joint coordinates.
    pub fn new(is_free: impl IntoIterator<Item = bool>, mechanism: usize) -> Coordinates {
        let (mut of_body, mut free, mut slot, mut free_bodies) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut dim = 0;
        for (i, f) in is_free.into_iter().enumerate() {
            if f {
                let block = FreeBlock::new(i, dim);
                dim += FreeBlock::LEN;
                slot.push(free.len());
                free.push(block);
                free_bodies.push(i);
                of_body.push(Some(block));
            } else {
                slot.push(NOT_FREE);
                of_body.push(None);
            }
        }
        Coordinates {
            of_body,
            free,
            free_bodies,
            slot,
            mechanism: (dim, mechanism),
            dim: dim + mechanism + 2,
        }
    }

    /// Where the mechanisms' block starts in the state.
    pub fn mechanism_at(&self) -> usize {
        self.mechanism.0
    }

    /// Length of the state vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Body `i`'s block, if it is free.
    #[inline(always)]
    pub fn free(&self, i: usize) -> Option<FreeBlock> {
        self.of_body[i]
    }

    /// Whether body `i` has coordinates (is free).
    #[inline(always)]
    pub fn is_free(&self, i: usize) -> bool {
        self.of_body[i].is_some()
    }

    /// The free bodies' blocks, in body order.
    #[inline(always)]
    pub fn free_blocks(&self) -> &[FreeBlock] {
        &self.free
    }

    /// The free bodies' indices, in body order.
    #[inline(always)]
    pub fn free_bodies(&self) -> &[usize] {
        &self.free_bodies
    }

    /// Each body's position among the free bodies, [`NOT_FREE`] for the others (for solvers'
    /// inner loops).
    #[inline(always)]
    pub fn free_slots(&self) -> &[usize] {
        &self.slot
    }

    fn dissipated_index(&self) -> usize {
        self.dim - 2
    }

    fn work_index(&self) -> usize {
        self.dim - 1
    }

    /// The energy dissipated by contact so far (J).
    #[inline(always)]
    pub fn dissipated(&self, y: &[f64]) -> f64 {
        y[self.dissipated_index()]
    }

    #[inline(always)]
    pub fn set_dissipated(&self, y: &mut [f64], energy: f64) {
        y[self.dissipated_index()] = energy;
    }

    /// Adds to the dissipated energy.
    #[inline(always)]
    pub fn add_dissipated(&self, y: &mut [f64], energy: f64) {
        y[self.dissipated_index()] += energy;
    }

    /// Sets the rate of dissipation in a state derivative.
    pub fn set_dissipation_rate(&self, dy: &mut [f64], rate: f64) {
        dy[self.dissipated_index()] = rate;
    }

    /// The work done on the bodies by applied loads and kinematic bodies so far (J).
    #[inline(always)]
    pub fn work(&self, y: &[f64]) -> f64 {
        y[self.work_index()]
    }

    #[inline(always)]
    pub fn set_work(&self, y: &mut [f64], work: f64) {
        y[self.work_index()] = work;
    }

    /// Adds to the external work.
    #[inline(always)]
    pub fn add_work(&self, y: &mut [f64], work: f64) {
        y[self.work_index()] += work;
    }

    /// Sets the external power in a state derivative.
    pub fn set_external_power(&self, dy: &mut [f64], power: f64) {
        dy[self.work_index()] = power;
    }
}
