//! A fuzz test that stays: example scenes mutated as a careless or adversarial user would —
//! numbers pushed to extremes, keys dropped or duplicated, vectors resized, mesh files
//! truncated — must each get an answer: no panic, a run that ends within its budget, and either
//! a clear error or outputs that are all finite.
//!
//! Fixed seed and a bounded number of cases so it fits in `cargo test`; for a longer run:
//! `FUZZ_CASES=2000 FUZZ_SEED=3 cargo test --profile release-test --test fuzz_scenes -- --nocapture` (the
//! seed is one byte, repeated).

use contactlab::app::simulation::{SimulateArgs, run};
use contactlab::scene::parse_scene;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::path::{Path, PathBuf};

/// The scenes mutated: small ones of each family (pressure field, Hertz, a mesh file).
const SCENES: [&str; 6] = [
    "sphere_drop.toml",
    "box_drop.toml",
    "hertz_sphere_drop.toml",
    "spinning_puck.toml",
    "peg_in_hole.toml",
    "volume6d_sliding_box.toml",
];

/// Values a number may be replaced by.
const EXTREMES: [&str; 12] =
    ["0", "-1", "-0.0", "1e-300", "1e300", "nan", "inf", "-inf", "1e9", "1e-9", "123456789", "0.5"];

#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the n-th number literal by an extreme value.
    Number(usize, usize),
    /// Drop the n-th `key = value` line.
    DropLine(usize),
    /// Duplicate the n-th line.
    DuplicateLine(usize),
    /// Add a component to, or remove one from, the n-th `[...]` array.
    Resize(usize, bool),
    /// Truncate the scene's mesh files to this fraction of their length.
    TruncateMeshes(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0usize..200, 0..EXTREMES.len()).prop_map(|(n, v)| Mutation::Number(n, v)),
        (0usize..60).prop_map(Mutation::DropLine),
        (0usize..60).prop_map(Mutation::DuplicateLine),
        (0usize..40, any::<bool>()).prop_map(|(n, grow)| Mutation::Resize(n, grow)),
        (0.0f64..1.0).prop_map(Mutation::TruncateMeshes),
    ]
}

/// The byte ranges of number literals in `text` (outside comments and strings, roughly).
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut in_comment = false;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i] as char;
        match c {
            '\n' => in_comment = false,
            '#' if !in_string => in_comment = true,
            '"' if !in_comment => in_string = !in_string,
            _ => {}
        }
        let starts = !in_comment
            && !in_string
            && (c.is_ascii_digit() || c == '-')
            && (i == 0 || !(bytes[i - 1] as char).is_ascii_alphanumeric());
        if starts {
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j] as char, '0'..='9' | '.' | 'e' | 'E' | '-' | '+') {
                j += 1;
            }
            if text[i..j].parse::<f64>().is_ok() {
                out.push((i, j));
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Applies `m` to the scene `text` whose folder is `dir` (mesh files are copied and truncated
/// there).
fn mutate(text: &str, m: &Mutation, dir: &Path, source_dir: &Path) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let assignment: Vec<usize> = (0..lines.len())
        .filter(|&k| lines[k].contains(" = ") && !lines[k].trim_start().starts_with('#'))
        .collect();
    match *m {
        Mutation::Number(n, v) => {
            let spans = numbers(text);
            let Some(&(a, b)) = spans.get(n % spans.len().max(1)) else { return text.into() };
            format!("{}{}{}", &text[..a], EXTREMES[v], &text[b..])
        }
        Mutation::DropLine(n) | Mutation::DuplicateLine(n) if !assignment.is_empty() => {
            let k = assignment[n % assignment.len()];
            let mut out: Vec<&str> = lines.clone();
            if matches!(m, Mutation::DropLine(_)) {
                out.remove(k);
            } else {
                out.insert(k, lines[k]);
            }
            out.join("\n")
        }
        Mutation::Resize(n, grow) => {
            let arrays: Vec<(usize, usize)> = text
                .match_indices('[')
                .filter(|(i, _)| text[*i..].starts_with("[") && !text[*i..].starts_with("[["))
                .filter_map(|(i, _)| text[i..].find(']').map(|j| (i, i + j)))
                .filter(|(i, j)| text[i + 1..*j].split(',').all(|x| x.trim().parse::<f64>().is_ok()))
                .collect();
            let Some(&(a, b)) = arrays.get(n % arrays.len().max(1)) else { return text.into() };
            let inner = &text[a + 1..b];
            let changed = if grow {
                format!("{inner}, 1.0")
            } else {
                inner.rsplit_once(',').map_or(String::new(), |(head, _)| head.to_string())
            };
            format!("{}{}{}", &text[..a + 1], changed, &text[b..])
        }
        Mutation::TruncateMeshes(fraction) => {
            for line in &lines {
                if let Some(start) = line.find("file = \"") {
                    let rest = &line[start + 8..];
                    if let Some(end) = rest.find('"') {
                        let file = &rest[..end];
                        if let Ok(bytes) = std::fs::read(source_dir.join(file)) {
                            let target = dir.join(file);
                            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                            std::fs::write(target, &bytes[..(bytes.len() as f64 * fraction) as usize])
                                .unwrap();
                        }
                    }
                }
            }
            text.into()
        }
        _ => text.into(),
    }
}

/// Copies the example's mesh files next to the mutated scene (unless a mutation wrote them).
fn copy_meshes(text: &str, source_dir: &Path, dir: &Path) {
    for line in text.lines() {
        if let Some(start) = line.find("file = \"") {
            let rest = &line[start + 8..];
            if let Some(end) = rest.find('"') {
                let target = dir.join(&rest[..end]);
                if !target.exists() {
                    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                    let _ = std::fs::copy(source_dir.join(&rest[..end]), target);
                }
            }
        }
    }
}

/// How a case ended: rejected at load, stopped with an error, or ran.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Rejected,
    Stopped,
    Ran,
}

/// Loads and runs a mutated scene; how it answered when it answered properly (a clear error,
/// or a run whose every output is finite), else what went wrong.
fn check(text: &str, dir: &Path) -> Result<Answer, String> {
    let mut scene = match parse_scene(text, dir) {
        Ok(s) => s,
        Err(e) => {
            let message = e.to_string();
            return if message.trim().is_empty() {
                Err("an empty error message".into())
            } else {
                Ok(Answer::Rejected)
            };
        }
    };
    // A budget for the run: short simulated time and wall time.
    scene.sim.duration = scene.sim.duration.min(0.02);
    scene.sim.max_wall_time = Some(2.0);
    let out = dir.join("out");
    let args = SimulateArgs::new(out.clone());
    let start = std::time::Instant::now();
    let result = run(&scene, &args);
    if start.elapsed().as_secs_f64() > 20.0 {
        return Err(format!("took {:.1} s", start.elapsed().as_secs_f64()));
    }
    if let Err(e) = result {
        let message = format!("{e:#}");
        return if message.trim().is_empty() {
            Err("an empty error message".into())
        } else {
            Ok(Answer::Stopped)
        };
    }
    for file in ["trajectory.csv", "energy.csv", "contacts.csv"] {
        let csv = std::fs::read_to_string(out.join(file)).map_err(|e| format!("{file}: {e}"))?;
        for line in csv.lines().skip(1) {
            for cell in line.split(',') {
                if let Ok(x) = cell.parse::<f64>()
                    && !x.is_finite()
                {
                    return Err(format!("a successful run wrote {cell} in {file}: {line}"));
                }
            }
        }
    }
    Ok(Answer::Ran)
}

#[test]
fn mutated_example_scenes_always_get_an_answer() {
    fuzz(60);
}

/// The longer run: `cargo test --profile release-test --test fuzz_scenes -- --ignored`.
#[test]
#[ignore]
fn mutated_example_scenes_always_get_an_answer_long() {
    fuzz(2000);
}

fn fuzz(default_cases: u32) {
    let cases: u32 = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default_cases);
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let seed = [std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(7u8); 32];
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    let root = std::env::temp_dir().join(format!("contactlab-fuzz-{}", std::process::id()));
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let answers = std::sync::Mutex::new([0usize; 3]);
    let strategy = (0..SCENES.len(), proptest::collection::vec(mutation(), 1..4));
    let result = runner.run(&strategy, |(scene, mutations)| {
        let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = root.join(format!("case{k}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = std::fs::read_to_string(examples.join(SCENES[scene])).unwrap();
        for m in &mutations {
            text = mutate(&text, m, &dir, &examples);
        }
        copy_meshes(&text, &examples, &dir);
        let outcome = check(&text, &dir);
        if let Ok(a) = outcome {
            answers.lock().unwrap()[a as usize] += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert!(outcome.is_ok(), "{}: {:?}\n{}", SCENES[scene], outcome, text);
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&root);
    let [rejected, stopped, ran] = *answers.lock().unwrap();
    eprintln!("{rejected} rejected at load, {stopped} stopped with an error, {ran} ran");
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A ball over a half space under `kind`, with `model` lines in `[model]`, the ball's `z` and
/// vertical speed.
fn ball_scene(kind: &str, model: &str, z: f64, speed: f64) -> String {
    let (shape, contact) = match kind {
        "pressure_field" => (
            "{ type = \"sphere\", radius = 0.1 }",
            "{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 1.0 }",
        ),
        "hertz" => ("{ type = \"sphere\", radius = 0.1 }", "{ material = \"Steel\" }"),
        _ => ("{ type = \"box\", size = [0.2, 0.2, 0.2] }", "{ friction = 0.5 }"),
    };
    let ground = if kind == "hertz" {
        "position = [0.0, 0.0, -0.5]\nshape = { type = \"box\", size = [4.0, 4.0, 1.0] }\ncontact = { material = \"Steel\" }"
    } else {
        "shape = { type = \"halfspace\" }\ncontact = { friction = 0.5 }"
    };
    format!(
        "[model]\nkind = \"{kind}\"\n{model}\n[sim]\nduration = 0.05\n\n[[body]]\nname = \"ground\"\nfixed = true\n\
         {ground}\n\n[[body]]\nname = \"ball\"\nmass = 1.0\nposition = [0.0, 0.0, {z}]\n\
         linear_velocity = [0.0, 0.0, {speed}]\nshape = {shape}\ncontact = {contact}\n"
    )
}

/// Loads and runs `text` (no panic allowed): Ok(None) when refused or stopped with a message
/// that contains `named` (if given), Ok(Some(z)) with the ball's last height when it ran.
fn answer(text: &str, dir: &Path, named: Option<&str>) -> Result<Option<f64>, String> {
    let outcome = std::panic::catch_unwind(|| {
        let scene = match parse_scene(text, dir) {
            Ok(s) => s,
            Err(e) => return Err(e.to_string()),
        };
        let out = dir.join("out");
        let mut scene = scene;
        scene.sim.max_wall_time = Some(5.0);
        match run(&scene, &SimulateArgs::new(out.clone())) {
            Err(e) => Err(format!("{e:#}")),
            Ok(_) => {
                let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
                let last =
                    csv.lines().rev().find(|l| l.split(',').nth(1) == Some("ball")).unwrap().to_string();
                Ok(last.split(',').nth(4).unwrap().parse::<f64>().unwrap())
            }
        }
    })
    .map_err(|_| format!("panicked on\n{text}"))?;
    match outcome {
        Ok(z) => Ok(Some(z)),
        Err(message) if named.is_none_or(|key| message.contains(key)) => Ok(None),
        Err(message) => Err(format!("the message does not name `{}`: {message}", named.unwrap())),
    }
}

/// Every `[model]` number of each model at the extremes: refused naming the key, or a run.
#[test]
fn model_keys_at_extremes_get_an_answer_naming_the_key() {
    let root = std::env::temp_dir().join(format!("contactlab-fuzz-keys-{}", std::process::id()));
    let keys: [(&str, &[&str]); 4] = [
        ("pressure_field", &["stiction_speed"]),
        ("hertz", &["elastic_contact_reduction_factor"]),
        ("volume6d", &["patch_scale", "tolerance"]),
        ("peg", &[]),
    ];
    let mut failures = Vec::new();
    for (kind, model_keys) in keys {
        for key in model_keys {
            for value in ["0", "-1", "1e-300", "1e300", "nan", "inf"] {
                let dir = root.join(format!("{kind}-{key}-{value}"));
                std::fs::create_dir_all(&dir).unwrap();
                let text = ball_scene(kind, &format!("{key} = {value}"), 0.3, -1.0);
                match answer(&text, &dir, Some(key)) {
                    Ok(_) => {}
                    Err(e) => failures.push(format!("{kind} {key} = {value}: {e}")),
                }
            }
        }
        // Body keys of every model, pushed the same way.
        for (key, line) in [("friction", "friction = 0.5"), ("dissipation", "dissipation = 1.0")] {
            for value in ["-1", "1e-300", "1e300", "nan"] {
                let dir = root.join(format!("{kind}-{key}-{value}"));
                std::fs::create_dir_all(&dir).unwrap();
                let text = ball_scene(kind, "", 0.3, -1.0);
                let text = if text.contains(line) {
                    text.replacen(line, &format!("{key} = {value}"), 1)
                } else {
                    text.replacen("contact = { ", &format!("contact = {{ {key} = {value}, "), 2)
                };
                if let Err(e) = answer(&text, &dir, Some(key)) {
                    failures.push(format!("{kind} {key} = {value}: {e}"));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A ball shot at the ground at 1e3 m/s, or placed inside it: no model lets it end below the
/// ground with a successful run.
#[test]
fn no_ball_ends_through_the_floor_with_success() {
    let root = std::env::temp_dir().join(format!("contactlab-fuzz-tunnel-{}", std::process::id()));
    let mut failures = Vec::new();
    for kind in ["pressure_field", "volume6d", "peg"] {
        for (z, speed) in [(0.5, -1000.0), (-1.0, 0.0), (0.3, -100.0)] {
            let dir = root.join(format!("{kind}-{z}-{speed}"));
            std::fs::create_dir_all(&dir).unwrap();
            match answer(&ball_scene(kind, "", z, speed), &dir, None) {
                Ok(Some(end)) if end < -0.1 => {
                    failures.push(format!("{kind} z {z} v {speed}: ran, ends at z = {end}"))
                }
                Ok(_) => {}
                Err(e) => failures.push(format!("{kind} z {z} v {speed}: {e}")),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
