//! Every example scene loads and evaluates with `contactlab contact` (so that the README's
//! examples never rot).

#[test]
fn every_example_scene_runs_contact() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut scenes: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    scenes.sort();
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
