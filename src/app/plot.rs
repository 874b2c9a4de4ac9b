//! Line plots to PNG (energy or contact force against time) with the crate's own rasterizer.

use super::OutputError;
use super::raster::{Image, Rect, Rgb};
use std::path::Path;

const BACKGROUND: Rgb = [255, 255, 255];
const GRID: Rgb = [228, 228, 228];
const FRAME: Rgb = [110, 110, 110];
const TEXT: Rgb = [20, 20, 20];
/// Distinct, colour-blind-tolerant line colours; series beyond the tenth reuse them in order.
const PALETTE: [Rgb; 10] = [
    [0, 90, 200],
    [230, 100, 0],
    [0, 150, 60],
    [210, 30, 40],
    [130, 60, 180],
    [140, 90, 40],
    [220, 60, 170],
    [0, 170, 190],
    [150, 150, 0],
    [60, 60, 60],
];
const MIN_SIDE_PX: u32 = 64;
const MAX_SIDE_PX: u32 = 16384;
/// About this many ticks per axis.
const TICKS: f64 = 6.0;

/// The colour of series `i` in [`plot_lines`].
pub fn plot_colour(i: usize) -> [u8; 3] {
    PALETTE[i % PALETTE.len()]
}

/// Draws each series as a line of [`plot_colour`]`(i)` on shared axes with numbered ticks, a
/// title, an x-axis label and a legend, and writes a `width`×`height` PNG.
///
/// Points with a non-finite coordinate are skipped and break the line there. Empty series are
/// listed in the legend only; a constant series is drawn flat in the middle of the plot.
pub fn plot_lines(
    path: &Path,
    title: &str,
    x_label: &str,
    series: &[(&str, &[(f64, f64)])],
    width: u32,
    height: u32,
) -> Result<(), OutputError> {
    let too_small = |problem: String| OutputError::BadInput {
        path: path.to_path_buf(),
        problem,
        fix: format!("use a width and height between {MIN_SIDE_PX} and {MAX_SIDE_PX} px"),
    };
    if ![width, height].iter().all(|s| (MIN_SIDE_PX..=MAX_SIDE_PX).contains(s)) {
        return Err(too_small(format!("a {width}×{height} px plot is out of range")));
    }
    let (w, h) = (width as usize, height as usize);
    let s = (w.min(h) / 250).clamp(1, 4);
    let points = || series.iter().flat_map(|(_, p)| p.iter()).filter(|(x, y)| x.is_finite() && y.is_finite());
    let x_axis = Axis::new(points().map(|p| p.0), 0.0);
    let y_axis = Axis::new(points().map(|p| p.1), 0.05);
    let y_labels: Vec<(f64, String)> = y_axis.ticks().map(|v| (v, y_axis.label(v))).collect();
    let label_w = y_labels.iter().map(|(_, l)| Image::text_width(l, s)).max().unwrap_or(0);

    let margin = 6 * s;
    let text_h = 7 * s;
    let plot = Rect {
        x0: margin + label_w + 4 * s,
        y0: 2 * margin + text_h,
        x1: w.saturating_sub(2 * margin),
        y1: h.saturating_sub(margin + text_h + 3 * s + text_h + 4 * s),
    };
    if plot.x1 < plot.x0 + 16 || plot.y1 < plot.y0 + 16 {
        return Err(too_small(format!("a {width}×{height} px plot leaves no room for the axes")));
    }

    let mut image = Image::new(w, h, BACKGROUND);
    let (pw, ph) = ((plot.x1 - plot.x0 - 1) as f64, (plot.y1 - plot.y0 - 1) as f64);
    let to_px = |x: f64, y: f64| {
        [plot.x0 as f64 + x_axis.fraction(x) * pw, plot.y1 as f64 - 1.0 - y_axis.fraction(y) * ph]
    };

    // Grid and tick labels.
    for (v, label) in &y_labels {
        let y = to_px(x_axis.lo, *v)[1].round() as usize;
        image.fill_rect(Rect { x0: plot.x0, y0: y, x1: plot.x1, y1: y + 1 }, GRID);
        let x = plot.x0.saturating_sub(3 * s + Image::text_width(label, s));
        image.text(x, y.saturating_sub(text_h / 2), s, label, TEXT);
    }
    let mut free_from = 0;
    for v in x_axis.ticks() {
        let x = to_px(v, y_axis.lo)[0].round() as usize;
        image.fill_rect(Rect { x0: x, y0: plot.y0, x1: x + 1, y1: plot.y1 }, GRID);
        let label = x_axis.label(v);
        let left = x.saturating_sub(Image::text_width(&label, s) / 2);
        // Skip a label that would run into the previous one.
        if left >= free_from {
            image.text(left, plot.y1 + 3 * s, s, &label, TEXT);
            free_from = left + Image::text_width(&label, s) + 3 * s;
        }
    }
    image.outline(plot, FRAME);

    let thickness = s + 1;
    for (i, (_, points)) in series.iter().enumerate() {
        let c = plot_colour(i);
        let mut prev: Option<[f64; 2]> = None;
        for &(x, y) in points.iter() {
            if !(x.is_finite() && y.is_finite()) {
                prev = None;
                continue;
            }
            let p = to_px(x, y);
            match prev {
                Some(q) => image.line(q, p, thickness, plot, c),
                // A lone point is still visible.
                None => image.dot(p, thickness + 1, plot, c),
            }
            prev = Some(p);
        }
    }

    let title_x = w.saturating_sub(Image::text_width(title, s)) / 2;
    image.text(title_x, margin, s, title, TEXT);
    let x_label_x = (plot.x0 + plot.x1).saturating_sub(Image::text_width(x_label, s)) / 2;
    image.text(x_label_x, h.saturating_sub(margin + text_h), s, x_label, TEXT);
    draw_legend(&mut image, plot, s, series);
    image.write_png(path)
}

/// A box in the top-right corner of the plot listing the series; rows that do not fit are
/// summarised as "+N more".
fn draw_legend(image: &mut Image, plot: Rect, s: usize, series: &[(&str, &[(f64, f64)])]) {
    if series.is_empty() {
        return;
    }
    let (pad, row_h, swatch) = (4 * s, 10 * s, 12 * s);
    let fits = (plot.y1 - plot.y0).saturating_sub(4 * pad) / row_h;
    let shown = if series.len() <= fits { series.len() } else { fits.saturating_sub(1) };
    let more = (shown < series.len()).then(|| format!("+{} more", series.len() - shown));
    let names = series.iter().take(shown).map(|(n, _)| *n).chain(more.as_deref());
    let text_w = names.clone().map(|n| Image::text_width(n, s)).max().unwrap_or(0);
    let box_w = (pad + swatch + pad + text_w + pad).min(plot.x1 - plot.x0 - 2 * pad);
    let rows = shown + usize::from(more.is_some());
    let x0 = plot.x1.saturating_sub(pad + box_w).max(plot.x0);
    let area = Rect { x0, y0: plot.y0 + pad, x1: x0 + box_w, y1: plot.y0 + pad + rows * row_h + pad };
    image.fill_rect(area, BACKGROUND);
    image.outline(area, FRAME);
    for (i, name) in names.enumerate() {
        let y = area.y0 + pad + i * row_h;
        let mid = (y + 7 * s / 2) as f64;
        if i < shown {
            let swatch_x = (area.x0 + pad) as f64;
            image.line([swatch_x, mid], [swatch_x + swatch as f64, mid], s + 1, area, plot_colour(i));
        }
        image.text(area.x0 + 2 * pad + swatch, y, s, name, TEXT);
    }
}

/// A linear axis over the data's finite range.
struct Axis {
    lo: f64,
    hi: f64,
}

impl Axis {
    /// The range of `values` widened by `pad` of its span on each side; a single value gets a
    /// range around it (an empty one would divide by zero), no value gives [0, 1].
    fn new(values: impl Iterator<Item = f64>, pad: f64) -> Self {
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if lo > hi {
            return Self { lo: 0.0, hi: 1.0 };
        }
        if lo == hi {
            let d = if lo == 0.0 { 1.0 } else { 0.1 * lo.abs() };
            return Self { lo: (lo - d).max(f64::MIN), hi: (hi + d).min(f64::MAX) };
        }
        // Halves keep the span finite for data reaching ±f64::MAX; clamping keeps the ends finite.
        let d = pad * 2.0 * (0.5 * hi - 0.5 * lo);
        Self { lo: (lo - d).max(f64::MIN), hi: (hi + d).min(f64::MAX) }
    }

    /// `hi - lo` divided by `k`, without overflowing on the way.
    fn span_over(&self, k: f64) -> f64 {
        (0.5 * self.hi - 0.5 * self.lo) * (2.0 / k)
    }

    /// Position of `v` along the axis, 0 at `lo` and 1 at `hi`.
    fn fraction(&self, v: f64) -> f64 {
        let f = (0.5 * v - 0.5 * self.lo) / self.span_over(2.0);
        if f.is_finite() { f } else { 0.5 }
    }

    /// A round tick spacing: 1, 2 or 5 times a power of ten.
    fn step(&self) -> Option<f64> {
        let raw = self.span_over(TICKS);
        if !(raw.is_finite() && raw > 0.0) {
            return None;
        }
        let unit = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * unit).find(|&s| s >= raw * (1.0 - 1e-9))?;
        (step.is_finite() && step > 0.0).then_some(step)
    }

    /// Tick values inside the range (at most a few dozen, whatever the range).
    fn ticks(&self) -> impl Iterator<Item = f64> + '_ {
        let step = self.step();
        let first = step.map_or(0.0, |s| (self.lo / s).ceil());
        (0..4 * TICKS as usize).map_while(move |k| {
            let s = step?;
            let v = (first + k as f64) * s;
            // Snap round-off (e.g. 3 × 0.1) so zero is labelled "0", not "-0.0".
            let v = if v.abs() < 1e-9 * s { 0.0 } else { v };
            (v <= self.hi).then_some(v)
        })
    }

    /// `v` with just enough decimals for the tick spacing; exponent form for very large or
    /// small values.
    fn label(&self, v: f64) -> String {
        let step = self.step().unwrap_or(1.0);
        let big = self.lo.abs().max(self.hi.abs());
        if step >= 1e-4 && big < 1e6 {
            let decimals = (-step.log10().floor()).max(0.0) as usize;
            format!("{v:.decimals$}")
        } else {
            format!("{v:.1e}")
        }
    }
}
