//! `contactlab view SCENE.toml OUT_DIR [--open]` (and `simulate --html`): the run in OUT_DIR as
//! one self-contained HTML page, OUT_DIR/view.html (docs/viewer.md). Meshes come from the scene
//! (once), poses from trajectory.csv (per frame shown, at most [`FRAME_BUDGET`] frames), contact
//! surfaces are recomputed by the contact query at each frame shown, forces on each body are
//! summed from contacts.csv and the energy plot is energy.csv.

mod contacts;
mod display;
mod error;
mod numbers;
mod outputs;

use crate::app::{PageBody, PageEnergy, ViewerPage, write_viewer_page};
use crate::dynamics::world::World;
use crate::scene::Scene;
use crate::scene::build_world;
use contacts::FrameContacts;
use display::Display;
use numbers::{Quantum, round_decimals, significant};
use outputs::{BodyState, Trajectory};
use std::path::{Path, PathBuf};

pub use error::ViewError;

/// The most frames a page shows: longer runs are thinned to this many output times, evenly
/// spaced, the first and last always among them (300 frames play for 10 s at 30 per second).
pub const FRAME_BUDGET: usize = 300;

/// The most contact polygons a page holds over all its frames (about 30 bytes each): runs
/// whose patches would pass it show fewer frames, evenly spaced, but at least [`MIN_FRAMES`].
pub const POLYGON_BUDGET: usize = 60_000;

/// The fewest frames the polygon budget thins a run to.
pub const MIN_FRAMES: usize = 60;

/// The most points of the energy plot (energy.csv is thinned the same way).
pub const ENERGY_BUDGET: usize = 1000;

/// The page's file name in OUT_DIR.
pub const PAGE_NAME: &str = "view.html";

/// What was written.
#[derive(Clone, Debug)]
pub struct PageSummary {
    pub path: PathBuf,
    pub frames: usize,
    pub frames_total: usize,
    pub bytes: u64,
    /// What was left out of a killed run's files (a last row cut short).
    pub note: Option<String>,
}

impl PageSummary {
    pub fn line(&self) -> String {
        let note = self.note.as_ref().map_or(String::new(), |n| format!("; note: {n}"));
        format!(
            "wrote {} ({} of {} output times, {:.1} MB){note}",
            self.path.display(),
            self.frames,
            self.frames_total,
            self.bytes as f64 / 1e6
        )
    }
}

/// The page's title for a scene file: its file name.
pub fn title(scene_path: &Path) -> String {
    scene_path.file_name().unwrap_or(scene_path.as_os_str()).to_string_lossy().into_owned()
}

/// Opens `path` with the platform's opener (`open` on macOS, `xdg-open` elsewhere, `start` on
/// Windows); the error says why it could not, for a warning.
pub fn open(path: &Path) -> Result<(), String> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let opener = format!("{:?}", command.get_program());
    match command.arg(path).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => {
            Err(format!("{opener} could not open {} ({status}); open it in a browser", path.display()))
        }
        Err(e) => Err(format!("cannot run {opener} to open {} ({e}); open it in a browser", path.display())),
    }
}

/// Builds the scene's world and writes `dir/view.html`, titled `title` (the scene file's name).
pub fn run(scene: &Scene, dir: &Path, title: &str) -> Result<PageSummary, ViewError> {
    // The outputs first: a folder without a run fails before any meshing.
    let trajectory = Trajectory::read(dir)?;
    let world = build_world(scene, false).map_err(ViewError::World)?;
    write_page(&world, scene, dir, title, &trajectory)
}

/// Writes `dir/view.html` for a world already built from `scene` (`simulate --html`).
pub fn write_page_for(
    world: &World,
    scene: &Scene,
    dir: &Path,
    title: &str,
) -> Result<PageSummary, ViewError> {
    write_page(world, scene, dir, title, &Trajectory::read(dir)?)
}

fn write_page(
    world: &World,
    scene: &Scene,
    dir: &Path,
    title: &str,
    trajectory: &Trajectory,
) -> Result<PageSummary, ViewError> {
    let names: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
    let csv_path = dir.join("trajectory.csv");
    check_bodies(scene, &names, trajectory, &csv_path)?;
    let all_times = trajectory.times();
    let displays = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            display::display(&world.model, i, spec)
                .map_err(|source| ViewError::Display { name: spec.name.clone(), source })
        })
        .collect::<Result<Vec<_>, _>>()?;

    // The frames: at most FRAME_BUDGET, fewer when their patches pass POLYGON_BUDGET.
    let mut shown = evenly_spaced(all_times.len(), FRAME_BUDGET);
    let (mut states, mut contacts) = frames(world, trajectory, &names, &csv_path, &all_times, &shown)?;
    let polygons: usize = contacts.iter().map(FrameContacts::polygons).sum();
    if polygons > POLYGON_BUDGET {
        let fit = (shown.len() * POLYGON_BUDGET / polygons).max(MIN_FRAMES);
        if fit < shown.len() {
            // Thinned among the frames already computed (evenly still, first and last kept).
            let keep = evenly_spaced(shown.len(), fit);
            shown = keep.iter().map(|&j| shown[j]).collect();
            states = kept(states, &keep);
            contacts = kept(contacts, &keep);
        }
    }
    let times: Vec<f64> = shown.iter().map(|&k| all_times[k]).collect();

    let bounds = bounds(&displays, &states);
    let quantum = Quantum::for_extent((0..3).map(|k| bounds[1][k] - bounds[0][k]).fold(0.0, f64::max));
    let pressure_max = significant(contacts.iter().map(FrameContacts::pressure_max).fold(0.0, f64::max), 4);
    let forces = outputs::contact_forces(dir, &times, &names)?;
    let page = ViewerPage {
        title: title.to_string(),
        model: scene.model.key().to_string(),
        length_unit: quantum.unit(),
        bodies: scene
            .bodies
            .iter()
            .zip(&displays)
            .scan(0, |moving, (spec, shown)| {
                let k = (!spec.fixed).then(|| {
                    *moving += 1;
                    *moving - 1
                });
                Some(page_body(k, spec, shown, quantum))
            })
            .collect(),
        times: times.iter().map(|&t| significant(t, 6)).collect(),
        poses: states
            .iter()
            .map(|row| row.iter().map(|s| s.map(|s| page_pose(&s.pose, quantum))).collect())
            .collect(),
        twists: states
            .iter()
            .map(|row| row.iter().map(|s| s.map(|s| s.twist.map(|v| significant(v, 4)))).collect())
            .collect(),
        forces: forces.iter().map(|row| row.iter().map(|f| f.map(|v| significant(v, 4))).collect()).collect(),
        patches: contacts.iter().map(|c| c.patches(quantum, pressure_max)).collect(),
        markers: contacts.iter().map(|c| c.page_markers(quantum)).collect(),
        pressure_max,
        energy: energy(dir)?,
        frames_total: all_times.len(),
        frame_budget: FRAME_BUDGET,
        bounds: bounds.map(|c| c.map(|v| quantum.round(v))),
    };
    let path = dir.join(PAGE_NAME);
    let bytes = write_viewer_page(&path, &page)?;
    let note = trajectory.cut.map(|line| {
        format!(
            "{} line {line} is cut short (a killed run): drawn up to t = {} s, its last whole output time",
            csv_path.display(),
            all_times.last().copied().unwrap_or(0.0)
        )
    });
    Ok(PageSummary { path, frames: times.len(), frames_total: all_times.len(), bytes, note })
}

/// Each body's state at the output times `shown` (None while absent) and the contacts there.
type Frames = (Vec<Vec<Option<BodyState>>>, Vec<FrameContacts>);

fn frames(
    world: &World,
    trajectory: &Trajectory,
    names: &[&str],
    csv_path: &Path,
    all_times: &[f64],
    shown: &[usize],
) -> Result<Frames, ViewError> {
    let (mut states, mut contacts) = (Vec::with_capacity(shown.len()), Vec::with_capacity(shown.len()));
    for &k in shown {
        let mut row = vec![None; names.len()];
        for (name, state) in trajectory.frame(k)? {
            let i = names.iter().position(|n| *n == name.as_ref()).ok_or_else(|| ViewError::UnknownBody {
                path: csv_path.to_path_buf(),
                name: name.to_string(),
            })?;
            row[i] = Some(state);
        }
        contacts.push(FrameContacts::at(world, all_times[k], &row)?);
        states.push(row);
    }
    Ok((states, contacts))
}

/// Every name in the CSV is a scene body, and every scene body present by the last output
/// time has rows (else the folder holds another scene's run).
fn check_bodies(
    scene: &Scene,
    names: &[&str],
    trajectory: &Trajectory,
    path: &Path,
) -> Result<(), ViewError> {
    let in_csv = trajectory.body_names();
    if let Some(name) = in_csv.iter().find(|n| !names.contains(&n.as_str())) {
        return Err(ViewError::UnknownBody { path: path.to_path_buf(), name: name.to_string() });
    }
    let t_end = trajectory.times().last().copied().unwrap_or(0.0);
    if let Some(body) = scene.bodies.iter().find(|b| b.appear_time <= t_end && !in_csv.contains(&b.name)) {
        return Err(ViewError::MissingBody { path: path.to_path_buf(), name: body.name.clone() });
    }
    Ok(())
}

/// The items of `items` at the increasing indices `keep`.
fn kept<T>(items: Vec<T>, keep: &[usize]) -> Vec<T> {
    let mut next = keep.iter().peekable();
    items
        .into_iter()
        .enumerate()
        .filter_map(|(j, item)| (next.next_if(|&&k| k == j).is_some()).then_some(item))
        .collect()
}

/// `min(n, budget)` indices into `0..n`, evenly spaced, the first and the last among them.
pub fn evenly_spaced(n: usize, budget: usize) -> Vec<usize> {
    let m = n.min(budget);
    match m {
        0 => Vec::new(),
        1 => vec![n - 1],
        _ => (0..m).map(|k| (k * (n - 1) + (m - 1) / 2) / (m - 1)).collect(),
    }
}

/// A box around the bodies that are drawn as meshes, over every frame shown (their meshes'
/// bounding spheres at each position); the unit box about the origin when there are none.
fn bounds(displays: &[Display], states: &[Vec<Option<BodyState>>]) -> [[f64; 3]; 2] {
    let radius: Vec<Option<f64>> = displays
        .iter()
        .map(|d| match d {
            Display::Mesh(m) => Some(m.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f64::max)),
            Display::Plane | Display::Nothing => None,
        })
        .collect();
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for row in states {
        for (s, r) in row.iter().zip(&radius) {
            let (Some(s), Some(r)) = (s, r) else { continue };
            for k in 0..3 {
                lo[k] = lo[k].min(s.pose[k] - r);
                hi[k] = hi[k].max(s.pose[k] + r);
            }
        }
    }
    if lo[0].is_finite() { [lo, hi] } else { [[-0.5; 3], [0.5; 3]] }
}

/// Distinct colours for moving bodies (fixed ones are grey): saturated hues, so a body's pixels
/// are told apart from the grey ground and from each other.
const PALETTE: [&str; 10] = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45", "#1abc9c",
    "#ffe119",
];

/// Body `spec`, the `moving`-th body that is not fixed (or a fixed one).
fn page_body(
    moving: Option<usize>,
    spec: &crate::scene::BodySpec,
    shown: &Display,
    quantum: Quantum,
) -> PageBody {
    let colour = moving.map_or("#9a9a9a", |k| PALETTE[k % PALETTE.len()]);
    let (plane, vertices, triangles) = match shown {
        Display::Plane => (true, Vec::new(), Vec::new()),
        Display::Nothing => (false, Vec::new(), Vec::new()),
        Display::Mesh(m) => (
            false,
            m.vertices.iter().flat_map(|v| quantum.int_point(v)).collect(),
            m.triangles.iter().flatten().copied().collect(),
        ),
    };
    PageBody { name: spec.name.clone(), colour: colour.into(), fixed: spec.fixed, plane, vertices, triangles }
}

fn page_pose(pose: &[f64; 7], quantum: Quantum) -> [f64; 7] {
    let mut out = *pose;
    for (k, v) in out.iter_mut().enumerate() {
        *v = if k < 3 { quantum.round(*v) } else { round_decimals(*v, 5) };
    }
    out
}

fn energy(dir: &Path) -> Result<PageEnergy, ViewError> {
    let (t, rows) = outputs::read_energy(dir)?;
    let kept = evenly_spaced(t.len(), ENERGY_BUDGET);
    let series = crate::app::ENERGY_COLUMNS[1..]
        .iter()
        .enumerate()
        .map(|(c, name)| (name.to_string(), kept.iter().map(|&k| significant(rows[k][c], 5)).collect()))
        .collect();
    Ok(PageEnergy { t: kept.iter().map(|&k| significant(t[k], 6)).collect(), series })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evenly_spaced_keeps_first_and_last_within_budget() {
        assert_eq!(evenly_spaced(5, 300), vec![0, 1, 2, 3, 4]);
        assert_eq!(evenly_spaced(1, 300), vec![0]);
        assert!(evenly_spaced(0, 300).is_empty());
        let k = evenly_spaced(10_001, 300);
        assert_eq!(k.len(), 300);
        assert_eq!((k[0], k[299]), (0, 10_000));
        assert!(k.windows(2).all(|w| w[1] > w[0]));
    }
}
