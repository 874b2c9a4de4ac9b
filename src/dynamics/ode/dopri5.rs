//! Dormand–Prince 5(4): an explicit Runge–Kutta pair with FSAL, PI step-size control and a
//! 4th-order continuous extension (Dormand & Prince 1980; Hairer, Nørsett & Wanner, Solving
//! ODEs I, §II.5–II.6).

use super::common::{
    Stopped, begin_run, evaluate, evaluate_accepted, project_changed, scaled_rms, starting_step,
    step_ceiling, step_floor,
};
use super::error::OdeError;
use super::options::{AdaptiveOptions, Flow, OdeOutcome, StepStats, Tolerances};
use super::system::OdeSystem;

/// Stage times.
const C: [f64; 7] = [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0];

/// Lower-triangular stage coefficients; row `i` builds the argument of stage `i`. The last row
/// is also the 5th-order solution, which is why stage 7 is the next step's first (FSAL).
const A: [[f64; 6]; 7] = [
    [0.0; 6],
    [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
    [19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0.0, 0.0],
    [9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0, 0.0],
    [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0],
];

/// 5th-order weights minus the embedded 4th-order weights: the local error estimate.
const E: [f64; 7] = [
    35.0 / 384.0 - 5179.0 / 57600.0,
    0.0,
    500.0 / 1113.0 - 7571.0 / 16695.0,
    125.0 / 192.0 - 393.0 / 640.0,
    -2187.0 / 6784.0 + 92097.0 / 339200.0,
    11.0 / 84.0 - 187.0 / 2100.0,
    -1.0 / 40.0,
];

/// Weights of the dense output's highest term, chosen (by Dormand & Prince) so the
/// interpolant is of order 4 everywhere in the step.
const D: [f64; 7] = [
    -12715105075.0 / 11282082432.0,
    0.0,
    87487479700.0 / 32700410799.0,
    -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0,
    -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0,
];

/// Safety factor on the predicted step.
const SAFETY: f64 = 0.9;
/// Bounds of the step-size ratio per step.
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 10.0;
/// Weight of the previous error in the PI controller; damps step-size oscillation when the
/// step is limited by stability rather than accuracy.
const PI_BETA: f64 = 0.04;
const PI_ALPHA: f64 = 0.2 - 0.75 * PI_BETA;

/// Integrates `y' = f(t, y)` from `(t0, y0)` to `t_end` with Dormand–Prince 5(4).
///
/// `observe(t, y)` is called at each time of `outputs` (ascending, within `[t0, t_end]`) with the
/// 4th-order continuous extension (with the step's projected end state when an output falls on a
/// step end); returning [`Flow::Stop`] ends the run without error. `project` is applied to every
/// accepted step's end state, and a change there re-evaluates the derivative instead of reusing
/// the last stage. Returns the final time and state and the work counters.
#[allow(clippy::too_many_arguments)]
pub fn integrate_dopri5(
    sys: &mut impl OdeSystem,
    t0: f64,
    y0: &[f64],
    t_end: f64,
    tol: &Tolerances,
    opts: &AdaptiveOptions,
    outputs: &[f64],
    observe: impl FnMut(f64, &[f64]) -> Flow,
) -> Result<OdeOutcome, OdeError> {
    let n = sys.dim();
    let mut cursor = match begin_run(n, t0, y0, t_end, tol, opts, outputs, observe)? {
        Ok(cursor) => cursor,
        Err(done) => return Ok(done),
    };
    let finish = |t: f64, y: Vec<f64>, stats, stopped| Ok(OdeOutcome { t, y, stats, stopped });
    let mut stepper = Dopri5::start(sys, t0, y0, tol, opts, step_ceiling(opts, t0, t_end))?;
    loop {
        let Attempt::Accepted { last } = stepper.attempt(sys, t_end)? else { continue };
        let (t_new, y_new) = stepper.end_of_step();
        if let Some(Stopped(ts)) = cursor.deliver(t_new, y_new, |s, out| stepper.interpolate(s, out)) {
            return finish(ts, cursor.last_state().to_vec(), stepper.stats, true);
        }
        stepper.commit(sys)?;
        if last {
            return finish(stepper.t, stepper.y, stepper.stats, false);
        }
    }
}

/// What one attempt of [`Dopri5::attempt`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The step failed the error test (or overflowed) and will be retried smaller.
    Rejected,
    /// The step passed; `last` when it reached the `t_end` it was given.
    Accepted { last: bool },
}

/// A Dormand–Prince integration that can be stopped and resumed between steps: everything the
/// next step depends on (time, state, its derivative, step size, the controller's memory) is
/// here, so a clone taken between steps continues bit for bit like the original.
///
/// A step is [`Dopri5::attempt`] — on acceptance, its end state is [`Dopri5::end_of_step`] and
/// its dense output [`Dopri5::interpolate`], with the system's `project` and `accepted` already
/// called — then [`Dopri5::commit`], which moves to that end and picks the next step size.
#[derive(Clone, Debug)]
pub struct Dopri5 {
    /// The current time and state.
    pub t: f64,
    pub y: Vec<f64>,
    /// Work counters so far.
    pub stats: StepStats,
    tol: Tolerances,
    opts: AdaptiveOptions,
    h_max: f64,
    /// The step to try next.
    h: f64,
    /// The stages; `k[0]` = f(t, y) (first same as last).
    k: [Vec<f64>; 7],
    err_old: f64,
    just_rejected: bool,
    last_failure_non_finite: bool,
    // The accepted, uncommitted step: its end, dense output and controller inputs.
    t_new: f64,
    y_new: Vec<f64>,
    dense: [Vec<f64>; 5],
    h_step: f64,
    err: f64,
    fac11: f64,
    changed: bool,
    y_stage: Vec<f64>,
    err_vec: Vec<f64>,
    scratch: Vec<f64>,
}

impl Dopri5 {
    /// Starts at `(t0, y0)` with steps of at most `h_max`: evaluates f there and picks the first
    /// step (`opts.initial_step`, or an estimate).
    pub fn start(
        sys: &mut impl OdeSystem,
        t0: f64,
        y0: &[f64],
        tol: &Tolerances,
        opts: &AdaptiveOptions,
        h_max: f64,
    ) -> Result<Dopri5, OdeError> {
        let n = sys.dim();
        let mut stats = StepStats::default();
        let mut k: [Vec<f64>; 7] = std::array::from_fn(|_| vec![0.0; n]);
        evaluate_accepted(sys, &mut stats, t0, y0, &mut k[0])?;
        let h = match opts.initial_step {
            Some(h) => h.min(h_max),
            None => starting_step(sys, &mut stats, t0, y0, &k[0].clone(), 5, tol, h_max)?,
        };
        Ok(Dopri5 {
            t: t0,
            y: y0.to_vec(),
            stats,
            tol: *tol,
            opts: *opts,
            h_max,
            h,
            k,
            err_old: 1e-4,
            just_rejected: false,
            last_failure_non_finite: false,
            t_new: t0,
            y_new: vec![0.0; n],
            dense: std::array::from_fn(|_| vec![0.0; n]),
            h_step: 0.0,
            err: 0.0,
            fac11: 0.0,
            changed: false,
            y_stage: vec![0.0; n],
            err_vec: vec![0.0; n],
            scratch: Vec::with_capacity(n),
        })
    }

    /// Evaluates f at the current state again, for a system whose derivative changed between
    /// steps (new applied loads): the first stage of the next step must be the new one.
    pub fn refresh_derivative(&mut self, sys: &mut impl OdeSystem) -> Result<(), OdeError> {
        evaluate_accepted(sys, &mut self.stats, self.t, &self.y, &mut self.k[0])
    }

    /// Tries one step towards `t_end` (stretched to land on it rather than leave a sliver; an
    /// event inside the step ends it there). After [`Attempt::Accepted`], call
    /// [`Dopri5::commit`] before the next attempt.
    pub fn attempt(&mut self, sys: &mut impl OdeSystem, t_end: f64) -> Result<Attempt, OdeError> {
        let n = self.y.len();
        let (t, h) = (self.t, &mut self.h);
        let stats = &mut self.stats;
        if stats.accepted + stats.rejected >= self.opts.max_steps {
            return Err(OdeError::TooManySteps { t });
        }
        // Stretch the step to land on t_end rather than leave a sliver.
        let mut last = t + 1.01 * *h >= t_end;
        if last {
            *h = t_end - t;
        }
        if *h < step_floor(&self.opts, t) {
            return Err(if self.last_failure_non_finite {
                OdeError::NonFinite { t }
            } else {
                OdeError::StepTooSmall { t, step: *h }
            });
        }
        let (y, k, y_new) = (&self.y, &mut self.k, &mut self.y_new);

        // Stages 2..=7; stage 7 is evaluated at the 5th-order solution itself.
        let mut finite = true;
        for s in 1..7 {
            let target = if s == 6 { &mut *y_new } else { &mut self.y_stage };
            for i in 0..n {
                let mut acc = 0.0;
                for (j, kj) in k.iter().enumerate().take(s) {
                    acc += A[s][j] * kj[i];
                }
                target[i] = y[i] + *h * acc;
            }
            let arg = if s == 6 { &*y_new } else { &self.y_stage };
            if !evaluate(sys, stats, t + C[s] * *h, arg, &mut k[s])? {
                finite = false;
                break;
            }
        }
        if !finite {
            // Too bold a step can overflow; retry smaller before blaming the model.
            stats.rejected += 1;
            *h *= 0.25;
            self.just_rejected = true;
            self.last_failure_non_finite = true;
            return Ok(Attempt::Rejected);
        }

        for (i, e) in self.err_vec.iter_mut().enumerate() {
            *e = *h * E.iter().zip(k.iter()).map(|(ej, kj)| ej * kj[i]).sum::<f64>();
        }
        let err = scaled_rms(&self.err_vec, y, y_new, &self.tol);
        let fac11 = err.powf(PI_ALPHA);

        if err > 1.0 {
            stats.rejected += 1;
            *h /= (fac11 / SAFETY).min(1.0 / MIN_FACTOR);
            self.just_rejected = true;
            self.last_failure_non_finite = false;
            return Ok(Attempt::Rejected);
        }
        stats.accepted += 1;
        self.last_failure_non_finite = false;
        let mut t_new = if last { t_end } else { t + *h };
        let dense = &mut self.dense;
        for i in 0..n {
            let dy = y_new[i] - y[i];
            let bspl = *h * k[0][i] - dy;
            dense[0][i] = y[i];
            dense[1][i] = dy;
            dense[2][i] = bspl;
            dense[3][i] = dy - *h * k[6][i] - bspl;
            dense[4][i] = *h * D.iter().zip(k.iter()).map(|(dj, kj)| dj * kj[i]).sum::<f64>();
        }
        self.h_step = *h;
        // An event inside the step ends it there (the dense output is accurate to 4th order).
        let mut truncated = false;
        let (t_old, h_step, dense) = (t, self.h_step, &self.dense);
        let interp = |s: f64, out: &mut [f64]| interpolate(dense, t_old, h_step, s, out);
        if let Some(te) = sys.locate_event(t_old, y, t_new, y_new, &interp)
            && te > t_old
            && te < t_new
        {
            t_new = te;
            interp(te, y_new);
            last = false;
            truncated = true;
        }
        self.changed = project_changed(sys, y_new, &mut self.scratch) || truncated;
        sys.accepted(t_new, y_new);
        self.t_new = t_new;
        self.err = err;
        self.fac11 = fac11;
        Ok(Attempt::Accepted { last })
    }

    /// The accepted step's end: its time and (projected) state.
    pub fn end_of_step(&self) -> (f64, &[f64]) {
        (self.t_new, &self.y_new)
    }

    /// The accepted step's dense output at time `s` within it.
    pub fn interpolate(&self, s: f64, out: &mut [f64]) {
        interpolate(&self.dense, self.t, self.h_step, s, out);
    }

    /// Moves to the accepted step's end and picks the next step size.
    pub fn commit(&mut self, sys: &mut impl OdeSystem) -> Result<(), OdeError> {
        if self.changed {
            evaluate_accepted(sys, &mut self.stats, self.t_new, &self.y_new, &mut self.k[6])?;
        }
        self.k.swap(0, 6);
        std::mem::swap(&mut self.y, &mut self.y_new);
        self.t = self.t_new;
        let h = self.h;
        let fac =
            (self.fac11 / self.err_old.powf(PI_BETA) / SAFETY).clamp(1.0 / MAX_FACTOR, 1.0 / MIN_FACTOR);
        let mut h_new = h / fac;
        // Growing right after a rejection invites another one.
        if self.just_rejected {
            h_new = h_new.min(h);
        }
        self.err_old = self.err.max(1e-4);
        self.just_rejected = false;
        self.h = h_new.min(self.h_max);
        Ok(())
    }
}

/// The 4th-order continuous extension of a step from `t_old` of size `h` at time `s`.
fn interpolate(dense: &[Vec<f64>; 5], t_old: f64, h: f64, s: f64, out: &mut [f64]) {
    let th = (s - t_old) / h;
    let th1 = 1.0 - th;
    for (i, o) in out.iter_mut().enumerate() {
        *o = dense[0][i] + th * (dense[1][i] + th1 * (dense[2][i] + th * (dense[3][i] + th1 * dense[4][i])));
    }
}
