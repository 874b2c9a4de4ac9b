//! Every example scene loads, evaluates with `contactlab contact` and simulates for a short
//! while under its own settings (so that the README's examples never rot).

/// Every scene file in examples/, sorted.
fn example_scenes() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut scenes: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    scenes.sort();
    scenes
}

#[test]
fn every_example_scene_runs_contact() {
    let scenes = example_scenes();
    assert!(scenes.len() >= 20, "found {} scenes", scenes.len());
    for scene in scenes {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
            .args(["contact", scene.to_str().unwrap(), "--json"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", scene.display());
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e})", scene.display()));
        assert!(report["pairs"].is_array(), "{}", scene.display());
    }
}

/// The numbers of a CSV file's rows (the columns after `t` that parse as numbers: names are
/// skipped), with the file's row count.
fn numeric_fields(path: &std::path::Path) -> (Vec<f64>, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = text.lines();
    rows.next().expect("a header");
    let (mut values, mut count) = (Vec::new(), 0);
    for row in rows {
        count += 1;
        for field in row.split(',') {
            // Body and pair names are text; every other field is a number, and "NaN" / "inf"
            // parse as the non-finite numbers they are.
            if let Ok(x) = field.parse::<f64>() {
                values.push(x);
            }
        }
    }
    (values, count)
}

/// Every example simulates under its own model and integrator for its first 50 ms (or its whole
/// duration when shorter): the run reaches its end with its steps converged, every number it
/// writes is finite, the
/// energy balance holds (the run's own watch; its excess is reported), bodies stay below the
/// implausible speeds, and the trajectory has a row per body at each output time.
#[test]
fn every_example_scene_simulates() {
    use contactlab::app::simulation::{SimulateArgs, run};
    let scenes = example_scenes();
    let out_root = std::env::temp_dir().join(format!("contactlab-examples-{}", std::process::id()));
    for path in scenes {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut scene = contactlab::scene::load_scene(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let duration = scene.sim.duration.min(0.05);
        scene.sim.duration = duration;
        scene.sim.output_dt = Some(scene.sim.output_dt.unwrap_or(0.01).min(duration));
        scene.sim.exact_energy_dt = None;
        let out = out_root.join(&name);
        let summary = run(&scene, &SimulateArgs::new(&out)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let stats = summary.stats;
        let step = scene.sim.dt.unwrap_or(1e-3);
        assert!(
            (stats.t_end - duration).abs() <= 0.5 * step,
            "{name}: ended at t = {} s, not {duration} s",
            stats.t_end
        );
        assert!(stats.steps > 0, "{name}: no step taken");
        // Converged: Newton met its tolerance in at least 4 of 5 implicit steps (peg_in_hole's
        // tight fit keeps 5 of its first 50 steps short of it; the energy watch guards those),
        // and every velocity-level solve was the full problem (no fall-back).
        assert!(
            5 * stats.unconverged <= stats.steps,
            "{name}: {} of {} steps short of Newton's tolerance",
            stats.unconverged,
            stats.steps
        );
        assert_eq!(stats.fallbacks, 0, "{name}: LCP fall-backs");
        assert!(stats.max_energy_excess.is_finite(), "{name}: energy excess {}", stats.max_energy_excess);
        for file in ["trajectory.csv", "energy.csv", "contacts.csv"] {
            let (values, rows) = numeric_fields(&out.join(file));
            if let Some(bad) = values.iter().find(|x| !x.is_finite()) {
                panic!("{name}: {file} holds {bad}");
            }
            if file != "contacts.csv" {
                assert!(rows >= 2, "{name}: {file} has {rows} rows");
            }
        }
        let (energy, rows) = numeric_fields(&out.join("energy.csv"));
        // Six columns, eight with joints (joint_damping, actuator_work).
        let columns = energy.len() / rows;
        assert!(columns == 6 || columns == 8, "{name}: energy.csv has {columns} columns");
        let last_t = energy[(rows - 1) * columns];
        assert!((last_t - stats.t_end).abs() < 1e-12, "{name}: the last energy row is at {last_t} s");
        if out.join("solver.csv").exists() {
            let (values, rows) = numeric_fields(&out.join("solver.csv"));
            assert_eq!(rows as u64, stats.steps, "{name}: solver.csv has a row per step");
            assert!(values.iter().all(|x| x.is_finite()), "{name}: solver.csv holds a non-finite number");
        }
    }
    std::fs::remove_dir_all(&out_root).ok();
}
