//! The `contactlab` subcommands, as library functions the binary calls.

pub mod contact;
pub mod field;
pub mod simulate;
pub mod sweep;
pub mod view;
