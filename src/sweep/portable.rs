//! A scene made portable for runs on other machines (a Ray cluster): every mesh file it names
//! is renamed to a flat name under `meshes/`, so that the scene text and the files' bytes can
//! be shipped once and written into any folder.

use super::SweepError;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The scene's text with every `file = "…"` renamed to `meshes/NN_NAME`, and for each new name
/// the file it stands for (resolved against `base_dir`). The same file keeps one name.
pub fn portable_scene(text: &str, base_dir: &Path) -> Result<(String, Vec<(String, PathBuf)>), SweepError> {
    let mut table = super::runner::scene_table(text, base_dir)?;
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    rename_files(&mut table, base_dir, &mut files);
    let text = toml::to_string(&table).expect("a table read from TOML writes back");
    Ok((text, files))
}

fn rename_files(table: &mut Table, base_dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    for (key, value) in table.iter_mut() {
        match value {
            Value::String(file) if key == "file" => {
                let source = base_dir.join(&*file);
                let name = match files.iter().find(|(_, s)| *s == source) {
                    Some((name, _)) => name.clone(),
                    None => {
                        let base =
                            source.file_name().map_or("mesh".into(), |n| n.to_string_lossy().into_owned());
                        let name = format!("meshes/{:02}_{base}", files.len());
                        files.push((name.clone(), source));
                        name
                    }
                };
                *file = name;
            }
            other => rename_in(other, base_dir, files),
        }
    }
}

fn rename_in(value: &mut Value, base_dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    match value {
        Value::Table(t) => rename_files(t, base_dir, files),
        Value::Array(items) => items.iter_mut().for_each(|v| rename_in(v, base_dir, files)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_gets_one_flat_name() {
        let text = r#"
[[body]]
name = "a"
shape = { type = "mesh", file = "meshes/torus.obj" }
[[body]]
name = "b"
shape = { type = "compound", parts = [{ type = "convex", file = "/abs/hull.stl" }, { type = "convex", file = "meshes/torus.obj" }] }
"#;
        let (out, files) = portable_scene(text, Path::new("/scenes")).unwrap();
        assert_eq!(
            files,
            vec![
                ("meshes/00_torus.obj".to_owned(), PathBuf::from("/scenes/meshes/torus.obj")),
                ("meshes/01_hull.stl".to_owned(), PathBuf::from("/abs/hull.stl")),
            ]
        );
        let t: Table = toml::from_str(&out).unwrap();
        let parts = t["body"][1]["shape"]["parts"].as_array().unwrap();
        assert_eq!(parts[0]["file"].as_str(), Some("meshes/01_hull.stl"));
        assert_eq!(parts[1]["file"].as_str(), Some("meshes/00_torus.obj"));
    }
}
