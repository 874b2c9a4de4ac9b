//! The `contactlab` subcommands, as library functions the binary calls.

pub mod contact;
pub mod simulate;
pub mod field;
pub mod sim_world;
mod world;

pub use world::{ContactWorld, PairIndex};
