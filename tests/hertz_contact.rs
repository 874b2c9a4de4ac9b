//! The Hertz model through `contactlab contact`: static Hertz against the closed form, and the
//! messages for bodies without a material.

use std::process::Command;

fn contactlab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_contactlab")).args(args).output().expect("run contactlab")
}

#[test]
fn a_steel_ball_on_a_steel_box_matches_static_hertz() {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/hertz_ball_on_box.toml");
    let out = contactlab(&["contact", scene, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pair = &report["pairs"][0];
    assert_eq!(pair["area"], serde_json::Value::Null, "a point contact has no area");
    // Force on the box (a) is minus the force on the ball: f_n along −z.
    let fz = pair["force"][2].as_f64().unwrap();
    let (e, nu, r, delta) = (2e11_f64, 0.3_f64, 0.01_f64, 1e-5_f64);
    let e_star = 1.0 / (2.0 * (1.0 - nu * nu) / e);
    let exact = 4.0 / 3.0 * e_star * r.sqrt() * delta.powf(1.5);
    assert!((-fz - exact).abs() <= 1e-9 * exact, "f_n {} vs {exact}", -fz);
    // The elastic energy is ∫ f_n dδ = (4/3)·E*·√R·δ^2.5/2.5.
    let energy = pair["energy"].as_f64().unwrap();
    assert!((energy - exact * delta / 2.5).abs() <= 1e-9 * energy);
}

#[test]
fn a_body_without_material_is_an_error_naming_the_palette() {
    let dir = std::env::temp_dir().join(format!("contactlab-hertz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("s.toml");
    std::fs::write(
        &scene,
        "[model]\nkind = \"hertz\"\n[[body]]\nname = \"ball\"\nmass = 1\nshape = { type = \"sphere\", radius = 0.1 }\n",
    )
    .unwrap();
    let out = contactlab(&["contact", scene.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("ball") && stderr.contains("Steel") && stderr.contains("material"), "{stderr}");
}
