//! Streaming CSV histories written by `simulate`: `trajectory.csv`, `energy.csv`,
//! `contacts.csv` and, for scenes with joints, `joints.csv`, with the headers fixed by the
//! command-line contract.

use super::OutputError;
use super::number::{NumberCache, Shortest, append_cached};
use crate::dynamics::mechanism::JointRow;
use crate::math::{Isometry3, Twist, Wrench, parallel};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

/// Columns of `trajectory.csv`: pose (quaternion `w, x, y, z`) and world-frame twist per body.
pub const TRAJECTORY_COLUMNS: [&str; 15] =
    ["t", "body", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];
/// Columns of `energy.csv`.
pub const ENERGY_COLUMNS: [&str; 6] = ["t", "kinetic", "gravity", "elastic", "dissipated", "total"];
/// Columns of `energy.csv` for scenes with joints: two more, parts of `dissipated` and of the
/// external work that the balance allows for.
pub const ENERGY_JOINT_COLUMNS: [&str; 8] =
    ["t", "kinetic", "gravity", "elastic", "dissipated", "total", "joint_damping", "actuator_work"];
/// Columns of `contacts.csv`: the wrench on body `a`, torque about the world origin.
pub const CONTACT_COLUMNS: [&str; 12] =
    ["t", "a", "b", "fx", "fy", "fz", "tx", "ty", "tz", "area", "normal_force", "slip_speed"];
/// Columns of `joints.csv` (scenes with joints): a row per scalar joint coordinate
/// ([`JointRow`]).
pub const JOINT_COLUMNS: [&str; 6] =
    ["t", "joint", "position", "velocity", "actuator_effort", "constraint_effort"];

/// One row of `energy.csv` (J). The caller defines `total` (the simulator's conserved sum), so
/// the file states what was checked rather than what this writer guesses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EnergyRow {
    pub kinetic: f64,
    pub gravity: f64,
    pub elastic: f64,
    pub dissipated: f64,
    pub total: f64,
    /// Scenes with joints: the energy joint damping has dissipated (part of `dissipated`) and
    /// the actuators' work.
    pub joints: Option<(f64, f64)>,
}

/// The CSV histories of a simulation in one folder: three, and `joints.csv` when asked for.
///
/// Rows are formatted and written by a thread of their own, so a run's outputs cost its
/// integration little; they keep the order they were given in. They reach the disk when a
/// buffer fills, after [`SimWriter::flush`], on [`SimWriter::finish`] (which reports write
/// errors) and when the writer is dropped, so rows given before a failure are kept. A write
/// error is reported by the next call after it. Numbers are shortest round-trip decimals:
/// parsing them gives back the same `f64`.
#[derive(Debug)]
pub struct SimWriter {
    jobs: Option<SyncSender<Vec<Job>>>,
    /// Batches handed to the writer thread and not yet taken up by it.
    queued: Arc<AtomicUsize>,
    worker: Option<JoinHandle<Result<(), OutputError>>>,
    /// Jobs gathered for the next hand-over, and their rows: handing over every row would wake
    /// the thread thousands of times a second.
    batch: Vec<Job>,
    batch_rows: usize,
    /// The body names of the last `bodies` call.
    body_names: RowNames,
    /// The pairs' names (`a`, `b`) of the last `contacts` call.
    pair_names: RowNames,
    /// The joint coordinates' names of the last `joints` call.
    joint_names: RowNames,
    /// The files, when rows are written on the calling thread ([`SimWriter::create_here`]).
    here: Option<Tables>,
}

/// Rows handed to the writer thread at once.
const BATCH_ROWS: usize = 512;

/// Batches waiting for the writer thread at most; past that, the run waits for it.
const QUEUED_BATCHES: usize = 16;

/// A writer thread that steps aside for parallel sections does so only while at most this many
/// batches wait: past that it catches up rather than hold the run up at a full queue.
const STEP_ASIDE_BACKLOG: usize = QUEUED_BATCHES / 4;

/// Yields per row at most while a parallel section runs: a bound, not a budget (a yield to a
/// busy worker can last its time slice; rows that pile up end the stepping aside anyway).
const STEP_ASIDE_YIELDS: u32 = 500;

/// The files, owned by the writer thread.
#[derive(Debug)]
struct Tables {
    trajectory: CsvFile,
    energy: CsvFile,
    contacts: CsvFile,
    /// `joints.csv`, for scenes with joints.
    joints: Option<CsvFile>,
    /// On a writer thread that steps aside for parallel sections: the batches waiting for it.
    step_aside: Option<Arc<AtomicUsize>>,
    /// Last run's large files, renamed aside to be deleted by the writer thread (see
    /// [`set_aside`]).
    replaced: Vec<PathBuf>,
}

/// Files at least this large are renamed aside rather than truncated when a run writes over
/// them (freeing a 19 MB file's pages took 2–7 ms before the run could start).
const SET_ASIDE_BYTES: u64 = 1 << 20;

/// Renames last run's `path`, if it is a regular file of [`SET_ASIDE_BYTES`] or more, to a
/// hidden name beside it and returns that name: deleted there by the writer thread while the run
/// goes on, rather than truncated before the run starts. Anything else (no file, a small one, a
/// link, a failed rename) is left to `File::create`, as before.
fn set_aside(path: &Path) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() < SET_ASIDE_BYTES {
        return None;
    }
    let name = format!(".{}.replaced", path.file_name()?.to_string_lossy());
    let aside = path.with_file_name(name);
    std::fs::rename(path, &aside).ok()?;
    Some(aside)
}

/// A contact row as the writer thread keeps it: names, wrench on `a`, area.
type OwnedContactRow = (Wrench, Option<f64>, Option<(f64, f64)>);

/// The rows' names as CSV text (a body's name; a pair's `a,b`), quoted where needed once
/// rather than on every row.
type NameFields = Arc<[Box<[u8]>]>;

/// The names of the last rows given and their CSV fields, shared by the jobs while the names
/// stay the same.
#[derive(Debug, Default)]
struct RowNames {
    /// Every row's names, in order.
    names: Vec<Box<str>>,
    fields: NameFields,
}

impl RowNames {
    /// The fields of `rows`, whose names `names_of` gives (made again only when they changed).
    fn fields<R, const N: usize>(&mut self, rows: &[R], names_of: impl Fn(&R) -> [&str; N]) -> NameFields {
        let same = self.names.len() == rows.len() * N
            && rows.iter().flat_map(&names_of).zip(&self.names).all(|(name, kept)| name == &**kept);
        if !same {
            self.names = rows.iter().flat_map(&names_of).map(Box::from).collect();
            self.fields = rows.iter().map(|r| text_field(&names_of(r))).collect();
        }
        Arc::clone(&self.fields)
    }
}

/// Work for the writer thread.
#[derive(Debug)]
enum Job {
    Bodies(f64, NameFields, Vec<(Isometry3, Twist)>),
    Energy(f64, EnergyRow),
    Contacts(f64, NameFields, Vec<OwnedContactRow>),
    /// Position, velocity, actuator effort and constraint effort per joint coordinate.
    Joints(f64, NameFields, Vec<[f64; 4]>),
    Flush,
}

/// Where a [`SimWriter`] formats and writes its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriterThread {
    /// On a thread of its own ([`SimWriter::create`]).
    Own,
    /// On a thread of its own that gives its core back during parallel sections
    /// ([`SimWriter::create_sharing_cores`]).
    SharingCores,
    /// On the calling thread ([`SimWriter::create_here`]).
    Here,
}

impl Tables {
    /// Creates `dir` (and missing parents) and the three files (four with `joints`), each
    /// with its header. Last run's large files are set aside for [`Tables::delete_replaced`].
    fn create(dir: &Path, joints: bool) -> Result<Tables, OutputError> {
        std::fs::create_dir_all(dir).map_err(OutputError::io(dir))?;
        let names = ["trajectory.csv", "energy.csv", "contacts.csv"].map(|name| dir.join(name));
        let joints_path = joints.then(|| dir.join("joints.csv"));
        let replaced = names.iter().chain(joints_path.as_ref()).filter_map(|path| set_aside(path)).collect();
        let [trajectory, energy, contacts] = names;
        Ok(Tables {
            trajectory: CsvFile::create(&trajectory, &TRAJECTORY_COLUMNS)?,
            energy: match joints {
                true => CsvFile::create(&energy, &ENERGY_JOINT_COLUMNS)?,
                false => CsvFile::create(&energy, &ENERGY_COLUMNS)?,
            },
            contacts: CsvFile::create(&contacts, &CONTACT_COLUMNS)?,
            joints: joints_path.map(|path| CsvFile::create(&path, &JOINT_COLUMNS)).transpose()?,
            step_aside: None,
            replaced,
        })
    }

    /// Deletes last run's files set aside by [`Tables::create`] (a failure leaves a hidden
    /// file that the next run replaces; it does not stop this one).
    fn delete_replaced(&mut self) {
        for path in self.replaced.drain(..) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Before each row on a writer thread that shares its core with the step's workers: gives
    /// the core back while a parallel section runs, unless batches are piling up.
    fn step_aside(queued: &Option<Arc<AtomicUsize>>) {
        if let Some(queued) = queued
            && queued.load(Ordering::Relaxed) <= STEP_ASIDE_BACKLOG
        {
            parallel::yield_while_running(STEP_ASIDE_YIELDS);
        }
    }

    fn run(&mut self, job: Job) -> Result<(), OutputError> {
        match job {
            Job::Bodies(t, names, rows) => {
                let time = formatted(t);
                let queued = &self.step_aside;
                self.trajectory.rows(&rows, |k, (pose, velocity), row| {
                    Self::step_aside(queued);
                    let p = &pose.translation.vector;
                    let q = pose.rotation.quaternion();
                    let (v, w) = (&velocity.linear, &velocity.angular);
                    row.write(&[
                        Field::Raw(&time),
                        Field::Raw(&names[k]),
                        Field::Num(p.x),
                        Field::Num(p.y),
                        Field::Num(p.z),
                        Field::Num(q.w),
                        Field::Num(q.i),
                        Field::Num(q.j),
                        Field::Num(q.k),
                        Field::Num(v.x),
                        Field::Num(v.y),
                        Field::Num(v.z),
                        Field::Num(w.x),
                        Field::Num(w.y),
                        Field::Num(w.z),
                    ])
                })
            }
            Job::Energy(t, e) => match e.joints {
                None => self.energy.row(&[
                    Field::Num(t),
                    Field::Num(e.kinetic),
                    Field::Num(e.gravity),
                    Field::Num(e.elastic),
                    Field::Num(e.dissipated),
                    Field::Num(e.total),
                ]),
                Some((damping, work)) => self.energy.row(&[
                    Field::Num(t),
                    Field::Num(e.kinetic),
                    Field::Num(e.gravity),
                    Field::Num(e.elastic),
                    Field::Num(e.dissipated),
                    Field::Num(e.total),
                    Field::Num(damping),
                    Field::Num(work),
                ]),
            },
            Job::Contacts(t, names, rows) => {
                let time = formatted(t);
                let queued = &self.step_aside;
                self.contacts.rows(&rows, |k, (wrench, area, centre), row| {
                    Self::step_aside(queued);
                    let (f, m) = (&wrench.force, &wrench.torque);
                    row.write(&[
                        Field::Raw(&time),
                        Field::Raw(&names[k]),
                        Field::Num(f.x),
                        Field::Num(f.y),
                        Field::Num(f.z),
                        Field::Num(m.x),
                        Field::Num(m.y),
                        Field::Num(m.z),
                        area.map_or(Field::Empty, Field::Num),
                        centre.map_or(Field::Empty, |c| Field::Num(c.0)),
                        centre.map_or(Field::Empty, |c| Field::Num(c.1)),
                    ])
                })
            }
            Job::Joints(t, names, rows) => {
                // Rows are only given to a writer created with `joints.csv`.
                let Some(joints) = self.joints.as_mut() else { return Ok(()) };
                let time = formatted(t);
                let queued = &self.step_aside;
                joints.rows(&rows, |k, values, row| {
                    Self::step_aside(queued);
                    row.write(&[
                        Field::Raw(&time),
                        Field::Raw(&names[k]),
                        Field::Num(values[0]),
                        Field::Num(values[1]),
                        Field::Num(values[2]),
                        Field::Num(values[3]),
                    ])
                })
            }
            Job::Flush => self.flush(),
        }
    }

    fn flush(&mut self) -> Result<(), OutputError> {
        let joints = self.joints.as_mut().map_or(Ok(()), CsvFile::flush);
        let results = [self.trajectory.flush(), self.energy.flush(), self.contacts.flush(), joints];
        results.into_iter().collect()
    }
}

impl SimWriter {
    /// Creates `dir` (and missing parents) and the three files, each with its header.
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        Self::create_with(dir, WriterThread::Own, false)
    }

    /// Creates `dir` (and missing parents) and the three files, with `joints` also
    /// `joints.csv` (for [`SimWriter::joints`]), each with its header; rows written as `thread`
    /// says.
    pub fn create_with(dir: &Path, thread: WriterThread, joints: bool) -> Result<Self, OutputError> {
        match thread {
            WriterThread::Own => Self::spawn(dir, false, joints),
            WriterThread::SharingCores => Self::spawn(dir, true, joints),
            WriterThread::Here => Self::here(dir, joints),
        }
    }

    /// [`SimWriter::create`] for a run whose thread pool has a worker on every core: the
    /// writer thread then gives its core back while the run's parallel sections run (see
    /// [`parallel`]), as long as it keeps up. On two cores this took `boxes_64`'s outputs from
    /// about 1.25× the run without them to about 1.05–1.1× (medians of many alternations).
    pub fn create_sharing_cores(dir: &Path) -> Result<Self, OutputError> {
        Self::create_with(dir, WriterThread::SharingCores, false)
    }

    fn spawn(dir: &Path, step_aside: bool, joints: bool) -> Result<Self, OutputError> {
        let mut tables = Tables::create(dir, joints)?;
        let queued = Arc::new(AtomicUsize::new(0));
        tables.step_aside = step_aside.then(|| Arc::clone(&queued));
        let (jobs, queue) = sync_channel::<Vec<Job>>(QUEUED_BATCHES);
        let taken = Arc::clone(&queued);
        let worker = std::thread::Builder::new()
            .name("contactlab-csv".into())
            .spawn(move || {
                tables.delete_replaced();
                // The first error ends the thread; the caller's next call reports it.
                for batch in queue {
                    taken.fetch_sub(1, Ordering::Relaxed);
                    for job in batch {
                        tables.run(job)?;
                    }
                }
                tables.flush()
            })
            .map_err(OutputError::io(dir))?;
        Ok(Self {
            jobs: Some(jobs),
            queued,
            worker: Some(worker),
            batch: Vec::new(),
            batch_rows: 0,
            body_names: Default::default(),
            pair_names: Default::default(),
            joint_names: Default::default(),
            here: None,
        })
    }

    /// [`SimWriter::create`], with rows formatted and written on the calling thread when a
    /// batch is full: for runs that must stay on one thread (sweeps run many at once).
    pub fn create_here(dir: &Path) -> Result<Self, OutputError> {
        Self::create_with(dir, WriterThread::Here, false)
    }

    fn here(dir: &Path, joints: bool) -> Result<Self, OutputError> {
        let mut tables = Tables::create(dir, joints)?;
        tables.delete_replaced();
        Ok(Self {
            jobs: None,
            queued: Default::default(),
            worker: None,
            batch: Vec::new(),
            batch_rows: 0,
            body_names: Default::default(),
            pair_names: Default::default(),
            joint_names: Default::default(),
            here: Some(tables),
        })
    }

    /// Adds a job of `rows` rows to the batch; hands the batch to the writer thread when it is
    /// full, or reports why the thread stopped.
    fn send(&mut self, job: Job, rows: usize) -> Result<(), OutputError> {
        let flush = matches!(job, Job::Flush);
        self.batch.push(job);
        self.batch_rows += rows;
        if self.batch_rows < BATCH_ROWS && !flush {
            return Ok(());
        }
        self.hand_over()
    }

    /// Hands the batch to the writer thread, or reports why it stopped.
    fn hand_over(&mut self) -> Result<(), OutputError> {
        let batch = std::mem::take(&mut self.batch);
        self.batch_rows = 0;
        if let Some(tables) = self.here.as_mut() {
            return batch.into_iter().try_for_each(|job| tables.run(job));
        }
        self.queued.fetch_add(1, Ordering::Relaxed);
        match self.jobs.as_ref().map(|jobs| jobs.send(batch)) {
            Some(Ok(())) => Ok(()),
            _ => self.stop(),
        }
    }

    /// Waits for the writer thread to write everything given so far and end.
    fn stop(&mut self) -> Result<(), OutputError> {
        match self.close() {
            Some(Ok(result)) => result,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Ok(()),
        }
    }

    /// Hands over what is left, closes the queue and joins the writer thread (once).
    fn close(&mut self) -> Option<std::thread::Result<Result<(), OutputError>>> {
        if let Some(mut tables) = self.here.take() {
            let written = std::mem::take(&mut self.batch).into_iter().try_for_each(|job| tables.run(job));
            return Some(Ok(written.and_then(|()| tables.flush())));
        }
        if let Some(jobs) = self.jobs.take()
            && !self.batch.is_empty()
        {
            // A thread that has stopped reports its error when joined.
            self.queued.fetch_add(1, Ordering::Relaxed);
            let _ = jobs.send(std::mem::take(&mut self.batch));
        }
        self.worker.take().map(JoinHandle::join)
    }

    /// Appends the state of body `name` at time `t` to `trajectory.csv`.
    pub fn body(
        &mut self,
        t: f64,
        name: &str,
        pose: &Isometry3,
        velocity: &Twist,
    ) -> Result<(), OutputError> {
        self.bodies(t, &[BodyRow { name, pose: *pose, velocity: *velocity }])
    }

    /// Appends the state of every body in `rows` at time `t` to `trajectory.csv`, in order.
    pub fn bodies(&mut self, t: f64, rows: &[BodyRow]) -> Result<(), OutputError> {
        let names = self.body_names.fields(rows, |r| [r.name]);
        let job = Job::Bodies(t, names, rows.iter().map(|r| (r.pose, r.velocity)).collect());
        self.send(job, rows.len())
    }

    /// Appends the energy budget at time `t` to `energy.csv`.
    pub fn energy(&mut self, t: f64, e: &EnergyRow) -> Result<(), OutputError> {
        self.send(Job::Energy(t, *e), 1)
    }

    /// Appends the contact of pair (`a`, `b`) at time `t` to `contacts.csv`: `wrench` acts on `a`
    /// (torque about the world origin); `area` is left empty when the model has none.
    pub fn contact(
        &mut self,
        t: f64,
        a: &str,
        b: &str,
        wrench: &Wrench,
        area: Option<f64>,
    ) -> Result<(), OutputError> {
        self.contacts(t, &[ContactRow { a, b, wrench: *wrench, area, centre: None }])
    }

    /// Appends every contact in `rows` at time `t` to `contacts.csv`, in order.
    pub fn contacts(&mut self, t: f64, rows: &[ContactRow]) -> Result<(), OutputError> {
        let names = self.pair_names.fields(rows, |r| [r.a, r.b]);
        let job = Job::Contacts(t, names, rows.iter().map(|r| (r.wrench, r.area, r.centre)).collect());
        self.send(job, rows.len())
    }

    /// Appends every joint coordinate in `rows` at time `t` to `joints.csv`, in order (nothing
    /// when the writer was created without it).
    pub fn joints(&mut self, t: f64, rows: &[JointRow]) -> Result<(), OutputError> {
        let names = self.joint_names.fields(rows, |r| [r.name.as_str()]);
        let values =
            rows.iter().map(|r| [r.position, r.velocity, r.actuator_effort, r.constraint_effort]).collect();
        self.send(Job::Joints(t, names, values), rows.len())
    }

    /// Has the writer thread write what it was given so far to disk (without waiting for it).
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.send(Job::Flush, 0)
    }

    /// Writes everything given to disk, reporting the first write error.
    pub fn finish(mut self) -> Result<(), OutputError> {
        self.stop()
    }
}

impl Drop for SimWriter {
    fn drop(&mut self) {
        // Rows given before a failure elsewhere are kept; errors were the caller's to collect.
        let _ = self.close();
    }
}

/// Columns of `solver.csv` (constraint models): one row per step.
pub const SOLVER_COLUMNS: [&str; 4] = ["t", "iterations", "residual", "unknowns"];

/// The PEG model's extra `solver.csv` columns: the overlap at the end of the step (area or
/// volume) and the fall-backs its solve took.
pub const PEG_SOLVER_COLUMNS: [&str; 2] = ["overlap", "fallbacks"];

/// `solver.csv` of a constraint model's run: per step, the sweeps (PEG: pivots), the final
/// residual and the number of scalar unknowns; under PEG also the overlap and fall-backs.
#[derive(Debug)]
pub struct SolverCsv {
    file: CsvFile,
    peg: bool,
}

impl SolverCsv {
    /// Creates `dir/solver.csv` with its header (`dir` must exist); `peg`: with the PEG columns.
    pub fn create(dir: &Path, peg: bool) -> Result<Self, OutputError> {
        let columns: Vec<&str> =
            SOLVER_COLUMNS.iter().chain(if peg { &PEG_SOLVER_COLUMNS[..] } else { &[] }).copied().collect();
        Ok(Self { file: CsvFile::create(&dir.join("solver.csv"), &columns)?, peg })
    }

    /// Appends the step that ended at `t`: iterations, residual, unknowns, and under PEG the
    /// overlap and fall-backs.
    pub fn row(
        &mut self,
        t: f64,
        (iterations, residual, unknowns): (usize, f64, usize),
        (overlap, fallbacks): (f64, u32),
    ) -> Result<(), OutputError> {
        let mut fields = vec![
            Field::Num(t),
            Field::Num(iterations as f64),
            Field::Num(residual),
            Field::Num(unknowns as f64),
        ];
        if self.peg {
            fields.extend([Field::Num(overlap), Field::Num(fallbacks as f64)]);
        }
        self.file.row(&fields)
    }

    /// Writes what is buffered to disk.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.file.flush()
    }
}

/// The columns of `measures.csv`.
pub const MEASURE_COLUMNS: [&str; 7] = ["t", "measure", "dx", "dy", "dz", "translation", "rotation"];

/// `measures.csv`: each `[[measure]]`'s drift at each output time from its start.
#[derive(Debug)]
pub struct MeasuresCsv {
    file: CsvFile,
}

impl MeasuresCsv {
    /// Creates `dir/measures.csv` with its header (`dir` must exist).
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        Ok(Self { file: CsvFile::create(&dir.join("measures.csv"), &MEASURE_COLUMNS)? })
    }

    /// Appends measure `name`'s drift at `t`: the translation (its components in the first
    /// body's frame, and its length) and the rotation angle (rad).
    pub fn row(&mut self, t: f64, name: &str, d: [f64; 3], rotation: f64) -> Result<(), OutputError> {
        let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        self.file.row(&[
            Field::Num(t),
            Field::Text(name),
            Field::Num(d[0]),
            Field::Num(d[1]),
            Field::Num(d[2]),
            Field::Num(length),
            Field::Num(rotation),
        ])
    }

    /// Writes what is buffered to disk.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.file.flush()
    }
}

/// One row of `trajectory.csv`: a body's pose and world-frame twist.
#[derive(Clone, Copy, Debug)]
pub struct BodyRow<'a> {
    pub name: &'a str,
    pub pose: Isometry3,
    pub velocity: Twist,
}

/// One row of `contacts.csv`: the wrench on `a` (torque about the world origin) and the
/// contact area, where the model has one.
#[derive(Clone, Copy, Debug)]
pub struct ContactRow<'a> {
    pub a: &'a str,
    pub b: &'a str,
    pub wrench: Wrench,
    pub area: Option<f64>,
    /// At the contact's centre, where the model has one: the normal force (N, ≥ 0 pressing) and
    /// the tangential slip speed of a relative to b (m/s).
    pub centre: Option<(f64, f64)>,
}

/// One CSV cell.
#[derive(Clone, Copy, Debug)]
enum Field<'a> {
    Num(f64),
    Text(&'a str),
    /// Text already formatted as a field (a row group's time, formatted once).
    Raw(&'a [u8]),
    Empty,
}

/// A buffered CSV file. Rows are formatted straight into its buffer (a `BufWriter` would take
/// each formatted block by a second copy), which goes to disk when it fills, on `flush` and
/// when the file is dropped.
#[derive(Debug)]
struct CsvFile {
    path: PathBuf,
    file: File,
    /// Formatted rows not yet written.
    buffer: Vec<u8>,
    /// Cache cells per row: the header's columns (a row has at most as many fields).
    columns: usize,
    /// The last text of each cell of the rows of a batch (the k-th row of one batch is the
    /// same body's or pair's as the k-th of the next while the bodies or pairs stay the same).
    cache: NumberCache,
}

/// Where a row is formatted: its file's buffer and the cells of the file's number cache.
struct RowOut<'a> {
    line: &'a mut Vec<u8>,
    cache: &'a mut NumberCache,
    /// The row's first cell in the cache.
    first_cell: usize,
}

/// Bytes a file's buffer starts with (a row of 64 bodies is about 12 kB).
const BUFFER_BYTES: usize = 1 << 18;

/// Bytes a file buffers at most: past it rows are written within an output time (which then
/// no longer ends on disk where the other files end), to bound memory.
const MAX_BUFFER_BYTES: usize = 1 << 26;

impl CsvFile {
    fn create(path: &Path, columns: &[&str]) -> Result<Self, OutputError> {
        let file = File::create(path).map_err(OutputError::io(path))?;
        let mut csv = Self {
            path: path.to_path_buf(),
            file,
            buffer: Vec::with_capacity(BUFFER_BYTES),
            columns: columns.len(),
            cache: NumberCache::default(),
        };
        let header: Vec<Field> = columns.iter().map(|c| Field::Text(c)).collect();
        csv.row(&header)?;
        // The header goes out at once so even a run that dies in its first step leaves
        // well-formed (empty) tables.
        csv.flush()?;
        Ok(csv)
    }

    fn row(&mut self, fields: &[Field]) -> Result<(), OutputError> {
        self.rows(&[fields], |_, fields, row| row.write(fields))
    }

    /// Appends one row per item, formatted by `format` (given the item's index).
    fn rows<T>(&mut self, items: &[T], format: impl Fn(usize, &T, &mut RowOut)) -> Result<(), OutputError> {
        for (k, item) in items.iter().enumerate() {
            let mut row =
                RowOut { line: &mut self.buffer, cache: &mut self.cache, first_cell: k * self.columns };
            format(k, item, &mut row);
        }
        // Written with every other output file on the run's next flush (`simulate` flushes
        // the tables, solver.csv and measures.csv together after an output time), unless
        // one output time's rows alone pass the memory bound.
        if self.buffer.len() >= MAX_BUFFER_BYTES { self.write_buffer() } else { Ok(()) }
    }

    /// Writes the buffered rows to the file.
    fn write_buffer(&mut self) -> Result<(), OutputError> {
        let written = self.file.write_all(&self.buffer);
        self.buffer.clear();
        written.map_err(OutputError::io(&self.path))
    }

    fn flush(&mut self) -> Result<(), OutputError> {
        self.write_buffer()?;
        self.file.flush().map_err(OutputError::io(&self.path))
    }
}

impl Drop for CsvFile {
    fn drop(&mut self) {
        // Rows formatted before a failure elsewhere are kept; a write error here has no one
        // to report to (`flush` reports them).
        let _ = self.file.write_all(&self.buffer);
    }
}

/// A number's text, for a field repeated on many rows.
fn formatted(x: f64) -> Vec<u8> {
    let mut text = Vec::with_capacity(24);
    Shortest(x).append_to(&mut text);
    text
}

impl RowOut<'_> {
    /// Appends the row of `fields`.
    fn write(&mut self, fields: &[Field]) {
        let line = &mut *self.line;
        // One capacity check per row rather than per field: a number is at most 24 bytes.
        line.reserve(fields.len() * 25 + 1);
        let cells = self.cache.cells(self.first_cell, fields.len());
        for (i, (field, cell)) in fields.iter().zip(cells).enumerate() {
            // A number's text is kept after a comma: one copy for both.
            if let Field::Num(x) = *field {
                append_cached(cell, x, line, i > 0);
                continue;
            }
            if i > 0 {
                line.push(b',');
            }
            match *field {
                Field::Text(s) => write_text(line, s),
                Field::Raw(bytes) => line.extend_from_slice(bytes),
                Field::Num(_) | Field::Empty => {}
            }
        }
        line.push(b'\n');
    }
}

/// `texts` as consecutive CSV fields.
fn text_field(texts: &[&str]) -> Box<[u8]> {
    let mut fields = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        if i > 0 {
            fields.push(b',');
        }
        write_text(&mut fields, text);
    }
    fields.into()
}

/// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
pub(crate) fn write_text(line: &mut Vec<u8>, s: &str) {
    if !s.contains([',', '"', '\n', '\r']) {
        line.extend_from_slice(s.as_bytes());
        return;
    }
    line.push(b'"');
    for (i, part) in s.split('"').enumerate() {
        if i > 0 {
            line.extend_from_slice(b"\"\"");
        }
        line.extend_from_slice(part.as_bytes());
    }
    line.push(b'"');
}
