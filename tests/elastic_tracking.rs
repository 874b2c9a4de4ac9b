//! Fixed-step runs track the elastic energy between exact evaluations by the work of the
//! elastic forces (`dynamics::elastic_tracker`): the tracked U must match the exact U at every
//! row, leave the motion untouched, be exact at the scheduled rows and zero out of contact.

mod common;

/// (t, state, elastic energy) at every output of a run as `simulate` runs it, and the largest
/// correction reported.
fn rows(text: &str) -> (Vec<(f64, Vec<f64>, f64)>, f64) {
    let (rows, stats, _) = common::run_as_simulate(text, |s| (s.t, s.y.to_vec(), s.energies.elastic));
    (rows, stats.largest_elastic_correction)
}

/// Runs `scene` with the default exact-energy interval and with an exact U in every row, and
/// checks the tracked rows against the exact ones.
fn tracked_matches_exact(scene: &str, every_row_dt: f64) {
    let (tracked, correction) = rows(scene);
    let exact_scene = scene.replace("[sim]", &format!("[sim]\nexact_energy_dt = {every_row_dt}"));
    let (exact, _) = rows(&exact_scene);
    assert_eq!(tracked.len(), exact.len());
    let largest = exact.iter().map(|r| r.2).fold(0.0, f64::max);
    assert!(largest > 1e-3, "the scene must reach a real contact: U at most {largest}");
    let (mut worst, mut differing) = (0.0_f64, 0);
    for (a, b) in tracked.iter().zip(&exact) {
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1, "tracking the energy must not change the motion (t = {})", a.0);
        let error = (a.2 - b.2).abs();
        worst = worst.max(error);
        differing += usize::from(error > 0.0);
        // Out of contact U is exactly zero; at the scheduled rows (every 0.1 s) exact.
        if b.2 == 0.0 || (a.0 * 10.0 - (a.0 * 10.0).round()).abs() < 1e-9 {
            assert_eq!(a.2, b.2, "t = {}", a.0);
        }
    }
    assert!(worst <= 1e-5 * largest, "tracked U off by {worst:e} J (U up to {largest} J)");
    assert!(differing > 0, "some rows must hold a tracked value, or this test checks nothing");
    assert!(correction < 0.05 * largest, "largest correction {correction:e} J");
}

#[test]
fn a_dropped_box_tracks_its_elastic_energy_under_implicit_euler() {
    tracked_matches_exact(
        r#"
[model]
kind = "pressure_field"
[sim]
duration = 0.6
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid", friction = 0.5 }
[[body]]
name = "b0"
mass = 1.0
position = [0.0, 0.0, 0.07]
orientation = [0.9993908270190958, 0.03489949670250097, 0.0, 0.0]
shape = { type = "box", size = [0.1, 0.1, 0.1] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 1.0, friction = 0.5 }
"#,
        1e-3,
    );
}

#[test]
fn a_ball_rolling_on_a_rigid_mesh_tracks_its_elastic_energy_under_semi_implicit_euler() {
    tracked_matches_exact(
        r#"
[model]
kind = "pressure_field"
[sim]
duration = 0.4
integrator = "semi_implicit_euler"
dt = 1e-4
output_dt = 1e-3
[[body]]
name = "table"
fixed = true
position = [0.0, 0.0, -0.05]
shape = { type = "box", size = [0.6, 0.6, 0.1] }
contact = { compliance = "rigid", resolution = 0.05, friction = 0.5 }
[[body]]
name = "ball"
mass = 0.5
position = [0.0, 0.0, 0.049]
linear_velocity = [0.3, 0.1, 0.0]
shape = { type = "sphere", radius = 0.05 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 2.0, friction = 0.5 }
"#,
        1e-3,
    );
}

/// A run whose every output takes the exact energy tracks none between its outputs (implicit
/// Euler): each of its rows equals, bit for bit, the row at the same time of a run that tracks
/// between exact rows (states and exact energies), and it reports no correction.
#[test]
fn outputs_that_are_all_exact_need_no_tracking_between_them() {
    let scene = |output_dt: f64| {
        format!(
            r#"
[model]
kind = "pressure_field"
[sim]
duration = 0.6
output_dt = {output_dt}
[[body]]
name = "ground"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ compliance = "rigid", friction = 0.5 }}
[[body]]
name = "b0"
mass = 1.0
position = [0.0, 0.0, 0.07]
orientation = [0.9993908270190958, 0.03489949670250097, 0.0, 0.0]
angular_velocity = [0.0, 0.0, 2.0]
shape = {{ type = "box", size = [0.1, 0.1, 0.1] }}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 1.0, friction = 0.5 }}
"#
        )
    };
    // Outputs every 0.1 s (exact_energy_dt's default): all exact, untracked between.
    let (sparse, correction) = rows(&scene(0.1));
    // Outputs every 10 ms: tracked between the exact rows every 0.1 s.
    let (dense, dense_correction) = rows(&scene(0.01));
    assert_eq!(sparse.len(), 7);
    assert!(dense_correction > 0.0, "the dense run must track, or this test checks nothing");
    assert_eq!(correction, 0.0);
    assert!(sparse.iter().any(|r| r.2 > 1e-3), "the box must reach a real contact");
    for row in &sparse {
        let same_time = dense.iter().find(|d| d.0 == row.0).expect("a dense row at each sparse row's time");
        assert_eq!(row.1, same_time.1, "the motion at t = {}", row.0);
        assert_eq!(row.2, same_time.2, "the elastic energy at t = {}", row.0);
    }
}
