//! What one run of a sweep did (saved as `result.json` in its folder), and the summary table
//! of all runs (`summary.csv`).

use super::SweepError;
use crate::app::Shortest;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// It simulated the whole duration.
    Ok,
    /// Its scene did not validate, or the run stopped (the message says why).
    Failed,
}

/// A moving body's pose at the end of a run: position and orientation `[w, x, y, z]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalPose {
    pub body: String,
    pub position: [f64; 3],
    pub orientation: [f64; 4],
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's number (its folder is `runs/NNNN`).
    pub run: usize,
    /// The swept values, as summary cells in the plan's key order.
    pub values: Vec<String>,
    pub status: RunStatus,
    /// Why a failed run failed; empty for runs that succeeded.
    pub message: String,
    /// Simulated time reached (s); `None` when the scene did not validate.
    pub t_end: Option<f64>,
    /// Every body that is not fixed, at the last output time.
    pub bodies: Vec<FinalPose>,
    /// The largest penetration depth of any pair at the output times (m), where the model has
    /// one.
    pub max_penetration: Option<f64>,
    /// The largest |force| of any pair at the output times (N).
    pub max_contact_force: Option<f64>,
    /// The largest excess of the total energy over its initial value plus the external work (J).
    pub energy_excess: Option<f64>,
    /// Accepted steps.
    pub steps: Option<u64>,
    /// Wall time of the run (s): the one column, with `host`, that differs between repeats.
    pub wall_time: f64,
    /// The machine that ran it.
    pub host: String,
}

impl RunRecord {
    /// Reads a record saved by [`RunRecord::save`].
    pub fn load(path: &Path) -> Result<RunRecord, SweepError> {
        let text = std::fs::read_to_string(path).map_err(SweepError::io(path))?;
        serde_json::from_str(&text).map_err(|e| SweepError::Corrupt {
            path: path.into(),
            problem: format!("not a run's record ({e})"),
            fix: "delete the run's folder and run the sweep again: it runs what is missing".into(),
        })
    }

    /// Saves the record as JSON, whole or not at all (written beside, then renamed): a sweep
    /// that is killed leaves no half record to skip.
    pub fn save(&self, path: &Path) -> Result<(), SweepError> {
        let text = serde_json::to_string_pretty(self).expect("a record is plain data");
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, text).map_err(SweepError::io(&partial))?;
        std::fs::rename(&partial, path).map_err(SweepError::io(path))
    }
}

/// The per-body columns of a pose.
pub const POSE_COLUMNS: [&str; 7] = ["x", "y", "z", "qw", "qx", "qy", "qz"];

/// The summary's header: `run`, the keys, `status`, `t_end`, `BODY.x … BODY.qz` for each of
/// `bodies`, then the measures, `wall_time`, `host` and `message`.
pub fn summary_header(keys: &[String], bodies: &[String]) -> Vec<String> {
    let mut header = vec!["run".to_owned()];
    header.extend(keys.iter().cloned());
    header.extend(["status".to_owned(), "t_end".to_owned()]);
    for b in bodies {
        header.extend(POSE_COLUMNS.iter().map(|c| format!("{b}.{c}")));
    }
    header.extend(
        ["max_penetration", "max_contact_force", "energy_excess", "steps", "wall_time", "host", "message"]
            .map(String::from),
    );
    header
}

/// One record as summary cells, in [`summary_header`]'s order (empty where there is no value).
pub fn summary_cells(r: &RunRecord, bodies: &[String]) -> Vec<String> {
    let number = |x: Option<f64>| x.map(|x| Shortest(x).to_string()).unwrap_or_default();
    let mut cells = vec![r.run.to_string()];
    cells.extend(r.values.iter().cloned());
    cells.push(match r.status {
        RunStatus::Ok => "ok".into(),
        RunStatus::Failed => "failed".into(),
    });
    cells.push(number(r.t_end));
    for b in bodies {
        match r.bodies.iter().find(|p| &p.body == b) {
            Some(p) => cells.extend(p.position.iter().chain(&p.orientation).map(|&x| number(Some(x)))),
            None => cells.extend(std::iter::repeat_n(String::new(), POSE_COLUMNS.len())),
        }
    }
    cells.extend([
        number(r.max_penetration),
        number(r.max_contact_force),
        number(r.energy_excess),
        r.steps.map(|s| s.to_string()).unwrap_or_default(),
        number(Some(r.wall_time)),
        r.host.clone(),
        r.message.clone(),
    ]);
    cells
}

/// Writes `summary.csv`: the header and one row per record, in the records' order.
pub fn write_summary(
    path: &Path,
    keys: &[String],
    bodies: &[String],
    records: &[RunRecord],
) -> Result<(), SweepError> {
    let mut text = String::new();
    let mut line = |cells: Vec<String>| {
        let cells: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        let _ = writeln!(text, "{}", cells.join(","));
    };
    line(summary_header(keys, bodies));
    for r in records {
        line(summary_cells(r, bodies));
    }
    std::fs::write(path, text).map_err(SweepError::io(path))
}

/// A cell as CSV text, quoted where it needs it (RFC 4180, as every CSV of a run).
fn csv_cell(cell: &str) -> String {
    let mut out = Vec::with_capacity(cell.len());
    crate::app::write_csv_text(&mut out, cell);
    String::from_utf8(out).expect("quoting keeps UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_follow_the_header_and_quote_what_needs_it() {
        let r = RunRecord {
            run: 3,
            values: vec!["0.2".into(), "[1, 2]".into()],
            status: RunStatus::Failed,
            message: "stopped at t = 0.1 s: \"ball\", fix".into(),
            t_end: Some(0.1),
            bodies: vec![FinalPose {
                body: "ball".into(),
                position: [1.0, 2.0, 3.0],
                orientation: [1.0, 0.0, 0.0, 0.0],
            }],
            max_penetration: None,
            max_contact_force: Some(9.81),
            energy_excess: Some(-1e-3),
            steps: Some(100),
            wall_time: 0.5,
            host: "h".into(),
        };
        let bodies = ["ball".to_owned(), "cube".to_owned()];
        let header = summary_header(&["a".into(), "b".into()], &bodies);
        let cells = summary_cells(&r, &bodies);
        assert_eq!(header.len(), cells.len());
        let at = |name: &str| &cells[header.iter().position(|h| h == name).unwrap()];
        assert_eq!(at("ball.z"), "3");
        assert_eq!(at("cube.qw"), "");
        assert_eq!(at("max_contact_force"), "9.81");
        assert_eq!(at("max_penetration"), "");
        assert_eq!(at("status"), "failed");
        assert_eq!(csv_cell(at("message")), "\"stopped at t = 0.1 s: \"\"ball\"\", fix\"");
        assert_eq!(csv_cell(at("b")), "\"[1, 2]\"");
    }
}
