//! Every model's default integrator and step give the right answer without the user choosing
//! one: stiff pressure-field boxes at rest at their static equilibrium, Modia3D's
//! BouncingSphere under Hertz, boxes on inclines. Scenes are run exactly as `simulate` runs
//! them (the scene's integrator defaults, the energy watch on).

use contactlab::dynamics::simulate::RunStats;

mod common;

/// (t, state, total energy) at every output of a run with the scene's defaults.
fn run_defaults(text: &str) -> (Vec<(f64, Vec<f64>, f64)>, RunStats) {
    let (rows, stats, _) = common::run_as_simulate(text, |s| (s.t, s.y.to_vec(), s.energies.total - s.work));
    (rows, stats)
}

/// Modia3D's BouncingSphere: a steel sphere (R 0.1 m, 1 g) dropped 1 m onto a steel box.
const BOUNCING_SPHERE: &str = r#"
[model]
kind = "hertz"
[sim]
duration = 2.2
[[body]]
name = "box"
fixed = true
position = [0.0, 0.0, -0.05]
shape = { type = "box", size = [1.0, 1.0, 0.1] }
contact = { material = "Steel" }
[[body]]
name = "sphere"
mass = 0.001
position = [0.0, 0.0, 1.1]
shape = { type = "sphere", radius = 0.1 }
contact = { material = "Steel" }
"#;

#[test]
fn bouncing_sphere_follows_the_restitution_law_with_the_default_integrator() {
    let (traj, stats) = run_defaults(BOUNCING_SPHERE);
    let g: f64 = 9.81;
    // Steel on steel, cor = 0.7: the damping law gives a rebound speed ratio of 0.683184
    // (tests/hertz_law.rs); free flight in between.
    let e = 0.683184;
    let (mut t_pred, mut v_pred) = ((2.0 * 1.0 / g).sqrt(), (2.0 * g * 1.0).sqrt());
    let z = |k: usize| traj[k].1[2];
    let vz = |k: usize| traj[k].1[9];
    let impacts: Vec<usize> = (1..traj.len()).filter(|&k| vz(k - 1) < 0.0 && vz(k) >= 0.0).collect();
    assert!(impacts.len() >= 5, "{} impacts", impacts.len());
    for (n, &k) in impacts.iter().take(5).enumerate() {
        let t = traj[k].0;
        eprintln!("impact {n}: t = {t:.4} s (closed form {t_pred:.4})");
        assert!((t - t_pred).abs() < 2e-3, "impact {n} at {t} s, closed form {t_pred} s");
        v_pred *= e;
        let apex = (k..traj.len()).take_while(|&j| vz(j) >= 0.0).map(z).fold(f64::NEG_INFINITY, f64::max);
        let h_pred = v_pred * v_pred / (2.0 * g);
        eprintln!("  rebound height {:.5} m (law {h_pred:.5})", apex - 0.1);
        if n < 4 {
            assert!(((apex - 0.1) - h_pred).abs() < 0.01 * h_pred, "rebound {n}: {} vs {h_pred}", apex - 0.1);
        }
        t_pred += 2.0 * v_pred / g;
    }
    // Energy never grows by more than 0.1% of the drop energy m·g·h.
    let drop_energy = 0.001 * g * 1.0;
    assert!(stats.max_energy_excess < 1e-3 * drop_energy, "energy excess {}", stats.max_energy_excess);
}

/// A 1 kg compliant box (0.1 m, d = 1 s/m, μ = 0.5) 1 cm above rigid ground.
fn box_drop(modulus: f64) -> String {
    format!(
        r#"[sim]
duration = 1.0
[[body]]
name = "ground"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ compliance = "rigid", friction = 0.5 }}
[[body]]
name = "box"
mass = 1.0
position = [0.0, 0.0, 0.06]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = {modulus:e}, dissipation = 1.0, friction = 0.5, resolution = 0.1 }}
"#
    )
}

#[test]
fn a_stiff_box_comes_to_rest_at_its_static_equilibrium_for_every_modulus() {
    let (m, g, h) = (1.0, 9.81, 0.01);
    for modulus in [1e6, 1e7, 1e8, 1e9, 1e10] {
        let (traj, stats) = run_defaults(&box_drop(modulus));
        let (t, y, _) = traj.last().unwrap();
        assert!((t - 1.0).abs() < 1e-9);
        // The box's field is linear to its centre: F = 0.2·E·d.
        let d_eq = m * g / (0.2 * modulus);
        let d = 0.05 - y[2];
        let e0 = traj[0].2;
        let rise = traj.iter().map(|s| s.2 - e0).fold(f64::NEG_INFINITY, f64::max);
        eprintln!(
            "E = {modulus:e}: d = {d:.4e} m (d_eq {d_eq:.4e}), v_z = {:.2e} m/s, energy rise {rise:.2e} J, {} evaluations for {} steps",
            y[9], stats.evaluations, stats.steps
        );
        assert!((d - d_eq).abs() < 2e-6 + 0.1 * d_eq, "E = {modulus:e}: d = {d}, d_eq = {d_eq}");
        assert!(y[9].abs() < 1e-3, "E = {modulus:e}: still moving at {} m/s", y[9]);
        assert!(rise <= 0.01 * m * g * h, "E = {modulus:e}: energy rose by {rise} J");
    }
}

/// A compliant box set just touching a rigid incline of `angle` degrees (μ = 0.5): the ground
/// turned about y, the box on it with the same orientation.
/// A scene with `sim` as its `[sim]` table and a rigid incline of `angle` degrees (μ 0.5): the
/// half space turned by R_y(angle), whose x axis points down the slope.
fn incline(angle: f64, sim: &str) -> String {
    let a = angle.to_radians();
    let (c, s) = ((0.5 * a).cos(), (0.5 * a).sin());
    format!(
        r#"[sim]
{sim}
[[body]]
name = "incline"
fixed = true
orientation = [{c}, 0.0, {s}, 0.0]
shape = {{ type = "halfspace" }}
contact = {{ compliance = "rigid", friction = 0.5 }}
"#
    )
}

fn box_on_incline(angle: f64, modulus: f64, dissipation: f64) -> String {
    let a = angle.to_radians();
    let (c, s) = ((0.5 * a).cos(), (0.5 * a).sin());
    // The incline's normal n = R_y(a)·z; the box's centre 5 cm along it.
    let (nx, nz) = (a.sin(), a.cos());
    incline(angle, "duration = 1.0")
        + &format!(
            r#"[[body]]
name = "box"
mass = 1.0
position = [{px}, 0.0, {pz}]
orientation = [{c}, 0.0, {s}, 0.0]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = {modulus:e}, dissipation = {dissipation}, friction = 0.5, resolution = 0.1 }}
"#,
            px = 0.05 * nx,
            pz = 0.05 * nz,
        )
}

/// Distance travelled down the slope (m) and speed along it (m/s) at each output.
fn along_slope(angle: f64, traj: &[(f64, Vec<f64>, f64)]) -> Vec<(f64, f64, f64)> {
    let a = angle.to_radians();
    // The incline's x axis, R_y(a)·x = (cos a, 0, −sin a), points down the slope.
    let down = [a.cos(), -a.sin()];
    let (x0, z0) = (traj[0].1[0], traj[0].1[2]);
    traj.iter()
        .map(|(t, y, _)| (*t, (y[0] - x0) * down[0] + (y[2] - z0) * down[1], y[7] * down[0] + y[9] * down[1]))
        .collect()
}

#[test]
fn a_box_on_a_20_degree_incline_sticks_and_on_35_degrees_slides_at_the_coulomb_rate() {
    for modulus in [1e6, 1e8] {
        for dissipation in [0.0, 1.0, 20.0] {
            let (traj, _) = run_defaults(&box_on_incline(20.0, modulus, dissipation));
            let s = along_slope(20.0, &traj);
            let moved = s.iter().map(|p| p.1.abs()).fold(0.0, f64::max);
            eprintln!("20°, E = {modulus:e}, d = {dissipation}: moved {:.3} mm", moved * 1e3);
            assert!(moved < 1e-3, "20°, E = {modulus:e}, d = {dissipation}: moved {moved} m");
        }
        let (traj, _) = run_defaults(&box_on_incline(35.0, modulus, 1.0));
        let s = along_slope(35.0, &traj);
        let at = |t: f64| s.iter().find(|p| p.0 >= t - 1e-9).unwrap().2;
        let accel = (at(0.8) - at(0.3)) / 0.5;
        let a = 35f64.to_radians();
        let expected = 9.81 * (a.sin() - 0.5 * a.cos());
        eprintln!("35°, E = {modulus:e}: a = {accel:.4} m/s² (Coulomb {expected:.4})");
        assert!((accel - expected).abs() < 0.03 * expected, "35°, E = {modulus:e}: a = {accel}");
    }
}

/// A compliant cylinder (R 0.05 m, 0.2 m long, 1 kg, E = 1e7, no dissipation) rolling down a
/// 20° incline (μ 0.5, far above tan 20°/3 for rolling): a solid cylinder rolls without slipping
/// at a = (2/3)·g·sin 20°. Its contact patch crosses the mesh every step, so the derivatives kept
/// from earlier steps no longer fit; Newton must still converge in almost every step.
#[test]
fn a_cylinder_rolls_down_an_incline_at_the_rolling_rate_and_newton_converges() {
    let angle: f64 = 20.0;
    let a = angle.to_radians();
    let (radius, depth) = (0.05, 3e-4);
    // Incline R_y(a); the cylinder's axis (body z) along the world y: R_y(a)·R_x(90°).
    let (c, s) = ((0.5 * a).cos(), (0.5 * a).sin());
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let q = [c * h, c * h, s * h, -s * h];
    let text = incline(angle, "duration = 0.5\noutput_dt = 0.05")
        + &format!(
            r#"[[body]]
name = "cylinder"
mass = 1.0
position = [{px}, 0.0, {pz}]
orientation = [{q0}, {q1}, {q2}, {q3}]
shape = {{ type = "cylinder", radius = {radius}, length = 0.2 }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e7, dissipation = 0.0, friction = 0.5, resolution = 0.01 }}
"#,
            px = (radius - depth) * a.sin(),
            pz = (radius - depth) * a.cos(),
            q0 = q[0],
            q1 = q[1],
            q2 = q[2],
            q3 = q[3],
        );
    let (traj, stats) = run_defaults(&text);
    let rolling = 2.0 / 3.0 * 9.81 * a.sin();
    let (t, travel, speed) = *along_slope(angle, &traj).last().unwrap();
    let expected = 0.5 * rolling * t * t;
    eprintln!(
        "t = {t}: travel {travel:.5} m (rolling {expected:.5}), speed {speed:.4} m/s; {} of {} steps short of Newton's tolerance, {} evaluations",
        stats.unconverged, stats.steps, stats.evaluations
    );
    assert!((travel / expected - 1.0).abs() < 0.02, "travel {travel} vs {expected}");
    // Rolling without slipping: the spin about the world y matches the speed.
    let spin = traj.last().unwrap().1[11];
    assert!((spin.abs() * radius / speed - 1.0).abs() < 0.02, "ω·R = {} vs v = {speed}", spin.abs() * radius);
    assert!(
        stats.unconverged * 50 <= stats.steps,
        "{} of {} steps short of the tolerance",
        stats.unconverged,
        stats.steps
    );
}
