//! The viewer page: one self-contained HTML file (`contactlab view`, `simulate --html`) with
//! three.js, the page's script and style, and the run's data embedded, so it opens offline.
//! The assets are files under `assets/viewer/`, compiled in (`include_str!`): three.js is
//! vendored by `scripts/vendor_three.sh`, so the build needs no network.

use super::OutputError;
use serde::Serialize;
use std::path::Path;

const TEMPLATE: &str = include_str!("../../assets/viewer/viewer.html");
const STYLE: &str = include_str!("../../assets/viewer/viewer.css");
const SCRIPT: &str = include_str!("../../assets/viewer/viewer.js");
/// three.js and OrbitControls as one minified ES module (MIT: assets/viewer/LICENSE-three).
const THREE: &str = include_str!("../../assets/viewer/three.module.min.js");

/// What the page shows. Per-frame arrays have one entry per frame shown; per-body entries follow
/// `bodies`.
#[derive(Clone, Debug, Serialize)]
pub struct ViewerPage {
    /// The scene file's name, for the title.
    pub title: String,
    /// The contact model's key (`pressure_field`, `hertz`, …).
    pub model: String,
    /// The unit (m) of the integer coordinates of meshes and patches.
    pub length_unit: f64,
    pub bodies: Vec<PageBody>,
    /// The times of the frames shown (s).
    pub times: Vec<f64>,
    /// Per frame and body: position and orientation `[x, y, z, qw, qx, qy, qz]` of the body
    /// frame, `null` while the body is absent.
    pub poses: Vec<Vec<Option<[f64; 7]>>>,
    /// Per frame and body: `[vx, vy, vz, wx, wy, wz]` (velocity of the body-frame origin).
    pub twists: Vec<Vec<Option<[f64; 6]>>>,
    /// Per frame and body: the total contact force on it (N).
    pub forces: Vec<Vec<[f64; 3]>>,
    /// Per frame: the contact surfaces (pressure field).
    pub patches: Vec<Vec<PagePatch>>,
    /// Per frame: contact markers (models without surfaces).
    pub markers: Vec<Vec<PageMarker>>,
    /// The largest pressure on any patch shown (Pa): the top of the colour scale.
    pub pressure_max: f64,
    pub energy: PageEnergy,
    /// Output times in trajectory.csv, and the most frames a page shows.
    pub frames_total: usize,
    pub frame_budget: usize,
    /// Corners of a box around everything that moves over the frames shown (m).
    pub bounds: [[f64; 3]; 2],
}

#[derive(Clone, Debug, Serialize)]
pub struct PageBody {
    pub name: String,
    /// `#rrggbb`.
    pub colour: String,
    pub fixed: bool,
    /// A half space, drawn as a finite plane z = 0 of its frame.
    pub plane: bool,
    /// Body-frame vertices `[x0, y0, z0, x1, …]` (in `length_unit`s) and triangles
    /// `[i0, j0, k0, …]` (outward).
    pub vertices: Vec<i64>,
    pub triangles: Vec<u32>,
}

/// One pair's contact surface in a frame: its vertices (world frame, in `length_unit`s), each
/// vertex's pressure in thousandths of `pressure_max`, and its polygons, each as its number of
/// corners followed by their vertex indices.
#[derive(Clone, Debug, Serialize)]
pub struct PagePatch {
    pub a: usize,
    pub b: usize,
    pub vertices: Vec<i64>,
    pub pressure: Vec<u16>,
    pub polygons: Vec<u32>,
}

/// Where a pair touches in a frame (world frame).
#[derive(Clone, Debug, Serialize)]
pub struct PageMarker {
    pub a: usize,
    pub b: usize,
    pub point: [f64; 3],
}

/// energy.csv's columns, thinned to the page's budget.
#[derive(Clone, Debug, Serialize)]
pub struct PageEnergy {
    pub t: Vec<f64>,
    /// (column name, values at `t`).
    pub series: Vec<(String, Vec<f64>)>,
}

/// Writes `page` as a self-contained HTML file at `path`; returns its size in bytes.
pub fn write_viewer_page(path: &Path, page: &ViewerPage) -> Result<u64, OutputError> {
    let html = viewer_html(page).map_err(|e| OutputError::BadInput {
        path: path.to_path_buf(),
        problem: format!("the page's data does not serialize: {e}"),
        fix: "report this as a bug".into(),
    })?;
    std::fs::write(path, &html).map_err(OutputError::io(path))?;
    Ok(html.len() as u64)
}

/// The page's HTML text.
pub fn viewer_html(page: &ViewerPage) -> Result<String, serde_json::Error> {
    // `<` only occurs inside JSON strings (body names), where `\u003c` reads the same: no
    // name can end the <script> element that holds the data.
    let data = serde_json::to_string(page)?.replace('<', "\\u003c");
    let title = escape_html(&format!("{} — contactlab", page.title));
    Ok(fill(
        TEMPLATE,
        &[("TITLE", &title), ("STYLE", STYLE), ("THREE", THREE), ("DATA", &data), ("SCRIPT", SCRIPT)],
    ))
}

/// `template` with each `{{KEY}}` replaced by its value (values are not searched for keys).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(end) = rest[start..].find("}}") else { break };
        let key = &rest[start + 2..start + end];
        out.push_str(&rest[..start]);
        match values.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[start..start + end + 2]),
        }
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    out
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_scripts_cannot_close_their_script_elements() {
        // `<!--` would switch the HTML parser to escaped script text, where `</script>` may
        // not end the element.
        for (name, text) in [("three", THREE), ("viewer.js", SCRIPT)] {
            assert!(!text.to_ascii_lowercase().contains("</script"), "{name} holds </script");
            assert!(!text.contains("<!--"), "{name} holds <!--");
        }
    }

    #[test]
    fn fill_replaces_known_keys_only_and_not_inside_values() {
        let out = fill("a{{X}}b{{Y}}c{{Z}}", &[("X", "{{Y}}"), ("Y", "2")]);
        assert_eq!(out, "a{{Y}}b2c{{Z}}");
    }
}
