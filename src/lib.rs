//! contactlab: contact-rich rigid-body simulation.
//!
//! Layers (data flows down this list, never back up):
//! [`math`] → [`geometry`] → [`field`] → [`contact`] → [`scene`] / the `contactlab` binary.
//! See `ARCHITECTURE.md` for the map of the code.

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
