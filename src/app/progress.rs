//! Progress of long simulations on stderr: a bar redrawn in place on a terminal, or a plain
//! line every few seconds when stderr is a file or a pipe (logs, CI).

use std::io::{IsTerminal, Stderr, Write};
use std::time::{Duration, Instant};

/// Shortest time between two redraws: about ten a second is smooth and costs nothing.
const REDRAW_EVERY: Duration = Duration::from_millis(100);
/// Time between two lines when stderr is not a terminal (and before the first: short runs
/// print none).
const LINE_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Nothing (`--quiet`).
    Off,
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// A line every few seconds (stderr is a file or a pipe).
    Lines,
}

impl ProgressMode {
    /// `Bar` on a terminal, else `Lines`; `Off` when `quiet`.
    pub fn for_stderr(quiet: bool) -> ProgressMode {
        match (quiet, std::io::stderr().is_terminal()) {
            (true, _) => ProgressMode::Off,
            (false, true) => ProgressMode::Bar,
            (false, false) => ProgressMode::Lines,
        }
    }
}
const BAR_WIDTH: usize = 20;

/// Shows `simulating  42% [########............] t=0.420 s  rtf 3.10` and redraws it as
/// simulated time advances. A disabled indicator writes nothing, so callers need no branches.
/// Write errors are ignored: progress is cosmetic and must never stop a run.
#[derive(Debug)]
pub struct Progress<W: Write = Stderr> {
    out: W,
    total: f64,
    mode: ProgressMode,
    start: Instant,
    last_draw: Option<Instant>,
    /// Length of the line on screen, so a shorter redraw can blank the rest.
    shown: usize,
    /// Time between lines in [`ProgressMode::Lines`].
    line_every: Duration,
    finished: bool,
    /// What is counted, when the indicator counts items (`runs`) rather than simulated time.
    unit: Option<&'static str>,
}

impl Progress<Stderr> {
    /// An indicator on stderr for a run of `total_time` simulated seconds.
    pub fn new(total_time: f64, mode: ProgressMode) -> Self {
        Self::with_writer(std::io::stderr(), total_time, mode)
    }

    /// An indicator on stderr for `total` items of work (`sweeping  42% [####…] 27 of 64 runs`);
    /// [`Progress::update`] takes the number done.
    pub fn counting(total: usize, unit: &'static str, mode: ProgressMode) -> Self {
        let mut progress = Self::new(total as f64, mode);
        progress.unit = Some(unit);
        progress
    }
}

impl<W: Write> Progress<W> {
    /// An indicator that writes to `out` (a test can pass `&mut Vec<u8>` and read it after
    /// dropping the indicator).
    pub fn with_writer(out: W, total_time: f64, mode: ProgressMode) -> Self {
        Self {
            out,
            total: total_time,
            mode,
            start: Instant::now(),
            last_draw: None,
            shown: 0,
            line_every: LINE_EVERY,
            finished: false,
            unit: None,
        }
    }

    /// Lines every `every` instead of every 5 s (for tests).
    pub fn with_line_interval(mut self, every: Duration) -> Self {
        self.line_every = every;
        self
    }

    /// Reports that the simulation reached time `t` (s); redraws if the last redraw is old
    /// enough. Any `t` is accepted: the bar is clamped to 0–100 %.
    pub fn update(&mut self, t: f64) {
        if self.finished {
            return;
        }
        let now = Instant::now();
        match self.mode {
            ProgressMode::Off => {}
            ProgressMode::Bar => {
                if self.last_draw.is_some_and(|last| now.duration_since(last) < REDRAW_EVERY) {
                    return;
                }
                self.last_draw = Some(now);
                self.draw(t, now);
            }
            ProgressMode::Lines => {
                let since = now.duration_since(self.last_draw.unwrap_or(self.start));
                if since < self.line_every {
                    return;
                }
                self.last_draw = Some(now);
                let line = self.line(t, now.duration_since(self.start));
                let _ = writeln!(self.out, "{line}");
                let _ = self.out.flush();
            }
        }
    }

    /// Draws the line at 100 % (the run is complete) and ends it. Later calls and updates do
    /// nothing.
    pub fn finish(&mut self) {
        if self.mode != ProgressMode::Bar || self.finished {
            self.finished = true;
            return;
        }
        self.draw(self.total, Instant::now());
        self.end_line();
    }

    fn draw(&mut self, t: f64, now: Instant) {
        let line = self.line(t, now.duration_since(self.start));
        let blank = self.shown.saturating_sub(line.chars().count());
        let _ = write!(self.out, "\r{line}{:blank$}", "");
        let _ = self.out.flush();
        self.shown = line.chars().count();
    }

    fn line(&self, t: f64, wall: Duration) -> String {
        let fraction = if self.total > 0.0 { (t / self.total).clamp(0.0, 1.0) } else { 1.0 };
        // NaN compares false everywhere above; show it as no progress.
        let fraction = if fraction.is_nan() { 0.0 } else { fraction };
        let filled = (fraction * BAR_WIDTH as f64).round() as usize;
        let bar: String = (0..BAR_WIDTH).map(|i| if i < filled { '#' } else { '.' }).collect();
        let percent = (fraction * 100.0).floor() as u32;
        let wall = wall.as_secs_f64();
        let rate = if wall > 1e-3 && t.is_finite() && t > 0.0 { Some(t / wall) } else { None };
        let rtf = rate.map_or_else(|| "-".to_owned(), |r| format!("{r:.2}"));
        // Time left at the rate so far.
        let eta = match rate {
            Some(r) if t < self.total => format_eta((self.total - t) / r),
            _ => "-".to_owned(),
        };
        if let Some(unit) = self.unit {
            let (done, total) = (t as u64, self.total as u64);
            return match self.mode {
                ProgressMode::Lines => {
                    format!("contactlab: sweeping {percent}%: {done} of {total} {unit}, eta {eta}")
                }
                _ => format!("sweeping {percent:>3}% [{bar}] {done} of {total} {unit}  eta {eta}"),
            };
        }
        match self.mode {
            ProgressMode::Lines => {
                format!(
                    "contactlab: simulating {percent}%: t = {t:.3} s of {} s, rtf {rtf}, eta {eta}",
                    self.total
                )
            }
            _ => format!("simulating {percent:>3}% [{bar}] t={t:.3} s  rtf {rtf}  eta {eta}"),
        }
    }

    /// Moves to a fresh line if a progress bar is on screen.
    fn end_line(&mut self) {
        if self.mode == ProgressMode::Bar && self.shown > 0 && !self.finished {
            let _ = writeln!(self.out);
            let _ = self.out.flush();
        }
        self.finished = true;
    }
}

/// Seconds as `12 s`, `3 min 20 s` or `2 h 05 min`.
fn format_eta(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "-".to_owned();
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

impl<W: Write> Drop for Progress<W> {
    /// An unfinished line (a run that failed) is ended so the error message starts on its own.
    fn drop(&mut self) {
        self.end_line();
    }
}
