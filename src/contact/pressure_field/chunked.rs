//! Deterministic parallel reduction: work is cut into fixed-size chunks whatever the number of
//! threads, each chunk is reduced in order, and the partial results come back in chunk order,
//! so sums are bit-identical with one thread or many.

use crate::math::parallel::Section;
use rayon::prelude::*;

/// Items per chunk. Fixed (never derived from the thread count) for determinism.
pub const CHUNK: usize = 256;

/// Below this many items the work runs on the calling thread: too little to gain from threads.
pub const PARALLEL_THRESHOLD: usize = 4 * CHUNK;

/// Reduces each chunk of `items` with `f`, in parallel when there are enough items, and returns
/// the per-chunk results in order.
pub fn sum_chunks<T: Sync, R: Send>(items: &[T], f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    if items.len() >= PARALLEL_THRESHOLD {
        let _section = Section::enter();
        items.par_chunks(CHUNK).map(&f).collect()
    } else {
        items.chunks(CHUNK).map(&f).collect()
    }
}
