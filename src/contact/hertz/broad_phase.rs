//! Broad phase: which axis-aligned boxes overlap, by sweep and prune.

use crate::math::Point3;

/// All pairs `(i, j)`, `i < j`, of boxes `(min, max)` that overlap or touch, in ascending
/// lexicographic order (deterministic). Boxes with a NaN coordinate or `min > max` overlap
/// nothing.
///
/// Sorts the boxes by their lower bound on the axis along which the box centres spread most,
/// then sweeps: a box is only compared with the boxes whose interval on that axis is still
/// open, which is near-linear for scattered bodies instead of all-pairs quadratic.
pub fn broad_phase(boxes: &[(Point3, Point3)]) -> Vec<(usize, usize)> {
    let valid = |(lo, hi): &(Point3, Point3)| (0..3).all(|k| lo[k] <= hi[k]);
    let ids: Vec<usize> = (0..boxes.len()).filter(|&i| valid(&boxes[i])).collect();
    if ids.len() < 2 {
        return Vec::new();
    }
    let axis = spread_axis(boxes, &ids);
    let mut order = ids;
    order.sort_by(|&i, &j| boxes[i].0[axis].total_cmp(&boxes[j].0[axis]).then(i.cmp(&j)));
    let mut pairs = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    for &i in &order {
        let (lo, hi) = &boxes[i];
        // Boxes whose upper bound lies below this lower bound can never meet a later box.
        active.retain(|&j| boxes[j].1[axis] >= lo[axis]);
        for &j in &active {
            let (lo_j, hi_j) = &boxes[j];
            if (0..3).all(|k| lo[k] <= hi_j[k] && lo_j[k] <= hi[k]) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
        active.push(i);
    }
    pairs.sort_unstable();
    pairs
}

/// The axis with the largest variance of box centres.
fn spread_axis(boxes: &[(Point3, Point3)], ids: &[usize]) -> usize {
    let n = ids.len() as f64;
    let mut best = (0, f64::NEG_INFINITY);
    for k in 0..3 {
        let centre = |i: usize| (boxes[i].0[k] + boxes[i].1[k]) / 2.0;
        let mean = ids.iter().map(|&i| centre(i)).sum::<f64>() / n;
        let var = ids.iter().map(|&i| (centre(i) - mean).powi(2)).sum::<f64>();
        if var > best.1 {
            best = (k, var);
        }
    }
    best.0
}
