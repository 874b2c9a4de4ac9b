//! Pieces shared by the adaptive methods: argument checks, counted derivative calls, error norms,
//! the starting step and the delivery of dense output.

use super::error::OdeError;
use super::options::{AdaptiveOptions, Flow, OdeOutcome, StepStats, Tolerances};
use super::system::OdeSystem;

/// Checks every argument of an integration call before any work is done.
pub(crate) fn validate_run(
    dim: usize,
    t0: f64,
    y0: &[f64],
    t_end: f64,
    tol: &Tolerances,
    opts: &AdaptiveOptions,
    outputs: &[f64],
) -> Result<(), OdeError> {
    tol.validate()?;
    opts.validate()?;
    if !(t0.is_finite() && t_end.is_finite() && t_end >= t0) {
        return Err(OdeError::BadInterval { t0, t_end });
    }
    if y0.len() != dim {
        return Err(OdeError::DimensionMismatch { expected: dim, got: y0.len() });
    }
    if y0.iter().any(|v| !v.is_finite()) {
        return Err(OdeError::NonFinite { t: t0 });
    }
    let mut previous = t0;
    for (index, &t) in outputs.iter().enumerate() {
        // `!(a <= b)` also catches NaN.
        if !(t >= previous && t <= t_end) {
            return Err(OdeError::BadOutputTime { index, t });
        }
        previous = t;
    }
    Ok(())
}

/// Evaluates `dy = f(t, y)`, counting the call. `Ok(false)` means the input or the result is not
/// finite: the caller decides whether a smaller step can avoid it or the run must stop.
pub(crate) fn evaluate(
    sys: &mut impl OdeSystem,
    stats: &mut StepStats,
    t: f64,
    y: &[f64],
    dy: &mut [f64],
) -> Result<bool, OdeError> {
    stats.evaluations += 1;
    if y.iter().any(|v| !v.is_finite()) {
        return Ok(false);
    }
    sys.derivative(t, y, dy)?;
    Ok(dy.iter().all(|v| v.is_finite()))
}

/// Like [`evaluate`], for an accepted state: non-finite values there cannot be stepped around.
pub(crate) fn evaluate_accepted(
    sys: &mut impl OdeSystem,
    stats: &mut StepStats,
    t: f64,
    y: &[f64],
    dy: &mut [f64],
) -> Result<(), OdeError> {
    if evaluate(sys, stats, t, y, dy)? { Ok(()) } else { Err(OdeError::NonFinite { t }) }
}

/// Root mean square of `v_i / (atol + rtol·max(|a_i|, |b_i|))`.
pub(crate) fn scaled_rms(v: &[f64], a: &[f64], b: &[f64], tol: &Tolerances) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let sum: f64 = v
        .iter()
        .zip(a.iter().zip(b))
        .map(|(&vi, (&ai, &bi))| {
            let s = tol.atol + tol.rtol * ai.abs().max(bi.abs());
            (vi / s).powi(2)
        })
        .sum();
    (sum / v.len() as f64).sqrt()
}

/// The smallest step allowed at time `t`: the user's floor, and never so small that `t + h`
/// rounds back to `t`.
pub(crate) fn step_floor(opts: &AdaptiveOptions, t: f64) -> f64 {
    opts.min_step.max(16.0 * f64::EPSILON * t.abs()).max(f64::MIN_POSITIVE)
}

/// The largest step allowed over `[t0, t_end]`.
pub(crate) fn step_ceiling(opts: &AdaptiveOptions, t0: f64, t_end: f64) -> f64 {
    let span = t_end - t0;
    opts.max_step.map_or(span, |m| m.min(span))
}

/// A first step from the size of `y0`, `f0` and a second derivative estimate, so that an
/// explicit step of `order` would make a local error near the tolerance (Hairer, Nørsett &
/// Wanner, Solving ODEs I, §II.4). Costs one evaluation; `f0 = f(t0, y0)` must be given.
#[allow(clippy::too_many_arguments)]
pub(crate) fn starting_step(
    sys: &mut impl OdeSystem,
    stats: &mut StepStats,
    t0: f64,
    y0: &[f64],
    f0: &[f64],
    order: i32,
    tol: &Tolerances,
    h_max: f64,
) -> Result<f64, OdeError> {
    let n = y0.len();
    if n == 0 {
        return Ok(h_max);
    }
    let d0 = scaled_rms(y0, y0, y0, tol);
    let d1 = scaled_rms(f0, y0, y0, tol);
    let mut h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
    h0 = h0.min(h_max);
    let y1: Vec<f64> = y0.iter().zip(f0).map(|(y, f)| y + h0 * f).collect();
    let mut f1 = vec![0.0; n];
    // A non-finite trial only means the guess was too bold: fall back to the small first guess.
    if !evaluate(sys, stats, t0 + h0, &y1, &mut f1)? {
        return Ok((h0 * 1e-3).min(h_max));
    }
    let diff: Vec<f64> = f1.iter().zip(f0).map(|(a, b)| (a - b) / h0).collect();
    let d2 = scaled_rms(&diff, y0, y0, tol);
    let dmax = d1.max(d2);
    let h1 =
        if dmax <= 1e-15 { (h0 * 1e-3).max(1e-6) } else { (0.01 / dmax).powf(1.0 / f64::from(order + 1)) };
    Ok((100.0 * h0).min(h1).min(h_max))
}

/// The start every adaptive run shares: the arguments checked and the output at `t0`
/// delivered. `Ok(Err(outcome))` when the run ends there (the observer stopped it at `t0`, or
/// the interval is empty); otherwise the cursor to deliver the rest with.
#[allow(clippy::too_many_arguments)]
pub(crate) fn begin_run<'a, F: FnMut(f64, &[f64]) -> Flow>(
    dim: usize,
    t0: f64,
    y0: &[f64],
    t_end: f64,
    tol: &Tolerances,
    opts: &AdaptiveOptions,
    outputs: &'a [f64],
    observe: F,
) -> Result<Result<OutputCursor<'a, F>, OdeOutcome>, OdeError> {
    validate_run(dim, t0, y0, t_end, tol, opts, outputs)?;
    let mut cursor = OutputCursor::new(outputs, observe, dim);
    let stats = StepStats::default();
    if let Some(Stopped(t)) = cursor.deliver(t0, y0, |_, _| {}) {
        return Ok(Err(OdeOutcome { t, y: cursor.last_state().to_vec(), stats, stopped: true }));
    }
    if t_end == t0 {
        return Ok(Err(OdeOutcome { t: t0, y: y0.to_vec(), stats, stopped: false }));
    }
    Ok(Ok(cursor))
}

/// Delivers the requested output times to the observer as steps pass them.
pub(crate) struct OutputCursor<'a, F> {
    times: &'a [f64],
    next: usize,
    observe: F,
    buffer: Vec<f64>,
}

/// The run was stopped by the observer at this time; the state is in the cursor's buffer.
pub(crate) struct Stopped(pub f64);

impl<'a, F: FnMut(f64, &[f64]) -> Flow> OutputCursor<'a, F> {
    pub(crate) fn new(times: &'a [f64], observe: F, dim: usize) -> Self {
        Self { times, next: 0, observe, buffer: vec![0.0; dim] }
    }

    /// Shows the observer every pending output time `<= t_new`: interior times through
    /// `interpolate(t, out)`, a time equal to `t_new` with the step's final (projected) state.
    pub(crate) fn deliver(
        &mut self,
        t_new: f64,
        y_new: &[f64],
        mut interpolate: impl FnMut(f64, &mut [f64]),
    ) -> Option<Stopped> {
        while let Some(&t) = self.times.get(self.next) {
            if t > t_new {
                break;
            }
            self.next += 1;
            if t == t_new {
                self.buffer.copy_from_slice(y_new);
            } else {
                interpolate(t, &mut self.buffer);
            }
            if (self.observe)(t, &self.buffer) == Flow::Stop {
                return Some(Stopped(t));
            }
        }
        None
    }

    /// The state shown at the last delivery.
    pub(crate) fn last_state(&self) -> &[f64] {
        &self.buffer
    }
}

/// Applies the system's projection to an accepted state; reports whether it changed anything, in
/// which case derivative values cached for that state are stale.
pub(crate) fn project_changed(sys: &mut impl OdeSystem, y: &mut [f64], scratch: &mut Vec<f64>) -> bool {
    scratch.clear();
    scratch.extend_from_slice(y);
    sys.project(y);
    y.iter().zip(scratch.iter()).any(|(a, b)| a.to_bits() != b.to_bits())
}
