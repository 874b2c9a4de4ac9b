//! contactlab: contact-rich rigid-body simulation.
//!
//! Layers (data flows down this list, never back up):
//! [`math`] → [`geometry`] → [`field`] → [`contact`] → [`dynamics`] → [`scene`] → [`app`] and
//! [`sweep`] (outputs and sweeps) → [`commands`] and the `contactlab` binary.
//! `scripts/layers.py` checks it (no cycle between files, no edge up the list); see
//! `ARCHITECTURE.md` for the map of the code.

// Numeric kernels here index several fixed-size arrays in lockstep; index loops read clearer
// than zipped iterators there.
#![allow(clippy::needless_range_loop)]

pub mod app;
pub mod commands;
pub mod contact;
pub mod dynamics;
pub mod field;
pub mod geometry;
pub mod math;
pub mod scene;
pub mod sweep;
