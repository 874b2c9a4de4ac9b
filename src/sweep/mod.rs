//! Parameter sweeps: one scene run many times with some of its keys changed, on local cores
//! (`contactlab sweep`), with one summary row per run.
//!
//! A sweep is a [`Plan`]: the base scene's text and, per run, the keys it sets
//! ([`grid`]: the cartesian product of `--set` lists and Latin-hypercube samples of `--range`s).
//! Each run is the base scene with its values written in ([`overrides`]), validated and
//! simulated like `contactlab simulate` in a folder of its own ([`runner`]); what it did is a
//! [`RunRecord`] ([`record`]), saved beside its outputs so that a sweep run again skips it.

mod error;
pub mod grid;
pub mod overrides;
pub mod portable;
pub mod record;
pub mod runner;

pub use error::SweepError;
pub use grid::{Assignment, Plan};
pub use portable::portable_scene;
pub use record::{RunRecord, RunStatus, write_summary};
pub use runner::{
    SweepOptions, moving_bodies, run_assignment, run_folder, run_one, run_scenes, run_sweep, run_sweep_text,
};
