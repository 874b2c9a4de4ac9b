use super::error::OdeError;

/// Error tolerances of an adaptive method: each step keeps the local error of component `i` near
/// `atol + rtol·|y_i|`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// Relative tolerance (> 0, finite).
    pub rtol: f64,
    /// Absolute tolerance (> 0, finite).
    pub atol: f64,
}

impl Tolerances {
    /// Tolerances with the given relative and absolute parts (checked when integrating).
    pub fn new(rtol: f64, atol: f64) -> Self {
        Self { rtol, atol }
    }

    /// Rejects zero, negative and non-finite tolerances.
    pub fn validate(&self) -> Result<(), OdeError> {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        if ok(self.rtol) && ok(self.atol) {
            Ok(())
        } else {
            Err(OdeError::BadTolerance { rtol: self.rtol, atol: self.atol })
        }
    }
}

/// Step-size options of the adaptive methods.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveOptions {
    /// First step size; `None` lets the method estimate one from the derivative.
    pub initial_step: Option<f64>,
    /// Largest step size; `None` means the whole interval.
    pub max_step: Option<f64>,
    /// Smallest step size (≥ 0). The step is also never below 16 ulps of the current time,
    /// which is the effective floor when this is 0 (the default).
    pub min_step: f64,
    /// Most steps, accepted plus rejected, before [`OdeError::TooManySteps`].
    pub max_steps: u64,
}

impl Default for AdaptiveOptions {
    fn default() -> Self {
        Self { initial_step: None, max_step: None, min_step: 0.0, max_steps: 100_000 }
    }
}

impl AdaptiveOptions {
    /// Rejects non-positive or non-finite step sizes.
    pub fn validate(&self) -> Result<(), OdeError> {
        const POSITIVE: &str = "expected a positive finite step size";
        for (what, v) in [("initial_step", self.initial_step), ("max_step", self.max_step)] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                return Err(OdeError::BadOption { what, value: v, expected: POSITIVE });
            }
        }
        if !(self.min_step.is_finite() && self.min_step >= 0.0) {
            return Err(OdeError::BadOption {
                what: "min_step",
                value: self.min_step,
                expected: "expected a finite step size >= 0",
            });
        }
        Ok(())
    }
}

/// Work counters of one integration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Steps whose error estimate met the tolerances.
    pub accepted: u64,
    /// Steps retried with a smaller size (error too large, Newton failure or non-finite values).
    pub rejected: u64,
    /// Calls of [`super::OdeSystem::derivative`], including those for Jacobians.
    pub evaluations: u64,
    /// Finite-difference Jacobians (implicit method only).
    pub jacobians: u64,
    /// LU factorizations of the iteration matrices; the real and complex pair counts once.
    pub factorizations: u64,
}

/// What the observer wants after seeing an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep integrating.
    Continue,
    /// End the run now, without error.
    Stop,
}

/// How an integration ended: the last time reached, the state there and the work done.
#[derive(Debug, Clone, PartialEq)]
pub struct OdeOutcome {
    /// `t_end`, or the output time at which the observer stopped the run.
    pub t: f64,
    /// The state at `t` (projected if `t` is a step end, interpolated if the run stopped inside a step).
    pub y: Vec<f64>,
    /// Work counters.
    pub stats: StepStats,
    /// Whether the observer stopped the run early.
    pub stopped: bool,
}
