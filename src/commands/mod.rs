//! The `contactlab` subcommands, as library functions the binary calls.

pub mod contact;
mod contact_hertz;
pub mod field;
pub mod hertz_setup;
pub mod sim_world;
pub mod simulate;
mod world;

pub use world::{ContactWorld, PairIndex};
