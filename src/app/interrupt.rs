//! SIGTERM and SIGINT during `simulate`: the run writes the output time in hand to every file,
//! stops at it and exits non-zero, its files ending at whole rows. A second signal while the
//! first is pending ends the process at once (the default action).

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when SIGTERM or SIGINT arrives (registered once per process, on first use).
static REQUESTED: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();

/// Starts watching SIGTERM and SIGINT (once per process). A platform that refuses the
/// handlers keeps the default action: the run can then be killed, not stopped.
pub fn watch() {
    REQUESTED.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
            // The conditional shutdown first: it sees the flag as the earlier signal left it.
            signal_hook::flag::register_conditional_shutdown(signal, 1, Arc::clone(&flag)).ok()?;
            signal_hook::flag::register(signal, Arc::clone(&flag)).ok()?;
        }
        Some(flag)
    });
}

/// Whether SIGTERM or SIGINT has arrived since [`watch`].
pub fn requested() -> bool {
    REQUESTED.get().and_then(Option::as_ref).is_some_and(|f| f.load(Ordering::Relaxed))
}
