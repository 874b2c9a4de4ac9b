//! PNG pressure heat maps of contact surfaces, one panel per pair, with a shared colour bar.

use super::raster::{Image, Rect, Rgb};
use super::view::View;
use super::{OutputError, viridis};
use crate::contact::surface::ContactSurface;
use std::path::Path;

const BACKGROUND: Rgb = [255, 255, 255];
const EMPTY_PANEL: Rgb = [190, 190, 190];
const FRAME: Rgb = [120, 120, 120];
const TEXT: Rgb = [20, 20, 20];
/// Narrowest useful panel, and widest image we agree to allocate.
const MIN_PANEL_PX: usize = 16;
const MAX_WIDTH_PX: usize = 16384;

/// Draws each contact surface as a pressure heat map seen along its mean normal, panels side by
/// side in the given order, all sharing one colour scale (viridis, min → max pressure) shown by a
/// colour bar with its min and max in Pa. An empty surface gives a plain grey panel. The image is
/// `width_px` wide; its height follows from the layout. Panel names are not drawn (panels can be
/// narrower than a name); they are kept for callers' captions.
pub fn write_pressure_png(
    path: &Path,
    panels: &[(String, &ContactSurface)],
    width_px: u32,
) -> Result<(), OutputError> {
    for (name, surface) in panels {
        if let Some(i) = surface.polygons.iter().position(|p| p.pressure.len() != p.vertices.len()) {
            return Err(OutputError::BadInput {
                path: path.to_path_buf(),
                problem: format!(
                    "contact polygon {i} of panel '{name}' has a pressure count unequal to its vertex count"
                ),
                fix: "give one pressure per polygon vertex".into(),
            });
        }
    }
    let layout = Layout::new(path, width_px as usize, panels.len().max(1))?;
    let (lo, hi) = pressure_range(panels.iter().map(|(_, s)| *s));
    let colour = |p: f64| viridis(if hi > lo { (p - lo) / (hi - lo) } else { 0.5 });

    let mut image = Image::new(layout.width, layout.height, BACKGROUND);
    for (i, (_, surface)) in panels.iter().enumerate() {
        draw_panel(&mut image, layout.panel(i), surface, &colour);
    }
    if panels.is_empty() {
        image.fill_rect(layout.panel(0), EMPTY_PANEL);
    }
    draw_colour_bar(&mut image, &layout, lo, hi);
    image.write_png(path)
}

/// Pixel geometry of the figure.
struct Layout {
    width: usize,
    height: usize,
    margin: usize,
    side: usize,
    bar_height: usize,
    text_scale: usize,
}

impl Layout {
    fn new(path: &Path, width: usize, panels: usize) -> Result<Self, OutputError> {
        let margin = (width / 64).max(4);
        let side = width.saturating_sub(margin * (panels + 1)) / panels;
        if side < MIN_PANEL_PX || width > MAX_WIDTH_PX {
            return Err(OutputError::BadInput {
                path: path.to_path_buf(),
                problem: format!("an image {width} px wide cannot hold {panels} panel(s)"),
                fix: format!(
                    "use a width between {} and {MAX_WIDTH_PX} px",
                    panels * MIN_PANEL_PX + 4 * (panels + 1)
                ),
            });
        }
        let text_scale = (width / 500).max(1);
        let bar_height = (width / 40).clamp(6, 40);
        let height = margin + side + margin + bar_height + margin / 2 + 7 * text_scale + margin;
        Ok(Self { width, height, margin, side, bar_height, text_scale })
    }

    fn panel(&self, i: usize) -> Rect {
        let x0 = self.margin + i * (self.side + self.margin);
        Rect { x0, y0: self.margin, x1: x0 + self.side, y1: self.margin + self.side }
    }

    fn bar(&self) -> Rect {
        let y0 = 2 * self.margin + self.side;
        Rect { x0: self.margin, y0, x1: self.width - self.margin, y1: y0 + self.bar_height }
    }
}

/// Min and max finite pressure over all surfaces ((0, 0) if there is none).
fn pressure_range<'a>(surfaces: impl Iterator<Item = &'a ContactSurface>) -> (f64, f64) {
    let all = surfaces.flat_map(|s| s.polygons.iter().flat_map(|p| p.pressure.iter().copied()));
    let (lo, hi) = all
        .filter(|p| p.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)));
    if lo <= hi { (lo, hi) } else { (0.0, 0.0) }
}

/// One panel: the surface projected onto the plane orthogonal to its mean normal, scaled with
/// equal aspect to fit, each polygon filled as a fan of triangles from its first vertex.
fn draw_panel(image: &mut Image, rect: Rect, surface: &ContactSurface, colour: &impl Fn(f64) -> Rgb) {
    let view = View::of(surface);
    let finite = |p: &&crate::contact::pressure_field::ContactPolygon| {
        p.vertices.len() >= 3 && p.vertices.iter().all(|v| v.coords.iter().all(|c| c.is_finite()))
    };
    let polygons: Vec<Vec<[f64; 2]>> = surface
        .polygons
        .iter()
        .filter(finite)
        .map(|p| p.vertices.iter().map(|v| view.project(v)).collect())
        .collect();
    let Some((min, max)) = bounds(polygons.iter().flatten()) else {
        image.fill_rect(rect, EMPTY_PANEL);
        return;
    };
    let pad = (rect.x1 - rect.x0) as f64 * 0.05 + 1.0;
    let inner = (rect.x1 - rect.x0) as f64 - 2.0 * pad;
    let extent = (max[0] - min[0]).max(max[1] - min[1]);
    let scale = if extent > 0.0 { inner / extent } else { 1.0 };
    let centre = [(rect.x0 + rect.x1) as f64 / 2.0, (rect.y0 + rect.y1) as f64 / 2.0];
    let mid = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
    // Image rows grow downwards, so v is flipped to keep the view right-handed.
    let to_px = |q: &[f64; 2]| [centre[0] + (q[0] - mid[0]) * scale, centre[1] - (q[1] - mid[1]) * scale];

    for (polygon, pixels) in surface.polygons.iter().filter(finite).zip(&polygons) {
        let p = &polygon.pressure;
        for k in 1..pixels.len() - 1 {
            let tri = [to_px(&pixels[0]), to_px(&pixels[k]), to_px(&pixels[k + 1])];
            image.fill_triangle(tri, [p[0], p[k], p[k + 1]], rect, colour);
        }
    }
    image.outline(rect, FRAME);
}

fn bounds<'a>(points: impl Iterator<Item = &'a [f64; 2]>) -> Option<([f64; 2], [f64; 2])> {
    points.fold(None, |acc, q| {
        let (lo, hi) = acc.unwrap_or((*q, *q));
        Some(([lo[0].min(q[0]), lo[1].min(q[1])], [hi[0].max(q[0]), hi[1].max(q[1])]))
    })
}

/// The colour bar (low pressure on the left) with the min and max printed beneath its ends.
fn draw_colour_bar(image: &mut Image, layout: &Layout, lo: f64, hi: f64) {
    let bar = layout.bar();
    let span = (bar.x1 - bar.x0).saturating_sub(1).max(1) as f64;
    for x in bar.x0..bar.x1 {
        let c = viridis((x - bar.x0) as f64 / span);
        image.fill_rect(Rect { x0: x, y0: bar.y0, x1: x + 1, y1: bar.y1 }, c);
    }
    image.outline(bar, FRAME);
    let (s, y) = (layout.text_scale, bar.y1 + layout.margin / 2);
    let (min_text, max_text) = (format!("{lo:.2e} Pa"), format!("{hi:.2e} Pa"));
    image.text(bar.x0, y, s, &min_text, TEXT);
    let max_width = Image::text_width(&max_text, s);
    // Only when it does not overlap the min label.
    if bar.x0 + Image::text_width(&min_text, s) + 4 * s + max_width <= bar.x1 {
        image.text(bar.x1 - max_width, y, s, &max_text, TEXT);
    }
}
