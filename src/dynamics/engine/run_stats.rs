//! What a run did: the counts every run reports.

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Steps taken (accepted).
    pub steps: u64,
    /// Steps rejected by error control.
    pub rejected: u64,
    /// Evaluations of the state derivative (of the contacts, for the fixed-step schemes).
    pub evaluations: u64,
    /// Implicit Euler steps whose Newton iteration did not meet its tolerance.
    pub unconverged: u64,
    /// Simulated time reached (s).
    pub t_end: f64,
    /// The fall-backs the velocity-level contact solves took ([`crate::dynamics::solver_report::SolverReport::fallbacks`]).
    pub fallbacks: u64,
    /// The largest excess of the total energy over its initial value plus the external work
    /// seen at output times (J; ≤ 0 when energy only left the system).
    pub max_energy_excess: f64,
    /// Fixed-step runs: the largest change of the elastic energy when it was computed exactly
    /// again after being tracked (J; [`crate::dynamics::elastic_tracker`]).
    pub largest_elastic_correction: f64,
}
