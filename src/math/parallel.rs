//! The step's parallel work, counted while it runs, so that a thread working beside the thread
//! pool (the CSV writer) can step aside for it.
//!
//! On a machine with no spare core the writer shares a core with a pool worker. A parallel
//! section ends only when its last piece does, so a writer that holds the core of a worker with
//! a piece in hand stalls the whole step; between sections the workers are idle and the writer
//! costs the step nothing. [`yield_while_running`] gives the core back while a section runs.

use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Parallel sections running in this process (nested ones counted too).
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A parallel section in progress, counted until dropped.
#[must_use = "the section is counted only while this guard lives"]
#[derive(Debug)]
pub struct Section(());

impl Section {
    /// Counts a section that starts now.
    pub fn enter() -> Section {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Section(())
    }
}

impl Drop for Section {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether a parallel section is running in this process.
pub fn running() -> bool {
    RUNNING.load(Ordering::Relaxed) > 0
}

/// Yields this thread's core while a parallel section runs, at most `max_yields` times (a
/// section that outlasts them, or one of another run in this process, cannot hold the caller
/// up for long). Returns the yields made.
pub fn yield_while_running(max_yields: u32) -> u32 {
    let mut yields = 0;
    while yields < max_yields && running() {
        std::thread::yield_now();
        yields += 1;
    }
    yields
}

/// `f` of each item, in order: on the pool's threads, as a counted section, when there are at
/// least two items (the results do not depend on the thread count).
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    let mut out = Vec::new();
    map_into(items, f, &mut out);
    out
}

/// [`map`] into `out` (cleared first), which keeps its allocation from call to call.
pub fn map_into<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send, out: &mut Vec<R>) {
    if items.len() > 1 {
        let _section = Section::enter();
        items.par_iter().map(f).collect_into_vec(out);
    } else {
        out.clear();
        out.extend(items.iter().map(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_is_running_while_its_guard_lives_and_maps_keep_the_order() {
        // Other tests of this binary may run sections at the same time: only "running while
        // held" is certain.
        let section = Section::enter();
        assert!(running());
        let started = std::time::Instant::now();
        assert_eq!(yield_while_running(50), 50);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        drop(section);
        let items: Vec<u64> = (0..1000).collect();
        let squares = map(&items, |x| x * x);
        assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        assert_eq!(map(&items[..1], |x| x + 1), vec![1]);
        let mut out = vec![7u64; 3];
        map_into(&items[..0], |x| *x, &mut out);
        assert!(out.is_empty());
    }
}
