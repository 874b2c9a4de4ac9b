//! Radau IIA of order 5 (3 stages): an implicit, L-stable, stiffly accurate collocation method
//! for stiff systems, solved by simplified Newton iterations on one real and one complex linear
//! system per iteration, with the step control and error estimate of Hairer & Wanner (Solving
//! ODEs II, §IV.8).

// The stage arrays are walked component by component in lockstep; index loops read like the
// formulas they implement.
#![allow(clippy::needless_range_loop)]

use std::sync::OnceLock;

use nalgebra::{Complex, DMatrix, DVector, Dyn, LU};

use super::common::{
    Stopped, begin_run, evaluate, evaluate_accepted, scaled_rms, starting_step, step_ceiling, step_floor,
};
use super::error::OdeError;
use super::options::{AdaptiveOptions, Flow, OdeOutcome, StepStats, Tolerances};
use super::radau5_tableau::Radau5Tableau;
use super::system::OdeSystem;

/// Most Newton iterations per step before the step is retried smaller.
const MAX_NEWTON: usize = 7;
/// Safety factor on the predicted step.
const SAFETY: f64 = 0.9;
/// Bounds of the step-size ratio per step (shrink at most 5×, grow at most 8×).
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 8.0;
/// Newton contraction below which the Jacobian is kept for the next step.
const REUSE_JACOBIAN_THETA: f64 = 1e-3;
/// With a kept Jacobian, step-size ratios in this range keep the step too, saving a factorization.
const KEEP_STEP_RATIO: (f64, f64) = (1.0, 1.2);

fn tableau() -> &'static Radau5Tableau {
    static TABLEAU: OnceLock<Radau5Tableau> = OnceLock::new();
    TABLEAU.get_or_init(Radau5Tableau::new)
}

/// Integrates `y' = f(t, y)` from `(t0, y0)` to `t_end` with the 3-stage Radau IIA method
/// (order 5), for stiff systems.
///
/// The Jacobian is approximated by finite differences and kept across steps while the Newton
/// iteration contracts fast. `observe(t, y)` is called at each time of `outputs` (ascending,
/// within `[t0, t_end]`) with the collocation polynomial (with the step's projected end state when
/// an output falls on a step end); returning [`Flow::Stop`] ends the run without error. `project`
/// is applied to every accepted step's end state. Returns the final time and state and the work
/// counters.
#[allow(clippy::too_many_arguments)]
pub fn integrate_radau5(
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
    if n == 0 {
        // Nothing evolves, and the linear algebra does not accept empty matrices.
        return match cursor.deliver(t_end, y0, |_, out| out.fill(0.0)) {
            Some(Stopped(ts)) => finish(ts, Vec::new(), StepStats::default(), true),
            None => finish(t_end, Vec::new(), StepStats::default(), false),
        };
    }

    let tab = tableau();
    let mut s = Solver::new(sys, tab, *tol, n);
    let mut t = t0;
    let mut y = y0.to_vec();
    let mut f0 = vec![0.0; n];
    evaluate_accepted(s.sys, &mut s.stats, t, &y, &mut f0)?;
    let h_max = step_ceiling(opts, t0, t_end);
    let mut h = match opts.initial_step {
        Some(h) => h.min(h_max),
        // The error estimate is of order 3, so size the first step for that order.
        None => starting_step(s.sys, &mut s.stats, t, &y, &f0, 3, tol, h_max)?,
    };
    // Newton stopping threshold, relative to the tolerance-scaled norm: loose enough not to
    // waste iterations, tight enough that iteration error stays below the truncation error.
    let newton_tol = (10.0 * f64::EPSILON / tol.rtol).max(0.03f64.min(tol.rtol.sqrt()));

    let mut need_jacobian = true;
    let mut jacobian_fresh = false;
    let mut factored_for: Option<f64> = None;
    let mut previous: Option<([Vec<f64>; 3], f64)> = None;
    let mut eta = 1.0f64;
    let mut first = true;
    let mut just_rejected = false;
    let mut last_failure = Failure::None;
    let mut accepted_h_err: Option<(f64, f64)> = None;
    let mut y_new = vec![0.0; n];

    loop {
        if s.stats.accepted + s.stats.rejected >= opts.max_steps {
            return Err(OdeError::TooManySteps { t });
        }
        let mut last = t + 1.01 * h >= t_end;
        if last {
            h = t_end - t;
        }
        if h < step_floor(opts, t) {
            return Err(match last_failure {
                Failure::NonFinite => OdeError::NonFinite { t },
                Failure::Newton => OdeError::NewtonFailed { t },
                Failure::None => OdeError::StepTooSmall { t, step: h },
            });
        }
        if need_jacobian {
            s.jacobian(t, &y, &f0)?;
            need_jacobian = false;
            jacobian_fresh = true;
            factored_for = None;
        }
        if factored_for != Some(h) {
            s.factorize(h);
            factored_for = Some(h);
        }

        // Start from the previous step's collocation polynomial extended over this step.
        match &previous {
            Some((z_prev, h_prev)) => {
                for i in 0..3 {
                    let weights = tab.lagrange(1.0 + tab.c[i] * h / h_prev);
                    for k in 0..n {
                        s.z[i][k] = (0..3).map(|l| weights[l] * z_prev[l][k]).sum::<f64>() - z_prev[2][k];
                    }
                }
            }
            None => s.z.iter_mut().for_each(|zi| zi.fill(0.0)),
        }

        let (iterations, theta) = match s.newton(t, h, &y, newton_tol, &mut eta)? {
            Newton::Converged { iterations, theta } => (iterations, theta),
            Newton::Failed(failure) => {
                s.stats.rejected += 1;
                h *= 0.5;
                just_rejected = true;
                last_failure = failure;
                if !jacobian_fresh {
                    need_jacobian = true;
                }
                continue;
            }
        };

        for k in 0..n {
            y_new[k] = y[k] + s.z[2][k];
        }
        let mut err = s.error_norm(t, h, &y, &y_new, &f0, false)?;
        // The plain estimate is unreliable for very stiff components right after a start or a
        // rejection; one more evaluation filters it.
        if err >= 1.0 && (first || just_rejected) {
            err = s.error_norm(t, h, &y, &y_new, &f0, true)?;
        }
        // Fewer Newton iterations earn a less cautious step.
        let fac = SAFETY.min(SAFETY * (2 * MAX_NEWTON + 1) as f64 / (iterations + 2 * MAX_NEWTON) as f64);
        let clamp = |q: f64| q.clamp(1.0 / MAX_FACTOR, 1.0 / MIN_FACTOR);
        // NaN (from an overflowing estimate) becomes the largest shrink.
        let mut quot = if err.is_nan() { 1.0 / MIN_FACTOR } else { clamp(err.powf(0.25) / fac) };

        if err < 1.0 {
            s.stats.accepted += 1;
            last_failure = Failure::None;
            first = false;
            // Gustafsson's predictive controller: shrink earlier when the error grows steadily.
            if let Some((h_acc, err_acc)) = accepted_h_err {
                let predicted = clamp(h_acc / h * (err * err / err_acc).powf(0.25) / fac);
                quot = quot.max(predicted);
            }
            accepted_h_err = Some((h, err.max(1e-2)));
            let mut t_new = if last { t_end } else { t + h };
            let (t_old, z) = (t, &s.z);
            let y_old = &y;
            let interp = |ts: f64, out: &mut [f64]| {
                let weights = tab.lagrange((ts - t_old) / h);
                for (k, o) in out.iter_mut().enumerate() {
                    *o = y_old[k] + (0..3).map(|l| weights[l] * z[l][k]).sum::<f64>();
                }
            };
            // An event inside the step ends it there (on the collocation polynomial).
            if let Some(te) = s.sys.locate_event(t_old, y_old, t_new, &y_new, &interp)
                && te > t_old
                && te < t_new
            {
                t_new = te;
                interp(te, &mut y_new);
                last = false;
            }
            s.sys.project(&mut y_new);
            s.sys.accepted(t_new, &y_new);
            let stop = cursor.deliver(t_new, &y_new, interp);
            if let Some(Stopped(ts)) = stop {
                return finish(ts, cursor.last_state().to_vec(), s.stats, true);
            }
            // f at the new state feeds the next error estimate and Jacobian; evaluating it
            // afresh (not reusing the last stage) also covers a projected state.
            evaluate_accepted(s.sys, &mut s.stats, t_new, &y_new, &mut f0)?;
            std::mem::swap(&mut y, &mut y_new);
            t = t_new;
            if last {
                return finish(t, y, s.stats, false);
            }
            match &mut previous {
                Some((z_prev, h_prev)) => {
                    for (zp, zi) in z_prev.iter_mut().zip(&s.z) {
                        zp.copy_from_slice(zi);
                    }
                    *h_prev = h;
                }
                None => previous = Some((s.z.clone(), h)),
            }

            let mut h_new = (h / quot).min(h_max);
            if just_rejected {
                h_new = h_new.min(h);
            }
            just_rejected = false;
            let reuse = theta <= REUSE_JACOBIAN_THETA;
            let ratio = h_new / h;
            if !(reuse && ratio >= KEEP_STEP_RATIO.0 && ratio <= KEEP_STEP_RATIO.1) {
                h = h_new;
            }
            need_jacobian = !reuse;
            jacobian_fresh = false;
        } else {
            s.stats.rejected += 1;
            just_rejected = true;
            last_failure = Failure::None;
            h = if first { 0.1 * h } else { h / quot };
            if !jacobian_fresh {
                need_jacobian = true;
            }
        }
    }
}

/// Why a step attempt failed before its error could be estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    None,
    NonFinite,
    Newton,
}

enum Newton {
    Converged { iterations: usize, theta: f64 },
    Failed(Failure),
}

/// The system, the counters and the work arrays of one Radau5 run.
struct Solver<'a, S> {
    sys: &'a mut S,
    stats: StepStats,
    tab: &'a Radau5Tableau,
    tol: Tolerances,
    n: usize,
    jac: DMatrix<f64>,
    real_lu: Option<LU<f64, Dyn, Dyn>>,
    complex_lu: Option<LU<Complex<f64>, Dyn, Dyn>>,
    /// Stage increments `Y_i − y0` and their transformed form `W = T⁻¹ Z`.
    z: [Vec<f64>; 3],
    w: [Vec<f64>; 3],
    f_stage: [Vec<f64>; 3],
    y_stage: Vec<f64>,
    f_tmp: Vec<f64>,
    rhs_real: DVector<f64>,
    rhs_complex: DVector<Complex<f64>>,
}

impl<'a, S: OdeSystem> Solver<'a, S> {
    fn new(sys: &'a mut S, tab: &'a Radau5Tableau, tol: Tolerances, n: usize) -> Self {
        let vecs = || std::array::from_fn(|_| vec![0.0; n]);
        Self {
            sys,
            stats: StepStats::default(),
            tab,
            tol,
            n,
            jac: DMatrix::zeros(n, n),
            real_lu: None,
            complex_lu: None,
            z: vecs(),
            w: vecs(),
            f_stage: vecs(),
            y_stage: vec![0.0; n],
            f_tmp: vec![0.0; n],
            rhs_real: DVector::zeros(n),
            rhs_complex: DVector::from_element(n, Complex::new(0.0, 0.0)),
        }
    }

    /// Forward-difference Jacobian at `(t, y)` given `f0 = f(t, y)`, one column per evaluation.
    fn jacobian(&mut self, t: f64, y: &[f64], f0: &[f64]) -> Result<(), OdeError> {
        self.stats.jacobians += 1;
        self.y_stage.copy_from_slice(y);
        for j in 0..self.n {
            let yj = y[j];
            // √ε balances truncation against cancellation; scaling by |y_j| keeps the
            // perturbation meaningful for large and small components alike.
            let delta = (f64::EPSILON * (yj * yj).max(1e-5)).sqrt();
            self.y_stage[j] = yj + delta;
            // The difference actually represented, so rounding of y_j + δ does not bias the column.
            let step = self.y_stage[j] - yj;
            if !evaluate(self.sys, &mut self.stats, t, &self.y_stage, &mut self.f_tmp)? {
                return Err(OdeError::NonFinite { t });
            }
            for i in 0..self.n {
                self.jac[(i, j)] = (self.f_tmp[i] - f0[i]) / step;
            }
            self.y_stage[j] = yj;
        }
        Ok(())
    }

    /// LU factors of `γ/h·I − J` and `(α − iβ)/h·I − J`, the two blocks of the transformed
    /// Newton matrix.
    fn factorize(&mut self, h: f64) {
        self.stats.factorizations += 1;
        let (g, shift) = (self.tab.gamma / h, Complex::new(self.tab.alpha / h, -self.tab.beta / h));
        let mut real = -self.jac.clone();
        let mut complex = self.jac.map(|v| Complex::new(-v, 0.0));
        for i in 0..self.n {
            real[(i, i)] += g;
            complex[(i, i)] += shift;
        }
        self.real_lu = Some(real.lu());
        self.complex_lu = Some(complex.lu());
    }

    /// Simplified Newton iteration for the stage increments, starting from `self.z`.
    fn newton(
        &mut self,
        t: f64,
        h: f64,
        y: &[f64],
        newton_tol: f64,
        eta: &mut f64,
    ) -> Result<Newton, OdeError> {
        let (tab, n) = (self.tab, self.n);
        let (Some(real_lu), Some(complex_lu)) = (&self.real_lu, &self.complex_lu) else {
            return Ok(Newton::Failed(Failure::Newton));
        };
        for k in 0..n {
            for i in 0..3 {
                self.w[i][k] = (0..3).map(|j| tab.t_inv[i][j] * self.z[j][k]).sum();
            }
        }
        let (g, a, b) = (tab.gamma / h, tab.alpha / h, tab.beta / h);
        let mut norm_old = 0.0;
        let mut theta = 0.0;
        for iteration in 0..MAX_NEWTON {
            for i in 0..3 {
                for k in 0..n {
                    self.y_stage[k] = y[k] + self.z[i][k];
                }
                if !evaluate(
                    self.sys,
                    &mut self.stats,
                    t + tab.c[i] * h,
                    &self.y_stage,
                    &mut self.f_stage[i],
                )? {
                    return Ok(Newton::Failed(Failure::NonFinite));
                }
            }
            // Residual of h⁻¹Λ W = T⁻¹ F(Z) in the transformed variables.
            for k in 0..n {
                let f = [self.f_stage[0][k], self.f_stage[1][k], self.f_stage[2][k]];
                let v: [f64; 3] = std::array::from_fn(|i| (0..3).map(|j| tab.t_inv[i][j] * f[j]).sum());
                let w = [self.w[0][k], self.w[1][k], self.w[2][k]];
                self.rhs_real[k] = v[0] - g * w[0];
                self.rhs_complex[k] = Complex::new(v[1] - a * w[1] - b * w[2], v[2] + b * w[1] - a * w[2]);
            }
            if !real_lu.solve_mut(&mut self.rhs_real) || !complex_lu.solve_mut(&mut self.rhs_complex) {
                return Ok(Newton::Failed(Failure::Newton));
            }
            let mut sum = 0.0;
            for k in 0..n {
                let dw = [self.rhs_real[k], self.rhs_complex[k].re, self.rhs_complex[k].im];
                let scale = self.tol.atol + self.tol.rtol * y[k].abs();
                for i in 0..3 {
                    let dz: f64 = (0..3).map(|j| tab.t[i][j] * dw[j]).sum();
                    self.w[i][k] += dw[i];
                    self.z[i][k] += dz;
                    sum += (dz / scale).powi(2);
                }
            }
            let norm = if n == 0 { 0.0 } else { (sum / (3 * n) as f64).sqrt() };
            if !norm.is_finite() {
                return Ok(Newton::Failed(Failure::Newton));
            }
            if iteration == 0 {
                // No contraction measured yet in this step: trust the last one, relaxed.
                *eta = eta.max(f64::EPSILON).powf(0.8);
            } else {
                theta = norm / norm_old;
                if theta >= 0.99 {
                    return Ok(Newton::Failed(Failure::Newton));
                }
                *eta = theta / (1.0 - theta);
                // Give up early when even the remaining iterations cannot reach the tolerance.
                let remaining = (MAX_NEWTON - 1 - iteration) as i32;
                if theta.powi(remaining) / (1.0 - theta) * norm > newton_tol {
                    return Ok(Newton::Failed(Failure::Newton));
                }
            }
            if *eta * norm <= newton_tol {
                return Ok(Newton::Converged { iterations: iteration + 1, theta });
            }
            norm_old = norm;
        }
        Ok(Newton::Failed(Failure::Newton))
    }

    /// Scaled norm of the embedded error estimate `(I − hγ₀J)⁻¹(ŷ − y)`, γ₀ = 1/γ. With
    /// `filtered`, the estimate is pushed once more through f and the real factorization, which
    /// damps its stiff components.
    fn error_norm(
        &mut self,
        t: f64,
        h: f64,
        y: &[f64],
        y_new: &[f64],
        f0: &[f64],
        filtered: bool,
    ) -> Result<f64, OdeError> {
        let (tab, n) = (self.tab, self.n);
        let Some(real_lu) = &self.real_lu else { return Ok(f64::INFINITY) };
        let g = tab.gamma / h;
        let ez = |k: usize, z: &[Vec<f64>; 3]| (0..3).map(|l| tab.e[l] * z[l][k]).sum::<f64>();
        if filtered {
            // `rhs_real` still holds the plain estimate.
            for k in 0..n {
                self.y_stage[k] = y[k] + self.rhs_real[k];
            }
            if !evaluate(self.sys, &mut self.stats, t, &self.y_stage, &mut self.f_tmp)? {
                return Ok(f64::INFINITY);
            }
            for k in 0..n {
                self.rhs_real[k] = self.f_tmp[k] + g * ez(k, &self.z);
            }
        } else {
            // (I − hγ₀J)⁻¹(γ₀h f0 + Σ e_l z_l) = (γ/h·I − J)⁻¹(f0 + γ/h·Σ e_l z_l).
            for k in 0..n {
                self.rhs_real[k] = f0[k] + g * ez(k, &self.z);
            }
        }
        if !real_lu.solve_mut(&mut self.rhs_real) {
            return Ok(f64::INFINITY);
        }
        let err = scaled_rms(self.rhs_real.as_slice(), y, y_new, &self.tol);
        Ok(if err.is_finite() { err } else { f64::INFINITY })
    }
}
