//! ODE integrators against closed forms, conservation laws and stiff benchmarks (Van der Pol,
//! Robertson), plus the error paths.

use contactlab::dynamics::ode::{
    AdaptiveOptions, Flow, FnSystem, OdeError, OdeOutcome, OdeSystem, StepStats, Tolerances,
    integrate_dopri5, integrate_radau5,
};

type BoxedSystem = FnSystem<Box<dyn FnMut(f64, &[f64], &mut [f64])>>;

/// Either method with `t0 = 0`, callable through one function pointer.
type Integrator = fn(
    &mut BoxedSystem,
    &[f64],
    f64,
    &Tolerances,
    &AdaptiveOptions,
    &[f64],
    &mut dyn FnMut(f64, &[f64]) -> Flow,
) -> Result<OdeOutcome, OdeError>;

fn dopri(
    sys: &mut BoxedSystem,
    y0: &[f64],
    t1: f64,
    tol: &Tolerances,
    opts: &AdaptiveOptions,
    outs: &[f64],
    obs: &mut dyn FnMut(f64, &[f64]) -> Flow,
) -> Result<OdeOutcome, OdeError> {
    integrate_dopri5(sys, 0.0, y0, t1, tol, opts, outs, obs)
}

fn radau(
    sys: &mut BoxedSystem,
    y0: &[f64],
    t1: f64,
    tol: &Tolerances,
    opts: &AdaptiveOptions,
    outs: &[f64],
    obs: &mut dyn FnMut(f64, &[f64]) -> Flow,
) -> Result<OdeOutcome, OdeError> {
    integrate_radau5(sys, 0.0, y0, t1, tol, opts, outs, obs)
}

const METHODS: [(&str, Integrator); 2] = [("dopri5", dopri), ("radau5", radau)];

fn boxed(dim: usize, f: impl FnMut(f64, &[f64], &mut [f64]) + 'static) -> BoxedSystem {
    FnSystem::new(dim, Box::new(f) as Box<dyn FnMut(f64, &[f64], &mut [f64])>)
}

fn decay() -> BoxedSystem {
    boxed(1, |_, y, dy| dy[0] = -y[0])
}

fn oscillator() -> BoxedSystem {
    boxed(2, |_, y, dy| {
        dy[0] = y[1];
        dy[1] = -y[0];
    })
}

fn van_der_pol(mu: f64) -> BoxedSystem {
    boxed(2, move |_, y, dy| {
        dy[0] = y[1];
        dy[1] = mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
    })
}

fn tol(rtol: f64, atol: f64) -> Tolerances {
    Tolerances { rtol, atol }
}

fn run(method: Integrator, sys: &mut BoxedSystem, y0: &[f64], t_end: f64, tol: &Tolerances) -> OdeOutcome {
    method(sys, y0, t_end, tol, &AdaptiveOptions::default(), &[], &mut |_, _| Flow::Continue).unwrap()
}

/// Largest error of the oscillator over outputs and the final state, at the given rtol.
fn oscillator_error(method: Integrator, rtol: f64) -> f64 {
    let outs: Vec<f64> = (0..=100).map(|i| 0.1 * i as f64).collect();
    let mut worst = 0.0f64;
    let mut check = |t: f64, y: &[f64]| {
        worst = worst.max((y[0] - t.cos()).abs()).max((y[1] + t.sin()).abs());
        Flow::Continue
    };
    let tol = tol(rtol, rtol * 1e-2);
    let out =
        method(&mut oscillator(), &[1.0, 0.0], 10.0, &tol, &AdaptiveOptions::default(), &outs, &mut check)
            .unwrap();
    assert_eq!(out.t, 10.0);
    worst
}

#[test]
fn exponential_decay_matches_closed_form() {
    for (name, method) in METHODS {
        let out = run(method, &mut decay(), &[1.0], 5.0, &tol(1e-8, 1e-10));
        let err = (out.y[0] - (-5.0f64).exp()).abs();
        eprintln!("{name}: decay error {err:e}, {:?}", out.stats);
        assert!(err < 1e-6, "{name}: {err}");
        assert!(!out.stopped);
        assert!(out.stats.accepted > 3);
    }
}

#[test]
fn harmonic_oscillator_error_is_small_and_falls_with_rtol() {
    for (name, method) in METHODS {
        let errors: Vec<f64> = [1e-4, 1e-6, 1e-8].iter().map(|&r| oscillator_error(method, r)).collect();
        eprintln!("{name}: oscillator errors {errors:?}");
        assert!(errors[2] < 1e-6, "{name}: {errors:?}");
        assert!(errors[0] > errors[1] && errors[1] > errors[2], "{name}: {errors:?}");
        // Four decades of tolerance buy at least two decades of accuracy.
        assert!(errors[2] < errors[0] * 1e-2, "{name}: {errors:?}");
    }
}

#[test]
fn dopri5_keeps_oscillator_energy_over_100_periods() {
    let periods = 100.0;
    let t_end = periods * 2.0 * std::f64::consts::PI;
    let outs: Vec<f64> = (0..=1000).map(|i| t_end * i as f64 / 1000.0).collect();
    let mut drift = 0.0f64;
    let out = integrate_dopri5(
        &mut oscillator(),
        0.0,
        &[1.0, 0.0],
        t_end,
        &tol(1e-10, 1e-12),
        &AdaptiveOptions::default(),
        &outs,
        |_, y| {
            drift = drift.max((0.5 * (y[0] * y[0] + y[1] * y[1]) - 0.5).abs());
            Flow::Continue
        },
    )
    .unwrap();
    eprintln!("energy drift {drift:e}, {:?}", out.stats);
    assert!(drift <= 1e-7, "{drift}");
    assert!((out.y[0] - 1.0).abs() < 1e-6 && out.y[1].abs() < 1e-6, "{:?}", out.y);
}

#[test]
fn radau5_solves_stiff_van_der_pol() {
    let mu = 1000.0;
    let y0 = [2.0, 0.0];
    let coarse = run(radau, &mut van_der_pol(mu), &y0, 3000.0, &tol(1e-6, 1e-6));
    let fine = run(radau, &mut van_der_pol(mu), &y0, 3000.0, &tol(1e-9, 1e-9));
    eprintln!("vdp coarse {:?} {:?}\nvdp fine {:?} {:?}", coarse.y, coarse.stats, fine.y, fine.stats);
    assert!(coarse.stats.accepted + coarse.stats.rejected < 5000, "{:?}", coarse.stats);
    assert!((coarse.y[0] - fine.y[0]).abs() < 1e-4, "{:?} vs {:?}", coarse.y, fine.y);
    // The Jacobian is reused across steps, not recomputed every step.
    assert!(coarse.stats.jacobians < coarse.stats.accepted, "{:?}", coarse.stats);
}

/// Robertson's kinetics; `project` only records every accepted state's invariants.
struct Robertson {
    worst_sum: f64,
    lowest_y2: f64,
}

impl OdeSystem for Robertson {
    fn dim(&self) -> usize {
        3
    }

    fn derivative(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        let r1 = 0.04 * y[0];
        let r2 = 1e4 * y[1] * y[2];
        let r3 = 3e7 * y[1] * y[1];
        dy[0] = -r1 + r2;
        dy[1] = r1 - r2 - r3;
        dy[2] = r3;
        Ok(())
    }

    fn project(&mut self, y: &mut [f64]) {
        self.worst_sum = self.worst_sum.max((y[0] + y[1] + y[2] - 1.0).abs());
        self.lowest_y2 = self.lowest_y2.min(y[1]);
    }
}

#[test]
fn radau5_conserves_mass_in_robertson_kinetics() {
    let mut sys = Robertson { worst_sum: 0.0, lowest_y2: f64::INFINITY };
    let out = integrate_radau5(
        &mut sys,
        0.0,
        &[1.0, 0.0, 0.0],
        1e5,
        &tol(1e-6, 1e-10),
        &AdaptiveOptions::default(),
        &[],
        |_, _| Flow::Continue,
    )
    .unwrap();
    eprintln!("robertson {:?} {:?} sum {:e} min y2 {:e}", out.y, out.stats, sys.worst_sum, sys.lowest_y2);
    assert!(sys.worst_sum < 1e-8, "{}", sys.worst_sum);
    assert!(sys.lowest_y2 >= -1e-10, "{}", sys.lowest_y2);
    // Reference values at t = 1e5: y1 ≈ 0.017866, y2 ≈ 7.27e-8.
    assert!((out.y[0] - 0.017_866).abs() < 1e-5, "{:?}", out.y);
    assert!((out.y[1] - 7.27e-8).abs() < 1e-9, "{:?}", out.y);
    assert!(out.stats.accepted < 1000, "{:?}", out.stats);
}

#[test]
fn dopri5_needs_far_more_steps_than_radau5_on_stiff_problem() {
    let mu = 100.0;
    let t = tol(1e-6, 1e-6);
    let explicit = run(dopri, &mut van_der_pol(mu), &[2.0, 0.0], 100.0, &t);
    let implicit = run(radau, &mut van_der_pol(mu), &[2.0, 0.0], 100.0, &t);
    // Both are solutions of the same problem.
    let steps = |s: StepStats| s.accepted + s.rejected;
    eprintln!("dopri {:?}\nradau {:?}", explicit.stats, implicit.stats);
    assert!(steps(explicit.stats) >= 10 * steps(implicit.stats));
    assert!(steps(implicit.stats) < 1000, "{:?}", implicit.stats);
    assert!((explicit.y[0] - implicit.y[0]).abs() < 1e-3, "{:?} vs {:?}", explicit.y, implicit.y);
}

#[test]
fn dense_output_matches_closed_form_between_steps() {
    let outs: Vec<f64> = (0..=1000).map(|i| 0.005 * i as f64).collect();
    for (name, method) in METHODS {
        let mut seen = Vec::new();
        let mut worst = 0.0f64;
        let out = method(
            &mut oscillator(),
            &[1.0, 0.0],
            5.0,
            &tol(1e-8, 1e-10),
            &AdaptiveOptions::default(),
            &outs,
            &mut |t, y| {
                seen.push(t);
                worst = worst.max((y[0] - t.cos()).abs()).max((y[1] + t.sin()).abs());
                Flow::Continue
            },
        )
        .unwrap();
        eprintln!("{name}: dense error {worst:e}, {:?}", out.stats);
        assert_eq!(seen, outs, "{name}: every output once, in order, at the exact time");
        // Most outputs fall inside steps, so the continuous extension is what is checked.
        assert!(out.stats.accepted * 5 < outs.len() as u64, "{name}: {:?}", out.stats);
        assert!(worst < 1e-7, "{name}: {worst}");
    }
}

#[test]
fn observer_stop_ends_the_run_at_that_output() {
    for (name, method) in METHODS {
        let mut calls = 0;
        let out = method(
            &mut decay(),
            &[1.0],
            10.0,
            &tol(1e-8, 1e-10),
            &AdaptiveOptions::default(),
            &[0.5, 1.234, 2.0, 9.0],
            &mut |t, _| {
                calls += 1;
                if t > 1.0 { Flow::Stop } else { Flow::Continue }
            },
        )
        .unwrap();
        assert!(out.stopped, "{name}");
        assert_eq!(calls, 2, "{name}");
        assert_eq!(out.t, 1.234, "{name}");
        assert!((out.y[0] - (-1.234f64).exp()).abs() < 1e-8, "{name}: {:?}", out.y);
        // The run did not go on to t = 10.
        assert!(out.stats.accepted < 40, "{name}: {:?}", out.stats);
    }
}

/// Rotation on the unit circle, renormalised after every step like a quaternion.
struct Circle {
    projections: u64,
}

impl OdeSystem for Circle {
    fn dim(&self) -> usize {
        2
    }

    fn derivative(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        dy[0] = -y[1];
        dy[1] = y[0];
        Ok(())
    }

    fn project(&mut self, y: &mut [f64]) {
        self.projections += 1;
        let r = y[0].hypot(y[1]);
        y.iter_mut().for_each(|v| *v /= r);
    }
}

#[test]
fn projection_applies_to_every_accepted_state() {
    for (name, method) in [("dopri5", true), ("radau5", false)] {
        let mut sys = Circle { projections: 0 };
        let args = (0.0, [1.0, 0.0], 20.0, tol(1e-8, 1e-10), AdaptiveOptions::default());
        let out = if method {
            integrate_dopri5(&mut sys, args.0, &args.1, args.2, &args.3, &args.4, &[], |_, _| Flow::Continue)
        } else {
            integrate_radau5(&mut sys, args.0, &args.1, args.2, &args.3, &args.4, &[], |_, _| Flow::Continue)
        }
        .unwrap();
        assert_eq!(sys.projections, out.stats.accepted, "{name}");
        assert!((out.y[0].hypot(out.y[1]) - 1.0).abs() < 1e-15, "{name}: {:?}", out.y);
        assert!((out.y[0] - 20f64.cos()).abs() < 1e-6 && (out.y[1] - 20f64.sin()).abs() < 1e-6, "{name}");
    }
}

/// y' = −y whose state is halved by the projection once, the first time it drops below 1/e: the
/// derivative cached from before the jump is then wrong by a factor 2.
struct HalvedDecay {
    jumped: bool,
}

impl OdeSystem for HalvedDecay {
    fn dim(&self) -> usize {
        1
    }

    fn derivative(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
        dy[0] = -y[0];
        Ok(())
    }

    fn project(&mut self, y: &mut [f64]) {
        if !self.jumped && y[0] < (-1.0f64).exp() {
            self.jumped = true;
            y[0] *= 0.5;
        }
    }
}

#[test]
fn changed_state_restarts_the_method_cleanly() {
    for (name, method) in [("dopri5", true), ("radau5", false)] {
        let mut sys = HalvedDecay { jumped: false };
        let (t, o) = (tol(1e-10, 1e-12), AdaptiveOptions::default());
        let out = if method {
            integrate_dopri5(&mut sys, 0.0, &[1.0], 3.0, &t, &o, &[], |_, _| Flow::Continue)
        } else {
            integrate_radau5(&mut sys, 0.0, &[1.0], 3.0, &t, &o, &[], |_, _| Flow::Continue)
        }
        .unwrap();
        assert!(sys.jumped);
        // The solution is linear, so after the jump it is exactly half the unperturbed one.
        let exact = 0.5 * (-3.0f64).exp();
        assert!((out.y[0] - exact).abs() < 1e-9, "{name}: {} vs {exact}", out.y[0]);
        // A stale derivative would show up as rejections right after the jump.
        assert!(out.stats.rejected <= 1, "{name}: {:?}", out.stats);
    }
}

#[test]
fn radau5_reuses_the_jacobian_on_a_linear_problem() {
    let out = run(radau, &mut oscillator(), &[1.0, 0.0], 10.0, &tol(1e-6, 1e-8));
    assert!(out.stats.jacobians * 5 < out.stats.accepted, "{:?}", out.stats);
    assert!(out.stats.factorizations < out.stats.accepted, "{:?}", out.stats);
}

#[test]
fn nan_derivative_is_a_non_finite_error() {
    for (name, method) in METHODS {
        let mut sys = boxed(1, |_, _, dy| dy[0] = f64::NAN);
        let r =
            method(&mut sys, &[1.0], 1.0, &tol(1e-6, 1e-6), &AdaptiveOptions::default(), &[], &mut |_, _| {
                Flow::Continue
            });
        assert_eq!(r, Err(OdeError::NonFinite { t: 0.0 }), "{name}");

        // A derivative that turns NaN at t = 1: steps shrink onto it, then the error names the time.
        let mut sys = boxed(1, |t, y, dy| dy[0] = if t > 1.0 { f64::NAN } else { -y[0] });
        let r =
            method(&mut sys, &[1.0], 2.0, &tol(1e-6, 1e-6), &AdaptiveOptions::default(), &[], &mut |_, _| {
                Flow::Continue
            });
        match r {
            Err(OdeError::NonFinite { t }) => assert!((t - 1.0).abs() < 1e-9, "{name}: {t}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn blow_up_in_finite_time_is_an_error_not_a_panic() {
    // y' = y², y(0) = 1 has y = 1/(1 − t).
    for (name, method) in METHODS {
        let mut sys = boxed(1, |_, y, dy| dy[0] = y[0] * y[0]);
        let r =
            method(&mut sys, &[1.0], 2.0, &tol(1e-6, 1e-6), &AdaptiveOptions::default(), &[], &mut |_, _| {
                Flow::Continue
            });
        let t = match r {
            Err(
                OdeError::NonFinite { t } | OdeError::StepTooSmall { t, .. } | OdeError::NewtonFailed { t },
            ) => t,
            other => panic!("{name}: {other:?}"),
        };
        assert!((t - 1.0).abs() < 1e-3, "{name}: {t}");
    }
}

#[test]
fn bad_tolerances_are_rejected() {
    for (name, method) in METHODS {
        for (rtol, atol) in
            [(0.0, 1e-6), (1e-6, 0.0), (-1e-6, 1e-6), (1e-6, -1.0), (f64::NAN, 1e-6), (1e-6, f64::INFINITY)]
        {
            let r = method(
                &mut decay(),
                &[1.0],
                1.0,
                &tol(rtol, atol),
                &AdaptiveOptions::default(),
                &[],
                &mut |_, _| Flow::Continue,
            );
            assert!(matches!(r, Err(OdeError::BadTolerance { .. })), "{name} {rtol} {atol}: {r:?}");
        }
    }
}

#[test]
fn step_limit_is_an_error() {
    for (name, method) in METHODS {
        let opts = AdaptiveOptions { max_steps: 10, ..AdaptiveOptions::default() };
        let r = method(&mut oscillator(), &[1.0, 0.0], 100.0, &tol(1e-8, 1e-8), &opts, &[], &mut |_, _| {
            Flow::Continue
        });
        match r {
            Err(e @ OdeError::TooManySteps { t }) => {
                assert!(t > 0.0 && t < 100.0, "{name}: {t}");
                // The advice names keys a scene has, not the internal budget.
                let message = e.to_string();
                assert!(message.contains("rtol") && !message.contains("max_steps"), "{name}: {message}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn system_errors_pass_through_with_their_time() {
    struct Failing;
    impl OdeSystem for Failing {
        fn dim(&self) -> usize {
            1
        }
        fn derivative(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), OdeError> {
            if t > 0.5 {
                return Err(OdeError::system(t, "contact solver diverged"));
            }
            dy[0] = -y[0];
            Ok(())
        }
    }
    let (t, o) = (tol(1e-6, 1e-6), AdaptiveOptions::default());
    for r in [
        integrate_dopri5(&mut Failing, 0.0, &[1.0], 1.0, &t, &o, &[], |_, _| Flow::Continue),
        integrate_radau5(&mut Failing, 0.0, &[1.0], 1.0, &t, &o, &[], |_, _| Flow::Continue),
    ] {
        match r {
            Err(OdeError::System { t, message }) => {
                assert!(t > 0.5 && t <= 1.0, "{t}");
                assert_eq!(message, "contact solver diverged");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn invalid_arguments_are_rejected() {
    for (name, method) in METHODS {
        let call = |y0: &[f64], t_end: f64, opts: AdaptiveOptions, outs: &[f64]| {
            method(&mut decay(), y0, t_end, &tol(1e-6, 1e-6), &opts, outs, &mut |_, _| Flow::Continue)
        };
        let d = AdaptiveOptions::default();
        assert!(
            matches!(
                call(&[1.0, 2.0], 1.0, d, &[]),
                Err(OdeError::DimensionMismatch { expected: 1, got: 2 })
            ),
            "{name}"
        );
        assert!(matches!(call(&[f64::NAN], 1.0, d, &[]), Err(OdeError::NonFinite { .. })), "{name}");
        assert!(matches!(call(&[1.0], -1.0, d, &[]), Err(OdeError::BadInterval { .. })), "{name}");
        assert!(matches!(call(&[1.0], f64::INFINITY, d, &[]), Err(OdeError::BadInterval { .. })), "{name}");
        assert!(
            matches!(call(&[1.0], 1.0, d, &[0.5, 0.2]), Err(OdeError::BadOutputTime { index: 1, .. })),
            "{name}"
        );
        assert!(
            matches!(call(&[1.0], 1.0, d, &[1.5]), Err(OdeError::BadOutputTime { index: 0, .. })),
            "{name}"
        );
        assert!(matches!(call(&[1.0], 1.0, d, &[f64::NAN]), Err(OdeError::BadOutputTime { .. })), "{name}");
        let bad_h = AdaptiveOptions { initial_step: Some(-1.0), ..d };
        assert!(
            matches!(call(&[1.0], 1.0, bad_h, &[]), Err(OdeError::BadOption { what: "initial_step", .. })),
            "{name}"
        );
        let bad_max = AdaptiveOptions { max_step: Some(0.0), ..d };
        assert!(
            matches!(call(&[1.0], 1.0, bad_max, &[]), Err(OdeError::BadOption { what: "max_step", .. })),
            "{name}"
        );
        // An empty interval observes its outputs and returns the initial state.
        let out = call(&[1.0], 0.0, d, &[0.0]).unwrap();
        assert_eq!((out.t, out.y.as_slice(), out.stats.evaluations), (0.0, &[1.0][..], 0), "{name}");
    }
}

#[test]
fn max_step_bounds_every_step() {
    for (name, method) in METHODS {
        let opts = AdaptiveOptions { max_step: Some(0.01), ..AdaptiveOptions::default() };
        let out = method(&mut decay(), &[1.0], 1.0, &tol(1e-3, 1e-3), &opts, &[], &mut |_, _| Flow::Continue)
            .unwrap();
        assert!(out.stats.accepted >= 100, "{name}: {:?}", out.stats);
    }
}

#[test]
fn late_start_and_empty_state_work() {
    let (t, o) = (tol(1e-8, 1e-10), AdaptiveOptions::default());
    let late = [
        integrate_dopri5(&mut decay(), 1e6, &[1.0], 1e6 + 5.0, &t, &o, &[], |_, _| Flow::Continue),
        integrate_radau5(&mut decay(), 1e6, &[1.0], 1e6 + 5.0, &t, &o, &[], |_, _| Flow::Continue),
    ];
    for r in late {
        let out = r.unwrap();
        assert_eq!(out.t, 1e6 + 5.0);
        assert!((out.y[0] - (-5.0f64).exp()).abs() < 1e-6, "{:?}", out.y);
    }
    let empty = [
        integrate_dopri5(&mut boxed(0, |_, _, _| {}), 0.0, &[], 1.0, &t, &o, &[0.5], |_, _| Flow::Continue),
        integrate_radau5(&mut boxed(0, |_, _, _| {}), 0.0, &[], 1.0, &t, &o, &[0.5], |_, _| Flow::Continue),
    ];
    for r in empty {
        let out = r.unwrap();
        assert_eq!((out.t, out.y.len()), (1.0, 0));
    }
}
