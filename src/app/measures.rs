//! The scene's `[[measure]]`s along a run: how far body b has moved relative to body a (or the
//! world) since the measure's start, at each output time, into `measures.csv`.

use super::{MeasuresCsv, OutputError};
use crate::dynamics::world::World;
use crate::math::{Isometry3, Twist};
use crate::scene::MeasureSpec;
use std::path::Path;

/// A measure's drift at an output time: b's origin moved by `translation` (in a's frame) and
/// turned by `rotation` (rad) relative to a, since the measure's start.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureDrift {
    pub name: String,
    pub translation: [f64; 3],
    pub rotation: f64,
    /// The largest translation length (m) and rotation (rad) at any output time so far.
    pub largest: (f64, f64),
}

impl MeasureDrift {
    /// The length of the translation (m).
    pub fn distance(&self) -> f64 {
        let [x, y, z] = self.translation;
        (x * x + y * y + z * z).sqrt()
    }
}

/// One measure on its way: its bodies' indices and its pose of b in a at its start.
struct Tracked {
    spec: MeasureSpec,
    a: Option<usize>,
    b: usize,
    start: Option<Isometry3>,
    last: Option<MeasureDrift>,
}

/// The measures of a run, with their file.
pub struct Measures {
    tracked: Vec<Tracked>,
    csv: Option<MeasuresCsv>,
}

impl Measures {
    /// The `specs` on `world`'s bodies; `measures.csv` in `dir` when there are any and `write`.
    pub fn new(
        specs: &[MeasureSpec],
        world: &World,
        dir: &Path,
        write: bool,
    ) -> Result<Measures, OutputError> {
        let index = |name: &str| world.bodies.iter().position(|b| b.name == name);
        let tracked = specs
            .iter()
            .filter_map(|s| {
                // (The scene checked the names.)
                Some(Tracked {
                    spec: s.clone(),
                    a: s.a.as_deref().and_then(index),
                    b: index(&s.b)?,
                    start: None,
                    last: None,
                })
            })
            .collect::<Vec<_>>();
        let csv = if write && !tracked.is_empty() { Some(MeasuresCsv::create(dir)?) } else { None };
        Ok(Measures { tracked, csv })
    }

    /// Records the output at `t` with every body's pose (a row in the file when `write`): a
    /// measure starts at its first output at or after its `from`.
    pub fn record(&mut self, t: f64, poses: &[(Isometry3, Twist)], write: bool) -> Result<(), OutputError> {
        for m in &mut self.tracked {
            if t < m.spec.from {
                continue;
            }
            let relative = match m.a {
                Some(a) => poses[a].0.inverse() * poses[m.b].0,
                None => poses[m.b].0,
            };
            let start = *m.start.get_or_insert(relative);
            let d = relative.translation.vector - start.translation.vector;
            let rotation = start.rotation.angle_to(&relative.rotation);
            let (far, turned) = m.last.as_ref().map_or((0.0, 0.0), |l| l.largest);
            let largest = (far.max(d.norm()), turned.max(rotation));
            let drift =
                MeasureDrift { name: m.spec.name.clone(), translation: [d.x, d.y, d.z], rotation, largest };
            if let Some(csv) = self.csv.as_mut().filter(|_| write) {
                csv.row(t, &drift.name, drift.translation, drift.rotation)?;
            }
            m.last = Some(drift);
        }
        Ok(())
    }

    /// Writes what is buffered to disk.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.csv.as_mut().map_or(Ok(()), MeasuresCsv::flush)
    }

    /// Each measure's drift at the last output recorded (measures that never started: none).
    pub fn last(&self) -> Vec<MeasureDrift> {
        self.tracked.iter().filter_map(|m| m.last.clone()).collect()
    }
}
