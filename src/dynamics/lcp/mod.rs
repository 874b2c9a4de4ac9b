//! Linear complementarity problems: find z ≥ 0 with w = M·z + q ≥ 0 and zᵀw = 0
//! (our own Lemke solver, for the PEG model's time stepping).

pub mod lemke;

pub use lemke::{LcpFailure, LcpSolution, LemkeOptions, solve_lemke};
