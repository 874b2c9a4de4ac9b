//! Dormand–Prince 5(4): an explicit Runge–Kutta pair with FSAL, PI step-size control and a
//! 4th-order continuous extension (Dormand & Prince 1980; Hairer, Nørsett & Wanner, Solving
//! ODEs I, §II.5–II.6).

use super::OdeSystem;
use super::common::{
    OutputCursor, Stopped, evaluate, evaluate_accepted, project_changed, scaled_rms, starting_step,
    step_ceiling, step_floor, validate_run,
};
use super::error::OdeError;
use super::options::{AdaptiveOptions, Flow, OdeOutcome, StepStats, Tolerances};

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
    validate_run(n, t0, y0, t_end, tol, opts, outputs)?;
    let mut stats = StepStats::default();
    let mut cursor = OutputCursor::new(outputs, observe, n);
    let mut t = t0;
    let mut y = y0.to_vec();
    let finish = |t: f64, y: Vec<f64>, stats, stopped| Ok(OdeOutcome { t, y, stats, stopped });
    if let Some(Stopped(ts)) = cursor.deliver(t0, &y, |_, _| {}) {
        return finish(ts, cursor.last_state().to_vec(), stats, true);
    }
    if t_end == t0 {
        return finish(t, y, stats, false);
    }

    let mut k: [Vec<f64>; 7] = std::array::from_fn(|_| vec![0.0; n]);
    evaluate_accepted(sys, &mut stats, t, &y, &mut k[0])?;
    let h_max = step_ceiling(opts, t0, t_end);
    let mut h = match opts.initial_step {
        Some(h) => h.min(h_max),
        None => starting_step(sys, &mut stats, t, &y, &k[0].clone(), 5, tol, h_max)?,
    };

    let mut y_stage = vec![0.0; n];
    let mut y_new = vec![0.0; n];
    let mut err_vec = vec![0.0; n];
    let mut dense: [Vec<f64>; 5] = std::array::from_fn(|_| vec![0.0; n]);
    let mut scratch = Vec::with_capacity(n);
    let mut err_old: f64 = 1e-4;
    let mut just_rejected = false;
    let mut last_failure_non_finite = false;

    loop {
        if stats.accepted + stats.rejected >= opts.max_steps {
            return Err(OdeError::TooManySteps { t });
        }
        // Stretch the step to land on t_end rather than leave a sliver.
        let mut last = t + 1.01 * h >= t_end;
        if last {
            h = t_end - t;
        }
        if h < step_floor(opts, t) {
            return Err(if last_failure_non_finite {
                OdeError::NonFinite { t }
            } else {
                OdeError::StepTooSmall { t, step: h }
            });
        }

        // Stages 2..=7; stage 7 is evaluated at the 5th-order solution itself.
        let mut finite = true;
        for s in 1..7 {
            let target = if s == 6 { &mut y_new } else { &mut y_stage };
            for i in 0..n {
                let mut acc = 0.0;
                for (j, kj) in k.iter().enumerate().take(s) {
                    acc += A[s][j] * kj[i];
                }
                target[i] = y[i] + h * acc;
            }
            let arg = if s == 6 { &y_new } else { &y_stage };
            if !evaluate(sys, &mut stats, t + C[s] * h, arg, &mut k[s])? {
                finite = false;
                break;
            }
        }
        if !finite {
            // Too bold a step can overflow; retry smaller before blaming the model.
            stats.rejected += 1;
            h *= 0.25;
            just_rejected = true;
            last_failure_non_finite = true;
            continue;
        }

        for (i, e) in err_vec.iter_mut().enumerate() {
            *e = h * E.iter().zip(&k).map(|(ej, kj)| ej * kj[i]).sum::<f64>();
        }
        let err = scaled_rms(&err_vec, &y, &y_new, tol);
        let fac11 = err.powf(PI_ALPHA);

        if err <= 1.0 {
            stats.accepted += 1;
            last_failure_non_finite = false;
            let mut t_new = if last { t_end } else { t + h };
            for i in 0..n {
                let dy = y_new[i] - y[i];
                let bspl = h * k[0][i] - dy;
                dense[0][i] = y[i];
                dense[1][i] = dy;
                dense[2][i] = bspl;
                dense[3][i] = dy - h * k[6][i] - bspl;
                dense[4][i] = h * D.iter().zip(&k).map(|(dj, kj)| dj * kj[i]).sum::<f64>();
            }
            let (t_old, h_step) = (t, h);
            let interp = |s: f64, out: &mut [f64]| {
                let th = (s - t_old) / h_step;
                let th1 = 1.0 - th;
                for (i, o) in out.iter_mut().enumerate() {
                    *o = dense[0][i]
                        + th * (dense[1][i] + th1 * (dense[2][i] + th * (dense[3][i] + th1 * dense[4][i])));
                }
            };
            // An event inside the step ends it there (the dense output is accurate to 4th order).
            let mut truncated = false;
            if let Some(te) = sys.locate_event(t_old, &y, t_new, &y_new, &interp)
                && te > t_old
                && te < t_new
            {
                t_new = te;
                interp(te, &mut y_new);
                last = false;
                truncated = true;
            }
            let changed = project_changed(sys, &mut y_new, &mut scratch) || truncated;
            sys.accepted(t_new, &y_new);
            let stop = cursor.deliver(t_new, &y_new, interp);
            if let Some(Stopped(ts)) = stop {
                return finish(ts, cursor.last_state().to_vec(), stats, true);
            }
            if changed {
                evaluate_accepted(sys, &mut stats, t_new, &y_new, &mut k[6])?;
            }
            k.swap(0, 6);
            std::mem::swap(&mut y, &mut y_new);
            t = t_new;
            if last {
                return finish(t, y, stats, false);
            }

            let fac = (fac11 / err_old.powf(PI_BETA) / SAFETY).clamp(1.0 / MAX_FACTOR, 1.0 / MIN_FACTOR);
            let mut h_new = h / fac;
            // Growing right after a rejection invites another one.
            if just_rejected {
                h_new = h_new.min(h);
            }
            err_old = err.max(1e-4);
            just_rejected = false;
            h = h_new.min(h_max);
        } else {
            stats.rejected += 1;
            h /= (fac11 / SAFETY).min(1.0 / MIN_FACTOR);
            just_rejected = true;
            last_failure_non_finite = false;
        }
    }
}
