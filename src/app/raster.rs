//! A minimal RGB raster: rectangles, Gouraud-style scalar triangles and bitmap text.

use super::OutputError;
use super::font;
use std::path::Path;

pub(super) type Rgb = [u8; 3];

/// A pixel rectangle `[x0, x1) × [y0, y1)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

/// An 8-bit RGB image, rows top to bottom.
pub(super) struct Image {
    pub width: usize,
    pub height: usize,
    pub data: Vec<u8>,
}

impl Image {
    pub fn new(width: usize, height: usize, background: Rgb) -> Self {
        Self { width, height, data: background.repeat(width * height) }
    }

    pub fn set(&mut self, x: usize, y: usize, c: Rgb) {
        if x < self.width && y < self.height {
            let i = 3 * (y * self.width + x);
            self.data[i..i + 3].copy_from_slice(&c);
        }
    }

    pub fn fill_rect(&mut self, r: Rect, c: Rgb) {
        for y in r.y0..r.y1.min(self.height) {
            for x in r.x0..r.x1.min(self.width) {
                self.set(x, y, c);
            }
        }
    }

    /// A one-pixel outline just inside `r`.
    pub fn outline(&mut self, r: Rect, c: Rgb) {
        if r.x1 <= r.x0 || r.y1 <= r.y0 {
            return;
        }
        for x in r.x0..r.x1 {
            self.set(x, r.y0, c);
            self.set(x, r.y1 - 1, c);
        }
        for y in r.y0..r.y1 {
            self.set(r.x0, y, c);
            self.set(r.x1 - 1, y, c);
        }
    }

    /// Fills the triangle `p` (pixel coordinates, any winding) inside `clip`, colouring each pixel
    /// whose centre is inside by `colour` of the barycentric interpolation of `values`.
    pub fn fill_triangle(
        &mut self,
        p: [[f64; 2]; 3],
        values: [f64; 3],
        clip: Rect,
        colour: impl Fn(f64) -> Rgb,
    ) {
        let edge = |a: [f64; 2], b: [f64; 2], x: f64, y: f64| {
            (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
        };
        let area = edge(p[0], p[1], p[2][0], p[2][1]);
        if area.abs() < 1e-12 || !area.is_finite() {
            return;
        }
        let lo = |k: usize| p.iter().map(|q| q[k]).fold(f64::INFINITY, f64::min).floor();
        let hi = |k: usize| p.iter().map(|q| q[k]).fold(f64::NEG_INFINITY, f64::max).ceil();
        // Clamp in f64 before converting, so far-off vertices cannot overflow the loop bounds.
        let span = |lo: f64, hi: f64, min: usize, max: usize| {
            (lo.max(min as f64) as usize, hi.min(max as f64).max(0.0) as usize)
        };
        let (x0, x1) = span(lo(0), hi(0), clip.x0, clip.x1.min(self.width));
        let (y0, y1) = span(lo(1), hi(1), clip.y0, clip.y1.min(self.height));
        for y in y0..y1 {
            for x in x0..x1 {
                let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
                // Barycentric weights; dividing by the signed area makes winding irrelevant.
                let w0 = edge(p[1], p[2], cx, cy) / area;
                let w1 = edge(p[2], p[0], cx, cy) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 >= -1e-9 && w1 >= -1e-9 && w2 >= -1e-9 {
                    self.set(x, y, colour(w0 * values[0] + w1 * values[1] + w2 * values[2]));
                }
            }
        }
    }

    /// Draws the segment `a`–`b` (pixel coordinates) `thickness` pixels wide inside `clip`. The
    /// segment is clipped first, so far-off or non-finite ends cost nothing.
    pub fn line(&mut self, a: [f64; 2], b: [f64; 2], thickness: usize, clip: Rect, c: Rgb) {
        let Some((a, b)) = clip_segment(a, b, clip) else {
            return;
        };
        let steps = (b[0] - a[0]).abs().max((b[1] - a[1]).abs()).ceil().max(1.0) as usize;
        for i in 0..=steps {
            let f = i as f64 / steps as f64;
            self.dot([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])], thickness, clip, c);
        }
    }

    /// A `size`-pixel square centred on `p`, inside `clip`.
    pub fn dot(&mut self, p: [f64; 2], size: usize, clip: Rect, c: Rgb) {
        if !(p[0].is_finite() && p[1].is_finite()) {
            return;
        }
        let half = size as f64 / 2.0;
        // Clamp in f64 before converting, as in `fill_triangle`.
        let lo = |v: f64, min: usize| (v - half).round().max(min as f64) as usize;
        let (x0, y0) = (lo(p[0], clip.x0), lo(p[1], clip.y0));
        let r = Rect {
            x0,
            y0,
            x1: x0.saturating_add(size).min(clip.x1),
            y1: y0.saturating_add(size).min(clip.y1),
        };
        self.fill_rect(r, c);
    }

    /// Draws `text` with its top-left corner at `(x, y)`, each font pixel `scale` pixels wide.
    pub fn text(&mut self, x: usize, y: usize, scale: usize, text: &str, c: Rgb) {
        for (col, row) in font::text_pixels(text) {
            let r = Rect {
                x0: x + col * scale,
                y0: y + row * scale,
                x1: x + (col + 1) * scale,
                y1: y + (row + 1) * scale,
            };
            self.fill_rect(r, c);
        }
    }

    /// Width in pixels of `text` drawn at `scale`.
    pub fn text_width(text: &str, scale: usize) -> usize {
        (text.chars().count() * font::ADVANCE).saturating_sub(1) * scale
    }

    pub fn write_png(&self, path: &Path) -> Result<(), OutputError> {
        let io = OutputError::io(path);
        let file = std::fs::File::create(path).map_err(OutputError::io(path))?;
        let mut encoder =
            png::Encoder::new(std::io::BufWriter::new(file), self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let result =
            encoder.write_header().and_then(|mut w| w.write_image_data(&self.data).and_then(|()| w.finish()));
        result.map_err(|e| io(std::io::Error::other(e)))
    }
}

/// The part of segment `a`–`b` inside `r` (Liang–Barsky), or `None` if there is none or an end is
/// not finite.
fn clip_segment(a: [f64; 2], b: [f64; 2], r: Rect) -> Option<([f64; 2], [f64; 2])> {
    if !a.iter().chain(&b).all(|v| v.is_finite()) {
        return None;
    }
    let d = [b[0] - a[0], b[1] - a[1]];
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    let bounds = [(r.x0 as f64, r.x1 as f64), (r.y0 as f64, r.y1 as f64)];
    for k in 0..2 {
        let (lo, hi) = bounds[k];
        for (p, q) in [(-d[k], a[k] - lo), (d[k], hi - a[k])] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
    }
    let at = |t: f64| [a[0] + t * d[0], a[1] + t * d[1]];
    (t0 <= t1).then(|| (at(t0), at(t1)))
}
