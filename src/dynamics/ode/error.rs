/// Errors from the ODE integrators. Each message says what went wrong and what to try.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OdeError {
    /// The state or its derivative stopped being finite (NaN or infinity) and shrinking the step
    /// did not help.
    #[error(
        "the state or its derivative became non-finite at t = {t_text}; check the model for overflow or division by zero", t_text = crate::math::compact(*.t)
    )]
    NonFinite { t: f64 },
    /// The step size needed to meet the tolerances fell below the smallest allowed step.
    #[error(
        "step size {step:.3e} s at t = {t_text} s is below the smallest allowed step; the solution may be singular there, the problem stiff (try radau5) or the tolerances too tight", t_text = crate::math::compact(*.t)
    )]
    StepTooSmall { t: f64, step: f64 },
    /// More steps (accepted plus rejected) than `AdaptiveOptions::max_steps` were needed.
    #[error("the run's step budget was spent at t = {t_text} (too many small steps): loosen the tolerances (rtol, atol)", t_text = crate::math::compact(*.t)
    )]
    TooManySteps { t: f64 },
    /// The implicit method's Newton iteration kept failing while the step shrank to the minimum.
    #[error(
        "the Newton iteration of the implicit method did not converge at t = {t_text} even with the smallest step; the derivative may be discontinuous or singular there", t_text = crate::math::compact(*.t)
    )]
    NewtonFailed { t: f64 },
    /// A tolerance that is zero, negative or not finite.
    #[error("tolerances must be positive finite numbers, got rtol = {rtol}, atol = {atol}")]
    BadTolerance { rtol: f64, atol: f64 },
    /// An integration option out of its range.
    #[error("invalid option {what} = {value}: {expected}")]
    BadOption { what: &'static str, value: f64, expected: &'static str },
    /// The interval is not finite or runs backwards.
    #[error("cannot integrate from t0 = {t0} to t_end = {t_end}; both must be finite with t_end >= t0")]
    BadInterval { t0: f64, t_end: f64 },
    /// The requested output times are not ascending within [t0, t_end].
    #[error(
        "output time #{index} = {t} is invalid: output times must be finite, ascending and within [t0, t_end]"
    )]
    BadOutputTime { index: usize, t: f64 },
    /// The initial state's length differs from `OdeSystem::dim`.
    #[error("the initial state has {got} components but the system has dimension {expected}")]
    DimensionMismatch { expected: usize, got: usize },
    /// An error raised by the system's own derivative function, passed through unchanged.
    #[error("the system failed at t = {t_text}: {message}", t_text = crate::math::compact(*.t)
    )]
    System { t: f64, message: String },
}

impl OdeError {
    /// Builds a [`OdeError::System`] error for a derivative function to return.
    pub fn system(t: f64, message: impl Into<String>) -> Self {
        Self::System { t, message: message.into() }
    }
}
