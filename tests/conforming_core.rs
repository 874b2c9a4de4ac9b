//! A skin over a rigid core (`core = "skin_depth"`) on a general mesh, through the user's path:
//! an OBJ surface → a scene → `contactlab field` → the VTK file. The mesher puts the core's
//! boundary (depth = skin_depth) on mesh vertices, so ε meets the closed forms of a spherical
//! and a cylindrical shell, and the error falls under refinement.

mod common;
use std::f64::consts::PI;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-core-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

fn write_obj(path: &Path, vertices: &[[f64; 3]], triangles: &[[usize; 3]]) {
    let mut text = String::new();
    for v in vertices {
        writeln!(text, "v {} {} {}", v[0], v[1], v[2]).unwrap();
    }
    for t in triangles {
        writeln!(text, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// A closed cylinder of radius `r` and length `l` along z, centred at the origin.
fn cylinder(r: f64, l: f64, around: usize, along: usize) -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let mut v = Vec::new();
    for j in 0..=along {
        let z = -l / 2.0 + l * j as f64 / along as f64;
        for i in 0..around {
            let a = 2.0 * PI * i as f64 / around as f64;
            v.push([r * a.cos(), r * a.sin(), z]);
        }
    }
    let (bottom, top) = (v.len(), v.len() + 1);
    v.push([0.0, 0.0, -l / 2.0]);
    v.push([0.0, 0.0, l / 2.0]);
    let mut f = Vec::new();
    for j in 0..along {
        for i in 0..around {
            let (a, b) = (j * around + i, j * around + (i + 1) % around);
            f.push([a, b, b + around]);
            f.push([a, b + around, a + around]);
        }
    }
    for i in 0..around {
        f.push([bottom, (i + 1) % around, i]);
        f.push([top, along * around + i, along * around + (i + 1) % around]);
    }
    (v, f)
}

/// Runs `contactlab field` on a one-body scene of `obj` at `resolution` and returns the
/// vertices and their ε from the VTK file.
fn field_through_the_cli(dir: &Path, obj: &str, resolution: f64) -> Vec<([f64; 3], f64)> {
    let scene = dir.join(format!("scene_{resolution}.toml"));
    std::fs::write(
        &scene,
        format!(
            "[[body]]\nname = \"body\"\nmass = 1.0\n\
             shape = {{ type = \"mesh\", file = \"{obj}\", core = \"skin_depth\", skin_depth = 0.05 }}\n\
             contact = {{ compliance = \"compliant\", hydroelastic_modulus = 1e6, resolution = {resolution} }}\n"
        ),
    )
    .unwrap();
    let vtk = dir.join(format!("field_{resolution}.vtk"));
    let run = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(["field", scene.to_str().unwrap(), "--body", "body", "--out", vtk.to_str().unwrap()])
        .output()
        .expect("run contactlab");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&vtk).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).expect(prefix);
    let p = at("POINTS");
    let n: usize = lines[p].split_whitespace().nth(1).unwrap().parse().unwrap();
    let e = at("SCALARS extent") + 2;
    (0..n)
        .map(|k| {
            let xyz: Vec<f64> = lines[p + 1 + k].split_whitespace().map(|x| x.parse().unwrap()).collect();
            ([xyz[0], xyz[1], xyz[2]], lines[e + k].trim().parse().unwrap())
        })
        .collect()
}

/// The largest |ε − closed form| over the vertices `closed_form` returns a value for.
fn max_error(field: &[([f64; 3], f64)], closed_form: impl Fn(&[f64; 3]) -> Option<f64>) -> f64 {
    field.iter().filter_map(|(p, e)| closed_form(p).map(|exact| (e - exact).abs())).fold(0.0, f64::max)
}

#[test]
fn spherical_shell_from_an_obj_meets_the_closed_form() {
    let dir = temp_dir("sphere");
    let ball = common::icosphere(0.1, contactlab::math::Point3::origin(), 4);
    let v: Vec<[f64; 3]> = ball.vertices.iter().map(|p| [p.x, p.y, p.z]).collect();
    let f: Vec<[usize; 3]> = ball.triangles.iter().map(|t| t.map(|i| i as usize)).collect();
    write_obj(&dir.join("ball.obj"), &v, &f);
    let (r_out, r_core) = (0.1, 0.05);
    // ε = (1/r − 1/R)/(1/a − 1/R) in the shell, 1 in the core.
    let exact = |p: &[f64; 3]| {
        let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        Some(if r <= r_core {
            1.0
        } else {
            ((1.0 / r - 1.0 / r_out) / (1.0 / r_core - 1.0 / r_out)).max(0.0)
        })
    };
    let coarse = max_error(&field_through_the_cli(&dir, "ball.obj", 0.02), exact);
    let fine = max_error(&field_through_the_cli(&dir, "ball.obj", 0.01), exact);
    eprintln!("spherical shell: max |ε − closed form| = {coarse:.4} at 0.02, {fine:.4} at 0.01");
    assert!(fine <= 0.02, "max error {fine} at resolution 0.01");
    assert!(fine < coarse, "the error does not fall: {coarse} → {fine}");
}

#[test]
fn cylindrical_shell_from_an_obj_meets_the_closed_form_away_from_the_caps() {
    let dir = temp_dir("cylinder");
    let (r_out, r_core, length) = (0.1, 0.05, 0.6);
    let (v, f) = cylinder(r_out, length, 96, 12);
    write_obj(&dir.join("cylinder.obj"), &v, &f);
    // ε = ln(R/r)/ln(R/a) in the shell, 1 in the core, where the caps are far.
    let exact = |p: &[f64; 3]| {
        (p[2].abs() < length / 2.0 - 2.0 * r_out).then(|| {
            let r = p[0].hypot(p[1]);
            if r <= r_core { 1.0 } else { ((r_out / r).ln() / (r_out / r_core).ln()).max(0.0) }
        })
    };
    let coarse = max_error(&field_through_the_cli(&dir, "cylinder.obj", 0.02), exact);
    let fine = max_error(&field_through_the_cli(&dir, "cylinder.obj", 0.01), exact);
    eprintln!("cylindrical shell: max |ε − closed form| = {coarse:.4} at 0.02, {fine:.4} at 0.01");
    assert!(fine <= 0.02, "max error {fine} at resolution 0.01");
    assert!(fine < coarse, "the error does not fall: {coarse} → {fine}");
}
