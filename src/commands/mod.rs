//! The `contactlab` subcommands, as library functions the binary calls.

pub mod contact;
mod world;

pub use world::{ContactWorld, PairIndex};
