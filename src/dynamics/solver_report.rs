//! What a velocity-level step's contact solve took: a row of `solver.csv`.

/// What one step's solve took (a row of `solver.csv`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverReport {
    /// Gauss–Seidel sweeps.
    pub sweeps: usize,
    /// The 2-norm of the last sweep's impulse update (N·s).
    pub residual: f64,
    /// Scalar unknowns of the solve (volume6d: 6 per touching pair; PEG: the LCP's size).
    pub unknowns: usize,
    /// The total overlap (area or volume) of all pairs at the end of the step, for solvers
    /// that measure it (PEG).
    pub overlap: Option<f64>,
    /// The fall-backs the solve took (regularised, reduced or frictionless problems; PEG's
    /// ladder in `peg_step`); 0 for solvers without one.
    pub fallbacks: u32,
}
