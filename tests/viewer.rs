//! `contactlab view` and `simulate --html` without a browser (scripts/test_viewer.sh loads the
//! page in one): the page is self-contained, holds the bodies and the decimated frames, its
//! poses are trajectory.csv's at those frames, it is the same from both commands, and folders
//! without a matching run give clear errors.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-view-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

fn contactlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_contactlab")).args(args).output().expect("run contactlab")
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).to_string_lossy().into_owned()
}

fn ok(run: &Output) -> String {
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8_lossy(&run.stdout).into_owned()
}

fn simulate(scene: &str, out: &Path, extra: &[&str]) {
    let mut args = vec!["simulate", scene, "--out", out.to_str().unwrap(), "--quiet"];
    args.extend(extra);
    ok(&contactlab(&args));
}

/// The page's data: the JSON in its `page-data` script element.
fn page_data(html: &str) -> Value {
    let open = r#"<script id="page-data" type="application/json">"#;
    let start = html.find(open).expect("page-data element") + open.len();
    let end = start + html[start..].find("</script>").expect("end of page-data");
    serde_json::from_str(&html[start..end]).expect("page data is JSON")
}

/// trajectory.csv's rows: (t, body, the 13 numbers).
fn trajectory(dir: &Path) -> Vec<(f64, String, Vec<f64>)> {
    let text = std::fs::read_to_string(dir.join("trajectory.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            (f[0].parse().unwrap(), f[1].to_string(), f[2..].iter().map(|x| x.parse().unwrap()).collect())
        })
        .collect()
}

#[test]
fn view_writes_a_self_contained_page_with_the_decimated_frames_of_the_run() {
    let out = temp_dir("box");
    simulate(&example("box_drop.toml"), &out, &[]);
    let stdout = ok(&contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]));
    assert!(stdout.contains("300 of 1001 output times"), "{stdout}");
    let html = std::fs::read_to_string(out.join("view.html")).unwrap();
    // Offline: nothing is loaded from elsewhere; three.js is inside.
    assert!(!html.contains("<script src") && !html.contains("<link"), "the page loads files");
    assert!(html.contains("OrbitControls") && html.contains("WebGLRenderer"));
    let data = page_data(&html);
    let names: Vec<&str> =
        data["bodies"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["ground", "b0"]);
    assert_eq!(data["bodies"][0]["plane"], true);
    assert!(data["bodies"][1]["triangles"].as_array().unwrap().len() >= 36, "the box's mesh");

    // 300 of 1001 output times, evenly spaced, first and last among them.
    let rows = trajectory(&out);
    let all_times: Vec<f64> = rows.iter().filter(|r| r.1 == "b0").map(|r| r.0).collect();
    let times: Vec<f64> = data["times"].as_array().unwrap().iter().map(|t| t.as_f64().unwrap()).collect();
    assert_eq!((times.len(), data["frames_total"].as_u64().unwrap()), (300, 1001));
    assert_eq!((times[0], times[299]), (all_times[0], all_times[1000]));
    let poses = data["poses"].as_array().unwrap();
    assert_eq!(poses.len(), 300);
    // Each frame's poses are the CSV's rows at its time (rounded for the page).
    for (k, &t) in times.iter().enumerate() {
        let row = rows.iter().find(|r| r.1 == "b0" && (r.0 - t).abs() < 1e-9).expect("the frame's row");
        let pose: Vec<f64> = poses[k][1].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        for (i, (a, b)) in pose.iter().zip(&row.2[..7]).enumerate() {
            assert!((a - b).abs() < 1e-4, "frame {k} (t = {t}) pose[{i}]: page {a}, csv {b}");
        }
    }
    // The box lands: pressure-field patches at the last frame, none at the first.
    let patches = data["patches"].as_array().unwrap();
    assert!(patches[0].as_array().unwrap().is_empty());
    assert!(!patches[299].as_array().unwrap().is_empty());
    assert!(data["pressure_max"].as_f64().unwrap() > 0.0);
    // The energy plot and the contact force on the resting box (≈ its weight, 9.81 N up).
    assert_eq!(data["energy"]["series"].as_array().unwrap().len(), 5);
    let fz = data["forces"][299][1][2].as_f64().unwrap();
    assert!((fz - 9.81).abs() < 0.5, "contact force on b0 {fz} N");
}

#[test]
fn simulate_html_writes_the_same_page_as_view() {
    let (a, b) = (temp_dir("html-a"), temp_dir("html-b"));
    simulate(&example("hertz_box_drop.toml"), &a, &["--html"]);
    simulate(&example("hertz_box_drop.toml"), &b, &[]);
    ok(&contactlab(&["view", &example("hertz_box_drop.toml"), b.to_str().unwrap()]));
    let (pa, pb) = (std::fs::read(a.join("view.html")).unwrap(), std::fs::read(b.join("view.html")).unwrap());
    assert!(pa == pb, "simulate --html and view wrote different pages");
    // Hertz has no surfaces: markers where the box touches, no patches.
    let data = page_data(&String::from_utf8(pa).unwrap());
    assert!(data["patches"].as_array().unwrap().iter().all(|p| p.as_array().unwrap().is_empty()));
    assert!(data["markers"].as_array().unwrap().iter().any(|m| !m.as_array().unwrap().is_empty()));
    assert_eq!(data["model"], "hertz");
}

#[test]
fn a_folder_without_a_run_says_to_simulate_first() {
    let out = temp_dir("empty");
    let run = contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("has no trajectory.csv") && stderr.contains("contactlab simulate"), "{stderr}");
}

#[test]
fn another_scenes_run_is_refused() {
    let out = temp_dir("mismatch");
    simulate(&example("box_drop.toml"), &out, &[]);
    let run = contactlab(&["view", &example("hertz_ball_on_box.toml"), out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("another scene's run"), "{stderr}");
    assert!(!out.join("view.html").exists());
}

#[test]
fn a_malformed_trajectory_names_the_line() {
    let out = temp_dir("malformed");
    simulate(&example("box_drop.toml"), &out, &[]);
    let path = out.join("trajectory.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // The last row: the last frame is always shown (frames not shown are not parsed).
    let last = lines.len() - 1;
    lines[last] = lines[last].replacen(",b0,", ",b0,oops,", 1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let run = contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    let place = format!("trajectory.csv line {}", last + 1);
    assert!(stderr.contains(&place) && stderr.contains("`oops`"), "{stderr}");
    // A NaN or infinite number is damage too (a run never writes one): named with its line.
    for (file, bad) in [("trajectory.csv", "NaN"), ("energy.csv", "inf")] {
        simulate(&example("box_drop.toml"), &out, &[]);
        let path = out.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let last = lines.len() - 1;
        let mut fields: Vec<String> = lines[last].split(',').map(String::from).collect();
        let k = fields.len() - 1;
        fields[k] = bad.into();
        lines[last] = fields.join(",");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let run = contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{file} with {bad} was drawn");
        let place = format!("{file} line {}", last + 1);
        assert!(stderr.contains(&place) && stderr.contains("not a finite number"), "{stderr}");
    }
}

#[test]
fn a_body_name_cannot_end_the_data_element() {
    let out = temp_dir("name");
    let dir = temp_dir("name-scene");
    let scene =
        std::fs::read_to_string(example("box_drop.toml")).unwrap().replace("\"b0\"", "\"a</script>b\"");
    let scene_path = dir.join("box.toml");
    std::fs::write(&scene_path, scene).unwrap();
    simulate(scene_path.to_str().unwrap(), &out, &["--html"]);
    let html = std::fs::read_to_string(out.join("view.html")).unwrap();
    assert_eq!(page_data(&html)["bodies"][1]["name"], "a</script>b");
}

#[test]
fn names_the_csv_quotes_are_read_back_whole() {
    let out = temp_dir("quoted");
    let text = std::fs::read_to_string(example("ball_drop.toml"))
        .unwrap()
        .replace("name = \"damped\"", "name = \"damped, \\\"ball\\\"\"")
        .replace("duration = 2.0", "duration = 0.2");
    let scene = out.join("quoted.toml");
    std::fs::write(&scene, text).unwrap();
    simulate(scene.to_str().unwrap(), &out, &["--html"]);
    let html = std::fs::read_to_string(out.join("view.html")).unwrap();
    let data = page_data(&html);
    let names: Vec<&str> =
        data["bodies"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"damped, \"ball\""), "{names:?}");
}

/// A killed run's folder: files whose last row is cut short are drawn up to their last whole
/// output time, with a note naming the file and line.
#[test]
fn a_killed_runs_cut_last_row_is_drawn_up_to_its_last_whole_row() {
    let out = temp_dir("cut");
    simulate(&example("box_drop.toml"), &out, &[]);
    let rows = trajectory(&out);
    let last_t = rows.last().unwrap().0;
    let earlier_t = rows.iter().rev().find(|r| r.0 < last_t).unwrap().0;
    for file in ["trajectory.csv", "energy.csv", "contacts.csv"] {
        let path = out.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        // Cut inside the last row: it keeps some of its columns and loses its line break.
        std::fs::write(&path, &text[..text.len() - 6]).unwrap();
    }
    let lines = std::fs::read_to_string(out.join("trajectory.csv")).unwrap().lines().count();
    let stdout = ok(&contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]));
    assert!(stdout.contains(&format!("trajectory.csv line {lines} is cut short")), "{stdout}");
    let page = page_data(&std::fs::read_to_string(out.join("view.html")).unwrap());
    let times = page["times"].as_array().unwrap();
    let shown_last = times.last().unwrap().as_f64().unwrap();
    assert!(
        (shown_last - earlier_t).abs() <= 1e-6 * earlier_t.abs().max(1e-3),
        "{shown_last} vs {earlier_t}"
    );
}

#[test]
fn a_folder_missing_energy_or_contacts_names_the_file() {
    for file in ["energy.csv", "contacts.csv"] {
        let out = temp_dir(&format!("missing-{file}"));
        simulate(&example("box_drop.toml"), &out, &[]);
        std::fs::remove_file(out.join(file)).unwrap();
        let run = contactlab(&["view", &example("box_drop.toml"), out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{file} missing was drawn");
        assert!(
            stderr.contains(&format!("has no {file}")) && stderr.contains("contactlab simulate"),
            "{stderr}"
        );
    }
}
