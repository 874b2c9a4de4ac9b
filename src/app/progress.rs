//! A one-line progress indicator for long simulations, redrawn in place on stderr.

use std::io::{IsTerminal, Stderr, Write};
use std::time::{Duration, Instant};

/// Shortest time between two redraws: about ten a second is smooth and costs nothing.
const REDRAW_EVERY: Duration = Duration::from_millis(100);
const BAR_WIDTH: usize = 20;

/// Shows `simulating  42% [########............] t=0.420 s  rtf 3.10` and redraws it as
/// simulated time advances. A disabled indicator writes nothing, so callers need no branches.
/// Write errors are ignored: progress is cosmetic and must never stop a run.
#[derive(Debug)]
pub struct Progress<W: Write = Stderr> {
    out: W,
    total: f64,
    enabled: bool,
    start: Instant,
    last_draw: Option<Instant>,
    /// Length of the line on screen, so a shorter redraw can blank the rest.
    shown: usize,
    finished: bool,
}

impl Progress<Stderr> {
    /// An indicator on stderr for a run of `total_time` simulated seconds.
    pub fn new(total_time: f64, enabled: bool) -> Self {
        Self::with_writer(std::io::stderr(), total_time, enabled)
    }

    /// An indicator on stderr, enabled only when stderr is a terminal (not a file or a pipe,
    /// where carriage-return redraws would be noise).
    pub fn on_terminal(total_time: f64) -> Self {
        Self::new(total_time, std::io::stderr().is_terminal())
    }
}

impl<W: Write> Progress<W> {
    /// An indicator that writes to `out` (a test can pass `&mut Vec<u8>` and read it after
    /// dropping the indicator).
    pub fn with_writer(out: W, total_time: f64, enabled: bool) -> Self {
        Self {
            out,
            total: total_time,
            enabled,
            start: Instant::now(),
            last_draw: None,
            shown: 0,
            finished: false,
        }
    }

    /// Reports that the simulation reached time `t` (s); redraws if the last redraw is old
    /// enough. Any `t` is accepted: the bar is clamped to 0–100 %.
    pub fn update(&mut self, t: f64) {
        if !self.enabled || self.finished {
            return;
        }
        let now = Instant::now();
        if self.last_draw.is_some_and(|last| now.duration_since(last) < REDRAW_EVERY) {
            return;
        }
        self.last_draw = Some(now);
        self.draw(t, now);
    }

    /// Draws the line at 100 % (the run is complete) and ends it. Later calls and updates do
    /// nothing.
    pub fn finish(&mut self) {
        if !self.enabled || self.finished {
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
        let rtf = if wall > 1e-3 && t.is_finite() { format!("{:.2}", t / wall) } else { "-".to_owned() };
        format!("simulating {percent:>3}% [{bar}] t={t:.3} s  rtf {rtf}")
    }

    /// Moves to a fresh line if a progress line is on screen.
    fn end_line(&mut self) {
        if self.shown > 0 && !self.finished {
            let _ = writeln!(self.out);
            let _ = self.out.flush();
        }
        self.finished = true;
    }
}

impl<W: Write> Drop for Progress<W> {
    /// An unfinished line (a run that failed) is ended so the error message starts on its own.
    fn drop(&mut self) {
        self.end_line();
    }
}
