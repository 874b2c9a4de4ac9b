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
        Self {
            width,
            height,
            data: background.repeat(width * height),
        }
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
        let hi = |k: usize| {
            p.iter()
                .map(|q| q[k])
                .fold(f64::NEG_INFINITY, f64::max)
                .ceil()
        };
        // Clamp in f64 before converting, so far-off vertices cannot overflow the loop bounds.
        let span = |lo: f64, hi: f64, min: usize, max: usize| {
            (
                lo.max(min as f64) as usize,
                hi.min(max as f64).max(0.0) as usize,
            )
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
                    self.set(
                        x,
                        y,
                        colour(w0 * values[0] + w1 * values[1] + w2 * values[2]),
                    );
                }
            }
        }
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
        let mut encoder = png::Encoder::new(
            std::io::BufWriter::new(file),
            self.width as u32,
            self.height as u32,
        );
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let result = encoder
            .write_header()
            .and_then(|mut w| w.write_image_data(&self.data).and_then(|()| w.finish()));
        result.map_err(|e| io(std::io::Error::other(e)))
    }
}
